"""The viewer in a real browser: what a reader does with the reference diagram's page.

Each test opens a file from disk, as `volley render -o flow.html` leaves it, and uses it the
way the template page in the contract describes: click an arrow, read the request as a table
and as raw text, follow deep links, step with the keyboard.
"""

from __future__ import annotations

import contextlib
import itertools

import pytest

from volley.api import render

from ..conftest import EXAMPLES

sync_api = pytest.importorskip("playwright.sync_api")
expect = sync_api.expect

pytestmark = pytest.mark.browser

PANEL = ".vl-panel"


def message(n: int) -> str:
    return f'.vl-canvas [data-message="{n}"]'


@pytest.fixture(scope="module")
def reference_page(reference_text: str) -> str:
    return render(reference_text, format="html")


def test_click_shows_the_request_as_a_table(open_page, reference_page: str) -> None:
    page = open_page(reference_page)
    assert page.locator(PANEL).is_hidden()
    page.click(message(1))
    panel = page.locator(PANEL)
    assert panel.is_visible()
    assert panel.locator(".vl-title").inner_text() == "POST /mcp (initialize)"
    assert panel.locator(".vl-route").inner_text().split() == ["Agent", "→", "MCP", "Server"]
    row = panel.locator("tr", has_text="protocolVersion")
    assert row.locator("td").inner_text() == "2025-06-18"
    assert "vl-k-string" in row.locator("td").get_attribute("class")
    assert page.evaluate("location.hash") == "#message-1"
    assert page.locator(message(1)).get_attribute("class").split()[-1] == "vl-selected"
    assert "vl-paired" in page.locator(message(2)).get_attribute("class")


def test_an_open_message_dims_the_others_but_not_the_one_in_focus(
    open_page, reference_page: str
) -> None:
    page = open_page(reference_page)
    page.click(message(1))
    page.mouse.move(0, 0)  # nothing hovered
    opacity = "g => getComputedStyle(g).opacity"
    shown = [page.locator(message(n)).evaluate(opacity) for n in (1, 2, 3)]
    assert shown == ["1", "1", "0.42"]  # the message, its reply, another
    page.locator(message(3)).focus()
    page.keyboard.press("Shift+Tab")
    page.keyboard.press("Tab")  # message 3 again, now from the keyboard
    assert page.evaluate("document.activeElement.getAttribute('data-message')") == "3"
    assert page.locator(message(3)).evaluate(opacity) == "1"


def test_a_request_shows_the_response_its_reply_carried(open_page, reference_page: str) -> None:
    page = open_page(reference_page)
    page.click(message(1))
    tabs = page.locator(f"{PANEL} [role=tab]")
    assert [tabs.nth(i).inner_text().split() for i in range(tabs.count())] == [
        ["IN", "Request"],
        ["OUT", "Response", "#2"],
    ]
    tabs.nth(1).click()
    row = page.locator(f"{PANEL} tr", has_text="result.serverInfo.name")
    assert row.locator("td").inner_text() == "issue-tracker"
    # And the reply's own panel leads with its response, then the request it answers.
    page.click(message(2))
    assert tabs.nth(0).inner_text().split() == ["OUT", "Response"]
    assert tabs.nth(1).inner_text().split() == ["IN", "Request", "#1"]
    # A message with nothing of its own still shows what its exchange carried.
    page.click(message(4))
    assert tabs.nth(0).inner_text().split() == ["IN", "Request", "#3"]


def test_a_reply_is_named_in_words_as_its_own_arrow_is(open_page, reference_page: str) -> None:
    """The panel said "Reply: message 9" of message 11, whose arrow carries payload marker 9,
    where "message 9" is another message (every name and deep link counts all messages)."""
    page = open_page(reference_page)
    page.click(message(10))
    related = page.locator(f"{PANEL} .vl-related")
    assert related.locator("b").inner_text() == "9"  # the number the picture shows
    assert related.get_attribute("title") == "Reply: Message 11, 200 OK"
    assert related.get_attribute("aria-label") == "Reply: Message 11, 200 OK"
    via = page.locator(f"{PANEL} .vl-via")
    assert via.inner_text() == "#9" and via.get_attribute("title") == "Carried by Message 11"


def test_raw_shows_the_body_as_written(open_page, reference_page: str, reference_text) -> None:
    page = open_page(reference_page)
    page.click(message(1))
    page.click(f"{PANEL} [data-vl-view=raw]")
    raw = page.locator(f"{PANEL} .vl-raw")
    assert raw.inner_text().startswith("POST /mcp HTTP/1.1\n")
    assert page.locator(f"{PANEL} .vl-raw .vl-t-method").inner_text() == "POST"
    body = page.evaluate("document.querySelector('.vl-panel .vl-raw').textContent")
    from volley import parse

    assert body == parse(reference_text).messages()[0].request.body
    # The choice sticks while stepping, as long as the next body has a table too.
    page.keyboard.press("ArrowRight")
    assert page.locator(f"{PANEL} .vl-raw").inner_text().startswith("HTTP/1.1 200 OK")


def test_deep_link_opens_the_message(open_page, reference_page: str) -> None:
    page = open_page(reference_page, "#message-9")
    panel = page.locator(PANEL)
    assert panel.locator(".vl-title").inner_text() == "Call search_issues"
    assert panel.locator("tr", has_text="arguments.query").locator("td").inner_text() == (
        "login timeout"
    )
    assert "search_issues" in panel.locator("table").inner_text()
    assert page.evaluate("document.activeElement.getAttribute('data-message')") == "9"


def test_a_page_answers_the_address_its_diagram_has_as_a_fragment(open_page) -> None:
    """A link copied from a docs site (`#login-message-2`: the diagram as a fragment named
    `login`) opens the same message on the diagram's own page, whose links are `#message-N`."""
    text = "A -> B: one\nB --> A: two\nA -> B: three\n"
    fragment = render(text, format="html", fragment=True, id_prefix="login")
    assert 'data-anchor="login-"' in fragment  # its links: #login-message-N
    page = open_page(render(text, format="html"), "#login-message-2")
    expect(page.locator(PANEL)).to_be_visible()
    assert page.evaluate("document.activeElement.getAttribute('data-message')") == "2"
    # On a page of several diagrams such an address names none of them: nothing opens.
    two = fragment + render("C -> D: four\n", format="html", fragment=True, id_prefix="other")
    several = open_page(f"<!DOCTYPE html><html><body>{two}</body></html>", "#x-message-1", "b.html")
    expect(several.locator(".volley-diagram.vl-js")).to_have_count(2)
    assert several.locator(PANEL).first.is_hidden() and several.locator(PANEL).last.is_hidden()


def test_the_open_message_stays_in_sight_when_the_panel_becomes_a_sheet(
    open_page, reference_page: str
) -> None:
    """Narrowed from a desktop window to a phone's, the panel moves from beside the drawing to
    a sheet over the window's bottom: it covered the open message (or the message was left
    outside the narrow pane)."""
    page = open_page(reference_page, "#message-9")
    page.set_viewport_size({"width": 390, "height": 700})
    page.wait_for_function("document.querySelector('.volley-diagram:not(.vl-wide)')")
    # The scroll that keeps it in sight, once the layout has settled (a slow machine's frames).
    settled = (
        "(() => { const m = document.querySelector('.vl-canvas [data-message=\"9\"]');"
        " return m.getBoundingClientRect().bottom <="
        " document.querySelector('.vl-panel').getBoundingClientRect().top; })()"
    )
    with contextlib.suppress(sync_api.TimeoutError):  # said by the assertions below, in figures
        page.wait_for_function(settled, timeout=2000)
    sheet = page.locator(PANEL).bounding_box()
    shown = page.locator(message(9)).bounding_box()
    assert sheet is not None and shown is not None
    assert shown["y"] >= 0 and shown["y"] + shown["height"] <= sheet["y"]
    assert shown["x"] < 390 and shown["x"] + shown["width"] > 0


@pytest.mark.parametrize("zoom", ["1.25", "2"])
def test_a_host_pages_css_zoom_lays_the_panel_out_as_a_narrower_window_would(
    open_page, reference_page: str, zoom: str
) -> None:
    """A host page (a docs theme, a zoom extension) may set CSS `zoom`, in which lengths read
    off the page are the window's pixels and lengths set are the zoomed element's: the panel
    opened over the message it showed and ran past the window's top, the sticky copy of the
    top boxes was wider than the window and the page scrolled sideways."""
    page = open_page(reference_page)
    page.evaluate(f"document.documentElement.style.zoom = '{zoom}'")
    page.focus(message(1))
    page.keyboard.press("Enter")
    expect(page.locator(PANEL)).to_be_visible()
    height = page.viewport_size["height"]
    sheet = page.locator(PANEL).bounding_box()
    shown = page.locator(message(1)).bounding_box()
    assert sheet is not None and shown is not None
    assert sheet["y"] >= 0 and sheet["y"] + sheet["height"] <= height
    assert shown["y"] >= 0 and shown["y"] + shown["height"] <= sheet["y"]
    page.mouse.wheel(0, 600)  # the top boxes scroll away: their sticky copy shows
    expect(page.locator(".vl-heads-on")).to_have_count(1)
    assert page.evaluate("document.documentElement.scrollWidth") <= page.viewport_size["width"]


def test_a_click_between_a_label_and_its_marker_opens_the_message(open_page) -> None:
    """A 4 px gap between the label's halo and the payload marker met the page behind: a click
    there (Playwright's own click on a short label's message, at its centre) opened nothing."""
    page = open_page(render("A -> B: deep\nin: X\n  k: v\n", format="html"))
    box = "e => ({x: +e.getAttribute('x'), width: +e.getAttribute('width')})"
    halo = page.locator(message(1) + " .halo").evaluate(box)
    marker = page.locator(message(1) + " .marker").evaluate(box)
    gap = marker["x"] - (halo["x"] + halo["width"])
    assert gap > 2  # in the drawing's units
    shown = page.locator(message(1) + " .marker").bounding_box()
    assert shown is not None
    scale = (shown["width"] - 1) / marker["width"]  # (its 1-unit outline is in the box)
    page.mouse.click(shown["x"] - gap * scale / 2, shown["y"] + shown["height"] / 2)
    expect(page.locator(PANEL)).to_be_visible()


def test_tab_goes_from_the_panel_to_the_next_arrow_and_back(open_page) -> None:
    """The panel comes after the whole drawing in the page: Tab past its last control left
    the diagram and came back round to the first arrow."""
    text = "A -> B: one\nin: Args\n  k: v\nB --> A: two\nA -> B: three\n"
    page = open_page(render(text, format="html"))
    page.focus(message(2))
    page.keyboard.press("Enter")
    expect(page.locator(PANEL)).to_be_visible()
    focused = "document.activeElement.getAttribute('data-message')"
    for _ in range(12):  # through the panel's controls
        page.keyboard.press("Tab")
        if page.evaluate(focused):
            break
    assert page.evaluate(focused) == "3"
    assert page.locator(PANEL).is_visible()  # the panel stays with what it shows
    page.focus(message(1))
    page.keyboard.press("Enter")
    page.keyboard.press("Tab")  # into the panel: its first control
    assert page.evaluate("document.querySelector('.vl-panel').contains(document.activeElement)")
    page.keyboard.press("Shift+Tab")
    assert page.evaluate(focused) == "1"


def test_under_css_zoom_the_sheet_follows_the_windows_height(open_page) -> None:
    """In a host page, a window made shorter (a phone's address bar, a keyboard) leaves the
    diagram's width as it was: the sheet kept the old height and ran past the window's top."""
    body = "".join(f"  line{n}: value {n}\n" for n in range(200))
    fragment = render(f"A -> B: long\nin: Args\n{body}", format="html", fragment=True)
    page = open_page(f'<!DOCTYPE html><meta charset=utf-8><body style="zoom:2">{fragment}</body>')
    page.set_viewport_size({"width": 700, "height": 1000})
    page.focus(message(1))
    page.keyboard.press("Enter")
    expect(page.locator(PANEL)).to_be_visible()
    page.set_viewport_size({"width": 700, "height": 450})
    page.wait_for_function("document.querySelector('.vl-panel').getBoundingClientRect().top >= 0")
    sheet = page.locator(PANEL).bounding_box()
    assert sheet is not None and sheet["y"] + sheet["height"] <= 450


def test_a_deep_link_keeps_the_panels_head_in_sight_on_a_short_page(open_page) -> None:
    """A short page beside a tall panel: bringing the message to the middle of the window
    scrolled it past the panel's top, its Close, Previous and Next 32 px above the window."""
    body = "".join(f"  line{n}: value {n}\n" for n in range(300))
    text = "".join(f"A -> B: call {n}\nB --> A: ok\n" for n in range(5))
    text += "A -> B: the long one\nout: Result\n" + body
    page = open_page(render(text, format="html"), "#message-11")
    expect(page.locator(PANEL)).to_be_visible()
    page.wait_for_timeout(200)
    assert page.evaluate("document.documentElement.scrollHeight") > page.viewport_size["height"]
    assert page.locator(PANEL).evaluate("p => p.getBoundingClientRect().top") >= 0
    shown = page.locator(message(11)).bounding_box()
    assert shown is not None and 0 <= shown["y"] <= page.viewport_size["height"] - shown["height"]


def test_a_screen_reader_hears_a_table_rows_path_as_written(open_page, reference_page) -> None:
    """The break opportunities between a dotted path's segments (so a long key wraps at a dot)
    were read as spaces: "params .protocolVersion"."""
    page = open_page(reference_page, "#message-1")
    expect(page.locator(PANEL)).to_be_visible()
    tree = page.context.new_cdp_session(page).send("Accessibility.getFullAXTree")
    heads = [n["name"]["value"] for n in tree["nodes"] if n["role"]["value"] == "rowheader"]
    assert "params.protocolVersion" in heads
    assert "params.capabilities.roots.listChanged" in heads and "jsonrpc" in heads
    assert not [head for head in heads if " " in head]
    assert page.locator(f"{PANEL} th wbr").count() > 0  # the key still wraps at its dots


def test_what_a_screen_reader_hears_for_each_arrow(open_page) -> None:
    source = (
        "B <- A: **hello**  *there*\\n`x`{fas-plug}\nin: Args\n  k: v\nout: Result\n  k: v\n"
        "A <-> B\nautonumber 7\nA -> B: \u05e9\u05dc\u05d5\u05dd [docs](https://example.com)"
    )
    page = open_page(render(source, format="html"))
    labels = page.evaluate(
        "[...document.querySelectorAll('.vl-canvas [data-message]')]"
        ".map(group => group.getAttribute('aria-label'))"
    )
    assert labels == [
        "Message 1, A to B: hello there x. Carries Args and Result",
        "Message 2, A and B",
        "Message 7, A to B: \u05e9\u05dc\u05d5\u05dd docs",
    ]


def test_enter_on_a_focused_message(open_page, reference_page: str) -> None:
    page = open_page(reference_page)
    page.keyboard.press("Tab")
    focused = page.evaluate(
        "[document.activeElement.getAttribute('data-message'),"
        " document.activeElement.getAttribute('role'),"
        " document.activeElement.getAttribute('aria-label')]"
    )
    assert focused == ["1", "button", "Message 1, Agent to MCP Server: POST /mcp (initialize). "
                       "Carries Request"]  # fmt: skip
    page.keyboard.press("Enter")
    assert page.locator(f"{PANEL} .vl-title").inner_text() == "POST /mcp (initialize)"
    # Focus moves into the panel, so Tab reaches its controls, and the opening is announced;
    # a ring shows where it is (its outline was off, however the panel was opened).
    assert page.evaluate("document.activeElement.classList.contains('vl-panel')")
    ring = "e => getComputedStyle(e).outlineStyle"
    assert page.locator(PANEL).evaluate(ring) == "solid"
    assert page.locator(".vl-sr[role=status]").inner_text().startswith("Message 1, Agent to")
    page.keyboard.press("Tab")
    page.keyboard.press("Enter")  # the first enabled control: next message
    assert page.locator(f"{PANEL} .vl-title").inner_text() == "200 OK"
    assert page.evaluate("document.activeElement.classList.contains('vl-panel')")
    page.keyboard.press("Escape")
    assert page.evaluate("document.activeElement.getAttribute('data-message')") == "2"
    page.keyboard.press("Tab")
    page.keyboard.press("Space")
    assert (
        page.locator(f"{PANEL} .vl-title").inner_text() == "POST /mcp (notifications/initialized)"
    )


def test_arrow_keys_and_j_k_step_and_escape_closes(open_page, reference_page: str) -> None:
    page = open_page(reference_page, "#message-1")
    title = page.locator(f"{PANEL} .vl-title")
    page.keyboard.press("ArrowRight")
    assert title.inner_text() == "200 OK"
    assert page.evaluate("location.hash") == "#message-2"
    page.keyboard.press("j")
    assert title.inner_text() == "POST /mcp (notifications/initialized)"
    page.keyboard.press("k")
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowLeft")  # stays on the first
    assert title.inner_text() == "POST /mcp (initialize)"
    assert page.evaluate("document.activeElement.getAttribute('data-message')") == "1"
    page.keyboard.press("Escape")
    assert page.locator(PANEL).is_hidden()
    assert page.evaluate("location.hash") == ""
    assert page.evaluate("document.activeElement.getAttribute('data-message')") == "1"


def test_every_message_opens_and_every_payload_shows_both_ways(
    open_page, reference_page: str
) -> None:
    page = open_page(reference_page)
    count = page.locator(".vl-canvas [data-message]").count()
    assert count == 14
    for n in range(1, count + 1):
        page.click(message(n))
        tabs = page.locator(f"{PANEL} [role=tab]")
        for index in range(tabs.count()):
            tabs.nth(index).click()
            page.click(f"{PANEL} [data-vl-view=raw]")
            assert page.locator(f"{PANEL} .vl-raw").inner_text().strip()
            table_button = page.locator(f"{PANEL} [data-vl-view=table]")
            if table_button.is_enabled():
                table_button.click()
                assert page.locator(f"{PANEL} table tr").count() > 0
        if not tabs.count():
            assert page.locator(f"{PANEL} .vl-empty").is_visible()


def test_copy_says_it_copies_the_body_and_does(
    context, open_page, reference_page: str, reference_text: str
) -> None:
    from volley import parse

    context.grant_permissions(["clipboard-read", "clipboard-write"])
    page = open_page(reference_page, "#message-9")
    copy = page.locator(f"{PANEL} .vl-copy")
    assert page.locator(f"{PANEL} table").is_visible()  # in the Table view ...
    assert copy.inner_text() == "Copy body"  # ... it says what it copies
    assert copy.get_attribute("title") == "Copy the body as the Raw view shows it"
    copy.click()
    expect(copy).to_have_text("Copied")  # the clipboard is async
    expect(page.locator(".vl-sr[role=status]")).to_have_text("Copied Tool call.")  # heard too
    copied = page.evaluate("navigator.clipboard.readText()")
    assert copied == parse(reference_text).messages()[8].response.body
    expect(copy).to_have_text("Copy body")


def test_panel_beside_when_wide_below_when_narrow(open_page, reference_page: str) -> None:
    page = open_page(reference_page, "#message-1")
    canvas = page.locator(".vl-canvas").bounding_box()
    panel = page.locator(PANEL).bounding_box()
    assert panel["x"] >= canvas["x"] + canvas["width"]
    page.set_viewport_size({"width": 480, "height": 900})
    # The viewer's ResizeObserver moves the panel below once it sees the narrow width.
    page.wait_for_function("() => !document.querySelector('.vl-wide')", timeout=5000)
    canvas = page.locator(".vl-canvas").bounding_box()
    panel = page.locator(PANEL).bounding_box()
    assert panel["x"] < canvas["x"] + canvas["width"] / 2
    assert panel["width"] > 400


def test_the_diagram_fits_the_window(open_page, reference_page: str) -> None:
    page = open_page(reference_page)
    page.set_viewport_size({"width": 800, "height": 900})
    svg = page.locator(".vl-canvas > svg").bounding_box()
    assert svg["width"] <= 800


@pytest.mark.parametrize(
    ("scheme", "theme", "dark"),
    [
        ("dark", "auto", True),
        ("light", "auto", False),
        ("dark", "light", False),
        ("light", "dark", True),
    ],
)
def test_colour_scheme(open_in, reference_text, scheme, theme, dark) -> None:
    html = render(reference_text, format="html", theme=theme)
    _assert_drawn_dark(open_in(html, "#message-1", color_scheme=scheme), dark)


def test_a_dark_page_is_dark_to_the_windows_edge_and_prints_so_on_white_paper(
    open_in, reference_text
) -> None:
    """A dark page's window around it was the browser's own dark grey (#121212), which it also
    printed around the page's navy, on every margin and below a short page."""
    page = open_in(render(reference_text, format="html", theme="dark"))
    root = "getComputedStyle(document.documentElement)"
    assert page.evaluate(f"{root}.backgroundColor") == "rgb(15, 23, 42)"
    page.emulate_media(media="print")
    assert page.evaluate(f"{root}.colorScheme") == "light"  # white paper round it
    assert page.evaluate(f"{root}.printColorAdjust") == "exact"  # its backgrounds printed
    light = open_in(render(reference_text, format="html", theme="light"))
    assert light.evaluate(f"{root}.backgroundColor") == "rgba(0, 0, 0, 0)"


@pytest.mark.parametrize(
    ("host", "scheme", "dark"),
    [
        ('data-jp-theme-light="true"', "dark", False),  # JupyterLab's light theme, dark system
        ('data-jp-theme-light="false"', "light", True),
        ('class="vscode-light"', "dark", False),  # a VS Code notebook's output
        ('class="vscode-dark"', "light", True),
    ],
)
def test_an_auto_diagram_follows_a_notebooks_theme(open_in, reference_text, host, scheme, dark):
    html = render(reference_text, format="html").replace("<body>", f"<body {host}>", 1)
    _assert_drawn_dark(open_in(html, "#message-1", color_scheme=scheme), dark)


def _assert_drawn_dark(page, dark: bool) -> None:
    panel = page.evaluate("getComputedStyle(document.querySelector('.vl-panel')).backgroundColor")
    background = page.evaluate(
        "getComputedStyle(document.querySelector('.vl-canvas svg .background')).fill"
    )
    assert (panel == "rgb(255, 255, 255)") is not dark
    assert (background == "rgb(255, 255, 255)") is not dark


def tall_diagram(count: int = 40) -> str:
    lines = ["title: Long conversation"]
    for n in range(1, count + 1):
        lines += [f"Client -> Server: request {n}", "in: Request", f"  id: {n}"]
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize(("width", "height"), [(1400, 800), (480, 800)])
def test_a_long_diagram_scrolls_and_the_panel_stays_in_view(open_page, width, height) -> None:
    page = open_page(render(tall_diagram(), format="html"))
    page.set_viewport_size({"width": width, "height": height})
    page.click(message(1))
    for _ in range(30):
        page.keyboard.press("ArrowRight")
    assert page.locator(f"{PANEL} .vl-title").inner_text() == "request 31"
    assert page.evaluate("window.scrollY") > 500
    panel = page.locator(PANEL).bounding_box()
    selected = page.locator(message(31)).bounding_box()
    assert panel["y"] >= 0 and panel["y"] + panel["height"] <= height + 1
    assert selected["y"] >= 0 and selected["y"] + selected["height"] <= height
    if width < 800:  # the panel is a sheet over the bottom of the drawing: the message clears it
        assert selected["y"] + selected["height"] <= panel["y"]


@pytest.mark.parametrize(
    ("width", "height", "prefix"), [(1400, 900, ""), (700, 900, ""), (390, 700, "flow")]
)
def test_a_shared_link_far_down_shows_the_message_and_its_panel(
    open_page, width: int, height: int, prefix: str
) -> None:
    """A link to message 50 of a long diagram, opened in a new window (a whole page, or a fragment
    below prose on a host page, whose links are #PREFIX-message-N): once the page has settled,
    message 50's arrow and its panel are both in the window, apart, the arrow below the sticky
    copy of the top boxes (mid-window beside a wide drawing)."""
    if prefix:
        fragment = render(tall_diagram(60), format="html", fragment=True, id_prefix=prefix)
        prose = "<p>Prose of the host page above the diagram.</p>" * 40
        html = f"<!DOCTYPE html><meta charset=utf-8><body>{prose}{fragment}</body>"
    else:
        html = render(tall_diagram(60), format="html")
    page = open_page(html)
    page.set_viewport_size({"width": width, "height": height})
    address = page.url
    page.goto("about:blank")  # then open the link afresh at this size (a reload would restore
    page.goto(f"{address}#{prefix + '-' if prefix else ''}message-50")  # the old scroll)
    expect(page.locator(f"{PANEL} .vl-title")).to_have_text("request 50")
    assert page.evaluate("document.activeElement.getAttribute('data-message')") == "50"
    # Settled: fonts loaded and two frames drawn; nothing after the first scroll moves the page.
    scrolled = page.evaluate("window.scrollY")
    page.evaluate(
        "document.fonts.ready.then(() => new Promise(done =>"
        " requestAnimationFrame(() => requestAnimationFrame(done))))"
    )
    assert page.evaluate("window.scrollY") == scrolled > 1000
    arrow = page.locator(f"{message(50)} .arrow").bounding_box()
    label = page.locator(f"{message(50)} .label").bounding_box()
    panel = page.locator(PANEL).bounding_box()
    heads = page.locator(".vl-heads-track").bounding_box()
    assert heads["y"] + heads["height"] <= label["y"] and arrow["y"] + arrow["height"] <= height
    assert panel["y"] >= 0 and panel["y"] + panel["height"] <= height + 1
    apart = (
        arrow["y"] + arrow["height"] <= panel["y"]  # above the sheet
        or arrow["x"] + arrow["width"] <= panel["x"]  # or beside the panel
    )
    assert apart, (arrow, panel)
    if width >= 800:  # beside a wide drawing the link's message stands mid-window, not at its edge
        assert height / 4 < arrow["y"] + arrow["height"] / 2 < height * 3 / 4, arrow


@pytest.mark.parametrize("width", [390, 900, 1280])
def test_the_clicked_arrow_stays_clear_of_the_panel(open_page, width: int) -> None:
    """Whatever arrow a reader taps, the panel opens without covering it (issue: a bottom sheet
    opened over the arrow that was clicked)."""
    height = 800
    page = open_page(render(tall_diagram(), format="html"))
    page.set_viewport_size({"width": width, "height": height})
    page.evaluate("window.scrollTo(0, 900)")
    for lower in (0.75, 0.92):  # an arrow low in the window, where a sheet opens
        n = page.evaluate(
            """y => [...document.querySelectorAll('.vl-canvas [data-message]')]
                .find(g => g.getBoundingClientRect().top > y).getAttribute('data-message')""",
            height * lower - 30,
        )
        page.click(message(int(n)))
        assert page.locator(f"{PANEL} .vl-title").inner_text() == f"request {n}"
        arrow = page.locator(message(int(n))).bounding_box()
        panel = page.locator(PANEL).bounding_box()
        assert arrow["y"] >= 0 and arrow["y"] + arrow["height"] <= height
        apart = (
            arrow["y"] + arrow["height"] <= panel["y"]  # above the sheet
            or arrow["x"] + arrow["width"] <= panel["x"]  # or beside the panel
        )
        assert apart, (arrow, panel)
        page.screenshot(path=f"/tmp/volley-sheet-{width}-{lower}.png")


def test_raw_view_wraps_long_lines_on_request(open_page) -> None:
    long = "x" * 400
    page = open_page(
        render(
            f'A -> B: one\nin: R\n```json\n{{"long": "{long}"}}\n```\n'
            f'A -> B: two\nin: R\n```json\n{{"also": "{long}"}}\n```\n',
            format="html",
        ),
        "#message-1",
    )
    page.set_viewport_size({"width": 1000, "height": 800})
    page.click(f"{PANEL} [data-vl-view=raw]")
    raw = f"{PANEL} .vl-raw"
    overflow = f"(r => r.scrollWidth > r.clientWidth)(document.querySelector('{raw}'))"
    assert page.evaluate(overflow)  # one long line: scrolls sideways
    wrap = page.locator(f"{PANEL} [data-vl-action=wrap]")
    assert wrap.get_attribute("aria-pressed") == "false"
    wrap.click()
    assert page.evaluate(overflow) is False
    assert page.evaluate("document.activeElement.dataset.vlAction") == "wrap"
    page.keyboard.press("Escape")
    page.click(message(2))  # the choice holds for the next body
    assert page.locator(f"{PANEL} [data-vl-action=wrap]").get_attribute("aria-pressed") == "true"
    assert page.evaluate(overflow) is False
    assert page.locator(raw).inner_text() == f'{{"also": "{long}"}}'
    page.click(f"{PANEL} [data-vl-view=table]")
    assert page.locator(f"{PANEL} [data-vl-action=wrap]").count() == 0  # a raw-view control


@pytest.mark.parametrize("width", [1400, 800])
def test_a_long_payload_label_leaves_every_tab_whole_and_apart(open_page, width: int) -> None:
    """A long `in:` label ends in an ellipsis (the whole label on hover); the other tabs of the
    exchange keep their words and badges, side by side or on a row below, never overlapping."""
    label = "A request label long enough to wrap in its tab"
    page = open_page(
        render(
            f"A -> B: call\nin: {label}\n  a: 1\nout:\n  b: 2\nB --> A: done\nout:\n  c: 3\n",
            format="html",
        ),
        "#message-1",
    )
    page.set_viewport_size({"width": width, "height": 900})
    tabs = page.evaluate(
        """() => [...document.querySelectorAll('.vl-panel [role=tab]')].map(t => {
            const r = t.getBoundingClientRect();
            return {x: r.x, y: r.y, w: r.width, h: r.height, clipped: t.scrollWidth > t.clientWidth,
                    words: t.innerText.split(/\\s+/)};
        })"""
    )
    assert [tab["words"][0] for tab in tabs] == ["IN", "OUT", "OUT"]
    assert tabs[2]["words"][-1] == "#2"
    assert not any(tab["clipped"] for tab in tabs)
    for one, other in itertools.pairwise(tabs):
        beside = one["x"] + one["w"] <= other["x"]
        below = one["y"] + one["h"] - 1 <= other["y"]  # a tab's underline sits on the rule
        assert beside or below, (one, other)
    shown = page.locator(f"{PANEL} .vl-tab-label").first
    assert shown.get_attribute("title") == label
    assert page.evaluate(
        "(s => s.scrollWidth > s.clientWidth)(document.querySelector('.vl-panel .vl-tab-label'))"
    )  # the long label is cut short, with its ellipsis
    responses = page.locator(f"{PANEL} .vl-tab-label").nth(1)
    assert responses.evaluate("s => s.scrollWidth <= s.clientWidth")  # "Response" in full


def test_text_bodies_are_not_warned_about_broken_json_is(open_page) -> None:
    page = open_page(
        render(
            "A -> B: text\nin: Note\n```text\nhello there\n```\n"
            'A -> B: broken\nin: Req\n```json\n{"a": \n```\n',
            format="html",
        ),
        "#message-1",
    )
    assert page.locator(f"{PANEL} .vl-raw").inner_text() == "hello there"
    assert page.locator(f"{PANEL} .vl-notice").count() == 0
    why = page.locator(f"{PANEL} .vl-why")  # the reason, in the raw view, not only a tooltip
    assert why.inner_text().startswith('No table for lang "text"')
    table = page.locator(f"{PANEL} [data-vl-view=table]")
    assert table.is_disabled()
    assert table.get_attribute("title").startswith('No table for lang "text"')
    page.keyboard.press("Escape")
    page.click(message(2))
    notice = page.locator(f"{PANEL} .vl-notice")
    assert notice.inner_text().startswith("No table: the body is not valid JSON")


def test_the_hint_is_above_the_drawing_and_only_where_arrows_carry_something(
    open_page, reference_page: str
) -> None:
    page = open_page(reference_page)
    page.set_viewport_size({"width": 1280, "height": 700})
    hint = page.locator(".vl-hint")
    assert hint.inner_text().startswith("Click an arrow to see what it carries")
    box = hint.bounding_box()
    assert box["y"] + box["height"] <= 700  # on screen when the page opens
    assert box["y"] < page.locator(".vl-canvas svg").bounding_box()["y"]
    bare = open_page(render("A -> B: hello\nB --> A: hi\n", format="html"), name="bare.html")
    assert bare.locator(".volley-diagram.vl-js").count() == 1
    assert bare.locator(".vl-hint").count() == 0


def test_the_inside_of_a_self_message_loop_is_clickable(open_page) -> None:
    page = open_page(render("A -> A: think it over\nA -> B: tell\n", format="html"))
    hit = page.locator(f"{message(1)} .hit").bounding_box()
    inside = (hit["x"] + hit["width"] / 2, hit["y"] + hit["height"] / 2)
    page.mouse.click(*inside)
    assert page.locator(f"{PANEL} .vl-title").inner_text() == "think it over"


COLOURED = {
    "json": ('{"a": "x\\"y", "n": -1.5e3, "ok": true, "none": null, "list": [1, "two"]}', "json"),
    "http": (
        "HTTP/1.1 201 Created\r\nLocation: /orders/7\r\nContent-Type: application/json\r\n\r\n"
        '{"id": 7}',
        "http",
    ),
    "yaml": ("# a comment\nname: Ada\n- item: 1\nurl: http://x.example/a:b\n", "yaml"),
    "xml": ('<?xml version="1.0"?>\n<a href="x">text "q"<!-- c --></a>', "xml"),
    "plain": ("just words, \\ and \u00e9 \U0001f680 and <b>tags</b>", "text"),
    "unclosed": ('{"a": "never closed\n  , 1', "json"),
}


def test_raw_colours_never_change_the_text(open_page) -> None:
    """The raw view is coloured in the browser: whatever the body, it reads back as written."""
    lines = []
    for name, (body, lang) in COLOURED.items():
        lines += [f"A -> B: {name}", "out: Body", f"~~~~ {lang}", body, "~~~~"]
    page = open_page(render("\n".join(lines) + "\n", format="html"))
    from volley import parse

    bodies = [m.response.body for m in parse("\n".join(lines) + "\n").messages()]
    classes = {}
    for n, name in enumerate(COLOURED, 1):
        page.click(message(n))
        raw_button = page.locator(f"{PANEL} [data-vl-view=raw]")
        raw_button.click()
        shown = page.evaluate("document.querySelector('.vl-panel .vl-raw').textContent")
        assert shown == bodies[n - 1], name
        classes[name] = set(
            page.evaluate(
                "[...document.querySelectorAll('.vl-panel .vl-raw span')].map(s => s.className)"
            )
        )
        page.keyboard.press("Escape")
    assert {"vl-t-key", "vl-t-str", "vl-t-num", "vl-t-const", "vl-t-pun"} <= classes["json"]
    assert {"vl-t-kw", "vl-t-num", "vl-t-reason", "vl-t-attr", "vl-t-key"} <= classes["http"]
    assert {"vl-t-com", "vl-t-key", "vl-t-val"} <= classes["yaml"]
    assert {"vl-t-key", "vl-t-attr", "vl-t-str", "vl-t-com"} <= classes["xml"]
    assert classes["plain"] == set()


@pytest.mark.parametrize("width", [390, 900, 1280])
def test_the_participants_stay_in_sight_down_a_long_diagram(
    open_page, reference_page: str, width: int
) -> None:
    page = open_page(reference_page)
    page.set_viewport_size({"width": width, "height": 700})
    heads = page.locator(".vl-heads")
    assert not heads.evaluate("h => h.classList.contains('vl-heads-on')")  # the boxes are there
    page.mouse.wheel(0, 1400)
    page.wait_for_function("document.querySelector('.vl-heads.vl-heads-on')")
    track = page.locator(".vl-heads-track").bounding_box()
    assert 0 <= track["y"] <= 16
    # The copy's boxes stand over the drawing's lifelines, at the drawing's scale.
    for name in ("Agent", "MCP Server"):
        copy = page.locator(f'.vl-heads [data-name="{name}"] .box').bounding_box()
        index = page.locator(f'.vl-canvas [data-name="{name}"]').get_attribute("data-participant")
        line = page.locator(f'.vl-canvas .lifeline[data-participant="{index}"]').bounding_box()
        if line["x"] < track["x"] + track["width"]:  # in view at this width
            assert abs(copy["x"] + copy["width"] / 2 - line["x"] - line["width"] / 2) < 2
    page.screenshot(path=f"/tmp/volley-sticky-{width}.png")
    page.mouse.wheel(0, -5000)
    page.wait_for_function("!document.querySelector('.vl-heads.vl-heads-on')")


# Tall participant boxes (names on three lines) make a tall sticky copy of them.
TALL_HEADS = "\n".join(
    ["participant C as Client of the service<br>in the browser<br>of the reader",
     "participant S as Server of the service<br>behind the gateway<br>in the cloud"]
    + [f"C -> S: request {n}\nS --> C: response {n}" for n in range(1, 16)]
)  # fmt: skip


@pytest.mark.parametrize("width", [390, 1280])
def test_a_message_stepped_to_stops_below_the_sticky_participants(open_page, width: int) -> None:
    page = open_page(render(TALL_HEADS, format="html"))
    page.set_viewport_size({"width": width, "height": 700})
    page.mouse.wheel(0, 5000)  # to the foot of the drawing
    page.wait_for_function("document.querySelector('.vl-heads.vl-heads-on')")
    page.click(message(30))
    for n in range(29, 9, -1):  # back up the drawing, a message at a time
        page.keyboard.press("ArrowLeft")
        said = f"request {(n + 1) // 2}" if n % 2 else f"response {n // 2}"
        expect(page.locator(f"{PANEL} .vl-title").first).to_have_text(said)
        arrow = page.locator(f"{message(n)} .arrow").bounding_box()
        heads = page.locator(".vl-heads-track").bounding_box()
        assert heads["height"] > 50  # three lines of names
        assert arrow["y"] >= heads["y"] + heads["height"], n


@pytest.mark.parametrize("width", [390, 1280])
def test_a_message_tabbed_to_stops_below_the_sticky_participants(open_page, width: int) -> None:
    page = open_page(render(TALL_HEADS, format="html"))
    page.set_viewport_size({"width": width, "height": 700})
    page.mouse.wheel(0, 5000)
    page.wait_for_function("document.querySelector('.vl-heads.vl-heads-on')")
    page.focus(message(30))
    for n in range(29, 9, -1):
        page.keyboard.press("Shift+Tab")
        assert page.evaluate("document.activeElement.getAttribute('data-message')") == str(n)
        arrow = page.locator(f"{message(n)} .arrow").bounding_box()
        heads = page.locator(".vl-heads-track").bounding_box()
        assert arrow["y"] >= heads["y"] + heads["height"], n


def test_a_message_shows_the_pointer_under_the_mouse(open_page, reference_page: str) -> None:
    page = open_page(reference_page)
    page.hover(message(2))
    assert page.locator(f"{message(2)} .hit").evaluate("n => getComputedStyle(n).cursor") == (
        "pointer"
    )


BLOCKS = """title: Blocks
A -> B: one
loop: every second
  A -> B: poll
  in: Request
  ```json
  {"a": 1}
  ```
  B --> A: pong
end
if: ok
  B -> C: three
else: not ok
  B -> C: four
end
A -> C: five
"""


def test_a_block_folds_and_unfolds_from_its_tab(open_page) -> None:
    page = open_page(render(BLOCKS, format="html"))
    key = page.locator(".vl-canvas .vl-fold-key").first  # the loop's button
    height = page.locator(".vl-canvas > svg").bounding_box()["height"]
    five = page.locator(message(6)).bounding_box()["y"]
    page.click(".vl-canvas .block-loop .block-kind")
    expect(key).to_have_attribute("aria-expanded", "false")
    expect(page.locator(message(2))).to_be_hidden()
    expect(page.locator(message(3))).to_be_hidden()
    assert page.locator(".vl-canvas > svg").bounding_box()["height"] < height - 40
    assert page.locator(message(6)).bounding_box()["y"] < five - 40  # the rows below moved up
    expect(page.locator(".vl-canvas .block-loop .block-label")).to_be_visible()  # its band
    expect(page.locator(".vl-canvas .block-loop .vl-fold-count")).to_have_text("2 messages")
    page.screenshot(path="/tmp/volley-folded.png")
    # From the keyboard: the block's key is a button that Enter toggles.
    expect(key).to_have_attribute("aria-label", "Unfold loop every second")
    key.focus()
    page.keyboard.press("Enter")
    expect(key).to_have_attribute("aria-expanded", "true")
    expect(key).to_have_attribute("aria-label", "Fold loop every second")
    expect(page.locator(message(2))).to_be_visible()
    expect(page.locator(".vl-canvas .block-loop .vl-fold-count")).to_be_hidden()
    assert abs(page.locator(message(6)).bounding_box()["y"] - five) < 1


def test_tab_reaches_a_block_just_before_what_it_holds(open_page) -> None:
    """The blocks are drawn under the messages; Tab went through every block's fold button
    before message 1. A block's button comes before its first message, in reading order, and
    its tab shows the focus."""
    page = open_page(render(BLOCKS, format="html"))
    order = []
    for _ in range(9):
        page.keyboard.press("Tab")
        order.append(
            page.evaluate(
                "document.activeElement.getAttribute('data-message') ||"
                " document.activeElement.getAttribute('aria-label')"
            )
        )
        if order[-1] == "Fold loop every second":
            assert page.locator(".vl-canvas .block-loop.vl-key-focus").count() == 1
    assert order == [
        "1",
        "Fold loop every second",
        "2",
        "3",
        "Fold if ok",
        "4",
        "5",
        "6",
        order[-1],  # past the drawing
    ]
    assert page.locator(".vl-canvas .vl-key-focus").count() == 0


def test_a_deep_link_into_a_folded_block_unfolds_it(open_page) -> None:
    page = open_page(render(BLOCKS, format="html"))
    page.click(".vl-canvas .block-loop .block-kind")
    page.click(".vl-canvas .block-if .block-kind")
    expect(page.locator(message(4))).to_be_hidden()
    page.evaluate("location.hash = '#message-4'")
    expect(page.locator(PANEL + " .vl-title")).to_have_text("three")
    expect(page.locator(message(4))).to_be_visible()
    keys = page.locator(".vl-canvas .vl-fold-key")
    expect(keys.nth(1)).to_have_attribute("aria-expanded", "true")  # the if
    expect(keys.nth(0)).to_have_attribute("aria-expanded", "false")  # the loop
    page.keyboard.press("ArrowLeft")  # stepping into the other folded block opens it too
    expect(page.locator(PANEL + " .vl-title")).to_have_text("pong")
    expect(keys.nth(0)).to_have_attribute("aria-expanded", "true")


@pytest.mark.parametrize("width", [390, 900, 1280])
def test_a_pinned_payload_stays_beside_the_next_one(
    open_page, reference_page: str, width: int
) -> None:
    page = open_page(reference_page)
    page.set_viewport_size({"width": width, "height": 800})
    page.click(message(1))
    page.click(f"{PANEL} [data-vl-action=pin]")
    page.click(message(3))
    pinned, live = page.locator(f"{PANEL} .vl-pin"), page.locator(f"{PANEL} .vl-live")
    expect(pinned.locator(".vl-title")).to_have_text("POST /mcp (initialize)")
    expect(pinned.locator("td", has_text="example-agent")).to_have_count(1)
    expect(live.locator(".vl-head .vl-title")).to_have_text("POST /mcp (notifications/initialized)")
    one, two = pinned.bounding_box(), live.bounding_box()
    if width >= 900:  # side by side
        assert one["x"] + one["width"] <= two["x"] + 1 and abs(one["y"] - two["y"]) < 1
    else:  # stacked
        assert one["y"] + one["height"] <= two["y"] + 1
    # The arrow clicked stays in sight: not under the sheet, nor under the sticky participants.
    arrow = page.locator(message(3)).bounding_box()
    sheet = page.locator(PANEL).bounding_box()
    heads = page.locator(".vl-heads-track").bounding_box()
    assert arrow["y"] + arrow["height"] <= sheet["y"]
    if page.locator(".vl-heads.vl-heads-on").count():
        assert arrow["y"] >= heads["y"] + heads["height"] - 1
    page.screenshot(path=f"/tmp/volley-pinned-{width}.png")
    # Esc hides the panel to show the drawing; the pin is there again at the next arrow.
    page.keyboard.press("Escape")
    expect(page.locator(PANEL)).to_be_hidden()
    page.click(message(9))
    expect(pinned.locator(".vl-title")).to_have_text("POST /mcp (initialize)")
    expect(live.locator(".vl-head .vl-title")).to_have_text("Call search_issues")
    pinned.locator("[data-vl-action=unpin]").click()
    expect(page.locator(f"{PANEL} .vl-pin")).to_have_count(0)
    expect(page.locator(f"{PANEL} .vl-head .vl-title")).to_have_text("Call search_issues")


def test_a_phone_fits_the_drawing_to_its_width_and_zooms(browser, reference_page, tmp_path) -> None:
    path = tmp_path / "page.html"
    path.write_text(reference_page, encoding="utf-8")
    context = browser.new_context(
        viewport={"width": 390, "height": 800}, is_mobile=True, has_touch=True
    )
    try:
        page = context.new_page()
        page.goto(path.as_uri())
        canvas = page.locator(".vl-canvas").bounding_box()
        drawing = page.locator(".vl-canvas > svg")
        assert drawing.bounding_box()["width"] > canvas["width"]  # wider than a phone
        page.click("[data-vl-zoom=fit]")
        assert drawing.bounding_box()["width"] <= canvas["width"] + 0.5
        expect(page.locator("[data-vl-zoom=out]")).to_be_disabled()
        page.screenshot(path="/tmp/volley-zoom-fit-390.png")
        page.click("[data-vl-zoom=in]")
        page.click("[data-vl-zoom=in]")
        assert drawing.bounding_box()["width"] > 1.9 * canvas["width"]
        # The arrows take taps at any size.
        page.locator(message(2) + " .label").tap()
        expect(page.locator(PANEL + " .vl-title")).to_have_text("200 OK")
        # the panel's buttons are a thumb's targets (its icons were 28 px, Table and Raw 25)
        sizes = page.locator(f"{PANEL} button").evaluate_all(
            "buttons => buttons.filter(b => b.getClientRects().length)"
            ".map(b => [b.className, b.getBoundingClientRect().height])"
        )
        assert len(sizes) >= 8 and [size for size in sizes if size[1] < 40] == []
    finally:
        context.close()


def test_no_zoom_buttons_where_the_drawing_fits(open_page) -> None:
    page = open_page(render("A -> B: hi", format="html"))
    expect(page.locator(".vl-zoom")).to_be_hidden()


def test_a_control_character_in_a_value_shows_as_its_escape_in_the_table(open_page) -> None:
    """`"v\\u0000nul"` read "vnul" in a cell (the NUL drawn as nothing), a BEL as nothing."""
    text = 'A -> B: x\nin: Body\n```json\n{"v": "v\\u0000nul", "b": "\\u0007bell"}\n```\n'
    page = open_page(render(text, format="html"), "#message-1")
    cells = page.locator(f"{PANEL} table td").all_inner_texts()
    assert cells == ["v\\u0000nul", "\\u0007bell"]


def test_a_body_of_thousands_of_rows_shows_its_first_rows_and_the_rest_when_asked(
    open_page,
) -> None:
    import json

    items = [{"id": n, "name": f"item {n}"} for n in range(1200)]
    body = json.dumps({"items": items}, indent=2)
    indented = "".join(f"  {line}\n" for line in body.splitlines())
    text = "A -> B: GET /items\nout: 200 OK\n" + indented
    page = open_page(render(text, format="html"), "#message-1")
    rows = page.locator(f"{PANEL} table tbody tr:not(.vl-note)")
    assert rows.count() == 500
    note = page.locator(f"{PANEL} .vl-note")
    assert note.inner_text().startswith("The first 500 of 2,400 rows.")
    scroller = page.locator(PANEL)
    scroller.evaluate("p => { p.scrollTop = p.scrollHeight; }")  # down at the button
    before = scroller.evaluate("p => p.scrollTop")
    assert before > 1000
    note.get_by_role("button", name="Show all rows").click()
    assert rows.count() == 2400
    assert page.locator(f"{PANEL} .vl-note").count() == 0
    # the reader goes on where the rows went on: focus on row 501, the panel not back at its top
    assert page.evaluate("document.activeElement.closest('tr').rowIndex") == 500
    assert scroller.evaluate("p => p.scrollTop") == before
    page.locator(f"{PANEL} [data-vl-view=raw]").click()
    page.locator(f"{PANEL} [data-vl-view=table]").click()
    assert rows.count() == 2400  # asked for once, for this body
    page.click(message(1))  # (the same message again keeps it)
    page.keyboard.press("Escape")
    page.click(message(1))
    assert rows.count() == 500  # opened anew, the first rows again


def test_the_panel_and_the_button_give_a_message_one_name(open_page, reference_page) -> None:
    page = open_page(reference_page, "#message-5")
    button = page.locator(message(5)).get_attribute("aria-label")
    assert button.startswith("Message 5, Agent to MCP Server")
    assert page.locator(PANEL).get_attribute("aria-label") == "Message 5 details"
    assert page.locator(f"{PANEL} .vl-badge").inner_text() == "4"  # the marker drawn on it
    svg = page.locator(".vl-canvas > svg")
    assert svg.get_attribute("role") == "group"  # named by its title alone
    title = page.locator(".vl-canvas > svg > title[id]").get_attribute("id")
    assert svg.get_attribute("aria-labelledby") == title


def test_keys_outside_the_diagram_are_the_host_pages_but_esc(open_page, reference_page) -> None:
    page = open_page(reference_page, "#message-2")
    page.evaluate("document.activeElement && document.activeElement.blur()")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("j")
    assert page.evaluate("location.hash") == "#message-2"  # no step from the page's body
    page.keyboard.press("Escape")
    assert page.locator(PANEL).is_hidden()


def test_an_address_naming_no_message_leaves_no_panel_open(open_page, reference_page) -> None:
    page = open_page(reference_page, "#message-6")
    assert page.locator(PANEL).is_visible()
    page.evaluate("location.hash = '#message-99'")
    expect(page.locator(PANEL)).to_be_hidden()


def test_back_to_the_address_naming_no_message_closes_the_panel(open_page, reference_page) -> None:
    """A link to #message-5 adds a history entry; Back leaves an address that names none, and
    the panel that opened for it closes (it stayed, showing message 5)."""
    page = open_page(reference_page)
    assert page.locator(PANEL).is_hidden()
    page.evaluate("location.hash = '#message-5'")
    expect(page.locator(PANEL)).to_be_visible()
    page.go_back()
    expect(page.locator(PANEL)).to_be_hidden()
    assert page.evaluate("location.hash") == ""


def test_home_and_end_go_to_the_first_and_last_payload_tab(open_page, reference_page) -> None:
    page = open_page(reference_page, "#message-1")
    tabs = page.locator(f"{PANEL} [role=tab]")
    assert tabs.count() > 1
    tabs.first.focus()
    page.keyboard.press("End")
    assert page.locator(f"{PANEL} [role=tab]").last.get_attribute("aria-selected") == "true"
    page.keyboard.press("Home")
    assert page.locator(f"{PANEL} [role=tab]").first.get_attribute("aria-selected") == "true"


def test_the_page_prints_from_its_first_sheet_and_without_a_blank_one_after(open_page) -> None:
    """The page's height was the window's (a blank sheet after a short diagram), and its
    padding put a drawing taller than a sheet on sheet 2, sheet 1 left blank."""
    import re

    def sheets(page) -> int:
        page.emulate_media(media="print")
        return len(re.findall(rb"/Type\s*/Page\b", page.pdf(width="8.5in", height="11in")))

    short = open_page(render("title: Short\nA -> B: hi\n", format="html"))
    assert sheets(short) == 1
    long_text = "".join(f"A -> B: step {n}\nB --> A: ok {n}\n" for n in range(150))
    page = open_page(render(long_text, format="html"), name="long.html")
    page.emulate_media(media="print")
    drawn = page.locator(".vl-canvas > svg").evaluate("svg => svg.getBoundingClientRect().top")
    pad = page.locator(".volley-diagram").evaluate("e => getComputedStyle(e).paddingTop")
    assert pad == "0px" and drawn < 20  # at the top of the first sheet


def test_a_wide_drawing_prints_across_the_sheet_and_a_tall_one_down_it(
    open_page, reference_page
) -> None:
    """A drawing wider than tall printed shrunk to a portrait sheet's width; the page asks
    for landscape (a reader may still choose), a tall drawing keeps portrait, and a fragment
    leaves the sheet to the page that holds it."""
    import itertools
    import re

    def sheet(html: str, name: str) -> tuple[float, float]:
        page = open_page(html, name=name)
        page.emulate_media(media="print")
        box = re.search(
            rb"/MediaBox\s*\[\s*0 0 ([\d.]+) ([\d.]+)", page.pdf(prefer_css_page_size=True)
        )
        assert box
        return float(box[1]), float(box[2])

    lanes = [f"Service {n}" for n in range(9)]
    wide = "".join(f"{a} -> {b}: call {a}\n" for a, b in itertools.pairwise(lanes))
    across, down = sheet(render(wide, format="html"), "wide.html")
    assert across > down
    across, down = sheet(reference_page, "tall.html")
    assert across < down
    fragment = render(wide, format="html", fragment=True)
    assert "@page" not in fragment and "@page" in render(wide, format="html")


def test_paper_shows_every_message_at_full_ink_and_raw_lines_wrapped(
    open_page, reference_page
) -> None:
    page = open_page(reference_page, "#message-1")
    page.locator(f"{PANEL} [data-vl-view=raw]").click()
    page.mouse.move(0, 0)  # nothing hovered
    page.emulate_media(media="print")
    opacity = "g => getComputedStyle(g).opacity"
    assert page.locator(message(3)).evaluate(opacity) == "1"
    wrap = page.locator(f"{PANEL} .vl-raw").evaluate("e => getComputedStyle(e).overflowWrap")
    assert wrap == "anywhere"
    head = page.locator(f"{PANEL} .vl-head").evaluate("e => getComputedStyle(e).position")
    assert head == "static"  # sticky, it slid over the payload's tabs on paper


def test_an_auto_diagram_prints_light_from_a_dark_screen(open_page, reference_page) -> None:
    """A reader's dark screen is no dark page: printed (no backgrounds), the dark palette's
    light words stood on white paper."""
    page = open_page(reference_page, "#message-1")
    page.emulate_media(color_scheme="dark")
    root = "document.querySelector('.volley-diagram')"
    fg = f"() => getComputedStyle({root}).getPropertyValue('--vl-fg')"
    on_screen = page.evaluate(fg)
    page.emulate_media(media="print", color_scheme="dark")
    assert page.evaluate(fg) != on_screen
    page.emulate_media(media="print", color_scheme="light")
    printed_light = page.evaluate(fg)
    page.emulate_media(media="print", color_scheme="dark")
    assert page.evaluate(fg) == printed_light


def test_a_drawing_wider_than_its_pane_shades_the_edge_that_hides_more(
    browser, tmp_path, reference_page: str
) -> None:
    path = tmp_path / "page.html"
    path.write_text(reference_page, encoding="utf-8")
    phone = browser.new_context(viewport={"width": 390, "height": 760}, has_touch=True)
    try:
        page = phone.new_page()
        page.goto(path.as_uri())
        figure = page.locator(".vl-figure")
        expect(figure).to_have_class("vl-figure vl-more-right")
        assert page.locator(".vl-hint-keys").is_hidden()  # no keys to name on a touch screen
        # The shade starts at the pane, below the hint and the zoom bar it would cover.
        shade_top, pane_top = figure.evaluate(
            "f => [getComputedStyle(f, '::after').top, f.querySelector('.vl-canvas').offsetTop]"
        )
        assert pane_top > 20 and shade_top == f"{pane_top}px"
        page.locator(".vl-canvas").evaluate("c => { c.scrollLeft = c.scrollWidth; }")
        expect(figure).to_have_class("vl-figure vl-more-left")
    finally:
        phone.close()


def test_a_drawing_that_fits_has_no_shade(open_page, reference_page: str) -> None:
    page = open_page(reference_page)
    expect(page.locator(".vl-figure")).to_have_class("vl-figure")
    assert page.locator(".vl-hint-keys").is_visible()


def test_a_clicked_arrow_on_the_drawings_right_stays_in_the_pane_beside_the_panel(
    open_page,
) -> None:
    """The panel opening beside the drawing narrows its pane (the drawing keeps 70% of its
    width, and scrolls); a message on the drawing's right (the CI example's self-message on
    its last lane) was then cut off by the pane's edge as it was clicked."""
    page = open_page(render((EXAMPLES / "ci-pipeline.volley").read_text(), format="html"))
    page.set_viewport_size({"width": 1280, "height": 900})
    page.click(f"{message(13)} .label")
    expect(page.locator(PANEL)).to_be_visible()
    assert page.locator(".volley-diagram").evaluate("d => d.classList.contains('vl-wide')")
    # as the page measures them (Playwright's box of an SVG group holds its strokes' width)
    sides = "e => { const r = e.getBoundingClientRect(); return [r.left, r.right]; }"
    left, right = page.locator(message(13)).evaluate(sides)
    pane_left, pane_right = page.locator(".vl-canvas").evaluate(sides)
    assert pane_left <= left and right <= pane_right


PHONE = {"viewport": {"width": 390, "height": 760}, "has_touch": True}


def test_a_message_wider_than_the_pane_is_shown_by_its_words(open_in) -> None:
    """On a phone, a message across many lanes was scrolled to by one of its ends, its label
    (in the middle of the arrow) out of sight."""
    source = "\n".join(
        [f"participant P{n}" for n in range(1, 13)] + ["P12 -> P1: the long way back"]
    )
    page = open_in(render(source, format="html"), **PHONE)
    page.locator(message(1)).evaluate("g => g.scrollIntoView({inline: 'start'})")
    page.locator(message(1)).focus()
    page.keyboard.press("Enter")  # opens it, and steps to it
    expect(page.locator(PANEL)).to_be_visible()
    label = page.locator(f"{message(1)} .label").bounding_box()
    pane = page.locator(".vl-canvas").bounding_box()
    assert pane["x"] <= label["x"] and label["x"] + label["width"] <= pane["x"] + pane["width"]


def test_a_right_to_left_page_shows_the_drawing_from_its_first_lane(open_in) -> None:
    """In a right-to-left host page the drawing's pane opened at its right end (the last lanes,
    the first messages out of sight), its shades said more was to the right where there was
    none, and the sticky copy of the top boxes stood over the wrong lifelines: the lanes run
    left to right there too."""
    source = "\n".join(
        ["participant A as לקוח", "participant B as שער", "participant C as אימות"]
        + ["participant D as הזמנות", "participant E as מלאי"]
        + [f"A -> B: בקשה {n}\nB -> E: הלאה {n}\nE --> A: תשובה {n}" for n in range(1, 30)]
    )
    page_html = (
        '<!DOCTYPE html><html lang="he" dir="rtl"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1"><title>t</title>'
        "</head><body><h1>עמוד</h1>"
        + render(source, format="html", fragment=True)
        + "</body></html>"
    )
    page = open_in(page_html, **PHONE)
    canvas = page.locator(".vl-canvas")
    assert canvas.evaluate("c => c.scrollWidth > c.clientWidth + 100")
    first = page.locator('.vl-canvas .participant[data-name="A"] .box').first.bounding_box()
    pane = canvas.bounding_box()
    assert pane["x"] <= first["x"] < pane["x"] + pane["width"]  # the first lane in view
    expect(page.locator(".vl-figure")).to_have_class("vl-figure vl-more-right")
    canvas.evaluate("c => { c.scrollLeft = 120; }")
    page.mouse.wheel(0, 1200)
    page.wait_for_function("document.querySelector('.vl-heads.vl-heads-on')")
    for name in ("B", "C"):
        copy = page.locator(f'.vl-heads [data-name="{name}"] .box').bounding_box()
        index = page.locator(f'.vl-canvas [data-name="{name}"]').get_attribute("data-participant")
        line = page.locator(f'.vl-canvas .lifeline[data-participant="{index}"]').bounding_box()
        assert abs(copy["x"] + copy["width"] / 2 - line["x"] - line["width"] / 2) < 2, name
    expect(page.locator(".vl-figure")).to_have_class("vl-figure vl-more-right vl-more-left")


def test_a_right_to_left_title_is_in_sight_where_a_narrow_pane_opens(open_in) -> None:
    """A right-to-left title heads the drawing from its right end: a phone, whose pane opens
    at the first lanes, showed no title at all. It keeps to the pane's right edge up to its
    own place; a left-to-right title, at the drawing's left, stays where it is."""
    lanes = "\n".join(f"P{n} -> P{n + 1}: step {n}" for n in range(1, 8))
    page = open_in(render(f"title: מסלול ההתחברות\n{lanes}", format="html"), **PHONE)
    canvas = page.locator(".vl-canvas")
    assert canvas.evaluate("c => c.scrollWidth > 2 * c.clientWidth")
    title = page.locator(".vl-canvas .title text")
    pane = canvas.bounding_box()
    shown = title.bounding_box()
    assert pane["x"] <= shown["x"] and shown["x"] + shown["width"] <= pane["x"] + pane["width"]
    canvas.evaluate("c => { c.scrollLeft = c.scrollWidth; }")
    untouched = "!document.querySelector('.vl-canvas g.title').hasAttribute('transform')"
    page.wait_for_function(untouched)
    drawing = page.locator(".vl-canvas svg")
    end = drawing.bounding_box()
    scale = end["width"] / drawing.evaluate("s => s.viewBox.baseVal.width")
    placed = title.bounding_box()
    assert abs(end["x"] + end["width"] - 24 * scale - placed["x"] - placed["width"]) < 2
    page = open_in(render(f"title: Login flow\n{lanes}", format="html"), **PHONE)
    assert page.locator(".vl-canvas g.title").get_attribute("transform") is None


def test_a_right_to_left_title_with_markup_under_css_zoom_is_in_sight_and_printed_in_place(
    open_in,
) -> None:
    """A title with markup carries its direction on its runs, which the title was not looked
    for by; a host page's CSS zoom scales the pane's pixels; and paper shows the whole
    drawing, where the title stands in its own place."""
    lanes = "\n".join(f"P{n} -> P{n + 1}: step {n}" for n in range(1, 8))
    html = render(f"title: מסלול `login` **ההתחברות**\n{lanes}", format="html")
    page = open_in(html.replace("<html", '<html style="zoom: 2"', 1), **PHONE)
    canvas = page.locator(".vl-canvas")
    assert canvas.evaluate("c => c.scrollWidth > 2 * c.clientWidth")
    pane, shown = canvas.bounding_box(), page.locator(".vl-canvas .title").first.bounding_box()
    # wider than the pane at this zoom: its start, its right end, is in sight, near the edge
    right, edge = shown["x"] + shown["width"], pane["x"] + pane["width"]
    assert edge - 60 < right <= edge
    page.emulate_media(media="print")  # (a print may come before the pane's next placing)
    shifted = "g => { g.setAttribute('transform', 'translate(-100 0)'); return g; }"
    title = page.locator(".vl-canvas g.title")
    title.evaluate(shifted)
    assert title.evaluate("g => getComputedStyle(g).transform") == "none"


def test_a_header_taking_much_of_the_panel_scrolls_away_with_the_payload(open_in) -> None:
    """With long names and a long label on a phone, the panel's sticky header took most of the
    panel and left the payload a strip below it, however the panel was scrolled."""
    long_name = "The Customer-Facing Mobile Application Running On An Old Android Phone"
    source = (
        f"participant A as {long_name}\nparticipant B as Backend-for-frontend gateway service\n"
        f"A -> B: https://auth.example.com/oauth2/v1/authorize?{'client_id=0oa1b2c3d4e5&' * 8}x\n"
        "in:\n```json\n{" + ", ".join(f'"k{n}": {n}' for n in range(60)) + "}\n```\n"
        "A -> B: short\nin:\n```json\n{" + ", ".join(f'"k{n}": {n}' for n in range(60)) + "}\n```\n"
    )
    page = open_in(
        render(source, format="html"), viewport={"width": 390, "height": 844}, has_touch=True
    )
    page.locator(f"{message(1)} .label").first.tap()
    head = page.locator(f"{PANEL} .vl-head")
    assert head.evaluate("h => getComputedStyle(h).position") == "static"
    page.locator(f"{message(2)} .label").first.tap()  # a short header stays at the top
    assert head.evaluate("h => getComputedStyle(h).position") == "sticky"


def test_a_turned_icon_in_a_label_is_turned_in_the_panel_too(open_page) -> None:
    """`fa-rotate-90` turns the picture's icon; the panel's copy of the label turned it not."""
    page = open_page(
        render("A -> B: down {fas-arrow-right fa-rotate-90} {fas-plug}\n", format="html")
    )
    page.click(message(1))
    icons = page.locator(f"{PANEL} svg[viewBox]")
    transforms = [icons.nth(n).evaluate("e => e.style.transform") for n in range(icons.count())]
    assert "rotate(90deg)" in transforms and "" in transforms
