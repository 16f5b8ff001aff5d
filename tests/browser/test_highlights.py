"""Mermaid's rects on the interactive page, in a real browser: their colours (and its boxes')
follow the page's theme switches, and they move and shrink with the blocks a reader folds."""

from __future__ import annotations

import pytest

from volley.api import render
from volley.docs.fences import static_figure
from volley.output.html import html_assets
from volley.output.tints import dark_tint

pytestmark = pytest.mark.browser

SOURCE = """\
A -> B: one
loop: twice
  A -> B: ping
  B --> A: pong
end
rect: rgb(200, 220, 255)
  A -> B: two
  loop: inside
    A -> B: three
    B --> A: four
  end
end
"""
BOXED = "box: rgb(200, 220, 255) Front end\n  participant A\n  participant B\nend\nA -> B: one\n"
FILL = "e => getComputedStyle(e).fill"


def rgb(colour: str) -> str:
    """A `#rrggbb` colour as getComputedStyle writes it."""
    red, green, blue = (int(colour[i : i + 2], 16) for i in (1, 3, 5))
    return f"rgb({red}, {green}, {blue})"


@pytest.mark.parametrize(
    ("theme", "scheme", "colour"),
    [
        ("light", "dark", "#c8dcff"),
        ("dark", "light", dark_tint("#c8dcff")),
        ("auto", "light", "#c8dcff"),
        ("auto", "dark", dark_tint("#c8dcff")),
    ],
)
@pytest.mark.parametrize("shape", ["rect", "box"])
def test_a_rects_and_a_boxs_colour_follows_the_pages_theme(open_in, shape, theme, scheme, colour):
    source, selector, message = {
        "rect": (SOURCE, ".highlights .highlight", 4),
        "box": (BOXED, ".boxes .band", 1),
    }[shape]
    page = open_in(render(source, format="html", theme=theme), color_scheme=scheme)
    assert page.locator(f".vl-canvas {selector}").evaluate(FILL) == rgb(colour)
    # the patch behind a label on it is its colour too: no box of the page's around the label
    halo = page.locator(f'.vl-canvas [data-message="{message}"] .halo')
    assert halo.evaluate(FILL) == rgb(colour)


def test_a_rect_moves_and_shrinks_with_the_blocks_folded(open_page):
    page = open_page(render(SOURCE, format="html"))
    highlight = page.locator(".vl-canvas .highlights .highlight")
    before = highlight.bounding_box()
    page.click(".vl-canvas .block-loop >> nth=0 >> .block-kind")  # the loop above the rect
    moved = highlight.bounding_box()
    assert moved["y"] < before["y"] - 40 and abs(moved["height"] - before["height"]) < 1
    page.locator(".vl-canvas .block-loop", has_text="inside").locator(".block-kind").click()
    shrunk = highlight.bounding_box()
    assert shrunk["height"] < moved["height"] - 40 and abs(shrunk["y"] - moved["y"]) < 1


def test_a_static_figure_on_a_dark_site_takes_the_dark_colours(browser, tmp_path):
    """A docs site's static figure (`interactive=false`) is the light SVG inline, under the
    site's colour switch: its rects follow the switch as the page's roles do."""
    css, _ = html_assets()
    figure = static_figure(render(SOURCE, format="svg", theme="light"), "auto")
    for scheme, colour in (("slate", dark_tint("#c8dcff")), ("default", "#c8dcff")):
        path = tmp_path / f"{scheme}.html"
        path.write_text(
            f"<!doctype html><style>{css}</style>"
            f'<body data-md-color-scheme="{scheme}">{figure}</body>',
            encoding="utf-8",
        )
        context = browser.new_context(color_scheme="light" if scheme == "slate" else "dark")
        try:
            page = context.new_page()
            page.goto(path.as_uri())
            assert page.locator(".highlights .highlight").evaluate(FILL) == rgb(colour)
        finally:
            context.close()


def test_the_same_diagram_twice_on_a_dark_page_is_dark_twice(browser, tmp_path):
    """The viewer renames a repeated diagram's ids; the rules its drawing brings follow."""
    fragment = render(SOURCE, format="html", fragment=True, theme="dark")
    path = tmp_path / "twice.html"
    path.write_text(f"<!doctype html><body>{fragment}{fragment}</body>", encoding="utf-8")
    context = browser.new_context()
    try:
        page = context.new_page()
        page.goto(path.as_uri())
        fills = page.locator(".highlights .highlight").evaluate_all(
            "nodes => nodes.map(n => getComputedStyle(n).fill)"
        )
        assert fills == [rgb(dark_tint("#c8dcff"))] * 2
        ids = page.locator(".vl-canvas > svg").evaluate_all("nodes => nodes.map(n => n.id)")
        assert len(set(ids)) == 2
    finally:
        context.close()


def test_a_folded_blocks_count_on_a_rect_is_outlined_in_the_rects_colour(open_page):
    page = open_page(render(SOURCE, format="html"))
    page.locator(".vl-canvas .block-loop", has_text="inside").locator(".block-kind").click()
    count = page.locator(".vl-canvas .block-loop .vl-fold-count").nth(1)
    assert count.evaluate("e => getComputedStyle(e).stroke") == rgb("#c8dcff")
    outside = page.locator(".vl-canvas .block-loop .vl-fold-count").nth(0)
    page.click(".vl-canvas .block-loop >> nth=0 >> .block-kind")
    assert outside.evaluate("e => getComputedStyle(e).stroke") == "rgb(255, 255, 255)"
