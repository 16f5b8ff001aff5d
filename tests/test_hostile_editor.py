"""Share links carry text from strangers: the editor and its image endpoints stay inert.

A share link is the whole diagram in the URL, so anyone can make the editor (or an image in a
README) show any text. The corpus goes through `/svg/…`, `/png/…` and `POST /render`, and the
editor page opened on hostile links (valid and broken diagrams, so errors are shown too) runs
nothing in headless Chromium.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")
pytest.importorskip("httpx2")
from starlette.testclient import TestClient  # noqa: E402

from volley import editor_links as share  # noqa: E402
from volley.server import create_app  # noqa: E402

from .fuzz_strategies import check_svg, hostile_strings  # noqa: E402
from .test_hostile import BrowserThread, every_position, needs_browser  # noqa: E402

STRINGS = hostile_strings()
KINDS = ("<script", "onerror", "javascript:", "data:", "{{", "{%", "]]>", "<style", '" on', "id=")
# A sixth of the corpus, and the first attack of each kind for sure.
SAMPLE = sorted(
    set(STRINGS[::6]) | {next(s for s in STRINGS if kind in s.lower()) for kind in KINDS},
    key=STRINGS.index,
)
# Broken whatever the attack holds (`src=x ` holds an arrow, `=x`): a payload with no message.
BROKEN = [f"in: {s}\n" for s in SAMPLE[::2]] + [f"A -> B\nin: {s}\n" for s in SAMPLE[:3]]


@pytest.fixture(scope="module")
def client():
    with TestClient(create_app()) as test_client:
        yield test_client


@pytest.mark.parametrize("attack", SAMPLE)
def test_share_images_are_inert(client, attack: str):
    encoded = share.encode(every_position(attack))
    svg = client.get(f"/svg/{encoded}")
    assert svg.status_code == 200
    assert svg.headers["content-type"].startswith("image/svg+xml")
    check_svg(svg.text)


@pytest.mark.parametrize("attack", SAMPLE[:5])
def test_share_pngs_draw(client, attack: str):
    png = client.get(f"/png/{share.encode(every_position(attack))}")
    assert png.status_code == 200 and png.content.startswith(b"\x89PNG")


@pytest.mark.parametrize("source", BROKEN)
def test_errors_about_hostile_text_are_data_not_markup(client, source: str):
    for response in (
        client.get(f"/svg/{share.encode(source)}"),
        client.post("/render?format=html", content=source.encode("utf-8")),
    ):
        assert response.status_code >= 400
        kind = response.headers["content-type"]
        assert not kind.startswith("text/html"), kind
        if kind.startswith("application/json"):
            error = json.loads(response.text)["error"]
            assert error["message"]


@pytest.mark.parametrize("attack", SAMPLE[:4])
def test_rendered_html_from_the_server_is_inert(client, attack: str):
    from .fuzz_strategies import check_html

    response = client.post("/render?format=html", content=every_position(attack).encode())
    assert response.status_code == 200
    check_html(response.text, page=response.text.lstrip().lower().startswith("<!doctype"))


# --- the editor in a browser -----------------------------------------------------------------

# After the preview settles: press every arrow in it, then read what could run or load.
EXERCISE_AND_AUDIT = """async () => {
  for (const group of document.querySelectorAll("#preview [data-message]")) {
    group.dispatchEvent(new MouseEvent("click", {bubbles: true}));
    for (const b of document.querySelectorAll("#preview .vl-panel [data-vl-action]")) {
      if (b.getAttribute("data-vl-action") === "close") continue;
      b.dispatchEvent(new MouseEvent("click", {bubbles: true}));
    }
  }
  await new Promise((resolve) => setTimeout(resolve, 50));
  const found = [];
  for (const el of document.querySelectorAll("*")) {
    for (const a of el.attributes) {
      if (a.name.toLowerCase().startsWith("on")) found.push(el.tagName + " " + a.name);
      if (["href", "src", "action", "formaction", "xlink:href"].includes(a.name.toLowerCase())) {
        const v = a.value.replace(/[\\t\\n\\r]/g, "").trim();
        const m = /^([a-z][a-z0-9+.\\-]*):/i.exec(v);
        if (m && !["http", "https", "mailto", "blob"].includes(m[1].toLowerCase())) found.push(v);
      }
    }
    if (["IFRAME", "OBJECT", "EMBED", "FOREIGNOBJECT", "BASE"].includes(el.tagName.toUpperCase()))
      found.push("element " + el.tagName);
  }
  for (const img of document.querySelectorAll("#preview img, #status img, #paint img"))
    found.push("img " + img.src);
  return {found: found, scripts: document.querySelectorAll("script").length, pwned: window.__pwned};
}"""


@pytest.fixture(scope="module")
def editor():
    from .test_editor_browser import running

    worker = BrowserThread()
    with running(create_app()) as url:
        yield worker, url
    worker.close()


def _open_runs_nothing(editor, source: str, *, want: str) -> None:
    worker, base = editor
    worker.run(lambda chromium: _check_editor(chromium, base, source, want))


def _check_editor(chromium, base: str, source: str, want: str) -> None:
    context = chromium.new_context()
    page = context.new_page()
    events: list[str] = []
    page.on("dialog", lambda d: (events.append(f"dialog {d.message}"), d.dismiss()))
    page.on("pageerror", lambda e: events.append(f"page error {e}"))
    page.on("popup", lambda p: events.append(f"popup {p.url}"))
    page.on(
        "request",
        lambda r: r.url.startswith(base) or r.url.startswith("data:") or events.append(r.url),
    )
    try:
        page.goto(f"{base}/#{share.encode(source)}")
        states = ("ok", "warning") if want == "rendered" else (want,)  # warned of hidden characters
        page.wait_for_selector(
            ", ".join(f"#status[data-state='{state}']" for state in states), timeout=15_000
        )
        scripts_before = page.evaluate("document.querySelectorAll('script').length")
        result = page.evaluate(EXERCISE_AND_AUDIT)
        assert result["pwned"] is None, "a hostile script ran in the editor"
        assert result["found"] == []
        assert result["scripts"] == scripts_before
        assert events == []
    finally:
        context.close()


@needs_browser
def test_the_editor_on_a_hostile_share_link_runs_nothing(editor):
    source = "\n".join(every_position(s).replace("title:", "note:", 1) for s in SAMPLE)
    _open_runs_nothing(editor, source, want="rendered")


@needs_browser
@pytest.mark.parametrize("source", BROKEN[:4] + BROKEN[-1:])
def test_the_editor_shows_hostile_errors_as_text(editor, source: str):
    _open_runs_nothing(editor, source, want="error")


def test_the_sample_covers_every_kind_of_attack():
    text = "\n".join(SAMPLE)
    for kind in KINDS:
        assert kind in text.lower(), kind
    assert Path(__file__).with_name("hostile").is_dir()
