"""The interactive HTML, without a browser: what the page holds and what it must never hold.

The browser tests (tests/browser/) click through it; these check the markup, the embedded data
and the pieces behind them (JSON embedding, highlighting, reply pairs) quickly and everywhere.
"""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser

import pytest

from volley import parse
from volley.api import render
from volley.errors import VolleyError
from volley.layout.engine import layout_diagram
from volley.output.embed import embedded_json, embedded_json_list
from volley.output.html import html_assets, message_views
from volley.text.highlight import colouring

from .test_highlights import contrast
from .test_page_rows import read_back

# --- helpers ----------------------------------------------------------------------------------


class Page(HTMLParser):
    """The parts of a page the tests look at: elements with their attributes, scripts, data, ids."""

    HOLDERS = ("script", "template")  # elements whose text the tests read

    def __init__(self, text: str) -> None:
        super().__init__(convert_charrefs=True)
        self.elements: list[tuple[str, dict[str, str | None]]] = []
        self.holders: list[tuple[str, dict[str, str | None], str]] = []  # (tag, attrs, text)
        self._open: tuple[str, dict[str, str | None]] | None = None
        self._text: list[str] = []
        self.feed(text)
        self.close()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.elements.append((tag, dict(attrs)))
        if tag in self.HOLDERS:
            self._open, self._text = (tag, dict(attrs)), []

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.elements.append((tag, dict(attrs)))

    def handle_data(self, data: str) -> None:
        if self._open is not None:
            self._text.append(data)

    def handle_endtag(self, tag: str) -> None:
        if self._open is not None and tag == self._open[0]:
            self.holders.append((*self._open, "".join(self._text)))
            self._open = None

    def ids(self) -> list[str]:
        return [attrs["id"] for _, attrs in self.elements if attrs.get("id")]

    def carriers(self) -> list[str]:
        """The data templates and scripts in page order: `template.vl-data`, `script[TYPE]`."""
        return [
            f"{tag}.{attrs.get('class')}" if tag == "template" else f"{tag}[{attrs.get('type')}]"
            for tag, attrs, _ in self.holders
        ]

    def data(self) -> dict:
        """The viewer's JSON, read the way the browser reads it: the template's text."""
        (text,) = [
            text
            for tag, attrs, text in self.holders
            if tag == "template" and attrs.get("class") == "vl-data"
        ]
        return json.loads(text)


DATA, VIEWER = "template.vl-data", "script[None]"


def html(source: str, **options) -> str:
    return render(source, format="html", **options)


HOSTILE = "<script>window.__pwned=1</script>"
HOSTILE_DIAGRAM = f"""title: {HOSTILE} & "quotes"
<img src=q onerror=window.__pwned=1> -> </script><script>window.__pwned=1</script>: {HOSTILE}
in: {HOSTILE}
```json
{{"a": "</script><script>window.__pwned=1</script>", "b": "<!--<script>", "c": "\u2028\u2029&"}}
```
note: <img src=x onerror=window.__pwned=1> [x](javascript:window.__pwned=1)
"""


# --- the page ---------------------------------------------------------------------------------


def test_a_page_is_one_self_contained_file(reference_text: str) -> None:
    page_text = html(reference_text)
    page = Page(page_text)
    assert page_text.startswith("<!DOCTYPE html>")
    tags = [tag for tag, _ in page.elements]
    assert "link" not in tags and "iframe" not in tags and "img" not in tags
    for tag, attrs in page.elements:
        assert "src" not in attrs, tag
        href = attrs.get("href") or ""
        assert not href.startswith(("http:", "https:", "//")), (tag, href)
    assert page.carriers() == [DATA, VIEWER]
    assert "@import" not in page_text and "url(" not in page_text


def test_a_sites_math_leaves_the_diagram_alone() -> None:
    """Sphinx loads MathJax by default: `pay $$5 + tax$$ now` was drawn "pay now". MathJax
    skips what is inside its ignore classes (versions 2 and 3 name them differently)."""
    from volley.docs.fences import static_figure

    fragment = render("Shop -> Bank: pay $$5 + tax$$ now", format="html", fragment=True)
    root = re.search(r'<div class="(volley-diagram[^"]*)"', fragment)
    assert root is not None and {"tex2jax_ignore", "mathjax_ignore"} <= set(root[1].split())
    static = static_figure("<svg/>", "light", "")
    assert 'class="volley-diagram volley-static tex2jax_ignore mathjax_ignore"' in static
    assert "$$5 + tax$$" in fragment


def test_a_body_that_turns_text_round_is_shown_with_its_escapes() -> None:
    """A right-to-left override in a body showed `"\u202eAdmin"` as "nimdA" in the panel, and
    a header's words backwards: the panel shows the override as its escape, as the picture
    does in a label."""
    source = (
        'A -> B: login\nin: Request\n```json\n{"user": "\\u202eAdmin"}\n```\n'
        "out: Response\n```http\nHTTP/1.1 200 OK\nX-Role: \u202egnirts desrever\n```\n"
    )
    [view] = message_views(parse(source))
    asked, answered = view.payloads
    assert [(row.key, row.value) for row in asked.table.rows] == [("user", "\\u202eAdmin")]
    assert "\u202e" not in answered.body and "X-Role: \\u202egnirts" in answered.body
    assert ("X-Role", "\\u202egnirts desrever") in [(r.key, r.value) for r in answered.table.rows]


def test_every_message_is_a_hook_in_document_order(reference_text: str) -> None:
    page = Page(html(reference_text))
    numbers = [attrs["data-message"] for _, attrs in page.elements if "data-message" in attrs]
    count = len(parse(reference_text).messages())
    assert numbers == [str(n) for n in range(1, count + 1)]
    assert [m["n"] for m in page.data()["messages"]] == list(range(1, count + 1))


def test_the_data_carries_each_payload_as_table_and_text(reference_text: str) -> None:
    first = Page(html(reference_text)).data()["messages"][0]
    assert (first["from"], first["to"], first["text"]) == (
        "Agent",
        "MCP Server",
        "POST /mcp (initialize)",
    )
    (request,) = first["payloads"]
    assert (request["dir"], request["label"], request["lang"]) == ("in", "Request", "http")
    assert request["start"]["method"] == "POST"
    groups = read_back(request["table"], request["body"])
    assert [title for title, _ in groups] == ["Headers", "Body"]
    body = {key: (value, kind) for key, value, kind in groups[1][1]}
    assert body["params.protocolVersion"] == ("2025-06-18", "string")
    assert body["id"] == ("1", "number")
    assert body["params.capabilities.roots.listChanged"] == ("true", "boolean")
    assert request["body"] == parse(reference_text).messages()[0].request.body
    assert request["colour"] == "http"


def test_each_body_is_carried_once(reference_text: str) -> None:
    """The page holds a body once, in the data: no second copy for readers without script."""
    text = html(reference_text)
    bodies = [
        str(embedded_json(payload.body))[1:-1]  # as it stands in the data
        for message in parse(reference_text).messages()
        for payload in (message.request, message.response)
        if payload is not None and len(payload.body) >= 40
    ]
    for body in bodies:
        # once, or once inside each other body that quotes it
        assert text.count(body) == sum(body in other for other in bodies), body[:40]
    assert "<pre" not in text and "<details" not in text  # no copy in markup


def test_a_big_page_is_not_much_bigger_than_its_picture() -> None:
    lines = []
    for n in range(200):
        body = "\n".join(f'  "field{k}": "value {n} {k}",' for k in range(8))
        lines += [f"A -> B: call {n}", "in: Request", "```json", "{", body[:-1], "}", "```"]
    source = "\n".join(lines) + "\n"
    page, picture = html(source), render(source, format="svg")
    css, js = html_assets()
    bodies = sum(len(m.request.body) for m in parse(source).messages())
    # The data: each body once, its table rows, and a few words per message (about 4x the
    # bodies here); not markup per token and a second copy for readers without script (18x).
    assert len(page) - len(picture) - len(css) - len(js) < 6 * bodies


def test_a_page_of_ascii_text_is_ascii(reference_text: str) -> None:
    # The stylesheet and script write other characters as escapes, so the page they are in
    # is only as wide as the diagram's own text: one byte a character in memory and on disk.
    assert reference_text.isascii()
    assert html(reference_text).isascii()
    assert all(asset.isascii() for asset in html_assets())


def test_ids_are_unique_and_prefixed(reference_text: str) -> None:
    page = Page(html(reference_text, fragment=True, id_prefix="flow"))
    ids = page.ids()
    assert len(ids) == len(set(ids))
    assert all(value.startswith("flow") for value in ids), ids


def test_without_script_a_note_says_what_the_arrows_carry(reference_text: str) -> None:
    page = Page(html(reference_text))
    tags = [tag for tag, _ in page.elements]
    assert "details" not in tags
    assert ("noscript", {"data-search-exclude": None}) in page.elements
    assert "<noscript" not in html("A -> B: nothing carried")  # nothing to miss


def test_themes(reference_text: str) -> None:
    for theme in ("light", "dark", "auto"):
        assert f'data-theme="{theme}"' in html(reference_text, theme=theme)
    with pytest.raises(VolleyError):
        html(reference_text, theme="sepia")


# --- fragments --------------------------------------------------------------------------------


def test_a_fragment_has_no_page_around_it(reference_text: str) -> None:
    text = html(reference_text, fragment=True)
    assert "<html" not in text and "<body" not in text and "<!DOCTYPE" not in text
    assert text.lstrip().startswith("<style>")
    assert 'data-anchor="v' in text  # deep links carry the diagram's prefix


def test_a_fragment_can_leave_its_assets_to_the_page(reference_text: str) -> None:
    page = Page(html(reference_text, fragment=True, include_assets=False))
    assert page.carriers() == [DATA]
    assert "style" not in [tag for tag, _ in page.elements]
    # Material's search leaves out what is marked so; the JSON is not page text.
    assert ("template", {"class": "vl-data", "data-search-exclude": None}) in page.elements


def test_two_diagrams_get_different_ids(reference_text: str) -> None:
    one = Page(html(reference_text, fragment=True)).ids()
    two = Page(html("A -> B: hi", fragment=True)).ids()
    assert not set(one) & set(two)


def test_the_stylesheet_is_scoped_to_the_diagram() -> None:
    css, js = html_assets()
    flat = re.sub(r"/\*.*?\*/", "", css, flags=re.S)
    for block in re.findall(r"([^{}]+)\{[^{}]*\}", flat):
        for selector in block.split(","):
            selector = selector.strip()
            if selector.startswith("@") or re.fullmatch(r"(from|to|\d+%)", selector):
                continue
            assert ".volley-diagram" in selector, selector
    assert "</script" not in js.lower() and "</style" not in css.lower()
    assert "innerHTML" not in js and "insertAdjacentHTML" not in js and "eval(" not in js
    assert "window.__volleyViewer" in js  # installs its listeners once per page


# --- safety -----------------------------------------------------------------------------------


@pytest.mark.parametrize("fragment", [False, True])
def test_user_text_never_becomes_markup(fragment: bool) -> None:
    text = html(HOSTILE_DIAGRAM, fragment=fragment)
    page = Page(text)
    assert page.carriers() == [DATA, VIEWER]
    for tag, attrs in page.elements:
        assert tag not in ("img", "iframe", "object", "embed"), tag
        for name, value in attrs.items():
            assert not name.startswith("on"), (tag, name)
            assert "javascript:" not in (value or "").lower(), (tag, name, value)
    data = page.data()
    (message,) = data["messages"]
    assert message["from"] == "<img src=q onerror=window.__pwned=1>"
    assert message["text"] == HOSTILE
    assert "</script><script>window.__pwned=1</script>" in message["payloads"][0]["body"]


def test_embedded_json_holds_no_markup() -> None:
    """No tag, comment, `</script` or character reference: a template keeps it as one text."""
    value = {"x": "</template></script><!--<script>&amp;&#60;\u2028\u2029", "</SCRIPT>": [1, None]}
    text = embedded_json(value)
    assert not re.search(r"[<>&\u2028\u2029]", text)
    assert text.isascii() and text.isprintable()
    assert json.loads(text) == value

    page = Page(f'<template class="vl-data">{text}</template>')
    assert page.elements == [("template", {"class": "vl-data"})] and page.data() == value


def test_a_list_written_batch_by_batch_is_the_same_json() -> None:
    """The page writes its messages a batch at a time: the text is what one dump would give."""
    items = [{"t": "</template>&\u2028"}, [1, None, "é"], "x", {"nested": {"a": [True]}}] * 150
    for count in (0, 1, 4, 255, 256, 257, 600):
        expected = embedded_json({"messages": items[:count]})
        assert embedded_json_list("messages", iter(items[:count])) == expected, count


def test_lone_surrogates_and_controls_are_shown_replaced() -> None:
    diagram = parse("A -> B: x")
    message = diagram.messages()[0]
    message.label = "bad \ud800 \x01 end"
    text = render(diagram, format="html")
    text.encode("utf-8")  # a page that can be written
    (view,) = message_views(diagram)
    assert view.text == "bad \ufffd \ufffd end"


# --- reply pairs ------------------------------------------------------------------------------


def pairs(source: str) -> list[tuple[int, int | None]]:
    return [(view.index, view.reply) for view in message_views(parse(source)) if view.reply]


def test_reference_replies(reference_text: str) -> None:
    assert pairs(reference_text) == [(1, 2), (3, 4), (5, 6), (7, 14), (8, 9), (10, 11), (12, 13)]


def test_replies_answer_in_order_and_follow_the_drawn_direction() -> None:
    assert pairs("A -> B: 1\nA -> B: 2\nB --> A: r1\nB --> A: r2") == [(1, 3), (2, 4)]
    assert pairs("A -> B: q\nA <-- B: r") == [(1, 2)]  # head at A: B answers A
    assert pairs("A -> A: self\nA <-> B: both\nB -> A: x") == []


def rpc(sender: str, arrow: str, receiver: str, body: str) -> str:
    side = "out" if '"result"' in body or '"error"' in body else "in"
    return f"{sender} {arrow} {receiver}: x\n{side}: Body\n```json\n{body}\n```\n"


def test_a_json_rpc_reply_answers_the_call_of_its_id() -> None:
    """Replies out of order answer by id: the panel of hover (id 1) showed definition's reply."""
    source = "".join(
        [
            rpc("C", "->", "S", '{"jsonrpc": "2.0", "id": 1, "method": "hover"}'),
            rpc("C", "->", "S", '{"jsonrpc": "2.0", "id": 2, "method": "definition"}'),
            rpc("S", "-->", "C", '{"jsonrpc": "2.0", "id": 2, "result": {}}'),
            rpc("S", "-->", "C", '{"jsonrpc": "2.0", "id": 1, "result": {}}'),
        ]
    )
    assert pairs(source) == [(1, 4), (2, 3)]


def test_a_servers_own_call_during_a_call_is_no_reply() -> None:
    """MCP's sampling/createMessage, sent by the server while tools/call waits, was shown as
    the tool call's reply; so was a solid call back in a diagram that draws replies dashed."""
    source = "".join(
        [
            rpc("C", "->", "S", '{"jsonrpc": "2.0", "id": 7, "method": "tools/call"}'),
            rpc("S", "->", "C", '{"jsonrpc": "2.0", "id": 0, "method": "sampling/createMessage"}'),
            rpc("C", "-->", "S", '{"jsonrpc": "2.0", "id": 0, "result": {}}'),
            rpc("S", "->", "C", '{"jsonrpc": "2.0", "method": "notifications/progress"}'),
            rpc("S", "-->", "C", '{"jsonrpc": "2.0", "id": 7, "result": {}}'),
        ]
    )
    assert pairs(source) == [(1, 5), (2, 3)]
    assert pairs("A -> B: order\nB -> A: webhook\nB --> A: 201") == [(1, 3)]
    assert pairs("A -> B: order\nB -> A: 201") == [(1, 2)]  # all solid: the next one back
    assert pairs("A -> B: q\nB -> A: call back\nin: Event\n  k: v") == []  # a request
    # a dashed arrow between two others leaves these solid replies theirs
    solid = "Browser -> API: GET\nAPI -> DB: SELECT\nDB -> API: rows\nAPI -> Browser: 200\n"
    assert pairs(solid + "API --> Audit: viewed\n") == [(1, 4), (2, 3)]
    # a dashed reply with its body under in:, and a notification drawn without its body
    assert pairs("A -> B: POST\nB --> A: 201\nin: Response\n  id: 7") == [(1, 2)]
    assert pairs("C -> S: spawn\nS -->> C: notifications/progress\nS --> C: done") == [(1, 3)]
    # a dashed arrow that answers nothing waits for no reply: the next call is not its answer
    events = "A -> B: GET /a\nB --> A: 200\nB --> A: event\nA -> B: POST /b\nB --> A: 201\n"
    assert pairs(events) == [(1, 2), (4, 5)]


def test_each_alternative_answers_the_request_made_before_it() -> None:
    """`else`'s `404` answered nothing (the `if` branch's `200` had taken the request): each
    branch of an `if` answers from what waited where the block began, the request keeping
    its first reply; a `par`'s branches all run, one after another."""
    source = (
        "A -> B: GET /order\nif: found\n  B --> A: 200 OK\nelse: missing\n"
        "  B --> A: 404 Not Found\nend\nA -> B: next\nB --> A: ok\n"
    )
    views = message_views(parse(source))
    assert [(v.index, v.reply, v.request) for v in views] == [
        (1, 2, None), (2, None, 1), (3, None, 1), (4, 5, None), (5, None, 4),
    ]  # fmt: skip
    both = "A -> B: one\nA -> B: two\npar: x\n  B --> A: 1\nand: y\n  B --> A: 2\nend\n"
    assert pairs(both) == [(1, 3), (2, 4)]


def test_an_error_with_a_null_id_answers_the_call_that_could_not_be_read() -> None:
    """JSON-RPC answers what it cannot read with an error whose id is null: it took the
    first call waiting (tools/call, id 1), whose own result then went to the `[]`."""
    source = "".join(
        [
            rpc("C", "->", "S", '{"jsonrpc": "2.0", "id": 1, "method": "tools/call"}'),
            "C -> S: (empty batch)\nin: Request\n```json\n[]\n```\n",
            rpc("S", "-->", "C", '{"jsonrpc": "2.0", "id": null, "error": {"code": -32600}}'),
            rpc("S", "-->", "C", '{"jsonrpc": "2.0", "id": 1, "result": {}}'),
        ]
    )
    assert pairs(source) == [(1, 4), (2, 3)]


def test_flow_and_screen_reader_label() -> None:
    (view,) = message_views(parse("B <- A: **hello**\nin: Args\n  k: v"))
    assert (view.sender, view.receiver) == ("A", "B")
    assert view.aria_label == "Message 1, A to B: hello. Carries Args"
    (both,) = message_views(parse("A <-> B"))
    assert both.both and both.aria_label == "Message 1, A and B"
    (asked,) = message_views(parse("A -> B: Ready?\nin: Q\n  k: v"))
    assert asked.aria_label == "Message 1, A to B: Ready? Carries Q"  # no "?." after it


@pytest.mark.parametrize(
    ("line", "said"),
    [
        ("A x-> B: sent, then lost", "A to B"),  # a cross marks a loss, not a way
        ("A <-x B: lost on the way", "B to A"),
        ("A x->> B", "A to B"),
        ("A -x B", "A to B"),
        ("A x- B", "B to A"),
        ("A x-x B", "A and B"),
        ("A <<->> B", "A and B"),
    ],
)
def test_a_cross_is_not_a_direction(line: str, said: str) -> None:
    (view,) = message_views(parse(line))
    assert view.aria_label.startswith(f"Message 1, {said}")


def test_the_badge_is_the_number_the_picture_shows() -> None:
    """Without autonumber the picture numbers payload markers, not messages: the panel shows
    a message's marker number (none for a message without one), so clicking "200 OK ⓟ2" does
    not open a panel that says 3; a screen reader still hears the message's place."""
    diagram = parse(
        "A -> B: ask\nB --> A: ok\nA -> B: call\nin: Args\n  k: v\nB --> A: done\nout: R\n  k: v"
    )
    views = message_views(diagram, layout_diagram(diagram))
    assert [v.badge for v in views] == ["", "", "1", "2"]
    assert views[3].aria_label.startswith("Message 4, B to A: done")
    assert [v.to_json()["badge"] for v in views] == ["", "", "1", "2"]


def test_autonumber_is_the_badge() -> None:
    views = message_views(parse("autonumber 10\nA -> B: x\nB -> A: y"))
    assert [(v.index, v.badge) for v in views] == [(1, "10"), (2, "11")]


# --- colouring -------------------------------------------------------------------------------


def test_colouring_follows_the_fence_language_then_what_the_body_was_seen_as() -> None:
    assert colouring("json", "none") == "json"
    assert colouring("HTTP", "none") == "http"
    assert colouring("yml", "keyvalue") == "yaml"
    assert colouring("xml soap", "none") == "xml"
    assert colouring(None, "json") == "json"
    assert colouring(None, "keyvalue") == "yaml"
    assert colouring("application/json", "json") == "json"
    assert colouring("ndjson", "ndjson") == "json"
    assert colouring("sse", "events") == "yaml"
    assert colouring(None, "none") is None
    assert colouring("python", "none") is None


def test_render_html_draws_the_layout_it_is_given(reference_text: str) -> None:
    from volley.layout.engine import layout_diagram
    from volley.output.html import render_html

    diagram = parse(reference_text)
    text = render_html(diagram, layout_diagram(diagram), fragment=True, id_prefix="x")
    assert text.count('data-message="') == 14


def test_the_command_line_writes_a_page(tmp_path, reference_text: str) -> None:
    from click.testing import CliRunner

    from volley.cli import main

    source = tmp_path / "flow.volley"
    source.write_text(reference_text, encoding="utf-8")
    result = CliRunner().invoke(main, ["render", str(source), "-o", str(tmp_path / "flow.html")])
    assert result.exit_code == 0, result.output
    page = (tmp_path / "flow.html").read_text(encoding="utf-8")
    assert page.startswith("<!DOCTYPE html>") and 'class="vl-data"' in page
    result = CliRunner().invoke(
        main, ["render", str(source), "-f", "html", "--fragment", "-o", "-"]
    )
    assert result.exit_code == 0 and "<html" not in result.output


def test_the_same_diagram_gives_the_same_bytes(reference_text: str) -> None:
    """Markdown mode's --check compares outputs: nothing in the page may vary between runs."""
    assert html(reference_text) == html(reference_text)
    assert html(reference_text, fragment=True) == html(reference_text, fragment=True)


def test_an_auto_diagram_follows_a_docs_sites_own_colour_switch() -> None:
    """mkdocs-material's palette, the mkdocs theme's colour mode (Bootstrap), furo's and the
    PyData theme's `data-theme`: each, dark or light, wins over the reader's system setting."""
    css, _ = html_assets()
    dark_rule = next(rule for rule in css.split("}") if "[data-bs-theme=dark]" in rule)
    light_rule = next(rule for rule in css.split("}") if "[data-bs-theme=light]" in rule)
    for switch in ("[data-md-color-scheme=slate]", "[data-bs-theme=dark]", "[data-theme=dark]"):
        assert f"{switch} .volley-diagram[data-theme=auto]" in dark_rule
    for switch in ("[data-md-color-scheme=default]", "[data-theme=light]"):
        assert f"{switch} .volley-diagram[data-theme=auto]" in light_rule
    assert "color-scheme:dark" in dark_rule and "color-scheme:light" in light_rule
    assert not dark_rule.startswith("@media")  # not only when the system is dark


def test_a_message_autonumber_off_leaves_unnumbered_is_heard_without_a_number() -> None:
    """Its place in the document (3) would be heard as the number another message shows."""
    diagram = parse("autonumber 3\nA -> B: one\nB --> A: two\nautonumber off\nA -> B: three\n")
    said = [view.aria_label for view in message_views(diagram, layout_diagram(diagram))]
    assert said == [
        "Message 3, A to B: one",
        "Message 4, B to A: two",
        "Unnumbered message, A to B: three",
    ]


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_the_pages_text_colours_read_against_the_panel_and_the_page(theme: str) -> None:
    """WCAG's 4.5:1 for text: the faint words of the panel (a body's language, "HTTP/1.1", the
    arrow between the names) and the paired reply's label in the drawing read 2.6:1 and 3:1
    in the light theme."""
    from volley.output.html_theme import UI_DARK, UI_LIGHT
    from volley.output.themes import DARK, LIGHT

    ui, drawing = (UI_LIGHT, LIGHT) if theme == "light" else (UI_DARK, DARK)
    for text in ("fg", "muted", "faint"):
        for ground in ("panel", "panel-2"):
            assert contrast(ui[text], ui[ground]) >= 4.5, (text, ground)
    assert contrast(ui["pair"], drawing["bg"]) >= 4.5
