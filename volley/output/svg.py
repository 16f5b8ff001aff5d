"""Layout → SVG text, from the tags of `svg/diagram.svg`.

The template holds the markup, as macros; `volley.output.stamps` renders each once per theme
and constant arguments, with a hole for each value, and this module fills the holes for every
shape (one `%` format each) and puts the tags together in the template's order. It writes no
markup itself. What fills a hole is a number (formatted once: two decimals, no float-repr
surprises, so output is byte-identical everywhere), markup stamped from the template, or text
passed through `escape` (autoescape's escaping, to the byte): every label, name, note, title,
link and icon id a user wrote reaches the picture as text, never as markup.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import get_args

from volley.text.inline import plain_text
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
from volley.model import Diagram, DividerStyle
from volley.output.stamps import forget_stamps, named_stamp, save_stamps, stamp
from volley.output.themes import dark_mode_css, palette

Colours = Mapping[str, str]
# The raster variant of the SVG names this private text-rendering mode, which `raster` reads.
# cairo rounds glyph advances to whole pixels by default ("hint metrics"), which drifts text away
# from the widths the layout measured: a space after a comma vanishes at scale 1. The mode turns
# that off and leaves everything else at cairo's defaults (geometricPrecision would also change
# antialiasing). Defined here so that an SVG render does not import `raster`.
TEXT_RENDERING = "volley-measured"
_DIVIDER_STYLES = get_args(DividerStyle)
_ID_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-")


def escape(text: str) -> str:
    """The same bytes as MarkupSafe's `escape` (which Jinja's autoescape uses), as a plain
    string: the five characters that could end a text or an attribute become references.
    Five scans that find nothing return the text itself, so most texts cost next to nothing.
    """
    return (
        text.replace("&", "&amp;")
        .replace("<", "&lt;")
        .replace(">", "&gt;")
        .replace('"', "&#34;")
        .replace("'", "&#39;")
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
    try:
        svg = _document(layout, diagram, theme, safe_id(id_prefix), raster, window)
    except (TypeError, KeyError):  # a stamp that does not fill: from a damaged kept file?
        if not forget_stamps():
            raise
        _BY_PALETTE.clear()
        svg = _document(layout, diagram, theme, safe_id(id_prefix), raster, window)
    save_stamps()
    return svg


def _document(
    layout: Layout,
    diagram: Diagram,
    theme: str,
    prefix: str,
    raster: bool,
    window: tuple[float, float] | None,
) -> str:
    top, height = window or (0.0, layout.height)
    colours = palette(theme)
    css = dark_mode_css(prefix) if theme == "auto" and not raster else ""
    painter = _Painter(colours, prefix)
    shown = num(top)
    optional = {  # left out (none) when empty
        "css": escape(css) if css else None,
        "defs": _content(painter.icons(layout)) or None,
        "background_y": shown if shown != "0" else None,
        "heading": painter.text(layout.title, "title") if layout.title else None,
        "appendix": painter.appendix(layout) if layout.appendix else None,
    }
    pattern = named_stamp(
        "document",
        font=FONT_FAMILY,
        text_rendering=TEXT_RENDERING if raster else None,
        bg=colours["bg"],
        **{name: None for name, value in optional.items() if value is None},
    )
    return pattern % {
        **optional,
        "p": prefix,
        "w": num(layout.width),
        "h": num(height),
        "top": shown,
        "title": escape(_title(diagram)),
        "desc": "" if raster else escape(_description(diagram)),
        "lifelines": _content([p for line in layout.lifelines for p in painter.lifeline(line)]),
        "blocks": _content([painter.frame(f) for f in layout.frames]),
        "dividers": _content([painter.divider(d) for d in layout.dividers]),
        "participants": _content([painter.participant(p) for p in layout.participants]),
        "messages": _content(list(map(painter.message, layout.messages))),
        "notes": _content([painter.note(n) for n in layout.notes]),
    }


def _int(value: object) -> int:
    """A line number of the model, for a hole (printed as it is): an integer, whatever a
    `Diagram` built in Python holds. ValueError, not TypeError: `render_svg` takes a TypeError
    for a stamp that does not fill."""
    if value.__class__ is not int:
        raise ValueError(f"a line number must be an integer, not {value!r}")
    return value  # type: ignore[return-value]


def _content(tags: list[str]) -> str:
    """Tags as a group holds them: one a line."""
    return "\n".join(tags) + "\n" if tags else ""


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


# --- boxes -----------------------------------------------------------------------------------


def _box(x: float, y: float, w: float, h: float) -> str:
    """A box's x, y, width and height attributes."""
    t = _TEXTS
    return stamp("box") % (t[x], t[y], t[w], t[h])


def _rect(r: Rect) -> str:
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
_BY_PALETTE: dict[int, tuple[Colours, dict[tuple, str], dict[tuple, str]]] = {}


class _Painter:
    """Turns layout shapes into tags, with colours from one palette. Each method returns the
    markup of one shape; a text block's markup ends with a line break, a shape's does not."""

    def __init__(self, colours: Colours, prefix: str) -> None:
        self.c = colours
        self.p = prefix
        self._names: dict[str, str] = {}
        kept = _BY_PALETTE.get(id(colours))
        if kept is None:
            kept = _BY_PALETTE.setdefault(id(colours), (colours, {}, {}))
        # (class, role, size, mono, preserve, bold, italic) → stamp; a message's kind → pattern
        self._texts, self._shapes = kept[1], kept[2]
        self._runs: dict[tuple, str] = {}  # (bold, italic, code size, linked) → stamp
        self._icon_ids: dict[str, str] = {}  # icon → its symbol's id, escaped
        self._markers: dict[tuple, str] = {}  # (role, size, bold, italic) → stamp
        self._halo = stamp("halo", colours["bg"])
        self._code: str | None = None
        self._note: str | None = None
        self._frame: str | None = None
        self._separator = ""  # made with `_frame`
        self._marker: str | None = None

    # Text.

    def text(self, block: TextBlock, cls: str) -> str:
        """A text block: the halo behind it, the tint behind its code, its lines."""
        role = "text" if block.tone == "note" else block.tone
        tags = []
        if block.halo:
            tags.append(self._halo % _grown(block.box))
        if block.code_boxes:
            code = self._code_stamp()
            tags += [_fill(code, r) for r in block.code_boxes]
        for line in block.lines:
            tag = self._line(line, cls, role)
            if tag:  # not a blank line of a body
                tags.append(tag)
        return _content(tags)

    def _code_stamp(self) -> str:
        if self._code is None:
            self._code = stamp("code", self.c["code"])
        return self._code

    def _text_stamp(self, cls, role, size, mono, preserve, bold, italic) -> str:
        """The `text` stamp for a line of one run; `bold` None: of several runs, unplaced."""
        key = (cls, role, size, mono, preserve, bold, italic)
        pattern = self._texts.get(key)
        if pattern is None:
            shared = (cls, role, self.c[role], num(size), MONO_FAMILY if mono else None, preserve)
            pattern = self._texts[key] = (
                stamp("text", *shared, False, False, x=None, y=None)
                if bold is None
                else stamp("text", *shared, bold, italic)
            )
        return pattern

    def _line(self, line: TextLine, cls: str, role: str) -> str:
        """A line: its `<text>` (none for a line of icons alone), its icons, its strike lines.

        A line of one run (most lines) has its place in its stamped `<text>` tag; a line of
        several has a `<tspan>` for each run.
        """
        t, runs = _TEXTS, line.runs
        if len(runs) == 1 and not line.mono:  # the common line, without the lists below
            run = runs[0]
            if run.__class__ is TextRun and run.text and not (run.code or run.href or run.strike):
                text = run.text
                key = (cls, role, line.size, False, _needs_preserve(text), run.bold, run.italic)
                pattern = self._texts.get(key) or self._text_stamp(*key)
                return pattern % (t[run.x], t[line.baseline], escape(text))
        texts, tags = [], []
        for r in runs:
            if r.__class__ is TextRun:
                if r.text:
                    texts.append(r)
            else:
                tags.append(self._icon_use(r, role))
        if not texts:
            return "\n".join(tags)
        mono, size = line.mono, line.size
        preserve = mono or any(_needs_preserve(r.text) for r in texts)
        y = t[line.baseline]
        first = texts[0]
        if len(texts) == 1 and not (first.code or first.href or first.strike):
            pattern = self._text_stamp(cls, role, size, mono, preserve, first.bold, first.italic)
            tags.insert(0, pattern % (t[first.x], y, escape(first.text)))
        else:
            pattern = self._text_stamp(cls, role, size, mono, preserve, None, None)
            tags.insert(0, pattern % "".join([self._run(r, y, size) for r in texts]))
        if any(r.strike for r in texts):
            pattern = stamp("strike", role, self.c[role])
            sy = t[line.baseline - size * 0.3]
            tags += [pattern % (t[r.x], sy, t[r.x + r.width], sy) for r in texts if r.strike]
        return "\n".join(tags)

    def _run(self, run: TextRun, y: str, size: float) -> str:
        """One run of a line of several: a `<tspan>`, in a link if it is one."""
        key = (run.bold, run.italic, num(size * CODE_SCALE) if run.code else None, bool(run.href))
        pattern = self._runs.get(key)
        if pattern is None:
            link = self.c["accent"] if run.href else None
            pattern = self._runs[key] = stamp("tspan", *key[:2], MONO_FAMILY, key[2], link)
        tag = pattern % (num(run.x), y, escape(run.text))
        return stamp("link") % (escape(run.href), tag) if run.href else tag

    def _icon_use(self, run: IconRun, role: str) -> str:
        """An inline icon, in a link if it is one, or the placeholder of a missing one."""
        t = _TEXTS
        box = (t[run.x], t[run.y], t[run.width], t[run.size])
        if run.missing:
            return stamp("missing_icon", self.c["missing"]) % box
        tag = stamp("icon", role, self.c[role]) % (self._icon_id(run.key), *box)
        return stamp("link") % (escape(run.href), tag) if run.href else tag

    def _icon_id(self, key: str) -> str:
        """The id of an icon's `symbol` in this picture, escaped."""
        shown = self._icon_ids.get(key)
        if shown is None:
            shown = self._icon_ids[key] = escape(f"{self.p}-icon-{key}")
        return shown

    def icons(self, layout: Layout) -> list[str]:
        """A `symbol` for each icon the picture draws."""
        pattern = stamp("symbol")
        return [
            pattern % (self._icon_id(key), escape(f"0 0 {shape[0]} {shape[1]}"), escape(shape[2]))
            for key, shape in layout.icons.items()
            if shape is not None
        ]

    # Shapes.

    def participant(self, p) -> str:
        """A participant's group: each of its boxes (stamped with its shadow), and its name."""
        c = self.c
        pattern = stamp(
            "participant", num(C.PARTICIPANT_RADIUS), num(C.PARTICIPANT_SHADOW), c["shadow"],
            c["surface"], c["border"],
        )  # fmt: skip
        tags = []
        for box, text in ((p.top, p.top_text), (p.bottom, p.bottom_text)):
            t = _TEXTS
            place = (t[box.x], t[box.y], t[box.w], t[box.h])
            tags.append(pattern % (place + place) + "\n" + self.text(text, "name"))
        return stamp("participant_group") % (p.index, self._name(p.name), "".join(tags))

    def lifeline(self, line) -> list[str]:
        """Each piece of the lifeline."""
        t, x = _TEXTS, num(line.x)
        pattern = stamp("lifeline", self.c["lifeline"], C.LIFELINE_DASH)
        return [pattern % (line.index, x, t[a], x, t[b]) for a, b in line.segments]

    def message(self, m: MessageShape) -> str:
        """A message's group: its arrow and heads, its label, autonumber badge, payload marker.

        The group's tag, the arrow, its heads and the halo of a one-line label are one pattern,
        the stamps of the message's kind joined, filled by one format.
        """
        marker, block = m.marker, m.label
        hit, d, kinds, outlines = _arrow(m.points, m.heads)
        names = self._names
        sender = names.get(m.sender) or self._name(m.sender)
        values = [m.number, _int(m.line), sender, names.get(m.receiver) or self._name(m.receiver)]
        if marker:
            values.append(marker.number)
        values += (hit, d, *outlines)
        halo, label = False, ""
        if block:
            lines = block.lines
            if len(lines) == 1 and not block.code_boxes:  # most labels: skip the generic walk
                role = "text" if block.tone == "note" else block.tone
                label = self._line(lines[0], "label", role)
                label = label + "\n" if label else ""
                if block.halo:
                    values += _grown(block.box)
                    halo = True
            else:
                label = self.text(block, "label")
        if m.badge:
            badge = self._numbered_badge(m.badge)
            label += self._badge(m.badge) if badge is None else badge + "\n"
        if marker:
            mark = self._payload_marker(marker)
            label += self._pill(marker) if mark is None else mark + "\n"
        values.append(label)
        key = (m.is_self, marker is None, m.line_style, kinds, halo)
        return (self._shapes.get(key) or self._shape_stamp(*key)) % tuple(values)

    def _shape_stamp(self, is_self: bool, bare: bool, style: str, kinds: tuple, halo: bool):
        """A message kind's pattern: its group (the content last), arrow, heads, label halo."""
        width = num(C.BOLD_LINE_WIDTH if style == "bold" else C.LINE_WIDTH)
        line, dash = self.c["line"], C.DASH if style == "dashed" else None
        group = stamp("message", is_self, **({"payload": None} if bare else {}))
        parts = [
            stamp("arrow", style, line, width, dash, num(C.HIT_WIDTH)),
            *[stamp("head", kind, line, width) for kind in kinds],
        ]
        if halo:
            parts.append(self._halo)
        start, hole, end = group.rpartition("%s")  # `content`, the macro's last argument
        pattern = start + "\n".join(parts) + "\n" + hole + end
        self._shapes[(is_self, bare, style, kinds, halo)] = pattern
        return pattern

    def _payload_marker(self, marker) -> str | None:
        """A marker of the usual make (its icon, then its number) as one stamp; None for any
        other, which `_pill` draws."""
        found = _numbered(marker.text)
        if found is None or found[3] is None:
            return None
        role, line, number, icon = found
        key = (role, line.size, number.bold, number.italic)
        pattern = self._markers.get(key)
        if pattern is None:
            c = self.c
            pattern = self._markers[key] = stamp(
                "payload_marker", c["accent_soft"], c["accent"], num(C.MARKER_RADIUS), role,
                c[role], num(line.size), number.bold, number.italic,
            )  # fmt: skip
        t, box = _TEXTS, marker.box
        return pattern % (
            t[box.x], t[box.y], t[box.w], t[box.h], t[number.x], t[line.baseline], number.text,
            self._icon_id(icon.key), t[icon.x], t[icon.y], t[icon.width], t[icon.size],
        )  # fmt: skip

    def _numbered_badge(self, badge) -> str | None:
        """A badge of the usual make (its number alone) as one stamp; None for any other,
        which `_badge` draws."""
        found = _numbered(badge.text)
        if found is None or found[3] is not None:
            return None
        role, line, number, _ = found
        c, t, box = self.c, _TEXTS, badge.box
        pattern = stamp(
            "numbered_badge", c["badge"], role, c[role], num(line.size), number.bold,
            number.italic,
        )  # fmt: skip
        return pattern % (
            t[box.x], t[box.y], t[box.w], t[box.h], t[box.h / 2], t[number.x], t[line.baseline],
            number.text,
        )  # fmt: skip

    def _name(self, name: str) -> str:
        """A participant's name as shown, escaped: once per name, not once per message."""
        shown = self._names.get(name)
        if shown is None:
            shown = self._names[name] = escape(clean_text(name))
        return shown

    def _badge(self, badge) -> str:
        """An autonumber badge of another make: the pill, and its text (a text block)."""
        box, t = badge.box, _TEXTS
        pattern = stamp("badge", self.c["badge"])
        pill = pattern % (t[box.x], t[box.y], t[box.w], t[box.h], t[box.h / 2])
        return pill + "\n" + self.text(badge.text, "badge")

    def _pill(self, marker) -> str:
        """A payload marker of another make, or one in the appendix: the pill, and its text (a
        text block)."""
        if self._marker is None:
            c = self.c
            self._marker = stamp("marker", c["accent_soft"], c["accent"], num(C.MARKER_RADIUS))
        return _fill(self._marker, marker.box) + "\n" + self.text(marker.text, "marker-text")

    def note(self, note) -> str:
        """A note's group: its paper, the tint behind its code, its bullets, its text."""
        b, f = note.box, C.NOTE_FOLD
        outline = [(b.x, b.y), (b.right - f, b.y), (b.right, b.y + f), (b.right, b.bottom),
                   (b.x, b.bottom)]  # fmt: skip
        fold = [(b.right - f, b.y), (b.right - f, b.y + f), (b.right, b.y + f)]
        if self._note is None:
            self._note = stamp("note", self.c["note"], self.c["note_border"])
        code = self._code_stamp()
        tags = [
            self._note % (_points(outline) + " Z", _points(fold) + " Z"),
            *[_fill(code, p.box) for p in note.panels],
        ]
        content = _content(tags)
        content += "".join([self.text(t, "bullet") for t in note.bullets])
        content += "".join([self.text(t, "note-text") for t in note.texts])
        over = escape(clean_text(",".join(note.over)))
        return stamp("note_group") % (_int(note.line), over, content)

    def divider(self, d) -> str:
        """A divider's group: a section's band, a rule (with a pill behind its label) or a
        delay's gap, and its label."""
        c = self.c
        label = ""
        if d.label:
            label = self.text(d.label, "section-label" if d.band else "divider-label")
        if d.style not in _DIVIDER_STYLES:  # a class, and a choice of drawing: not a hole
            raise ValueError(f"a divider's style is one of {', '.join(_DIVIDER_STYLES)}")
        values = {"line": _int(d.line), "label": label}
        absent = {}
        if d.band:
            values["band"] = _rect(d.band)
            values["accent_bar"] = _box(d.band.x, d.band.y, C.SECTION_ACCENT_WIDTH, d.band.h)
            absent["pill"] = None
        else:
            absent["band"] = None
            values.update(x1=num(d.x1), x2=num(d.x2), y1=num(d.y), y2=num(d.y))
            if d.pill:
                values.update(pill=_rect(d.pill), pill_r=num(d.pill.h / 2))
            else:
                absent["pill"] = None
        pattern = named_stamp(
            "divider",
            style=d.style,
            colour=c["divider"],
            width="0.75" if d.style == "thin" else "1",
            dash="5 4" if d.style == "dashed" else None,
            bg=c["bg"],
            band_fill=c["accent_soft"],
            accent=c["accent"],
            **absent,
        )
        return pattern % values

    def frame(self, f) -> str:
        """A block's group: its frame and tab, its label, and each branch's separator, keyword
        and label."""
        if self._frame is None:
            c = self.c
            self._frame = stamp("frame", num(C.BLOCK_RADIUS), c["frame"], c["tab"])
            self._separator = stamp("separator", c["frame"])
        t, b = _TEXTS, f.box
        x1, x2 = t[b.x], t[b.right]
        content = self._frame % (x1, t[b.y], t[b.w], t[b.h], _points(f.tab) + " Z") + "\n"
        content += self.text(f.tab_text, "block-kind")
        if f.label:
            content += self.text(f.label, "block-label")
        for s in f.separators:
            content += self._separator % (x1, t[s.y], x2, t[s.y]) + "\n"
            content += self.text(s.keyword, "block-kind")
            if s.label:
                content += self.text(s.label, "block-label")
        return stamp("block") % (escape(f.kind), _int(f.line), f.depth, content)

    def appendix(self, layout: Layout) -> str:
        """The bodies listed under the picture: a rule, a heading, and each body's marker,
        heading, code panels and lines."""
        a = layout.appendix
        assert a is not None
        panel, payload = stamp("panel", self.c["code"]), stamp("payload")
        content = self.text(a.heading, "appendix-heading")
        for e in a.entries:
            body = self._pill(e.marker) + self.text(e.heading, "appendix-label")
            body += _content([_fill(panel, p.box) for p in e.panels])
            body += "".join([self.text(t, "appendix-text") for t in e.texts])
            content += payload % (e.number, body) + "\n"
        x1, x2, y = num(C.MARGIN), num(layout.width - C.MARGIN), num(a.rule_y)
        return stamp("appendix", self.c["divider"]) % (x1, y, x2, y, content)


def _fill(pattern: str, r: Rect) -> str:
    """A stamp whose numbers are a box's x, y, width and height."""
    t = _TEXTS
    return pattern % (t[r.x], t[r.y], t[r.w], t[r.h])


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
