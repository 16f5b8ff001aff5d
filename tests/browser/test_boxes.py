"""Mermaid's boxes on the interactive page, in a real browser: a band shrinks with the blocks a
reader folds, and the count of a folded block on it keeps its colour (its colour follows the
page's theme as a rect's does: tests/browser/test_highlights.py)."""

from __future__ import annotations

import pytest

from volley.api import render

from .test_highlights import rgb

pytestmark = pytest.mark.browser

SOURCE = """\
box: rgb(200, 220, 255) Front end
  participant A
  participant B
end
participant C
A -> B: one
loop: twice
  A -> B: ping
  B --> A: pong
  B -> C: out
end
A -> B: two
"""


def test_a_band_shrinks_with_the_blocks_folded_and_keeps_its_label(open_page):
    page = open_page(render(SOURCE, format="html"))
    band = page.locator(".vl-canvas .boxes .band")
    label = page.locator(".vl-canvas .boxes .box-label")
    feet = page.locator(".vl-canvas .participant >> nth=0 >> .box >> nth=1")
    before, label_before = band.bounding_box(), label.bounding_box()
    page.click(".vl-canvas .block-loop .block-kind")
    after = band.bounding_box()
    assert after["height"] < before["height"] - 40 and abs(after["y"] - before["y"]) < 1
    assert abs(label.bounding_box()["y"] - label_before["y"]) < 1
    # the band still reaches past the participants' boxes at the foot
    foot = feet.bounding_box()
    assert after["y"] + after["height"] > foot["y"] + foot["height"]
    # the folded block's count, on the band, is outlined in the band's colour
    count = page.locator(".vl-canvas .vl-fold-count")
    assert count.evaluate("e => getComputedStyle(e).stroke") == rgb("#c8dcff")
