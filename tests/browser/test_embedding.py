"""Fragments on one page, and diagrams written to attack the page.

Two fragments share one document: each keeps its own panel, deep links name their diagram, and
the script's listeners exist once even when both fragments bring the script along. A diagram
full of markup and script must show that text, and run none of it.
"""

from __future__ import annotations

import pytest

from volley.api import render
from volley.output.html import html_assets

from ..fuzz_strategies import hostile_bodies

pytestmark = pytest.mark.browser

OTHER = """title: Second
Browser -> API: GET /users
in: Request
```http
GET /users HTTP/1.1
Accept: application/json
```
API --> Browser: 200 OK
out: Users
```json
[{"id": 7, "name": "Ada"}]
```
"""


def host_page(*fragments: str, head: str = "") -> str:
    body = "\n<p>Text between the diagrams.</p>\n".join(fragments)
    return f"<!DOCTYPE html><html><head><meta charset=utf-8>{head}</head><body>{body}</body></html>"


def panel(page, index: int):
    return page.locator(".volley-diagram").nth(index).locator(".vl-panel")


def test_two_fragments_work_independently(open_page, reference_text: str) -> None:
    first = render(reference_text, format="html", fragment=True, id_prefix="mcp")
    second = render(OTHER, format="html", fragment=True, id_prefix="users")
    page = open_page(host_page(first, second))
    assert page.evaluate("typeof window.__volleyViewer") == "object"
    roots = page.locator(".volley-diagram")
    roots.nth(1).locator('[data-message="2"]').click()
    assert panel(page, 1).locator(".vl-title").inner_text() == "200 OK"
    assert panel(page, 1).locator("td", has_text="Ada").count() == 1
    assert panel(page, 0).is_hidden()
    assert page.evaluate("location.hash") == "#users-message-2"

    roots.nth(0).locator('[data-message="1"]').click()
    assert panel(page, 0).locator(".vl-title").inner_text() == "POST /mcp (initialize)"
    # One open panel per page: opening the first diagram's closed the second's.
    assert panel(page, 1).is_hidden()
    assert roots.nth(1).locator(".vl-selected").count() == 0
    assert page.evaluate("location.hash") == "#mcp-message-1"
    # Both fragments brought the script; one keypress still steps exactly one message.
    page.keyboard.press("ArrowRight")
    assert panel(page, 0).locator(".vl-title").inner_text() == "200 OK"
    page.keyboard.press("Escape")
    assert panel(page, 0).is_hidden() and panel(page, 1).is_hidden()


def test_the_same_fragment_twice_gets_ids_of_its_own(open_page, reference_text: str) -> None:
    fragment = render(reference_text, format="html", fragment=True, id_prefix="mcp")
    page = open_page(host_page(fragment, fragment), "#mcp-2-message-9")
    ids = page.evaluate("[...document.querySelectorAll('[id]')].map(node => node.id)")
    assert len(ids) == len(set(ids))
    # The second copy's deep link opens the second copy, whose references follow its ids.
    assert panel(page, 0).is_hidden()
    assert panel(page, 1).locator(".vl-title").inner_text() == "Call search_issues"
    assert panel(page, 1).get_attribute("id") == "mcp-2-panel"
    labelled = page.locator(".volley-diagram").nth(1).locator(".vl-canvas > svg")
    assert labelled.get_attribute("aria-labelledby") == "mcp-2-title"  # renamed, then read
    links = page.evaluate(
        """[...document.querySelectorAll('.volley-diagram')[1].querySelectorAll('use')]
            .map(use => use.getAttribute('xlink:href') || use.getAttribute('href'))"""
    )
    assert links and all(link.startswith("#mcp-2-icon-") for link in links), links
    page.locator(".volley-diagram").nth(0).locator('[data-message="1"]').click()
    assert page.evaluate("location.hash") == "#mcp-message-1"


def test_a_second_copy_keeps_its_tinted_rects_dark_colours(open_page) -> None:
    """A `rect`'s dark colour is a rule naming the drawing's id: the second copy's rules
    follow its renamed id, so the page's dark switch colours both copies."""
    fragment = render(
        "rect rgb(200, 220, 255)\nA -> B: x\nend\n", format="html", fragment=True, id_prefix="t"
    )
    page = open_page(host_page(fragment, fragment))
    ids = page.evaluate("[...document.querySelectorAll('.vl-canvas > svg')].map(svg => svg.id)")
    assert ids == ["t-svg", "t-2-svg"]
    styles = page.evaluate(
        "[...document.querySelectorAll('.vl-canvas > svg style')].map(s => s.textContent)"
    )
    assert "#t-svg .tint-1" in styles[0] and "#t-2-svg .tint-1" in styles[1]
    assert "#t-svg" not in styles[1]
    page.evaluate(
        "document.querySelectorAll('.volley-diagram').forEach(d => d.dataset.theme = 'dark')"
    )
    fills = page.evaluate(
        "[...document.querySelectorAll('.vl-canvas > svg')].map(svg =>"
        " [...svg.querySelectorAll('.tint-1')].map(r => getComputedStyle(r).fill).join())"
    )
    assert fills[0] == fills[1] and "rgb(200, 220, 255)" not in fills[1], fills


def test_a_dark_fragment_on_a_light_page_stands_on_its_own_ground(open_page) -> None:
    """theme=dark on a light page: the hint row and its keys stood on the page's white, in
    the dark theme's colours; the diagram is a card of its own background, hint and all."""
    dark = render(OTHER, format="html", fragment=True, theme="dark", id_prefix="dark")
    auto = render(OTHER, format="html", fragment=True, id_prefix="auto")
    page = open_page(host_page(dark, auto, head="<style>body{background:#fff}</style>"))
    colours = page.evaluate(
        """() => [...document.querySelectorAll('.volley-diagram')].map(root => [
            getComputedStyle(root).backgroundColor,
            getComputedStyle(root.querySelector('.vl-hint')).color,
        ])"""
    )
    (dark_ground, dark_hint), (auto_ground, _) = colours
    assert dark_ground not in ("rgba(0, 0, 0, 0)", "rgb(255, 255, 255)")  # its own dark
    assert auto_ground == "rgba(0, 0, 0, 0)"  # a diagram that follows the page takes its ground
    red, green, blue = (int(c) for c in dark_ground[4:-1].split(", "))
    assert red + green + blue < 200 and dark_hint != dark_ground


def test_an_auto_diagram_in_the_mkdocs_themes_dark_mode_sits_on_its_page_colour(open_page):
    """The MkDocs theme's dark page is Bootstrap's grey: an auto diagram was a navy card on it."""
    auto = render(OTHER, format="html", fragment=True, id_prefix="auto")
    bootstrap = "<style>[data-bs-theme=dark]{--bs-body-bg:#212529}</style>"
    page = open_page(
        host_page(auto, head=bootstrap).replace("<html>", '<html data-bs-theme="dark">')
    )
    fill = page.evaluate(
        "() => getComputedStyle(document.querySelector('.volley-diagram svg .vf-bg')).fill"
    )
    assert fill == "rgb(33, 37, 41)"


@pytest.mark.parametrize(
    ("root", "style", "ground"),
    [
        ('<body data-theme="dark">', "--color-background-primary:#131416", "rgb(19, 20, 22)"),
        ('<body data-jp-theme-light="false">', "--jp-layout-color0:#111111", "rgb(17, 17, 17)"),
    ],
    ids=["furo", "jupyterlab"],
)
def test_an_auto_diagram_in_furos_and_jupyterlabs_dark_sits_on_their_page_colour(
    open_page, root: str, style: str, ground: str
):
    """furo's and JupyterLab's dark pages are near black: an auto diagram was a navy card."""
    auto = render(OTHER, format="html", fragment=True, id_prefix="auto")
    page = open_page(
        host_page(auto, head=f"<style>body{{{style}}}</style>").replace("<body>", root)
    )
    fill = page.evaluate(
        "() => getComputedStyle(document.querySelector('.volley-diagram svg .vf-bg')).fill"
    )
    assert fill == ground


def test_read_the_docs_keys_do_not_restyle_the_hints_keys(open_page) -> None:
    """sphinx_rtd_theme's `kbd` rule outranked the hint's: its ← → keys were tiny glyphs in
    large shadowed boxes."""
    rtd = (
        "<style>.rst-content :not(dl.option-list)>:not(dt):not(kbd):not(.kbd)>kbd,"
        ".rst-content :not(dl.option-list)>kbd{font-size:80%;padding:2px 5px;"
        "box-shadow:0 2px 0 #ccc}</style>"
    )
    auto = render(OTHER, format="html", fragment=True, id_prefix="auto")
    page = open_page(host_page(f'<div class="rst-content"><div>{auto}</div></div>', head=rtd))
    page.click('.vl-canvas [data-message="1"]')
    key = page.locator(".vl-hint kbd").first
    assert key.evaluate("k => getComputedStyle(k).fontSize") == "11px"
    assert key.evaluate("k => getComputedStyle(k).boxShadow") == "none"


def test_a_diagram_with_a_theme_of_its_own_keeps_its_width_beside_its_panel(open_page):
    """A dark diagram on a light page is a card with padding, which the choice of putting the
    panel beside it did not count: in a 688 px column its 300 px drawing was squeezed to 284,
    scrolled sideways under an edge's shade, and offered zoom buttons."""
    dark = render("A -> B: hi\nB --> A: ok\n", format="html", fragment=True, theme="dark")
    page = open_page(host_page(f'<div style="width:688px">{dark}</div>'))
    page.click('.vl-canvas [data-message="1"]')
    widths = page.evaluate(
        """() => { const canvas = document.querySelector('.vl-canvas');
            return [canvas.clientWidth, canvas.querySelector('svg').getBoundingClientRect().width,
                    canvas.scrollWidth] }"""
    )
    pane, drawn, scrolled = widths
    assert scrolled <= pane + 1 and drawn <= pane + 1


# Jupyter's (JupyterLab's and the classic notebook's) rules for tables in an output
JUPYTER_TABLES = (
    "<style>.jp-RenderedHTMLCommon tbody tr:nth-child(odd){background:#fff}"
    ".jp-RenderedHTMLCommon tbody tr:hover{background:#e0e0e0}"
    ".jp-RenderedHTMLCommon td,.jp-RenderedHTMLCommon th{color:rgba(0,0,0,.87);"
    "text-align:right}</style>"
)


def test_a_hosts_table_rules_do_not_colour_the_panels_table(open_page) -> None:
    """A dark diagram in a light notebook: Jupyter's zebra rows stood white under the dark
    theme's pale keys, and its cell colour made a value black on navy."""
    dark = render(OTHER, format="html", fragment=True, theme="dark", id_prefix="dark")
    page = open_page(
        host_page(f'<div class="jp-RenderedHTMLCommon">{dark}</div>', head=JUPYTER_TABLES)
    )
    page.click('.vl-canvas [data-message="2"]')
    cells = page.evaluate(
        """() => [...document.querySelectorAll('.vl-panel .vl-table tbody tr')]
            .filter(row => !row.closest('.vl-section'))
            .map(row => [getComputedStyle(row).backgroundColor,
                         getComputedStyle(row.querySelector('td')).color])"""
    )
    assert cells
    for ground, ink in cells:
        assert ground != "rgb(255, 255, 255)" and ink != "rgba(0, 0, 0, 0.87)", (ground, ink)
        red, green, blue = (int(c) for c in ground[4:-1].split(", ")[:3])
        assert red + green + blue < 200  # the dark panel's own rows
    # and a value keeps the colour of its kind (a number's is not a string's)
    kinds = page.evaluate(
        """() => Object.fromEntries(['vl-k-number', 'vl-k-string'].map(kind =>
            [kind, getComputedStyle(document.querySelector('.vl-panel td.' + kind)).color]))"""
    )
    assert kinds["vl-k-number"] != kinds["vl-k-string"], kinds


def test_a_fragment_deep_link_names_its_diagram(open_page, reference_text: str) -> None:
    first = render(reference_text, format="html", fragment=True, id_prefix="mcp")
    second = render(OTHER, format="html", fragment=True, id_prefix="users")
    page = open_page(host_page(first, second), "#users-message-1")
    assert panel(page, 0).is_hidden()
    assert panel(page, 1).locator(".vl-start").inner_text().split() == ["GET", "/users", "HTTP/1.1"]
    page.evaluate("location.hash = '#%E0%A4%Amessage-2'")  # a broken escape is ignored
    page.evaluate("location.hash = '#mcp-message-9'")
    page.wait_for_function("!document.querySelectorAll('.vl-panel')[0].hidden")
    assert panel(page, 0).locator(".vl-title").inner_text() == "Call search_issues"


def test_a_page_made_of_pages_opens_a_link_to_another_pages_diagram(open_page) -> None:
    """mkdocs-print-site-plugin puts a site's pages on one, each in a section with the page's
    id, and writes a link to guide/#login-message-2 as #guide-login-message-2: it opened
    nothing. The diagram of that page is opened, not another page's of the same name."""
    guide = render(
        OTHER.replace("/users", "/guide"), format="html", fragment=True, id_prefix="login"
    )
    first = render(OTHER.replace("/users", "/first"), format="html", fragment=True)
    pages = (
        f'<section id="index">{render(OTHER, format="html", fragment=True, id_prefix="login")}'
        f'</section><section id="guide">{guide}</section>'
    )
    page = open_page(host_page(first, pages), "#guide-login-message-1")
    assert panel(page, 2).locator(".vl-start").inner_text().split() == ["GET", "/guide", "HTTP/1.1"]
    assert panel(page, 0).is_hidden() and panel(page, 1).is_hidden()
    page.evaluate("location.hash = '#nowhere-login-message-1'")  # no such page: its name alone
    page.wait_for_function("!document.querySelectorAll('.vl-panel')[1].hidden")
    assert panel(page, 1).locator(".vl-start").inner_text().split()[1] == "/users"


def test_assets_once_for_many_fragments(open_page, reference_text: str) -> None:
    css, js = html_assets()
    fragments = [
        render(text, format="html", fragment=True, include_assets=False)
        for text in (reference_text, OTHER)
    ]
    page = open_page(host_page(*fragments, head=f"<style>{css}</style><script>{js}</script>"))
    page.locator(".volley-diagram").nth(1).locator('[data-message="1"]').click()
    assert panel(page, 1).locator(".vl-title").inner_text() == "GET /users"


def test_in_a_right_to_left_page_the_picture_keeps_its_places(open_page) -> None:
    """A Hebrew or Arabic docs site sets `dir="rtl"`: the drawing still runs left to right
    (each text where the layout put it, not running leftwards from its x), and the panel names
    the sender first, its arrow pointing at the receiver."""
    source = "title: שירות הזמנות\nלקוח -> שרת: שלח order חדש.\nnote: שימו לב: השרת עונה.\n"
    fragment = render(source, format="html", fragment=True)
    page = open_page(host_page(fragment).replace("<html>", '<html dir="rtl" lang="he">'))
    canvas = page.locator(".vl-canvas svg").bounding_box()
    for text in page.locator(".vl-canvas svg text").all():
        box = text.bounding_box()
        assert canvas["x"] <= box["x"] and box["x"] + box["width"] <= canvas["x"] + canvas["width"]
    page.locator('[data-message="1"]').click()
    sender, receiver = page.locator(".vl-panel .vl-who").all()
    assert (sender.inner_text(), receiver.inner_text()) == ("לקוח", "שרת")
    assert sender.bounding_box()["x"] < receiver.bounding_box()["x"]


def test_without_script_a_note_says_what_the_arrows_carry(open_in, reference_text) -> None:
    page = open_in(render(reference_text, format="html"), java_script_enabled=False)
    assert page.locator(".vl-canvas svg").is_visible()
    assert page.locator(".vl-hint").count() == 0  # no "click an arrow" where clicks do nothing
    note = page.locator(".vl-noscript")
    assert note.is_visible()
    assert "turn on JavaScript" in note.inner_text()


# --- hostile input ------------------------------------------------------------------------------

ATTACK = "<script>window.__pwned=1</script>"
IMG = "<img src=q onerror=window.__pwned=1>"  # src=x would hold an arrow, =x


def hostile_diagram() -> str:
    """Script in the title, names, labels, notes, dividers, payload labels and bodies."""
    lines = [
        f"title: {ATTACK} {IMG}",
        f"=: {IMG} [a](javascript:window.__pwned=1)",
        f"{IMG} -> </script><script>window.__pwned=1</script>: {ATTACK}",
        f"in: {ATTACK}",
        "```json",
        '{"x": "</script><script>window.__pwned=1</script>", "y": "<!--<script>"}',
        "```",
        f"note: {ATTACK} `{IMG}`",
        f'</script><script>window.__pwned=1</script> --> {IMG}: " onmouseover="window.__pwned=1',
    ]
    for name, body in hostile_bodies().items():
        fence = "~" * 12
        lines += [f"{IMG} -> Server: {name}", f"out: {IMG}", fence, body, fence]
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("fragment", [False, True])
def test_a_hostile_diagram_runs_nothing_and_shows_the_text(open_page, fragment: bool) -> None:
    html = render(hostile_diagram(), format="html", fragment=fragment)
    page = open_page(html if not fragment else host_page(html))
    page.evaluate("window.__sentinel = 'intact'")
    count = page.locator(".vl-canvas [data-message]").count()
    assert count == 2 + len(hostile_bodies())
    for n in range(1, count + 1):
        page.locator(f'.vl-canvas [data-message="{n}"]').click()
        page.locator(".vl-panel").hover()
        for view in ("raw", "table"):
            button = page.locator(f".vl-panel [data-vl-view={view}]")
            if button.count() and button.is_enabled():
                button.click()
    assert page.evaluate("window.__pwned") is None
    assert page.evaluate("window.__sentinel") == "intact"
    assert page.evaluate("document.querySelectorAll('img, iframe, object, embed').length") == 0

    page.locator('.vl-canvas [data-message="1"]').click()
    title = page.locator(".vl-panel .vl-title")
    assert title.inner_text() == ATTACK
    assert page.locator(".vl-panel .vl-who").first.inner_text() == IMG
    assert page.locator(".vl-panel .vl-tab").inner_text().endswith(ATTACK)
    page.click(".vl-panel [data-vl-view=table]")
    assert page.locator(".vl-panel td", has_text="</script><script>").count() == 1
    page.click(".vl-panel [data-vl-view=raw]")
    raw = page.locator(".vl-panel .vl-raw").inner_text()
    assert '"x": "</script><script>window.__pwned=1</script>"' in raw
    if not fragment:
        assert page.title() == f"{ATTACK} {IMG}"
