"""The appendix (`bodies="appendix"`): what a reader of a printed picture gets of the payloads."""

from __future__ import annotations

import json
import unicodedata
from pathlib import Path
from xml.etree import ElementTree as ET

import pytest

import volley
from volley.layout import constants as C
from volley.layout.engine import layout_diagram
from volley.layout.geometry import Rect
from volley.layout.pagination import paginate
from volley.options import OptionError
from volley.output.themes import DARK, LIGHT

NS = {"s": "http://www.w3.org/2000/svg"}
EXAMPLES = Path(__file__).parent.parent / "examples"

WIDE_BODY = json.dumps(
    {
        "service": {
            "name": "billing-gateway-production-eu-west-1",
            "endpoints": [
                {
                    "url": "https://billing.example.com/api/v2/invoices?include=lines,customer"
                    ",tax&limit=500&cursor=eyJpZCI6IjEyMzQ1Njc4OTAiLCJ0cyI6MTcwMDAwMDAwMH0",
                    "timeout_ms": 30000,
                }
            ],
            "owner": None,
        }
    }
)
NARROW = f"A -> B: get config\nout: Config\n```json\n{WIDE_BODY}\n```\n=: Later\nB --> A: ok\n"
LONG_LINES = "\n".join(f"  line {i} " + "word " * (i % 40) for i in range(60))
WIDE = (
    "order: P1, P2, P3, P4, P5, P6\n"
    + "".join(f"P{i} -> P{i + 1}: step {i} with a longer label\n" for i in range(1, 6))
    + f"P6 --> P1: done\nin: Trace\n{LONG_LINES}\n"
)


def tree(svg: str) -> ET.Element:
    return ET.fromstring(svg)


def code_lines(root: ET.Element) -> list[str]:
    """The text of each body line drawn in the appendix, its runs joined at their places."""
    out = []
    for text in root.iterfind(".//s:g[@class='appendix']//s:text", NS):
        if "appendix-text" in (text.get("class") or ""):
            out.append("".join(text.itertext()))
    return out


def squeezed(text: str) -> str:
    return "".join(text.split())


@pytest.mark.parametrize("source", [NARROW, WIDE], ids=["narrow", "wide"])
def test_every_body_line_is_in_the_picture_in_full(source: str) -> None:
    diagram = volley.parse(source)
    root = tree(volley.render(diagram, bodies="appendix"))
    drawn = code_lines(root)
    assert not any("…" in line for line in drawn)
    body = next(p.body for m in diagram.messages() for p in (m.request, m.response) if p)
    # Every character of the body, in order, across the wrapped lines.
    assert squeezed(body) in "".join(squeezed(line) for line in drawn)
    # A line that fits is one line of the picture, as written.
    for line in body.split("\n"):
        if len(line) < 60:
            assert any(squeezed(line) == squeezed(d) for d in drawn), line


@pytest.mark.parametrize(
    "word",
    ["👩‍💻👨‍👩‍👧‍👦🇯🇵👍🏽1️⃣", unicodedata.normalize("NFD", "한국어"), "किताबें"],
    ids=["emoji", "hangul jamo", "devanagari"],
)
def test_a_wrapped_body_line_breaks_between_what_reads_as_one_letter(word: str) -> None:
    """A line wrapped in the appendix broke inside a family emoji (a lone 👨 at one line's
    end, 👩‍👧‍👦 at the next's start), inside a Hangul syllable written in jamo (하, then ᆫ)."""
    from volley.layout.textwrap import clusters

    body = json.dumps({"text": word * 60}, ensure_ascii=False)
    drawn = code_lines(tree(volley.render(f"A -> B: x\nin: Body\n  {body}\n", bodies="appendix")))
    assert len(drawn) > 2 and squeezed("".join(drawn)) == squeezed(body)
    for before, after in zip(drawn, drawn[1:], strict=False):
        joined = before.strip() + after.strip()
        ends = {len("".join(clusters(joined)[:k])) for k in range(len(joined) + 1)}
        assert len(before.strip()) in ends, (before[-3:], after[:3])


def test_hangul_written_in_jamo_is_as_wide_as_its_syllables() -> None:
    """Text copied from a Mac's file names spells 한 as ᄒ, ᅡ, ᆫ: each vowel and final was
    measured as a letter, and names, notes and labels came out twice as wide."""
    from volley.layout.metrics import text_width

    name = "한국어 서비스"
    assert text_width(unicodedata.normalize("NFD", name), 14) == text_width(name, 14)


@pytest.mark.parametrize("source", [NARROW, WIDE], ids=["narrow", "wide"])
def test_nothing_reaches_past_the_canvas(source: str) -> None:
    layout = layout_diagram(volley.parse(source), bodies="appendix")
    canvas = Rect(0, 0, layout.width, layout.height)
    for block in layout.text_blocks():
        assert canvas.contains(block.box), block
        for line in block.lines:
            assert line.x + line.width <= layout.width - C.MARGIN + 0.5
    for entry in layout.appendix.entries:
        for body in entry.bodies:
            assert body.panel is None or canvas.contains(body.panel.box)
            if body.code:
                assert body.panel.box.contains(body.code.box)


def test_a_narrow_diagram_sits_centred_over_a_wide_appendix() -> None:
    layout = layout_diagram(volley.parse(NARROW), bodies="appendix")
    plain = layout_diagram(volley.parse(NARROW), bodies="markers")
    assert layout.width > plain.width + 100  # the body asks for a reading column
    boxes = [p.top for p in layout.participants]
    left, right = boxes[0].x, boxes[-1].right + C.PARTICIPANT_SHADOW
    assert left - 0 == pytest.approx(layout.width - right, abs=1)
    [band] = [d for d in layout.dividers if d.band]
    assert band.x1 == pytest.approx(left, abs=1) and band.x2 == pytest.approx(right, abs=1)
    assert layout.appendix.x1 == C.MARGIN and layout.appendix.x2 == layout.width - C.MARGIN


def test_a_wide_diagram_keeps_its_width() -> None:
    layout = layout_diagram(volley.parse(WIDE), bodies="appendix")
    plain = layout_diagram(volley.parse(WIDE), bodies="markers")
    assert layout.width == plain.width
    assert layout.participants[0].x == plain.participants[0].x


def test_headings_name_number_sender_receiver_and_labels() -> None:
    text = (EXAMPLES / "mcp-tool-call.volley").read_text()
    root = tree(volley.render(text, bodies="appendix"))
    headings = [
        "".join(t.itertext())
        for t in root.iterfind(".//s:g[@class='appendix']//s:text", NS)
        if "appendix-label" in (t.get("class") or "")
    ]
    assert (
        headings[2]
        == "3 · Agent → MCP Server · POST /mcp (notifications/initialized) · Request (http)"
    )
    assert headings[4] == "5 · MCP Server → Agent · 200 OK · Tools (json)"
    assert len(headings) == 9


def test_two_bodies_of_one_message_get_a_heading_each() -> None:
    text = "A -> B: call\nin: Args\n  q: 1\nout: Result\n  ok: true\n"
    layout = layout_diagram(volley.parse(text), bodies="appendix")
    [entry] = layout.appendix.entries
    words = ["".join(r.text for line in b.heading.lines for r in line.runs if r.icon is None)
             for b in entry.bodies]  # fmt: skip
    assert words == ["1 · A → B · call · Args", "1 · A → B · call · Result"]


def test_a_right_to_left_body_label_keeps_its_language_after_it() -> None:
    """The label is set apart as a right-to-left isolate; the language stays outside it, so
    it reads after the label, as it does after a left-to-right one (not "(http) طلب"). The
    isolate's marks are read for the order, and left out of the runs drawn."""
    text = "A -> B: go\nin: طلب\n```http\nGET / HTTP/1.1\n```\n"
    layout = layout_diagram(volley.parse(text), bodies="appendix")
    [entry] = layout.appendix.entries
    runs = [run for line in entry.bodies[0].heading.lines for run in line.runs]
    label = next(run for run in runs if "طلب" in run.text)
    language = next(run for run in runs if run.text == "(http)")
    assert label.text == "طلب" and label.rtl and label.dx < language.dx


def test_a_right_to_left_string_cut_by_wrapping_reads_right_to_left_on_each_line() -> None:
    """Each piece of a wrapped Hebrew string isolated each word on its own, inside code that
    reads left to right: its words ran left to right ("fifteen … three two one")."""
    words = " ".join(["אחת", "שתיים", "שלוש", "ארבע", "חמש"] * 8)
    body = json.dumps({"short": "אחת שתיים", "long": words}, ensure_ascii=False)
    drawn = code_lines(tree(volley.render(f"A -> B: x\nin: Body\n  {body}\n", bodies="appendix")))
    pieces = [line for line in drawn if "חמש" in line]
    assert len(pieces) > 1
    for piece in pieces:  # the string's words in one isolate, reading their own way
        inner = piece[piece.index("\u2068") + 1 : piece.rindex("\u2069")]
        assert "\u2068" not in inner and "חמש" in inner, piece


def test_a_right_to_left_name_in_a_heading_reads_as_its_lane_shows_it() -> None:
    """Each isolated name or label was set word by word from the left: `خادم API` read
    "خادم API" where its box shows "API خادم", and a Hebrew label's words swapped places."""
    text = (
        "participant S as خادم API\nU -> S: שלח בקשה POST /login עם 3 פרמטרים\n"
        "in: Request\n  a: 1\n"
    )
    layout = layout_diagram(volley.parse(text), bodies="appendix")
    [entry] = layout.appendix.entries
    runs = [run for line in entry.bodies[0].heading.lines for run in line.runs]

    def x(word: str) -> float:
        return next(run.dx for run in runs if word in run.text)

    assert x("→") < x("API") < x("خادم")  # the name, right to left, after the arrow
    assert x("خادم") < x("פרמטרים") < x("POST") < x("שלח")  # the label's words so too


def test_headings_name_the_lanes_as_shown_in_the_direction_of_the_arrow() -> None:
    """A heading says who sent what to whom as the picture shows it: a participant's display
    label (`participant H as MCP Host`), the answer of `H <-- S` from S, a two-way arrow so."""
    text = (
        "participant H as MCP Host\nparticipant S as Weather Server\n"
        "H -> S: call\nin: Args\n  city: Tokyo\n"
        "H <-- S: result\nout: Result\n  temp: 20\n"
        "H <-> S: sync\nin: State\n  a: 1\n"
    )
    layout = layout_diagram(volley.parse(text), bodies="appendix")
    words = ["".join(r.text for line in b.heading.lines for r in line.runs if r.icon is None)
             for entry in layout.appendix.entries for b in entry.bodies]  # fmt: skip
    assert words == [
        "1 · MCP Host → Weather Server · call · Args",
        "2 · Weather Server → MCP Host · result · Result",
        "3 · MCP Host ↔ Weather Server · sync · State",
    ]


def test_a_cap_says_what_it_cut() -> None:
    svg = volley.render(WIDE, bodies="appendix", appendix_lines=10)
    assert "50 more lines not shown (10 of 60)" in svg
    assert "line 9 " in svg and "line 10 " not in svg


def test_the_cap_is_checked() -> None:
    with pytest.raises(OptionError, match="appendix_lines"):
        volley.Options(bodies="appendix", appendix_lines=0)
    with pytest.raises(OptionError, match='bodies "appendix"'):
        volley.Options(appendix_lines=5)
    with pytest.raises(OptionError, match="whole number"):
        volley.Options(bodies="appendix", appendix_lines=2.5)


def test_an_empty_body_says_so() -> None:
    svg = volley.render("A -> B: ping\nin: Nothing\n```\n```\n", bodies="appendix")
    assert "(empty)" in svg


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_bodies_are_coloured_by_their_syntax(theme: str) -> None:
    colours = LIGHT if theme == "light" else DARK
    root = tree(volley.render(NARROW, bodies="appendix", theme=theme))
    spans = {
        "".join(s.itertext()): s.get("fill")
        for s in root.iterfind(".//s:g[@class='appendix']//s:tspan", NS)
    }
    assert spans['"service"'] == colours["syntax_key"]
    assert spans["30000"] == colours["syntax_num"]
    assert spans["null"] == colours["syntax_const"]
    assert spans['"billing-gateway-production-eu-west-1"'] == colours["syntax_str"]


def test_http_bodies_colour_their_start_line_and_headers() -> None:
    text = (EXAMPLES / "mcp-tool-call.volley").read_text()
    root = tree(volley.render(text, bodies="appendix"))
    spans = {
        "".join(s.itertext()): s.get("fill")
        for s in root.iterfind(".//s:g[@class='appendix']//s:tspan", NS)
    }
    assert spans["POST"] == LIGHT["syntax_method"]
    assert spans["Content-Type"] == LIGHT["syntax_attr"]


def _contrast(a: str, b: str) -> float:
    def lum(colour: str) -> float:
        rgb = [int(colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]
        lin = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in rgb]
        return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]

    hi, lo = sorted([lum(a), lum(b)], reverse=True)
    return (hi + 0.05) / (lo + 0.05)


@pytest.mark.parametrize("palette", [LIGHT, DARK], ids=["light", "dark"])
def test_syntax_colours_are_aa_on_the_code_panel(palette) -> None:
    for role, colour in palette.items():
        if role.startswith("syntax_"):
            assert _contrast(colour, palette["code"]) >= 4.5, role


def test_pdf_pages_cut_a_long_body_between_its_lines() -> None:
    body = "\n".join(f"  line {i}" for i in range(400))
    layout = layout_diagram(volley.parse(f"A -> B: big\nin: Dump\n{body}\n"), bodies="appendix")
    pages = paginate(layout, 1500)
    assert len(pages) > 2
    [code] = [b.code for e in layout.appendix.entries for b in e.bodies]
    baselines = [line.baseline for line in code.lines]
    for page in pages[:-1]:
        # Each cut falls inside the body, between two lines, clear of both.
        above = max(b for b in baselines if b < page.bottom)
        below = min(b for b in baselines if b > page.bottom)
        assert below - above == pytest.approx(code.lines[1].baseline - code.lines[0].baseline)
        assert page.bottom - above > 2 and below - page.bottom > 8


def test_pdf_with_an_appendix_renders() -> None:
    pdf = volley.render(NARROW, "pdf", bodies="appendix")
    assert pdf.startswith(b"%PDF")


def test_auto_theme_turns_the_syntax_colours_dark_too() -> None:
    auto = volley.render(NARROW, bodies="appendix", theme="auto")
    assert f".vf-syntax_key{{fill:{DARK['syntax_key']}}}" in auto
    # A picture without an appendix carries no rules for colours it does not use.
    assert "syntax_" not in volley.render(NARROW, theme="auto")


def test_a_crlf_body_reads_as_its_lines() -> None:
    body = "GET / HTTP/1.1\r\nHost: example.com\r\n"
    root = tree(volley.render(f"A -> B: x\nin: R\n```http\n{body}```\n", bodies="appendix"))
    assert [squeezed(line) for line in code_lines(root)] == ["GET/HTTP/1.1", "Host:example.com"]


def test_the_command_line_caps_the_appendix(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from volley.cli import main

    source = tmp_path / "wide.volley"
    source.write_text(WIDE, encoding="utf-8")
    out = tmp_path / "wide.svg"
    runner = CliRunner()
    done = runner.invoke(
        main,
        ["render", str(source), "-o", str(out), "--bodies", "appendix", "--appendix-lines", "5"],
    )
    assert done.exit_code == 0, done.output
    assert "55 more lines not shown (5 of 60)" in out.read_text(encoding="utf-8")
    refused = runner.invoke(main, ["render", str(source), "--appendix-lines", "5"])
    assert refused.exit_code == 2 and "--appendix-lines" in refused.output
