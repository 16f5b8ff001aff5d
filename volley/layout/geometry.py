"""The layout model: positioned boxes, lines and texts, in pixels, with no markup.

The engine builds it and the renderers only read it, so SVG, the raster formats and the
interactive viewer all draw exactly the same picture. Every text box is kept, so a test can
check that no two texts overlap and none leaves the picture.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from volley.model import HeadStyle, LineStyle

Tone = Literal["text", "muted", "accent", "inverse", "note"]


class Record:
    """Base of the layout's records: one shared `__repr__` over the fields in `__slots__`.

    Most records are plain slotted classes with a written-out `__init__`, not dataclasses:
    `@dataclass` builds each class twice (for the slots) and compiles generated methods at
    import, which cost every `volley render` process about 0.15 ms a record. `Layout`,
    `Lifeline`, `BlockFrame` and `Appendix` stay dataclasses (`repr=False`, `eq=False`): the
    PDF pager copies them with `dataclasses.replace`. Nothing compares shapes but `Rect` (the
    renderers and the PDF pager go by identity).
    """

    __slots__ = ()

    def __repr__(self) -> str:
        names = type(self).__slots__
        values = ", ".join(f"{name}={getattr(self, name)!r}" for name in names)
        return f"{type(self).__name__}({values})"


class Rect(Record):
    """An axis-aligned box: top-left corner (x, y), width and height.

    Equal boxes compare equal (and so are unhashable). Not frozen, though nothing changes a
    box once made: a frozen class sets each field through `object.__setattr__`, which made
    building the layout's thousands of boxes several times slower.
    """

    __slots__ = ("x", "y", "w", "h")

    x: float
    y: float
    w: float
    h: float

    def __init__(self, x: float, y: float, w: float, h: float) -> None:
        self.x = x
        self.y = y
        self.w = w
        self.h = h

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__ or not isinstance(other, Rect):
            return NotImplemented
        return (self.x, self.y, self.w, self.h) == (other.x, other.y, other.w, other.h)

    __hash__ = None  # type: ignore[assignment]

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


class TextRun(Record):
    """A stretch of one style on one line, placed at its left edge."""

    __slots__ = ("x", "text", "width", "bold", "italic", "strike", "code", "href")

    x: float
    text: str
    width: float
    bold: bool
    italic: bool
    strike: bool
    code: bool
    href: str | None

    def __init__(
        self,
        x: float,
        text: str,
        width: float,
        bold: bool = False,
        italic: bool = False,
        strike: bool = False,
        code: bool = False,
        href: str | None = None,
    ) -> None:
        self.x = x
        self.text = text
        self.width = width
        self.bold = bold
        self.italic = italic
        self.strike = strike
        self.code = code
        self.href = href


class IconRun(Record):
    """An inline icon, its top-left at (x, y), drawn as a path scaled to `size` high."""

    __slots__ = ("x", "y", "width", "size", "key", "missing", "href")

    x: float
    y: float
    width: float
    size: float
    key: str  # "fas-plug": names the shared definition in the SVG
    missing: bool  # an unknown icon: drawn as a visible placeholder
    href: str | None

    def __init__(
        self,
        x: float,
        y: float,
        width: float,
        size: float,
        key: str,
        missing: bool = False,
        href: str | None = None,
    ) -> None:
        self.x = x
        self.y = y
        self.width = width
        self.size = size
        self.key = key
        self.missing = missing
        self.href = href


Run = TextRun | IconRun


class TextLine(Record):
    """One line of text: its runs, laid left to right from `x`, on `baseline`."""

    __slots__ = ("x", "baseline", "width", "size", "runs", "mono")

    x: float
    baseline: float
    width: float
    size: float
    runs: list[Run]
    mono: bool  # a code-block line: every run in the monospace face

    def __init__(
        self,
        x: float,
        baseline: float,
        width: float,
        size: float,
        runs: list[Run],
        mono: bool = False,
    ) -> None:
        self.x = x
        self.baseline = baseline
        self.width = width
        self.size = size
        self.runs = runs
        self.mono = mono


class TextBlock(Record):
    """Lines of text and the box they fill; `box` is what must not overlap other text."""

    __slots__ = ("box", "lines", "tone", "halo", "code_boxes")

    box: Rect
    lines: list[TextLine]
    tone: Tone
    halo: bool  # painted on a page-coloured patch, so lines crossing it do not strike it
    code_boxes: list[Rect]  # tinted patches behind inline code

    def __init__(
        self,
        box: Rect,
        lines: list[TextLine],
        tone: Tone = "text",
        halo: bool = False,
        code_boxes: list[Rect] | None = None,
    ) -> None:
        self.box = box
        self.lines = lines
        self.tone = tone
        self.halo = halo
        self.code_boxes = [] if code_boxes is None else code_boxes


class Participant(Record):
    """A participant: its lifeline's x, and its name in a box at the top and the bottom."""

    __slots__ = ("name", "index", "x", "top", "bottom", "top_text", "bottom_text")

    name: str
    index: int
    x: float  # the lifeline
    top: Rect
    bottom: Rect
    top_text: TextBlock
    bottom_text: TextBlock

    def __init__(
        self,
        name: str,
        index: int,
        x: float,
        top: Rect,
        bottom: Rect,
        top_text: TextBlock,
        bottom_text: TextBlock,
    ) -> None:
        self.name = name
        self.index = index
        self.x = x
        self.top = top
        self.bottom = bottom
        self.top_text = top_text
        self.bottom_text = bottom_text


@dataclass(slots=True, eq=False, repr=False)
class Lifeline(Record):
    """The dotted line below a participant."""

    index: int
    x: float
    segments: list[tuple[float, float]]  # (y1, y2) pieces: a delay breaks the line


class Head(Record):
    """An arrow head at `tip`, pointing along `direction` (+1 right, -1 left)."""

    __slots__ = ("style", "tip", "direction", "scale")

    style: HeadStyle
    tip: tuple[float, float]
    direction: int
    scale: float

    def __init__(
        self, style: HeadStyle, tip: tuple[float, float], direction: int, scale: float = 1.0
    ) -> None:
        self.style = style
        self.tip = tip
        self.direction = direction
        self.scale = scale


class Badge(Record):
    """The autonumber pill before a label."""

    __slots__ = ("box", "text")

    box: Rect
    text: TextBlock

    def __init__(self, box: Rect, text: TextBlock) -> None:
        self.box = box
        self.text = text


class Marker(Record):
    """The numbered payload pill after a label; `number` is its place in the appendix."""

    __slots__ = ("number", "box", "text")

    number: int
    box: Rect
    text: TextBlock

    def __init__(self, number: int, box: Rect, text: TextBlock) -> None:
        self.number = number
        self.box = box
        self.text = text


class MessageShape(Record):
    """An arrow with its label row: badge, label and payload marker."""

    __slots__ = (
        "number",
        "line",
        "sender",
        "receiver",
        "points",
        "line_style",
        "heads",
        "label",
        "badge",
        "marker",
        "is_self",
    )

    number: int  # position in document order, from 1: the `data-message` hook
    line: int
    sender: str
    receiver: str
    points: list[tuple[float, float]]  # the arrow's polyline (2 points, or 4 for a self loop)
    line_style: LineStyle
    heads: list[Head]
    label: TextBlock | None
    badge: Badge | None
    marker: Marker | None
    is_self: bool

    def __init__(
        self,
        number: int,
        line: int,
        sender: str,
        receiver: str,
        points: list[tuple[float, float]],
        line_style: LineStyle,
        heads: list[Head],
        label: TextBlock | None,
        badge: Badge | None,
        marker: Marker | None,
        is_self: bool = False,
    ) -> None:
        self.number = number
        self.line = line
        self.sender = sender
        self.receiver = receiver
        self.points = points
        self.line_style = line_style
        self.heads = heads
        self.label = label
        self.badge = badge
        self.marker = marker
        self.is_self = is_self


class CodePanel(Record):
    """A tinted box behind code: an inline code run or a fenced block in a note."""

    __slots__ = ("box",)

    box: Rect

    def __init__(self, box: Rect) -> None:
        self.box = box


class NoteShape(Record):
    """A note box with its paragraphs, list bullets and code panels."""

    __slots__ = ("line", "over", "box", "texts", "bullets", "panels")

    line: int
    over: list[str]
    box: Rect
    texts: list[TextBlock]
    bullets: list[TextBlock]
    panels: list[CodePanel]

    def __init__(
        self,
        line: int,
        over: list[str],
        box: Rect,
        texts: list[TextBlock],
        bullets: list[TextBlock],
        panels: list[CodePanel],
    ) -> None:
        self.line = line
        self.over = over
        self.box = box
        self.texts = texts
        self.bullets = bullets
        self.panels = panels


class DividerShape(Record):
    """A divider or section header across the picture (or across a frame, inside one)."""

    __slots__ = ("line", "style", "y", "x1", "x2", "band", "label", "pill")

    line: int
    style: str  # bold, regular, dashed, thin, delay
    y: float
    x1: float
    x2: float
    band: Rect | None  # the section header band (bold dividers)
    label: TextBlock | None
    pill: Rect | None  # the patch behind a plain divider's label, which hides the line

    def __init__(
        self,
        line: int,
        style: str,
        y: float,
        x1: float,
        x2: float,
        band: Rect | None,
        label: TextBlock | None,
        pill: Rect | None,
    ) -> None:
        self.line = line
        self.style = style
        self.y = y
        self.x1 = x1
        self.x2 = x2
        self.band = band
        self.label = label
        self.pill = pill


class Separator(Record):
    """An else/and line across a frame, with its label."""

    __slots__ = ("y", "keyword", "label")

    y: float
    keyword: TextBlock  # "else" or "and"
    label: TextBlock | None

    def __init__(self, y: float, keyword: TextBlock, label: TextBlock | None) -> None:
        self.y = y
        self.keyword = keyword
        self.label = label


@dataclass(slots=True, eq=False, repr=False)
class BlockFrame(Record):
    """The frame of an if/loop/par/... block, with its kind tab and label."""

    line: int
    kind: str
    depth: int
    box: Rect
    tab: list[tuple[float, float]]  # the kind tab's outline
    tab_text: TextBlock
    label: TextBlock | None
    separators: list[Separator]


class AppendixEntry(Record):
    """One payload-carrying message in the appendix: its heading, marker and bodies."""

    __slots__ = ("number", "heading", "panels", "texts", "marker")

    number: int
    heading: TextBlock
    panels: list[CodePanel]
    texts: list[TextBlock]  # payload labels, body lines, trim notes
    marker: Marker  # the same pill the arrow shows

    def __init__(
        self,
        number: int,
        heading: TextBlock,
        panels: list[CodePanel],
        texts: list[TextBlock],
        marker: Marker,
    ) -> None:
        self.number = number
        self.heading = heading
        self.panels = panels
        self.texts = texts
        self.marker = marker


@dataclass(slots=True, eq=False, repr=False)
class Appendix(Record):
    """The payloads listed under the picture (`bodies="appendix"`)."""

    heading: TextBlock
    rule_y: float
    entries: list[AppendixEntry]


@dataclass(slots=True, eq=False, repr=False)
class Layout(Record):
    """The whole picture: its size and every shape, in pixels."""

    width: float
    height: float
    title: TextBlock | None = None
    participants: list[Participant] = field(default_factory=list)
    lifelines: list[Lifeline] = field(default_factory=list)
    messages: list[MessageShape] = field(default_factory=list)
    notes: list[NoteShape] = field(default_factory=list)
    dividers: list[DividerShape] = field(default_factory=list)
    frames: list[BlockFrame] = field(default_factory=list)
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
            out.append(f.tab_text)
            if f.label:
                out.append(f.label)
            for s in f.separators:
                out += [s.keyword] + ([s.label] if s.label else [])
        if self.appendix:
            out.append(self.appendix.heading)
            for e in self.appendix.entries:
                out += [e.heading, e.marker.text, *e.texts]
        return out
