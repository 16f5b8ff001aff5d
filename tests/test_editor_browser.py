"""The editor page in headless Chromium, against a real server on a loopback port: typing,
errors, the preview's payload panel, share links, templates, downloads, and FILE."""

from __future__ import annotations

import hashlib
import re
import socket
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

pytest.importorskip("starlette")
uvicorn = pytest.importorskip("uvicorn")
sync_api = pytest.importorskip("playwright.sync_api", reason="the playwright package is missing")
from playwright.sync_api import Page, expect  # noqa: E402

from volley import editor_links as share  # noqa: E402
from volley.server import create_app  # noqa: E402

from .conftest import EXAMPLES  # noqa: E402
from .test_import_swimlanes import make_link  # noqa: E402

EDITOR = "[data-volley-editor]"
PREVIEW = "#preview"
WITH_PAYLOAD = """title: Orders
Shop -> API: POST /orders
in: Request
```json
{"order": {"id": "ord-4711", "items": 3}}
```
API --> Shop: 201 Created
"""


@contextmanager
def running(app) -> Iterator[str]:
    """Serve `app` with uvicorn on a free port of 127.0.0.1 until the block ends."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.bind(("127.0.0.1", 0))
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", access_log=False))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("the test server did not start")
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{sock.getsockname()[1]}"
    finally:
        server.should_exit = True
        thread.join(10)
        sock.close()


@pytest.fixture(scope="module")
def base_url() -> Iterator[str]:
    with running(create_app()) as url:
        yield url


@pytest.fixture
def new_page(browser) -> Iterator[Callable[..., Page]]:
    """Open the editor in a fresh browser profile (no draft, no clipboard) per call; fail the
    test on any script error or refused load (a CSP violation is a console error)."""
    contexts = []
    problems: list[str] = []

    def opener(url: str, *, allow_errors: bool = False) -> Page:
        context = browser.new_context(viewport={"width": 1400, "height": 900})
        contexts.append(context)
        page = context.new_page()
        page.on("pageerror", lambda error: problems.append(f"script error: {error}"))
        if not allow_errors:
            page.on(
                "console",
                lambda msg: problems.append(msg.text) if msg.type == "error" else None,
            )
        page.goto(url)
        expect(page.locator(EDITOR)).to_be_visible()
        return page

    yield opener
    for context in contexts:
        context.close()
    assert problems == []


def until(page: Page, done: Callable[[], bool], seconds: float = 5) -> None:
    """Wait for what the page does a moment later (a draft written after typing stops),
    polled from here: the editor's CSP refuses the eval that `wait_for_function` polls with."""
    deadline = time.monotonic() + seconds
    while not done() and time.monotonic() < deadline:
        page.wait_for_timeout(100)


def set_source(page: Page, text: str) -> None:
    page.locator(EDITOR).fill(text)


def preview(page: Page):
    return page.locator(PREVIEW + " svg:not([aria-hidden=true])").first  # not the sticky heads


def press_share(page: Page) -> str:
    """Press Share and wait for the dialog's fields; the editor link."""
    page.click("#share")
    expect(page.locator("#share-dialog")).to_be_visible()
    expect(page.locator("#share-png")).to_have_value(re.compile("/png/v1\\."))
    return page.locator("#share-link").input_value()


# --- the preview follows the source -------------------------------------------------------


def test_the_page_opens_with_a_rendered_starter(new_page, base_url: str) -> None:
    page = new_page(base_url + "/")
    expect(preview(page)).to_contain_text("Sign in with a password")
    expect(page.locator("#status")).to_have_attribute("data-state", "ok")


def test_typing_changes_the_preview(new_page, base_url: str) -> None:
    page = new_page(base_url + "/")
    set_source(page, "A -> B: first label")
    expect(preview(page)).to_contain_text("first label")
    editor = page.locator(EDITOR)
    editor.press("End")
    editor.press_sequentially(" grows")
    expect(preview(page)).to_contain_text("first label grows")  # no key but the typing
    expect(page.locator("#status-text")).to_have_text("Rendered · 1 message")


def test_an_arrow_named_in_an_error_stays_on_one_line(browser, base_url: str) -> None:
    """An error naming arrows ("expected an arrow such as -> or -->") in a narrow status line:
    a browser may break a line after a hyphen, which split "-->" into "--" and ">"."""
    page = browser.new_page(viewport={"width": 390, "height": 800})
    page.goto(base_url + "/")
    set_source(page, "Agent: hi")
    expect(page.locator("#status")).to_have_attribute("data-state", "error")
    arrows = page.locator("#status-text .unbroken")
    expect(arrows).to_have_text(["->", "-->"])
    # read in one step: the status line may be written again meanwhile (a second answer)
    assert arrows.evaluate_all("nodes => nodes.map(node => node.getClientRects().length)") == [
        1,
        1,
    ]
    page.close()


def test_the_source_is_coloured_and_numbered(new_page, base_url: str) -> None:
    page = new_page(base_url + "/")
    set_source(page, "title: T\nA -> B: hi\n// note to self")
    expect(page.locator("#gutter .ln")).to_have_count(3)
    expect(page.locator("#paint .s-arrow")).to_have_text("->")
    expect(page.locator("#paint .s-kw").first).to_have_text("title")
    expect(page.locator("#paint .s-comment")).to_have_text("// note to self")


def test_an_error_shows_its_place_and_keeps_the_last_good_preview(new_page, base_url) -> None:
    page = new_page(base_url + "/", allow_errors=True)  # the 400 answer logs a console error
    set_source(page, "A -> B: still here\nB --> A: ok")
    expect(preview(page)).to_contain_text("still here")
    editor = page.locator(EDITOR)
    editor.press("Control+End")
    editor.press_sequentially("\nA -> : oops")
    status = page.locator("#status")
    expect(status).to_have_attribute("data-state", "error")
    expect(page.locator("#status-text")).to_contain_text("Line 3, column 6")
    expect(page.locator("#status-text")).to_contain_text("participant")
    expect(page.locator("#status-line")).to_contain_text("A -> : oops")
    expect(page.locator("#gutter .ln-error")).to_have_text("3")
    expect(page.locator("#paint .ln-error")).to_have_text("A -> : oops")
    expect(preview(page)).to_contain_text("still here")  # the old picture stays
    expect(page.locator("#stale-note")).to_be_visible()

    editor.press("Control+Home")  # clicking the error puts the cursor on its place
    status.click()
    offset = page.evaluate("document.querySelector('[data-volley-editor]').selectionStart")
    assert offset == len("A -> B: still here\nB --> A: ok\nA -> ")

    editor.press("Control+End")
    editor.press("Shift+Home")
    editor.press_sequentially("A -> B: fixed")
    expect(status).to_have_attribute("data-state", "ok")
    expect(preview(page)).to_contain_text("fixed")
    expect(page.locator("#stale-note")).to_be_hidden()
    expect(page.locator("#gutter .ln-error")).to_have_count(0)


def test_the_stale_note_stands_clear_of_the_drawing_on_a_phone(new_page, base_url: str) -> None:
    """Held at the pane's bottom, the note covered the participants' boxes below a tall
    picture: it stands over the preview's first line now, above the drawing."""
    page = new_page(base_url + "/", allow_errors=True)  # the 400 answer logs a console error
    page.set_viewport_size({"width": 390, "height": 844})
    set_source(page, "title: Tall\n" + "A -> B: ping\nB --> A: pong\n" * 12)
    expect(preview(page)).to_contain_text("Tall")
    page.locator(EDITOR).press("Control+End")
    page.locator(EDITOR).press_sequentially("A -> : oops")
    note = page.locator("#stale-note")
    expect(note).to_be_visible()
    drawn = page.locator("#preview .vl-canvas > svg text").first.bounding_box()  # the title
    shown = note.bounding_box()
    assert drawn and shown and shown["y"] + shown["height"] <= drawn["y"]


# where the first character `~` of the mistake is drawn, on the line that holds it, and where
# a mark drawn under it starts
WHERE_MISTAKE = """(mark) => {
    const line = mark.closest('.ln, pre');
    const walker = document.createTreeWalker(line, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        if (node.parentNode.classList.contains('err-pad')) continue;
        const at = node.data.indexOf('~');
        if (at < 0) continue;
        const range = document.createRange();
        range.setStart(node, at);
        range.setEnd(node, at + 1);
        return [range.getBoundingClientRect().x, mark.getBoundingClientRect().x];
    }
}"""


@pytest.mark.parametrize("before", ["名前サービス", "😀😀😀", "\tA", "café"])
def test_the_mark_under_a_mistake_is_under_its_character(new_page, base_url, before) -> None:
    """Wide (CJK) and astral (emoji) characters before a mistake put the wavy mark, the status
    line's caret and the cursor a click on the error puts there, under another character: the
    columns counted one a character in ch units, or UTF-16 units."""
    page = new_page(base_url + "/", allow_errors=True)  # the 400 answer logs a console error
    set_source(page, f"{before} ~> B: x\n")
    expect(page.locator("#status")).to_have_attribute("data-state", "error")
    column = len(before) + 2
    expect(page.locator("#status-text")).to_contain_text(f"Line 1, column {column}")
    char, wave = page.locator("#paint .err-wave").evaluate(WHERE_MISTAKE)
    assert abs(char - wave) < 1
    # the caret and the character above it, measured in one step: a second answer may write
    # the status line again between two steps
    caret, char_in_status = page.evaluate(
        f"""() => {{
        const pre = document.querySelector('#status-line');
        const node = pre.lastChild;  // the caret
        const range = document.createRange();
        range.setStart(node, 0);
        range.setEnd(node, 1);
        const char = ({WHERE_MISTAKE})(pre.querySelector('.err-pad'))[0];
        return [range.getBoundingClientRect().x, char];
    }}"""
    )
    assert abs(char_in_status - caret) < 1
    page.locator("#status").click()
    offset = page.evaluate("document.querySelector('[data-volley-editor]').selectionStart")
    assert offset == len(f"{before} ".encode("utf-16-le")) // 2  # the textarea's units


def test_a_swimlanes_link_or_a_page_of_mermaid_diagrams_is_offered_conversion(
    new_page, base_url
) -> None:
    """A pasted swimlanes.io link rendered with no way to edit its diagram, and a Markdown page
    holding Mermaid blocks failed at its first heading with no Convert button, where the
    docs promise one (and /import converts both)."""
    page = new_page(base_url + "/", allow_errors=True)  # the 400 answer logs a console error
    convert = page.locator("#convert")
    set_source(page, make_link("title: Shared\nAlice -> Bob: from the link\n"))
    expect(preview(page)).to_contain_text("from the link")
    expect(page.locator("#status-text")).to_contain_text("a swimlanes.io link")
    expect(convert).to_be_visible()
    convert.click()
    expect(page.locator(EDITOR)).to_have_value("title: Shared\n\nAlice -> Bob: from the link\n")
    expect(convert).to_be_hidden()

    markdown = "# Login\n\nHow it goes:\n\n```mermaid\nsequenceDiagram\n  A->>B: hi\n```\n"
    set_source(page, markdown)
    expect(page.locator("#status")).to_have_attribute("data-state", "error")
    expect(page.locator("#status-hint")).to_contain_text("This page holds Mermaid or PlantUML")
    expect(convert).to_be_visible()
    convert.click()
    expect(page.locator(EDITOR)).to_have_value("A -> B: hi\n")


def test_a_pasted_mermaid_or_plantuml_diagram_is_converted_in_place(new_page, base_url) -> None:
    page = new_page(base_url + "/", allow_errors=True)  # the 400 answer logs a console error
    set_source(page, "sequenceDiagram\n    Alice->>+Bob: Hello Bob\n    Bob-->>-Alice: Hi")
    expect(page.locator("#status")).to_have_attribute("data-state", "error")
    expect(page.locator("#status-text")).to_contain_text("this is a Mermaid sequence diagram")
    convert = page.locator("#convert")
    expect(convert).to_be_visible()
    convert.click()
    expect(page.locator(EDITOR)).to_have_value("Alice ->+ Bob: Hello Bob\nBob -->- Alice: Hi\n")
    expect(page.locator("#status")).to_have_attribute("data-state", "ok")
    expect(preview(page)).to_contain_text("Hello Bob")
    expect(convert).to_be_hidden()
    page.locator(EDITOR).press("Control+z")  # the pasted text comes back
    expect(page.locator(EDITOR)).to_have_value(re.compile("^sequenceDiagram"))

    set_source(page, "@startuml\nAlice -> Bob : over PlantUML\n@enduml")
    expect(convert).to_be_visible()
    convert.click()
    expect(preview(page)).to_contain_text("over PlantUML")


def test_clicking_a_previewed_arrow_shows_its_payload(new_page, base_url: str) -> None:
    page = new_page(base_url + "/")
    set_source(page, WITH_PAYLOAD)
    expect(preview(page)).to_contain_text("POST /orders")
    page.locator(PREVIEW + ' .vl-canvas [data-message="1"]').click()
    panel = page.locator(PREVIEW + " .vl-panel")
    expect(panel).to_be_visible()
    expect(panel).to_contain_text("POST /orders")
    expect(panel).to_contain_text("order.id")
    expect(panel).to_contain_text("ord-4711")

    editor = page.locator(EDITOR)  # editing the body keeps its panel open, with the new value
    editor.fill(WITH_PAYLOAD.replace("ord-4711", "ord-9000"))
    expect(panel).to_contain_text("ord-9000")
    expect(panel).to_be_visible()
    editor.press("Control+End")
    editor.press("Backspace")  # onto the last line, after "201 Created"
    editor.press_sequentially("!")
    expect(preview(page)).to_contain_text("201 Created!")
    expect(panel).to_be_visible()
    expect(editor).to_be_focused()


# --- share links ----------------------------------------------------------------------------


def test_share_makes_a_link_that_opens_the_same_diagram(new_page, base_url: str) -> None:
    source = "title: Grüße ✓\nAlice -> Bob: ½ of the `key` → 🚀\n" + WITH_PAYLOAD.split("\n", 1)[1]
    page = new_page(base_url + "/")
    set_source(page, source)
    expect(preview(page)).to_contain_text("Grüße")
    link = press_share(page)
    assert link.startswith(base_url + "/#v1.")
    encoded = link.split("#", 1)[1]
    assert share.decode(encoded) == source  # the page writes what volley.editor_links reads
    markdown = page.locator("#share-markdown").input_value()
    assert markdown == f"![Grüße ✓]({base_url}/svg/{encoded})"
    # served on this machine, the links open here only: the dialog says how a README gets one
    expect(page.locator("#share-local")).to_be_visible()
    expect(page.locator("#share-local")).to_contain_text("volley render README.md")

    fresh = new_page(link)  # another profile: nothing but the link
    expect(fresh.locator(EDITOR)).to_have_value(source)
    expect(preview(fresh)).to_contain_text("Grüße")


def test_share_says_when_the_image_links_are_longer_than_the_server_reads(
    new_page, base_url: str
) -> None:
    """An image link is one request's address, which the server reads with its headers up to
    16 KB; one longer was drawn on this machine and refused over a network."""
    page = new_page(base_url + "/")
    set_source(page, "title: Short\nA -> B: hi\n")
    press_share(page)
    expect(page.locator("#share-size")).not_to_contain_text("image links are longer")
    page.click("#share-dialog [data-close]")
    words = [hashlib.sha256(str(n).encode()).hexdigest() for n in range(600)]
    set_source(page, "".join(f"A -> B: {word}\n" for word in words))
    expect(preview(page)).to_contain_text(words[-1])
    press_share(page)
    expect(page.locator("#share-size")).to_contain_text(
        "The image links are longer than this server reads in a request (16,384 bytes"
    )
    image = page.locator("#share-png").input_value()
    assert page.request.get(image).status == 431  # as the server says, whatever the network


def test_share_cautions_when_the_diagram_holds_live_looking_secrets(
    new_page, base_url: str
) -> None:
    """The links carry the text as written: the preview's warning about a token was the only
    word on it, out of sight when Share was pressed."""
    page = new_page(base_url + "/")
    set_source(page, "title: Calm\nA -> B: hi\n")
    expect(preview(page)).to_contain_text("Calm")
    press_share(page)
    expect(page.locator("#share-secrets")).to_be_hidden()
    page.click("#share-dialog [data-close]")
    token = "ghp_" + "aB3dE5gH7jK9mN1pQ3sT5vX7zA9cE1gI3kZ"
    request = f"in: Request\n  Authorization: Bearer {token}\n"
    set_source(page, f"title: Deploy\nCI -> GitHub: clone\n{request}")
    expect(page.locator("#status-text")).to_contain_text("looks like a live secret")
    press_share(page)
    expect(page.locator("#share-secrets")).to_be_visible()
    expect(page.locator("#share-secrets")).to_contain_text("a value that looks like a live secret")


def test_a_link_written_by_volley_share_opens_in_the_page(new_page, base_url: str) -> None:
    source = "title: From Python\nA -> B: encoded server-side\n"
    page = new_page(f"{base_url}/#{share.encode(source)}")
    expect(page.locator(EDITOR)).to_have_value(source)
    expect(preview(page)).to_contain_text("encoded server-side")


def test_the_readme_image_of_a_share_link_renders(new_page, base_url: str) -> None:
    page = new_page(base_url + "/")
    set_source(page, "title: Embedded\nA -> B: as an image\n")
    press_share(page)
    image_url = re.search(r"\((.*)\)", page.locator("#share-markdown").input_value()).group(1)
    response = page.request.get(image_url)
    assert response.ok
    assert "as an image" in response.text()
    png = page.request.get(page.locator("#share-png").input_value())
    assert png.body().startswith(b"\x89PNG")


def test_a_damaged_link_says_so(new_page, base_url: str) -> None:
    page = new_page(base_url + "/#v1.AAAAAAAA")
    expect(page.locator("#status")).to_have_attribute("data-state", "error")
    expect(page.locator("#status-text")).to_contain_text("damaged")


# --- templates and downloads ---------------------------------------------------------------


def test_picking_a_template_loads_it_and_undo_brings_back_the_draft(new_page, base_url) -> None:
    page = new_page(base_url + "/")
    set_source(page, "A -> B: my draft")
    expect(preview(page)).to_contain_text("my draft")
    page.click("#open-templates")
    card = page.locator('[data-template="mcp-tool-call"]')
    expect(card).to_contain_text("MCP tool call over Streamable HTTP")
    card.click()
    expect(page.locator("#templates")).to_be_hidden()
    example = (EXAMPLES / "mcp-tool-call.volley").read_text(encoding="utf-8")
    expect(page.locator(EDITOR)).to_have_value(example)
    expect(preview(page)).to_contain_text("MCP tool call over Streamable HTTP")
    expect(page.locator("#doc-title")).to_have_text("MCP tool call over Streamable HTTP")
    page.locator(EDITOR).press("Control+z")
    expect(page.locator(EDITOR)).to_have_value("A -> B: my draft")


def test_a_template_is_painted_once_not_once_a_line(new_page, base_url) -> None:
    """Chromium reports a text of many lines put in by the browser's own insert (which keeps
    Undo) as an input event or two a line, and each repainted every line: a 67-line template
    took seconds, a converted 300-message diagram about 20. The text is painted once it is in."""
    page = new_page(base_url + "/")
    set_source(page, "A -> B: my draft")
    expect(preview(page)).to_contain_text("my draft")
    page.evaluate(
        """() => {
        window.paints = 0;
        const layer = document.querySelector("#paint");
        new MutationObserver(records => { window.paints += records.length; })
            .observe(layer, { childList: true });
    }"""
    )
    page.click("#open-templates")
    page.locator('[data-template="mcp-tool-call"]').click()
    example = (EXAMPLES / "mcp-tool-call.volley").read_text(encoding="utf-8")
    expect(page.locator(EDITOR)).to_have_value(example)
    expect(preview(page)).to_contain_text("MCP tool call over Streamable HTTP")
    assert example.count("\n") > 40
    assert page.evaluate("window.paints") <= 3  # (each repaint is one record)


def test_many_lines_put_in_at_once_are_painted_once(new_page, base_url) -> None:
    """Text inserted as a tool types it (Playwright's fill: Chromium's insertText) comes as
    an input event or two a line, and each repainted every line: 300 lines took 13 s."""
    page = new_page(base_url + "/")
    set_source(page, "A -> B: my draft")
    expect(preview(page)).to_contain_text("my draft")
    page.evaluate(
        """() => {
        window.paints = 0;
        new MutationObserver(records => { window.paints += records.length; })
            .observe(document.querySelector("#paint"), { childList: true });
    }"""
    )
    set_source(page, "".join(f"A -> B: line {n}\n" for n in range(200)))
    expect(preview(page)).to_contain_text("line 199")
    assert page.evaluate("window.paints") <= 3


def test_escape_closes_the_gallery(new_page, base_url: str) -> None:
    page = new_page(base_url + "/")
    page.click("#open-templates")
    expect(page.locator("#templates")).to_be_visible()
    page.keyboard.press("Escape")
    expect(page.locator("#templates")).to_be_hidden()


@pytest.mark.parametrize(
    ("fmt", "start"),
    [("svg", b"<svg"), ("png", b"\x89PNG"), ("pdf", b"%PDF"), ("html", b"<!doctype html")],
)
def test_downloads(new_page, base_url: str, fmt: str, start: bytes) -> None:
    page = new_page(base_url + "/")
    set_source(page, "title: Release Plan\nA -> B: go\n")
    expect(preview(page)).to_contain_text("go")
    page.click("#download-menu summary")
    with page.expect_download() as info:
        page.click(f'[data-download="{fmt}"]')
    download = info.value
    assert download.suggested_filename == f"release-plan.{fmt}"
    data = Path(download.path()).read_bytes().lstrip()
    assert data.lower().startswith(start.lower())


def test_downloads_mask_live_looking_secrets_unless_the_writer_says_otherwise(
    new_page, base_url: str
) -> None:
    """Downloads are what gets published, and the editor had no way to mask what `volley
    render --redact` masks: a picture of a diagram holding a token carried the token."""
    token = "ghp_" + "aB3dE5gH7jK9mN1pQ3sT5vX7zA9cE1gI3kZ"
    page = new_page(base_url + "/")

    def downloaded() -> str:
        page.click("#download-menu summary")
        with page.expect_download() as info:
            page.click('[data-download="html"]')
        return Path(info.value.path()).read_text(encoding="utf-8")

    set_source(page, "title: Calm\nA -> B: hi\n")
    expect(preview(page)).to_contain_text("Calm")
    page.click("#download-menu summary")
    expect(page.locator("#download-redact")).to_have_attribute("aria-checked", "false")
    page.click("#download-menu summary")
    set_source(
        page, f"title: Deploy\nCI -> GitHub: clone\nin: Request\n  Authorization: Bearer {token}\n"
    )
    expect(page.locator("#status-text")).to_contain_text("looks like a live secret")
    expect(preview(page)).to_contain_text("Deploy")
    masked = downloaded()
    assert token not in masked and "redacted" in masked
    page.click("#download-menu summary")
    expect(page.locator("#download-redact")).to_have_attribute("aria-checked", "true")
    expect(page.locator("#download-redact-note")).to_have_text("1 value looks live")
    page.click("#download-redact")  # the writer wants it as written: the menu stays open
    expect(page.locator("#download-redact")).to_have_attribute("aria-checked", "false")
    with page.expect_download() as info:
        page.click('[data-download="html"]')
    assert token in Path(info.value.path()).read_text(encoding="utf-8")
    assert downloaded() == Path(info.value.path()).read_text(encoding="utf-8")  # kept so
    # pasted and downloaded at once, before any preview counted it: the text sent decides
    fresh = new_page(base_url + "/")
    set_source(fresh, f"title: Hasty\nA -> B: x\nin: R\n  Authorization: Bearer {token}\n")
    fresh.click("#download-menu summary")
    with fresh.expect_download() as info:
        fresh.click('[data-download="html"]')
    assert token not in Path(info.value.path()).read_text(encoding="utf-8")


@pytest.mark.parametrize(
    ("title", "name"),
    [("Ünïcødé flow: **bold**", "ünïcødé-flow-bold"), ("ログイン の流れ", "ログイン-の流れ")],
)
def test_a_download_is_named_after_a_title_in_any_script(new_page, base_url, title, name):
    """A download's name kept ASCII letters alone: "n-c-d-…", or "diagram" for Japanese."""
    page = new_page(base_url + "/")
    set_source(page, f"title: {title}\nA -> B: go\n")
    expect(preview(page)).to_contain_text("go")
    page.click("#download-menu summary")
    with page.expect_download() as info:
        page.click('[data-download="svg"]')
    assert info.value.suggested_filename == f"{name}.svg"


def test_the_draft_survives_a_reload(new_page, base_url: str) -> None:
    page = new_page(base_url + "/")
    set_source(page, "A -> B: keep me")
    expect(preview(page)).to_contain_text("keep me")
    # the draft is written shortly after typing stops
    until(page, lambda: page.evaluate("localStorage.getItem('volley.draft')") == "A -> B: keep me")
    page.reload()
    expect(page.locator(EDITOR)).to_have_value("A -> B: keep me")


# --- FILE ----------------------------------------------------------------------------------


@pytest.fixture
def file_server(tmp_path: Path) -> Iterator[tuple[str, Path]]:
    path = tmp_path / "flow.volley"
    path.write_text("title: On disk\nA -> B: from the file\n", encoding="utf-8")
    with running(create_app(path)) as url:
        yield url, path


def test_file_mode_saves_and_follows_the_disk(file_server, new_page) -> None:
    url, path = file_server
    page = new_page(url + "/")
    editor = page.locator(EDITOR)
    expect(editor).to_have_value("title: On disk\nA -> B: from the file\n")
    expect(page.locator("#doc-state")).to_have_text("Saved")

    editor.press("Control+End")
    editor.press_sequentially("B --> A: typed")
    expect(page.locator("#doc-state")).to_have_text("Edited")
    editor.press("Control+s")
    expect(page.locator("#doc-state")).to_have_text("Saved")
    assert path.read_text(encoding="utf-8").endswith("B --> A: typed")

    path.write_text("title: Changed elsewhere\nA -> B: new\n", encoding="utf-8")
    expect(editor).to_have_value("title: Changed elsewhere\nA -> B: new\n", timeout=5000)
    expect(preview(page)).to_contain_text("Changed elsewhere")


def edited_while_changed_on_disk(file_server, new_page, allow_errors: bool = False):
    """The page with an unsaved edit ("// mine"), after the file changed on disk ("theirs")
    and the page said so: the page, its editor and the file."""
    url, path = file_server
    page = new_page(url + "/", allow_errors=allow_errors)
    editor = page.locator(EDITOR)
    expect(editor).to_have_value(re.compile("from the file"))
    editor.press("Control+End")
    editor.press_sequentially("// mine")
    path.write_text("A -> B: theirs\n", encoding="utf-8")
    expect(page.locator("#banner")).to_be_visible(timeout=5000)
    return page, editor, path


def test_a_file_another_program_saved_in_latin1_keeps_the_editors_text(file_server, new_page):
    """A save refused because the file changed on disk, into bytes that are not UTF-8: "Load
    from disk" emptied the editor, the error was marked on the editor's own text, and every
    later save was refused. The banner says what is wrong with the file, offers no load, and
    "keep mine" saves over it."""
    # (the refused save's 409 and the file's 422 log console errors)
    page, editor, path = edited_while_changed_on_disk(file_server, new_page, allow_errors=True)
    page.click("#banner-keep")
    path.write_bytes(b"title: caf\xe9\nA -> B: theirs\n")
    editor.press("Control+s")
    expect(page.locator("#doc-state")).to_have_text("Not saved")
    expect(page.locator("#banner-text")).to_contain_text("is not text volley reads")
    expect(page.locator("#banner-text")).to_contain_text("not valid UTF-8")
    expect(page.locator("#banner-load")).to_be_hidden()
    expect(editor).to_have_value(re.compile("// mine"))
    assert page.locator("#paint .err-mark").count() == 0  # no mistake in the editor's text
    page.click("#banner-keep")
    editor.press("Control+s")
    expect(page.locator("#doc-state")).to_have_text("Saved")
    assert path.read_text(encoding="utf-8").endswith("// mine")


def test_text_kept_over_a_file_turned_unreadable_is_never_said_saved(file_server, new_page):
    """A read file that another program rewrote in Latin-1, "keep mine", then a key typed and
    taken back: "Saved" though the disk held none of it, and a readable version written next
    replaced the editor's text without asking."""
    url, path = file_server
    page = new_page(url + "/", allow_errors=True)  # (the file's 422 logs a console error)
    editor = page.locator(EDITOR)
    expect(editor).to_have_value(re.compile("from the file"))
    path.write_bytes(b"title: caf\xe9\n")
    expect(page.locator("#banner-text")).to_contain_text("is not text volley reads", timeout=5000)
    page.click("#banner-keep")
    editor.press("Control+End")
    editor.press_sequentially("x")
    editor.press("Backspace")
    expect(page.locator("#doc-state")).to_have_text("Not saved")
    path.write_text("A -> B: mended elsewhere\n", encoding="utf-8")
    expect(page.locator("#banner-text")).to_contain_text("you have unsaved edits", timeout=5000)
    expect(editor).to_have_value(re.compile("from the file"))


def test_a_file_that_is_not_utf8_from_the_start_is_said_to_be_so(tmp_path: Path, new_page):
    """`volley serve latin1.volley`: the page opened empty and "Saved", and its first save was
    refused as a change on disk. The banner says what is wrong with the file at once, and
    nothing the editor holds is said to be saved until it is."""
    path = tmp_path / "latin1.volley"
    path.write_bytes(b"title: caf\xe9\nA -> B: x\n")
    with running(create_app(path)) as url:
        page = new_page(url + "/", allow_errors=True)  # (the file's 422 logs a console error)
        expect(page.locator("#banner-text")).to_contain_text("latin1.volley on disk is not text")
        expect(page.locator("#banner-load")).to_be_hidden()
        expect(page.locator("#doc-state")).to_have_text("Not saved")
        page.locator(EDITOR).fill("A -> B: x\n")
        page.locator(EDITOR).fill("")  # emptied: still none of it on disk
        expect(page.locator("#doc-state")).to_have_text("Not saved")
        page.locator(EDITOR).fill("A -> B: written again\n")
        page.click("#banner-keep")
        expect(page.locator("#doc-state")).to_have_text("Not saved")
        path.write_text("A -> B: mended elsewhere\n", encoding="utf-8")  # asked, not replaced
        expect(page.locator("#banner-text")).to_contain_text("you have unsaved edits", timeout=5000)
        expect(page.locator(EDITOR)).to_have_value("A -> B: written again\n")
        page.click("#banner-keep")
        page.locator(EDITOR).press("Control+s")
        expect(page.locator("#doc-state")).to_have_text("Saved")
        assert path.read_text(encoding="utf-8") == "A -> B: written again\n"


def test_file_mode_asks_before_dropping_unsaved_edits(file_server, new_page) -> None:
    page, editor, _ = edited_while_changed_on_disk(file_server, new_page)
    expect(editor).to_have_value(re.compile("// mine"))  # nothing lost while asking
    page.click("#banner-load")
    expect(editor).to_have_value("A -> B: theirs\n")
    expect(page.locator("#doc-state")).to_have_text("Saved")


def test_saving_while_a_change_on_disk_is_unanswered_keeps_the_change(file_server, new_page):
    """Ctrl+S with the banner up wrote the page's text over the change made on disk, unseen;
    the save waits for the author's choice, and "keep mine" then saves over it."""
    page, editor, path = edited_while_changed_on_disk(file_server, new_page)
    editor.press("Control+s")
    expect(page.locator("#doc-state")).to_have_text("Not saved")
    page.wait_for_timeout(1500)  # polls come and go: still nothing written
    assert path.read_text(encoding="utf-8") == "A -> B: theirs\n"
    expect(page.locator("#banner")).to_be_visible()
    page.click("#banner-keep")
    editor.press("Control+s")
    expect(page.locator("#doc-state")).to_have_text("Saved")
    assert path.read_text(encoding="utf-8").endswith("// mine")
    expect(page.locator("#banner")).to_be_hidden()


# --- issue 17: links that survive clicks, typing, undo, narrow screens, every problem shown --


def test_the_share_link_survives_clicks_on_the_preview(new_page, base_url: str) -> None:
    page = new_page(base_url + "/")
    set_source(page, WITH_PAYLOAD)
    expect(preview(page)).to_contain_text("POST /orders")
    link = press_share(page)
    page.keyboard.press("Escape")
    page.locator(PREVIEW + ' .vl-canvas [data-message="1"]').click()
    expect(page.locator(PREVIEW + " .vl-panel")).to_contain_text("ord-4711")
    page.keyboard.press("ArrowRight")  # stepping, too
    page.keyboard.press("Escape")
    assert page.url == link
    fresh = new_page(page.url)  # what someone gets from the address bar
    expect(fresh.locator(EDITOR)).to_have_value(WITH_PAYLOAD)


def test_the_address_follows_edits_once_it_holds_a_link(new_page, base_url: str) -> None:
    page = new_page(base_url + "/")
    set_source(page, "A -> B: first")
    press_share(page)
    page.keyboard.press("Escape")
    editor = page.locator(EDITOR)
    editor.press("Control+End")
    editor.press_sequentially("\nB --> A: second")
    expect(preview(page)).to_contain_text("second")
    expect(page).to_have_url(re.compile("#v1\\."))
    # written with the draft, shortly after typing stops
    wanted = "A -> B: first\nB --> A: second"
    until(page, lambda: share.decode(page.url.split("#", 1)[1]) == wanted)
    assert share.decode(page.url.split("#", 1)[1]) == wanted


def test_enter_on_an_empty_indented_line_ends_the_body(new_page, base_url: str) -> None:
    page = new_page(base_url + "/")
    set_source(page, "")
    editor = page.locator(EDITOR)
    editor.press_sequentially("A -> B: call\nin: Args\n  k: v")
    editor.press("Enter")  # the body goes on at its indent ...
    editor.press_sequentially("n: 2")
    editor.press("Enter")
    editor.press("Enter")  # ... until Enter on a line with nothing but the indent
    editor.press_sequentially("B --> A: done")
    expect(editor).to_have_value("A -> B: call\nin: Args\n  k: v\n  n: 2\nB --> A: done")
    expect(page.locator("#status-text")).to_have_text("Rendered · 2 messages")


def test_redo_brings_the_whole_template_back(new_page, base_url: str) -> None:
    page = new_page(base_url + "/")
    set_source(page, "A -> B: my draft")
    expect(preview(page)).to_contain_text("my draft")
    page.click("#open-templates")
    page.locator('[data-template="mcp-tool-call"]').click()
    example = (EXAMPLES / "mcp-tool-call.volley").read_text(encoding="utf-8")
    editor = page.locator(EDITOR)
    expect(editor).to_have_value(example)
    editor.press("Control+z")
    expect(editor).to_have_value("A -> B: my draft")
    editor.press("Control+Shift+z")
    expect(editor).to_have_value(example)
    expect(page.locator("#doc-title")).to_have_text("MCP tool call over Streamable HTTP")


def test_a_byte_order_mark_does_not_hide_the_title(new_page, base_url: str) -> None:
    page = new_page(base_url + "/")
    set_source(page, "\ufefftitle: With a BOM\nA -> B: hi\n")
    expect(page.locator("#doc-title")).to_have_text("With a BOM")
    assert page.title() == "With a BOM · volley editor"


def test_every_warning_and_the_error_are_marked_in_the_gutter(new_page, base_url: str) -> None:
    page = new_page(base_url + "/", allow_errors=True)
    set_source(page, "A -> B: {fa-nosuchicon}\nB --> A: ok {fa-alsonotanicon}\nA -> B: fine\n")
    expect(page.locator("#status")).to_have_attribute("data-state", "warning")
    expect(page.locator("#gutter .ln-warn")).to_have_text(["1", "2"])
    assert "nosuchicon" in page.locator("#gutter .ln-warn").first.get_attribute("title")
    expect(page.locator("#status-text")).to_contain_text("(and 1 more)")
    editor = page.locator(EDITOR)
    editor.press("Control+End")
    editor.press_sequentially("A -> : oops")
    expect(page.locator("#gutter .ln-error")).to_have_text("4")
    expect(page.locator("#gutter .ln-warn")).to_have_text(["1", "2"])  # still shown


def test_every_error_of_the_diagram_is_marked_at_once(new_page, base_url: str) -> None:
    page = new_page(base_url + "/", allow_errors=True)
    set_source(page, "A -> B: fine\nA -> : one\nB -> B: fine\nB -> : two\n")
    expect(page.locator("#status")).to_have_attribute("data-state", "error")
    expect(page.locator("#gutter .ln-error")).to_have_text(["2", "4"])
    expect(page.locator("#paint .ln-error")).to_have_count(2)
    expect(page.locator("#status-text")).to_contain_text("(and 1 more)")
    assert "participant" in page.locator("#gutter .ln-error").last.get_attribute("title")


@pytest.mark.parametrize("width", [390, 360])
def test_the_editor_fits_a_phone(browser, base_url: str, width: int) -> None:
    context = browser.new_context(viewport={"width": width, "height": 780}, is_mobile=True)
    try:
        page = context.new_page()
        page.goto(base_url + "/")
        expect(preview(page)).to_contain_text("Sign in with a password")
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        for button in ("#share", "#open-templates", "#download-menu summary"):
            box = page.locator(button).bounding_box()
            assert box["x"] >= 0 and box["x"] + box["width"] <= width, button
        page.locator(EDITOR).fill("A -> B: typed on a phone\n")
        expect(preview(page)).to_contain_text("typed on a phone")
        assert page.locator(PREVIEW + " svg").first.bounding_box()["width"] > 0
        page.screenshot(path=f"/tmp/volley-editor-{width}.png", full_page=True)
    finally:
        context.close()


def test_the_preview_is_fitted_to_its_pane(new_page, base_url: str) -> None:
    page = new_page(base_url + "/")
    page.set_viewport_size({"width": 1280, "height": 800})  # a laptop: the pane is ~580px wide
    set_source(page, (EXAMPLES / "mcp-tool-call.volley").read_text(encoding="utf-8"))
    expect(preview(page)).to_contain_text("MCP tool call over Streamable HTTP")
    expect(page.locator("#status")).to_have_attribute("data-state", "ok")
    drawing = page.locator(PREVIEW + " .vl-canvas > svg").bounding_box()
    canvas = page.locator(PREVIEW + " .vl-canvas").bounding_box()
    assert (
        drawing["x"] >= canvas["x"]
        and drawing["x"] + drawing["width"] <= canvas["x"] + canvas["width"] + 0.5
    )
    assert page.evaluate(
        "(c => c.scrollWidth <= c.clientWidth)(document.querySelector('.vl-canvas'))"
    )


def test_the_theme_switch_darkens_the_page_and_the_preview(new_page, base_url: str) -> None:
    page = new_page(base_url + "/")
    set_source(page, "A -> B: hi\n")
    expect(preview(page)).to_contain_text("hi")
    background = "getComputedStyle(document.body).backgroundColor"
    light = page.evaluate(background)
    page.click("#theme")
    expect(page.locator("html")).to_have_attribute("data-theme", "dark")
    expect(page.locator("#theme")).to_have_attribute("aria-pressed", "true")
    assert page.evaluate(background) != light
    expect(page.locator(PREVIEW + " .volley-diagram")).to_have_attribute("data-theme", "dark")
    page.screenshot(path="/tmp/volley-editor-dark-1280.png")
    page.reload()  # the choice is remembered
    expect(page.locator("html")).to_have_attribute("data-theme", "dark")
    page.click("#theme")
    expect(page.locator(PREVIEW + " .volley-diagram")).to_have_attribute("data-theme", "light")


def test_the_cheat_sheet_is_one_key_away(new_page, base_url: str) -> None:
    page = new_page(base_url + "/")
    sheet = page.locator("#cheats")
    page.locator("#open-templates").focus()
    page.keyboard.press("?")
    expect(sheet).to_be_visible()
    expect(sheet).to_contain_text("Shop -> API: POST /orders")
    page.keyboard.press("Escape")
    expect(sheet).to_be_hidden()
    editor = page.locator(EDITOR)
    editor.press("Control+End")
    editor.press("?")  # typed in the source, ? is text
    expect(sheet).to_be_hidden()
    assert editor.input_value().endswith("?")
    editor.press("F1")
    expect(sheet).to_be_visible()
    page.keyboard.press("Escape")
    expect(sheet).to_be_hidden()


def test_copy_picture_puts_a_png_on_the_clipboard(new_page, base_url: str) -> None:
    page = new_page(base_url + "/")
    page.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=base_url)
    set_source(page, "title: Copied\nA -> B: hi\n")
    expect(preview(page)).to_contain_text("hi")
    page.click("#download-menu summary")
    page.click("#copy-picture")
    expect(page.locator("#status-text")).to_have_text("Picture copied")
    kinds = page.evaluate(
        "navigator.clipboard.read().then(items => items.flatMap(item => item.types))"
    )
    assert kinds == ["image/png"]


def test_suggestions_for_names_arrows_and_keywords(new_page, base_url: str) -> None:
    page = new_page(base_url + "/", allow_errors=True)  # half-typed lines answer 400
    set_source(page, "Shop -> Payments: charge\nin: Charge\n  amount: 3\n")
    editor = page.locator(EDITOR)
    editor.press("Control+End")
    suggestions = page.locator("#suggest")
    editor.press_sequentially("Sh")  # a name already used, at the start of a line
    expect(suggestions).to_be_visible()
    expect(suggestions.locator("[role=option]").first).to_contain_text("Shop")
    page.screenshot(path="/tmp/volley-editor-suggest-1280.png")
    editor.press("Tab")
    editor.press_sequentially(" -")  # an arrow
    expect(suggestions.locator("[role=option]").first).to_contain_text("->")
    expect(suggestions).to_contain_text("reply")
    editor.press("ArrowDown")  # -->
    editor.press("Enter")
    editor.press_sequentially(" P")  # the receiver
    expect(suggestions.locator("[role=option]")).to_have_text([re.compile("^Payments")])
    editor.press("Tab")
    assert editor.input_value().endswith("\nShop --> Payments")
    editor.press_sequentially(": ok\nlo")  # a keyword
    expect(suggestions.locator("[role=option]").first).to_contain_text("loop:")
    editor.press("Escape")
    expect(suggestions).to_be_hidden()
    # An indented body's lines are not names, and the list that opened by itself leaves
    # Enter to end the line.
    editor.press("Control+Space")
    assert "amount" not in suggestions.inner_text()
    editor.press("Escape")
    editor.press_sequentially("op: x\n  Shop -> Pay")
    expect(suggestions).to_be_visible()
    editor.press("Enter")
    assert editor.input_value().endswith("Shop -> Pay\n  ")
    # Names typed are text in the list, never markup.
    set_source(page, "<img src=x onerror=alert(1)> -> B\n")
    editor.press("Control+End")
    editor.press_sequentially("<i")
    expect(suggestions.locator(".suggest-text").first).to_have_text("<img src=x onerror=alert(1)>")
    assert suggestions.locator("img").count() == 0


def zoom_in(page) -> dict:
    """Two steps of Ctrl + wheel over the preview; its box."""
    box = page.locator(PREVIEW + " .vl-canvas").bounding_box()
    page.mouse.move(box["x"] + 20, box["y"] + 200)
    page.keyboard.down("Control")
    page.mouse.wheel(0, -100)
    page.mouse.wheel(0, -100)
    page.keyboard.up("Control")
    return box


def test_a_drag_that_starts_on_a_rects_colour_pans_the_preview(new_page, base_url: str) -> None:
    page = new_page(base_url + "/")
    page.set_viewport_size({"width": 900, "height": 800})
    set_source(
        page,
        "rect: lightyellow\n" + "".join(f"A{n} -> A{n + 1}: m{n}\n" for n in range(8)) + "end\n",
    )
    highlight = page.locator(PREVIEW + " .vl-canvas .highlights .highlight")
    expect(highlight).to_be_visible()
    zoom_in(page)
    rect = highlight.bounding_box()
    left = "document.querySelector('#preview .vl-canvas').scrollLeft"
    start = page.evaluate(left)
    x, y = rect["x"] + rect["width"] / 2, rect["y"] + rect["height"] - 6  # on the colour alone
    page.mouse.move(x, y)
    page.mouse.down()
    page.mouse.move(x - 100, y, steps=5)
    page.mouse.up()
    assert page.evaluate(left) > start + 50


def test_the_preview_zooms_and_pans_and_keeps_its_zoom_through_edits(
    new_page, base_url: str
) -> None:
    page = new_page(base_url + "/")
    page.set_viewport_size({"width": 900, "height": 800})
    set_source(page, (EXAMPLES / "mcp-tool-call.volley").read_text(encoding="utf-8"))
    expect(preview(page)).to_contain_text("MCP tool call over Streamable HTTP")
    drawing = page.locator(PREVIEW + " .vl-canvas > svg")
    before = drawing.bounding_box()["width"]
    box = zoom_in(page)
    zoomed = drawing.bounding_box()["width"]
    assert zoomed > 1.5 * before
    page.screenshot(path="/tmp/volley-editor-zoomed-900.png")
    # Dragging the background pans sideways.
    left = "document.querySelector('#preview .vl-canvas').scrollLeft"
    start = page.evaluate(left)
    page.mouse.move(box["x"] + 200, box["y"] + 300)
    page.mouse.down()
    page.mouse.move(box["x"] + 100, box["y"] + 300, steps=5)
    page.mouse.up()
    assert page.evaluate(left) > start + 50
    # An edit redraws the preview at the same zoom.
    editor = page.locator(EDITOR)
    editor.press("Control+End")
    editor.press_sequentially("\nUser -> Agent: thanks")
    expect(preview(page)).to_contain_text("thanks")
    assert abs(drawing.bounding_box()["width"] - zoomed) < 2
    # The arrows still take clicks when zoomed.
    page.locator(PREVIEW + ' .vl-canvas [data-message="1"]').click()
    expect(page.locator(PREVIEW + " .vl-panel .vl-title")).to_have_text("POST /mcp (initialize)")
