"""Every tag of a volley picture, written once: the SVG's markup, and nothing else.

Each function returns one tag (or the few tags of one shape) as text. Numbers arrive as
floats and are written by `num`; whatever a user may have written (labels, names, links, icon
ids, a block's kind) arrives as plain text and is escaped here, by `escape`, so that it always
reaches the picture as text, never as markup. Arguments called `content` are markup made by
other functions of this module. Colours, classes and sizes come from the themes and
`volley.layout.constants`.

To add a shape, write its tag here and call it from `volley.output.svg`, which walks the
layout. Colours are presentation attributes with a vf-/vs- role class beside them, so the
`auto` theme's @media block can re-colour them (see `volley.output.themes`).
"""

from __future__ import annotations

from functools import lru_cache

from markupsafe import escape as _escape

from volley.layout import constants as C
from volley.layout.geometry import Anchor, Rect


def escape(text: str) -> str:
    """Text made safe for an element or an attribute value: `& < > " '` become references."""
    return str(_escape(text))


@lru_cache(maxsize=4096)
def num(value: float) -> str:
    """A coordinate as text: two decimals at most, no trailing zeros, never "-0".

    Written from the integer count of hundredths, so the text never depends on float repr and
    the output is the same bytes on every machine. Cached: a picture repeats its coordinates
    (its lanes, sizes and each arrow's y a few times over), and a few thousand of them get
    every hit a 10,000-message picture has; more would only be kept for the process's life.
    """
    hundredths = round(value * 100)
    whole, part = divmod(abs(hundredths), 100)
    sign = "-" if hundredths < 0 else ""
    return f"{sign}{whole}.{part:02d}".rstrip("0") if part else f"{sign}{whole}"


def _box(x: float, y: float, w: float, h: float) -> str:
    return f'x="{num(x)}" y="{num(y)}" width="{num(w)}" height="{num(h)}"'


def _line(x1: float, y1: float, x2: float, y2: float) -> str:
    return f'x1="{num(x1)}" y1="{num(y1)}" x2="{num(x2)}" y2="{num(y2)}"'


def group(tags: list[str]) -> str:
    """Tags as a group holds them: one a line."""
    return "\n".join(tags) + "\n" if tags else ""


# --- the document ----------------------------------------------------------------------------


def document(
    *,
    prefix: str,
    width: float,
    height: float,
    top: float,
    font: str,
    text_rendering: str | None,
    title: str,
    desc: str,
    css: str | None,
    defs: str,
    bg: str,
    groups: dict[str, str],
    heading: str | None,
    appendix: str | None,
) -> str:
    """The picture: its size, title and description, the icons it uses (`defs`: `symbol`s),
    its groups in painting order (`groups`: class → content), the title and the appendix.

    Every place in it is measured from the left, so it says it runs left to right: inline in a
    right-to-left page, it would otherwise take the page's direction, and each text would
    start at its x and run leftwards."""
    p, w, h = escape(prefix), num(width), num(height)
    own = escape(picture_id(prefix))
    rendering = f' text-rendering="{escape(text_rendering)}"' if text_rendering else ""
    tags = [
        f'<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"'
        f' id="{own}" class="volley" width="{w}" height="{h}" viewBox="0 {num(top)} {w} {h}"'
        f' role="img" aria-labelledby="{p}-title {p}-desc" font-family="{escape(font)}"'
        f' direction="ltr"{rendering}>',
        f'<title id="{p}-title">{escape(title)}</title>',
        f'<desc id="{p}-desc">{escape(desc)}</desc>',
    ]
    if css:
        tags.append(f"<style>{escape(css)}</style>")
    if defs:
        tags.append(f"<defs>\n{defs}</defs>")
    y = f' y="{num(top)}"' if num(top) != "0" else ""
    tags.append(f'<rect class="background vf-bg"{y} width="100%" height="100%" fill="{bg}"/>')
    tags += [f'<g class="{name}">\n{content}</g>' for name, content in groups.items()]
    if heading is not None:
        tags.append(f'<g class="title">\n{heading}</g>')
    if appendix is not None:
        tags.append(appendix)
    tags.append("</svg>")
    return group(tags)


def picture_id(prefix: str) -> str:
    """The picture's own id, which its stylesheet's rules name. Not the bare prefix: a docs
    page's diagram is named like the section it stands in (`name="login"` under `## Login`),
    and the heading's id is that name."""
    return f"{prefix}-svg"


def symbol(id: str, view_box: str, d: str) -> str:
    """An icon's outline, drawn where `icon` uses it."""
    return (
        f'<symbol id="{escape(id)}" viewBox="{escape(view_box)}"><path d="{escape(d)}"/></symbol>'
    )


# --- groups ----------------------------------------------------------------------------------


def block(kind: str, line: int, depth: int, content: str) -> str:
    """A block (`if`, `loop` ...): its frame and tab, its label, its branches."""
    return (
        f'<g class="block block-{escape(kind)}" data-line="{line:d}" data-depth="{depth:d}">\n'
        f"{content}</g>"
    )


def divider(style: str, line: int, content: str) -> str:
    """A divider: a section's band, a delay's gap or a rule, and its label."""
    return f'<g class="divider divider-{escape(style)}" data-line="{line:d}">\n{content}</g>'


def participant(index: int, name: str, content: str) -> str:
    """A participant: its box at the top and at the bottom, each with its name."""
    return (
        f'<g class="participant" data-participant="{index:d}" data-name="{escape(name)}">\n'
        f"{content}</g>"
    )


def message(
    *,
    is_self: bool,
    number: int,
    line: int,
    sender: str,
    receiver: str,
    payload: int | None,
    content: str,
) -> str:
    """A message's group, with the viewer's hooks; `payload` is None when it carries no body."""
    cls = "message message-self" if is_self else "message"
    has = "" if payload is None else f' data-has-payload="true" data-payload="{payload:d}"'
    return (
        f'<g class="{cls}" data-message="{number:d}" data-line="{line:d}"'
        f' data-from="{escape(sender)}" data-to="{escape(receiver)}"{has}>\n{content}</g>'
    )


def note(line: int, over: str, side: str, content: str) -> str:
    """A note: its paper, the tint behind its code, its bullets and its text; `side` says
    where one beside its lane stands (`left`, `right`), nothing for one over its lanes."""
    at = f'data-line="{line:d}" data-over="{escape(over)}"'
    if side != "over":
        at += f' data-side="{side}"'
    return f'<g class="note" {at}>\n{content}</g>'


def appendix(colour: str, x1: float, y: float, x2: float, content: str) -> str:
    """The bodies listed under the picture (`bodies="appendix"`), after a rule."""
    return (
        f'<g class="appendix">\n<line class="rule vs-divider" {_line(x1, y, x2, y)}'
        f' stroke="{colour}" stroke-width="1"/>\n{content}</g>'
    )


def payload(number: int, content: str) -> str:
    """One body of the appendix: its marker, its heading, its code panels and lines."""
    return f'<g class="payload" data-payload="{number:d}">\n{content}</g>'


# --- shapes ----------------------------------------------------------------------------------


def lifeline(colour: str, dash: str, index: int, x: float, y1: float, y2: float) -> str:
    """A piece of a participant's lifeline (a delay breaks the line)."""
    return (
        f'<line class="lifeline vs-lifeline" data-participant="{index:d}" {_line(x, y1, x, y2)}'
        f' stroke="{colour}" stroke-width="1.5" stroke-dasharray="{dash}"'
        ' stroke-linecap="round"/>'
    )


def activation(fill: str, stroke: str, index: int, line: int, depth: int, box: Rect) -> str:
    """A bar on a participant's lifeline while it is active."""
    return (
        f'<rect class="activation vf-surface vs-border" data-participant="{index:d}"'
        f' data-line="{line:d}" data-depth="{depth:d}" {_box(box.x, box.y, box.w, box.h)}'
        f' fill="{fill}" stroke="{stroke}" stroke-width="1"/>'
    )


def participant_box(
    radius: float, shadow: float, shadow_colour: str, surface: str, border: str, box: Rect
) -> str:
    """A participant's box, on the flat shadow that lifts it off the page."""
    place, r, s = _box(box.x, box.y, box.w, box.h), num(radius), num(shadow)
    return (
        f'<rect class="shadow vf-shadow" {place} rx="{r}" fill="{shadow_colour}"'
        f' transform="translate({s} {s})"/>\n'
        f'<rect class="box vf-surface vs-border" {place} rx="{r}" fill="{surface}"'
        f' stroke="{border}" stroke-width="1.25"/>'
    )


def arrow(
    style: str, colour: str, width: float, dash: str | None, hit_width: float, hit: str, d: str
) -> str:
    """A message's invisible hit area (`hit`, the path a click may land on) and its line."""
    dashes = f' stroke-dasharray="{dash}"' if dash else ""
    return (
        f'<path class="hit" d="{hit}" fill="none" stroke="#000" stroke-opacity="0"'
        f' stroke-width="{num(hit_width)}"/>\n'
        f'<path class="arrow arrow-{style} vs-line" d="{d}" fill="none" stroke="{colour}"'
        f' stroke-width="{num(width)}"{dashes} stroke-linejoin="round"/>'
    )


def head(kind: str, colour: str, width: float, d: str) -> str:
    """An arrow's head: filled, open or a cross (`kind`), drawn along the outline `d`."""
    if kind == "filled":
        return (
            f'<path class="head head-filled vf-line vs-line" d="{d}" fill="{colour}"'
            f' stroke="{colour}" stroke-width="1" stroke-linejoin="round"/>'
        )
    return (
        f'<path class="head head-{kind} vs-line" d="{d}" fill="none" stroke="{colour}"'
        f' stroke-width="{num(width)}" stroke-linecap="round" stroke-linejoin="round"/>'
    )


def highlight(radius: float, cls: str, box: Rect, colour: str) -> str:
    """A rect's colour behind its items; `cls` names the colour for the dark-mode rules."""
    place = _box(box.x, box.y, box.w, box.h)
    return f'<rect class="highlight {cls}" {place} rx="{num(radius)}" fill="{colour}"/>'


def band(radius: float, fill: str | None, cls: str | None, stroke: str, box: Rect) -> str:
    """A box's band behind the participants it holds: its colour (`cls` names it for the
    dark-mode rules), or no fill, and a thin outline."""
    place = _box(box.x, box.y, box.w, box.h)
    painted = (
        f'class="band {cls} vs-frame" fill="{fill}"'
        if fill
        else 'class="band vs-frame" fill="none"'
    )
    return f'<rect {painted} {place} rx="{num(radius)}" stroke="{stroke}" stroke-width="1"/>'


def box_group(line: int, content: str) -> str:
    """A box (Mermaid's): its band and its label."""
    return f'<g class="box" data-line="{line:d}">\n{content}</g>'


def halo(colour: str, cls: str, box: Rect, radius: str = "3") -> str:
    """The patch behind a label, so a line crossing it does not strike it out: the page's
    colour (`vf-bg`), or on a rect or a band its colour."""
    place = _box(box.x, box.y, box.w, box.h)
    return f'<rect class="halo {cls}" {place} rx="{radius}" fill="{colour}"/>'


def code(colour: str, box: Rect, radius: str = "3") -> str:
    """The tint behind inline code, behind a code block in a note (and, with a radius of 4,
    behind a body in the appendix)."""
    place = _box(box.x, box.y, box.w, box.h)
    return f'<rect class="code vf-code" {place} rx="{radius}" fill="{colour}"/>'


def marker(fill: str, stroke: str, radius: float, box: Rect, contents: str) -> str:
    """The pill of a payload, on its arrow and in the appendix, with what it holds as its
    `title` (a browser shows it when a pointer rests on the pill)."""
    start = (
        f'<rect class="marker vf-accent_soft vs-accent" {_box(box.x, box.y, box.w, box.h)}'
        f' rx="{num(radius)}" fill="{fill}" stroke="{stroke}" stroke-width="1"'
    )
    return f"{start}><title>{escape(contents)}</title></rect>" if contents else f"{start}/>"


def badge(fill: str, box: Rect) -> str:
    """The autonumber pill before a label."""
    return (
        f'<rect class="autonumber vf-badge" {_box(box.x, box.y, box.w, box.h)}'
        f' rx="{num(box.h / 2)}" fill="{fill}"/>'
    )


def frame(radius: float, stroke: str, tab_fill: str, box: Rect, tab_outline: str) -> str:
    """A block's frame, and the tab (along `tab_outline`) that names its kind."""
    return (
        f'<rect class="frame vs-frame" {_box(box.x, box.y, box.w, box.h)} rx="{num(radius)}"'
        f' fill="none" stroke="{stroke}" stroke-width="1"/>\n{tab(stroke, tab_fill, tab_outline)}'
    )


def tab(stroke: str, fill: str, outline: str) -> str:
    """The tab that names a block's kind, or an `else`/`and` branch, along `outline`."""
    return (
        f'<path class="tab vf-tab vs-frame" d="{outline}" fill="{fill}" stroke="{stroke}"'
        ' stroke-width="1"/>'
    )


def separator(stroke: str, x1: float, x2: float, y: float) -> str:
    """The line across a block before its `else` or `and` branch."""
    return (
        f'<line class="separator vs-frame" {_line(x1, y, x2, y)} stroke="{stroke}"'
        ' stroke-width="1" stroke-dasharray="4 3"/>'
    )


def table_rule(stroke: str, x1: float, x2: float, y: float) -> str:
    """The line between two rows of a table in a note."""
    return (
        f'<line class="table-rule vs-note_border" {_line(x1, y, x2, y)} stroke="{stroke}"'
        ' stroke-width="1"/>'
    )


def note_paper(fill: str, stroke: str, outline: str, fold: str) -> str:
    """A note's paper and its folded corner."""
    return (
        f'<path class="paper vf-note vs-note_border" d="{outline}" fill="{fill}"'
        f' stroke="{stroke}" stroke-width="1" stroke-linejoin="round"/>\n'
        f'<path class="fold vf-note_border" d="{fold}" fill="{stroke}"/>'
    )


def section_band(fill: str, accent: str, box: Rect, accent_width: float) -> str:
    """A section's band, with the accent bar at its left edge."""
    return (
        f'<rect class="band vf-accent_soft" {_box(box.x, box.y, box.w, box.h)} rx="3"'
        f' fill="{fill}"/>\n'
        f'<rect class="accent vf-accent" {_box(box.x, box.y, accent_width, box.h)} rx="1.5"'
        f' fill="{accent}"/>'
    )


def rule(colour: str, width: str, dash: str | None, x1: float, x2: float, y: float) -> str:
    """A divider's line across the picture."""
    dashes = f' stroke-dasharray="{dash}"' if dash else ""
    return (
        f'<line class="rule vs-divider" {_line(x1, y, x2, y)} stroke="{colour}"'
        f' stroke-width="{width}"{dashes}/>'
    )


def pill(bg: str, bg_cls: str, outline: str | None, box: Rect) -> str:
    """The patch behind a divider's label, which hides the rule: the page's colour (`vf-bg`)
    or a rect's; `outline` its stroke colour (None for none)."""
    cls, stroke = f"pill {bg_cls}", ""
    if outline is not None:
        cls, stroke = f"pill {bg_cls} vs-divider", f' stroke="{outline}" stroke-width="1"'
    return (
        f'<rect class="{cls}" {_box(box.x, box.y, box.w, box.h)} rx="{_pill_radius(box)}"'
        f' fill="{bg}"{stroke}/>'
    )


def _pill_radius(box: Rect) -> str:
    return num(min(box.h / 2, C.DIVIDER_PILL_RADIUS))


def pill_outline(outline: str, box: Rect) -> str:
    """A divider pill's outline alone, over the patches of the colours it lies on (a pill
    across a band's edge)."""
    return (
        f'<rect class="pill vs-divider" {_box(box.x, box.y, box.w, box.h)} rx="{_pill_radius(box)}"'
        f' fill="none" stroke="{outline}" stroke-width="1"/>'
    )


# --- text ------------------------------------------------------------------------------------


def text(
    cls: str,
    role: str,
    colour: str,
    size: float,
    x: float,
    y: float,
    words: str,
    *,
    preserve: bool = False,
    mono: str | None = None,
    bold: bool = False,
    italic: bool = False,
    anchor: Anchor = "start",
) -> str:
    """A line of text of one style, at (x, y) on its baseline; `preserve` keeps its spaces;
    `anchor` is the point of the line at x (its start unless said)."""
    attrs = f' x="{num(x)}" y="{num(y)}"'
    if anchor != "start":
        attrs += f' text-anchor="{anchor}"'
    if bold:
        attrs += ' font-weight="bold"'
    if italic:
        attrs += ' font-style="italic"'
    return f"{_text_tag(cls, role, colour, size, mono, preserve)}{attrs}>{escape(words)}</text>"


def text_runs(
    cls: str, role: str, colour: str, size: float, runs: str, *, preserve: bool, mono: str | None
) -> str:
    """A line of several runs: its `tspan`s (`runs`, markup) each have their own place."""
    return f"{_text_tag(cls, role, colour, size, mono, preserve)}>{runs}</text>"


def _text_tag(
    cls: str, role: str, colour: str, size: float, mono: str | None, preserve: bool
) -> str:
    """The start of a `<text>` tag, without its place and face."""
    tag = f'<text class="{cls} vf-{role}" fill="{colour}" font-size="{num(size)}"'
    if mono:
        tag += f' font-family="{escape(mono)}"'
    if preserve:
        tag += ' xml:space="preserve"'
    return tag


def tspan(
    x: float,
    y: float,
    content: str,
    *,
    bold: bool = False,
    italic: bool = False,
    mono: str | None = None,
    code_size: float | None = None,
    link: str | None = None,
    role: tuple[str, str] | None = None,
    anchor: Anchor = "start",
) -> str:
    """One run of a line of several: its place (the point its `anchor` end is drawn from),
    its face, a link's colour (`link`), or the (role, colour) of its syntax in an appendix
    body (`role`; comments in italics)."""
    attrs = "" if anchor == "start" else f' text-anchor="{anchor}"'
    attrs += ' font-weight="bold"' if bold else ""
    if italic:
        attrs += ' font-style="italic"'
    if code_size is not None:
        attrs += f' font-family="{escape(mono or "")}" font-size="{num(code_size)}"'
    if link is not None:
        attrs += f' class="link vf-accent" fill="{link}" text-decoration="underline"'
    elif role is not None:
        attrs += f' class="vf-{escape(role[0])}" fill="{role[1]}"'
        if role[0] == "syntax_com":
            attrs += ' font-style="italic"'
    return f'<tspan x="{num(x)}" y="{num(y)}"{attrs}>{escape(content)}</tspan>'


def link(href: str, content: str) -> str:
    """A linked run or icon."""
    return f'<a xlink:href="{escape(href)}">{content}</a>'


def strike(role: str, colour: str, x1: float, x2: float, y: float) -> str:
    """The line through struck-out text (~~text~~)."""
    return (
        f'<line class="strike vs-{role}" {_line(x1, y, x2, y)} stroke="{colour}" stroke-width="1"/>'
    )


def underline(colour: str, x1: float, x2: float, y: float) -> str:
    """The line under a link, where `text-decoration` is not drawn (PNG and PDF)."""
    return (
        f'<line class="underline vs-accent" {_line(x1, y, x2, y)} stroke="{colour}"'
        ' stroke-width="1"/>'
    )


def icon(
    role: str, colour: str, id: str, x: float, y: float, w: float, h: float, turn: str = ""
) -> str:
    """An inline icon: a use of its `symbol`, turned about its centre as `turn` says."""
    return (
        f'<use class="icon vf-{role}" xlink:href="#{escape(id)}" {_box(x, y, w, h)}'
        f'{_turned(turn, x + w / 2, y + h / 2)} fill="{colour}"/>'
    )


def _turned(turn: str, cx: float, cy: float) -> str:
    """The transform of Font Awesome's rotate and flip classes (`rotate-90`, `flip-both`),
    about the point (cx, cy); none for no turn."""
    if not turn:
        return ""
    if turn.startswith("rotate-"):
        return f' transform="rotate({turn.removeprefix("rotate-")} {num(cx)} {num(cy)})"'
    sx = -1 if turn in ("flip-horizontal", "flip-both") else 1
    sy = -1 if turn in ("flip-vertical", "flip-both") else 1
    return f' transform="matrix({sx} 0 0 {sy} {num(cx - sx * cx)} {num(cy - sy * cy)})"'


def missing_icon(fill: str, stroke: str, x: float, y: float, w: float, h: float) -> str:
    """An icon volley does not know: a quiet empty tile of its size (its warning names it)."""
    return (
        f'<rect class="icon-missing vf-code vs-missing" {_box(x, y, w, h)} rx="2"'
        f' fill="{fill}" stroke="{stroke}" stroke-width="0.75"/>'
    )
