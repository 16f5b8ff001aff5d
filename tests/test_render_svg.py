"""The SVG: structure, text, hooks for the viewer, safety and determinism."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from hypothesis import given

import volley
from volley.api import default_id_prefix, layout, render
from volley.checks.bidi import reveal_diagram
from volley.layout.typeset import clean_text
from volley.model import ARROWS, Divider, Note, walk
from volley.output.svg import render_svg
from volley.output.svg_tags import num
from volley.output.themes import DARK, LIGHT
from volley.text.inline import CodeBlock, parse_note, plain_text

from .fuzz_strategies import FUZZ, diagram_text

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = sorted((ROOT / "examples").glob("*.volley"))
NS = {"s": "http://www.w3.org/2000/svg"}
SVG = "{http://www.w3.org/2000/svg}"


def tree(svg: str) -> ET.Element:
    return ET.fromstring(svg)


def squash(text: str) -> str:
    """Text without any whitespace: wrapping and run splitting only move spaces."""
    return "".join(text.split())


def note_words(text: str) -> str:
    """What a note shows, without markup: its paragraphs, list items and code lines."""
    shown = []
    for block in parse_note(text):
        if isinstance(block, CodeBlock):
            shown += block.lines
        else:
            shown += ["".join(span.text for span in line) for line in block.lines]
    return squash("".join(shown))


def attribute(text: str) -> str:
    """An attribute's value as an XML parser reads it back: tabs and line breaks as spaces."""
    return text.replace("\t", " ").replace("\n", " ").replace("\r", " ")


def text_of(element: ET.Element) -> str:
    """The text drawn, less the isolate marks (RLI, FSI, PDI) that give the runs of a
    right-to-left paragraph their direction (hidden characters a user wrote are drawn as
    visible escapes)."""
    text = "".join(t for node in element.iter(f"{SVG}text") for t in node.itertext())
    return squash(re.sub("[\u2067\u2068\u2069]", "", text))


@pytest.mark.parametrize("path", EXAMPLES, ids=[p.name for p in EXAMPLES])
def test_examples_are_valid_xml_with_every_text(path: Path) -> None:
    source = path.read_text(encoding="utf-8")
    diagram = volley.parse(source)
    root = tree(render(source))
    everything = text_of(root)
    for name in diagram.participants:
        assert squash(diagram.shown(name)) in everything  # `participant PSP as Payments API`
    messages = root.findall(".//s:g[@class='messages']/s:g", NS)
    assert len(messages) == len(diagram.messages())
    for group, message in zip(messages, diagram.messages(), strict=True):
        assert squash(plain_text(message.label)) in text_of(group)
    notes = root.findall(".//s:g[@class='note']", NS)
    written = [i for i in walk(diagram.items) if isinstance(i, Note)]
    for group, note in zip(notes, written, strict=True):
        assert note_words(note.text) in text_of(group)
    dividers = [i for i in walk(diagram.items) if isinstance(i, Divider)]
    groups = root.findall(".//s:g[@class='dividers']/s:g", NS)
    for group, divider in zip(groups, dividers, strict=True):
        assert squash(plain_text(divider.label)) in text_of(group)
        assert group.get("class") == f"divider divider-{divider.style}"
    if diagram.title:
        assert squash(plain_text(diagram.title)) in text_of(root.find(".//s:g[@class='title']", NS))


def test_message_hooks_for_the_viewer(reference_text: str) -> None:
    diagram = volley.parse(reference_text)
    root = tree(render(reference_text))
    groups = root.findall(".//s:g[@class='messages']/s:g", NS)
    assert [g.get("data-message") for g in groups] == [
        str(n) for n in range(1, len(diagram.messages()) + 1)
    ]
    for group, message in zip(groups, diagram.messages(), strict=True):
        assert "message" in group.get("class", "").split()
        assert group.get("data-from") == message.sender and group.get("data-to") == message.receiver
        assert group.get("data-line") == str(message.line)
        hit = group.find("s:path[@class='hit']", NS)
        assert hit is not None and hit.get("stroke-opacity") == "0"
        assert float(hit.get("stroke-width")) >= 10
        has = message.request is not None or message.response is not None
        assert (group.get("data-has-payload") == "true") == has
        if has:
            marker = group.find("s:rect[@class='marker vf-accent_soft vs-accent']", NS)
            assert marker is not None


def markers_of(root: ET.Element) -> list[tuple[str, str]]:
    """(data-payload, the text in its pill) of each message that carries a payload."""
    found = []
    for group in root.findall(".//s:g[@class='messages']/s:g[@data-has-payload='true']", NS):
        texts = group.findall("s:text", NS)
        pill = [t for t in texts if (t.get("class") or "").startswith("marker-text")]
        found.append((group.get("data-payload"), "".join(t for p in pill for t in p.itertext())))
    return found


def test_payload_markers_count_the_payloads(reference_text: str) -> None:
    """Not the message ordinals (1, 2, 3, 5 ...), which nothing on the arrows shows."""
    root = tree(render(reference_text, bodies="appendix"))
    assert markers_of(root) == [(str(n), str(n)) for n in range(1, 10)]
    appendix = root.findall(".//s:g[@class='appendix']/s:g[@class='payload']", NS)
    assert [e.get("data-payload") for e in appendix] == [str(n) for n in range(1, 10)]


def test_with_autonumber_a_marker_shows_no_second_number() -> None:
    text = "autonumber\nA -> B: one\nA -> B: two\nin: Request\n  x: 1\nB --> A: three\n"
    root = tree(render(text, bodies="appendix"))
    group = root.find(".//s:g[@data-message='2']", NS)
    badge = "".join(group.find("s:text[@class='autonumber vf-inverse']", NS).itertext())
    assert badge == "2"
    assert markers_of(root) == [("2", "")]  # the paperclip alone: the badge says 2
    [entry] = root.findall(".//s:g[@class='appendix']/s:g[@class='payload']", NS)
    assert entry.get("data-payload") == "2" and "2" in text_of(entry)


def test_a_marker_says_what_it_holds_on_hover(reference_text: str) -> None:
    root = tree(
        render("A -> B: call\nin: The <query>\n  q: 1\nout: Result\n  ```json\n  {}\n  ```")
    )
    marker = root.find(".//s:rect[@class='marker vf-accent_soft vs-accent']", NS)
    assert marker.find("s:title", NS).text == "in: The <query>\nout: Result (json)"


@pytest.mark.parametrize("arrow", sorted(ARROWS))
def test_each_operator_draws_its_marker(arrow: str) -> None:
    root = tree(render(f"A {arrow} B: x"))
    group = root.find(".//s:g[@data-message='1']", NS)
    style = ARROWS[arrow]
    classes = [p.get("class") for p in group.findall("s:path", NS)]
    arrow_path = next(p for p in group.findall("s:path", NS) if "arrow" in p.get("class"))
    assert f"arrow-{style.line}" in arrow_path.get("class")
    assert (arrow_path.get("stroke-dasharray") is not None) == (style.line == "dashed")
    assert float(arrow_path.get("stroke-width")) > (2 if style.line == "bold" else 1)
    heads = sorted(c.split()[1] for c in classes if c.startswith("head"))
    expected = sorted(f"head-{h}" for h in (style.head_from, style.head_to) if h != "none")
    assert heads == expected


def test_structure_is_classed(reference_text: str) -> None:
    root = tree(render(reference_text))
    for cls in ("lifelines", "participants", "messages", "notes", "dividers", "blocks", "title"):
        assert root.find(f".//s:g[@class='{cls}']", NS) is not None, cls
    assert len(root.findall(".//s:g[@class='participant']", NS)) == 4
    assert len(root.findall(".//s:line[@class='lifeline vs-lifeline']", NS)) == 4
    assert root.findall(".//s:g[@class='divider divider-bold']", NS)
    labels = root.findall(".//s:text", NS)
    assert any("label" in (t.get("class") or "").split() for t in labels)


def test_a_note_says_which_lanes_it_is_over_or_beside() -> None:
    """A note's group names its participants, and where it stands beside one lifeline."""
    root = tree(render("A -> B\nnote left of B: l\nnote right of A: r\nnote A, B: both\n"))
    notes = root.findall(".//s:g[@class='note']", NS)
    assert [(n.get("data-over"), n.get("data-side")) for n in notes] == [
        ("B", "left"),
        ("A", "right"),
        ("A,B", None),
    ]


def test_blocks_are_framed_with_their_kind() -> None:
    svg = render("if: ok\n  A -> B\nelse: not\n  B -> A\nend\nloop: forever\n  A -> B\nend")
    root = tree(svg)
    alt = root.find(".//s:g[@class='block block-if']", NS)
    loop = root.find(".//s:g[@class='block block-loop']", NS)
    assert alt is not None and loop is not None
    assert "if" in text_of(alt) and "else" in text_of(alt) and "not" in text_of(alt)
    assert alt.find("s:line[@class='separator vs-frame']", NS) is not None


def test_a_block_tab_is_drawn_over_an_activation_bar() -> None:
    """A loop inside an activation starts at the active lane: its `loop` tab stays readable."""
    root = tree(render("A ->>+ B: call\nloop: poll\n  B -> C: ask\nend\nB -->>- A: done"))
    groups = [g.get("class") for g in root.findall("s:g", NS)]
    assert groups.index("activations") < groups.index("blocks")


def test_activation_bars_are_drawn_under_the_arrows() -> None:
    root = tree(render("A ->+ B: call\nB ->+ B: inner\nB -->- B: out\nB -->- A: done"))
    groups = [g.get("class") for g in root.findall("s:g", NS)]
    assert groups.index("lifelines") < groups.index("activations") < groups.index("messages")
    bars = root.findall(".//s:g[@class='activations']/s:rect", NS)
    assert [(b.get("data-participant"), b.get("data-depth")) for b in bars] == [
        ("1", "0"),
        ("1", "1"),
    ]
    assert all(float(b.get("height")) > 0 and b.get("data-line") for b in bars)


def test_title_and_desc_for_screen_readers(reference_text: str) -> None:
    root = tree(render(reference_text, id_prefix="ref"))
    title = root.find("s:title", NS)
    desc = root.find("s:desc", NS)
    assert title.text == "MCP tool call over Streamable HTTP"
    assert "User, Agent, Model, MCP Server" in desc.text and "POST /mcp (initialize)" in desc.text
    assert root.get("role") == "img" and root.get("aria-labelledby") == "ref-title ref-desc"


def test_desc_ends_each_step_once() -> None:
    """A label that ends a sentence of its own is not given a second full stop."""
    desc = tree(render("A -> B: Done.\nB -> A: Ready?\nA -> B: go\n")).find("s:desc", NS)
    assert desc.text.endswith("1. A to B: Done. 2. B to A: Ready? 3. A to B: go.")


def test_desc_names_lanes_as_shown_and_follows_the_arrows() -> None:
    """The description says what the picture shows: display labels, `H <-- S` as S answering
    H, a two-way arrow as between both (as the page's panel says it)."""
    text = "participant H as MCP Host\nH -> S: call\nH <-- S: result\nH <-> S: sync\n"
    desc = tree(render(text)).find("s:desc", NS).text
    assert desc == (
        "Sequence diagram between MCP Host, S. 1. MCP Host to S: call. "
        "2. S to MCP Host: result. 3. MCP Host and S: sync."
    )


def test_desc_tells_notes_sections_and_blocks_where_they_stand() -> None:
    """A screen reader hears the notes (their Markdown as plain sentences), the sections and
    the blocks' beginnings and ends between the messages they stand among, not only the
    messages."""
    text = (
        "A -> B: login\nnote: The **password**\n- over TLS\n1. once\n//\n"
        "=: Tokens\nif: valid\n  B --> A: 200\n  note left of A: `token` set\n"
        "else\n  B --> A: 401\nend\nrect\n  note A, B:\n  | k | v |\n  |---|---|\n"
        "  | a | 1 |\nend\n...: a day on\n"
    )
    desc = tree(render(text)).find("s:desc", NS).text
    assert desc == (
        "Sequence diagram between A, B. 1. A to B: login. "
        "Note over A and B: The password. over TLS. 1. once. Section: Tokens. If: valid. "
        "2. B to A: 200. Note beside A: token set. Else. 3. B to A: 401. End of if. "
        "Note over A and B: k, v; a, 1. Later: a day on."
    )


def test_a_bare_keycap_is_drawn_as_a_key() -> None:
    """`1⃣` without its emoji selector is drawn with it, as PNG and PDF draw the key (Chromium
    drew the digit and an empty box); a keycap with it, and a lone enclosing keycap, stay."""
    source = "A -> B: keys 1\u20e3 #\u20e3 *\ufe0f\u20e3 and x\u20e3\n"
    label = tree(render(source)).find(".//s:text[@class='label vf-text']", NS)
    assert label.text == "keys 1\ufe0f\u20e3 #\ufe0f\u20e3 *\ufe0f\u20e3 and x\u20e3"
    # measured as the key it is drawn as (the payload's pill stood over a key measured as a
    # digit), and shown so in the page's panel too
    from volley.layout.metrics import text_width

    assert text_width("1\u20e3 #\u20e3", 14) == text_width("1\ufe0f\u20e3 #\ufe0f\u20e3", 14)
    page = volley.render(source, format="html")
    assert '"label":[[{"t":"keys 1\\ufe0f\\u20e3 #\\ufe0f\\u20e3' in page


def test_a_right_to_left_paragraph_is_drawn_with_its_direction() -> None:
    """SVG text runs left to right unless told: a Hebrew label is set apart as a right-to-left
    isolate (so its full stop stands at its left) and drawn from its middle, where the layout
    centred it, whatever width the reader's Hebrew font gives it."""
    source = "A -> B: שלום עולם.\nA -> B: GET שלום.\n"
    labels = tree(render(source)).findall(".//s:text[@class='label vf-text']", NS)
    hebrew, english = labels
    assert hebrew.text == "\u2067שלום עולם.\u2069" and hebrew.get("text-anchor") == "middle"
    assert english.text == "GET שלום." and english.get("text-anchor") is None
    diagram = volley.parse(source)
    picture = layout(diagram)
    raster = render_svg(picture, diagram, id_prefix="v", raster=True)
    # PNG and PDF: a right-to-left line keeps its anchor (the raster path measures it, see
    # test_rtl_raster); a line in the diagram's own face is drawn from its measured start.
    assert raster.count("text-anchor") == 1 and 'text-anchor="middle">\u2067' in raster
    # Runs of several styles were put in order by the typesetter, each cut where its letters'
    # direction turns: one that reads right to left is set apart as such (a bracket in it is
    # drawn mirrored), one that reads left to right is plain, so "Hello." keeps its full stop
    # on its right.
    svg = render("A -> B: שלום **Hello.** world (אחד)")
    runs = re.findall(r"<tspan[^>]*>([^<]*)</tspan>", svg)
    assert runs == ["\u2067שלום\u2069", "Hello.", "world", "\u2067(אחד)\u2069"]
    assert 'direction="ltr"' in svg.split(">", 1)[0]  # in a right-to-left page too


def test_fonts_and_presentation_colours(reference_text: str) -> None:
    svg = render(reference_text)
    root = tree(svg)
    family = root.get("font-family")
    assert family.startswith("Arial, 'Liberation Sans', Arimo, Helvetica, Noto Sans Devanagari,")
    assert "Noto Sans Tamil" in family and family.endswith(", sans-serif")
    assert "<style" not in svg and "var(" not in svg
    assert root.find(".//s:rect[@class='background vf-bg']", NS).get("fill") == "#ffffff"


def test_dark_and_auto_themes(reference_text: str) -> None:
    dark = render(reference_text, theme="dark")
    assert f'fill="{DARK["bg"]}"' in dark and "<style" not in dark
    auto = render(reference_text, theme="auto", id_prefix="d1")
    style = tree(auto).find("s:style", NS)
    assert style is not None and "@media screen and (prefers-color-scheme: dark)" in style.text
    # scoped to the picture's own id, which is not the bare prefix (a docs page's heading
    # takes that: `## Login` over a diagram named "login")
    assert tree(auto).get("id") == "d1-svg"
    assert "#d1-svg .vf-bg{fill:" + DARK["bg"] + "}" in style.text
    with pytest.raises(volley.VolleyError):
        render(reference_text, theme="neon")


# Links and icon uses are written as xlink:href: hosts such as mkdocs-material's instant
# navigation rewrite every plain `[href]` element, which throws on SVG elements.
XLINK_HREF = "{http://www.w3.org/1999/xlink}href"


def test_nothing_active_or_external(reference_text: str) -> None:
    root = tree(
        render(
            reference_text + "\nA -> B: [docs](https://example.com/x) and [x](javascript:alert(1))"
        )
    )
    tags = {el.tag.replace(SVG, "") for el in root.iter()}
    assert not tags & {"script", "foreignObject", "image", "iframe", "object"}
    for el in root.iter(f"{SVG}use"):
        assert el.get(XLINK_HREF, "").startswith("#")
    links = [a.get(XLINK_HREF) for a in root.iter(f"{SVG}a")]
    assert links == ["https://example.com/x"]
    for el in root.iter():
        assert not any(k.lower().startswith("on") for k in el.attrib)


def test_user_text_is_escaped_and_bad_characters_shown() -> None:
    nasty = 'A -> B: </text><script>alert(1)</script> & "quotes" \x01 \x0b end'
    svg = render(nasty)
    root = tree(svg)
    assert "<script" not in svg
    label = text_of(root.find(".//s:g[@data-message='1']", NS))
    assert "</text><script>alert(1)</script>" in label
    assert "\\u0001" in label and "\\u000b" in label  # control characters shown as escapes


def test_ids_are_prefixed_and_stable(reference_text: str) -> None:
    root = tree(render(reference_text, id_prefix="my diagram"))
    ids = [el.get("id") for el in root.iter() if el.get("id")]
    assert ids and all(i.startswith("my-diagram") for i in ids)
    diagram = volley.parse(reference_text)
    prefix = default_id_prefix(diagram)
    assert prefix == default_id_prefix(volley.parse(reference_text))
    assert prefix != default_id_prefix(volley.parse(reference_text + "\nA -> B"))
    assert tree(render(reference_text)).get("id") == f"{prefix}-svg"
    assert render(reference_text) == render(diagram), "text and its Diagram give the same bytes"


def test_output_is_byte_deterministic_across_processes(reference_text: str) -> None:
    first = render(reference_text)
    assert first == render(reference_text)
    code = "import sys, volley; sys.stdout.write(volley.render(sys.stdin.read()))"
    env = {**os.environ, "PYTHONHASHSEED": "12345"}
    other = subprocess.run(
        [sys.executable, "-c", code], input=reference_text, capture_output=True, text=True,
        env=env, cwd=ROOT, check=True,
    ).stdout  # fmt: skip
    assert other == first


def test_numbers_have_at_most_two_decimals() -> None:
    assert [num(v) for v in (0, -0.001, 12.5, 1 / 3, -2.675, 100.0)] == [
        "0", "0", "12.5", "0.33", "-2.68", "100",
    ]  # fmt: skip


def test_appendix_lists_the_bodies(reference_text: str) -> None:
    root = tree(render(reference_text, bodies="appendix"))
    appendix = root.find(".//s:g[@class='appendix']", NS)
    assert appendix is not None
    entries = appendix.findall("s:g[@class='payload']", NS)
    assert [e.get("data-payload") for e in entries] == [str(n) for n in range(1, 10)]
    assert "protocolVersion" in text_of(entries[0]) and "notshown" not in text_of(appendix)
    assert tree(render(reference_text)).find(".//s:g[@class='appendix']", NS) is None


def test_icons_are_inlined_once_and_unknown_ones_are_placeholders() -> None:
    svg = render("=: {fas-plug} One\nA -> B: {fas-plug} two\n=: {fas-nope-nope} three")
    root = tree(svg)
    symbols = root.findall(".//s:defs/s:symbol", NS)
    assert [s.get("id").rsplit("-icon-", 1)[1] for s in symbols] == ["fas-plug"]
    assert len(root.findall(".//s:use", NS)) == 2
    missing = root.find(".//s:rect[@class='icon-missing vf-code vs-missing']", NS)
    assert missing is not None and missing.get("stroke-dasharray") is None  # a quiet tile
    assert missing.get("stroke") not in ("#dc2626", "#f87171")  # not an alarm red


def test_html_is_handed_to_the_viewer_module(reference_text: str) -> None:
    try:
        import volley.output.html  # noqa: F401
    except ModuleNotFoundError:
        with pytest.raises(volley.VolleyError, match="HTML"):
            render(reference_text, "html")
    else:
        assert "<svg" in render(reference_text, "html")


def test_unknown_format_and_bodies_are_clear_errors(reference_text: str) -> None:
    with pytest.raises(volley.VolleyError, match="format"):
        render(reference_text, "gif")
    with pytest.raises(volley.VolleyError, match="bodies"):
        render(reference_text, bodies="everywhere")


@FUZZ
@given(text=diagram_text())
def test_generated_diagrams_render_to_valid_xml(text: str) -> None:
    try:
        diagram = volley.parse(text)
    except volley.VolleyError:
        return
    root = tree(render(diagram, bodies="appendix", theme="auto"))
    diagram = reveal_diagram(diagram)  # as drawn: hidden characters shown as escapes
    groups = root.findall(".//s:g[@class='messages']/s:g", NS)
    assert len(groups) == len(diagram.messages())
    for group, message in zip(groups, diagram.messages(), strict=True):
        assert group.get("data-from") == attribute(clean_text(message.sender))
        assert group.get("data-to") == attribute(clean_text(message.receiver))
        label = squash(clean_text(plain_text(message.label))).replace("\ufffd", "")
        assert label in text_of(group).replace("\ufffd", "")  # control characters shown as �
    names = [g.get("data-name") for g in root.findall(".//s:g[@class='participant']", NS)]
    assert names == [attribute(clean_text(name)) for name in diagram.participants]


def test_a_long_diagram_keeps_every_message_and_section() -> None:
    lines = ["order: A, B, C, D, E", "autonumber"]
    for i in range(1000):
        a, b = "ABCDE"[i % 5], "ABCDE"[(i * 3 + 1) % 5]
        lines.append(f"{a} -> {b}: message {i} with **some** text")
        if i % 100 == 0:
            lines.append("=: {fas-plug} Section")
    root = tree(render("\n".join(lines)))
    groups = root.findall(".//s:g[@class='messages']/s:g", NS)
    assert [g.get("data-message") for g in groups] == [str(n) for n in range(1, 1001)]
    assert "message999withsometext" in text_of(groups[-1])
    assert len(root.findall(".//s:g[@class='dividers']/s:g", NS)) == 10


def test_quotes_and_markup_in_names_and_links_stay_text() -> None:
    name = "Say \"hi\" & 'bye'"
    source = (
        f'{name} -> B: <b>not bold</b> [go](https://example.com/?a=1&b="2")\n'
        "if: <i>kind</i>\n  B -> A\nend"
    )
    svg = render(source)
    root = tree(svg)
    assert root.find(".//s:g[@class='participant']", NS).get("data-name") == name
    assert root.find(".//s:g[@data-message='1']", NS).get("data-from") == name
    assert "<b>" not in svg and "<i>" not in svg
    assert "<b>notbold</b>" in text_of(root.find(".//s:g[@data-message='1']", NS))
    assert [a.get(XLINK_HREF) for a in root.iter(f"{SVG}a")] == ['https://example.com/?a=1&b="2"']


def test_nothing_rendered_is_kept_on_disk(tmp_path, reference_text: str) -> None:
    """A render writes no markup to the cache folder (at most Lark's and Jinja's own caches)."""
    code = "import sys, volley; volley.render(sys.stdin.read(), theme='auto')"
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path)}
    for _ in range(2):
        subprocess.run(
            [sys.executable, "-c", code], input=reference_text, text=True, env=env, cwd=ROOT,
            check=True,
        )  # fmt: skip
    for path in tmp_path.rglob("*"):
        if path.is_file():
            assert b"<rect" not in path.read_bytes() and b"<text" not in path.read_bytes(), path


def test_reference_snapshot(reference_text: str, snapshot) -> None:
    assert render(reference_text) == snapshot


@pytest.mark.parametrize("path", EXAMPLES, ids=[p.name for p in EXAMPLES])
def test_committed_example_svgs_are_current(path: Path) -> None:
    """examples/NAME.svg is what `volley render examples/NAME.volley` writes today."""
    svg = path.with_suffix(".svg")
    assert svg.exists(), f"render {path.name} and commit {svg.name}"
    assert svg.read_text(encoding="utf-8") == render(path.read_text(encoding="utf-8"))


def _contrast(a: str, b: str) -> float:
    """WCAG 2 contrast ratio of two #rrggbb colours."""

    def luminance(colour: str) -> float:
        r, g, b = (int(colour[i : i + 2], 16) / 255 for i in (1, 3, 5))
        lin = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in (r, g, b)]
        return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]

    high, low = sorted([luminance(a), luminance(b)], reverse=True)
    return (high + 0.05) / (low + 0.05)


@pytest.mark.parametrize("colours", [LIGHT, DARK], ids=["light", "dark"])
def test_palettes_meet_wcag_aa(colours) -> None:
    """Small text 4.5:1 on what it sits on; lines a reader must follow 3:1 (graphics)."""
    for text, ground in [
        ("text", "bg"), ("text", "note"), ("text", "surface"), ("muted", "bg"), ("muted", "tab"),
        ("muted", "accent_soft"), ("accent", "accent_soft"), ("inverse", "badge"),
    ]:  # fmt: skip
        assert _contrast(colours[text], colours[ground]) >= 4.5, (text, ground)
    for line in ("lifeline", "line", "frame", "border"):
        assert _contrast(colours[line], colours["bg"]) >= 3, line


def test_code_beyond_ascii_names_the_fonts_of_other_scripts() -> None:
    """Every code run carries its family: the script fonts are named only where needed."""
    root = tree(render("A -> B: `GET /` and `பிழை`"))
    families = [el.get("font-family") for el in root.iter() if el.get("font-family")][1:]
    assert families[0].startswith("'Liberation Mono'") and "Noto" not in families[0]
    assert "Noto Sans Tamil" in families[1] and families[1].endswith(", monospace")


def test_a_table_in_a_note_is_drawn_as_text_on_its_rules() -> None:
    """Cells are text (escaped like any label), the header row sits on the code tint, and the
    rules between body rows take the note's border colour, re-coloured by the dark theme."""
    source = "A -> B: x\nnote A:\n| k | v |\n|---|---|\n| <b>1</b> | a |\n| 2 | b |\n| 3 | c |\n"
    svg = render(source)
    rules = re.findall(r'<line class="table-rule vs-note_border"[^>]*stroke="([^"]+)"', svg)
    assert rules == [LIGHT["note_border"]] * 2
    assert "&lt;b&gt;1&lt;/b&gt;" in svg and "<b>" not in svg
    assert LIGHT["code"] in re.search(r'<g class="note".*?</g>', svg, re.S).group()
    dark = render(source, theme="dark")
    assert re.findall(r'class="table-rule[^>]*stroke="([^"]+)"', dark) == [DARK["note_border"]] * 2


def test_a_divider_pill_of_several_lines_has_rounded_corners_not_round_ends() -> None:
    """Round ends half the height of three lines would cut into the first and last."""
    svg = render("A -> B: x\n-: one line\n-: first\\nsecond\\nthird\n")
    pills = re.findall(r'<rect class="pill[^"]*"[^>]* height="([\d.]+)" rx="([\d.]+)"', svg)
    (one_h, one_rx), (three_h, three_rx) = [(float(h), float(rx)) for h, rx in pills]
    assert one_rx == pytest.approx(one_h / 2, abs=0.01)  # one line: a stadium
    assert three_h > 2 * one_h and three_rx <= 11.5


@pytest.mark.parametrize(
    ("label", "read"),
    [
        ("Send `Mcp-Session-Id` and **bold** words", "Send Mcp-Session-Id and bold words"),
        ("[docs](https://example.test) and `code`", "docs and code"),
        ("a**b**c and un*der*way", "abc and underway"),  # no space where none was written
    ],
)
def test_a_label_of_several_runs_reads_with_its_spaces(label: str, read: str) -> None:
    """Each run is placed at its own x, so the spaces between them drew nothing and were left
    out: copying the label, finding it in a page and a screen reader got "SendMcp-Session-Id".
    A space between two runs where one was written draws nothing still."""
    root = tree(render(f"A -> B: {label}\n"))
    (text,) = [t for t in root.iterfind(".//s:text", NS) if t.find(".//s:tspan", NS) is not None]
    assert "".join(text.itertext()) == read


def test_a_right_to_left_label_of_several_runs_gets_no_spaces_between_its_runs() -> None:
    """Its runs stand in the order they are seen, not read: a space between them would fall
    between the wrong words (and the right-to-left runs are drawn from their right ends)."""
    root = tree(render("A -> B: שלום **עולם** hello\n"))
    (text,) = [t for t in root.iterfind(".//s:text", NS) if t.find(".//s:tspan", NS) is not None]
    assert len(text) > 1 and not any(piece.tail for piece in text)


def test_a_label_in_a_script_the_face_lacks_is_centred_however_wide_it_is_drawn():
    """A Lao label, measured by one font's widths among those a system may draw it with (17 %
    wider than Noto draws it), started at its measured left and ended short of centre. Such a
    line is drawn from its middle; a line in the diagram's own face (Arial's widths, exact)
    from its start, as before."""
    svg = volley.render("A -> B: ສົ່ງຄຳຮ້ອງຂໍເຂົ້າສູ່ລະບົບ\nA -> B: hello world\n")
    lao, latin = re.findall(r'<text class="label[^>]*>', svg)
    xs = [float(x) for x in re.findall(r'<line class="lifeline[^>]* x1="([\d.]+)"', svg)]
    assert 'text-anchor="middle"' in lao and "text-anchor" not in latin
    x = float(re.search(r' x="([\d.]+)"', lao)[1])
    assert x == pytest.approx((xs[0] + xs[1]) / 2, abs=0.01)


def test_no_element_of_the_picture_is_of_a_class_bootstrap_styles():
    """The mkdocs theme's Bootstrap hides an empty `.badge` (and shrinks its text): the
    autonumber pills, of class badge, vanished and left white numbers on a white page."""
    html = volley.render("autonumber\nA -> B: hi\nB --> A: ok\n", format="html", fragment=True)
    classes = {word for found in re.findall(r' class="([^"]*)"', html) for word in found.split()}
    assert "autonumber" in classes
    assert not classes & {"badge", "btn", "alert", "card", "table", "container", "row", "nav"}
