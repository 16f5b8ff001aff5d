"""The bidirectional algorithm's levels (volley.layout.bidi_levels), held to python-bidi's own
reordering, and the order a line of styled runs is drawn in, as a browser draws it."""

from __future__ import annotations

import random
import re

import pytest
from bidi import get_display

import volley
from volley.layout.bidi_levels import embedding_levels, visual_order
from volley.layout.engine import layout_diagram

# Letters of both directions, digits of both kinds, the signs between them, brackets, marks
# on letters, and the isolates an appendix heading sets its names in
ALPHABET = [
    *"abc ABC אבג ابت 123 ١٢٣ ()[]-+.,:/$%!?",
    "\u0301",  # a combining acute, on a Latin letter
    "\u05b8",  # a Hebrew vowel point
    "\u2066",  # LRI
    "\u2067",  # RLI
    "\u2068",  # FSI
    "\u2069",  # PDI
    "\u200f",  # RLM
    "\u061c",  # ALM
]
_ISOLATES = re.compile("[\u2066-\u2069]")


def seen(text: str, rtl: bool) -> str:
    """The characters of `text` in the order they are seen, by our levels."""
    return "".join(text[i] for i in visual_order(embedding_levels(text, rtl)))


def test_the_levels_order_text_as_python_bidi_does() -> None:
    """Several thousand short lines mixing every kind of character, in paragraphs of both
    directions: the order our levels give is python-bidi's (the Rust unicode-bidi crate),
    the isolates' own marks aside (they draw nothing, wherever they stand)."""
    rng = random.Random(20261207)
    differ = []
    for _ in range(3000):
        text = "".join(rng.choice(ALPHABET) for _ in range(rng.randint(1, 14)))
        for rtl in (False, True):
            theirs = get_display(text, base_dir="R" if rtl else "L")
            if _ISOLATES.sub("", seen(text, rtl)) != _ISOLATES.sub("", theirs):
                differ.append((text, rtl))
    assert differ == []


@pytest.mark.parametrize(
    ("text", "rtl", "levels"),
    [
        # brackets take the direction of what they hold or, holding the other direction
        # only, of what stands before them (rule N0)
        ("אב (cd) גד", True, [1, 1, 1, 1, 2, 2, 1, 1, 1, 1]),
        ("ab (גד) ef", False, [0, 0, 0, 0, 1, 1, 0, 0, 0, 0]),
        # a hyphen between a Hebrew letter and a Latin word reads with the paragraph
        ("ל-API", True, [1, 1, 2, 2, 2]),
        # a number after Hebrew in an English line reads with the Hebrew, its digits in order
        ("GET ש 200", False, [0, 0, 0, 0, 1, 1, 2, 2, 2]),
        # an isolate holds its own direction; its marks are at the level around it
        ("a \u2068אב!\u2069 c", False, [0, 0, 0, 1, 1, 1, 0, 0, 0]),
        # angle brackets pair with their canonical equivalents (BD16)
        ("a \u2329ב\u3009 ג", False, [0, 0, 0, 1, 0, 0, 1]),
        # white space at the end of a line is at the paragraph's level (rule L1)
        ("אב cd  ", True, [1, 1, 1, 2, 2, 1, 1]),
    ],
)
def test_levels_of_the_cases_that_matter(text: str, rtl: bool, levels: list[int]) -> None:
    assert embedding_levels(text, rtl) == levels


def test_the_visual_order_turns_each_stretch_from_the_highest_level_down() -> None:
    assert visual_order([0, 0, 1, 1, 2, 2, 1, 0]) == [0, 1, 6, 4, 5, 3, 2, 7]
    assert visual_order([1, 1, 1]) == [2, 1, 0]
    assert visual_order([]) == []


def _runs_from_the_right(label: str) -> list[str]:
    laid = layout_diagram(volley.parse(f"A -> B: {label}")).messages[0].label
    assert laid is not None
    (line,) = laid.lines
    return [run.text for run in sorted(line.runs, key=lambda run: -run.dx)]


def test_a_right_to_left_line_with_markup_stands_as_a_browser_draws_it() -> None:
    """A bold word beside plain text with brackets, a hyphen or a full stop in a Hebrew label:
    its runs stand where Chromium puts the same text (each right-to-left run drawn mirrored,
    its brackets as a pair); the brackets came apart (`))world`), the hyphen went to the far
    side of the Latin word (`לAPI-`). Inline code is one object that reads with the words
    around it (an editor's order within), as an isolate does."""
    assert _runs_from_the_right("**שלום** (world) עולם") == ["שלום", "(", "world", ") עולם"]
    assert _runs_from_the_right("**תהליך** ל-API") == ["תהליך", "ל-", "API"]
    assert _runs_from_the_right("שלב **1**: התחלה (start).") == [
        "שלב",
        "1",
        ": התחלה (",
        "start",
        ").",
    ]
    # inline code stands with the words around it, whatever it holds: `run [echo שלום] now`
    # stays one left-to-right stretch (a right-to-left letter in it moved it between them)
    assert _runs_from_the_right("שלח run `echo שלום` now ואז") == [
        "שלח",
        "now",
        "echo שלום",
        "run",
        "ואז",
    ]
    # code reads in its place in the sentence: `x` after שלום, then (world)
    assert _runs_from_the_right("שלום `x` (world) עולם.") == [
        "שלום",
        "x",
        "(",
        "world",
        ") עולם.",
    ]


def test_a_wrapped_line_is_ordered_as_one_paragraph() -> None:
    """A label wrapped after "hello," is one paragraph to the algorithm: the comma between
    "hello" and "world" reads left to right with them, at the end of its line (taken alone,
    the line ended in the comma, which then read with the Hebrew: `,hello`)."""
    label = "שלום לכולם אנחנו שולחים את ההודעה hello, world ואז עוד מילים"
    laid = layout_diagram(volley.parse(f"A -> B: {label}")).messages[0].label
    assert laid is not None
    assert [[(run.text, run.rtl) for run in line.runs] for line in laid.lines] == [
        [("שלום לכולם אנחנו שולחים את ההודעה", True), ("hello,", False)],
        [("world", False), ("ואז עוד מילים", True)],
    ]
