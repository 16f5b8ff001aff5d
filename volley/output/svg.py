"""Layout → SVG text: walks the layout's shapes and writes each with the tags of
`volley.output.svg_tags`, which hold all of the picture's markup and escape every text a user
wrote. This module decides what is drawn, in which order and colour; it writes no markup itself.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from itertools import count
from typing import TYPE_CHECKING, get_args

from volley.layout import constants as C
from volley.layout.bidi_levels import has_right_to_left
from volley.layout.engine import SEPARATOR_WORDS
from volley.layout.geometry import (
    ANCHOR_SHARE,
    ActivationBar,
    Anchor,
    Appendix,
    Badge,
    Band,
    BlockFrame,
    DividerShape,
    Head,
    Layout,
    Lifeline,
    Marker,
    MessageShape,
    NoteShape,
    Participant,
    Rect,
    Run,
    TextBlock,
    TextLine,
)
from volley.layout.metrics import FONT_FAMILY, mono_family
from volley.layout.textwrap import CODE_SCALE
from volley.layout.typeset import clean_text, drawn_keycaps
from volley.model import Block, Diagram, Divider, DividerStyle, Item, Message, Note
from volley.output import svg_tags as tag
from volley.output.svg_tags import group, num, picture_id
from volley.output.themes import dark_mode_css, palette
from volley.text.inline import ended, note_plain_text, plain_text

if TYPE_CHECKING:
    from volley.output.tints import Fill, Tints  # loads a CSS parser: only rects need it

Colours = Mapping[str, str]
# Where a link's underline runs below the baseline, in em: the bundled face's own position.
UNDERLINE_EM = 0.106
# The raster variant of the SVG names this private text-rendering mode, which `raster` reads.
# cairo rounds glyph advances to whole pixels by default ("hint metrics"), which drifts text away
# from the widths the layout measured: a space after a comma vanishes at scale 1. The mode turns
# that off and leaves everything else at cairo's defaults (geometricPrecision would also change
# antialiasing). Defined here so that an SVG render does not import `raster`.
TEXT_RENDERING = "volley-measured"
_DIVIDER_STYLES = get_args(DividerStyle)
_ID_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-")


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
    top, height = window or (0.0, layout.height)
    colours = palette(theme)
    prefix = safe_id(id_prefix)
    tints = None
    rects = [f for f in layout.frames if f.kind == "rect"]
    if rects or layout.bands:
        from volley.output.tints import Tints

        tints = Tints(rects, layout.bands)
    painter = _Painter(colours, prefix, underlines=raster, dark=theme == "dark", tints=tints)
    return tag.document(
        prefix=prefix,
        width=layout.width,
        height=height,
        top=top,
        font=FONT_FAMILY,
        text_rendering=TEXT_RENDERING if raster else None,
        title=picture_title(diagram),
        desc="" if raster else _description(diagram),
        css=_css(theme, prefix, layout, tints, raster=raster),
        defs=group(painter.icons(layout)),
        bg=colours["bg"],
        groups=_groups(layout, painter),
        heading=painter.text(layout.title, "title") if layout.title else None,
        appendix=painter.appendix(layout.appendix) if layout.appendix else None,
    )


def _css(
    theme: str, prefix: str, layout: Layout, tints: Tints | None, *, raster: bool
) -> str | None:
    """The picture's own stylesheet: for `auto`, its dark colours in a dark browser. Its rects'
    dark colours under the switches of a volley page, for a picture drawn inline in one (the
    interactive page, a docs site's static figure): elsewhere those rules match nothing. None
    where the attributes say it all."""
    if raster:
        return None
    if theme == "auto":
        coloured = [(fill.cls, fill.dark) for fill in tints.coloured] if tints else []
        return dark_mode_css(picture_id(prefix), syntax=layout.appendix is not None, tints=coloured)
    if tints and tints.coloured:
        from volley.output.html_theme import tint_css

        return tint_css(picture_id(prefix), tints.coloured)
    return None


def _groups(layout: Layout, painter: _Painter) -> dict[str, str]:
    """The picture's groups by class, in painting order: later groups are drawn over earlier
    ones. A picture without activation bars has no group for them; where it has, a block's tab
    is drawn over a bar, so that its kind (`loop`, `alt`) stays readable."""
    groups = {}
    if layout.bands:  # behind everything: a box holds its participants' lanes, top to foot
        groups["boxes"] = group([painter.band(b) for b in layout.bands])
    if painter.tints and painter.tints.frames:  # under lifelines, as a highlighter marks a page
        groups["highlights"] = group([painter.highlight(f) for f in painter.tints.frames])
    groups["lifelines"] = group([p for line in layout.lifelines for p in painter.lifeline(line)])
    if layout.activations:
        groups["activations"] = group([painter.activation(a) for a in layout.activations])
    groups["blocks"] = group([painter.frame(f) for f in layout.frames if f.kind != "rect"])
    groups["dividers"] = group([painter.divider(d) for d in layout.dividers])
    groups["participants"] = group([painter.participant(p) for p in layout.participants])
    groups["messages"] = group([painter.message(m) for m in layout.messages])
    groups["notes"] = group([painter.note(n) for n in layout.notes])
    return groups


# --- accessibility ---------------------------------------------------------------------------


def picture_title(diagram: Diagram) -> str:
    """What the picture is called: its title as plain text, else what it is."""
    if diagram.title:
        return clean_text(plain_text(diagram.title))
    return "Sequence diagram"


def _description(diagram: Diagram) -> str:
    """What a screen reader says: who takes part, then the picture's contents in the order
    they read: each message named as the picture shows it and from whom to whom as its arrow
    points (as the page's panel says), each note with whom it is over or beside, each
    section, and where each block (`if`, `loop`) and its branches begin and end."""
    shown = diagram.shown
    names = ", ".join(shown(name) for name in diagram.participants)
    head = f"Sequence diagram between {names}." if names else "Sequence diagram."
    return clean_text(" ".join([head, *_steps(diagram, diagram.items, count(1))]))


def _steps(diagram: Diagram, items: Sequence[Item], numbers: Iterator[int]) -> Iterator[str]:
    """The description's sentences for `items`; `numbers` numbers the messages throughout."""
    shown = diagram.shown
    for item in items:
        if isinstance(item, Message):
            label = plain_text(item.label)
            sender, receiver, both = item.flow
            flow = f"{shown(sender)} {'and' if both else 'to'} {shown(receiver)}"
            yield ended(f"{next(numbers)}. {flow}" + (f": {label}" if label else ""))
        elif isinstance(item, Note):
            names = [shown(name) for name in item.over]
            whom = " and ".join([", ".join(names[:-1]), names[-1]] if len(names) > 2 else names)
            where = f"beside {whom}" if item.side != "over" else f"over {whom}"
            words = note_plain_text(item.text, item.lines_kept)
            yield f"Note {where}: {words}" if words else f"Note {where}."
        elif isinstance(item, Divider) and item.label:
            kind = "Later" if item.style == "delay" else "Section"
            yield ended(f"{kind}: {plain_text(item.label)}")
        elif isinstance(item, Block) and item.kind != "rect":
            for n, branch in enumerate(item.branches):
                word = SEPARATOR_WORDS.get(item.kind, "else") if n else item.kind
                label = plain_text(branch.label)
                yield ended(word.capitalize() + (f": {label}" if label else ""))
                yield from _steps(diagram, branch.items, numbers)
            yield f"End of {item.kind}."
        elif isinstance(item, Block):  # a highlight: its contents, no frame to speak of
            for branch in item.branches:
                yield from _steps(diagram, branch.items, numbers)


# --- painting --------------------------------------------------------------------------------


class _Painter:
    """Turns layout shapes into tags, with colours from one palette. Each method returns the
    markup of one shape; a text block's markup ends with a line break, a shape's does not."""

    def __init__(
        self,
        colours: Colours,
        prefix: str,
        *,
        underlines: bool = False,
        dark: bool = False,
        tints: Tints | None = None,
    ) -> None:
        self.c = colours
        self.prefix = prefix
        # cairosvg ignores `text-decoration`: for PNG and PDF a link's underline is a line
        self.underlines = underlines
        self.dark = dark  # the dark theme's colours, written as attributes
        self.tints = tints  # the picture's rects, if it has any

    # Text.

    def text(self, block: TextBlock, cls: str) -> str:
        """A text block: the halo behind it, the tint behind its code, its lines."""
        role = "text" if block.tone == "note" else block.tone
        tags = []
        if block.halo:
            b, by = block.box, C.LABEL_HALO
            patch = Rect(b.x - by, b.y - by / 2, b.w + 2 * by, b.h + by)
            tags += [tag.halo(*self._patch(piece), piece) for piece in self._pieces(patch)]
        tags += [tag.code(self.c["code"], r) for r in block.code_boxes]
        for line in block.lines:
            markup = self._line(line, cls, role)
            if markup:  # not a blank line of a body
                tags.append(markup)
        return group(tags)

    def _line(self, line: TextLine, cls: str, role: str) -> str:
        """A line: its `<text>` (none for a line of icons alone), its icons, its strike lines.

        A line whose text is one plain run is one `<text>`; a line of several runs has a
        `<tspan>` for each.
        """
        if len(line.runs) == 1 and _is_plain(line.runs[0]):  # most lines: one `<text>`
            return self._plain(line, line.runs[0], cls, role)
        texts = [r for r in line.runs if r.icon is None and r.text]
        tags = [self._icon(line, r, role) for r in line.runs if r.icon is not None]
        if not texts:
            return "\n".join(tags)
        colour, size = self.c[role], line.size
        mono = mono_family("".join([r.text for r in texts])) if line.mono else None
        preserve = line.mono or any(_needs_preserve(r.text) for r in texts)
        if len(texts) == 1 and _is_plain(texts[0]):
            words = self._plain(line, texts[0], cls, role, preserve)
        else:
            runs = _spaced(line, texts, [self._run(line, r) for r in texts])
            words = tag.text_runs(cls, role, colour, size, runs, preserve=preserve, mono=mono)
        tags.insert(0, words)
        y = line.baseline - size * 0.3
        for r in texts:
            if r.strike:
                x = line.x + r.dx
                tags.append(tag.strike(role, colour, x, x + r.width, y))
            if r.href and self.underlines:
                x, below = line.x + r.dx, line.baseline + size * UNDERLINE_EM
                tags.append(tag.underline(self.c["accent"], x, x + r.width, below))
        return "\n".join(tags)

    def _plain(
        self, line: TextLine, run: Run, cls: str, role: str, preserve: bool | None = None
    ) -> str:
        """A line's only text, a run of one style: one `<text>`, from the point the line is
        aligned on (`preserve` as the whole line needs it; by default as the run does).

        Only a right-to-left line is drawn from its middle or end (`TextLine.anchor`); in PNG
        and PDF, where cairosvg would anchor it by its first piece alone once the fallback
        fonts split it, the raster path measures it (`volley.output.font_fallback`)."""
        anchor: Anchor = line.anchor
        if preserve is None:
            preserve = line.mono or _needs_preserve(run.text)
        return tag.text(
            cls,
            role,
            self.c[role],
            line.size,
            line.x + run.dx + ANCHOR_SHARE[anchor] * run.width,
            line.baseline,
            _with_direction(line, run, _code_in_order(run.text) if line.mono else run.text),
            preserve=preserve,
            mono=mono_family(run.text) if line.mono else None,
            bold=run.bold,
            italic=run.italic,
            anchor=anchor,
        )

    def _run(self, line: TextLine, run: Run) -> str:
        """One run of a line of several: a `<tspan>`, in a link if it is one. In a
        right-to-left paragraph each run is drawn from its right end, where the run read before
        it ends: a run drawn narrower than measured (joined Arabic) leaves its gap on its left,
        beside the run read after it, or at the line's end, not after the run read before it."""
        size = line.size
        anchor: Anchor = "end" if line.rtl else "start"
        span = tag.tspan(
            line.x + run.dx + ANCHOR_SHARE[anchor] * run.width,
            line.baseline,
            _with_direction(
                line,
                run,
                _code_in_order(run.text, run.role in _ONE_TOKEN)
                if run.code or line.mono
                else run.text,
            ),
            bold=run.bold,
            italic=run.italic,
            mono=mono_family(run.text) if run.code else None,
            code_size=size * CODE_SCALE if run.code else None,
            link=self.c["accent"] if run.href else None,
            role=(run.role, self.c[run.role]) if run.role else None,
            anchor=anchor,
        )
        return tag.link(run.href, span) if run.href else span

    def _icon(self, line: TextLine, run: Run, role: str) -> str:
        """An inline icon, in a link if it is one, or the placeholder of a missing one."""
        x, y, size = line.x + run.dx, line.icon_top(run), run.icon_size
        if run.missing or run.icon is None:
            c = self.c
            return tag.missing_icon(c["code"], c["missing"], x, y, run.width, size)
        use = tag.icon(role, self.c[role], self._icon_id(run.icon), x, y, run.width, size, run.turn)
        return tag.link(run.href, use) if run.href else use

    def _icon_id(self, key: str) -> str:
        """The id of an icon's `symbol` in this picture."""
        return f"{self.prefix}-icon-{key}"

    def icons(self, layout: Layout) -> list[str]:
        """A `symbol` for each icon the picture draws."""
        return [
            tag.symbol(self._icon_id(key), f"0 0 {shape[0]} {shape[1]}", shape[2])
            for key, shape in layout.icons.items()
            if shape is not None
        ]

    # Shapes.

    def participant(self, p: Participant) -> str:
        """A participant's group: each of its boxes, on its shadow, and its name."""
        c = self.c
        content = "".join(
            tag.participant_box(
                C.PARTICIPANT_RADIUS,
                C.PARTICIPANT_SHADOW,
                c["shadow"],
                c["surface"],
                c["border"],
                box,
            )
            + "\n"
            + self.text(text, "name")
            for box, text in ((p.top, p.top_text), (p.bottom, p.bottom_text))
        )
        return tag.participant(p.index, clean_text(p.name), content)

    def activation(self, bar: ActivationBar) -> str:
        """An activation bar, in the participant boxes' colours."""
        return tag.activation(
            self.c["surface"], self.c["border"], bar.index, bar.line, bar.depth, bar.box
        )

    def lifeline(self, line: Lifeline) -> list[str]:
        """Each piece of the lifeline."""
        colour = self.c["lifeline"]
        return [
            tag.lifeline(colour, C.LIFELINE_DASH, line.index, line.x, y1, y2)
            for y1, y2 in line.segments
        ]

    def message(self, m: MessageShape) -> str:
        """A message's group: its arrow and heads, its label, autonumber badge, payload marker."""
        colour, style = self.c["line"], m.line_style
        width = C.BOLD_LINE_WIDTH if style == "bold" else C.LINE_WIDTH
        hit, d, heads = _arrow(m.points, m.heads)
        tags = [
            tag.arrow(
                style, colour, width, C.DASH if style == "dashed" else None, C.HIT_WIDTH, hit, d
            ),
            *[tag.head(kind, colour, width, outline) for kind, outline in heads],
        ]
        content = group(tags)
        if m.label:
            content += self.text(m.label, "label")
        if m.badge:
            content += self._badge(m.badge)
        if m.marker:
            content += self._marker(m.marker)
        return tag.message(
            is_self=m.is_self,
            number=m.number,
            line=m.line,
            sender=clean_text(m.sender),
            receiver=clean_text(m.receiver),
            payload=m.marker.number if m.marker else None,
            content=content,
        )

    def _badge(self, badge: Badge) -> str:
        """An autonumber badge: the pill, and its number. (Its class is no `badge`: a host
        page's stylesheet may have one, Bootstrap's hiding it while it has no children.)"""
        return tag.badge(self.c["badge"], badge.box) + "\n" + self.text(badge.text, "autonumber")

    def _marker(self, marker: Marker) -> str:
        """A payload marker, on its arrow or in the appendix: the pill, and its text."""
        c = self.c
        pill = tag.marker(
            c["accent_soft"], c["accent"], C.MARKER_RADIUS, marker.box, marker.contents
        )
        return pill + "\n" + self.text(marker.text, "marker-text")

    def note(self, note: NoteShape) -> str:
        """A note's group: its paper, the tint behind its code, its bullets, its text."""
        b, f = note.box, C.NOTE_FOLD
        outline = [
            (b.x, b.y),
            (b.right - f, b.y),
            (b.right, b.y + f),
            (b.right, b.bottom),
            (b.x, b.bottom),
        ]
        fold = [(b.right - f, b.y), (b.right - f, b.y + f), (b.right, b.y + f)]
        paper = tag.note_paper(
            self.c["note"], self.c["note_border"], _points(outline) + " Z", _points(fold) + " Z"
        )
        content = group(
            [
                paper,
                *[tag.code(self.c["code"], p.box) for p in note.panels],
                *[tag.table_rule(self.c["note_border"], *rule) for rule in note.rules],
            ]
        )
        content += "".join([self.text(t, "bullet") for t in note.bullets])
        content += "".join([self.text(t, "note-text") for t in note.texts])
        return tag.note(note.line, clean_text(",".join(note.over)), note.side, content)

    def divider(self, d: DividerShape) -> str:
        """A divider's group: a section's band, a rule (with a pill behind its label) or a
        delay's gap, and its label."""
        if d.style not in _DIVIDER_STYLES:
            raise ValueError(f"a divider's style is one of {', '.join(_DIVIDER_STYLES)}")
        c = self.c
        tags = []
        if d.band:
            tags.append(
                tag.section_band(c["accent_soft"], c["accent"], d.band, C.SECTION_ACCENT_WIDTH)
            )
        elif d.style != "delay":
            width = "0.75" if d.style == "thin" else "1"
            dash = "5 4" if d.style == "dashed" else None
            tags.append(tag.rule(c["divider"], width, dash, d.x1, d.x2, d.y))
            if d.pill:
                outline = None if d.style == "thin" else c["divider"]
                pieces = self._pieces(d.pill)
                if len(pieces) == 1:
                    tags.append(tag.pill(*self._patch(d.pill), outline, d.pill))
                else:  # across a band's edge: square pieces, each in the colour it lies on
                    tags += [tag.halo(*self._patch(piece), piece, radius="0") for piece in pieces]
                    if outline is not None:
                        tags.append(tag.pill_outline(outline, d.pill))
        content = group(tags)
        if d.label:
            content += self.text(d.label, "section-label" if d.band else "divider-label")
        return tag.divider(d.style, d.line, content)

    def frame(self, f: BlockFrame) -> str:
        """A block's group: its frame and tab, its label, and each branch's separator, keyword
        and label."""
        c, b = self.c, f.box
        content = tag.frame(C.BLOCK_RADIUS, c["frame"], c["tab"], b, _points(f.tab) + " Z")
        if f.tab_text:  # every frame has its tab (a rect is a highlight, not a frame)
            content += "\n" + self.text(f.tab_text, "block-kind")
        if f.label:
            content += self.text(f.label, "block-label")
        for s in f.separators:
            content += tag.separator(c["frame"], b.x, b.right, s.y) + "\n"
            content += tag.tab(c["frame"], c["tab"], _points(s.tab) + " Z") + "\n"
            content += self.text(s.keyword, "block-kind")
            if s.label:
                content += self.text(s.label, "block-label")
        return tag.block(f.kind, f.line, f.depth, content)

    def highlight(self, f: BlockFrame) -> str:
        """A rect's colour behind its items."""
        assert self.tints is not None
        colour, cls = self._fill(self.tints.of(f))
        shape = tag.highlight(C.BLOCK_RADIUS, cls, f.box, colour)
        return tag.block(f.kind, f.line, f.depth, shape + "\n")

    def band(self, b: Band) -> str:
        """A box's band, and its label at the top."""
        assert self.tints is not None
        fill = self.tints.of_band(b)
        colour, cls = self._fill(fill) if fill else (None, None)
        content = tag.band(C.BAND_RADIUS, colour, cls, self.c["frame"], b.box) + "\n"
        if b.label:
            content += self.text(b.label, "box-label")
        return tag.box_group(b.line, content)

    def _fill(self, fill: Fill | None) -> tuple[str, str]:
        """A rect's colour in this picture's theme, and its class (None: the theme's tint)."""
        if fill is None:
            return self.c["tab"], "vf-tab"
        return fill.dark if self.dark else fill.light, fill.cls

    def _pieces(self, patch: Rect) -> list[Rect]:
        """A label's patch (or a divider's pill), cut where it crosses the edge of a coloured
        band (a label between a box's lane and one outside it), so that each piece takes the
        colour it lies on."""
        if self.tints is None or not self.tints.bands or self.tints.under(patch) is not None:
            return [patch]
        return self.tints.cut_at_bands(patch)

    def _patch(self, patch: Rect) -> tuple[str, str]:
        """The colour and class of a patch that hides the lines behind a label: the page's, or
        on a rect or a coloured band its colour, so that it shows as no box."""
        if self.tints is None:
            return self.c["bg"], "vf-bg"
        on = self.tints.under(patch)
        if on is not None:
            return self._fill(self.tints.of(on))
        band = self.tints.band_under(patch)
        if band is not None:
            return self._fill(self.tints.of_band(band))
        return self.c["bg"], "vf-bg"

    def appendix(self, a: Appendix) -> str:
        """The bodies listed under the picture: a rule, a heading, and each body's heading,
        panel, coloured lines and note."""
        content = self.text(a.heading, "appendix-heading")
        for e in a.entries:
            body = ""
            for b in e.bodies:
                body += self.text(b.heading, "appendix-label")
                if b.panel:
                    body += tag.code(self.c["code"], b.panel.box, radius="4") + "\n"
                if b.code:
                    body += self.text(b.code, "appendix-text")
                if b.note:
                    body += self.text(b.note, "appendix-note")
            content += tag.payload(e.number, body) + "\n"
        return tag.appendix(self.c["divider"], a.x1, a.rule_y, a.x2, content)


def _is_plain(run: Run) -> bool:
    """A run of text drawn as it is set: no icon, code, link, strike or syntax colour."""
    return bool(run.text) and not (
        run.icon is not None or run.code or run.href or run.strike or run.role
    )


def _needs_preserve(text: str) -> bool:
    """Whether the text has spaces SVG would otherwise collapse or drop."""
    return text[:1] == " " or text[-1:] == " " or "  " in text or "\t" in text


# A token of code, as the panel's raw view isolates each highlighted one: a quoted string (its
# text in the first or second group), or a run of anything but code's punctuation and spaces
_CODE_TOKEN = r"\"((?:[^\"\\]|\\.)*)\"|'((?:[^'\\]|\\.)*)'|[^\s{}\[\](),:;=<>\"']+"


# The body's highlighted tokens that are one string each: a wrapped line may cut one, so that
# its run holds a quote at one end only, or none
_ONE_TOKEN = ("syntax_str", "syntax_key")


def _code_in_order(text: str, token: bool = False) -> str:
    """Code as an editor lays it out: left to right (LRI … PDI), each of its tokens that holds
    Hebrew or Arabic reading its own way in its place (FSI … PDI), so that
    `{"الاسم": "أحمد"}` keeps each key before its value, and such words with only spaces
    between them one phrase; other code, and a word alone, as it is. A `token` (a string the
    appendix wrapped, `"אחת שתיים` then `שלוש ארבע"`) reads as one, its words right to left
    as where it is not cut."""
    if not has_right_to_left(text) or re.compile(_CODE_TOKEN).fullmatch(text):
        return text
    if token:
        start = 1 if text[:1] in "\"'" else 0
        end = len(text) - 1 if len(text) > start + 1 and text[-1] in "\"'" else len(text)
        return f"\u2066{text[:start]}\u2068{text[start:end]}\u2069{text[end:]}\u2069"

    def isolated(token: re.Match[str]) -> str:
        inner = 1 if token.group(1) is not None else 2 if token.group(2) is not None else 0
        if not has_right_to_left(token.group(inner)):
            return token.group()
        start, end = token.start(inner) - token.start(), token.end(inner) - token.start()
        written = token.group()
        return f"{written[:start]}\u2068{written[start:end]}\u2069{written[end:]}"

    # right-to-left words with only spaces between read as one phrase, right to left, as an
    # editor shows `# تعليق باللغة العربية`: not each word in its place left to right
    words = re.compile("\u2069([ \t]+)\u2068").sub(
        r"\1", re.compile(_CODE_TOKEN).sub(isolated, text)
    )
    return f"\u2066{words}\u2069"


def _spaced(line: TextLine, runs: list[Run], tags: list[str]) -> str:
    """A line's runs, a space between two words where one was written: each run is placed at
    its own x, so the space draws nothing, but copying the text, finding it in a page and
    reading it aloud get "Send Mcp-Session-Id and", not "SendMcp-Session-Idand". (Not in a
    line that holds right-to-left text, whose runs stand in the order they are seen.)"""
    if line.rtl or any(has_right_to_left(run.text) for run in runs):
        return "".join(tags)
    return "".join(
        " " + tag if run.spaced and i else tag
        for i, (run, tag) in enumerate(zip(runs, tags, strict=True))
    )


def _with_direction(line: TextLine, run: Run, text: str) -> str:
    """A run's text as it reads. SVG text runs left to right unless told, so a run that reads
    right to left (the only run of a line of a right-to-left paragraph, or a piece the
    typesetter found at a right-to-left level, `volley.layout.bidi_levels`) is set apart as a
    right-to-left isolate (RLI … PDI): a full stop ending a Hebrew sentence stands at its left,
    a bracket is drawn mirrored. Inline code reads as an editor shows it (`_code_in_order`),
    in a right-to-left paragraph in the direction of its first letter (FSI … PDI). The marks
    take no room; the PNG and PDF path reads them and then leaves them out. A key's picture
    is drawn with its emoji selector (`drawn_keycaps`)."""
    text = drawn_keycaps(text)
    if run.code and not line.mono:
        return f"\u2068{text}\u2069" if line.rtl else text
    return f"\u2067{text}\u2069" if run.rtl else text


# --- arrows ----------------------------------------------------------------------------------


def _points(points: list[tuple[float, float]]) -> str:
    """A path through the points."""
    return "M" + " L".join([f"{num(x)} {num(y)}" for x, y in points])


def _arrow(points, heads: Sequence[Head]) -> tuple[str, str, list[tuple[str, str]]]:
    """The hit path, the drawn path, and each head's kind and outline, of one arrow."""
    hit = _points(points)
    trimmed = _trim_for_heads(points, heads)
    drawn = hit if trimmed == points else _points(trimmed)
    return hit, drawn, [(h.style, _head(h)) for h in heads]


def _trim_for_heads(points, heads: Sequence[Head]):
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
    (x, y), d, s = head.tip, head.direction, head.scale
    if head.style == "cross":
        k = C.CROSS_SIZE * s
        return (
            f"M{num(x - k)} {num(y - k)} L{num(x + k)} {num(y + k)} "
            f"M{num(x - k)} {num(y + k)} L{num(x + k)} {num(y - k)}"
        )
    length, half = C.HEAD_LENGTH * s, C.HEAD_HALF_WIDTH * s
    back = x - d * length
    if head.style == "open":
        return (
            f"M{num(back)} {num(y - half - 0.5)} L{num(x)} {num(y)}"
            f" L{num(back)} {num(y + half + 0.5)}"
        )
    return f"M{num(x)} {num(y)} L{num(back)} {num(y - half)} L{num(back)} {num(y + half)} Z"
