"""The hostile corpus (tests/hostile/) in every position a diagram has, rendered inert.

Each one-line attack goes into the title, a participant name, a message label, notes, every
divider, every block label and both payload labels and bodies of one diagram; each corpus body
goes into fenced and indented payloads and a note. The SVG must hold only the template's own
elements and attributes with safe URLs; the HTML likewise, and in a real browser (Chromium,
headless) nothing may run, load or navigate while every message panel is opened.
"""

from __future__ import annotations

import json
import os
import queue
import threading
from pathlib import Path

import pytest

import volley

from .conftest import CHROMIUM_ARGS, chromium_path
from .fuzz_strategies import (
    as_name,
    check_render,
    fence_for,
    hostile_bodies,
    hostile_strings,
)

STRINGS = hostile_strings()
BODIES = hostile_bodies()
EVALUATED = "1787569"  # {{ 1337*1337 }} in the corpus, if a template engine ever ran it
CHROMIUM = chromium_path()
LANGS = {".json": "json", ".http": "http", ".txt": "text"}


def every_position(attack: str) -> str:
    """One diagram with the attack in each place a text can go."""
    name = as_name(attack)
    return "\n".join(
        [
            f"title: {attack}",
            f"order: {name}, B",
            f"{name} -> B: {attack}",
            f"in: {attack}",
            "~~~~text",
            attack,
            "~~~~",
            f"out: {attack}",
            f"  {attack}",
            f"note {name}, B: {attack}",
            f"  {attack}",
            f"note: {attack}",
            *(f"{mark} {attack}" for mark in ("=:", "-:", "--:", "_:", "...:")),
            f"if: {attack}",
            f"B -> {name}: {attack}",
            f"else: {attack}",
            f"{name} -> {name}: {attack}",
            "end",
            f"par: {attack}",
            f"B ->> {name}: {attack}",
            f"and: {attack}",
            f"{name} --x B: {attack}",
            "end",
            f"group: {attack}",
            f"loop: {attack}",
            f"opt: {attack}",
            f"B <--> {name}: {attack}",
            "end",
            "end",
            "end",
        ]
    )


def every_body(name: str, body: str) -> str:
    """One diagram with the body as a fenced and an indented payload, and inside a note."""
    lines = body.split("\n")
    fence = fence_for(lines, "`")
    indented = "\n".join("  " + line if line.strip() else "" for line in lines)
    lang = LANGS.get(Path(name).suffix, "")
    return "\n".join(
        [
            f"A -> B: {name}",
            "in: declared",
            f"{fence}{lang}",
            body,
            fence,
            "out: sniffed",
            f"{fence}",
            body,
            fence,
            "B --> A: indented",
            "in: indented",
            indented,
            "note A, B: raw",
            f"{fence}",
            body,
            fence,
        ]
    )


def _diagrams() -> list:
    cases = [pytest.param(every_position(s), id=f"string-{i}") for i, s in enumerate(STRINGS)]
    cases += [pytest.param(every_body(n, b), id=f"body-{n}") for n, b in BODIES.items()]
    return cases


def test_the_corpus_is_loaded():
    assert len(STRINGS) > 80 and len(BODIES) >= 5
    assert all("\n" not in s for s in STRINGS)


@pytest.mark.parametrize("text", _diagrams())
def test_hostile_text_renders_inert_svg_and_html(text: str):
    diagram = volley.parse(text)
    outputs = [
        check_render(diagram, "svg", bodies="appendix"),
        check_render(diagram, "svg", theme="auto"),
        check_render(diagram, "html"),
        check_render(diagram, "html", fragment=True, theme="dark"),
    ]
    for output in outputs:
        assert EVALUATED not in output


@pytest.mark.parametrize("attack", STRINGS[:12] + ["{{ 1337*1337 }}", "{% raw %}"])
def test_hostile_text_survives_png_and_pdf(attack: str):
    diagram = volley.parse(every_position(attack))
    assert volley.render(diagram, format="png", bodies="appendix").startswith(b"\x89PNG")
    assert volley.render(diagram, format="pdf", bodies="appendix").startswith(b"%PDF")


# --- in a real browser -----------------------------------------------------------------------

needs_browser = pytest.mark.skipif(
    CHROMIUM is None or bool(os.environ.get("VOLLEY_NO_BROWSER")),
    reason="needs Debian's chromium at /usr/bin/chromium",
)

# Everything in the page that could run, load or navigate, read from the live DOM after the
# viewer has built every panel.
AUDIT = """() => {
  const found = [];
  const schemes = ["http", "https", "mailto"];
  const urlNames = ["href", "src", "action", "formaction", "xlink:href", "data", "poster",
                    "srcset"];
  const never = ["IFRAME", "FRAME", "OBJECT", "EMBED", "IMG", "IMAGE", "BASE", "LINK", "FORM",
                 "INPUT", "VIDEO", "AUDIO", "SOURCE", "FOREIGNOBJECT", "MARQUEE", "ANIMATE", "SET"];
  for (const el of document.querySelectorAll("*")) {
    const tag = el.tagName.toUpperCase();
    if (never.includes(tag)) found.push("element " + tag);
    if (tag === "META" && el.parentElement.tagName !== "HEAD") found.push("meta in body");
    for (const a of el.attributes) {
      if (a.name.toLowerCase().startsWith("on")) found.push(tag + " " + a.name);
      if (urlNames.includes(a.name.toLowerCase())) {
        const v = a.value.replace(/[\\t\\n\\r]/g, "").replace(/^[\\x00-\\x20]+/, "");
        const m = /^([a-z][a-z0-9+.\\-]*):/i.exec(v);
        if (m && !schemes.includes(m[1].toLowerCase())) found.push(tag + " " + a.name + "=" + v);
      }
    }
  }
  const scripts = document.querySelectorAll("script").length;
  if (scripts !== 1) found.push(scripts + " scripts");
  const diagrams = document.querySelectorAll(".volley-diagram:not(.volley-static)").length;
  const templates = document.querySelectorAll("template");
  const data = document.querySelectorAll(".volley-diagram > template.vl-data");
  if (templates.length !== diagrams || data.length !== diagrams) found.push(data.length + " data");
  // text alone (the parser splits a text of over 65,536 characters into several nodes)
  for (const t of templates) {
    const nodes = [...t.content.childNodes];
    const text = nodes.length && nodes.every((n) => n.nodeType === Node.TEXT_NODE);
    if (!text) found.push("markup in data");
  }
  return found;
}"""

# Open every message of every diagram, then press every button its panel offers.
EXERCISE = """async () => {
  let opened = 0;
  for (const group of document.querySelectorAll(".vl-canvas [data-message]")) {
    group.dispatchEvent(new MouseEvent("click", {bubbles: true}));
    opened++;
    const panel = group.closest(".volley-diagram").querySelector(".vl-panel");
    for (const button of panel.querySelectorAll("[data-vl-action]")) {
      if (button.getAttribute("data-vl-action") === "close") continue;
      button.dispatchEvent(new MouseEvent("click", {bubbles: true}));
    }
  }
  for (const details of document.querySelectorAll("details")) details.open = true;
  await new Promise((resolve) => setTimeout(resolve, 50));
  return opened;
}"""


class BrowserThread:
    """Headless Chromium driven from a thread of its own; `run(job)` calls `job(browser)` there.

    Playwright's sync API refuses to start in a thread where an event loop runs, as one does
    once another module's browser is up; a fresh thread has none, whatever ran before.
    """

    def __init__(self) -> None:
        self.jobs: queue.Queue = queue.Queue()
        self.ready = threading.Event()
        self.failed: BaseException | None = None
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()
        self.ready.wait(120)
        if self.failed is not None:
            raise self.failed

    def _serve(self) -> None:
        from playwright.sync_api import sync_playwright

        try:
            with sync_playwright() as playwright:
                chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
                self.ready.set()
                while (job := self.jobs.get()) is not None:
                    call, box = job
                    try:
                        box["value"] = call(chromium)
                    except BaseException as exc:  # handed back to the test's thread
                        box["error"] = exc
                    box["done"].set()
                chromium.close()
        except BaseException as exc:
            self.failed = exc
            self.ready.set()

    def run(self, call):
        box: dict = {"done": threading.Event()}
        self.jobs.put((call, box))
        box["done"].wait()
        if "error" in box:
            raise box["error"]
        return box.get("value")

    def close(self) -> None:
        self.jobs.put(None)
        self.thread.join(60)


@pytest.fixture(scope="module")
def browser_thread():
    worker = BrowserThread()
    yield worker
    worker.close()


def _same_page(url: str) -> bool:
    """The viewer's deep links change only the fragment of the page it was loaded as."""
    return url.startswith("about:blank")


def _page_runs_nothing(worker: BrowserThread, html: str, hash_: str = "") -> int:
    """Load the page, open everything, and return how many messages were opened."""
    return worker.run(lambda chromium: _check_page(chromium, html, hash_))


def _check_page(chromium, html: str, hash_: str) -> int:
    page = chromium.new_page()
    events: list[str] = []
    page.on("dialog", lambda d: (events.append(f"dialog {d.message}"), d.dismiss()))
    page.on("pageerror", lambda e: events.append(f"page error {e}"))
    page.on("popup", lambda p: events.append(f"popup {p.url}"))
    page.on("framenavigated", lambda f: _same_page(f.url) or events.append(f"nav {f.url}"))
    page.route("**/*", lambda route: (events.append(f"load {route.request.url}"), route.abort()))
    try:
        page.set_content(html, wait_until="load")
        if hash_:
            page.evaluate("(h) => { location.hash = h; }", hash_)
        opened = page.evaluate(EXERCISE)
        assert page.evaluate("() => window.__pwned") is None, "a hostile script ran"
        assert page.evaluate(AUDIT) == []
        assert events == []
        return opened
    finally:
        page.close()


@needs_browser
def test_every_attack_runs_nothing_in_a_browser(browser_thread):
    """One page holding every attack in every position, every panel opened."""
    text = "\n".join(every_position(s).replace("title:", "note:", 1) for s in STRINGS)
    html = volley.render(text, format="html")
    assert _page_runs_nothing(browser_thread, html) == len(volley.parse(text).messages())


@needs_browser
@pytest.mark.parametrize("name", sorted(BODIES))
def test_every_body_runs_nothing_in_a_browser(browser_thread, name: str):
    html = volley.render(every_body(name, BODIES[name]), format="html", theme="dark")
    assert _page_runs_nothing(browser_thread, html) == 2


@needs_browser
def test_fragments_on_one_page_run_nothing(browser_thread):
    """Several diagrams embedded in one page, as the docs plugin and README mode do."""
    from volley.output.html import html_assets

    parts = [
        volley.render(every_position(s), format="html", fragment=True, include_assets=False)
        for s in STRINGS[:20]
    ]
    css, js = html_assets()
    page = (
        "<!DOCTYPE html><html><head><meta charset='utf-8'><style>" + css + "</style></head>"
        "<body>" + "".join(parts) + "<script>" + js + "</script></body></html>"
    )
    assert _page_runs_nothing(browser_thread, page) > 0


@needs_browser
@pytest.mark.parametrize(
    "hash_",
    [
        "#message-1",
        "#<img src=x onerror=window.__pwned=1>message-1",
        "#%3Cimg%20src%3Dx%20onerror%3Dwindow.__pwned%3D1%3Emessage-1",
        "#javascript:window.__pwned=1//message-1",
        "#%E0%A4%A",
    ],
)
def test_deep_links_run_nothing(browser_thread, hash_: str):
    html = volley.render(every_position(STRINGS[0]), format="html")
    _page_runs_nothing(browser_thread, html, hash_)


def test_the_data_cannot_end_its_element():
    """`</script>` and `<!--` in a body stay inside the JSON, which reads back the same."""
    body = BODIES["script-in-json.json"]
    html = volley.render(every_body("script-in-json.json", body), format="html")
    data = html.split('<template class="vl-data" data-search-exclude>', 1)[1]
    data = data.split("</template>", 1)[0]
    assert "<" not in data and ">" not in data and "&" not in data
    decoded = json.dumps(json.loads(data), ensure_ascii=False)
    assert "</script><script>window.__pwned=1</script>" in decoded
    assert "<!--<script>" in decoded


@needs_browser
@pytest.mark.parametrize(
    "planted",
    [
        "<img src=x onerror=window.__pwned=1>",
        "<script>alert(1)</script>",
        '<a href="javascript:void(0)">x</a>',
        "<iframe></iframe>",
    ],
)
def test_the_browser_check_catches_what_it_is_for(browser_thread, planted: str):
    html = volley.render("A -> B: x", format="html").replace("<main>", "<main>" + planted, 1)
    with pytest.raises(AssertionError):
        _page_runs_nothing(browser_thread, html)


# --- templates and the rasteriser ------------------------------------------------------------


def test_every_template_environment_autoescapes_html():
    from volley.output.html import _environment as html_environment

    assert html_environment().autoescape is True
    try:
        from volley.server.app import _editor_environment
    except ImportError:  # the editor is an optional extra
        return
    assert _editor_environment().autoescape is True


def test_no_template_is_built_from_text():
    """Templates come from files only: no `from_string`, no `jinja2.Template(...)`."""
    package = Path(volley.__file__).parent
    for path in package.rglob("*.py"):
        code = path.read_text(encoding="utf-8")
        assert "from_string(" not in code, path
        assert "jinja2.Template(" not in code and "from jinja2 import Template" not in code, path


@pytest.mark.parametrize(
    "element",
    [
        '<image href="file://{png}" width="50" height="50"/>',
        '<image xmlns:xlink="http://www.w3.org/1999/xlink" xlink:href="file://{png}"'
        ' width="50" height="50"/>',
        '<image href="{png}" width="50" height="50"/>',
        '<use href="file://{svg}#x"/>',
        "<style>@import url(file://{svg});</style>",
        '<image href="http://127.0.0.1:9/x.png" width="50" height="50"/>',
        '<rect width="50" height="50" fill="url(file://{svg}#g)"/>',
    ],
    ids=["image", "xlink-image", "relative-image", "use", "css-import", "http", "fill-url"],
)
@pytest.mark.parametrize("fmt", ["png", "pdf"])
def test_the_rasteriser_loads_nothing(tmp_path: Path, element: str, fmt: str):
    """Should an <image> ever reach the rasteriser, it still reads no file and no URL."""
    from volley.errors import VolleyError
    from volley.output.raster import rasterize

    png, svg = tmp_path / "secret.png", tmp_path / "secret.svg"
    svg.write_text('<svg xmlns="http://www.w3.org/2000/svg"><rect id="x"/></svg>')
    png.write_bytes(volley.render("A -> B", format="png"))
    body = element.format(png=png, svg=svg)
    document = f'<svg xmlns="http://www.w3.org/2000/svg" width="50" height="50">{body}</svg>'
    try:
        out = rasterize(document, fmt, width=50, height=50)
    except VolleyError as exc:
        assert "may not load external resources" in exc.message
    else:  # drawn without the resource: a blank 50 x 50 picture, nothing of the file in it
        assert len(out) < len(png.read_bytes())
