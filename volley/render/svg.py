"""Layout → SVG text, through the `svg/diagram.svg` template.

This module only turns the layout model into plain data the template can print: numbers
formatted once (two decimals, no float-repr surprises, so output is byte-identical everywhere),
colours looked up from the theme, outlines of heads and notes computed. The template holds the
markup and escapes every string.

The hot shapes (messages, text lines) reach the template as flat tuples it unpacks in its loop
headers, and a shape's run of numeric attributes (a box's x, y, width and height; a text
line's class, colour, size and position) as one pre-joined `Markup` fragment built only from
numbers this module formats and the theme's escaped constants, never from diagram text: at
10,000 messages this saves hundreds of thousands of attribute lookups and escape calls.
"""

from __future__ import annotations

import re
from functools import cache
from types import SimpleNamespace as NS

from jinja2 import Environment, FileSystemLoader, StrictUndefined, select_autoescape
from markupsafe import Markup, escape

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
from volley.render.raster import TEXT_RENDERING
from volley.render.themes import dark_mode_css, palette
from volley.resources import resource_dir, template_cache

Colours = dict[str, str]
_NONE: tuple = ()
_ID_SAFE = re.compile(r"[^A-Za-z0-9_-]")


@cache
def environment() -> Environment:
    """One compiled environment per process; `.svg` templates are autoescaped explicitly."""
    return Environment(
        loader=FileSystemLoader(str(resource_dir("templates"))),
        autoescape=select_autoescape(enabled_extensions=("svg", "html", "xml"), default=True),
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        bytecode_cache=template_cache(__file__),
    )


def safe_id(prefix: str) -> str:
    """An id prefix that is a valid XML name and CSS identifier."""
    cleaned = _ID_SAFE.sub("-", prefix) or "volley"
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
    top, height = window or (0.0, layout.height)
    colours = dict(palette(theme))
    prefix = safe_id(id_prefix)
    css = dark_mode_css(prefix) if theme == "auto" and not raster else ""
    painter = _Painter(colours, prefix)
    context = NS(
        p=prefix,
        w=num(layout.width),
        h=num(height),
        top=num(top),
        font=FONT_FAMILY,
        title=_title(diagram),
        desc="" if raster else _description(diagram),
        css=css,
        bg=colours["bg"],
        code=colours["code"],
        line_colour=colours["line"],
        head_paint=Markup('fill="{0}" stroke="{0}"').format(colours["line"]),
        mono=MONO_FAMILY,
        icons=painter.icons(layout),
        frames=[painter.frame(f) for f in layout.frames],
        lifelines=[painter.lifeline(line) for line in layout.lifelines],
        dividers=[painter.divider(d) for d in layout.dividers],
        participants=[painter.participant(p) for p in layout.participants],
        messages=[painter.message(m) for m in layout.messages],
        notes=[painter.note(n) for n in layout.notes],
        heading=painter.text(layout.title, "title") if layout.title else None,
        appendix=painter.appendix(layout) if layout.appendix else None,
        hit_width=num(C.HIT_WIDTH),
        text_rendering=TEXT_RENDERING if raster else None,
    )
    return environment().get_template("svg/diagram.svg").render(vars(context))


# --- numbers ---------------------------------------------------------------------------------


_NUMBERS: dict[int, str] = {}
_BY_VALUE: dict[float, str] = {}  # the same texts keyed by the value itself: one lookup
_known = _BY_VALUE.get


def num(value: float) -> str:
    """A coordinate as text: two decimals at most, no trailing zeros, never "-0".

    Rounded through an integer count of hundredths, so the text never depends on float repr;
    the texts are cached since a picture repeats the same coordinates many times. Hot callers
    try `_known(value)` first and call this only on a miss, which saves a call per number.
    """
    text = _known(value)
    if text is not None:
        return text
    if len(_BY_VALUE) > 200_000:
        _BY_VALUE.clear()
    text = _BY_VALUE[value] = _hundredths(round(value * 100))
    return text


def _hundredths(hundredths: int) -> str:
    text = _NUMBERS.get(hundredths)
    if text is None:
        if len(_NUMBERS) > 200_000:
            _NUMBERS.clear()
        whole, frac = divmod(abs(hundredths), 100)
        sign = "-" if hundredths < 0 else ""
        if frac == 0:
            text = f"{sign}{whole}"
        elif frac % 10 == 0:
            text = f"{sign}{whole}.{frac // 10}"
        else:
            text = f"{sign}{whole}.{frac:02d}"
        _NUMBERS[hundredths] = text
    return text


def _points(points: list[tuple[float, float]]) -> str:
    known = _known
    return "M" + " L".join([f"{known(x) or num(x)} {known(y) or num(y)}" for x, y in points])


# --- accessibility ---------------------------------------------------------------------------


def _title(diagram: Diagram) -> str:
    if diagram.title:
        return clean_text(plain_text(diagram.title))
    return "Sequence diagram"


def _description(diagram: Diagram) -> str:
    """What a screen reader says: who takes part, then each message in order."""
    names = ", ".join(diagram.participants)
    messages = diagram.messages()
    steps = []
    for n, m in enumerate(messages, 1):
        label = plain_text(m.label)
        steps.append(f"{n}. {m.sender} to {m.receiver}" + (f": {label}." if label else "."))
    head = f"Sequence diagram between {names}." if names else "Sequence diagram."
    return clean_text(" ".join([head, *steps]))


# --- painting --------------------------------------------------------------------------------


class _Painter:
    """Turns layout shapes into template data, with colours from one palette."""

    def __init__(self, colours: Colours, prefix: str) -> None:
        self.c = colours
        self.p = prefix
        self.e = {role: str(escape(colour)) for role, colour in colours.items()}  # for fragments
        self._strokes: dict[str, Markup] = {}
        self._names: dict[str, str] = {}

    # Text.

    def text(self, block: TextBlock, cls: str) -> tuple:
        """(halo box, code boxes, lines, role, colour): what the template's `text` macro draws."""
        role = "text" if block.tone == "note" else block.tone
        head = f'class="{cls} vf-{role}" fill="{self.e[role]}" font-size="'  # + each line's size
        halo = _rect(_inflate(block.box, C.LABEL_HALO)) if block.halo else None
        boxes = [_rect(r) for r in block.code_boxes] if block.code_boxes else _NONE
        return (halo, boxes, [self._line(line, head) for line in block.lines], role, self.c[role])

    def _line(self, line: TextLine, head: str) -> tuple:
        """(class-colour-size, monospace, preserve, position, bold, italic, text of a one-run
        line, runs, icons, strikes).

        A line of one plain run (most lines) is printed as a bare `<text>` with its position
        as one numeric fragment, so the template escapes three values, not seven.
        """
        known, size = _known, line.size
        head = Markup(f'{head}{known(size) or num(size)}"')
        if len(line.runs) == 1 and not line.mono:  # the common line, without the lists below
            run = line.runs[0]
            if run.__class__ is TextRun and run.text and not (run.code or run.href or run.strike):
                x, y = run.x, line.baseline
                pos = Markup(f'x="{known(x) or num(x)}" y="{known(y) or num(y)}"')
                text = run.text
                return (head, False, _needs_preserve(text), pos, run.bold, run.italic, text,
                        _NONE, _NONE, _NONE)  # fmt: skip
        runs = [r for r in line.runs if r.__class__ is TextRun and r.text]
        icons = (
            [self._icon_use(r) for r in line.runs if isinstance(r, IconRun)]
            if len(runs) != len(line.runs)
            else _NONE
        )
        preserve = line.mono or any(_needs_preserve(r.text) for r in runs)
        y = num(line.baseline)
        if len(runs) == 1 and not (runs[0].code or runs[0].href or runs[0].strike):
            first = runs[0]
            pos = Markup(f'x="{num(first.x)}" y="{y}"')
            return (head, line.mono, preserve, pos, first.bold, first.italic, first.text,
                    _NONE, icons, _NONE)  # fmt: skip
        items = [self._run(r, y, line.size) for r in runs]
        strike_y = num(line.baseline - line.size * 0.3)
        strikes = [(num(r.x), strike_y, num(r.x + r.width)) for r in runs if r.strike]
        return (head, line.mono, preserve, None, False, False, None, items, icons, strikes or _NONE)

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

    def _icon_use(self, run: IconRun) -> tuple:
        """(missing, symbol id, href, box, placeholder colour) of an inline icon."""
        box = _rect(Rect(run.x, run.y, run.width, run.size))
        if run.missing:
            return (True, None, None, box, self.c["missing"])
        return (False, f"{self.p}-icon-{run.key}", run.href, box, None)

    def icons(self, layout: Layout) -> list[NS]:
        return [
            NS(id=f"{self.p}-icon-{key}", vb=f"0 0 {shape[0]} {shape[1]}", d=shape[2])
            for key, shape in layout.icons.items()
            if shape is not None
        ]

    # Shapes.

    def participant(self, p) -> NS:
        return NS(
            name=clean_text(p.name),
            index=p.index,
            boxes=[
                NS(rect=_rect(box), text=self.text(text, "name"))
                for box, text in ((p.top, p.top_text), (p.bottom, p.bottom_text))
            ],
            radius=num(C.PARTICIPANT_RADIUS),
            shadow=num(C.PARTICIPANT_SHADOW),
            surface=self.c["surface"],
            border=self.c["border"],
            shadow_colour=self.c["shadow"],
        )

    def lifeline(self, line) -> NS:
        return NS(
            index=line.index,
            x=num(line.x),
            segments=[(num(a), num(b)) for a, b in line.segments],
            colour=self.c["lifeline"],
            dash=C.LIFELINE_DASH,
        )

    def message(self, m: MessageShape) -> tuple:
        """The flat tuple the template's message loop unpacks, in its header's order.

        A label whose lines are all plain single runs goes as (halo, lines), drawn inline by
        the loop without a macro call; any other label as a whole block for the `text` macro.
        """
        points = _trim_for_heads(m.points, m.heads) if m.heads else m.points
        width = C.BOLD_LINE_WIDTH if m.line_style == "bold" else C.LINE_WIDTH
        halo = plain = label = None
        if m.label:
            label = self.text(m.label, "label")
            if not label[1] and all(line[6] and not line[8] for line in label[2]):
                halo, plain, label = label[0], label[2], None
        return (
            m.is_self,
            m.number,
            m.line,
            self._name(m.sender),
            self._name(m.receiver),
            m.marker.number if m.marker else None,
            _points(m.points),
            m.line_style,
            _points(points),
            self._stroke(m.line_style),
            C.DASH if m.line_style == "dashed" else None,
            [_head(h, width) for h in m.heads],
            halo,
            plain,
            label,
            self._pill(m.badge.box, m.badge.text, "badge") if m.badge else None,
            self._marker(m.marker) if m.marker else None,
        )

    def _name(self, name: str) -> str:
        """A participant's name as shown: cleaned once per name, not once per message."""
        shown = self._names.get(name)
        if shown is None:
            shown = self._names[name] = clean_text(name)
        return shown

    def _stroke(self, style: str) -> Markup:
        """An arrow's stroke colour and width for its line style: theme constants, one per style."""
        fragment = self._strokes.get(style)
        if fragment is None:
            width = num(C.BOLD_LINE_WIDTH if style == "bold" else C.LINE_WIDTH)
            fragment = Markup(f'stroke="{self.e["line"]}" stroke-width="{width}"')
            self._strokes[style] = fragment
        return fragment

    def _pill(self, box: Rect, text: TextBlock, cls: str) -> tuple:
        return (_rect(box), num(box.h / 2), self.c["badge"], self.text(text, cls))

    def _marker(self, marker) -> tuple:
        """(box, corner radius, fill, stroke, text): what the template's `marker` macro draws."""
        return (
            _rect(marker.box),
            num(C.MARKER_RADIUS),
            self.c["accent_soft"],
            self.c["accent"],
            self.text(marker.text, "marker-text"),
        )

    def note(self, note) -> NS:
        b, f = note.box, C.NOTE_FOLD
        outline = [(b.x, b.y), (b.right - f, b.y), (b.right, b.y + f), (b.right, b.bottom),
                   (b.x, b.bottom)]  # fmt: skip
        fold = [(b.right - f, b.y), (b.right - f, b.y + f), (b.right, b.y + f)]
        return NS(
            line=note.line,
            over=clean_text(",".join(note.over)),
            d=_points(outline) + " Z",
            fold=_points(fold) + " Z",
            fill=self.c["note"],
            stroke=self.c["note_border"],
            panels=[_rect(p.box) for p in note.panels],
            code=self.c["code"],
            texts=[self.text(t, "note-text") for t in note.texts],
            bullets=[self.text(t, "bullet") for t in note.bullets],
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
            out.accent_bar = _rect(Rect(d.band.x, d.band.y, C.SECTION_ACCENT_WIDTH, d.band.h))
            out.band_fill = self.c["accent_soft"]
            out.accent = self.c["accent"]
        return out

    def frame(self, f) -> NS:
        return NS(
            line=f.line,
            kind=f.kind,
            depth=f.depth,
            rect=_rect(f.box),
            r=num(C.BLOCK_RADIUS),
            tab=_points(f.tab) + " Z",
            stroke=self.c["frame"],
            tab_fill=self.c["tab"],
            tab_text=self.text(f.tab_text, "block-kind"),
            label=self.text(f.label, "block-label") if f.label else None,
            separators=[
                NS(
                    x1=num(f.box.x),
                    x2=num(f.box.right),
                    y=num(s.y),
                    keyword=self.text(s.keyword, "block-kind"),
                    label=self.text(s.label, "block-label") if s.label else None,
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
                    marker=self._marker(e.marker),
                    heading=self.text(e.heading, "appendix-label"),
                    panels=[_rect(p.box) for p in e.panels],
                    texts=[self.text(t, "appendix-text") for t in e.texts],
                )
                for e in a.entries
            ],
            code=self.c["code"],
        )


def _needs_preserve(text: str) -> bool:
    """Whether the text has spaces SVG would otherwise collapse or drop."""
    return text[:1] == " " or text[-1:] == " " or "  " in text or "\t" in text


def _rect(r: Rect) -> Markup:
    """A box's x, y, width and height attributes: numbers only, so one trusted fragment."""
    x, y, w, h, known = r.x, r.y, r.w, r.h, _known
    return Markup(
        f'x="{known(x) or num(x)}" y="{known(y) or num(y)}" '
        f'width="{known(w) or num(w)}" height="{known(h) or num(h)}"'
    )


def _inflate(r: Rect, by: float) -> Rect:
    return Rect(r.x - by, r.y - by / 2, r.w + 2 * by, r.h + by)


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


def _head(head: Head, width: float) -> tuple[str, str, str]:
    """The head's outline: a filled triangle, an open V, or a cross."""
    (x, y), d, s = head.tip, head.direction, head.scale
    length, half = C.HEAD_LENGTH * s, C.HEAD_HALF_WIDTH * s
    if head.style == "cross":
        k = C.CROSS_SIZE * s
        return (
            "cross",
            f"{_points([(x - k, y - k), (x + k, y + k)])} "
            f"{_points([(x - k, y + k), (x + k, y - k)])}",
            num(width),
        )
    back = x - d * length
    if head.style == "open":
        return (
            "open",
            _points([(back, y - half - 0.5), (x, y), (back, y + half + 0.5)]),
            num(width),
        )
    return ("filled", _points([(x, y), (back, y - half), (back, y + half)]) + " Z", num(width))
