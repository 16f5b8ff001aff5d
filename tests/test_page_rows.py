"""The rows a page carries for a payload: read back as the viewer reads them, they are the
table volley read from the body, and they do not say the body's text a second time."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from volley.api import render
from volley.output.page_rows import KINDS, table_json
from volley.text.payload_tables import body_table

CASES = Path(__file__).parent / "cases"


def read_back(groups: list[dict[str, Any]], body: str) -> list[tuple[Any, list[tuple]]]:
    """The rows as the viewer's `rowGroups` builds them, in JavaScript's UTF-16 code units."""
    units = body.encode("utf-16-le", "surrogatepass")
    key = b""
    out = []
    for group in groups:
        rows = []
        for keep, rest, kind, *value in group["rows"]:
            key = key[: 2 * keep] + rest.encode("utf-16-le", "surrogatepass")
            if isinstance(value[0], int):
                start, end = value
                text = units[2 * start : 2 * end].decode("utf-16-le", "surrogatepass")
            else:
                (text,) = value
            rows.append((key.decode("utf-16-le", "surrogatepass"), text, KINDS[kind]))
        out.append((group["title"], rows))
    return out


def written_out(body: str, lang: str | None = None) -> list[tuple[Any, list[tuple]]]:
    return [
        (title, [(row.key, row.value, row.kind) for row in rows])
        for title, rows in body_table(body, lang).groups()
    ]


def round_trip(body: str, lang: str | None = None) -> None:
    groups = table_json(body_table(body, lang), body)
    assert read_back(json.loads(json.dumps(groups)), body) == written_out(body, lang)


HTTP = """POST /mcp HTTP/1.1
Content-Type: application/json
Authorization: Bearer <redacted>

{"jsonrpc": "2.0", "id": 1, "params": {"capabilities": {"roots": {"listChanged": true}}}}"""


@pytest.mark.parametrize(
    ("body", "lang"),
    [
        (HTTP, "http"),
        ('{"greeting": "👋🏽 hello there", "after": "a value after the emoji"}', "json"),
        ('{"😀 key": "first value here", "😀 kez": "second value here"}', "json"),
        ('{"quoted": "a \\"quoted\\" word in it", "plain": "nothing escaped in this"}', "json"),
        ('{"a": "same long value", "b": "same long value", "c": "same long value"}', "json"),
        ("grant_type=client_credentials&scope=read%20write&redirect=https%3A%2F%2Fx.test", "form"),
        ('event: message\ndata: {"result": {"content": [{"text": "streamed"}]}}\n\n', "sse"),
        ('{"n": 1}\n{"n": 2, "word": "a second line of json"}\n', "ndjson"),
        ("name: Ada Lovelace\nrole: analyst of engines\n", None),
        ('{"bidi": "\u202eAdmin is here", "next": "the value after the mark"}', "json"),
        ('{"lone": "\ud800 lone surrogate", "after": "the value after it"}', "json"),
        ("[]", "json"),
        ('{"id": 1, "url": "https:\\/\\/x.test\\/a", "next": "https:\\/\\/x.test\\/b"}', "json"),
        ('{"n": 1}\n{"n": 2}\n', "ndjson"),  # a key the row before another heading begins
        ('{"deep": {"er": {"est": [[], {}, null, 1e3, 12345678901234567890]}}}', "json"),
    ],
)
def test_rows_read_back_as_the_table_volley_read(body: str, lang: str | None) -> None:
    round_trip(body, lang)


@pytest.mark.parametrize("path", sorted((CASES / "har").glob("*.har"))[:6], ids=lambda p: p.name)
def test_a_har_file_read_as_json_reads_back(path: Path) -> None:
    round_trip(path.read_text(encoding="utf-8"), "json")


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=12),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner),
    max_leaves=20,
)


@settings(max_examples=150)
@given(json_values, st.booleans())
def test_any_json_reads_back(value: Any, ascii_only: bool) -> None:
    round_trip(json.dumps(value, indent=2, ensure_ascii=ascii_only), "json")


@settings(max_examples=100)
@given(st.lists(st.tuples(st.from_regex(r"[a-z][a-z0-9_-]{0,8}", fullmatch=True), st.text())))
def test_any_key_value_lines_read_back(pairs: list[tuple[str, str]]) -> None:
    round_trip("\n".join(f"{key}: {value}" for key, value in pairs))


def test_a_long_list_is_carried_once() -> None:
    """A list response's values stand in the page once, in its body; its rows say where."""
    items = [{"id": n, "name": f"item number {n}", "tags": ["first", "second"]} for n in range(300)]
    body = json.dumps({"items": items}, indent=2)
    page = render("A -> B: GET /items\nout: 200 OK\n```json\n" + body + "\n```\n", format="html")
    assert page.count("item number 123") == 1
    index = json.dumps(table_json(body_table(body, "json"), body), separators=(",", ":"))
    rows = json.dumps(written_out(body, "json"), separators=(",", ":"))
    assert len(index) < 0.7 * len(rows)  # the paths are not written out on every row either
