"""Layout → SVG text, through the `svg/diagram.svg` template.

This module only turns the layout model into plain data the templates print: numbers formatted
once (two decimals, no float-repr surprises, so output is byte-identical everywhere), colours
looked up from the theme, outlines of heads and notes computed. It writes no markup, and
escapes nothing itself: the templates hold the markup, and autoescape every string.

Each value a template prints costs an escape call, and a picture repeats some tags thousands of
times (a message's group, arrow and heads, a label's halo and `<text>` tag, a payload marker).
Those tags are stamps: macros of `svg/shapes.svg`, each rendered once per theme and constant
arguments (`stamp`) with a hole for each number, then filled here for every shape by one `%`
format. A hole takes only a number, or a participant's name as the template escaped it, so a
filled stamp is trusted markup (`Fragment`) that `diagram.svg` prints as it is, while it prints,
and escapes, every label, note and link itself. The rows it loops over (participants,
messages, notes, blocks, text lines) reach it as flat tuples it unpacks in its loop headers.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from types import SimpleNamespace as NS

from jinja2 import Environment, FileSystemLoader, StrictUndefined, select_autoescape

from volley.inline import plain_text
from volley.layout import constants as C
from volley.layout.geometry import (
    Head,
    IconRun,
    Layout,
    MessageShape,
    Rect,
    TextBlock,
    TextLine,
    TextRun,
)
from volley.layout.metrics import FONT_FAMILY, MONO_FAMILY
from volley.layout.textwrap import CODE_SCALE
from volley.layout.typeset import clean_text
from volley.model import Diagram
from volley.render.themes import dark_mode_css, palette
from volley.resources import resource_dir, template_cache

Colours = Mapping[str, str]
_NONE: tuple = ()
# The raster variant of the SVG names this private text-rendering mode, which `raster` reads.
# cairo rounds glyph advances to whole pixels by default ("hint metrics"), which drifts text away
# from the widths the layout measured: a space after a comma vanishes at scale 1. The mode turns
# that off and leaves everything else at cairo's defaults (geometricPrecision would also change
# antialiasing). Defined here so that an SVG render does not import `raster`.
TEXT_RENDERING = "volley-measured"
_ID_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-")


@cache
def environment() -> Environment:
    """One compiled environment per process; `.svg` templates are autoescaped explicitly.

    `auto_reload=False`: the templates ship with the package, so a render never stats them.
    """
    return Environment(
        loader=FileSystemLoader(str(resource_dir("templates"))),
        autoescape=select_autoescape(enabled_extensions=("svg", "html", "xml"), default=True),
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        auto_reload=False,
        bytecode_cache=template_cache(__file__),
    )


def safe_id(prefix: str) -> str:
    """An id prefix that is a valid XML name and CSS identifier."""
    cleaned = "".join([c if c in _ID_CHARS else "-" for c in prefix]) or "volley"
    return cleaned if cleaned[0].isalpha() else "v" + cleaned


def render_svg(
    layout: Layout,
    diagram: Diagram,
    *,
    theme: str = "light",
    id_prefix: str,
    raster: bool = False,
    window: tuple[float, float] | None = None,
) -> str:
    """The SVG document. `raster` gives the variant for cairosvg: plain colours, no CSS, and no
    description (nothing draws it, and a PDF page would repeat every message in it).

    `window` (top, height) shows only that band of the picture, for one page of a PDF.
    """
    if len(_TEXTS) > 200_000:  # a bound for a long-lived process
        _TEXTS.clear()
    top, height = window or (0.0, layout.height)
    colours = palette(theme)
    prefix = safe_id(id_prefix)
    css = dark_mode_css(prefix) if theme == "auto" and not raster else ""
    painter = _Painter(colours, prefix)
    context = {
        "p": prefix,
        "w": num(layout.width),
        "h": num(height),
        "top": num(top),
        "font": FONT_FAMILY,
        "title": _title(diagram),
        "desc": "" if raster else _description(diagram),
        "css": css,
        "bg": colours["bg"],
        "code": colours["code"],
        "mono": MONO_FAMILY,
        "icons": painter.icons(layout),
        "frames": [painter.frame(f) for f in layout.frames],
        "lifelines": [piece for line in layout.lifelines for piece in painter.lifeline(line)],
        "dividers": [painter.divider(d) for d in layout.dividers],
        "participants": [painter.participant(p) for p in layout.participants],
        "messages": map(painter.message, layout.messages),
        "notes": [painter.note(n) for n in layout.notes],
        "heading": painter.text(layout.title, "title") if layout.title else None,
        "appendix": painter.appendix(layout) if layout.appendix else None,
        "text_rendering": TEXT_RENDERING if raster else None,
    }
    return environment().get_template("svg/diagram.svg").render(context)


# --- numbers ---------------------------------------------------------------------------------


# The decimals of each count of hundredths below 100: "", ".01", ..., ".1", ..., ".99".
_DECIMALS = tuple(["", *[f".{n:02d}".rstrip("0") for n in range(1, 100)]])


class _Texts(dict):
    """Each coordinate's text, keyed by the value: `_TEXTS[x]` is one dictionary lookup, and
    only a value not seen before calls Python code. A picture repeats its coordinates, but each
    new one (most of a fresh process's) is written from its integer count of hundredths, which
    is exact at any size and about twice as fast as formatting a float. `render_svg` keeps the
    size bounded for a long-lived process."""

    def __missing__(self, value: float) -> str:
        hundredths = round(value * 100)
        if hundredths >= 0:
            text = f"{hundredths // 100}{_DECIMALS[hundredths % 100]}"
        else:
            hundredths = -hundredths
            text = f"-{hundredths // 100}{_DECIMALS[hundredths % 100]}"
        self[value] = text
        return text


_TEXTS = _Texts()


def num(value: float) -> str:
    """A coordinate as text: two decimals at most, no trailing zeros, never "-0".

    Rounded through an integer count of hundredths, so the text never depends on float repr.
    """
    return _TEXTS[value]


def _points(points: list[tuple[float, float]]) -> str:
    t = _TEXTS
    if len(points) == 2:  # a straight arrow, the common path
        (x1, y1), (x2, y2) = points
        return f"M{t[x1]} {t[y1]} L{t[x2]} {t[y2]}"
    return "M" + " L".join([f"{t[x]} {t[y]}" for x, y in points])


# --- stamps ----------------------------------------------------------------------------------


class Fragment(str):
    """A filled stamp: `__html__` tells autoescape to print it as it is. Built by `str`'s own
    constructor, several times cheaper than `Markup`'s."""

    __slots__ = ()
    __html__ = str.__str__


_HOLE = "\x00"  # XML cannot hold U+0000, so no template text has one
_STAMPS: dict[tuple, str] = {}


@cache
def _shapes():
    return environment().get_template("svg/shapes.svg").module


def stamp(name: str, *constants: object, **fixed: object) -> str:
    """The `svg/shapes.svg` macro `name` as a `%` pattern: rendered with these leading (and
    `fixed` named) arguments, which the template escapes like any value, and a hole for each
    other one, which the caller fills in order. Kept for the process: a theme needs a few dozen.
    """
    key = (name, constants, *fixed.items())
    pattern = _STAMPS.get(key)
    if pattern is None:
        macro = getattr(_shapes(), name)
        holes = [a for a in macro.arguments[len(constants) :] if a not in fixed]
        values = dict(zip(macro.arguments, constants, strict=False), **fixed)
        values.update((a, f"{_HOLE}{i}{_HOLE}") for i, a in enumerate(holes))
        pieces = str(macro(**values)).split(_HOLE)  # text, "0", text, "1", ..., text
        if pieces[1::2] != [str(i) for i in range(len(holes))]:
            raise ValueError(f"svg/shapes.svg: {name} must print each hole once, in order")
        if len(_STAMPS) > 2_000:  # icon ids differ per picture; the rest are few
            _STAMPS.clear()
        pattern = _STAMPS[key] = "%s".join(p.replace("%", "%%") for p in pieces[::2])
    return pattern


def _box(x: float, y: float, w: float, h: float) -> Fragment:
    """A box's x, y, width and height attributes."""
    t = _TEXTS
    return Fragment(stamp("box") % (t[x], t[y], t[w], t[h]))


def _rect(r: Rect) -> Fragment:
    return _box(r.x, r.y, r.w, r.h)


# --- accessibility ---------------------------------------------------------------------------


def _title(diagram: Diagram) -> str:
    if diagram.title:
        return clean_text(plain_text(diagram.title))
    return "Sequence diagram"


def _description(diagram: Diagram) -> str:
    """What a screen reader says: who takes part, then each message in order."""
    names = ", ".join(diagram.participants)
    steps = []
    for n, m in enumerate(diagram.messages(), 1):
        label = plain_text(m.label)
        steps.append(f"{n}. {m.sender} to {m.receiver}" + (f": {label}." if label else "."))
    head = f"Sequence diagram between {names}." if names else "Sequence diagram."
    return clean_text(" ".join([head, *steps]))


# --- painting --------------------------------------------------------------------------------


# Per palette, the stamps that hold only its colours and constants, for the next picture: a
# docs build paints hundreds. The palette itself is kept too, so its id is never reused.
_KEPT: dict[int, tuple[Colours, dict[tuple, str], dict[tuple, str]]] = {}


class _Painter:
    """Turns layout shapes into template data, with colours from one palette."""

    def __init__(self, colours: Colours, prefix: str) -> None:
        self.c = colours
        self.p = prefix
        self._names: dict[str, str] = {}
        kept = _KEPT.get(id(colours)) or _KEPT.setdefault(id(colours), (colours, {}, {}))
        # (class, role, size, mono, preserve, bold, italic) → stamp; a message's kind → stamps
        self._texts, self._shapes = kept[1], kept[2]
        self._icons: dict[tuple[str, str], str] = {}  # (role, icon) → stamp
        self._markers: dict[tuple, str] = {}  # (role, size, bold, italic, icon) → stamp
        self._halo = stamp("halo", colours["bg"])
        self._code: str | None = None
        self._note: str | None = None
        self._frame: str | None = None
        self._separator = ""  # made with `_frame`
        self._marker: str | None = None

    # Text.

    def text(self, block: TextBlock, cls: str) -> tuple:
        """(halo, code patches, lines): what the template's `text` macro draws."""
        role = "text" if block.tone == "note" else block.tone
        halo = self._halo_of(block.box) if block.halo else None
        boxes = _NONE
        if block.code_boxes:
            code = self._code_stamp()
            boxes = [_fill(code, r) for r in block.code_boxes]
        lines = block.lines
        if len(lines) == 1:
            return (halo, boxes, [self._line(lines[0], cls, role)])
        return (halo, boxes, [self._line(line, cls, role) for line in lines])

    def _code_stamp(self) -> str:
        if self._code is None:
            self._code = stamp("code", self.c["code"])
        return self._code

    def _halo_of(self, r: Rect) -> Fragment:
        """The patch behind a label."""
        return Fragment(self._halo % _grown(r))

    def _text_stamp(self, cls, role, size, mono, preserve, bold, italic) -> str:
        """The `text` stamp for a line of one run; `bold` None: of several runs, unplaced."""
        key = (cls, role, size, mono, preserve, bold, italic)
        pattern = self._texts.get(key)
        if pattern is None:
            shared = (cls, role, self.c[role], num(size), MONO_FAMILY if mono else None, preserve)
            pattern = self._texts[key] = (
                stamp("text", *shared, False, False, x=None, y=None) % ()
                if bold is None
                else stamp("text", *shared, bold, italic)
            )
        return pattern

    def _line(self, line: TextLine, cls: str, role: str) -> tuple:
        """(`<text>` tag, text of a one-run line, runs, icons, strikes).

        A line of one run (most lines) has its place in its stamped tag, so the template prints
        two values for it: the tag and the text.
        """
        t, runs = _TEXTS, line.runs
        if len(runs) == 1 and not line.mono:  # the common line, without the lists below
            run = runs[0]
            if run.__class__ is TextRun and run.text and not (run.code or run.href or run.strike):
                text = run.text
                key = (cls, role, line.size, False, _needs_preserve(text), run.bold, run.italic)
                pattern = self._texts.get(key) or self._text_stamp(*key)
                tag = Fragment(pattern % (t[run.x], t[line.baseline]))
                return (tag, text, _NONE, _NONE, _NONE)
        texts, icons = [], []
        for r in runs:
            if r.__class__ is TextRun:
                if r.text:
                    texts.append(r)
            else:
                icons.append(self._icon_use(r, role))
        mono, size = line.mono, line.size
        preserve = mono or any(_needs_preserve(r.text) for r in texts)
        if len(texts) == 1 and not (texts[0].code or texts[0].href or texts[0].strike):
            first = texts[0]
            pattern = self._text_stamp(cls, role, size, mono, preserve, first.bold, first.italic)
            tag = Fragment(pattern % (t[first.x], t[line.baseline]))
            return (tag, first.text, _NONE, icons or _NONE, _NONE)
        tag = Fragment(self._text_stamp(cls, role, size, mono, preserve, None, None))
        y = t[line.baseline]
        items = [self._run(r, y, size) for r in texts]
        strikes = _NONE
        if any(r.strike for r in texts):
            pattern = stamp("strike", role, self.c[role])
            sy = t[line.baseline - size * 0.3]
            strikes = [
                Fragment(pattern % (t[r.x], sy, t[r.x + r.width], sy)) for r in texts if r.strike
            ]
        return (tag, None, items, icons or _NONE, strikes)

    def _run(self, run: TextRun, y: str, size: float) -> tuple:
        """(href, x, y, bold, italic, code size, link colour, text) of one `<tspan>`."""
        return (
            run.href,
            num(run.x),
            y,
            run.bold,
            run.italic,
            num(size * CODE_SCALE) if run.code else None,
            self.c["accent"] if run.href else None,
            run.text,
        )

    def _icon_use(self, run: IconRun, role: str) -> tuple:
        """(link, stamped tag) of an inline icon, or of the placeholder of a missing one."""
        t = _TEXTS
        box = (t[run.x], t[run.y], t[run.width], t[run.size])
        if run.missing:
            return (None, Fragment(stamp("missing_icon", self.c["missing"]) % box))
        pattern = self._icons.get((role, run.key))
        if pattern is None:
            icon = f"{self.p}-icon-{run.key}"
            pattern = self._icons[(role, run.key)] = stamp("icon", role, icon, self.c[role])
        return (run.href, Fragment(pattern % box))

    def icons(self, layout: Layout) -> list[NS]:
        return [
            NS(id=f"{self.p}-icon-{key}", vb=f"0 0 {shape[0]} {shape[1]}", d=shape[2])
            for key, shape in layout.icons.items()
            if shape is not None
        ]

    # Shapes.

    def participant(self, p) -> tuple:
        """(index, name, boxes): each box (its stamped box and shadow, its name's text)."""
        c = self.c
        pattern = stamp(
            "participant", num(C.PARTICIPANT_RADIUS), num(C.PARTICIPANT_SHADOW), c["shadow"],
            c["surface"], c["border"],
        )  # fmt: skip
        boxes = []
        for box, text in ((p.top, p.top_text), (p.bottom, p.bottom_text)):
            t = _TEXTS
            place = (t[box.x], t[box.y], t[box.w], t[box.h])
            boxes.append((Fragment(pattern % (place + place)), self.text(text, "name")))
        return (p.index, clean_text(p.name), boxes)

    def lifeline(self, line) -> list[Fragment]:
        """Each piece of the lifeline, stamped."""
        t, x = _TEXTS, num(line.x)
        pattern = stamp("lifeline", self.c["lifeline"], C.LIFELINE_DASH)
        return [Fragment(pattern % (line.index, x, t[a], x, t[b])) for a, b in line.segments]

    def message(self, m: MessageShape) -> tuple:
        """(shape, plain label lines, label block, badge, badge block, marker, marker block):
        the flat tuple the template's message loop unpacks.

        `shape` is the group's tag, the arrow, its heads and the halo of a label drawn by the
        loop, in one stamped fragment: the stamps of a message's kind are joined into one
        pattern, filled by one format. A label whose lines are all plain single runs goes as
        its lines, drawn by the loop without a macro call; any other as a block for `text`.
        """
        marker, block = m.marker, m.label
        hit, d, kinds, outlines = _arrow(m.points, m.heads)
        names = self._names
        sender = names.get(m.sender) or self._name(m.sender)
        values = [m.number, m.line, sender, names.get(m.receiver) or self._name(m.receiver)]
        if marker:
            values.append(marker.number)
        values += (hit, d, *outlines)
        plain = label = None
        halo, tail = False, None  # a one-line label's halo joins the stamps, another's follows
        if block:
            lines = block.lines
            if len(lines) == 1 and not block.code_boxes:  # most labels: skip the generic walk
                role = "text" if block.tone == "note" else block.tone
                line = self._line(lines[0], "label", role)
                if line[1] and not line[3]:
                    plain = [line]
                    if block.halo:
                        values += _grown(block.box)
                        halo = True
                else:
                    label = (self._halo_of(block.box) if block.halo else None, _NONE, [line])
            else:
                label = self.text(block, "label")
                if not label[1] and all(line[1] and not line[3] for line in label[2]):
                    plain, tail, label = label[2], label[0], None
        key = (m.is_self, marker is None, m.line_style, kinds, halo)
        shape = (self._shapes.get(key) or self._shape_stamp(*key)) % tuple(values)
        if tail:
            shape += "\n" + tail
        badge = badge_block = mark = mark_block = None
        if m.badge:
            badge = self._numbered_badge(m.badge)
            if badge is None:
                badge_block = self._badge(m.badge)
        if marker:
            mark = self._payload_marker(marker)
            if mark is None:
                mark_block = self._pill(marker)
        return (Fragment(shape), plain, label, badge, badge_block, mark, mark_block)

    def _shape_stamp(self, is_self: bool, bare: bool, style: str, kinds: tuple, halo: bool):
        """A message kind's stamps, one to a line: its group, arrow, heads and label halo."""
        width = num(C.BOLD_LINE_WIDTH if style == "bold" else C.LINE_WIDTH)
        line, dash = self.c["line"], C.DASH if style == "dashed" else None
        parts = [
            stamp("message", is_self, **({"payload": None} if bare else {})),
            stamp("arrow", style, line, width, dash, num(C.HIT_WIDTH)),
            *[stamp("head", kind, line, width) for kind in kinds],
        ]
        if halo:
            parts.append(self._halo)
        pattern = self._shapes[(is_self, bare, style, kinds, halo)] = "\n".join(parts)
        return pattern

    def _payload_marker(self, marker) -> Fragment | None:
        """A marker of the usual make (its icon, then its number) as one stamped fragment;
        None for any other, which the `pill` macro draws."""
        found = _numbered(marker.text)
        if found is None or found[3] is None:
            return None
        role, line, number, icon = found
        key = (role, line.size, number.bold, number.italic, icon.key)
        pattern = self._markers.get(key)
        if pattern is None:
            c = self.c
            pattern = self._markers[key] = stamp(
                "payload_marker", c["accent_soft"], c["accent"], num(C.MARKER_RADIUS), role,
                c[role], num(line.size), number.bold, number.italic, f"{self.p}-icon-{icon.key}",
            )  # fmt: skip
        t, box = _TEXTS, marker.box
        return Fragment(
            pattern
            % (t[box.x], t[box.y], t[box.w], t[box.h], t[number.x], t[line.baseline], number.text,
               t[icon.x], t[icon.y], t[icon.width], t[icon.size])
        )  # fmt: skip

    def _numbered_badge(self, badge) -> Fragment | None:
        """A badge of the usual make (its number alone) as one stamped fragment; None for any
        other, which the `pill` macro draws."""
        found = _numbered(badge.text)
        if found is None or found[3] is not None:
            return None
        role, line, number, _ = found
        c, t, box = self.c, _TEXTS, badge.box
        pattern = stamp(
            "numbered_badge", c["badge"], role, c[role], num(line.size), number.bold,
            number.italic,
        )  # fmt: skip
        return Fragment(
            pattern
            % (t[box.x], t[box.y], t[box.w], t[box.h], t[box.h / 2], t[number.x],
               t[line.baseline], number.text)
        )  # fmt: skip

    def _name(self, name: str) -> str:
        """A participant's name as shown, escaped by the `escaped` stamp, for the holes of a
        message's group: cleaned and escaped once per name, not once per message."""
        shown = self._names.get(name)
        if shown is None:
            shown = self._names[name] = stamp("escaped", clean_text(name)) % ()
        return shown

    def _badge(self, badge) -> tuple:
        box, t = badge.box, _TEXTS
        pattern = stamp("badge", self.c["badge"])
        pill = Fragment(pattern % (t[box.x], t[box.y], t[box.w], t[box.h], t[box.h / 2]))
        return (pill, self.text(badge.text, "badge"))

    def _pill(self, marker) -> tuple:
        """(pill, text block): what the template's `pill` macro draws."""
        if self._marker is None:
            c = self.c
            self._marker = stamp("marker", c["accent_soft"], c["accent"], num(C.MARKER_RADIUS))
        return (_fill(self._marker, marker.box), self.text(marker.text, "marker-text"))

    def note(self, note) -> tuple:
        """(line, over, paper, code panels, bullets, texts): a row of the template's note loop."""
        b, f = note.box, C.NOTE_FOLD
        outline = [(b.x, b.y), (b.right - f, b.y), (b.right, b.y + f), (b.right, b.bottom),
                   (b.x, b.bottom)]  # fmt: skip
        fold = [(b.right - f, b.y), (b.right - f, b.y + f), (b.right, b.y + f)]
        if self._note is None:
            self._note = stamp("note", self.c["note"], self.c["note_border"])
        code = self._code_stamp()
        return (
            note.line,
            clean_text(",".join(note.over)),
            Fragment(self._note % (_points(outline) + " Z", _points(fold) + " Z")),
            [_fill(code, p.box) for p in note.panels],
            [self.text(t, "bullet") for t in note.bullets],
            [self.text(t, "note-text") for t in note.texts],
        )

    def divider(self, d) -> NS:
        out = NS(
            line=d.line,
            style=d.style,
            x1=num(d.x1),
            x2=num(d.x2),
            y=num(d.y),
            label=self.text(d.label, "section-label" if d.band else "divider-label")
            if d.label
            else None,
            colour=self.c["divider"],
            bg=self.c["bg"],
            band=None,
            pill=_rect(d.pill) if d.pill else None,
            pill_r=num(d.pill.h / 2) if d.pill else None,
            dash="5 4" if d.style == "dashed" else None,
            width="0.75" if d.style == "thin" else "1",
        )
        if d.band:
            out.band = _rect(d.band)
            out.accent_bar = _box(d.band.x, d.band.y, C.SECTION_ACCENT_WIDTH, d.band.h)
            out.band_fill = self.c["accent_soft"]
            out.accent = self.c["accent"]
        return out

    def frame(self, f) -> tuple:
        """(kind, line, depth, frame and tab, tab text, label, separators): a row of the
        template's block loop; each separator (its line, keyword, branch label)."""
        if self._frame is None:
            c = self.c
            self._frame = stamp("frame", num(C.BLOCK_RADIUS), c["frame"], c["tab"])
            self._separator = stamp("separator", c["frame"])
        t, b = _TEXTS, f.box
        x1, x2 = t[b.x], t[b.right]
        return (
            f.kind,
            f.line,
            f.depth,
            Fragment(self._frame % (x1, t[b.y], t[b.w], t[b.h], _points(f.tab) + " Z")),
            self.text(f.tab_text, "block-kind"),
            self.text(f.label, "block-label") if f.label else None,
            [
                (
                    Fragment(self._separator % (x1, t[s.y], x2, t[s.y])),
                    self.text(s.keyword, "block-kind"),
                    self.text(s.label, "block-label") if s.label else None,
                )
                for s in f.separators
            ],
        )

    def appendix(self, layout: Layout) -> NS:
        a = layout.appendix
        assert a is not None
        return NS(
            x1=num(C.MARGIN),
            x2=num(layout.width - C.MARGIN),
            y=num(a.rule_y),
            colour=self.c["divider"],
            heading=self.text(a.heading, "appendix-heading"),
            entries=[
                NS(
                    number=e.number,
                    marker=self._pill(e.marker),
                    heading=self.text(e.heading, "appendix-label"),
                    panels=[_rect(p.box) for p in e.panels],
                    texts=[self.text(t, "appendix-text") for t in e.texts],
                )
                for e in a.entries
            ],
            code=self.c["code"],
        )


def _fill(pattern: str, r: Rect) -> Fragment:
    """A stamp whose numbers are a box's x, y, width and height."""
    t = _TEXTS
    return Fragment(pattern % (t[r.x], t[r.y], t[r.w], t[r.h]))


def _numbered(block: TextBlock) -> tuple | None:
    """(role, line, number run, icon run or None) of a block that is one line of a number,
    after an icon or not (a payload marker, an autonumber badge); None for any other."""
    if block.halo or block.code_boxes or len(block.lines) != 1:
        return None
    line = block.lines[0]
    runs = line.runs
    if line.mono or not 1 <= len(runs) <= 2:
        return None
    number, icon = runs[-1], runs[0] if len(runs) == 2 else None
    if icon is not None and not (icon.__class__ is IconRun and not (icon.missing or icon.href)):
        return None
    if not (
        number.__class__ is TextRun
        and number.text.isascii()
        and number.text.isdigit()
        and not (number.code or number.href or number.strike)
    ):
        return None
    return ("text" if block.tone == "note" else block.tone, line, number, icon)


def _needs_preserve(text: str) -> bool:
    """Whether the text has spaces SVG would otherwise collapse or drop."""
    return text[:1] == " " or text[-1:] == " " or "  " in text or "\t" in text


def _grown(r: Rect) -> tuple[str, str, str, str]:
    """The x, y, width and height of a label's halo: its box grown by `LABEL_HALO`."""
    by, t = C.LABEL_HALO, _TEXTS
    return (t[r.x - by], t[r.y - by / 2], t[r.w + 2 * by], t[r.h + by])


_FILLED = ("filled",)


def _arrow(points, heads: list[Head]) -> tuple[str, str, tuple[str, ...], list[str]]:
    """The hit path, the drawn path, and the heads' kinds and outlines of one arrow."""
    if len(heads) == 1 and len(points) == 2:  # a plain arrow: the common case, inline
        head = heads[0]
        (nx, ny), (x, y) = points
        if head.style == "filled" and head.tip == (x, y) != (nx, ny):
            t, d, s = _TEXTS, head.direction, head.scale  # stop the line short of the tip
            length = abs(nx - x) + abs(ny - y) or 1.0
            k = min(C.HEAD_LENGTH * s * 0.8 / length, 0.5)
            end, back = x + (nx - x) * k, x - d * (C.HEAD_LENGTH * s)
            half = C.HEAD_HALF_WIDTH * s
            start, tx, ty = f"M{t[nx]} {t[ny]} L", t[x], t[y]
            return (
                f"{start}{tx} {ty}",
                f"{start}{t[end]} {t[y + (ny - y) * k]}",
                _FILLED,
                [f"M{tx} {ty} L{t[back]} {t[y - half]} L{t[back]} {t[y + half]} Z"],
            )
    hit = _points(points)
    if not heads:
        return hit, hit, (), []
    trimmed = _trim_for_heads(points, heads)
    drawn = hit if trimmed == points else _points(trimmed)
    return hit, drawn, tuple([h.style for h in heads]), [_head(h) for h in heads]


def _trim_for_heads(points, heads: list[Head]):
    """Stop the line short of a filled head, so a dash or a bold line never shows past the tip."""
    pts = list(points)
    for head in heads:
        if head.style != "filled":
            continue
        inset = C.HEAD_LENGTH * head.scale * 0.8
        for end, nxt in ((0, 1), (-1, -2)):
            if pts[end] == head.tip:
                (x, y), (nx, ny) = pts[end], pts[nxt]
                length = abs(nx - x) + abs(ny - y) or 1.0
                k = min(inset / length, 0.5)
                pts[end] = (x + (nx - x) * k, y + (ny - y) * k)
                break
    return pts


def _head(head: Head) -> str:
    """The head's outline: a filled triangle, an open V, or a cross."""
    (x, y), d, s, t = head.tip, head.direction, head.scale, _TEXTS
    if head.style == "cross":
        k = C.CROSS_SIZE * s
        return (
            f"M{t[x - k]} {t[y - k]} L{t[x + k]} {t[y + k]} "
            f"M{t[x - k]} {t[y + k]} L{t[x + k]} {t[y - k]}"
        )
    length, half = C.HEAD_LENGTH * s, C.HEAD_HALF_WIDTH * s
    back = x - d * length
    if head.style == "open":
        return f"M{t[back]} {t[y - half - 0.5]} L{t[x]} {t[y]} L{t[back]} {t[y + half + 0.5]}"
    return f"M{t[x]} {t[y]} L{t[back]} {t[y - half]} L{t[back]} {t[y + half]} Z"
