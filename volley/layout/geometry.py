"""The layout model: positioned boxes, lines and texts, in pixels, with no markup.

The engine builds it and the renderers only read it, so SVG, the raster formats and the
interactive viewer all draw exactly the same picture. Every text box is kept, so a test can
check that no two texts overlap and none leaves the picture.

The small values a shape is made of (a box, a run of text or an icon, an arrow head) are named
tuples: immutable, compared by value, and cheap to define and make, since a big diagram has
tens of thousands of them. The shapes that gather them are dataclasses compared by identity
(`eq=False`): a shape is one place in one picture, not a value, and comparing two pictures
field by field is what the painted output is for. Sequences a shape is built with once are
tuples.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal, NamedTuple

from volley.layout.metrics import CAP_HEIGHT
from volley.model import HeadStyle, LineStyle, NoteSide

Tone = Literal["text", "muted", "accent", "inverse", "note"]
Anchor = Literal["start", "middle", "end"]  # SVG's text-anchor
# How much of a line's width lies left of the point it is anchored at.
ANCHOR_SHARE: dict[Anchor, float] = {"start": 0.0, "middle": 0.5, "end": 1.0}


class Rect(NamedTuple):
    """An axis-aligned box: top-left corner (x, y), width and height. A value: equal boxes
    compare equal."""

    x: float
    y: float
    w: float
    h: float

    @property
    def right(self) -> float:
        return self.x + self.w

    @property
    def bottom(self) -> float:
        return self.y + self.h

    def overlaps(self, other: Rect, slack: float = 0.5) -> bool:
        """True when the two boxes share more than `slack` pixels in both directions."""
        return (
            min(self.right, other.right) - max(self.x, other.x) > slack
            and min(self.bottom, other.bottom) - max(self.y, other.y) > slack
        )

    def contains(self, other: Rect, slack: float = 0.5) -> bool:
        return (
            other.x >= self.x - slack
            and other.y >= self.y - slack
            and other.right <= self.right + slack
            and other.bottom <= self.bottom + slack
        )


class Run(NamedTuple):
    """A stretch of one style on one line, `dx` from the line's left edge, as the typesetter
    set it; an inline icon when `icon` is set, drawn `icon_size` high (see `TextLine.icon_top`).

    A line's runs are the typesetter's own (or the appendix's, for its code): placing a text
    moves its lines, not its runs, so a label set once is drawn wherever it goes without
    copying it.
    """

    dx: float
    text: str
    width: float
    bold: bool = False
    italic: bool = False
    strike: bool = False
    code: bool = False
    href: str | None = None
    icon: str | None = None  # "fas-plug": names the shared definition in the SVG
    icon_size: float = 0.0
    turn: str = ""  # an icon's rotation or flip, as Font Awesome names it: "rotate-90"
    missing: bool = False  # an unknown icon: drawn as a visible placeholder
    role: str | None = None  # a palette role colouring this run (syntax in the appendix)
    spaced: bool = False  # a space stood before it (a word of its own, not a word's piece)
    rtl: bool = False  # read right to left (its letters' bidi level is odd)


@dataclass(slots=True, eq=False)
class TextLine:
    """One line of text on `baseline`: its runs, each `dx` from the line's left edge `x`."""

    x: float
    baseline: float
    width: float
    size: float
    runs: tuple[Run, ...]
    mono: bool = False  # a code-block line: every run in the monospace face
    rtl: bool = False  # in a paragraph that reads right to left: drawn with that base direction
    # Which point of the line `x` and `width` fix, for a line of one run whose drawn width may
    # differ from the measured one: a right-to-left line keeps its end, or its middle, there.
    anchor: Anchor = "start"

    @property
    def middle(self) -> float:
        """The middle of the capitals: what an icon and a code patch are centred on."""
        return self.baseline - CAP_HEIGHT * self.size / 2

    def icon_top(self, run: Run) -> float:
        """Where an icon of this line starts."""
        return self.middle - run.icon_size / 2


@dataclass(slots=True, eq=False)
class TextBlock:
    """Lines of text and the box they fill, top-left (x, y), `w` by `h`: `box` is what must
    not overlap other text."""

    x: float
    y: float
    w: float
    h: float
    lines: tuple[TextLine, ...]
    tone: Tone = "text"
    halo: bool = False  # painted on a page-coloured patch, so lines crossing it do not strike it
    code_boxes: tuple[Rect, ...] = ()  # tinted patches behind inline code

    @property
    def box(self) -> Rect:
        return Rect(self.x, self.y, self.w, self.h)


@dataclass(slots=True, eq=False)
class Participant:
    """A participant: its lifeline's x, and its name in a box at the top and the bottom."""

    name: str
    index: int
    x: float  # the lifeline
    top: Rect
    bottom: Rect
    top_text: TextBlock
    bottom_text: TextBlock


@dataclass(slots=True, eq=False)
class Lifeline:
    """The dotted line below a participant."""

    index: int
    x: float
    segments: list[tuple[float, float]]  # (y1, y2) pieces: a delay breaks the line


@dataclass(slots=True, eq=False)
class ActivationBar:
    """A narrow bar on a participant's lifeline while it is active (`->+`, `activate A`);
    a bar opened inside another sits `depth` steps to the right of it."""

    index: int  # the participant's
    line: int  # the source line that opened it
    depth: int  # 0 for a bar opened while none was open
    box: Rect


class Head(NamedTuple):
    """An arrow head at `tip`, pointing along `direction` (+1 right, -1 left)."""

    style: HeadStyle
    tip: tuple[float, float]
    direction: int
    scale: float = 1.0


@dataclass(slots=True, eq=False)
class Badge:
    """The autonumber pill before a label."""

    box: Rect
    text: TextBlock


@dataclass(slots=True, eq=False)
class Marker:
    """The payload pill after a label; `number` is its body's in the appendix."""

    number: int
    box: Rect
    text: TextBlock
    contents: str = ""  # what it holds, one body a line: shown when a pointer rests on it


@dataclass(slots=True, eq=False)
class MessageShape:
    """An arrow with its label row: badge, label and payload marker."""

    number: int  # position in document order, from 1: the `data-message` hook
    line: int
    sender: str
    receiver: str
    points: tuple[tuple[float, float], ...]  # the arrow's polyline (2 points, or 4 for a self loop)
    line_style: LineStyle
    heads: tuple[Head, ...]
    label: TextBlock | None
    badge: Badge | None
    marker: Marker | None
    is_self: bool = False


class CodePanel(NamedTuple):
    """A tinted box behind code: an inline code run or a fenced block in a note."""

    box: Rect


class Rule(NamedTuple):
    """A thin line across at `y`, from `x1` to `x2`: between the rows of a note's table."""

    x1: float
    x2: float
    y: float


@dataclass(slots=True, eq=False)
class NoteShape:
    """A note box with its paragraphs, list bullets, code panels and its tables' rules (a
    table's header row is a code panel)."""

    line: int
    over: list[str]
    box: Rect
    texts: list[TextBlock]
    bullets: list[TextBlock]
    panels: list[CodePanel]
    rules: list[Rule] = field(default_factory=list)
    side: NoteSide = "over"  # over its lanes, or beside its one lane's lifeline


@dataclass(slots=True, eq=False)
class DividerShape:
    """A divider or section header across the picture (or across a frame, inside one)."""

    line: int
    style: str  # bold, regular, dashed, thin, delay
    y: float
    x1: float
    x2: float
    band: Rect | None  # the section header band (bold dividers)
    label: TextBlock | None
    pill: Rect | None  # the patch behind a plain divider's label, which hides the line


@dataclass(slots=True, eq=False)
class Separator:
    """An else/and line across a frame, with its label."""

    y: float
    keyword: TextBlock  # "else" or "and"
    label: TextBlock | None
    tab: list[tuple[float, float]]  # the keyword's tab, drawn as the block's kind tab is


@dataclass(slots=True, eq=False)
class BlockFrame:
    """The frame of an if/loop/par/... block, with its kind tab and label; for a rect, the
    highlight behind its items, with neither."""

    line: int
    kind: str
    depth: int
    box: Rect
    tab: list[tuple[float, float]]  # the kind tab's outline
    tab_text: TextBlock | None
    label: TextBlock | None
    separators: list[Separator]
    tint: str | None = None  # a rect's colour as written: the painter reads it


@dataclass(slots=True, eq=False)
class Band:
    """A box (Mermaid's): the band behind the participants it holds, from above their boxes
    to below those at the foot, with its label centred at the top."""

    line: int
    box: Rect
    label: TextBlock | None
    tint: str | None = None  # its colour as written: the painter reads it


@dataclass(slots=True, eq=False)
class AppendixBody:
    """One body in the appendix: its heading ("3 · Agent → MCP Server · POST /mcp · Request"),
    the panel behind it and its lines, wrapped to the panel and coloured by syntax; `note` says
    what is left out, or that the body is empty."""

    heading: TextBlock
    panel: CodePanel | None
    code: TextBlock | None
    note: TextBlock | None


@dataclass(slots=True, eq=False)
class AppendixEntry:
    """One payload-carrying message in the appendix: the bodies it carries, in and out."""

    number: int
    bodies: list[AppendixBody]

    def texts(self) -> list[TextBlock]:
        return [t for b in self.bodies for t in (b.heading, b.code, b.note) if t is not None]


@dataclass(slots=True, eq=False)
class Appendix:
    """The payloads listed under the picture (`bodies="appendix"`): a rule from `x1` to `x2`,
    the column's edges, a heading, and the entries."""

    heading: TextBlock
    rule_y: float
    x1: float
    x2: float
    entries: list[AppendixEntry]


@dataclass(slots=True, eq=False)
class Layout:
    """The whole picture: its size and every shape, in pixels."""

    width: float
    height: float
    title: TextBlock | None = None
    participants: list[Participant] = field(default_factory=list)
    lifelines: list[Lifeline] = field(default_factory=list)
    activations: list[ActivationBar] = field(default_factory=list)  # outer bars first
    messages: list[MessageShape] = field(default_factory=list)
    notes: list[NoteShape] = field(default_factory=list)
    dividers: list[DividerShape] = field(default_factory=list)
    frames: list[BlockFrame] = field(default_factory=list)
    bands: list[Band] = field(default_factory=list)
    appendix: Appendix | None = None
    icons: dict[str, tuple[float, float, str] | None] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)

    def text_blocks(self) -> list[TextBlock]:
        """Every text in the picture: the set that must not overlap and must stay inside."""
        out: list[TextBlock] = []
        if self.title:
            out.append(self.title)
        for p in self.participants:
            out += [p.top_text, p.bottom_text]
        for m in self.messages:
            out += [t for t in (m.label,) if t]
            if m.badge:
                out.append(m.badge.text)
            if m.marker:
                out.append(m.marker.text)
        for n in self.notes:
            out += n.texts + n.bullets
        for d in self.dividers:
            if d.label:
                out.append(d.label)
        for f in self.frames:
            if f.tab_text:
                out.append(f.tab_text)
            if f.label:
                out.append(f.label)
            for s in f.separators:
                out += [s.keyword] + ([s.label] if s.label else [])
        out += [band.label for band in self.bands if band.label]
        if self.appendix:
            out.append(self.appendix.heading)
            for e in self.appendix.entries:
                out += e.texts()
        return out
