"""Diagram → Layout, in time linear in the number of elements.

Three passes over the items, never a pairwise comparison of elements:

1. Horizontal needs. Every message, note and block tab asks for a least distance between two
   lifelines. Needs are kept per pair of participants, the largest winning.
2. Lanes. A sweep from left to right places each lifeline as far right as its most demanding
   need; extra room a label asks for is spread over the gaps it crosses, so one long label
   widens all its lanes a little rather than one lane a lot. Spanning notes are wrapped to the
   lanes found and the sweep runs once more. Then every element's horizontal extent is known,
   which fixes the frames and the picture's width.
3. Rows. Elements are stacked top to bottom in document order; each owns the rows it uses, so
   no two texts can overlap.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass
from math import fsum
from typing import TYPE_CHECKING

from volley.errors import VolleyError
from volley.layout import constants as C
from volley.layout.geometry import (
    ActivationBar,
    Anchor,
    Badge,
    Band,
    BlockFrame,
    CodePanel,
    DividerShape,
    Head,
    Layout,
    Lifeline,
    Marker,
    MessageShape,
    NoteShape,
    Participant,
    Rect,
    Rule,
    Separator,
    TextBlock,
)
from volley.layout.typeset import (
    WIDEN_TO_KEEP,
    NotePart,
    SetTable,
    SetText,
    Typesetter,
    clean_text,
)
from volley.model import (
    Activation,
    Block,
    Box,
    Diagram,
    Divider,
    Item,
    Message,
    Note,
    Payload,
    walk,
)
from volley.options import BODIES

if TYPE_CHECKING:
    from volley.layout.appendix import Numbered

SEPARATOR_WORDS = {"if": "else", "par": "and", "critical": "option"}
SPREAD_SPAN = 16  # extra room for a label is spread over at most this many gaps (keeps it linear)
MARKER_ICON = "{fas-paperclip}"


@dataclass(slots=True)
class _Row:
    """What sits on a message's label row: badge, label, marker, and their total size."""

    label: SetText | None
    badge: SetText | None
    badge_w: float
    marker: SetText | None
    marker_w: float
    width: float
    height: float


def layout_diagram(
    diagram: Diagram, *, bodies: str = "markers", appendix_lines: int | None = None
) -> Layout:
    """Place every element of the diagram; `bodies` is "markers", "appendix" or "none";
    `appendix_lines` caps each body in the appendix (None: every line)."""
    if bodies not in BODIES:
        raise VolleyError(
            f'unknown bodies option "{bodies}"', hint="use one of: " + ", ".join(BODIES)
        )
    return _Engine(diagram, bodies, appendix_lines).run()


class _Engine:
    def __init__(self, diagram: Diagram, bodies: str, appendix_lines: int | None = None) -> None:
        self.diagram = diagram
        self.bodies = bodies
        self.appendix_lines = appendix_lines
        self.ts = Typesetter()
        self.names = _all_participants(diagram)
        self.index = {name: i for i, name in enumerate(self.names)}
        self.n = len(self.names)
        # id(message) -> the number of its payloads, on its marker and in the appendix: numbers
        # a reader can see, never two on one arrow. A message with an autonumber badge goes by
        # that number (its marker shows only the paperclip); the others are counted 1, 2, 3.
        self.markers: dict[int, int] = {}
        if bodies != "none":
            count = 0
            for message in diagram.messages():
                if message.request or message.response:
                    if message.number is None:
                        count += 1
                    self.markers[id(message)] = count if message.number is None else message.number
        self.block_span: dict[int, tuple[int, int] | None] = {}
        self.frame_x: dict[int, tuple[float, float]] = {}
        self.note_wrap: dict[int, float] = {}
        self.fitted: set[int] = set()  # notes set again within lanes others widened
        # where the dividers' labels in frames wrap: the lanes' width, within bounds; the
        # title's and the other dividers': the picture's (which frames may make wider)
        self.spanning_wrap: float = C.TITLE_MAX_WIDTH
        self.picture_wrap: float = C.TITLE_MAX_WIDTH
        self.note_sizes: dict[tuple[int, float], tuple[float, float]] = {}
        self.rows: dict[tuple[int, float, bool], _Row] = {}
        self.xs: list[float] = []
        self.width = 0.0  # the diagram's
        # With an appendix wider than the diagram, the canvas is the appendix's width and the
        # diagram sits centred on it, `left` from the canvas's left edge.
        self.canvas = 0.0
        self.left = 0.0
        self.appendix_width = 0.0
        # Pass 3 state.
        self.y = 0.0
        self.out = Layout(0.0, 0.0)
        self.message_count = 0
        self.breaks: list[tuple[float, float]] = []
        self.open_bars: list[list[ActivationBar]] = [[] for _ in self.names]  # innermost last
        # A self message beside an open bar starts at the bar's edge: room for one bar and one
        # nested in it, where the diagram has any.
        uses_bars = any(
            isinstance(item, Activation) or (isinstance(item, Message) and item.activate)
            for item in walk(diagram.items)
        )
        self.bar_room = C.ACTIVATION_WIDTH / 2 + C.ACTIVATION_NEST_OFFSET if uses_bars else 0.0
        # the most bars open on each lane at once, in the diagram and in each block
        self.block_bars: dict[int, list[int]] = {}
        self.most_bars = [0] * len(self.names)
        if uses_bars:
            self.most_bars = _most_bars(diagram.items, self.index, [0] * len(self.names),
                                        self.block_bars)  # fmt: skip

    # --- driver ------------------------------------------------------------------------------

    def run(self) -> Layout:
        lines = self.diagram.shown_lines  # `participant A as Long name` shows the long name
        names = [self.ts.plain("\n".join(lines(n)), C.PARTICIPANT_SIZE,
                               C.PARTICIPANT_MAX_TEXT_WIDTH, bold=True)
                 for n in self.names]  # fmt: skip
        self.name_sets = names
        self.box_w = [
            max(C.PARTICIPANT_MIN_WIDTH, s.width + 2 * C.PARTICIPANT_PAD_X) for s in names
        ]
        self.box_h = max((s.height for s in names), default=0.0) + 2 * C.PARTICIPANT_PAD_Y
        self._reach_bands()
        self._place_lanes()
        self._stack()
        self.out.icons = dict(sorted(self.ts.icons.items()))
        self.out.warnings = list(self.ts.warnings)
        return self.out

    # --- boxes: the bands behind participants that belong together --------------------------

    def _reach_bands(self) -> None:
        """Each box's lanes and label, and how far each lane's boxes and bands reach left and
        right of its lifeline: a band's ends reach past the participant boxes it holds, and a
        band of one lane is as wide as its label needs."""
        self.reach_left = [w / 2 for w in self.box_w]
        self.reach_right = [w / 2 for w in self.box_w]
        self.bands: list[tuple[Box, int, int, SetText | None]] = []
        self.band_of: dict[int, int] = {}  # each lane a band holds: the band's place in bands
        for box in self.diagram.boxes:
            lanes = [self.index[name] for name in box.participants if name in self.index]
            if not lanes:
                continue
            lo, hi = min(lanes), max(lanes)
            label = None
            if box.label.strip():
                label = self.ts.markup(
                    box.label, C.BAND_LABEL_SIZE, C.BAND_LABEL_MAX_WIDTH, bold=True
                )
            self.band_of.update(dict.fromkeys(range(lo, hi + 1), len(self.bands)))
            self.bands.append((box, lo, hi, label))
            self.reach_left[lo] = self.box_w[lo] / 2 + C.BAND_PAD_X
            self.reach_right[hi] = self.box_w[hi] / 2 + C.BAND_PAD_X
            if lo == hi and label is not None:
                half = label.width / 2 + C.BAND_LABEL_PAD_X
                self.reach_left[lo] = max(self.reach_left[lo], half)
                self.reach_right[hi] = max(self.reach_right[hi], half)

    def _hold_band_contents(self) -> bool:
        """A band holds what is drawn about its lanes alone (a note over them, a frame around
        their messages, a self-message's loop): its ends move out to take it in. Whether any
        end moved. What also involves a lane outside the band crosses its edge, as it must."""
        drawn = list(self._lane_extents(self.diagram.items, 0))
        moved = False
        for _, lo, hi, _ in self.bands:
            inside = [(a, b) for first, last, a, b in drawn if lo <= first and last <= hi]
            if not inside:
                continue
            left = self.xs[lo] - min(a for a, _ in inside) + C.BAND_PAD_X
            right = max(b for _, b in inside) - self.xs[hi] + C.BAND_PAD_X
            if left > self.reach_left[lo] or right > self.reach_right[hi]:
                self.reach_left[lo] = max(self.reach_left[lo], left)
                self.reach_right[hi] = max(self.reach_right[hi], right)
                moved = True
        return moved

    def _lane_extents(
        self, items: list[Item], depth: int
    ) -> Iterator[tuple[int, int, float, float]]:
        """(first lane, last lane, left, right) of every message, note and frame, nested ones
        too, where the lanes as they stand place them."""
        for item in items:
            if isinstance(item, Message):
                i, j = self.index[item.sender], self.index[item.receiver]
                span: tuple[int, int] | None = (min(i, j), max(i, j))
            elif isinstance(item, Note):
                span = self._note_span(item)
            elif isinstance(item, Block):
                span = self._span(item)
                for branch in item.branches:
                    yield from self._lane_extents(branch.items, depth + 1)
            else:
                continue
            extent = self._item_extent(item, depth)
            if span is not None and span[0] >= 0 and extent is not None:
                yield (*span, *extent)

    def _edge_of_band(self, lane: int, neighbour: int) -> float:
        """How far from the neighbour's lifeline what is drawn about `lane` alone (a note, a
        self-message's label) must start: past the edge of a band the neighbour ends, which
        does not hold `lane`, and a gap; 0 when no such band stands between them."""
        band = self.band_of.get(neighbour)
        if band is None or band == self.band_of.get(lane):
            return 0.0
        _, lo, hi, _ = self.bands[band]
        if neighbour == hi and lane > neighbour:
            return self.reach_right[hi] + C.OUTSIDE_BAND_GAP
        if neighbour == lo and lane < neighbour:
            return self.reach_left[lo] + C.OUTSIDE_BAND_GAP
        return 0.0

    def _band_needs(self, needs: dict[tuple[int, int], float]) -> None:
        """A band's label fits inside it, and two neighbours' bands keep apart."""
        starts = {lo for _, lo, _, _ in self.bands}  # lanes a band starts at
        ends = {hi for _, _, hi, _ in self.bands}  # and ends at
        for _, lo, hi, label in self.bands:
            if lo != hi and label is not None:
                inside = label.width + 2 * C.BAND_LABEL_PAD_X
                _need(needs, lo, hi, inside - self.reach_left[lo] - self.reach_right[hi])
        for k in range(self.n - 1):
            if k in ends or k + 1 in starts:
                _need(needs, k, k + 1, self.reach_right[k] + C.BAND_GAP + self.reach_left[k + 1])

    def _place_bands(self, top: float, bottom: float) -> None:
        """The bands, from `top` to `bottom`, each label centred at the top of its band."""
        for box, lo, hi, label in self.bands:
            x1, x2 = self.xs[lo] - self.reach_left[lo], self.xs[hi] + self.reach_right[hi]
            placed = None
            if label is not None:
                placed = self.ts.place(label, (x1 + x2) / 2, top + C.BAND_PAD_Y, align="middle")
            rect = Rect(x1, top, x2 - x1, bottom - top)
            self.out.bands.append(Band(box.line, rect, placed, box.tint))

    # --- pass 1 and 2: lanes -----------------------------------------------------------------

    def _place_lanes(self) -> None:
        needs: dict[tuple[int, int], float] = {}
        spanning: list[Note] = []
        self._band_needs(needs)
        self._needs(self.diagram.items, needs, spanning)
        self.xs = self._sweep(needs)
        if spanning:
            for note in spanning:
                lo, hi = self._note_span(note)
                reach = self.xs[hi] - self.xs[lo] + 2 * C.NOTE_OVERHANG
                self.note_wrap[id(note)] = max(C.NOTE_WRAP_WIDTH, reach) - 2 * C.NOTE_PAD_X
                width = self._note_size(note)[0]
                _need(needs, lo, hi, width - 2 * C.NOTE_OVERHANG)
            self.xs = self._sweep(needs)
            self._fill_widened_notes(spanning)
        if self.bands and self._hold_band_contents():
            self._band_needs(needs)  # the bands' ends moved: they keep apart still
            self.xs = self._sweep(needs)
        if self.n:
            lanes = self.xs[-1] - self.xs[0] + (self.box_w[0] + self.box_w[-1]) / 2
            self.spanning_wrap = min(C.TITLE_MAX_WIDTH, max(C.SPANNING_MIN_WRAP, lanes))
        # Extents fix the frames and the picture's left edge; shift so it sits at the margin.
        left, right = self._extent(self.diagram.items, 0) or (0.0, 0.0)
        for i, x in enumerate(self.xs):
            left = min(left, x - self.reach_left[i])
            right = max(
                right, x + max(self.reach_right[i], self.box_w[i] / 2 + C.PARTICIPANT_SHADOW)
            )
        dx = C.MARGIN - left if self.n or self.frame_x else 0.0
        self.xs = [x + dx for x in self.xs]
        self.frame_x = {k: (a + dx, b + dx) for k, (a, b) in self.frame_x.items()}
        # what spans the whole picture wraps at its width, within bounds (what is in a frame,
        # at the lanes': the frames were sized so)
        drawn = right + dx - C.MARGIN
        self.picture_wrap = min(C.TITLE_MAX_WIDTH, max(self.spanning_wrap, drawn))
        self.width = max(right + dx + C.MARGIN, self._least_width())
        self.canvas = self.width
        numbered = self._numbered()
        if numbered:
            from volley.layout import appendix as appendix_

            natural = appendix_.natural_width(self.ts, numbered)
            self.appendix_width = max(natural, self.width - 2 * C.MARGIN)
            self.canvas = self.appendix_width + 2 * C.MARGIN
            self.left = (self.canvas - self.width) / 2
            self.xs = [x + self.left for x in self.xs]
            self.frame_x = {k: (a + self.left, b + self.left) for k, (a, b) in self.frame_x.items()}

    def _numbered(self) -> list[Numbered]:
        """The messages the appendix lists, with their numbers (none without an appendix)."""
        if self.bodies != "appendix":
            return []
        from volley.layout.appendix import Numbered  # a picture without one never loads it

        shown = self.diagram.shown  # as the lanes show them
        numbered = []
        for m in self.diagram.messages():
            if id(m) in self.markers:
                sender, receiver, both = m.flow
                numbered.append(
                    Numbered(self.markers[id(m)], m, shown(sender), shown(receiver), both)
                )
        return numbered

    def _needs(self, items: list[Item], needs: dict, spanning: list[Note], depth: int = 0) -> None:
        """Pass 1: the least distance each element asks for between two lifelines (`depth`:
        how many frames hold the items)."""
        for item in items:
            if isinstance(item, Message):
                i, j = self.index[item.sender], self.index[item.receiver]
                row = self._row(item, C.LABEL_WRAP_WIDTH)
                if i == j:
                    # In a frame, the neighbouring lifeline stays clear of its edge too.
                    frame = C.BLOCK_PAD_X + (depth - 1) * C.BLOCK_NEST_INSET
                    gap = frame + C.FRAME_LANE_CLEARANCE if depth else C.LABEL_PAD_X
                    if self._loops_left(i):
                        # the neighbour's bars nest rightwards, towards this label
                        clear = max(self._bars_right(i - 1) + gap, self._edge_of_band(i, i - 1))
                        _need(needs, i - 1, i, self._self_reach(row, i) + clear)
                    elif i + 1 < self.n:
                        reach = self._self_reach(row, i)
                        _need(needs, i, i + 1, reach + max(gap, self._edge_of_band(i, i + 1)))
                else:
                    lo, hi = min(i, j), max(i, j)
                    # the label, centred, clears the left lane's bars, nested rightwards
                    # towards it (the right lane's outer bar reaches it by half its width)
                    bars = self._bars_right(lo)
                    pad = max(C.LABEL_PAD_X, bars + C.LABEL_HALO + C.BAR_GAP)
                    _need(needs, lo, hi, row.width + 2 * pad)
            elif isinstance(item, Note):
                lo, hi = self._note_span(item)
                if lo < 0 or lo != hi:
                    if lo >= 0:
                        spanning.append(item)
                    continue
                if item.side != "over":  # it stops short of the neighbour's lifeline
                    reach = self._beside(item, lo) + self._note_size(item)[0]
                    if item.side == "right" and lo + 1 < self.n:
                        edge = max(C.NOTE_SIDE_GAP, self._edge_of_band(lo, lo + 1))
                        _need(needs, lo, lo + 1, reach + edge)
                    elif item.side == "left" and lo > 0:
                        clear = max(C.NOTE_SIDE_GAP, self._bars_right(lo - 1) + C.BAR_GAP)
                        edge = max(clear, self._edge_of_band(lo, lo - 1))
                        _need(needs, lo - 1, lo, reach + edge)
                    continue
                half = self._note_size(item)[0] / 2
                if lo > 0:  # the left neighbour's bars nest rightwards, towards the note
                    clear = max(C.NOTE_LANE_GAP, self._bars_right(lo - 1) + C.BAR_GAP)
                    _need(needs, lo - 1, lo, half + max(clear, self._edge_of_band(lo, lo - 1)))
                if lo + 1 < self.n:
                    edge = max(C.NOTE_LANE_GAP, self._edge_of_band(lo, lo + 1))
                    _need(needs, lo, lo + 1, half + edge)
            elif isinstance(item, Block):
                span = self._span(item)
                if span and span[0] != span[1]:
                    header = max(self._header_width(item, b) for b in range(len(item.branches)))
                    _need(needs, span[0], span[1], header - 2 * C.BLOCK_PAD_X)
                for branch in item.branches:
                    self._needs(branch.items, needs, spanning, depth + 1)

    def _sweep(self, needs: dict[tuple[int, int], float]) -> list[float]:
        """Pass 2: place lifelines left to right, each as far as its needs push it."""
        if not self.n:
            return []
        by_right: list[list[tuple[int, float]]] = [[] for _ in range(self.n)]
        for (lo, hi), dist in sorted(needs.items()):
            if hi - lo > 1:
                by_right[hi].append((lo, dist))
        xs = [0.0] * self.n
        for j in range(1, self.n):
            adjacent = max(
                C.MIN_LANE_DISTANCE,
                (self.box_w[j - 1] + self.box_w[j]) / 2 + C.PARTICIPANT_GAP,
                needs.get((j - 1, j), 0.0),
            )
            xs[j] = xs[j - 1] + adjacent
            for lo, dist in by_right[j]:
                short = xs[lo] + dist - xs[j]
                if short <= 0:
                    continue
                gaps = j - lo
                if gaps <= SPREAD_SPAN:
                    for k in range(lo + 1, j):
                        xs[k] += short * (k - lo) / gaps
                xs[j] += short
        return xs

    def _extent(self, items: list[Item], depth: int) -> tuple[float, float] | None:
        """How far left and right the items reach; records each block's frame on the way."""
        left = right = None
        for item in items:
            ext = self._item_extent(item, depth)
            if ext is not None:
                left = ext[0] if left is None else min(left, ext[0])
                right = ext[1] if right is None else max(right, ext[1])
        return None if left is None or right is None else (left, right)

    def _item_extent(self, item: Item, depth: int) -> tuple[float, float] | None:
        """How far left and right one item reaches; None for a divider (it takes any width)."""
        if isinstance(item, Message):
            xs = self.xs
            i, j = self.index[item.sender], self.index[item.receiver]
            if i == j:
                reach = self._self_reach(self._row(item, C.LABEL_WRAP_WIDTH), i)
                return (xs[i] - reach, xs[i]) if self._loops_left(i) else (xs[i], xs[i] + reach)
            return (xs[i], xs[j]) if xs[i] <= xs[j] else (xs[j], xs[i])
        if isinstance(item, Note):
            x, w = self._note_x(item)
            return x, x + w
        if isinstance(item, Block):
            return self._frame_extent(item, depth)
        return None

    def _frame_extent(self, block: Block, depth: int) -> tuple[float, float]:
        left = right = None
        for branch in block.branches:
            for item in branch.items:
                ext = self._item_extent(item, depth + 1)
                if ext is None:
                    continue
                pad = C.BLOCK_NEST_INSET if isinstance(item, Block) else C.BLOCK_PAD_X
                a, b = ext[0] - pad, ext[1] + pad
                left = a if left is None else min(left, a)
                right = b if right is None else max(right, b)
        if left is None or right is None:
            span = self._span(block) or ((0, self.n - 1) if self.n else None)
            if span is None:
                left, right = 0.0, 0.0
            else:
                left = self.xs[span[0]] - C.BLOCK_PAD_X
                right = self.xs[span[1]] + C.BLOCK_PAD_X
        header = max(self._header_width(block, b) for b in range(len(block.branches) or 1))
        right = max(right, left + header)
        # Bars nested three deep and more on a lane inside the frame reach past its padding:
        # the frame clears them by what it leaves beside two.
        clear = C.BLOCK_PAD_X - _bars_reach(2)
        for lane, most in enumerate(self.block_bars.get(id(block), ())):
            if most and left < self.xs[lane] < right:
                right = max(right, self.xs[lane] + _bars_reach(most) + clear)
        # A divider inside the frame spans its inner width, so the frame holds its label.
        for branch in block.branches:
            for item in branch.items:
                if isinstance(item, Divider) and item.label:
                    right = max(right, left + self._divider_need(item) + 2 * C.BLOCK_PAD_X)
        left, right = self._clear_of_lanes(block, left, right)
        self.frame_x[id(block)] = (left, right)
        return left, right

    def _clear_of_lanes(self, block: Block, left: float, right: float) -> tuple[float, float]:
        """Frame edges moved off the lifelines of participants the block does not involve, and
        off their bars (which nest rightwards): an edge drawn on a lifeline leaves the reader
        unsure which side it is on, and one drawn down a bar cuts it."""
        span = self._span(block)
        clear = C.FRAME_LANE_CLEARANCE
        for lane, x in enumerate(self.xs):
            if span is not None and span[0] <= lane <= span[1]:
                continue
            reach = max(clear, self._bars_right(lane) + C.BAR_GAP)  # right of the lifeline
            if x - clear < left < x + reach:
                left = x - clear
            if x - clear < right < x + reach:
                right = x + reach
        return left, right

    def _least_width(self) -> float:
        """Width asked for by things that span the diagram: title, dividers."""
        least: float = 2 * C.MARGIN + 120
        if self.diagram.title:
            least = max(least, self._title().width + 2 * C.MARGIN)
        top = {id(item) for item in self.diagram.items}
        for item in walk(self.diagram.items):
            if isinstance(item, Divider) and item.label:
                least = max(least, self._divider_need(item, id(item) in top) + 2 * C.MARGIN)
        return least

    # --- measuring helpers -------------------------------------------------------------------

    def _row(self, message: Message, wrap: float, stretch: bool = True) -> _Row:
        """The label row at a wrap width; `stretch` lets a long token widen it (pass 1 only:
        later the width is the room the lanes give, which must not be exceeded)."""
        key = (id(message), wrap, stretch)
        row = self.rows.get(key)
        if row is None:
            row = self.rows[key] = self._make_row(message, wrap, stretch)
        return row

    def _make_row(self, message: Message, wrap: float, stretch: bool) -> _Row:
        ts = self.ts
        text = message.label
        if stretch and "`" in text:  # (code is written between backticks)
            whole = ts.markup(text, C.LABEL_SIZE, math.inf)  # unwrapped (set once, kept)
            if _laid_out_as_code(whole):  # broken, its code lines would lose their spaces
                wrap = max(wrap, min(whole.width, C.CODE_LABEL_WIDTH))
        label = ts.markup(text, C.LABEL_SIZE, wrap, stretch=stretch) if text.strip() else None
        badge = None
        if message.number is not None:
            badge = ts.plain(str(message.number), C.SMALL_SIZE, bold=True)
        number = self.markers.get(id(message))
        marker = None
        if number is not None and message.number is not None:  # the badge shows the number
            marker = ts.markup(MARKER_ICON, C.SMALL_SIZE, C.LABEL_WRAP_WIDTH, bold=True)
        elif number is not None:
            marker = ts.numbered(MARKER_ICON, number, C.SMALL_SIZE, bold=True)
        badge_w = _pill_width(badge)
        marker_w = marker.width + 2 * C.MARKER_PAD_X if marker else 0.0
        parts = [w for w in (badge_w, label.width if label else 0.0, marker_w) if w]
        width = fsum(parts) + C.BADGE_GAP * max(len(parts) - 1, 0)
        height = max(
            label.height if label else 0.0,
            2 * C.BADGE_RADIUS if badge else 0.0,
            C.MARKER_HEIGHT if marker else 0.0,
        )
        return _Row(label, badge, badge_w, marker, marker_w, width, height)

    def _loops_left(self, lane: int) -> bool:
        """Whether a message to self on the lane turns left: on the rightmost of several
        lanes, so that its loop and label widen the gap to its neighbour, not the picture."""
        return 1 < self.n == lane + 1

    def _bars_right(self, lane: int) -> float:
        """How far right of the lane's lifeline its bars reach where they nest deepest."""
        return _bars_reach(self.most_bars[lane])

    def _self_reach(self, row: _Row, lane: int) -> float:
        """How far a message to self on the lane reaches from its lifeline: past the lane's
        bars on the side it turns to (nested bars sit to the right), then its loop or label."""
        bars = (
            self.bar_room if self._loops_left(lane) else max(self.bar_room, self._bars_right(lane))
        )
        return bars + max(C.SELF_LOOP_WIDTH + C.HEAD_LENGTH, C.SELF_LABEL_INDENT + row.width)

    def _fill_widened_notes(self, spanning: list[Note]) -> None:
        """A note over lanes that something else (another note, a band) made wider than the
        note asked for is set again to fill them, within its box: its text would fill a part
        of a box the lanes made wider."""
        for note in spanning:
            lo, hi = self._note_span(note)
            reach = self.xs[hi] - self.xs[lo] + 2 * C.NOTE_OVERHANG
            if reach > self._note_size(note)[0] + C.NOTE_FOLD:
                self.note_wrap[id(note)] = reach - 2 * C.NOTE_PAD_X - C.NOTE_FOLD / 2
                self.fitted.add(id(note))

    def _note_span(self, note: Note) -> tuple[int, int]:
        """The first and last lane a note covers; (-1, -1) when there are no lanes."""
        idx = [self.index[name] for name in note.over if name in self.index]
        if not idx:
            return (0, self.n - 1) if self.n else (-1, -1)
        return min(idx), max(idx)

    def _note_wrap(self, note: Note) -> float:
        return self.note_wrap.get(id(note), C.NOTE_WRAP_WIDTH - 2 * C.NOTE_PAD_X)

    def _note_parts(self, note: Note) -> tuple[NotePart, ...]:
        wrap = self._note_wrap(note)
        lo, hi = self._note_span(note)
        fill = lo != hi  # a note over lanes is as wide as they are: its lines fill it
        fit = id(note) in self.fitted

        def set_at(width: float) -> tuple[NotePart, ...]:
            return self.ts.note(note.text, C.NOTE_SIZE, width, fill, fit, note.lines_kept)

        parts = set_at(wrap)
        # A code block (or a table) wider than the wrap sets the note's width: its prose takes
        # that room rather than leaving the right of the note empty (wrapped short of it by as
        # much as the typesetter may widen a line to keep a word from standing alone).
        code = max(
            (
                p.text.width + (2 * C.CODE_BLOCK_PAD if p.kind == "code" else 0.0)
                for p in parts
                if p.kind in ("code", "table")
            ),
            default=0,
        )
        room = code / WIDEN_TO_KEEP
        if lo == hi and any(part.broken for part in parts):
            # a note over one lane whose writer broke its lines (`\n`, as sequencediagram.org's
            # writers do at some sixty letters) keeps them whole up to a wider note: wrapped
            # again at the usual width, each long line read ragged
            most = C.NOTE_BROKEN_WRAP_WIDTH - 2 * C.NOTE_PAD_X  # (as the usual wrap is set)
            wider = set_at(most)
            room = max(room, *(part.indent + part.text.width for part in wider if part.broken))
        return set_at(room) if room > wrap else parts

    def _note_size(self, note: Note) -> tuple[float, float]:
        """The note's box size for its chosen wrap width (every pass asks, so it is kept)."""
        key = (id(note), self._note_wrap(note))
        size = self.note_sizes.get(key)
        if size is None:
            size = self.note_sizes[key] = self._measure_note(self._note_parts(note))
        return size

    def _measure_note(self, parts: tuple[NotePart, ...]) -> tuple[float, float]:
        width = 0.0
        height = 0.0
        for k, part in enumerate(parts):
            extra = 2 * C.CODE_BLOCK_PAD if part.kind == "code" else 0.0
            width = max(width, part.indent + part.text.width + extra)
            height += part.text.height + extra + (C.NOTE_PARAGRAPH_GAP if k else 0.0)
        return (
            max(C.NOTE_MIN_WIDTH, width + 2 * C.NOTE_PAD_X + C.NOTE_FOLD / 2),
            max(height, 0.0) + 2 * C.NOTE_PAD_Y,
        )

    def _note_x(self, note: Note) -> tuple[float, float]:
        """Left edge and width of the note's box."""
        width = self._note_size(note)[0]
        lo, hi = self._note_span(note)
        if lo < 0:
            return self.left + C.MARGIN, width
        if lo != hi:
            width = max(width, self.xs[hi] - self.xs[lo] + 2 * C.NOTE_OVERHANG)
        elif note.side == "right":
            return self.xs[lo] + self._beside(note, lo), width
        elif note.side == "left":
            return self.xs[lo] - self._beside(note, lo) - width, width
        return (self.xs[lo] + self.xs[hi]) / 2 - width / 2, width

    def _beside(self, note: Note, lane: int) -> float:
        """How far from the lane's lifeline a note beside it stands: clear of its bars, which
        nest rightwards (on the left, only the outer bar's half reaches)."""
        if note.side == "right":
            return self._bars_right(lane) + C.NOTE_SIDE_GAP
        return min(self._bars_right(lane), C.ACTIVATION_WIDTH / 2) + C.NOTE_SIDE_GAP

    def _span(self, block: Block) -> tuple[int, int] | None:
        """The lanes a block's elements touch, nested blocks included."""
        key = id(block)
        if key in self.block_span:
            return self.block_span[key]
        lo = hi = None
        for branch in block.branches:
            for item in branch.items:
                if isinstance(item, Message):
                    idx = [self.index[item.sender], self.index[item.receiver]]
                elif isinstance(item, Note):
                    a, b = self._note_span(item)
                    idx = [a, b] if a >= 0 else []
                elif isinstance(item, Block):
                    sub = self._span(item)
                    idx = list(sub) if sub else []
                else:
                    idx = []
                for i in idx:
                    lo = i if lo is None else min(lo, i)
                    hi = i if hi is None else max(hi, i)
        span = None if lo is None or hi is None else (lo, hi)
        self.block_span[key] = span
        return span

    def _tab(self, block: Block, branch: int = 0) -> tuple[SetText, float, float]:
        """The tab naming a branch: the block's kind on the first, `else`/`and` on the others
        (alike, so that each keyword sits on its tab, never on a lifeline)."""
        word = SEPARATOR_WORDS.get(block.kind, "else") if branch else block.kind
        st = self.ts.plain(word, C.SMALL_SIZE, bold=True)
        width = st.width + 2 * C.BLOCK_TAB_PAD_X + C.BLOCK_TAB_CUT
        height = st.height + 2 * C.BLOCK_TAB_PAD_Y
        return st, width, height

    def _block_label(self, text: str, wrap: float = C.LABEL_WRAP_WIDTH) -> SetText | None:
        """A branch's label; wrapped at `wrap` when its frame gives more room than a label's
        own width (and then never wider: the frame was sized for the label as usual)."""
        if not text.strip():
            return None
        if wrap > C.LABEL_WRAP_WIDTH:
            return self.ts.markup(text, C.LABEL_SIZE - 1, wrap, stretch=False)
        return self.ts.markup(text, C.LABEL_SIZE - 1, C.LABEL_WRAP_WIDTH)

    def _header_width(self, block: Block, branch: int) -> float:
        """Room the frame needs for a header: the tab and label, or a separator and its label
        (a rect's highlight has neither)."""
        if block.kind == "rect":
            return 0.0
        lead = self._tab(block, branch)[1]
        label = block.branches[branch].label if block.branches else ""
        st = self._block_label(label)
        return lead + (C.BLOCK_LABEL_GAP + st.width if st else 0.0) + C.BLOCK_PAD_X

    def _title(self) -> SetText:
        return self.ts.markup(self.diagram.title or "", C.TITLE_SIZE, self.picture_wrap, bold=True)

    def _divider_need(self, divider: Divider, top: bool = False) -> float:
        """Least length of a labelled divider's line: its label and the room around it (`top`:
        one across the picture, not in a frame)."""
        pad = (
            C.SECTION_ACCENT_WIDTH + 2 * C.SECTION_PAD_X
            if divider.style == "bold"
            else 2 * C.DIVIDER_LABEL_PAD_X + 2 * C.MIN_LANE_DISTANCE / 3
        )
        return self._divider_text(divider, top).width + pad

    def _divider_text(self, divider: Divider, top: bool = False) -> SetText:
        wrap = self.picture_wrap if top else self.spanning_wrap
        if divider.style == "bold":
            return self.ts.markup(divider.label, C.SECTION_SIZE, wrap, bold=True)
        italic = divider.style == "delay"
        return self.ts.markup(divider.label, C.DIVIDER_SIZE, wrap, italic=italic)

    # --- pass 3: rows ------------------------------------------------------------------------

    def _stack(self) -> None:
        out = self.out
        self.y = C.MARGIN
        if self.diagram.title:
            title = self._title()
            if title.rtl:  # a right-to-left title heads the picture from the right
                end = self.left + self.width - C.MARGIN
                out.title = self.ts.place(title, end, self.y, align="end")
            else:
                out.title = self.ts.place(title, self.left + C.MARGIN, self.y)
            self.y += out.title.box.h + C.TITLE_GAP
        band_top = self.y
        if self.bands:  # their labels head the participant boxes
            labels = [label.height for _, _, _, label in self.bands if label is not None]
            self.y += C.BAND_PAD_Y + (max(labels) + C.BAND_LABEL_GAP if labels else 0.0)
        top = self.y
        self.y += self.box_h
        lifeline_top = self.y
        self.y += C.FIRST_ROW_GAP
        self._items(self.diagram.items, 0)
        self.y += C.LAST_ROW_GAP
        lifeline_bottom = self.y
        for lane, bars in enumerate(self.open_bars):  # a bar still open ends with the diagram
            while bars:
                self._bar(lane, lifeline_bottom, 0, False)
        if self.n:
            segments = _broken(lifeline_top, lifeline_bottom, self.breaks)
            for i, name in enumerate(self.names):
                x = self.xs[i]
                out.lifelines.append(Lifeline(i, x, list(segments)))
                out.participants.append(
                    Participant(name, i, x, *self._boxes(i, top, lifeline_bottom))
                )
            self.y += self.box_h
            if self.bands:
                self.y += C.BAND_PAD_Y
                self._place_bands(band_top, self.y)
        numbered = self._numbered()
        if numbered:
            from volley.layout.appendix import lay_out

            out.appendix, self.y = lay_out(
                self.ts, numbered, C.MARGIN, self.y, self.appendix_width, self.appendix_lines
            )
        out.width = round(self.canvas, 2)
        out.height = round(self.y + C.MARGIN, 2)

    def _boxes(self, i: int, top: float, bottom: float):
        w, h, st = self.box_w[i], self.box_h, self.name_sets[i]
        x = self.xs[i] - w / 2
        texts = []
        for y in (top, bottom):
            texts.append(self.ts.place(st, self.xs[i], y + (h - st.height) / 2, align="middle"))
        return Rect(x, top, w, h), Rect(x, bottom, w, h), texts[0], texts[1]

    def _items(
        self, items: list[Item], depth: int, inner: tuple[float, float] | None = None
    ) -> None:
        """Stack `items`; `inner` is the x-range a divider spans in a frame, else the picture.

        `activate`/`deactivate` lines right after a message act at its arrow, as `->+`/`-->-`
        would (so the arrow meets the bar); elsewhere, where the flow has got to.
        """
        k = 0
        while k < len(items):
            item = items[k]
            k += 1
            if isinstance(item, Message):
                marks: list[Activation] = []
                while k < len(items) and isinstance(mark := items[k], Activation):
                    marks.append(mark)
                    k += 1
                self._message(item, marks)
            elif isinstance(item, Activation):
                i = self.index.get(item.participant)
                if i is not None:
                    self._bar(i, self.y, item.line, item.on)
            elif isinstance(item, Note):
                self._note(item)
            elif isinstance(item, Divider):
                self._divider(item, inner)
            elif isinstance(item, Block):
                self._block(item, depth)

    def _message(self, message: Message, marks: list[Activation]) -> None:
        self.message_count += 1
        xs = self.xs
        i, j = self.index[message.sender], self.index[message.receiver]
        starts: list[int] = []
        ends: list[int] = []
        if (change := message.bar_change) is not None:
            (starts if change[1] else ends).append(self.index[change[0]])
        for mark in marks:
            lane = self.index.get(mark.participant)
            if lane is not None:
                (starts if mark.on else ends).append(lane)
        self.y += C.ROW_GAP
        top = self.y
        row = self._row(message, C.LABEL_WRAP_WIDTH)
        if i == j and self._loops_left(i):
            x0 = self._bar_edge(i, -1) - C.SELF_LABEL_INDENT - row.width
        elif i == j:
            x0 = self._bar_edge(i, 1) + C.SELF_LABEL_INDENT
        else:
            span = abs(xs[j] - xs[i]) - 2 * C.LABEL_PAD_X
            extras = row.width - (row.label.width if row.label else 0.0)
            room = span - extras
            # Wide lanes take a wrapped label in fewer lines; never wider than the room they give.
            # A label set unwrapped is the same in any wider room.
            if room > C.LABEL_WRAP_WIDTH and row.label is not None and row.label.fitted:
                row = self._row(message, room, stretch=False)
            x0 = (xs[i] + xs[j]) / 2 - row.width / 2
        centre = i != j and not indented(row)
        label, badge, marker = self._place_row(message, row, x0, top, centre)
        if i != j and self.bands and (badge or marker):
            lo, hi = sorted((xs[i], xs[j]))
            between = (lo + C.LABEL_PAD_X + self._bars_right(min(i, j)), hi - C.LABEL_PAD_X)
            boxes = [mark.box for mark in (badge, marker) if mark is not None]
            words = label.box if label is not None else None
            lanes = range(min(i, j) + 1, max(i, j))  # the lanes the arrow crosses
            shift = self._off_band_edges(boxes, words, x0, row.width, between, lanes)
            if shift:
                label, badge, marker = self._place_row(message, row, x0 + shift, top, centre)
        arrow_y = top + row.height + C.LABEL_ARROW_GAP
        style = message.style
        scale = C.BOLD_HEAD_SCALE if style.line == "bold" else 1.0
        heads: list[Head] = []
        points: tuple[tuple[float, float], ...]
        if i == j:
            # The loop leaves from the lane's bar and returns to it, or to the bar it opens;
            # rightwards, or leftwards on the rightmost lane.
            side = -1 if self._loops_left(i) else 1
            x = self._bar_edge(i, side)
            turn = x + side * C.SELF_LOOP_WIDTH
            back = arrow_y + C.SELF_LOOP_HEIGHT
            for lane in starts:
                self._bar(lane, back if lane == i else arrow_y, message.line, True)
            end = self._bar_edge(i, side)
            points = ((x, arrow_y), (turn, arrow_y), (turn, back), (end, back))
            if style.head_from != "none":
                heads.append(Head(style.head_from, (x, arrow_y), -side, scale))
            if style.head_to != "none":
                heads.append(Head(style.head_to, (end, back), -side, scale))
            for lane in ends:
                self._bar(lane, back, message.line, False)
            self.y = back + C.ROW_BOTTOM
        else:
            for lane in starts:  # a bar opened by the message begins at its arrow
                self._bar(lane, arrow_y, message.line, True)
            direction = 1 if xs[j] > xs[i] else -1
            # An arrow leaves from and arrives at the edge of an open bar, not its middle.
            x1, x2 = self._bar_edge(i, direction), self._bar_edge(j, -direction)
            if style.head_from != "none":
                # a cross at either end stops short of its lane: it never arrives (`B x- A`
                # is `A -x B` written the other way)
                if style.head_from == "cross":
                    x1 += direction * C.CROSS_INSET
                heads.append(Head(style.head_from, (x1, arrow_y), -direction, scale))
            if style.head_to != "none":
                tip = x2 - direction * C.CROSS_INSET if style.head_to == "cross" else x2
                heads.append(Head(style.head_to, (tip, arrow_y), direction, scale))
                if style.head_to == "cross":
                    x2 = tip
            points = ((x1, arrow_y), (x2, arrow_y))
            for lane in ends:  # a bar the message closes ends at its arrow
                self._bar(lane, arrow_y, message.line, False)
            self.y = arrow_y + C.ROW_BOTTOM
        self.out.messages.append(
            MessageShape(
                self.message_count, message.line, message.sender, message.receiver, points,
                style.line, tuple(heads), label, badge, marker, i == j,
            )
        )  # fmt: skip

    def _bar(self, lane: int, y: float, line: int, on: bool) -> None:
        """Open a bar on the lane at y (nested in any open there), or close its innermost."""
        bars = self.open_bars[lane]
        if on:
            depth = len(bars)
            x = self.xs[lane] + depth * C.ACTIVATION_NEST_OFFSET - C.ACTIVATION_WIDTH / 2
            bar = ActivationBar(lane, line, depth, Rect(x, y, C.ACTIVATION_WIDTH, 0.0))
            bars.append(bar)
            self.out.activations.append(bar)  # in opening order: outer bars draw first
        elif bars:  # closing a lane with no open bar draws nothing
            bar = bars.pop()
            bar.box = Rect(bar.box.x, bar.box.y, bar.box.w, max(y - bar.box.y, 0.0))

    def _bar_edge(self, lane: int, toward: int) -> float:
        """Where an arrow meets the lane from the side `toward` (+1 right, -1 left): the outer
        edge of its open bars on that side (nested bars sit to the right), or the lifeline."""
        bars = self.open_bars[lane]
        if not bars:
            return self.xs[lane]
        return bars[-1].box.right if toward > 0 else bars[0].box.x

    def _off_band_edges(
        self,
        marks: list[Rect],
        words: Rect | None,
        x0: float,
        width: float,
        room: tuple[float, float],
        crossed_lanes: range,
    ) -> float:
        """How far to move a label's row so that no badge or marker sits across a box band's
        edge (the edge would pin it, run into it from above and out below): the least move
        that clears every edge, keeps the marks off the lifelines and open bars of the lanes
        the arrow crosses and the label's `words` off those bars (a label crosses lifelines
        as any long one does), and keeps the row in its room; none where there is none."""
        edges = [
            (edge, edge)
            for _, first, last, _ in self.bands
            for edge in (
                self.xs[first] - self.reach_left[first],
                self.xs[last] + self.reach_right[last],
            )
            if room[0] < edge < room[1]
        ]
        bars = [
            (min(bar.box.x for bar in open_now), max(bar.box.right for bar in open_now))
            for open_now in (self.open_bars[k] for k in crossed_lanes)
            if open_now
        ]
        half = C.ACTIVATION_WIDTH / 2
        lifelines = [(self.xs[k] - half, self.xs[k] + half) for k in crossed_lanes]
        gap = C.BAND_EDGE_CLEARANCE

        def crossed(move: float, boxes: list[Rect], obstacles: list[tuple[float, float]]) -> bool:
            near = gap - 0.01  # a move that clears by `gap` exactly clears
            return any(
                box.x + move - near < right and left < box.right + move + near
                for box in boxes
                for left, right in obstacles
            )

        if not crossed(0.0, marks, edges):
            return 0.0
        held = [*marks, *([words] if words is not None else [])]
        moves = sorted(
            (
                move
                for box in held
                for left, right in edges + lifelines + bars
                for move in (right + gap - box.x, left - gap - box.right)
            ),
            key=abs,
        )
        fits = (m for m in moves if room[0] <= x0 + m and x0 + m + width <= room[1])
        marks_keep_off = edges + lifelines + bars
        return next(
            (
                m
                for m in fits
                if not crossed(m, marks, marks_keep_off)
                and (words is None or not crossed(m, [words], bars))
            ),
            0.0,
        )

    def _place_row(self, message: Message, row: _Row, x0: float, top: float, centre: bool):
        """Badge, label and marker side by side: the badge level with the label's first line,
        the marker with its last, like a footnote mark."""
        label = badge = marker = None
        first_mid = last_mid = top + row.height / 2
        if row.label:
            label_top = top + row.height - row.label.height
            label_x = x0 + (row.badge_w + C.BADGE_GAP if row.badge else 0.0)
            if centre:
                label = self.ts.place(row.label, label_x + row.label.width / 2, label_top,
                                      align="middle", halo=True)  # fmt: skip
            else:
                label = self.ts.place(row.label, label_x, label_top, halo=True)
            if row.label.lines:
                first_mid = label_top + row.label.lines[0].height / 2
                last_mid = top + row.height - row.label.lines[-1].height / 2
        x = x0
        lines = label.lines if label is not None and len(label.lines) > 1 else None
        if lines and centre:  # the badge beside the first words, not the widest line's
            x = lines[0].x - C.BADGE_GAP - row.badge_w
        if row.badge:
            box = Rect(x, first_mid - C.BADGE_RADIUS, row.badge_w, 2 * C.BADGE_RADIUS)
            text = self.ts.place(row.badge, x + row.badge_w / 2, _centred(box, row.badge),
                                 tone="inverse", align="middle")  # fmt: skip
            badge = Badge(box, text)
        if row.marker:
            x = x0 + row.width - row.marker_w
            if lines:  # the marker after the last words, not the widest line's
                x = lines[-1].x + lines[-1].width + C.BADGE_GAP
            box = Rect(x, last_mid - C.MARKER_HEIGHT / 2, row.marker_w, C.MARKER_HEIGHT)
            text = self.ts.place(row.marker, x + C.MARKER_PAD_X, _centred(box, row.marker),
                                 tone="accent")  # fmt: skip
            marker = Marker(self.markers[id(message)], box, text, _contents(message))
        return label, badge, marker

    def _note(self, note: Note) -> None:
        self.y += C.NOTE_GAP
        x, w = self._note_x(note)
        h = self._note_size(note)[1]
        box = Rect(x, self.y, w, h)
        texts, bullets, panels = [], [], []
        rules: list[Rule] = []
        ty = self.y + C.NOTE_PAD_Y
        tx = x + C.NOTE_PAD_X  # left-aligned at a fixed padding, however wide the note is
        # A right-to-left paragraph or list item is aligned the other way, clear of the fold.
        end = x + w - C.NOTE_PAD_X - C.NOTE_FOLD / 2
        for k, part in enumerate(self._note_parts(note)):
            if k:
                ty += C.NOTE_PARAGRAPH_GAP
            if part.kind == "code":
                pad = C.CODE_BLOCK_PAD
                panel = Rect(tx, ty, part.text.width + 2 * pad, part.text.height + 2 * pad)
                panels.append(CodePanel(panel))
                texts.append(self.ts.place(part.text, tx + pad, ty + pad))
                ty += panel.h
                continue
            if part.table is not None:
                texts += self._table(part.table, tx, ty, panels, rules)
                ty += part.text.height
                continue
            if part.kind == "rule":  # across the text's width, clear of the fold
                rules.append(Rule(tx, end, ty + part.text.height / 2))
                ty += part.text.height
                continue
            rtl = part.text.rtl
            if part.bullet is not None:
                bx = (
                    end - part.indent + C.BULLET_GAP
                    if rtl
                    else tx + part.indent - C.BULLET_GAP - part.bullet.width
                )
                bullets.append(self.ts.place(part.bullet, bx, ty, tone="note"))
            if rtl:
                placed = self.ts.place(part.text, end - part.indent, ty, tone="note", align="end")
            else:
                placed = self.ts.place(part.text, tx + part.indent, ty, tone="note")
            texts.append(placed)
            ty += part.text.height
        self.out.notes.append(
            NoteShape(note.line, list(note.over), box, texts, bullets, panels, rules, note.side)
        )
        self.y += h + C.ROW_BOTTOM

    def _table(
        self, table: SetTable, x: float, y: float, panels: list[CodePanel], rules: list[Rule]
    ) -> list[TextBlock]:
        """A note's table at (x, y): its header row on a tinted panel, a rule under each
        body row but the last, each cell's text placed as its column is aligned."""
        width = fsum(table.widths)
        panels.append(CodePanel(Rect(x, y, width, table.heights[0])))
        texts = []
        for r, (row, height) in enumerate(zip(table.cells, table.heights, strict=True)):
            if r > 1:
                rules.append(Rule(x, x + width, y))
            left = x
            for cell, column, align in zip(row, table.widths, table.align, strict=True):
                anchor: Anchor = "start"
                at = left + C.TABLE_CELL_PAD_X
                if align == "center":
                    anchor, at = "middle", left + column / 2
                elif align == "right":
                    anchor, at = "end", left + column - C.TABLE_CELL_PAD_X
                top = y + C.TABLE_CELL_PAD_Y
                texts.append(self.ts.place(cell, at, top, tone="note", align=anchor))
                left += column
            y += height
        return texts

    def _divider(self, divider: Divider, inner: tuple[float, float] | None = None) -> None:
        x1, x2 = inner or (self.left + C.MARGIN, self.left + self.width - C.MARGIN)
        st = self._divider_text(divider, inner is None) if divider.label.strip() else None
        if divider.style == "bold":
            self.y += C.SECTION_GAP_ABOVE
            h = (st.height if st else C.SECTION_SIZE) + 2 * C.SECTION_PAD_Y
            band = Rect(x1, self.y, x2 - x1, h)
            label = None
            if st:
                tx = x1 + C.SECTION_ACCENT_WIDTH + C.SECTION_PAD_X
                label = self.ts.place(st, tx, self.y + C.SECTION_PAD_Y, tone="accent")
            self.out.dividers.append(
                DividerShape(divider.line, "bold", self.y + h / 2, x1, x2, band, label, None)
            )
            self.y += h + C.SECTION_GAP_BELOW
            return
        if divider.style == "delay":
            h = max(C.DELAY_HEIGHT, (st.height if st else 0.0) + 2 * C.DIVIDER_LABEL_PAD_Y + 16)
            self.y += C.ROW_BOTTOM
            mid = self.y + h / 2
            label = None
            if st:
                label = self.ts.place(st, (x1 + x2) / 2, mid - st.height / 2, tone="muted",
                                      align="middle", halo=True)  # fmt: skip
            self.breaks.append((self.y, self.y + h))
            self.out.dividers.append(DividerShape(divider.line, "delay", mid, x1, x2, None,
                                                  label, None))  # fmt: skip
            self.y += h + C.ROW_BOTTOM
            return
        self.y += C.DIVIDER_GAP
        h = (st.height if st else 0.0) + 2 * C.DIVIDER_LABEL_PAD_Y
        mid = self.y + h / 2
        label = pill = None
        if st:
            label = self.ts.place(st, (x1 + x2) / 2, mid - st.height / 2, tone="muted",
                                  align="middle")  # fmt: skip
            pill = Rect(label.box.x - C.DIVIDER_LABEL_PAD_X, self.y,
                        st.width + 2 * C.DIVIDER_LABEL_PAD_X, h)  # fmt: skip
        self.out.dividers.append(
            DividerShape(divider.line, divider.style, mid, x1, x2, None, label, pill)
        )
        self.y += h + C.DIVIDER_GAP

    def _block(self, block: Block, depth: int) -> None:
        self.y += C.BLOCK_GAP_ABOVE
        top = self.y
        left, right = self.frame_x[id(block)]
        tab: list[tuple[float, float]] = []
        tab_text = label = None
        header = 0.0  # a rect's highlight has no header: its items start below its top
        if block.kind != "rect":
            tab, tab_text, tab_w, tab_h = self._place_tab(block, 0, left, top)
            first = block.branches[0].label if block.branches else ""
            label = self._header_label(first, left + tab_w + C.BLOCK_LABEL_GAP, top, tab_h, right)
            header = max(tab_h, label.box.h if label else 0.0)
        slot = len(self.out.frames)
        self.out.frames.append(None)  # type: ignore[arg-type]  # outer frames draw first
        self.y = top + header + C.BLOCK_PAD_TOP
        separators: list[Separator] = []
        for k, branch in enumerate(block.branches):
            if k:
                self.y += C.SEPARATOR_GAP
                line_y = self.y
                kw_tab, keyword, kw_w, kw_h = self._place_tab(block, k, left, line_y)
                lx = left + kw_w + C.BLOCK_LABEL_GAP
                sep_label = self._header_label(branch.label, lx, line_y, kw_h, right)
                separators.append(Separator(line_y, keyword, sep_label, kw_tab))
                self.y = line_y + max(kw_h, sep_label.box.h if sep_label else 0.0)
            # A divider inside runs from frame edge to frame edge (inside its stroke).
            self._items(branch.items, depth + 1, (left + 1, right - 1))
        self.y += C.BLOCK_PAD_BOTTOM
        box = Rect(left, top, right - left, self.y - top)
        self.out.frames[slot] = BlockFrame(block.line, block.kind, depth, box, tab, tab_text,
                                           label, separators, block.tint)  # fmt: skip
        self.y += C.BLOCK_GAP_BELOW

    def _place_tab(self, block: Block, branch: int, left: float, top: float):
        """A branch's tab at the frame's left edge: its outline (a corner cut off at the bottom
        right), its word, its width and height."""
        st, w, h = self._tab(block, branch)
        cut = C.BLOCK_TAB_CUT
        outline = [(left, top), (left + w, top), (left + w, top + h - cut),
                   (left + w - cut, top + h), (left, top + h)]  # fmt: skip
        text = self.ts.place(st, left + C.BLOCK_TAB_PAD_X, top + C.BLOCK_TAB_PAD_Y, tone="muted")
        return outline, text, w, h

    def _header_label(
        self, text: str, x: float, top: float, band: float, right: float
    ) -> TextBlock | None:
        """A branch's label after its tab, wrapped to the frame's width (`right`: its edge),
        or short of the first activation bar open to its right where words fit before it: a
        label painted across a bar cut a piece out of it."""
        st = self._block_label(text, right - C.BLOCK_PAD_X - x)
        bars = sorted(
            (bar.box.x, bar.box.right)
            for open_now in self.open_bars
            for bar in open_now
            if bar.box.x > x
        )
        clear = C.BAR_GAP + C.LABEL_HALO
        before = (bars[0][0] if bars else right) - clear - x
        if st is not None and st.width > before >= C.BLOCK_LABEL_MIN_WIDTH:
            st = self.ts.markup(text, C.LABEL_SIZE - 1, before, stretch=False)
        elif st is not None and st.width > before and bars:
            # no room before the bar: after the bars that stand together there, if it fits
            # before the next one (or the frame's edge)
            after = bars[0][1]
            for start, end in bars[1:]:
                if start - after > 2 * clear:
                    break
                after = max(after, end)
            later = [start for start, _ in bars if start > after]
            room = min(later, default=right - C.BLOCK_PAD_X + clear) - clear - (after + clear)
            if st.width <= room:
                x = after + clear
            elif room >= max(before, C.BLOCK_LABEL_AFTER_BARS):
                x = after + clear
                st = self.ts.markup(text, C.LABEL_SIZE - 1, room, stretch=False)
        if st is None:
            return None
        first = st.lines[0].height if st.lines else st.height
        # Level with the tab, and low enough that its halo stops below the frame's top stroke.
        y = top + max((band - first) / 2, C.LABEL_HALO / 2 + 1)
        return self.ts.place(st, x, y, halo=True)


# --- small helpers ---------------------------------------------------------------------------


def _most_bars(
    items: list[Item], index: dict[str, int], open_now: list[int], by_block: dict[int, list[int]]
) -> list[int]:
    """For each lane, the most activation bars open on it at once over `items` (`->+` opens
    one on the receiver, `-->-` closes the sender's innermost, as do `activate` and
    `deactivate`), from the bars `open_now`, which it updates; and the same for each block
    among them, by its id in `by_block`, so that its frame can hold its bars."""
    most = list(open_now)
    for item in items:
        if isinstance(item, Block):
            inside = list(open_now)
            for branch in item.branches:
                inside = list(map(max, inside, _most_bars(branch.items, index, open_now, by_block)))
            by_block[id(item)] = inside
            most = list(map(max, most, inside))
            continue
        if isinstance(item, Message) and (change := item.bar_change) is not None:
            lane, on = index[change[0]], change[1]
        elif isinstance(item, Activation) and item.participant in index:
            lane, on = index[item.participant], item.on
        else:
            continue
        open_now[lane] = open_now[lane] + 1 if on else max(open_now[lane] - 1, 0)
        most[lane] = max(most[lane], open_now[lane])
    return most


def _bars_reach(most: int) -> float:
    """How far right of a lifeline `most` bars nested in each other reach."""
    return C.ACTIVATION_WIDTH / 2 + (most - 1) * C.ACTIVATION_NEST_OFFSET if most else 0.0


def _need(needs: dict[tuple[int, int], float], lo: int, hi: int, dist: float) -> None:
    if dist > needs.get((lo, hi), 0.0):
        needs[(lo, hi)] = dist


def _pill_width(st: SetText | None) -> float:
    if st is None:
        return 0.0
    return max(2 * C.BADGE_RADIUS, st.width + 2 * C.BADGE_PAD_X)


def indented(row: _Row) -> bool:
    """A label whose lines are laid out by code's own spaces: set flush left, as code is, or
    they line up with nothing."""
    return row.label is not None and _laid_out_as_code(row.label)


def _laid_out_as_code(label: SetText) -> bool:
    """Whether a label has lines of code indented by their own spaces (a request's headers
    and body written as `` `  "id": 1` `` lines). A right-to-left one is not taken for such:
    aligned on its right end, it stays centred (flush, it would end its lines together)."""
    return not any(line.rtl for line in label.lines) and any(
        line.runs and line.runs[0].code and line.runs[0].text[:1] == " " for line in label.lines
    )


def _centred(box: Rect, st: SetText) -> float:
    """The top at which text of this height sits centred in the box."""
    return box.y + (box.h - st.height) / 2


def _broken(top: float, bottom: float, breaks: list[tuple[float, float]]):
    """The lifeline from top to bottom with the delays cut out."""
    segments = []
    y = top
    for a, b in breaks:
        segments.append((y, a))
        y = b
    segments.append((y, bottom))
    return [(a, b) for a, b in segments if b > a]


def _payloads(message: Message) -> list[tuple[str, Payload]]:
    """The message's bodies with the word that introduced each: in (request), out (response)."""
    return [(w, p) for w, p in (("in", message.request), ("out", message.response)) if p]


def _contents(message: Message) -> str:
    """What a marker holds, one body a line, as the appendix captions them."""
    return clean_text(
        "\n".join(
            f"{word}: {p.label}" + (f" ({p.lang})" if p.lang else "")
            for word, p in _payloads(message)
        )
    )


def _all_participants(diagram: Diagram) -> list[str]:
    """Display order, plus any name the model uses but does not list (hand-built diagrams)."""
    names = list(dict.fromkeys(diagram.participants))
    seen = set(names)
    for item in walk(diagram.items):
        used = (
            [item.sender, item.receiver]
            if isinstance(item, Message)
            else (item.over if isinstance(item, Note) else [])
        )
        for name in used:
            if name not in seen:
                seen.add(name)
                names.append(name)
    return names
