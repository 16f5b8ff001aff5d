"""The cheap tests that let `find_secrets` skip its patterns never hide a secret.

Each pre-filter must be a superset of what the patterns behind it can find; these tests compare
the filtered search with the unfiltered one on text built from the pieces secrets are made of.
"""

from __future__ import annotations

import subprocess
import sys

from hypothesis import given
from hypothesis import strategies as st

import volley.checks.secrets as secrets
from volley.model import Block, Branch, Diagram, Divider, Message, Note, Payload

from .fuzz_strategies import FUZZ

NAMES = [
    *sorted(secrets.SECRET_NAMES), "Token", "API_KEY", "api-key", "Api.Key", "Set-Cookie",
    "Proxy-Authorization", "github_token", "db.password", "x[api_key]", "TO\u212aEN", "max_tokens",
    "user", "id", "to", "ken",
]  # fmt: skip
SEPARATORS = [": ", "=", " = ", '":"', '": ', ":", '": "', "&", "?", "; "]
VALUES = [
    "s3cr3tV4lue9Q", "Bearer s3cr3tV4lue9Q", "Basic ", "12345678901", "<token>", "xxx", "...",
    "$TOKEN", "{{t}}", "null", "your_api_key", "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0In0.sig",
    *(f"gh{kind}_" + "a1" * 18 for kind in "pousr"), "github_pat_" + "b2" * 16,
    "xoxb-1234567890ab", "AKIAIOSFODNN7EXAMPLE", "ASIAIOSFODNN7EXAMPLE", "AIza" + "C" * 35,
    "sk-" + "Ab3" * 8, "-----BEGIN RSA PRIVATE KEY-----\nMIIEow\n-----END RSA PRIVATE KEY-----",
    "-----BEGIN PRIVATE KEY-----", "-----END PRIVATE KEY-----", "\u0130", "\u03a3", "日本",
]  # fmt: skip
GLUE = ["\n", "\t", " ", '"', "'", "\\", "{", "}", "[", "]", "(", ")", "-", "_", ".", ",", "…"]

# Mostly `name`, separator, value in a row, where secrets are; and loose pieces between.
pairs = st.tuples(*(st.sampled_from(part) for part in (NAMES, SEPARATORS, VALUES))).map("".join)
pieces = st.sampled_from([*NAMES, *SEPARATORS, *VALUES, *GLUE])
texts = st.lists(st.one_of(pairs, pieces), max_size=12).map("".join)


def unfiltered_body(text: str) -> list[secrets.Secret]:
    return secrets._merged(
        [
            *secrets._line_secrets(text),
            *secrets._json_secrets(text),
            *secrets._param_secrets(text),
            *secrets._shaped_secrets(text),
        ]
    )


def unfiltered_label(text: str) -> list[secrets.Secret]:
    return secrets._merged([*secrets._param_secrets(text), *secrets._shaped_secrets(text)])


def test_every_secret_name_holds_a_name_word():
    for name in (*secrets.SECRET_NAMES, *secrets.SECRET_SUFFIXES):
        assert any(word in name for word in secrets._NAME_WORDS), name


def test_the_filters_pass_every_name_and_shape():
    for lead in ("", "x ", "?", '{"', "\n  "):
        for name in NAMES:
            for separator in SEPARATORS:
                for value in VALUES:
                    text = lead + name + separator + value
                    assert secrets.find_secrets(text) == unfiltered_body(text), text
                    assert secrets.find_secrets_in_label(text) == unfiltered_label(text), text


@FUZZ
@given(text=texts)
def test_the_filters_find_what_every_pattern_finds(text: str):
    assert secrets.find_secrets(text) == unfiltered_body(text)
    assert secrets.find_secrets_in_label(text) == unfiltered_label(text)


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
    found = list(secrets.diagram_secrets(diagram))
    expected = 5 * len(unfiltered_label(label)) + len(unfiltered_body(body))  # five labels
    expected += len(unfiltered_body(note) if fenced else unfiltered_label(note))
    assert len(found) == expected


CLEAN = """
import volley
import volley.checks.secrets as secrets
from volley.checks.lint import lint
text = "title: Clean\\nA -> B: check token\\nin: Request\\n  user: ada\\n"
assert lint(volley.parse(text), text) == []
patterns = [v for v in vars(secrets).values() if isinstance(v, secrets._Pattern)]
assert patterns and not any("match" in vars(p) for p in patterns)
"""


def test_a_clean_diagram_compiles_no_pattern():
    subprocess.run([sys.executable, "-c", CLEAN], check=True)  # a fresh process: none compiled yet
