"""The cheap tests that let `find_secrets` skip its patterns never hide a secret.

Each pre-filter must be a superset of what the patterns behind it can find; these tests compare
the filtered search with the unfiltered one on text built from the pieces secrets are made of.
"""

from __future__ import annotations

from dataclasses import replace

from hypothesis import given
from hypothesis import strategies as st

import volley.checks.secrets as secrets
from volley.model import Block, Branch, Diagram, Divider, Message, Note, Payload

from .fuzz_strategies import FUZZ

NAMES = [
    *sorted(secrets.SECRET_NAMES), *sorted(secrets.WEAK_SECRET_NAMES), "Token", "API_KEY",
    "api-key", "Api.Key", "Set-Cookie", "Proxy-Authorization", "github_token", "db.password",
    "x[api_key]", "TO\u212aEN", "max_tokens", "nextPageToken", "AWS_SECRET_ACCESS_KEY",
    "X-Hub-Signature-256", "ns:Password", "user", "id", "to", "ken",
]  # fmt: skip
SEPARATORS = [
    ": ", "=", " = ", '":"', '": ', ":", '": "', "&", "?", "; ", ">", "#", "%22%3A%22", "%3D",
]  # fmt: skip
VALUES = [
    "s3cr3tV4lue9Q", "Bearer s3cr3tV4lue9Q", "Basic ", "12345678901", "<token>", "xxx", "...",
    "$TOKEN", "{{t}}", "null", "your_api_key", "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0In0.sig",
    "eyJhbGciOiJub25lIn0.eyJzdWIiOiJhZG1pbiJ9.", *(f"gh{kind}_" + "a1" * 18 for kind in "pousr"),
    "github_pat_" + "b2" * 16, "xoxb-1234567890ab", "xoxb-6496603835230-2904158575866-34eewx",
    "AKIAIOSFODNN7EXAMPLE", "ASIA3YUVXL2VG720CXFU", "AIza" + "C" * 35, "sk-" + "Ab3" * 8,
    "sk_live_" + "Bx9" * 9, "whsec_" + "9aV" * 8, "glpat-sNK4VLTIAiW73skA0y48",
    "npm_hNxaAyLUjLtlh5ujGsYDiWi4imz75FvE06qt", "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",
    "ya29.a0JNaV3qOrwo4eJTGMJHrjUUb1MK4x", "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",
    "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",
    "r/n6a69p9/V2xaFld7W5oHq8K5ZLv74MNfjAN1m7", "https://u:p4ssw0rd9@h/",
    "https://hooks.slack.com/services/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",
    "-u admin:a13mGLTPDUDhw3aK", '-H "Authorization: Bearer J3wRWpqQjXf3tzjD"',
    ":_authToken=ab12cd34ef",
    "AccountKey=" + "U7ZZy76g5X" * 9, "5288990916:vUs10A148M8Y480g47KFaHjZewueUBGS2hJ",
    "-----BEGIN RSA PRIVATE KEY-----\nMIIEow\n-----END RSA PRIVATE KEY-----",
    "-----BEGIN PGP PRIVATE KEY BLOCK-----\n\nlQOYBG", "-----BEGIN PRIVATE KEY-----",
    "-----END PRIVATE KEY-----", "\u0130", "\u03a3", "日本",
]  # fmt: skip
GLUE = [
    "\n", "\t", " ", '"', "'", "\\", "{", "}", "[", "]", "(", ")", "-", "_", ".", ",", "…", "%22",
    "%7B", "%0A",
]  # fmt: skip

# Mostly `name`, separator, value in a row, where secrets are; and loose pieces between.
pairs = st.tuples(*(st.sampled_from(part) for part in (NAMES, SEPARATORS, VALUES))).map("".join)
pieces = st.sampled_from([*NAMES, *SEPARATORS, *VALUES, *GLUE])
texts = st.lists(st.one_of(pairs, pieces), max_size=12).map("".join)


def unfiltered(text: str, prose: bool, depth: int = 3) -> list[secrets.Secret]:
    """Every way of finding secrets, each run on the text whatever its cheap test says, as
    written, percent-decoded, and, in a body, in each of its JSON strings read on its own."""
    found = every_finder(text, prose)
    for layer, where in secrets.decoded_layers(text):
        found += [
            replace(secret, start=where[secret.start], end=where[secret.end])
            for secret in every_finder(layer, prose)
        ]
    for string, at in () if prose or not depth else secrets._json_strings(text):
        found += [
            replace(
                secret, start=at[secret.start], end=at[secret.end], mask=secrets._escaped(secret)
            )
            for secret in unfiltered(string, False, secrets._inner_depth(string, depth))
        ]
    return secrets._merged(found)


def every_finder(text: str, prose: bool) -> list[secrets.Secret]:
    found: list[secrets.Secret] = []
    for finder, _ in secrets._FINDERS:
        if finder is secrets._detected_secrets:
            found += finder(text, prose, every=True)
        else:
            found += finder(text, prose)
    return secrets._merged(found)


def test_every_secret_name_holds_a_name_word():
    for name in (
        *secrets.SECRET_NAMES,
        *secrets.WEAK_SECRET_NAMES,
        *secrets.SECRET_SUFFIXES,
    ):
        assert any(word in name for word in secrets._NAME_WORDS), name


def test_every_detector_is_given_the_texts_it_finds_secrets_in():
    for value in VALUES:
        for lead in ("", "x ", '"'):
            text = lead + value
            every = list(secrets._detected_secrets(text, every=True))
            assert list(secrets._detected_secrets(text)) == every, text


def _same_with_and_without_filters(text: str) -> None:
    assert secrets.find_secrets(text) == unfiltered(text, False), text
    assert secrets.find_secrets_in_label(text) == unfiltered(text, True), text


def test_the_filters_pass_every_name():
    for lead in ("", '{"', "<", "-H '"):
        for name in NAMES:
            for separator in SEPARATORS:
                for value in VALUES[:12]:
                    _same_with_and_without_filters(lead + name + separator + value)


def test_the_filters_pass_every_shape():
    for lead in ("", "x ", '{"k": "', "\n  "):
        for separator in SEPARATORS:
            for value in VALUES:
                _same_with_and_without_filters(lead + "id" + separator + value)


@FUZZ
@given(text=texts)
def test_the_filters_find_what_every_pattern_finds(text: str):
    assert secrets.find_secrets(text) == unfiltered(text, False)
    assert secrets.find_secrets_in_label(text) == unfiltered(text, True)


@FUZZ
@given(many=st.lists(st.tuples(texts, st.booleans()), max_size=6))
def test_one_look_at_many_texts_misses_none(many: list[tuple[str, bool]]):
    """`DiagramSecrets` looks at all of a diagram's texts at once, each way of finding secrets
    at the readings its cheap test lets through: a secret that the search of any one text
    finds (a body's, or a label's) is never missed."""
    holds_any = any(unfiltered(text, prose=not as_body) for text, as_body in many)
    assert secrets._any_secret(many) or not holds_any


@FUZZ
@given(label=texts, body=texts, note=texts, fenced=st.booleans())
def test_a_diagram_reports_what_its_texts_hold(label: str, body: str, note: str, fenced: bool):
    note = f"```\n{note}\n```" if fenced else note
    diagram = Diagram(
        title=label,
        participants=["A", "B"],
        items=[
            Message(2, "A", "B", "->", label, request=Payload(label, None, body, "fenced", 3)),
            Note(8, ["A"], note),
            Block(9, "if", [Branch(label, [Divider(10, "regular", label)], 9)]),
        ],
    )
    found = list(secrets.DiagramSecrets(diagram).places())
    expected = 5 * len(live(label, True)) + len(live(body, False))  # five labels
    expected += len(live(note, not fenced))
    expected += sum(len(live(name, True)) for name in ("A", "B"))  # the participants
    assert len(found) == expected


def live(text: str, prose: bool) -> list[secrets.Secret]:
    """What a diagram reports of a text: its secrets but those written as examples."""
    found = unfiltered(text, prose)
    return [secret for secret in found if not secrets.is_example(text[secret.start : secret.end])]


def test_a_key_after_a_cut_block_is_found_in_a_diagram():
    """A BEGIN line with no key after it (a body cut short) hides no later block."""
    body = "accesstoken: -----BEGIN PRIVATE KEY-----accesstoken: ..."
    note = "x[api_key]: -----BEGIN PGP PRIVATE KEY BLOCK-----\n\nlQOYBG"
    diagram = Diagram(
        participants=["A", "B"],
        items=[
            Message(2, "A", "B", "->", "", request=Payload("", None, body, "fenced", 3)),
            Note(8, ["A"], note),
        ],
    )
    # (the body's value, most of a key cut short at "...", is one too)
    assert [line for line, *_ in secrets.DiagramSecrets(diagram).places()] == [5, 8]
    assert secrets.redact_body(f"{body}\n{note}").endswith("BLOCK-----\n<redacted>")
