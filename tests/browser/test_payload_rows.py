"""The table a reader sees is the table volley read from the body, though the page carries the
body once and its rows only as places in it (volley/output/page_rows.py); and a page whose
viewer came from another volley release still shows every table."""

from __future__ import annotations

import json
import re

import pytest

from volley import parse
from volley.api import render
from volley.output.embed import embedded_json
from volley.output.html import message_views

from ..test_page_rows import read_back

pytestmark = pytest.mark.browser

PANEL = ".vl-panel"

BODIES = """A -> B: emoji
in: Greeting
```json
{"greeting": "👋🏽 hello there", "😀 key": "a value after the emoji", "😀 kez": "and another"}
```
B -> A: escapes and marks
out: Escaped
```json
{"quoted": "a \\"quoted\\" word", "bidi": "\u202eAdmin is here", "after": "a value after the mark"}
```
A -> B: POST /token
in: Form
```http
POST /token HTTP/1.1
Content-Type: application/x-www-form-urlencoded

grant_type=client_credentials&scope=read%20write&redirect=https%3A%2F%2Fx.test
```
B -> A: events
out: Stream
```sse
event: message
data: {"result": {"content": [{"text": "streamed text"}]}}

event: done
data: {"ok": true}
```
A -> B: GET /users
in: Start line alone
```http
GET /users HTTP/1.1
```
B -> A: lines
out: Lines
```ndjson
{"id": 1, "name": "first"}
{"name": "second", "id": 2}
```
"""

SHOWN_ROWS = """panel => Array.from(panel.querySelectorAll("table tbody")).map(tbody => {
  const head = tbody.querySelector("th[scope=colgroup]");
  if (head) return ["title", head.textContent];
  return Array.from(tbody.querySelectorAll("tr")).map(tr => [
    tr.querySelector("th").textContent, tr.querySelector("td").textContent,
    tr.querySelector("td").className.replace("vl-k-", "")]);
})"""


def expected_rows(source: str) -> list[list]:
    """What each payload's table must show, as the panel lays it out: a heading, then rows."""
    shown = []
    for view in message_views(parse(source)):
        for payload in view.payloads:
            parts: list = []
            for title, rows in payload.table.groups():
                if title:
                    parts.append(["title", title])
                parts.append([[row.key, row.value, row.kind] for row in rows])
            shown.append(parts)
    return shown


def shown_rows(page) -> list[list]:
    shown = []
    for n in range(1, page.locator(".vl-canvas [data-message]").count() + 1):
        page.locator(f'.vl-canvas [data-message="{n}"]').focus()
        page.keyboard.press("Enter")
        own = page.locator(f"{PANEL} [role=tab]:not(:has(.vl-via))")
        for index in range(max(own.count(), 1)):
            if own.count():
                own.nth(index).click()
            page.click(f"{PANEL} [data-vl-view=table]")
            shown.append(page.locator(f"{PANEL} .vl-body[role=tabpanel]").evaluate(SHOWN_ROWS))
    return shown


def test_every_row_shows_the_key_value_and_kind_volley_read(open_page) -> None:
    page = open_page(render(BODIES, format="html"))
    assert shown_rows(page) == expected_rows(BODIES)


def test_an_http_message_of_its_start_line_alone_has_a_table_of_it(open_page) -> None:
    page = open_page(render(BODIES, format="html"), "#message-5")
    page.click(f"{PANEL} [data-vl-view=table]")
    start = page.locator(f"{PANEL} .vl-start")
    assert start.inner_text().split() == ["GET", "/users", "HTTP/1.1"]


def test_a_page_whose_data_an_older_volley_wrote_shows_its_tables(open_page) -> None:
    """Format 1 wrote each row out ([key, value, kind] under `groups`); a notebook's earlier
    output may hold it when this viewer is the one the page runs."""
    page_text = render(BODIES, format="html")
    found = re.search(r'(<template class="vl-data"[^>]*>)([^<]*)(</template>)', page_text)
    assert found is not None
    data = json.loads(found[2])
    for message in data["messages"]:
        for payload in message["payloads"]:
            groups = read_back(payload.pop("table"), payload["body"])
            payload["groups"] = [
                {"title": title, "rows": [list(row) for row in rows]} for title, rows in groups
            ]
            payload["hasTable"] = bool(groups) or payload["start"] is not None  # as 1 wrote it
    del data["format"], data["kinds"]
    older = page_text.replace(found[0], found[1] + str(embedded_json(data)) + found[3])
    assert shown_rows(open_page(older)) == expected_rows(BODIES)


def test_an_older_viewer_already_on_the_page_is_given_the_rows_written_out(open_page) -> None:
    """A notebook's earlier output brought an older viewer, which serves every diagram after it
    and reads format 1 only: the new output's script writes the rows out for it."""
    older_viewer = """<script>
    window.__volleyViewer = { version: 3, refresh: function () {
      window.read = Array.from(document.querySelectorAll(".volley-diagram > template.vl-data"))
        .map(function (node) { return JSON.parse(node.content.textContent); });
    } };
    </script>"""
    fragment = render(BODIES, format="html", fragment=True, id_prefix="new")
    page = open_page(f"<!DOCTYPE html><html><body>{older_viewer}{fragment}</body></html>")
    (data,) = page.evaluate("window.read")
    assert "format" not in data and "kinds" not in data
    payloads = [payload for message in data["messages"] for payload in message["payloads"]]
    assert all("table" not in payload and payload["hasTable"] for payload in payloads)
    views = [payload for view in message_views(parse(BODIES)) for payload in view.payloads]
    assert [payload["groups"] for payload in payloads] == [
        [
            {"title": title, "rows": [[row.key, row.value, row.kind] for row in rows]}
            for title, rows in view.table.groups()
        ]
        for view in views
    ]
