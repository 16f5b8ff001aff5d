"""Layout → SVG text, through the `svg/diagram.svg` template.

This module only turns the layout model into plain data the template can print: numbers
formatted once (two decimals, no float-repr surprises, so output is byte-identical everywhere),
colours looked up from the theme, outlines of heads and notes computed. The template holds all
markup and escapes every string.
"""

from __future__ import annotations

import re
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
from volley.render.raster import TEXT_RENDERING
from volley.render.themes import dark_mode_css, palette
from volley.resources import resource_dir, template_cache

Colours = dict[str, str]
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


def num(value: float) -> str:
    """A coordinate as text: two decimals at most, no trailing zeros, never "-0".

    Rounded through an integer count of hundredths, so the text never depends on float repr;
    the texts are cached since a picture repeats the same coordinates many times.
    """
    hundredths = round(value * 100)
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
    return "M" + " L".join(f"{num(x)} {num(y)}" for x, y in points)


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

    def paint(self, role: str) -> dict[str, str]:
        return {"role": role, "colour": self.c[role]}

    # Text.

    def text(self, block: TextBlock, cls: str) -> NS:
        role = "text" if block.tone == "note" else block.tone
        halo = None
        if block.halo:
            halo = _rect(_inflate(block.box, C.LABEL_HALO))
        return NS(
            cls=cls,
            role=role,
            fill=self.c[role],
            halo=halo,
            bg=self.c["bg"],
            code_boxes=[_rect(r) for r in block.code_boxes],
            code=self.c["code"],
            lines=[self._line(line) for line in block.lines],
        )

    def _line(self, line: TextLine) -> NS:
        runs = [r for r in line.runs if isinstance(r, TextRun) and r.text]
        icons = [self._icon_use(r) for r in line.runs if isinstance(r, IconRun)]
        y = num(line.baseline)
        first = runs[0] if runs else None
        simple = (
            len(runs) == 1 and first is not None and not (first.code or first.href or first.strike)
        )
        return NS(
            size=num(line.size),
            mono=MONO_FAMILY if line.mono else None,
            simple=simple,
            preserve=line.mono or any(_needs_preserve(r.text) for r in runs),
            runs=[self._run(r, y, line.size) for r in runs],
            icons=icons,
            strikes=[
                NS(x1=num(r.x), x2=num(r.x + r.width), y=num(line.baseline - line.size * 0.3))
                for r in runs
                if r.strike
            ],
        )

    def _run(self, run: TextRun, y: str, size: float) -> NS:
        return NS(
            x=num(run.x),
            y=y,
            text=run.text,
            bold=run.bold,
            italic=run.italic,
            code=run.code,
            code_size=num(size * CODE_SCALE) if run.code else None,
            mono=MONO_FAMILY,
            href=run.href,
            link=self.c["accent"] if run.href else None,
        )

    def _icon_use(self, run: IconRun) -> NS:
        box = {"x": num(run.x), "y": num(run.y), "w": num(run.width), "h": num(run.size)}
        if run.missing:
            return NS(missing=True, **box, **self.paint("missing"))
        return NS(missing=False, id=f"{self.p}-icon-{run.key}", href=run.href, **box)

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

    def message(self, m: MessageShape) -> NS:
        width = C.BOLD_LINE_WIDTH if m.line_style == "bold" else C.LINE_WIDTH
        points = _trim_for_heads(m.points, m.heads)
        return NS(
            n=m.number,
            line=m.line,
            sender=clean_text(m.sender),
            receiver=clean_text(m.receiver),
            payload=m.marker.number if m.marker else None,
            self=m.is_self,
            hit=_points(m.points),
            d=_points(points),
            style=m.line_style,
            width=num(width),
            dash=C.DASH if m.line_style == "dashed" else None,
            colour=self.c["line"],
            heads=[_head(h, width) for h in m.heads],
            label=self.text(m.label, "label") if m.label else None,
            badge=self._pill(m.badge.box, m.badge.text, "badge") if m.badge else None,
            marker=self._marker(m.marker) if m.marker else None,
        )

    def _pill(self, box: Rect, text: TextBlock, cls: str) -> NS:
        return NS(rect=_rect(box), r=num(box.h / 2), fill=self.c["badge"],
                text=self.text(text, cls))  # fmt: skip

    def _marker(self, marker) -> NS:
        return NS(
            number=marker.number,
            rect=_rect(marker.box),
            r=num(C.MARKER_RADIUS),
            fill=self.c["accent_soft"],
            stroke=self.c["accent"],
            text=self.text(marker.text, "marker-text"),
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


def _rect(r: Rect) -> NS:
    return NS(x=num(r.x), y=num(r.y), w=num(r.w), h=num(r.h))


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


def _head(head: Head, width: float) -> NS:
    """The head's outline: a filled triangle, an open V, or a cross."""
    (x, y), d, s = head.tip, head.direction, head.scale
    length, half = C.HEAD_LENGTH * s, C.HEAD_HALF_WIDTH * s
    if head.style == "cross":
        k = C.CROSS_SIZE * s
        return NS(
            kind="cross",
            d=f"{_points([(x - k, y - k), (x + k, y + k)])} "
            f"{_points([(x - k, y + k), (x + k, y - k)])}",
            width=num(width),
        )
    back = x - d * length
    if head.style == "open":
        return NS(
            kind="open",
            d=_points([(back, y - half - 0.5), (x, y), (back, y + half + 0.5)]),
            width=num(width),
        )
    return NS(kind="filled", d=_points([(x, y), (back, y - half), (back, y + half)]) + " Z",
            width=num(width))  # fmt: skip
