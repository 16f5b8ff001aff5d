"""Where a long picture is cut into pages: each cut in the white space between two rows, never
through a label, an arrow or a box, and every page after the first opened by the participant
boxes again (`header_band`). How tall a page may be is the PDF's to say (`volley.output.pdf`);
which rows each page holds, and the layout of each, is layout's.
"""

from __future__ import annotations

import math
from bisect import bisect_left, bisect_right
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import TypeVar

from volley.layout import constants as C
from volley.layout.geometry import (
    Appendix,
    AppendixEntry,
    DividerShape,
    Layout,
    MessageShape,
    Rect,
    Separator,
    TextLine,
)
from volley.layout.metrics import ASCENT, DESCENT, MONO_ASCENT, MONO_DESCENT

HEADER_PAD = 12  # room above and below the participant boxes repeated at the top of a page
PLAN_FILL = 0.95  # pages are planned this full; the cuts between rows make up the rest
SOLID_PAD = 3  # room kept around everything a cut must not cross (halos, strokes, shadows)
# A message's arrow, with the largest head drawn on it.
ARROW_REACH = C.HEAD_HALF_WIDTH * C.BOLD_HEAD_SCALE + SOLID_PAD

Span = tuple[float, float]
T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class Page:
    """Rows `top` to `bottom` of the layout; `header`: opened by the participant boxes."""

    top: float
    bottom: float
    header: bool


# --- where to cut ----------------------------------------------------------------------------


def paginate(layout: Layout, limit: float, header: float = 0.0) -> list[Page]:
    """Pages at most `limit` pixels tall; a page after the first that starts above the bottom
    participant boxes gives `header` pixels of it to the repeated top boxes.

    Pages are balanced (a long picture gives pages of about one height, not full pages and a
    scrap) and cut between rows; an element taller than a page is cut between its lines of
    text, and only a line taller than a page is cut through.
    """
    height = layout.height
    lanes_end = layout.participants[0].bottom.y if layout.participants else 0.0
    cuts = _cuts(solid_spans(layout))
    fine: list[float] | None = None
    pages: list[Page] = []
    top = 0.0
    while True:
        band = header if pages and top < lanes_end else 0.0
        room = limit - band
        if height - top <= room:
            break
        # Planned a little under full, so pages that end a row early leave no scrap page.
        count = math.ceil((height - top) / (room * PLAN_FILL))
        target = top + (height - top) / count
        cut = _nearest(cuts, top, top + room, target)
        # A short page keeps the next element whole, unless that is taller than a page and
        # will be cut through anyway: then it may as well start on this page.
        reach = limit - header
        stranded = cut is not None and cut - top < room / 2 and height - cut > reach
        if cut is None or (stranded and _nearest(cuts, cut, cut + reach, cut) is None):
            fine = fine if fine is not None else _cuts(_line_spans(layout))
            cut = _nearest(fine, top, top + room, target) or cut or top + room
        pages.append(Page(top, cut, band > 0))
        top = cut
    pages.append(Page(top, height, band > 0))
    return pages


def _nearest(cuts: list[float], lo: float, hi: float, target: float) -> float | None:
    """The cut in (lo, hi] nearest `target`, if any."""
    first, last = bisect_right(cuts, lo), bisect_right(cuts, hi)
    at = bisect_left(cuts, target, first, last)
    near = [cuts[i] for i in (at - 1, at) if first <= i < last]
    return min(near, key=lambda c: abs(c - target)) if near else None


def _cuts(spans: list[Span]) -> list[float]:
    """The middle of every gap between the spans, in order: the places a page may end."""
    cuts: list[float] = []
    end = -math.inf
    for a, b in sorted(spans):
        if a > end > -math.inf:
            cuts.append((end + a) / 2)
        end = max(end, b)
    return cuts


def solid_spans(layout: Layout) -> list[Span]:
    """Every stretch of the picture a cut must not cross: each message row, note, divider,
    block header and separator, the top and bottom edge of each frame and band, a band's label
    (with its top), the boxes, the title, and in the appendix each line of a body (its first
    kept with its heading, its last with the panel's end). A frame's sides, a band's and the
    lifelines may be cut anywhere."""
    spans: list[Span] = []
    heads: list[Span] = []  # a section's divider, a frame's header, a branch's: kept with a row
    if layout.title:
        spans.append(_rect_span(layout.title.box))
    for p in layout.participants:
        spans += [
            _rect_span(p.top, C.PARTICIPANT_SHADOW),
            _rect_span(p.bottom, C.PARTICIPANT_SHADOW),
        ]
    spans += [message_span(m) for m in layout.messages]
    spans += [_rect_span(n.box) for n in layout.notes]
    heads += [divider_span(d) for d in layout.dividers]
    for f in layout.frames:
        if f.tab_text:
            head = [_rect_span(f.tab_text.box), _points_span(f.tab)]
            heads.append(_union(head + ([_rect_span(f.label.box)] if f.label else [])))
        else:  # a rect's highlight has no header, only its top edge
            spans.append(_points_span([(0.0, f.box.y)]))
        spans.append(_points_span([(0.0, f.box.bottom)]))
        heads += [_separator_span(s) for s in f.separators]
    spans += _with_what_follows(heads, spans)
    for band in layout.bands:  # its top with its label; its foot
        top = [_points_span([(0.0, band.box.y)])]
        spans.append(_union(top + ([_rect_span(band.label.box)] if band.label else [])))
        spans.append(_points_span([(0.0, band.box.bottom)]))
    if layout.appendix:
        spans.append(_appendix_head_span(layout.appendix))
        spans += [span for e in layout.appendix.entries for span in _appendix_line_spans(e)]
    return spans


def _with_what_follows(heads: list[Span], rows: list[Span]) -> list[Span]:
    """Each head (a divider, a frame's or a branch's header) joined to the first element below
    it, so that no page ends with a heading whose content starts the next."""
    below = sorted([*rows, *heads])
    starts = [span[0] for span in below]
    joined = []
    for head in heads:
        at = bisect_left(starts, head[1])
        joined.append((head[0], max(head[1], below[at][1])) if at < len(below) else head)
    return joined


def _line_spans(layout: Layout) -> list[Span]:
    """Each line of text, as tall as its font's ascent and descent: where to cut an element
    taller than a page."""
    return [_text_line_span(line) for block in layout.text_blocks() for line in block.lines]


def _text_line_span(line: TextLine) -> Span:
    """A line of text, from its font's ascent to its descent."""
    up, down = (MONO_ASCENT, MONO_DESCENT) if line.mono else (ASCENT, DESCENT)
    return line.baseline - up * line.size, line.baseline + down * line.size


def message_span(m: MessageShape) -> Span:
    boxes = [b.box for b in (m.label, m.badge, m.marker) if b is not None]
    return _union([_points_span(m.points, ARROW_REACH), *(_rect_span(b) for b in boxes)])


def divider_span(d: DividerShape) -> Span:
    reach = C.DELAY_HEIGHT / 2 if d.style == "delay" else SOLID_PAD
    parts = [_points_span([(0.0, d.y)], reach)]
    parts += [_rect_span(r) for r in (d.band, d.pill, d.label.box if d.label else None) if r]
    return _union(parts)


def _rect_span(r: Rect, below: float = 0.0) -> Span:
    return r.y - SOLID_PAD, r.bottom + below + SOLID_PAD


def _points_span(points: Sequence[tuple[float, float]], reach: float = SOLID_PAD) -> Span:
    ys = [y for _, y in points]
    return min(ys) - reach, max(ys) + reach


def _separator_span(s: Separator) -> Span:
    parts = [_rect_span(s.keyword.box), _points_span([(0.0, s.y)])]
    return _union(parts + ([_rect_span(s.label.box)] if s.label else []))


def _appendix_head_span(a: Appendix) -> Span:
    return _union([_rect_span(a.heading.box), _points_span([(0.0, a.rule_y)])])


def _entry_span(e: AppendixEntry) -> Span:
    boxes = [t.box for t in e.texts()] + [b.panel.box for b in e.bodies if b.panel]
    return _union([_rect_span(b) for b in boxes])


def _appendix_line_spans(e: AppendixEntry) -> list[Span]:
    """Where a page may not cut an appendix entry: through a line of a body, between a
    heading and the body's first line, or between its last line and the panel's end."""
    spans = []
    for body in e.bodies:
        lines = [_text_line_span(line) for line in body.code.lines] if body.code else []
        first = [_rect_span(body.heading.box)]
        last = [_rect_span(body.note.box)] if body.note else []
        if body.panel:
            first.append(_points_span([(0.0, body.panel.box.y)]))
            last.append(_points_span([(0.0, body.panel.box.bottom)]))
        if len(lines) < 2:  # nowhere to cut: the body stays whole
            spans.append(_union(first + last + lines))
            continue
        first.append(lines.pop(0))
        last.append(lines.pop())
        spans += [_union(first), *lines, _union(last)]
    return spans


def _union(spans: list[Span]) -> Span:
    return min(a for a, _ in spans), max(b for _, b in spans)


# --- what each page draws --------------------------------------------------------------------


def page_layouts(layout: Layout, pages: list[Page]) -> list[Layout]:
    """Each page's share of the layout: the elements that reach into its rows, so a page draws
    only its own (the whole picture on every page would make a long PDF quadratic, and carry
    every label on every page). What reaches past a page is clipped by its viewBox.

    One pass over the elements, each placed by bisection; only what spans several pages (the
    lifelines, a long frame) is handed to each of them.
    """
    tops = [p.top for p in pages]

    def share(items: Sequence[T], span: Callable[[T], Span]) -> dict[int, list[T]]:
        out: dict[int, list[T]] = defaultdict(list)
        for item in items:
            a, b = span(item)
            i = max(bisect_right(tops, a) - 1, 0)
            while i < len(pages) and pages[i].top < b:
                if pages[i].bottom > a:
                    out[i].append(item)
                i += 1
        return out

    title = share([layout.title] if layout.title else [], lambda t: _rect_span(t.box))
    # All boxes of a row share one y, so a page holds all of a row or none of it.
    top_boxes = share(layout.participants, lambda p: _rect_span(p.top, C.PARTICIPANT_SHADOW))
    bottom_boxes = share(layout.participants, lambda p: _rect_span(p.bottom, C.PARTICIPANT_SHADOW))
    segments = [share(line.segments, lambda s: s) for line in layout.lifelines]
    bars = share(layout.activations, lambda a: (a.box.y, a.box.bottom))
    messages = share(layout.messages, message_span)
    notes = share(layout.notes, lambda n: _rect_span(n.box))
    dividers = share(layout.dividers, divider_span)
    frames = share(layout.frames, lambda f: _rect_span(f.box))
    separators = {id(f): share(f.separators, _separator_span) for f in layout.frames}
    appendix = layout.appendix
    headings = share([appendix] if appendix else [], _appendix_head_span)
    entries = share(appendix.entries if appendix else [], _entry_span)
    out = []
    for i in range(len(pages)):
        shown = appendix if appendix and (i in headings or i in entries) else None
        out.append(
            replace(
                layout,
                title=title[i][0] if i in title else None,
                participants=top_boxes.get(i) or bottom_boxes.get(i) or [],
                lifelines=[
                    replace(line, segments=[_within(s, pages[i]) for s in segs[i]])
                    for line, segs in zip(layout.lifelines, segments, strict=True)
                    if i in segs
                ],
                activations=bars.get(i, []),
                messages=messages.get(i, []),
                notes=notes.get(i, []),
                dividers=dividers.get(i, []),
                frames=[
                    replace(f, separators=separators[id(f)].get(i, [])) for f in frames.get(i, [])
                ],
                appendix=(
                    replace(shown, entries=[_entry_within(e, pages[i]) for e in entries.get(i, [])])
                    if shown
                    else None
                ),
            )
        )
    return out


def _entry_within(entry: AppendixEntry, page: Page) -> AppendixEntry:
    """An appendix entry as a page draws it: of a body that runs past the page, only the lines
    that reach into its rows (every page drawing all the lines of a long body made its PDF
    quadratic: a 100 KB body took 46 s)."""
    top, bottom = page.top - SOLID_PAD, page.bottom + SOLID_PAD
    bodies = []
    for body in entry.bodies:
        code = body.code
        if code is not None and (code.y < top or code.y + code.h > bottom):
            lines = code.lines  # top to bottom
            first = bisect_left(lines, top, key=lambda line: _text_line_span(line)[1])
            last = bisect_right(lines, bottom, key=lambda line: _text_line_span(line)[0])
            code = replace(code, lines=lines[first:last])
        bodies.append(replace(body, code=code))
    return replace(entry, bodies=bodies)


def _within(segment: Span, page: Page) -> Span:
    """A lifeline's piece cut to the page's rows (and a little more), its dashes where they
    were: a dashed line is drawn dash by dash, and the whole lifeline on every page made each
    page's cost grow with the length of the diagram (a long PDF in quadratic time)."""
    top, bottom = segment
    start = page.top - SOLID_PAD
    if start > top:  # move the start by whole dash periods, so the dashes do not shift
        top += (start - top) // _LIFELINE_PERIOD * _LIFELINE_PERIOD
    return top, min(bottom, page.bottom + SOLID_PAD)


_LIFELINE_PERIOD = sum(float(n) for n in C.LIFELINE_DASH.split())


def header_band(layout: Layout) -> Span | None:
    """(top, height) of the participant boxes at the top of the picture, with room around."""
    if not layout.participants:
        return None
    box = layout.participants[0].top
    return box.y - HEADER_PAD, box.h + C.PARTICIPANT_SHADOW + 2 * HEADER_PAD


def header_layout(layout: Layout, band: Span) -> Layout:
    """Only the top participant boxes, their lifelines and the boxes' bands behind them (not
    the bands' labels, above the boxes, which the page's top would cut): drawn over the top of
    a page."""
    bands = [replace(band, label=None) for band in layout.bands]
    lanes = Layout(layout.width, layout.height, participants=layout.participants,
                   lifelines=layout.lifelines, bands=bands)  # fmt: skip
    return page_layouts(lanes, [Page(band[0], band[0] + band[1], False)])[0]
