"""The secret corpus: every shape in tests/cases/secrets/secrets.yaml is warned by `volley check`
and masked by `--redact` in every format; every sample in quiet.yaml is neither.

The values in the corpus are made up; the quiet samples follow public documentation.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

import volley
from volley.checks.secrets import (
    MASK,
    find_secrets,
    find_secrets_in_label,
    is_example,
    redact_body,
)
from volley.cli import main

CASES = Path(__file__).parent / "cases" / "secrets"
SECRETS = yaml.safe_load((CASES / "secrets.yaml").read_text(encoding="utf-8"))
QUIET = yaml.safe_load((CASES / "quiet.yaml").read_text(encoding="utf-8"))
WARNING = "looks like a live secret"


def _diagram(where: str, text: str) -> str:
    """A diagram holding `text` in the place the case names."""
    if where == "body":
        return f"A -> B: call\nin: Request\n````\n{text}\n````\n"
    if where == "label":
        return f"A -> B: {text}\n"
    if where == "note":  # a fenced block directly under the note line, other lines indented
        return "A -> B: call\nnote: " + text.replace("\n", "\n" if "```" in text else "\n  ") + "\n"
    if where == "participant":
        return f"{text} -> B: call\n"
    if where == "title":
        return f"title: {text}\nA -> B: call\n"
    raise AssertionError(f"unknown place {where!r}")


def _check(tmp_path: Path, source: str) -> str:
    path = tmp_path / "case.volley"
    path.write_text(source, encoding="utf-8")
    result = CliRunner().invoke(main, ["check", str(path)], env={"NO_COLOR": "1"})
    assert result.exit_code == 0, result.output  # a warning never fails the check
    return result.stderr


def _values(case: dict) -> list[str]:
    secret = case["secret"]
    return secret if isinstance(secret, list) else [secret]


def _find(case: dict):
    return find_secrets if case["where"] == "body" else find_secrets_in_label


def _names(cases: list[dict]) -> list[str]:
    return [case["name"] for case in cases]


def test_the_corpus_is_well_formed():
    for case in SECRETS + QUIET:
        assert case["where"] in ("body", "label", "note", "participant", "title"), case
    for case in SECRETS:
        assert all(value in case["text"] for value in _values(case)), case["name"]
    assert len(set(_names(SECRETS))) == len(SECRETS) and len(set(_names(QUIET))) == len(QUIET)


@pytest.mark.parametrize("case", SECRETS, ids=_names(SECRETS))
def test_a_secret_is_warned(tmp_path: Path, case: dict):
    source = _diagram(case["where"], case["text"])
    assert volley.parse(source)  # the case is a valid diagram
    stderr = _check(tmp_path, source)
    assert WARNING in stderr
    assert not any(value in stderr for value in _values(case))  # the warning does not leak it


@pytest.mark.parametrize("case", SECRETS, ids=_names(SECRETS))
def test_a_secret_is_masked_in_place(case: dict):
    text = case["text"]
    secrets = _find(case)(text)
    assert secrets
    masked = text
    for secret in reversed(secrets):
        masked = masked[: secret.start] + secret.mask + masked[secret.end :]
    assert not any(value in masked for value in _values(case)), masked
    assert MASK in masked
    if "masked" in case:
        assert masked == case["masked"]
    if case["where"] == "body":
        assert redact_body(masked) == masked  # masking twice changes nothing


@pytest.mark.parametrize("case", SECRETS, ids=_names(SECRETS))
@pytest.mark.parametrize("fmt", ["svg", "html"])
def test_a_secret_is_masked_in_every_output(case: dict, fmt: str):
    source = _diagram(case["where"], case["text"])
    shown = volley.render(source, format=fmt, bodies="appendix" if fmt == "svg" else "markers")
    masked = volley.render(
        source, format=fmt, bodies="appendix" if fmt == "svg" else "markers", redact=True
    )
    assert shown != masked
    assert not any(value in masked for value in _values(case))


@pytest.mark.parametrize("case", QUIET, ids=_names(QUIET))
def test_a_sample_from_the_docs_is_quiet(tmp_path: Path, case: dict):
    """No warning; redaction masks only values written as examples (`AKIAIOSFODNN7EXAMPLE`,
    a JWT cut short), which a real secret may look like too."""
    source = _diagram(case["where"], case["text"])
    text = case["text"]
    found = _find(case)(text)
    assert all(is_example(text[secret.start : secret.end]) for secret in found)
    assert WARNING not in _check(tmp_path, source)
    if not found:
        assert volley.render(source, format="html", redact=True) == volley.render(
            source, format="html"
        )
