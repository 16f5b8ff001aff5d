"""Every diagram shown in the docs parses: the reference teaches nothing that fails."""

from __future__ import annotations

import re

import pytest

import volley

from .conftest import ROOT

FENCE = re.compile(
    r"^(?P<fence>`{3,}|~{3,})volley[^\n]*\n(?P<body>.*?)^(?P=fence)[ \t]*$", re.S | re.M
)


def doc_diagrams():
    for page in sorted((ROOT / "docs").rglob("*.md")):
        for number, match in enumerate(FENCE.finditer(page.read_text(encoding="utf-8")), 1):
            yield pytest.param(match["body"], id=f"{page.name}#{number}")


@pytest.mark.parametrize("source", list(doc_diagrams()))
def test_doc_diagram_parses(source):
    diagram = volley.parse(source)
    assert diagram.items or diagram.title


def test_every_example_file_parses():
    examples = sorted((ROOT / "examples").glob("*.volley"))
    assert examples
    for path in examples:
        assert volley.parse(path.read_text(encoding="utf-8"), str(path)).messages()
