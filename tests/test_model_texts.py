"""The model's one walk over its texts (Diagram.all_texts), which every check reads."""

from __future__ import annotations

import volley
from volley.api import check

SOURCE = """title: Login
participant A as Alice
participant C
A -> B: hello
  in: Request
  ```json
  {"a": 1}
  ```
  out: Response
    ok
note over A, D: a note
  second line
=: Section
if: ok
  B -> A: yes
else: no
  B -> A: nope
end
participant E
"""


def test_every_text_with_its_kind_and_the_line_it_starts_on() -> None:
    found = [(t.kind, t.line, t.text) for t in volley.parse(SOURCE).all_texts()]
    assert found == [
        ("title", 1, "Login"),
        ("participant", 4, "A"),
        ("display label", 2, "Alice"),  # where `participant A as Alice` wrote it
        ("participant", 4, "B"),
        ("label", 4, "hello"),
        ("payload label", 5, "Request"),
        ("body", 7, '{"a": 1}'),  # a fenced body starts under its fence
        ("payload label", 9, "Response"),
        ("body", 10, "ok"),  # an indented one right under its in:/out: line
        ("participant", 11, "C"),  # a note spans every lane between its ends
        ("participant", 11, "D"),
        ("note", 11, "a note\nsecond line"),
        ("divider", 13, "Section"),
        ("block label", 14, "ok"),
        ("block label", 16, "no"),
        ("label", 15, "yes"),
        ("label", 17, "nope"),
        ("participant", 19, "E"),  # named by no message or note: where it is declared
    ]


def test_texts_are_the_marked_up_ones_a_note_line_by_line() -> None:
    assert list(volley.parse(SOURCE).texts()) == [
        (1, "Login"),
        (4, "hello"),
        (11, "a note"),
        (12, "second line"),
        (13, "Section"),
        (14, "ok"),
        (16, "no"),
        (15, "yes"),
        (17, "nope"),
    ]


def test_checks_place_a_name_where_the_walk_first_meets_it() -> None:
    """A hidden character in a name first met in a note points at the note's line; a secret in
    the name of a participant nothing names is still found (redaction masks it too)."""
    token = "ghp_" + "a1" * 18  # built here, so that no scanner takes the test for a leak
    source = f"participant {token}\nA -> B: hi\nnote over C\u200b: hi\n"
    warnings = check(source).warnings
    hidden = [w for w in warnings if "ZERO WIDTH SPACE" in w.message]
    assert [(w.line, w.column) for w in hidden] == [(3, 12)]
    assert any("GitHub Token" in w.message for w in warnings)


def test_a_body_after_blank_lines_is_placed_where_its_text_starts():
    """Warnings about a body (a secret in it) point at its own lines, after any blank lines
    between `in:`/`out:` and the body."""
    text = 'A -> B: hi\nout: R\n\n\n  {"k": 1}\nB -> A: x\nin: Q\n\n```json\n{"j": 2}\n```\n'
    bodies = [(t.line, t.text) for t in volley.parse(text).all_texts() if t.kind == "body"]
    assert bodies == [(5, '{"k": 1}'), (10, '{"j": 2}')]
