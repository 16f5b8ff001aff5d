"""Code keeps its columns in a static SVG wherever the SVG goes: a page's HTML minifier
collapses runs of spaces in text, so indentation and aligned columns are drawn as offsets."""

from __future__ import annotations

import re
from xml.etree import ElementTree as ET

import pytest

import volley

NS = {"s": "http://www.w3.org/2000/svg"}
CODE = [
    "def f(x):",
    "    if x:",
    "        return  1   # one",
    "    return      2   # two",
]
FENCE = "\n".join(["```python", *CODE, "```"])
IN_APPENDIX = f"A -> B: call\nin: Request\n{FENCE}\n"
IN_NOTE = "A -> B: call\nnote B:\n" + "".join(f"  {line}\n" for line in FENCE.split("\n"))


def drawn_words(svg: str) -> list[tuple[float, float, str]]:
    """(y, x, text) of every piece of code text, top to bottom, left to right."""
    out = []
    for text in ET.fromstring(svg).iter(f"{{{NS['s']}}}text"):
        pieces = [text, *text.iterfind("s:tspan", NS)]
        for piece in pieces:
            words = piece.text or ""
            x, y = piece.get("x") or text.get("x"), piece.get("y") or text.get("y")
            if words.strip() and x is not None and y is not None:
                out.append((float(y), float(x), words))
    return sorted(out)


@pytest.mark.parametrize("source", [IN_APPENDIX, IN_NOTE], ids=["appendix", "note"])
def test_code_has_no_spaces_a_minifier_could_collapse(source: str) -> None:
    svg = volley.render(source, bodies="appendix")
    words = [w for _, _, w in drawn_words(svg)]
    assert "return" in words and "# two" in words  # the code is there, in pieces
    for piece in words:
        assert not re.search(r"^ |  ", piece), piece


@pytest.mark.parametrize("source", [IN_APPENDIX, IN_NOTE], ids=["appendix", "note"])
def test_indentation_and_columns_are_offsets_of_whole_characters(source: str) -> None:
    svg = volley.render(source, bodies="appendix")
    at = {w: x for _, x, w in drawn_words(svg)}
    left = at["def f(x):"]
    column = (at["if x:"] - left) / 4  # four spaces in
    assert column > 0
    assert at["return"] == pytest.approx(left + 4 * column)  # the last line's, four spaces in
    assert at["1"] == pytest.approx(left + 16 * column)
    assert at["# one"] == at["# two"] == pytest.approx(left + 20 * column)
    assert at["2"] == at["1"]
