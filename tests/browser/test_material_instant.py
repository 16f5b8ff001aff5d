"""mkdocs-material's instant navigation, end to end: a page reached without a reload still works.

With `navigation.instant` (on only when `site_url` is set, and only over http) Material fetches
the next page, swaps its content in, and re-creates every inline `<script>` there from its text
alone, dropping its attributes. So the viewer's data must not travel in a `<script>`, the viewer
script must survive running again on every page, and diagrams that arrive in swapped content
must work. A real site is built with `mkdocs build --strict` and served from 127.0.0.1.
"""

from __future__ import annotations

import functools
import http.server
import json
import re
import subprocess
import sys
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from ..test_mkdocs_plugin import ENV

pytestmark = pytest.mark.browser

CONFIG = """\
site_name: instant
site_url: {site_url}
theme:
  name: material
  font: false
  features:
    - navigation.instant
  palette:
    - scheme: default
      toggle: {{icon: material/weather-night, name: Dark}}
    - scheme: slate
      toggle: {{icon: material/weather-sunny, name: Light}}
plugins:
  - search
  - volley
markdown_extensions:
  - admonition
  - pymdownx.details
  - pymdownx.tabbed:
      alternate_style: true
nav:
  - First: index.md
  - Second: second.md
  - Long: long.md
  - Hidden: hidden.md
"""

HIDDEN = """\
# Hidden

=== "Shown first"

    Nothing to see.

=== "The tab"

    ```volley name="tabbed"
    Client -> API: in a tab
    ```

??? note "Folded"

    ```volley name="folded"
    Client -> API: in a closed note
    ```
"""

FIRST = """\
# First

[To the second page](second.md) · [Straight to the reply](second.md#order-message-2)

```volley
Browser -> API: GET /health
API --> Browser: 204 No Content
```
"""

SECOND = """\
# Second

````volley name="order"
Shop -> Payments: POST /charge
in: Charge
```json
{"order": "A-42", "amount": 1999}
```
Payments --> Shop: 201 Created
out: Receipt
```json
{"receipt": "R-7", "status": "paid"}
```
Shop -> Mail: send receipt
````
"""


def long_page() -> str:
    """A diagram wider than Material's content column is tall: the panel opens as a sheet."""
    lines = ["# Long", "", "```volley", "order: Browser, Gateway, Orders, Payments, Ledger"]
    for n in range(1, 41):
        lines += [f"Browser -> Ledger: step {n}", "in: Step", f"  id: {n}"]
    return "\n".join(lines + ["```", ""])


# The panel's background, light and dark (UI_LIGHT / UI_DARK "panel" in html_theme.py).
LIGHT_PANEL, DARK_PANEL = "rgb(255, 255, 255)", "rgb(19, 28, 46)"


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:  # noqa: A002 (the stdlib's name)
        """Keep the test output to the test's own."""


@dataclass(frozen=True)
class Site:
    root: Path  # the built site
    url: str  # where it is served


@pytest.fixture(scope="session")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Site]:
    """The two-page site, built strictly and served over http on a free port.

    `site_url` names that port: Material follows a link in place only if the sitemap lists
    it, and it adopts the page's scheme and host for the sitemap's entries but not its port.
    Session-wide, so the build test and the browser tests (which run last) share one build.
    """
    root = tmp_path_factory.mktemp("instant")
    handler = functools.partial(_Quiet, directory=str(root / "site"))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    url = f"http://127.0.0.1:{server.server_address[1]}"
    docs = root / "docs"
    docs.mkdir()
    (root / "mkdocs.yml").write_text(CONFIG.format(site_url=url + "/"), encoding="utf-8")
    (docs / "index.md").write_text(FIRST, encoding="utf-8")
    (docs / "second.md").write_text(SECOND, encoding="utf-8")
    (docs / "long.md").write_text(long_page(), encoding="utf-8")
    (docs / "hidden.md").write_text(HIDDEN, encoding="utf-8")
    command = [sys.executable, "-m", "mkdocs", "build", "--strict", "-f", str(root / "mkdocs.yml")]
    result = subprocess.run(command, capture_output=True, text=True, timeout=120, env=ENV)
    assert result.returncode == 0, result.stderr
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield Site(root / "site", url)
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=10)


@pytest.fixture
def visit(context, site: Site):
    """Open a path of the served site, failing the test on any script error."""
    errors: list[str] = []

    def opener(path: str = "/"):
        page = context.new_page()
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.on("console", lambda message: message.type == "error" and errors.append(message.text))
        page.goto(site.url + path)
        page.wait_for_function("typeof window.document$ === 'object'")  # Material is up
        page.evaluate("window.__marker = 1")  # gone if a click reloads the page
        return page

    yield opener
    assert errors == []


def go(page, link: str, heading: str) -> None:
    """Follow a link in the content and wait for Material to swap the next page in."""
    page.locator("article a", has_text=link).click()
    page.wait_for_function(
        "heading => document.querySelector('article h1')?.textContent === heading", arg=heading
    )
    assert page.evaluate("window.__marker") == 1, "the link reloaded the page"


def panel(page):
    return page.locator("article .volley-diagram .vl-panel")


def test_the_build_carries_data_outside_scripts_and_the_search_index(site: Site) -> None:
    second = (site.root / "second" / "index.html").read_text(encoding="utf-8")
    assert re.findall(r'<(\w+) class="vl-data"', second) == ["template"]
    (data,) = re.findall(r'<template class="vl-data"[^>]*>([^<]*)</template>', second)
    assert json.loads(data)["messages"][0]["text"] == "POST /charge"
    index = (site.root / "search" / "search_index.json").read_text(encoding="utf-8")
    assert "POST /charge" in index  # the labels drawn are page text
    assert "A-42" not in index  # a payload is not: it shows only when its arrow is clicked
    assert "Click an arrow" not in index and "JavaScript" not in index  # nor the hint or note
    assert '\\"messages\\"' not in index and "vl-panel" not in index  # the data and script are not


def test_a_diagram_reached_by_instant_navigation_opens_its_payloads(visit) -> None:
    page = visit("/")
    page.locator('article .volley-diagram [data-message="1"]').click()
    assert panel(page).locator(".vl-title").inner_text() == "GET /health"

    go(page, "To the second page", "Second")
    page.locator('article .volley-diagram [data-message="1"]').click()
    assert panel(page).locator(".vl-title").inner_text() == "POST /charge"
    assert panel(page).locator("td", has_text="A-42").count() == 1
    panel(page).locator(".vl-tab", has_text="Receipt").click()
    assert panel(page).locator("td", has_text="R-7").count() == 1


def test_the_viewer_listens_once_however_often_its_script_runs(visit) -> None:
    page = visit("/second/")
    for link, heading in [("First", "First"), ("Second", "Second")] * 2:
        page.locator("nav.md-nav--primary a", has_text=link).first.click()
        page.wait_for_function(
            "h => document.querySelector('article h1')?.textContent === h", arg=heading
        )
    assert page.evaluate("window.__marker") == 1
    page.locator('article .volley-diagram [data-message="1"]').click()
    page.keyboard.press("ArrowRight")
    assert panel(page).locator(".vl-title").inner_text() == "201 Created"
    panel(page).locator("[data-vl-action=next]").click()
    assert panel(page).locator(".vl-title").inner_text() == "send receipt"
    # Every copy of the viewer with listeners of its own sets the diagram up again, and each
    # set-up adds the diagram's status line for screen readers: one line, one viewer.
    assert page.locator("article .volley-diagram > .vl-sr").count() == 1


def test_a_deep_link_followed_in_place_opens_its_message(visit) -> None:
    page = visit("/")
    go(page, "Straight to the reply", "Second")
    page.wait_for_function("!document.querySelector('article .vl-panel').hidden")
    assert panel(page).locator(".vl-title").inner_text() == "201 Created"


def test_the_palette_switch_recolours_a_swapped_in_diagram(visit) -> None:
    page = visit("/")
    go(page, "To the second page", "Second")
    page.locator('article .volley-diagram [data-message="2"]').click()
    background = "getComputedStyle(document.querySelector('article .vl-panel')).backgroundColor"
    assert page.evaluate(background) == LIGHT_PANEL
    page.locator("label[title=Dark]").click()
    page.wait_for_function("document.body.dataset.mdColorScheme === 'slate'")
    page.wait_for_function(f"{background} === '{DARK_PANEL}'")
    page.locator("label[title=Light]").click()
    page.wait_for_function(f"{background} === '{LIGHT_PANEL}'")


@pytest.mark.parametrize("width", [390, 900, 1280])
def test_the_clicked_arrow_stays_clear_of_the_sheet(visit, width: int) -> None:
    """At 1280x900 in Material the panel used to open over the arrow that was clicked."""
    height = 900
    page = visit("/long/")
    page.set_viewport_size({"width": width, "height": height})
    page.evaluate("window.scrollTo(0, 700)")
    groups = "article .volley-diagram .vl-canvas [data-message]"
    n = page.evaluate(
        """([selector, y]) => [...document.querySelectorAll(selector)]
            .find(g => g.getBoundingClientRect().top > y).getAttribute('data-message')""",
        [groups, height * 0.7],
    )
    arrow = page.locator(f'article .volley-diagram [data-message="{n}"]')
    arrow.click()
    assert panel(page).locator(".vl-title").inner_text() == f"step {n}"
    assert page.evaluate("!document.querySelector('article .volley-diagram.vl-wide')")  # a sheet
    box, sheet = arrow.bounding_box(), panel(page).bounding_box()
    header = page.locator(".md-header").bounding_box()
    assert box["y"] >= header["y"] + header["height"]  # not under Material's header either
    assert box["y"] + box["height"] <= sheet["y"], (box, sheet)
    page.screenshot(path=f"/tmp/volley-material-{width}.png")


@pytest.mark.parametrize("width", [390, 1280])
def test_the_participants_stay_below_materials_header(visit, width: int) -> None:
    page = visit("/long/")
    page.set_viewport_size({"width": width, "height": 800})
    page.evaluate("window.scrollTo(0, 900)")
    page.wait_for_function("document.querySelector('article .vl-heads.vl-heads-on')")
    header = page.locator(".md-header").bounding_box()
    name = page.locator('article .vl-heads [data-name="Browser"] .name').bounding_box()
    assert name["y"] >= header["y"] + header["height"], (name, header)
    assert name["y"] <= header["y"] + header["height"] + 40
    page.screenshot(path=f"/tmp/volley-material-sticky-{width}.png")


@pytest.mark.parametrize(
    ("anchor", "label"), [("tabbed", "in a tab"), ("folded", "in a closed note")]
)
def test_a_deep_link_shows_a_diagram_in_a_tab_not_shown_or_a_closed_note(visit, anchor, label):
    """The tab is selected and the note opened: the panel of a diagram left hidden was open
    with nothing to see."""
    page = visit(f"/hidden/#{anchor}-message-1")
    diagram = page.locator(f'article .volley-diagram[data-anchor="{anchor}-"]')
    diagram.locator(".vl-panel .vl-title").wait_for(state="visible")
    assert diagram.locator(".vl-panel .vl-title").inner_text() == label
    assert diagram.locator('.vl-canvas [data-message="1"]').is_visible()
