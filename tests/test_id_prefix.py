"""The default id prefix hashes the diagram's sorted JSON; the fast writer must give its bytes."""

from __future__ import annotations

import json

import pytest

import volley
from volley.model import Block, Branch, Diagram, Divider, Message, Note, Payload
from volley.api import _sorted_json, default_id_prefix

from .conftest import EXAMPLES

SIGN_IN = """\
title: Sign in
Browser -> API: POST /login
in: Request
  user: ada
  password: <redacted>
API --> Browser: 200 OK
"""


def reference(diagram: Diagram) -> str:
    return json.dumps(diagram.to_json(), sort_keys=True, ensure_ascii=True)


def test_the_prefix_does_not_change():
    assert default_id_prefix(volley.parse(SIGN_IN)) == "v86c12cb68c"


@pytest.mark.parametrize("path", sorted(EXAMPLES.glob("*.volley")), ids=lambda p: p.stem)
def test_examples_hash_their_sorted_json(path):
    diagram = volley.parse(path.read_text(encoding="utf-8"))
    assert _sorted_json(diagram) == reference(diagram)


class Special(Message):
    pass


@pytest.mark.parametrize(
    "diagram",
    [
        Diagram(
            title='é \ud800 \x00 "q" \\',
            participants=["A", "日本"],
            items=[
                Message(1, "A", "B", "->", "l\n", 3, Payload("in", None, "{}", "fenced", 2)),
                Note(4, ["A", "B"], "a\tb", attached=True),
                Block(5, "if", [Branch("x", [Divider(6, "bold", "y")]), Branch("", [])]),
            ],
        ),
        Diagram(title=""),
        Diagram(items=[Message(True, "a", "b", "->")]),  # a bool is written as true
        Diagram(items=[Message(1, "a", "b", "->", number=2.0)]),
        Diagram(items=[Message(1, "a", None, "->")]),
        Diagram(items=[Note(1, ("A", "B"), "x")]),
        Diagram(items=[Special(1, "a", "b", "->")]),
    ],
)
def test_hand_built_models_hash_their_sorted_json(diagram):
    assert _sorted_json(diagram) == reference(diagram)
