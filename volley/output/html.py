"""The interactive page: the diagram with a panel that shows what each arrow carries.

Python builds a plain view of every message (who sends it to whom, its label as styled spans,
its payloads as text and table rows) and hands it to the templates in
`templates/html/`. The page carries that view once, as JSON: the text of a
`<template class="vl-data">` that the viewer script reads to build the panel when an arrow is
clicked. Each body is in it once, as text (the raw view, coloured by the script when first
shown, and what Copy copies); its table rows say where their values stand in that text rather
than saying them again (`page_rows.py`), so a big diagram's page stays close to the size of
its picture. Without scripts the drawing is all there is, and a
`<noscript>` note says what the arrows would show. The JSON is not in a `<script>`:
mkdocs-material's instant navigation re-runs a new page's inline scripts from their text
alone, and a JSON script would become one that runs (see `embed.py`).

Every user string reaches the page as text: the templates autoescape, the JSON is escaped so
that it holds no markup (see `embed.py`), and the viewer script builds its DOM with
`textContent` and `setAttribute`, never with markup.

A standalone page (`fragment=False`) is one file with everything inline. A fragment is one
`<div class="volley-diagram">` whose styles are scoped to that class and whose ids carry a
per-diagram prefix, so a page may hold several; `html_assets()` gives the stylesheet and script
for a page that includes them once for all its fragments.
"""

from __future__ import annotations

import json
import re
from collections import defaultdict, deque
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from functools import cache, cached_property
from itertools import count
from typing import Any, Literal

from jinja2 import Environment
from markupsafe import Markup

from volley.layout.geometry import Layout
from volley.layout.typeset import clean_text, drawn_keycaps
from volley.model import Block, Diagram, Item, Message, Payload, default_id_prefix
from volley.output.embed import embedded_json_list
from volley.output.html_theme import theme_css
from volley.output.page_rows import FORMAT, KINDS, table_json
from volley.resources import read_text, resource_path, template_environment
from volley.text.highlight import Colouring, colouring
from volley.text.icons import resolve_icon
from volley.text.inline import Span, ended, parse_inline, plain_text
from volley.text.payload_tables import Table, body_table

__all__ = ["html_assets", "render_html", "message_views", "MessageView", "PayloadView"]

# How payload_tables begins a reason when the body is simply not a kind of text with a table.
_NOT_TABULAR = ("no table", "the body is empty")
Direction = Literal["in", "out"]
_PORTRAIT_ROOM = 717  # CSS px across A4 (8.27 in) within Chromium's 0.4 in print margins


# --- the view ---------------------------------------------------------------------------------


@dataclass
class PayloadView:
    """One `in:` or `out:` body as the panel shows it."""

    direction: Direction
    label: str
    lang: str | None
    body: str
    table: Table
    colour: Colouring | None  # how the viewer colours the raw body (highlight.py)

    @property
    def why_no_table(self) -> str | None:
        """The table's reason as a sentence: "No table for lang …", "No table: the JSON …"."""
        reason = self.table.reason
        if not reason:
            return None
        if reason.startswith("no table"):
            return reason[0].upper() + reason[1:]
        return "No table: " + reason

    @property
    def warns(self) -> bool:
        """Whether the raw view says why there is no table: when the body was meant to give
        one (JSON that does not parse, an event stream without events), not for plain text or
        an empty body, which were never meant as tables."""
        reason = self.table.reason
        return reason is not None and not reason.startswith(_NOT_TABULAR)

    def to_json(self) -> dict[str, Any]:
        table = self.table
        return {
            "dir": self.direction,
            "label": self.label,
            "lang": self.lang,
            "body": self.body,
            "colour": self.colour,
            # the rows as places in `body` (page_rows.py); no `groups` or `hasTable`, which a
            # viewer older than format 2 would read: it shows such a payload as Raw alone
            "table": table_json(table, self.body),
            "reason": self.why_no_table,
            "warn": self.warns,
            "bodyReason": table.body_reason,
            "start": table.start.to_json() if table.start else None,
        }


@dataclass
class MessageView:
    """A message as the viewer shows it: the flow as drawn, not as written.

    `sender`/`receiver` follow the arrow head (`B <- A` is A sending to B); `both` marks a
    two-headed arrow. `reply` is the message that answers this one, `request` the one this
    message answers (see `_pair_replies`); the viewer highlights the pair together.
    """

    index: int  # position in document order from 1: `data-message`, `#message-N`
    number: int | None  # the autonumber drawn on the diagram, if any
    sender: str
    receiver: str
    both: bool
    label: str  # source text with markup
    spans: list[list[Span]]
    payloads: list[PayloadView] = field(default_factory=list)
    reply: int | None = None
    request: int | None = None
    marker: int | None = None  # the number of its payload marker on the picture, if it has one
    # the picture numbered messages before this one, then stopped (`autonumber off`): its
    # place in the document would be heard as one of their numbers
    among_numbered: bool = False

    @cached_property
    def text(self) -> str:
        return plain_text(self.label)

    @property
    def name(self) -> str:
        """What the message is called to a screen reader, on its button and its panel."""
        if self.number is not None:
            return f"Message {self.number}"
        return "Unnumbered message" if self.among_numbered else f"Message {self.index}"

    @property
    def aria_label(self) -> str:
        """What a screen reader hears for the message's button: its name, then a comma (the
        viewer calls the panel by the name before it)."""
        said = f"{self.name}, {self.sender} {'and' if self.both else 'to'} {self.receiver}"
        if self.text:
            said += f": {self.text}"
        if self.payloads:
            said = ended(said) + " Carries " + " and ".join(p.label for p in self.payloads)
        return said

    @property
    def badge(self) -> str:
        """The number the panel shows: the one the picture shows for the message, its
        autonumber or else its payload marker's (a message index it never shows would read as
        one of those), or none."""
        if self.number is not None:
            return str(self.number)
        return "" if self.marker is None else str(self.marker)

    def to_json(self) -> dict[str, Any]:
        # Every field a viewer has ever read stays: the first copy of the viewer in a document
        # serves every diagram in it, and it may be older than the page (a notebook's earlier
        # outputs, a docs site's instant navigation across a new deploy).
        return {
            "n": self.index,
            "badge": self.badge,
            "from": self.sender,
            "to": self.receiver,
            "both": self.both,
            "label": [[_span_json(span) for span in line] for line in self.spans],
            "text": self.text,
            "aria": self.aria_label,
            "reply": self.reply,
            "request": self.request,
            "payloads": [payload.to_json() for payload in self.payloads],
        }


def message_views(diagram: Diagram, layout: Layout | None = None) -> list[MessageView]:
    """Every message in document order, with payload tables, reply pairs and, from the
    `layout` drawn, the numbers of their payload markers."""
    return list(_views(diagram, layout))


def _views(diagram: Diagram, layout: Layout | None = None) -> Iterator[MessageView]:
    """The views one at a time, so that a page is written without holding all of them: the
    reply pairs need only who sends to whom, which is worked out first."""
    messages = diagram.messages()
    flows = [_flow(message, diagram) for message in messages]
    replies = _pair_replies(messages, flows, _alternatives(diagram.items))
    markers = {m.number: m.marker.number for m in layout.messages if m.marker} if layout else {}
    numbered = False  # a message before this one is numbered
    for index, (message, flow) in enumerate(zip(messages, flows, strict=True), 1):
        view = _message_view(index, message, flow)
        view.reply, view.request = replies.get(index, (None, None))
        view.marker = markers.get(index)
        view.among_numbered = numbered
        numbered = numbered or message.number is not None
        yield view


def _message_view(index: int, message: Message, flow: tuple[str, str, bool]) -> MessageView:
    sender, receiver, both = flow
    label = clean_text(message.label)
    sides: tuple[tuple[Direction, Payload | None], ...] = (
        ("in", message.request),
        ("out", message.response),
    )
    payloads = [_payload_view(side, payload) for side, payload in sides if payload is not None]
    return MessageView(
        index=index,
        number=message.number,
        sender=sender,
        receiver=receiver,
        both=both,
        label=label,
        spans=parse_inline(label) if label else [],
        payloads=payloads,
    )


def _flow(message: Message, diagram: Diagram) -> tuple[str, str, bool]:
    """(from, to, two-way) as the arrow is drawn, each named as the picture shows it
    (`participant A as Long name`: the panel names A as drawn)."""
    sender, receiver, both = message.flow
    return clean_text(diagram.shown(sender)), clean_text(diagram.shown(receiver)), both


def _payload_view(direction: Direction, payload: Payload) -> PayloadView:
    body = _unturned(clean_text(payload.body))
    lang = clean_text(payload.lang) if payload.lang else None
    table = body_table(body, lang)
    if any(_TURNING.search(row.key + row.value) for row in table.rows):  # JSON's `\u202e`
        rows = [
            replace(row, key=_unturned(row.key), value=_unturned(row.value)) for row in table.rows
        ]
        table = replace(table, rows=rows)
    return PayloadView(
        direction=direction,
        label=clean_text(payload.label) or ("Request" if direction == "in" else "Response"),
        lang=lang,
        body=body,
        table=table,
        colour=colouring(lang, table.source),
    )


# The characters that turn the text after them round (an override, an embedding, an isolate):
# in a body they would show `"‮Admin"` as "nimdA" and a header's words backwards, so the panel
# shows them as their escapes, as the picture shows them in labels
_TURNING = re.compile("[\u202a-\u202e\u2066-\u2069]")


def _unturned(text: str) -> str:
    return _TURNING.sub(lambda found: f"\\u{ord(found[0]):04x}", text)


def _pair_replies(
    messages: list[Message],
    flows: list[tuple[str, str, bool]],
    branches: list[tuple[tuple[int, int], ...]] | None = None,
) -> dict[int, tuple[int | None, int | None]]:
    """Pair each message with the reply that answers it: for each message in a pair, by its
    index in document order from 1, (its reply, the request it answers).

    `flows` are (from, to, two-way) in document order. A reply is a later message going back
    between the same two that can answer: a JSON-RPC reply; not a JSON-RPC call; a dashed
    arrow; or a solid one where no dashed arrow goes that way between them (a server's own
    solid call back, where its replies are dashed, is no reply), unless it carries only an
    `in:` body (a call of its own). A dashed arrow that answers nothing waits for no reply.
    It answers the JSON-RPC call of its id, where it has one;
    otherwise the first still waiting (as HTTP/1.1 answers in order: in `A→B, A→B, B→A, B→A`
    the first reply answers the first request). A JSON-RPC notification waits for nothing;
    self messages and two-way arrows pair with nothing. One pass with a queue per direction,
    so a long diagram costs no more than a short one.

    `branches` are the alternatives each message is in (`_alternatives`): each branch of an
    `if` starts from what was waiting where the block began, so that `else`'s `500` answers
    the request that `if`'s `200` answered (the request's own reply is the first).
    """
    dashed_ways = {
        flow[:2] for message, flow in zip(messages, flows, strict=True) if _dashed(message)
    }
    pairs: dict[int, tuple[int | None, int | None]] = {}
    waiting: dict[tuple[str, str], deque[tuple[int, str | None]]] = defaultdict(deque)
    begun: dict[int, tuple[int, dict[tuple[str, str], deque[tuple[int, str | None]]]]] = {}
    for index, (message, (sender, receiver, both)) in enumerate(
        zip(messages, flows, strict=True), 1
    ):
        for block, branch in branches[index - 1] if branches else ():
            if block not in begun:  # what was waiting where the block began
                begun[block] = (branch, _copied(waiting))
            elif begun[block][0] != branch:  # another alternative: from there again
                begun[block] = (branch, begun[block][1])
                waiting = _copied(begun[block][1])
        if both or sender == receiver:
            continue
        kind, rpc_id = _rpc_role(message)
        if kind == "notification":
            continue
        asked = waiting[(receiver, sender)]
        answers = kind == "reply" or (
            kind is None
            and (
                _dashed(message)
                or (
                    (sender, receiver) not in dashed_ways
                    and not (message.request is not None and message.response is None)
                )
            )
        )
        request = _answered(asked, rpc_id) if answers else None
        if request is not None:
            pairs.setdefault(request, (index, None))  # answered waiting for none; first kept
            pairs[index] = (None, request)
        elif kind == "request" or (kind is None and not _dashed(message)):
            # a call waits for its reply; a dashed arrow is one (an event, an answer to what
            # the diagram does not show), which waits for none
            waiting[(sender, receiver)].append((index, rpc_id))
    return pairs


def _copied(
    waiting: dict[tuple[str, str], deque[tuple[int, str | None]]],
) -> dict[tuple[str, str], deque[tuple[int, str | None]]]:
    return defaultdict(deque, {way: deque(asked) for way, asked in waiting.items()})


def _alternatives(items: list[Item]) -> list[tuple[tuple[int, int], ...]]:
    """For each message in document order, the alternatives it is in: (block, branch) for
    each `if` or `critical` around it, blocks numbered as they begin."""
    found: list[tuple[tuple[int, int], ...]] = []
    blocks = count()

    def visit(items: list[Item], path: tuple[tuple[int, int], ...]) -> None:
        for item in items:
            if isinstance(item, Message):
                found.append(path)
            elif isinstance(item, Block):
                number = next(blocks)
                exclusive = item.kind in ("if", "critical")
                for branch, part in enumerate(item.branches):
                    visit(part.items, (*path, (number, branch)) if exclusive else path)

    visit(items, ())
    return found


def _dashed(message: Message) -> bool:
    return message.style.line == "dashed"


def _answered(asked: deque[tuple[int, str | None]], rpc_id: str | None) -> int | None:
    """The waiting request a reply answers, taken from the queue: the first waiting, for a
    reply without a JSON-RPC id; else the call of its id, or a call whose id could not be read
    (what an error with a null id answers); none where there is neither."""
    if not asked:
        return None
    if rpc_id is None:
        return asked.popleft()[0]
    for wanted in (rpc_id, None):
        for k, (index, asked_id) in enumerate(asked):
            if asked_id == wanted:
                del asked[k]
                return index
    return None


def _rpc_role(message: Message) -> tuple[str | None, str | None]:
    """What a JSON-RPC message carried says it is ("request", "notification", "reply" or
    None when it carries none), and its id; a message named for a notification is one."""
    for payload in (message.request, message.response):
        if payload is None or '"jsonrpc"' not in payload.body:
            continue
        try:
            body = json.loads(payload.body)
        except ValueError:
            continue
        if not isinstance(body, dict):
            continue
        rpc_id = json.dumps(body["id"]) if "id" in body else None
        if "method" in body:
            return ("request" if rpc_id is not None else "notification"), rpc_id
        if "result" in body or "error" in body:
            return "reply", rpc_id
    if _NOTIFICATION_LABEL.match(message.label):  # drawn without its body
        return "notification", None
    return None, None


# A message named for a notification of MCP or LSP (`notifications/progress`, `$/progress`),
# which answers nothing and waits for nothing
_NOTIFICATION_LABEL = re.compile(r"[`*_]*(?:notifications/|\$/)\S")


def _span_json(span: Span) -> dict[str, Any]:
    """A label span for the panel: text (keys drawn as in the picture) and the styles it has
    (absent means off)."""
    out: dict[str, Any] = {"t": drawn_keycaps(span.text)}
    for key, on in (("b", span.bold), ("i", span.italic), ("s", span.strike), ("c", span.code)):
        if on:
            out[key] = 1
    if span.href:
        out["h"] = span.href
    if span.icon is not None:
        icon = resolve_icon(span.icon)
        if icon is not None:
            out["icon"] = [icon.width, icon.height, icon.path]
            if span.icon.turn:
                out["turn"] = span.icon.turn
    return out


# --- assets and templates ---------------------------------------------------------------------


@cache
def _environment() -> Environment:
    return template_environment(resource_path("templates", "html"), __file__, autoescape=True)


def _checked(name: str, text: str) -> str:
    closing = "</style" if name.endswith(".css") else "</script"
    if closing in text.lower():  # would end the inline element early
        raise RuntimeError(f"templates/html/{name} must not contain {closing}")
    return text


@cache
def html_assets() -> tuple[str, str]:
    """(css, js) for pages that hold fragments rendered with `include_assets=False`.

    Put the CSS in a `<style>` and the JS in a `<script>` once per page; both are scoped to
    `.volley-diagram` and the script sets itself up once however often it is included. Both
    go out minified (rcssmin, rjsmin: comments and spaces out, nothing renamed): every
    standalone page and every notebook output carries them, and their comments were a
    third of a small diagram's page.
    """
    from rcssmin import cssmin
    from rjsmin import jsmin

    css = theme_css() + read_text(resource_path("templates", "html", "volley.css"))
    js = read_text(resource_path("templates", "html", "volley.js"))
    return _checked("volley.css", cssmin(css)), _checked("volley.js", jsmin(js))


# --- rendering --------------------------------------------------------------------------------


def render_html(
    diagram: Diagram,
    layout: Layout,
    *,
    theme: str = "auto",
    fragment: bool = False,
    include_assets: bool = True,
    id_prefix: str | None = None,
) -> str:
    """The interactive HTML for a laid-out diagram: a whole page, or a fragment to embed.

    `theme` is light, dark, or auto (follow the reader's setting, and mkdocs-material's
    palette switch). A fragment's ids and deep links (`#PREFIX-message-N`) start with
    `id_prefix` (default: from the content); a page's deep links are `#message-N`.
    `include_assets=False` leaves out the stylesheet and script of a fragment, for pages
    that include `html_assets()` once. `layout` is the diagram as `volley.layout` laid it out.
    """
    from volley.output.svg import safe_id

    prefix = safe_id(id_prefix or default_id_prefix(diagram))
    svg = _diagram_svg(diagram, layout, prefix)
    css, js = html_assets()
    context = {
        "prefix": prefix,
        "anchor": f"{prefix}-" if fragment else "",
        "theme": theme,
        "title": clean_text(plain_text(diagram.title)) if diagram.title else "",
        "svg": svg,
        "width": f"{layout.width:.0f}",
        "carrying": any(m.request or m.response for m in diagram.messages()),  # a Payload or None
        "data": embedded_json_list(
            "messages",
            (view.to_json() for view in _views(diagram, layout)),
            before={"format": FORMAT, "kinds": KINDS},
        ),
        "css": Markup(css),
        "js": Markup(js),
        "include_assets": include_assets or not fragment,
        "page": not fragment,
        "landscape": _landscape(layout),
    }
    template = "fragment.html.j2" if fragment else "page.html.j2"
    return _environment().get_template(template).render(context)


def _landscape(layout: Layout) -> bool:
    """Whether a page of its own asks to be printed across the sheet: a drawing wider than
    tall that a portrait sheet would shrink (an A4 sheet within a browser's default margins
    holds 717 px across). A tall one keeps portrait, which shows it larger. (The reader may
    choose again in the print dialog.)"""
    return layout.width > max(layout.height, _PORTRAIT_ROOM)


def _diagram_svg(diagram: Diagram, layout: Layout, prefix: str) -> Markup:
    """The static drawing, inline, with ids under `prefix` and light colours as attributes.

    The page's stylesheet re-colours it by role, so it is always asked for in the light
    theme: the dark-mode `@media` block of an `auto` SVG would fight the page's own switch.
    """
    from volley.output.svg import render_svg

    return Markup(render_svg(layout, diagram, theme="light", id_prefix=prefix))
