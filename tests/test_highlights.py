"""Mermaid's `rect COLOUR … end`: a highlight in the author's colour behind what it holds.

Mermaid draws a rect as a tinted band with no frame and no label (its documentation's example is
`rect rgb(191, 223, 255)`); volley reads it with that meaning and draws it so, in light, dark
and auto themes, in every format.
"""

from __future__ import annotations

import colorsys
import io
import re
from pathlib import Path

import pytest
from PIL import Image

import volley
from volley.importers import convert
from volley.language.writer import write
from volley.layout.engine import layout_diagram
from volley.model import Block, walk
from volley.output.html import html_assets
from volley.output.themes import DARK
from volley.output.tints import DARK_MOST_LIGHTNESS, Tints, blend, dark_tint, legible
from volley.text.colours import Tint, read_colour

FLOW = """\
Client -> API: GET /login
rect rgb(200, 220, 255)
  API -> DB: SELECT user
  DB --> API: row
  rect rgba(255, 180, 0, 0.25)
    API -> API: check password
  end
end
API --> Client: 200 OK
"""


def lightness(colour: str) -> float:
    return colorsys.rgb_to_hls(*(int(colour[i : i + 2], 16) / 255 for i in (1, 3, 5)))[1]


def lighter(colour: str, by: float = 0.02) -> str:
    """The colour with its lightness raised a little, its hue and saturation kept."""
    hue, light, saturation = colorsys.rgb_to_hls(
        *(int(colour[i : i + 2], 16) / 255 for i in (1, 3, 5))
    )
    channels = colorsys.hls_to_rgb(hue, light + by, saturation)
    return "#" + "".join(f"{round(c * 255):02x}" for c in channels)


def highlights(svg: str) -> list[str]:
    """The rects' shapes in the picture's highlights group (not the tints over halos)."""
    group = re.search(r'<g class="highlights">.*?\n</g>\n(?=<g class="lifelines">)', svg, re.S)
    return shapes(group.group()) if group else []


def shapes(markup: str) -> list[str]:
    return re.findall(r'<rect class="highlight [^>]*>', markup)


# --- reading -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("written", "tint"),
    [
        ("rgb(191, 223, 255)", Tint("#bfdfff", 1.0)),
        ("rgba(0, 0, 255, .1)", Tint("#0000ff", 0.1)),
        ("RGB(0,0,0)", Tint("#000000", 1.0)),
        ("#abc", Tint("#aabbcc", 1.0)),
        ("#AABBCC80", Tint("#aabbcc", 0.502)),
        ("lightyellow", Tint("#ffffe0", 1.0)),
        ("LightBlue", Tint("#add8e6", 1.0)),
        ("rgb(0 0 255 / 10%)", Tint("#0000ff", 0.1)),
        ("hsl(120, 50%, 50%)", Tint("#40bf40", 1.0)),
        ("rgb(300, -5, 0)", Tint("#ff0000", 1.0)),  # out of range: clamped, as CSS does
    ],
)
def test_a_css_colour_is_read_as_browsers_read_it(written, tint):
    assert read_colour(written) == tint


@pytest.mark.parametrize(
    "written",
    ["Login phase", "currentColor", "var(--brand)", "rgb(1, 2)", "", 'red" onload="x', "url(#a)"],
)
def test_what_is_no_colour_is_not_read_as_one(written):
    assert read_colour(written) is None


def test_a_rect_keeps_its_colour_as_written_and_holds_its_items():
    diagram = volley.parse(FLOW)
    outer = diagram.items[1]
    assert (outer.kind, outer.tint, outer.line, outer.end_line) == (
        "rect",
        "rgb(200, 220, 255)",
        2,
        8,
    )
    first, second, inner = outer.branches[0].items
    assert (first.label, second.label) == ("SELECT user", "row")
    assert (inner.kind, inner.tint) == ("rect", "rgba(255, 180, 0, 0.25)")
    assert diagram.warnings == []
    block = diagram.to_json()["items"][1]
    assert (block["kind"], block["tint"], block["branches"][0]["label"]) == (
        "rect",
        "rgb(200, 220, 255)",
        "",
    )


@pytest.mark.parametrize("line", ["rect", "RECT", "rect:", "Rect   "])
def test_a_rect_without_a_colour_has_none(line):
    diagram = volley.parse(f"{line}\nA -> B\nend\n")
    assert (diagram.items[0].kind, diagram.items[0].tint, diagram.warnings) == ("rect", None, [])
    assert diagram.to_json()["items"][0]["tint"] is None


def test_a_rect_with_a_colon_reads_its_colour_after_it():
    diagram = volley.parse("rect: #c8dcff\nA -> B\nend\n")
    assert diagram.items[0].tint == "#c8dcff"


def test_a_colour_volley_cannot_read_is_kept_and_pointed_at():
    diagram = volley.parse("A -> B: hi\nrect: Login phase\nA -> B\nend\n")
    assert diagram.items[1].tint == "Login phase"
    (warning,) = diagram.warnings
    assert (warning.line, warning.column) == (2, 7)  # at "Login"
    assert '"Login phase" is not a colour' in warning.message
    assert "group: Login" not in warning.message and "rgb(200, 220, 255)" in warning.message


def test_rect_on_a_line_with_an_arrow_is_a_participant():
    diagram = volley.parse("rect -> B: draw\nRectangle -> B\n")
    assert [m.sender for m in diagram.messages()] == ["rect", "Rectangle"]


def test_an_unclosed_rect_is_closed_at_the_end_with_a_warning_that_names_it():
    diagram = volley.parse("rect lightyellow\nA -> B\n")
    (warning,) = diagram.warnings
    assert warning.line == 1 and warning.message.startswith("this rect block is never closed")


def test_a_stray_end_lists_rect_among_the_blocks():
    with pytest.raises(volley.VolleyError) as caught:
        volley.parse("A -> B\nend\n")
    assert "break:, rect or box)" in str(caught.value)


def test_fmt_writes_a_rect_back_with_its_colour_as_written():
    source = "rect rgb(200, 220, 255)\nA -> B: x\nend\nrect\nB -> A\nend\nrect Login\nA -> B\nend\n"
    diagram = volley.parse(source)
    assert write(diagram) == (
        "rect: rgb(200, 220, 255)\n  A -> B: x\nend\n"
        "rect\n  B -> A\nend\n"
        "rect: Login\n  A -> B\nend\n"
    )
    assert volley.parse(write(diagram)).to_json() == diagram.to_json()


@pytest.mark.parametrize("line", ["rect: lightyellow", "rect"])
def test_a_rect_as_volley_writes_it_ends_a_note(line):
    """A note runs until the next element (swimlanes.io's rule): `rect:` with its colon, or
    `rect` alone, is one, as `loop:` and a bare `else` are."""
    diagram = volley.parse(f"note A: a note\n\n{line}\nA -> B\nend\n")
    assert diagram.items[0].text == "a note" and diagram.items[1].kind == "rect"
    assert diagram.warnings == []


def test_mermaids_rect_after_a_note_is_the_notes_text_with_a_warning():
    """Without its colon a block word after a note is the note's text, as for `loop every`."""
    diagram = volley.parse("note A: a note\nrect rgb(200, 220, 255)\nA -> B: x\n")
    assert diagram.items[0].text == "a note\nrect rgb(200, 220, 255)"
    assert [w.line for w in diagram.warnings] == [2]


# --- layout ------------------------------------------------------------------------------------


def test_a_rect_has_no_tab_or_label_and_surrounds_what_it_holds():
    diagram = volley.parse(FLOW)
    layout = layout_diagram(diagram)
    outer, inner = layout.frames
    assert (outer.kind, outer.tint, outer.tab, outer.tab_text, outer.label) == (
        "rect",
        "rgb(200, 220, 255)",
        [],
        None,
        None,
    )
    assert outer.box.contains(inner.box)
    select, row, check = layout.messages[1:4]
    for message in (select, row, check):
        assert outer.box.contains(message.label.box)
    assert inner.box.contains(check.label.box) and not inner.box.contains(select.label.box)
    # no text is the frame's: every text drawn belongs to a message
    assert len(layout.text_blocks()) == len([m for m in layout.messages if m.label]) + 2 * 3


def test_a_rect_takes_less_room_than_a_group_frame_that_has_a_tab():
    plain = layout_diagram(volley.parse("rect\nA -> B: x\nend\n"))
    framed = layout_diagram(volley.parse("group:\nA -> B: x\nend\n"))
    assert plain.height < framed.height


# --- the picture -------------------------------------------------------------------------------


def test_rects_are_painted_first_in_their_colours_under_the_lifelines():
    svg = volley.render(FLOW)
    assert svg.index('<g class="highlights">') < svg.index('<g class="lifelines">')
    outer, inner = highlights(svg)
    assert 'class="highlight tint-1"' in outer and 'fill="#c8dcff"' in outer
    # rgba(255, 180, 0, 0.25) on #c8dcff, as the eye sees the two one over the other (and
    # washed a little, so the muted text of the block labels on it reads)
    assert (
        'class="highlight tint-2"' in inner
        and f'fill="{legible(blend("#ffb400", 0.25, "#c8dcff"))}"' in inner
    )
    assert "fill-opacity" not in svg  # every fill is opaque: no edge of one shows round another
    # inline in a volley page (a docs site's static figure) its rects follow the page's switches
    assert ".volley-diagram[data-theme=dark] #" in svg.split("<style>")[1].split("</style>")[0]
    assert "<style>" not in volley.render("A -> B: x\nrect\nA -> B\nend\n")  # no colour
    assert "block-kind" not in svg and ">group<" not in svg and ">rect<" not in svg


def test_a_nested_rect_covers_the_one_around_it_as_in_mermaid():
    svg = volley.render("rect: lightyellow\nrect: mistyrose\nA -> B: x\nend\nend\n")
    assert [re.search(r'fill="([^"]+)"', shape)[1] for shape in highlights(svg)] == [
        "#ffffe0",
        "#ffe4e1",
    ]


def test_a_picture_without_a_rect_has_no_highlights():
    svg = volley.render("A -> B: x\ngroup: g\nA -> B\nend\n", theme="auto")
    assert "highlight" not in svg and "tint-" not in svg


def test_a_label_patch_on_a_rect_is_the_rects_colour():
    """A label's patch hides the lifeline behind it; on a rect it takes the rect's colour (and
    class), or it would be a box of the page's colour on the rect."""
    svg = volley.render(FLOW)
    messages = re.split(r'<g class="message[ "]', svg.split('<g class="messages">')[1])[1:]
    outside, select, row, check, back = messages
    assert 'class="halo vf-bg"' in outside and 'class="halo vf-bg"' in back
    assert 'class="halo tint-1" ' in select and 'fill="#c8dcff"' in select
    assert 'class="halo tint-1" ' in row
    assert 'class="halo tint-2" ' in check  # the innermost rect's


def test_a_divider_pill_on_a_rect_is_the_rects_colour():
    svg = volley.render("rect lightyellow\nA -> B\n-: later\nA -> B\nend\n")
    divider = re.search(r'<g class="divider.*?</g>', svg, re.S)
    assert divider and 'class="pill tint-1 vs-divider"' in divider.group()
    assert 'fill="#ffffe0"' in divider.group()


def test_on_a_dark_page_a_rect_keeps_its_hue_and_stays_as_visible_as_on_a_white_one():
    assert dark_tint("#ffffff") == DARK["bg"]  # white on white: nothing to see, in the dark too
    faint, strong = dark_tint("#f2f2f2"), dark_tint("#c8dcff")
    assert lightness(DARK["bg"]) < lightness(faint) < lightness(strong) <= DARK_MOST_LIGHTNESS
    blue = [int(strong[i : i + 2], 16) for i in (1, 3, 5)]
    assert blue[2] > blue[1] > blue[0]  # still blue
    # a dark colour chosen for a white page is no lighter than the light text on it allows,
    # the muted text (a delay's label) too
    olive = dark_tint("#3c3c00")
    assert lightness(olive) <= DARK_MOST_LIGHTNESS
    assert contrast(DARK["muted"], olive) >= 4.5 > contrast(DARK["muted"], lighter(olive))


def test_the_dark_theme_and_auto_in_a_dark_browser_draw_the_dark_colours():
    fills = [(f.cls, f.dark) for f in Tints(layout_diagram(volley.parse(FLOW)).frames).coloured]
    dark = volley.render(FLOW, theme="dark")
    assert [re.search(r'fill="([^"]+)"', shape)[1] for shape in highlights(dark)] == [
        colour for _, colour in fills
    ]
    auto = volley.render(FLOW, theme="auto")
    media = re.search(r"@media screen and \(prefers-color-scheme: dark\)\{.*?\}\}", auto, re.S)
    assert media
    for cls, colour in fills:
        assert f".{cls}{{fill:{colour}}}" in media.group()
    assert "#c8dcff" in highlights(auto)[0]  # light without the media rule


def test_a_rect_without_a_colour_uses_the_themes_tint_which_follows_the_theme():
    light = volley.render("rect\nA -> B: x\nend\n", theme="light")
    dark = volley.render("rect\nA -> B: x\nend\n", theme="dark")
    (shape,) = highlights(light)
    assert 'class="highlight vf-tab"' in shape and 'class="halo vf-tab"' in light
    assert highlights(light) != highlights(dark)


def test_a_colour_that_is_no_colour_never_reaches_the_picture():
    source = 'rect red" onload="alert(1)\nA -> B\nend\n'
    for fmt in ("svg", "html"):
        out = volley.render(source, format=fmt)
        assert "onload" not in out and "alert(1)" not in out
    (shape,) = highlights(volley.render(source))
    assert "vf-tab" in shape


def test_the_page_switches_a_rects_colour_with_every_dark_switch():
    page = volley.render(FLOW, format="html")
    css, _ = html_assets()
    assert "tint" not in css  # the page's own stylesheet is as it was: the picture brings its own
    style = re.search(r"<svg.*?<style>(.*?)</style>", page, re.S)
    assert style
    rules = style.group(1)
    prefix = re.search(r'<svg[^>]* id="([^"]+)"', page)[1]
    dark = dark_tint("#c8dcff")
    assert f".volley-diagram[data-theme=dark] #{prefix} .tint-1" in rules
    assert (
        f"[data-md-color-scheme=slate] .volley-diagram[data-theme=auto] #{prefix} .tint-1" in rules
    )
    auto = f".volley-diagram[data-theme=auto] #{prefix}"
    media = "@media screen and (prefers-color-scheme:dark)"
    assert f"{media}{{{auto} .tint-1{{fill:{dark}}}}}" in rules
    assert (
        f"[data-md-color-scheme=default] .volley-diagram[data-theme=auto] #{prefix} .tint-1"
        in rules
    )


def test_png_shows_the_colour_behind_the_messages_and_no_edge_round_a_label():
    png = volley.render(FLOW, format="png", scale=1)
    image = Image.open(io.BytesIO(png)).convert("RGB")
    layout = layout_diagram(volley.parse(FLOW))
    outer = layout.frames[0].box
    # a point inside the outer rect, left of its inner rect and clear of lifelines and labels
    x, y = round(outer.x + 6), round(outer.bottom - 6)
    assert image.getpixel((x, y)) == (200, 220, 255)
    assert image.getpixel((2, 2)) == (255, 255, 255)
    # around the label "row": only the rect's colour, the text's and the arrow's; no white
    label = layout.messages[2].label.box
    ring = [
        image.getpixel((px, py))
        for px in range(round(label.x) - 4, round(label.right) + 4)
        for py in (round(label.y) - 3, round(label.y) - 2)
    ]
    assert (255, 255, 255) not in ring and all(pixel == (200, 220, 255) for pixel in ring)


def test_pdf_pages_a_long_rect():
    source = "rect lightyellow\n" + "".join(f"A -> B: step {n}\n" for n in range(120)) + "end\n"
    pdf = volley.render(source, format="pdf")
    assert pdf.startswith(b"%PDF") and pdf.count(b"/Type /Page\n") + pdf.count(b"/Type /Page ") > 1


# --- what people wrote ---------------------------------------------------------------------------

# Real diagrams with rects (tests/cases/mermaid, each with its source and licence at its top).
RECT_PAGES = [
    "ewc-rfc010.md",
    "fastapi-settings.md",
    "i-love-mermaid.md",
    "openshift-enhancements.md",
    "openshift-platform-tests.md",
    "risingwave-rfc0078.md",
    "toolhive-arch.md",
]
CASES = Path(__file__).resolve().parent / "cases" / "mermaid"


@pytest.mark.parametrize("name", RECT_PAGES)
def test_published_rects_are_drawn_in_their_colours(name):
    page = (CASES / name).read_text(encoding="utf-8")
    written = [
        colour.strip()
        for colour in re.findall(r"(?m)^[ \t]*rect[ \t]+(\S[^\n]*)$", page.split("-->", 1)[1])
    ]
    assert written, "the page holds rects"
    drawn = []
    for item in convert(page, name):
        diagram = volley.parse(item.text)
        assert diagram.warnings == []
        rects = [block for block in walk(diagram.items) if isinstance(block, Block)]
        drawn += [block.tint for block in rects if block.kind == "rect"]
        svg = volley.render(diagram)
        assert len(highlights(svg)) == sum(block.kind == "rect" for block in rects)
    assert drawn == written
    assert all(read_colour(colour) for colour in drawn)


def test_each_label_lies_on_its_innermost_rect():
    source = (
        "A -> B: before\n"
        "rect: pink\n  A -> B: outer\n  rect: lightblue\n    A -> B: inner\n  end\n"
        "  A -> B: outer again\nend\n"
        "A -> B: between\n"
        "rect: lightyellow\n  A -> B: second\nend\n"
        "A -> B: after\n"
    )
    layout = layout_diagram(volley.parse(source))
    tints = Tints([f for f in layout.frames if f.kind == "rect"])
    pink, blue, yellow = tints.frames
    on = [tints.under(m.label.box) for m in layout.messages]
    assert on == [None, pink, blue, pink, None, yellow, None]


@pytest.mark.parametrize(
    "name", ["yellow", "lime", "cyan", "gold", "khaki", "chartreuse", "aqua", "white", "black"]
)
def test_the_dark_themes_text_reads_on_every_rect(name):
    """Lightness alone would let a yellow or a green glare: the dark colour keeps the theme's
    text at WCAG's 4.5:1 at least."""
    tint = read_colour(name)
    assert tint is not None
    dark = dark_tint(blend(tint.hex, tint.opacity, "#ffffff"))
    assert contrast(DARK["text"], dark) >= 4.5 and contrast(DARK["muted"], dark) >= 4.5


def contrast(a: str, b: str) -> float:
    def luminance(colour: str) -> float:
        rgb = [int(colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]
        linear = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in rgb]
        return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]

    first, second = sorted((luminance(a), luminance(b)), reverse=True)
    return (first + 0.05) / (second + 0.05)
