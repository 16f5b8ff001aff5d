"""PDF: byte-stable, one page for a short diagram, pages cut between rows for a long one."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

import volley
from volley.api import render
from volley.layout.engine import layout_diagram
from volley.layout.geometry import Layout
from volley.layout.metrics import ASCENT, DESCENT
from volley.layout.pagination import divider_span, message_span, page_layouts, paginate
from volley.output.pdf import MAX_PAGE_PT
from volley.output.raster import PT_PER_PX

ROOT = Path(__file__).resolve().parent.parent


def pages(data: bytes) -> list[tuple[float, float]]:
    """Each page's (width, height) in points, read from the page objects cairo writes."""
    assert data.startswith(b"%PDF-")
    count = len(re.findall(rb"/Type\s*/Page\b", data))
    boxes = re.findall(rb"/MediaBox \[\s*0 0 ([\d.]+) ([\d.]+)\s*\]", data)
    assert len(boxes) == count
    return [(float(w), float(h)) for w, h in boxes]


def long_text(messages: int) -> str:
    """A diagram well over one page: messages, notes, dividers and a block around them all."""
    lines = ["title: A long run", "loop: every message", "A -> B: first"]
    for i in range(messages):
        lines.append(f"B --> A: reply {i}" if i % 2 else f"A -> B: request {i}")
        if i % 10 == 5:
            lines += [f"note B: note {i}", f"=: Section {i}"]
    return "\n".join([*lines, "end", "A -> B: last"])


@pytest.fixture(scope="module")
def long_layout() -> Layout:
    return layout_diagram(volley.parse(long_text(150)))


def crosses(cut: float, top: float, bottom: float) -> bool:
    return top < cut < bottom


def test_the_same_diagram_gives_the_same_bytes(reference_text: str) -> None:
    first = render(reference_text, "pdf")
    assert first == render(reference_text, "pdf")
    assert re.search(rb"/CreationDate \((D:)?19700101", first) or b"CreationDate" not in first
    code = "import sys, volley\nsys.stdout.buffer.write(volley.render(sys.stdin.read(), 'pdf'))"
    other = subprocess.run([sys.executable, "-c", code], input=reference_text.encode(),
                           capture_output=True, check=True, cwd=ROOT).stdout  # fmt: skip
    assert other == first, "another process, another hash seed: the same bytes"


def test_a_long_diagram_is_deterministic_too() -> None:
    text = long_text(150)
    assert render(text, "pdf") == render(text, "pdf")


def test_a_short_diagram_is_one_page_of_its_natural_size(reference_text: str) -> None:
    layout = layout_diagram(volley.parse(reference_text))
    ((width, height),) = pages(render(reference_text, "pdf"))
    assert width == pytest.approx(layout.width * PT_PER_PX, abs=0.01)
    assert height == pytest.approx(layout.height * PT_PER_PX, abs=0.01)


def test_a_tall_diagram_is_split_over_pages_of_its_width(long_layout: Layout) -> None:
    sizes = pages(render(long_text(150), "pdf"))
    assert len(sizes) > 1
    assert all(w == pytest.approx(long_layout.width * PT_PER_PX, abs=0.01) for w, _ in sizes)
    assert all(h <= MAX_PAGE_PT for _, h in sizes)
    # Balanced: no scrap of a last page.
    assert min(h for _, h in sizes) > 0.5 * max(h for _, h in sizes)


def test_pages_cut_between_rows_never_through_text(long_layout: Layout) -> None:
    header = 60.0
    split = paginate(long_layout, 2000, header)
    assert len(split) > 2
    assert split[0].top == 0 and split[-1].bottom == long_layout.height
    for page, after in zip(split, split[1:], strict=False):
        assert page.bottom == after.top
        assert page.bottom - page.top + (header if page.header else 0) <= 2000
        cut = page.bottom
        for block in long_layout.text_blocks():
            assert not crosses(cut, block.box.y, block.box.bottom), "a cut through a label"
        for m in long_layout.messages:
            assert not crosses(cut, *message_span(m)), "a cut through a message"
        for note in long_layout.notes:
            assert not crosses(cut, note.box.y, note.box.bottom)
    assert not split[0].header and all(p.header for p in split[1:])


@pytest.mark.parametrize("limit", range(900, 2100, 37))
def test_no_page_ends_with_a_heading_whose_content_starts_the_next(limit: int) -> None:
    """A page ended with a section's divider, or a frame's tab, and its first message began
    the next page (the swimlanes.io syntax page's "3. Sections" and its `if`)."""
    lines = ["A -> B: start"]
    for i in range(60):
        lines += [f"=: Section {i}", f"if: case {i}", f"  A -> B: call {i}", "else", "  B -> A: no"]
        lines += ["end"]
    layout = layout_diagram(volley.parse("\n".join(lines)))
    cuts = [page.bottom for page in paginate(layout, limit)[:-1]]
    heads = [divider_span(d)[1] for d in layout.dividers]
    heads += [f.tab_text.box.bottom for f in layout.frames if f.tab_text]
    heads += [s.keyword.box.bottom for f in layout.frames for s in f.separators]
    rows = sorted(message_span(m)[0] for m in layout.messages)
    for head in heads:
        first_row = next(row for row in rows if row >= head)
        assert not any(head <= cut <= first_row for cut in cuts), (head, first_row)


def test_each_page_draws_only_its_own_rows(long_layout: Layout) -> None:
    split = paginate(long_layout, 2000, 60)
    parts = page_layouts(long_layout, split)
    assert sum(len(p.messages) for p in parts) == len(long_layout.messages)
    assert sum(len(p.notes) for p in parts) == len(long_layout.notes)
    assert parts[0].title is not None and all(p.title is None for p in parts[1:])
    assert all(p.frames for p in parts), "the block around everything reaches every page"
    assert all(p.lifelines for p in parts)


def test_a_body_longer_than_a_page_draws_on_each_page_only_its_lines_there() -> None:
    import json

    body = json.dumps([{"id": n, "name": f"item {n}"} for n in range(600)])  # one long line
    layout = layout_diagram(volley.parse(f"A -> B: list\nout: Items\n  {body}"), bodies="appendix")
    parts = page_layouts(layout, paginate(layout, 1000, 60))
    [entry] = layout.appendix.entries
    [code] = [b.code for b in entry.bodies if b.code is not None]
    assert len(parts) > 2
    shown = [
        line for p in parts for e in p.appendix.entries for b in e.bodies if b.code
        for line in b.code.lines
    ]  # fmt: skip
    assert set(map(id, shown)) == set(map(id, code.lines))  # every line on some page ...
    assert len(shown) < len(code.lines) + 2 * len(parts)  # ... and on one page, or two at a cut


def test_an_activation_bar_reaches_every_page_it_spans() -> None:
    layout = layout_diagram(volley.parse("A ->+ B: start\n" + long_text(150)))
    parts = page_layouts(layout, paginate(layout, 2000, 60))
    assert len(parts) > 1
    assert all(p.activations == layout.activations for p in parts)


def test_a_note_taller_than_a_page_is_cut_between_its_lines() -> None:
    note = "note A: " + "\n".join(f"  line {i} of a very long note" for i in range(200))
    layout = layout_diagram(volley.parse(f"A -> B: hi\n{note}\nB -> A: bye"))
    split = paginate(layout, 1000)
    assert len(split) > 2
    lines = [line for block in layout.text_blocks() for line in block.lines]
    for page in split[:-1]:
        for line in lines:
            top, bottom = line.baseline - ASCENT * line.size, line.baseline + DESCENT * line.size
            assert not crosses(page.bottom, top, bottom), line


def test_pages_after_the_participants_have_no_header() -> None:
    text = "\n".join(f"A -> B: m{i}\nin: Body\n  id: {i}" for i in range(120))
    layout = layout_diagram(volley.parse(text), bodies="appendix")
    split = paginate(layout, 2000, 60)
    lanes_end = layout.participants[0].bottom.y
    assert any(p.top >= lanes_end for p in split), "the appendix runs past one page"
    assert all(p.header == (0 < p.top < lanes_end) for p in split)


def test_the_header_repeated_on_later_pages_keeps_the_boxes_bands(monkeypatch) -> None:
    """A box's participants stand on its band on every page: the header repeated at the top of
    a later page draws the band behind them too, not boxes on the bare page."""
    import volley.output.pdf as pdf

    drawn = []
    monkeypatch.setattr(pdf, "pdf_pages", lambda pages, scale, title: drawn.extend(pages) or b"")
    boxes = "box: Aqua Front\n  participant A\n  participant B\nend\n"
    render(boxes + "A -> B: call\n" * 150, format="pdf")
    assert len(drawn) > 1
    for page in drawn[1:]:
        header, at = page.layers[-1]  # drawn last, over the top of the page
        assert at == 0.0
        assert '<g class="boxes">' in header and 'fill="#00ffff"' in header
        assert "box-label" not in header  # above the boxes: the page's top would cut it


def test_no_page_side_passes_the_pdf_limit() -> None:
    wide = "\n".join(f"P{i} -> P{i + 1}: step {i}" for i in range(160))
    with pytest.warns(UserWarning, match="the PDF is drawn at scale 0.795, not 1"):
        sizes = pages(volley.render(wide, format="pdf"))
    assert max(w for w, _ in sizes) == pytest.approx(MAX_PAGE_PT, abs=0.01)
    assert all(w <= MAX_PAGE_PT and h <= MAX_PAGE_PT for w, h in sizes)
    big = pages(render(long_text(150), "pdf", scale=12))
    assert len(big) > 1 and all(w <= MAX_PAGE_PT and h <= MAX_PAGE_PT for w, h in big)


@pytest.mark.parametrize("scale", [0, -1, float("nan")])
def test_pdf_scale_must_be_a_positive_number(scale: float) -> None:
    with pytest.raises(volley.VolleyError, match="scale"):
        render("A -> B", "pdf", scale=scale)


def _link_boxes(data: bytes) -> list[tuple[str, list[float]]]:
    """Each link annotation's address and box (PDF coordinates, from the page's bottom)."""
    found = re.findall(rb"/Rect \[ ([\d. ]+) \][^>]*?/URI \(([^)]*)\)", data, re.S)
    return [(uri.decode(), [float(v) for v in box.split()]) for box, uri in found]


def test_links_are_links_in_the_pdf() -> None:
    """cairosvg draws a link's text but makes no link of it: the PDF has an annotation over each
    web and mail link's run; a relative link or an anchor leads nowhere from a PDF."""
    text = "A -> B: see [docs](https://docs.example/a) or [top](#x)\nnote A: [us](mailto:a@b.ex)"
    data = render(text, "pdf")
    links = _link_boxes(data)
    assert [uri for uri, _ in links] == ["https://docs.example/a", "mailto:a@b.ex"]
    ((_, page_height),) = pages(data)
    laid = layout_diagram(volley.parse(text))
    label = laid.messages[0].label
    assert label is not None
    line = label.lines[0]
    run = next(r for r in line.runs if r.href)
    x1, y1, x2, y2 = links[0][1]  # cairo widens a link's box to whole points
    assert x1 == pytest.approx((line.x + run.dx) * PT_PER_PX, abs=1)
    assert x2 - x1 == pytest.approx(run.width * PT_PER_PX, abs=2)
    top = (line.baseline - ASCENT * line.size) * PT_PER_PX
    assert page_height - y2 == pytest.approx(top, abs=1)
    assert y2 - y1 == pytest.approx((ASCENT + DESCENT) * line.size * PT_PER_PX, abs=2)


def test_a_link_on_a_later_page_is_on_that_page() -> None:
    lines = long_text(150).split("\n")
    lines.insert(-1, "A -> B: the end is [here](https://end.example)")
    data = render("\n".join(lines), "pdf")
    annotated = [len(re.findall(rb"/URI \(", page)) for page in re.split(rb"/Type\s*/Page\b", data)]
    assert sum(annotated) == 1 and len(pages(data)) > 1
    ((uri, (_, y1, _, y2)),) = _link_boxes(data)
    assert uri == "https://end.example" and 0 < y1 < y2 < max(h for _, h in pages(data))


def test_a_link_in_a_note_over_several_pages_is_on_the_page_that_draws_it() -> None:
    """A note or a frame over several pages had its links put on every page: off the page,
    or over the participants' boxes repeated at a later page's top."""
    lines = "\n".join(f"  line {n} [l{n}](https://example.com/l{n})" for n in range(400))
    data = render(f"A -> B: go\nnote A:\n{lines}\nloop: see [policy](https://p.example)\n"
                  + "  A -> B: x\n" * 200 + "end\n", "pdf")  # fmt: skip
    sizes = pages(data)
    assert len(sizes) > 2
    links = _link_boxes(data)
    assert sorted(uri for uri, _ in links) == sorted(
        [f"https://example.com/l{n}" for n in range(400)] + ["https://p.example"]
    )
    height = max(h for _, h in sizes)
    assert all(0 <= y1 < y2 <= height for _, (_, y1, _, y2) in links)


def test_a_link_address_is_written_as_an_ascii_pdf_string_whatever_it_holds() -> None:
    """cairo writes an address into the PDF as given: `x(y` ended the string early and the next
    link was lost, `a\\b` became a backspace, `é` raw bytes a reader misreads."""
    text = (
        "A -> B: <https://ex.example/x(y> [bs](https://ex.example/a\\b) [é](https://ex.example/é)"
    )
    text += " [last](https://ex.example/next)\n"
    uris = [uri for uri, _ in _link_boxes(render(text, "pdf"))]
    assert uris == [
        "https://ex.example/x%28y",
        "https://ex.example/a%5Cb",
        "https://ex.example/%C3%A9",
        "https://ex.example/next",
    ]


def test_the_pdf_is_titled_as_the_diagram() -> None:
    data = render("title: Sign **in** ✓\nA -> B: x\n", "pdf")
    title = re.search(rb"/Title <FEFF([0-9A-F]*)>", data)  # (UTF-16, as cairo writes it)
    assert title is not None and bytes.fromhex(title[1].decode()).decode("utf-16-be") == "Sign in ✓"
    assert b"/Title" not in render("A -> B: x\n", "pdf")


def test_a_scale_past_the_widest_page_is_said() -> None:
    """A PDF asked for at scale 20 was drawn at a lower one without a word."""
    from volley.api import run
    from volley.options import Options

    text = "".join(f"P{n} -> P{n + 1}: a label of some length\n" for n in range(6))  # 1,100 px
    said = [w.message for w in run(text, Options(format="pdf", scale=20)).warnings]
    assert len(said) == 1 and said[0].startswith("the PDF is drawn at scale ")
    assert "not 20: its pages are at most 14,400 points wide" in said[0]
    assert run(text, Options(format="pdf", scale=2)).warnings == []
