"""Bodies into tables: the reference diagram's payloads, then every rule and its edges."""

from __future__ import annotations

import json
import re
from decimal import Decimal
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import volley
from volley.model import Payload
from volley.text.payload_tables import (
    ROOT_KEY,
    Row,
    Table,
    body_table,
    content_type,
    flatten_json,
    payload_table,
)

REFERENCE = Path(__file__).parent.parent / "examples" / "mcp-tool-call.volley"


def reference_bodies() -> list[tuple[str, str | None]]:
    """The reference diagram's fenced bodies as (body, lang), in order, read without the parser."""
    text = REFERENCE.read_text(encoding="utf-8")
    return [(body, lang or None) for lang, body in re.findall(r"```(\w*)\n(.*?)\n```", text, re.S)]


def rows_by_key(table: Table) -> dict[str, Row]:
    return {row.key: row for row in table.rows}


def values(table: Table) -> list[tuple[str, str]]:
    return [(row.key, row.value) for row in table.rows]


# --- The reference diagram ----------------------------------------------------------------------


@pytest.fixture(scope="module")
def bodies() -> list[tuple[str, str | None]]:
    found = reference_bodies()
    assert len(found) == 8, "the reference diagram changed; update these tests"
    return found


def test_every_reference_body_gives_a_table(bodies):
    for body, lang in bodies:
        table = body_table(body, lang)
        assert table.rows and table.reason is None and table.body_reason is None, body


def test_initialize_request(bodies):
    table = body_table(*bodies[0])
    assert table.source == "http"
    assert table.rows[0] == Row("request", "POST /mcp HTTP/1.1", "text", "start")
    assert (table.start.method, table.start.target, table.start.version) == (
        "POST",
        "/mcp",
        "HTTP/1.1",
    )
    assert table.headers == [
        ("Content-Type", "application/json"),
        ("Accept", "application/json, text/event-stream"),
        ("Authorization", "Bearer <redacted>"),
    ]
    rows = rows_by_key(table)
    assert rows["params.protocolVersion"] == Row(
        "params.protocolVersion", "2025-06-18", "string", "body"
    )
    assert rows["params.capabilities.roots.listChanged"].value == "true"
    assert rows["params.capabilities.roots.listChanged"].kind == "boolean"
    assert rows["id"].kind == "number"
    assert [row.section for row in table.rows] == ["start"] + ["header"] * 3 + ["body"] * 7


def test_initialize_response(bodies):
    table = body_table(*bodies[1])
    assert table.rows[0] == Row("status", "HTTP/1.1 200 OK", "text", "start")
    assert (table.start.version, table.start.status, table.start.reason) == (
        "HTTP/1.1",
        "200",
        "OK",
    )
    assert dict(table.headers)["Mcp-Session-Id"] == "1868a90c-4f2b-4c6e-9d3a-7b5e2f8c1a04"
    assert rows_by_key(table)["result.serverInfo.name"].value == "issue-tracker"


def test_initialized_notification(bodies):
    table = body_table(*bodies[2])
    assert dict(table.headers)["MCP-Protocol-Version"] == "2025-06-18"
    assert values(table)[-2:] == [("jsonrpc", "2.0"), ("method", "notifications/initialized")]


def test_tools_list_response(bodies):
    table = body_table(*bodies[4])
    assert table.source == "json"
    rows = rows_by_key(table)
    assert rows["result.tools[0].inputSchema.properties.state.enum[1]"].value == "closed"
    assert rows["result.tools[0].inputSchema.required[0]"].value == "query"
    assert rows["result.tools[0].name"].value == "search_issues"


def test_tool_result(bodies):
    rows = rows_by_key(body_table(*bodies[7]))
    assert rows["result.content[0].text"].value.startswith("2 open issues: #812")
    assert (rows["result.isError"].value, rows["result.isError"].kind) == ("false", "boolean")


def test_indented_key_value_payload():
    payload = Payload(
        "Tools offered", None, "search_issues: Search issues by text and state", "indented"
    )
    table = payload_table(payload)
    assert table.source == "keyvalue"
    assert table.rows == [Row("search_issues", "Search issues by text and state", "text", "field")]


def test_every_parsed_reference_payload_gives_a_table():
    """Through the real parser: nine payloads, each recognised as its kind, none without rows."""
    from volley import parse

    diagram = parse(REFERENCE.read_text(encoding="utf-8"))
    payloads = [p for m in diagram.messages() for p in (m.request, m.response) if p is not None]
    tables = [payload_table(payload) for payload in payloads]
    expected = ["http", "http", "http", "json", "json", "keyvalue", "json", "json", "json"]
    assert [table.source for table in tables] == expected
    assert all(table.rows and table.reason is None for table in tables)


def test_contract_example_key_values():
    table = body_table("status: 200\nMcp-Session-Id: 1868a90c", None)
    assert values(table) == [("status", "200"), ("Mcp-Session-Id", "1868a90c")]


# --- JSON paths and values ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("body", "key"),
    [
        ('{"headers": {"Content-Type": "x"}}', 'headers["Content-Type"]'),
        ('{"a": {"x.y": 1}}', 'a["x.y"]'),
        ('{"": 1}', '[""]'),
        ('{"a": {"": 1}}', 'a[""]'),
        ('{"1a": 1}', '["1a"]'),
        ('{"say \\"hi\\"": 1}', '["say \\"hi\\""]'),
        ('{"$ref": 1}', "$ref"),
        ('{"_private": 1}', "_private"),
        ('{"名前": 1}', "名前"),
        ('{"a": {"हिन्दी": 1}}', "a.हिन्दी"),  # letters with their marks: still a name
        ('{"ชื่อ": 1}', "ชื่อ"),
        ('{"a": {"شماره\u200cکارت": 1}}', "a.شماره\u200cکارت"),  # Persian's joiner: a name
        ('{"\u200cx": 1}', '["\u200cx"]'),  # but never first
        ('{"a-b": 1}', '["a-b"]'),
        ("[[1]]", "[0][0]"),
        ('[{"tools": [{"name": 1}]}]', "[0].tools[0].name"),
    ],
)
def test_paths(body, key):
    assert [row.key for row in body_table(body, "json").rows] == [key]


@pytest.mark.parametrize(
    ("literal", "shown"),
    [
        ("1", "1"),
        ("1.0", "1.0"),
        ("-0", "-0"),
        ("1e3", "1e3"),
        ("2.50E-7", "2.50E-7"),
        ("123456789012345678901234567890", "123456789012345678901234567890"),
        ("9" * 5000, "9" * 5000),  # beyond Python's int-to-str digit limit
    ],
)
def test_numbers_are_shown_as_written(literal, shown):
    assert body_table(f'{{"n": {literal}}}', "json").rows == [Row("n", shown, "number", "body")]


@pytest.mark.parametrize("literal", ["NaN", "Infinity", "-Infinity"])
def test_nan_and_infinity_are_not_json_so_there_is_no_table(literal):
    """Python's json.dumps writes them for floats it cannot write, and its parser takes them
    back, but JSON has neither: the raw view says why there is no table."""
    table = body_table(f'{{"n": {literal}}}', "json")
    assert table.rows == []
    said = f"{literal} is not a JSON value (JSON has no NaN or Infinity)"
    assert table.reason == f"the body is not valid JSON: {said}"
    stream = body_table(f'event: m\ndata: {{"n": {literal}}}\n\n', "sse")
    assert ("data", f'{{"n": {literal}}}') in [(row.key, row.value) for row in stream.rows]


def test_scalars_and_empty_containers():
    body = '{"s": "", "t": true, "f": false, "z": null, "o": {}, "a": []}'
    assert [(row.key, row.value, row.kind) for row in body_table(body, "json").rows] == [
        ("s", "", "string"),
        ("t", "true", "boolean"),
        ("f", "false", "boolean"),
        ("z", "null", "null"),
        ("o", "{}", "empty-object"),
        ("a", "[]", "empty-array"),
    ]


def test_duplicate_keys_keep_every_row_in_order():
    assert values(body_table('{"a": 1, "b": 2, "a": 3}', "json")) == [
        ("a", "1"),
        ("b", "2"),
        ("a", "3"),
    ]


@pytest.mark.parametrize(
    ("body", "row"),
    [
        ("42", Row(ROOT_KEY, "42", "number", "body")),
        ('"hi"', Row(ROOT_KEY, "hi", "string", "body")),
        ("null", Row(ROOT_KEY, "null", "null", "body")),
        ("{}", Row(ROOT_KEY, "{}", "empty-object", "body")),
        (" [ ] ", Row(ROOT_KEY, "[]", "empty-array", "body")),
    ],
)
def test_whole_document_values(body, row):
    assert body_table(body, "json").rows == [row]


def test_a_body_that_is_one_json_value_is_a_row_as_the_contract_says():
    """`42`, `true`, `null`, `"ok"` parse as JSON: one row, declared `json` or not."""
    for scalar in ("42", "true", "null", '"ok"'):
        assert body_table(scalar, None).rows == body_table(scalar, "json").rows
    assert body_table("{}", None).rows == [Row(ROOT_KEY, "{}", "empty-object", "body")]
    assert (
        body_table("ok", None).reason
        == 'no table: the body is not JSON, HTTP or "key: value" lines'
    )


def test_a_json_object_with_a_request_member_of_its_own_is_json_not_a_har_entry():
    """`{"id": 7, "request": {"method": "GET", …}, "note": …}` was read as a HAR entry: the
    table showed `GET /x HTTP/1.1` alone, `id` and `note` gone."""
    request = '"request": {"method": "GET", "url": "/x", "headers": []}'
    keys = [row.key for row in body_table(f'{{"id": 7, {request}, "note": "n"}}', "json").rows]
    assert keys == ["id", "request.method", "request.url", "request.headers", "note"]
    rpc = '{"request": {"method": "tools/call", "url": "/x", "headers": []}}'
    assert body_table(rpc, "json").source == "json"  # no HTTP method: no HAR entry
    assert body_table('{"startedDateTime": "t", ' + request + "}", "json").source == "http"
    nan = body_table("{" + request + ', "x": NaN}', "json")
    assert not nan.rows and "NaN is not a JSON value" in (nan.reason or "")


def test_key_value_lines_named_like_an_event_streams_fields_are_rows_unless_they_are_events():
    assert [(r.key, r.value) for r in body_table("data: hello\ndata: world", None).rows] == [
        ("data", "hello"),
        ("data", "world"),
    ]
    assert body_table('event: message\ndata: {"a": 1}', None).source == "events"
    assert body_table('data: {"a": 1}\n\ndata: {"b": 2}', None).source == "events"
    assert body_table("data: hello", "sse").source == "events"


def test_undeclared_json_is_recognised_in_any_language():
    assert body_table('{"a": 1}', None).source == "json"
    assert body_table('{"a": 1}', "text").source == "json"
    assert body_table('{"a": 1}', "yaml").source == "json"


def test_lang_is_matched_by_its_first_word_in_any_case():
    assert body_table("42", "JSON").source == "json"
    assert body_table("42", "json title=x").source == "json"


def test_flatten_json_takes_plain_python_values():
    value = {"a": [1, 2.5, True, None], "b": {}, "c": (), "d": Decimal("1.10"), 3: float("nan")}
    assert [(row.key, row.value, row.kind) for row in flatten_json(value)] == [
        ("a[0]", "1", "number"),
        ("a[1]", "2.5", "number"),
        ("a[2]", "true", "boolean"),
        ("a[3]", "null", "null"),
        ("b", "{}", "empty-object"),
        ("c", "[]", "empty-array"),
        ("d", "1.10", "number"),
        ('["3"]', "NaN", "number"),
    ]


def test_flatten_json_has_no_depth_limit():
    value: list = ["leaf"]
    for _ in range(100_000):
        value = [value]
    (row,) = flatten_json(value)
    assert row.key == "[0]" * 100_001 and row.value == "leaf"


# --- Reasons ------------------------------------------------------------------------------------


def test_a_json_error_reads_without_a_dangling_at():
    """Python's "Unterminated string starting at" was quoted whole, before the place: "…
    starting at at line 1, column 7"."""
    table = body_table('{"a": "b', "json")
    assert table.reason == "the body is not valid JSON: Unterminated string at line 1, column 7"


def test_a_body_an_import_cut_short_says_so_not_that_it_is_no_json():
    """A HAR body over --max-body was called "not valid JSON: Expecting property name"."""
    from volley.importers.labels import cut_body

    whole = (
        '{"items": [' + ", ".join(f'{{"id": {k}, "name": "item {k}"}}' for k in range(400)) + "]}"
    )
    cut = cut_body(whole, 4000)
    table = body_table(cut, "json")
    assert table.rows == [] and table.reason is not None
    assert table.reason.startswith("the body was cut short on import (")
    assert "not valid JSON" not in table.reason
    http = body_table("HTTP/1.1 200 OK\nContent-Type: application/json\n\n" + cut, "http")
    assert http.body_reason is not None and http.body_reason.startswith("the body was cut short")


def test_invalid_json_quotes_the_error_with_its_place():
    table = body_table('{\n  "a": 1\n  "b": 2\n}', "json")
    assert table.rows == [] and table.source == "none"
    assert table.reason == "the body is not valid JSON: Expecting ',' delimiter at line 3, column 3"


def test_undeclared_body_that_opens_like_json_gets_the_json_error():
    assert body_table('{"a": }', None).reason.startswith(
        "the body is not valid JSON: Expecting value"
    )


def test_other_language_that_is_not_json_names_the_language():
    assert body_table("<a/>", "xml").reason == (
        'no table for lang "xml": only JSON, HTTP, forms, event streams, JSON Lines and flat'
        ' "key: value" bodies are shown as tables'
    )
    assert body_table("{ not json }", "text").reason.startswith('no table for lang "text"')


def test_flat_yaml_is_a_table_and_nested_yaml_is_not():
    assert values(body_table("name: volley\nversion: 0.1", "yaml")) == [
        ("name", "volley"),
        ("version", "0.1"),
    ]
    table = body_table("server:\n  port: 80", "yaml")
    assert table.reason == 'no table for YAML beyond flat "key: value" lines (see line 2)'


@pytest.mark.parametrize(
    "body",
    ["just some words", "- a\n- b", "https://example.com/a", '{"a": 1} trailing: x'],
)
def test_unrecognised_text(body):
    table = body_table(body, None)
    assert table.rows == [] and table.reason


def test_key_value_lines_allow_empty_values_and_blank_lines():
    assert values(body_table("a:\n\nb: x: y\nurl: https://h/p", None)) == [
        ("a", ""),
        ("b", "x: y"),
        ("url", "https://h/p"),
    ]


@pytest.mark.parametrize("body", ["", "   ", "\n\n"])
def test_empty_body(body):
    assert body_table(body, "json").reason == "the body is empty"


@pytest.mark.parametrize("body", ["[" * 10_000, "[" * 10_000 + "]" * 10_000, '{"a":' * 10_000])
@pytest.mark.parametrize("lang", [None, "json", "http"])
def test_deep_nesting_gives_a_reason_not_an_exception(body, lang):
    table = body_table(body, lang)
    assert table.rows == [] and table.reason


def test_lone_surrogates_become_replacement_characters():
    table = body_table('{"\\ud800": "a\\udc00"}', "json")
    assert values(table) == [('["\ufffd"]', "a\ufffd")]
    json.dumps(table.to_json(), ensure_ascii=False).encode("utf-8")


# --- HTTP ---------------------------------------------------------------------------------------


def test_form_encoded_request():
    body = (
        "POST /login HTTP/1.1\nContent-Type: application/x-www-form-urlencoded; charset=utf-8\n\n"
        "user=ada%20l&note=a+b%26c&empty=&flag\n"
    )
    table = body_table(body, "http")
    assert [(row.key, row.value) for row in table.rows if row.section == "field"] == [
        ("user", "ada l"),
        ("note", "a b&c"),
        ("empty", ""),
        ("flag", ""),
    ]


def test_form_language():
    assert values(body_table("a=1&b=%C3%A9", "form")) == [("a", "1"), ("b", "é")]


def test_json_content_type_with_a_broken_body_keeps_the_head():
    table = body_table("HTTP/1.1 200 OK\nContent-Type: application/json\n\n{\n  oops\n}", None)
    assert table.source == "http" and table.reason is None
    assert values(table) == [("status", "HTTP/1.1 200 OK"), ("Content-Type", "application/json")]
    assert table.body_reason == (
        "the body is not valid JSON: Expecting property name enclosed in double quotes"
        " at line 5, column 3"
    )


@pytest.mark.parametrize(
    ("media", "reason"),
    [
        ("Text/HTML; charset=utf-8", "no table for a text/html body"),
        ("image/png", "no table for a image/png body"),
    ],
)
def test_other_content_types_leave_the_body_to_the_raw_view(media, reason):
    table = body_table(f"HTTP/1.1 200 OK\nContent-Type: {media}\n\ndata: hello", "http")
    assert [row.section for row in table.rows] == ["start", "header"]
    assert table.body_reason == reason


def test_structured_json_media_types_are_flattened():
    body = 'HTTP/1.1 404 Not Found\nContent-Type: application/problem+json\n\n{"title": "gone"}'
    assert values(body_table(body, "http"))[-1] == ("title", "gone")


def test_body_without_content_type():
    assert values(body_table('HTTP/1.1 200 OK\n\n{"a": 1}', None))[-1] == ("a", "1")
    table = body_table("HTTP/1.1 200 OK\n\nhello", None)
    assert table.body_reason == "no table for a body without a Content-Type header"


def test_head_only_and_no_blank_line():
    assert values(body_table("GET /health HTTP/1.1", None)) == [("request", "GET /health HTTP/1.1")]
    table = body_table('POST /x HTTP/1.1\nContent-Type: application/json\n{"a": 1}', "http")
    assert values(table)[-1] == ("a", "1")


def test_a_header_named_in_another_script_is_a_header_and_keeps_the_ones_after_it():
    """HTTP/1.1 allows only ASCII names, but documentation writes `X-Имя`: the headers after
    it were lost, and the body's rows with them."""
    body = 'POST / HTTP/1.1\nX-Имя: Иван\nContent-Type: application/json\n\n{"a": 1}'
    table = body_table(body, "http")
    assert table.headers == [("X-Имя", "Иван"), ("Content-Type", "application/json")]
    assert values(table)[-1] == ("a", "1")


def test_folded_headers_and_crlf():
    body = "HTTP/2 204\r\nX-Long: one\r\n  two\r\n\tthree\r\nX-Empty:\r\n\r\n"
    table = body_table(body, "http")
    assert table.start.status == "204" and table.start.reason is None
    assert table.headers == [("X-Long", "one two three"), ("X-Empty", "")]


def test_declared_http_is_lenient_about_the_start_line():
    assert values(body_table("GET /users", "http")) == [("request", "GET /users")]
    assert body_table("GET /users", None).source == "none"
    assert body_table("Host: example.com", "http").headers == [("Host", "example.com")]
    assert body_table("\nGET / HTTP/1.1\nHost: h", None).headers == [("Host", "h")]


def test_declared_http_that_is_not_http():
    assert body_table("hello there", "http").reason.startswith(
        "the first line is not an HTTP request line"
    )


@pytest.mark.parametrize(
    ("headers", "expected"),
    [
        ([("content-type", "Application/JSON; charset=utf-8")], "application/json"),
        ({"Content-Type": "text/plain"}, "text/plain"),
        ([("Accept", "application/json")], None),
        ([("Content-Type", " ")], None),
        ([], None),
    ],
)
def test_content_type(headers, expected):
    assert content_type(headers) == expected


def test_to_json_is_serialisable():
    table = body_table("HTTP/1.1 200 OK\nContent-Type: text/plain\n\nhi", None)
    data = json.loads(json.dumps(table.to_json()))
    assert data["source"] == "http" and data["start"]["status"] == "200"
    assert data["rows"][0] == {
        "key": "status",
        "value": "HTTP/1.1 200 OK",
        "kind": "text",
        "section": "start",
        "group": None,
    }


# --- Bodies as people paste them -------------------------------------------------------------


def groups(table: Table) -> list[tuple[str | None, list[tuple[str, str]]]]:
    return [(title, [(row.key, row.value) for row in rows]) for title, rows in table.groups()]


# RFC 9110 section 15.3.5 / RFC 9112 style: the message indented as it is on the page.
RFC_REQUEST = """\
     POST /tokens HTTP/1.1
     Host: auth.example.com
     Content-Type: application/json

     {"grant_type": "client_credentials", "scope": "read"}"""


@pytest.mark.parametrize("lang", [None, "http"])
def test_indented_http_is_read_as_if_flush_left(lang):
    table = body_table(RFC_REQUEST, lang)
    assert table.source == "http" and table.body_reason is None
    assert table.start is not None and table.start.method == "POST"
    assert table.headers == [("Host", "auth.example.com"), ("Content-Type", "application/json")]
    assert groups(table)[1] == ("Body", [("grant_type", "client_credentials"), ("scope", "read")])


def test_indented_key_value_lines():
    assert values(body_table("    status: 200\n    Mcp-Session-Id: 1868a90c")) == [
        ("status", "200"),
        ("Mcp-Session-Id", "1868a90c"),
    ]


# How `curl -v` prints an exchange (request headers after `> `, response after `< `, its body
# bare, curl's own news after `* `).
CURL_VERBOSE = """\
*   Trying 140.82.121.6:443...
* Connected to api.github.com (140.82.121.6) port 443
* ALPN: server accepted h2
> GET /repos/octocat/Hello-World HTTP/2
> Host: api.github.com
> User-Agent: curl/8.5.0
> Accept: application/vnd.github+json
>
< HTTP/2 200
< content-type: application/json; charset=utf-8
< x-ratelimit-remaining: 59
<
{
  "id": 1296269,
  "full_name": "octocat/Hello-World",
  "owner": {"login": "octocat"}
}
* Connection #0 to host api.github.com left intact"""


@pytest.mark.parametrize("lang", [None, "console", "text", "http"])
def test_curl_verbose_transcript_is_a_request_and_a_response(lang):
    table = body_table(CURL_VERBOSE, lang)
    assert table.source == "http" and table.reason is None and table.body_reason is None
    assert table.start is not None and table.start.target == "/repos/octocat/Hello-World"
    assert groups(table) == [
        (
            "Request headers",
            [
                ("Host", "api.github.com"),
                ("User-Agent", "curl/8.5.0"),
                ("Accept", "application/vnd.github+json"),
            ],
        ),
        (
            "Response headers",
            [
                ("status", "HTTP/2 200"),
                ("content-type", "application/json; charset=utf-8"),
                ("x-ratelimit-remaining", "59"),
            ],
        ),
        (
            "Response body",
            [("id", "1296269"), ("full_name", "octocat/Hello-World"), ("owner.login", "octocat")],
        ),
    ]


# GitHub's docs show a webhook delivery this way ("Example delivery" under "Delivery headers"):
# every line quoted with `> `, bare blank lines between the start line, headers and body.
GITHUB_DELIVERY = """\
> POST /payload HTTP/2

> Host: localhost:4567
> X-GitHub-Delivery: 72d3162e-cc78-11e3-81ab-4c9367dc0958
> X-Hub-Signature-256: sha256=d57c68ca6f92289e6987922ff26938930f6e66a2d161ef06abdf1859230aa23c
> User-Agent: GitHub-Hookshot/044aadd
> Content-Type: application/json
> X-GitHub-Event: issues

> {
>   "action": "opened",
>   "issue": {"number": 1347}
> }"""


def test_github_webhook_delivery_as_documented():
    table = body_table(GITHUB_DELIVERY, "shell")
    assert table.start is not None and table.start.method == "POST"
    [(head, headers), (body, rows)] = groups(table)
    assert head == "Request headers" and ("X-GitHub-Event", "issues") in headers
    assert len(headers) == 6
    assert (body, rows) == ("Request body", [("action", "opened"), ("issue.number", "1347")])


def test_transcript_response_with_a_body_that_gives_no_table_says_so():
    table = body_table(
        "> GET / HTTP/1.1\n>\n< HTTP/1.1 200 OK\n< Content-Type: text/html\n<\n<p>hi"
    )
    assert table.body_reason == "response body: no table for a text/html body"


# MCP Streamable HTTP: a POST answered with `Content-Type: text/event-stream`, a progress
# notification and then the result (modelcontextprotocol.io, basic/transports).
MCP_SSE_RESPONSE = """\
HTTP/1.1 200 OK
Content-Type: text/event-stream
Mcp-Session-Id: 1868a90c

: stream opened
event: message
id: 7a1
data: {"jsonrpc":"2.0","method":"notifications/progress","params":{"progress":50}}

event: message
id: 7a2
data: {"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":"3 issues"}]}}
"""


def test_event_stream_response_is_a_group_per_event():
    table = body_table(MCP_SSE_RESPONSE, "http")
    assert table.body_reason is None
    titled = groups(table)
    assert [title for title, _ in titled] == ["Headers", "Event 1 · message", "Event 2 · message"]
    assert titled[2][1] == [
        ("event", "message"),
        ("id", "7a2"),
        ("data.jsonrpc", "2.0"),
        ("data.id", "2"),
        ("data.result.content[0].type", "text"),
        ("data.result.content[0].text", "3 issues"),
    ]


def test_event_stream_pasted_alone_and_data_that_is_not_json():
    body = "data: first line\ndata: second line\n\n: ping\n\nevent: done\ndata: [1, 2]"
    for lang in (None, "sse", "text/event-stream"):
        table = body_table(body, lang)
        assert table.source == "events"
        assert groups(table) == [
            ("Event 1", [("data", "first line\nsecond line")]),
            ("Event 2 · done", [("event", "done"), ("data[0]", "1"), ("data[1]", "2")]),
        ]


def test_event_stream_without_events_says_why():
    assert body_table(": only a comment", "sse").reason == (
        "the event stream has no events (no event:, data:, id: or retry: lines)"
    )


NDJSON = '{"level":"info","msg":"started"}\n{"level":"warn","msg":"slow","ms":950}\n'


@pytest.mark.parametrize("lang", [None, "ndjson", "jsonl"])
def test_ndjson_is_a_group_per_line(lang):
    table = body_table(NDJSON, lang)
    assert table.source == "ndjson"
    assert groups(table) == [
        ("Line 1", [("level", "info"), ("msg", "started")]),
        ("Line 2", [("level", "warn"), ("msg", "slow"), ("ms", "950")]),
    ]


def test_ndjson_by_content_type_and_a_bad_line():
    http = "HTTP/1.1 200 OK\nContent-Type: application/x-ndjson\n\n" + NDJSON
    assert [title for title, _ in groups(body_table(http))] == ["Headers", "Line 1", "Line 2"]
    assert body_table('{"a": 1}\nnope', "ndjson").reason == (
        "line 2 of the JSON Lines is not JSON: the body is not valid JSON:"
        " Expecting value at line 2, column 1"
    )


def test_form_body_by_content_type():
    head = "POST /login HTTP/1.1\nContent-Type: application/x-www-form-urlencoded\n\n"
    body = head + "user=ada&next=%2Fhome"
    assert groups(body_table(body))[1] == ("Body", [("user", "ada"), ("next", "/home")])


MULTIPART = """\
POST /upload HTTP/1.1
Content-Type: multipart/form-data; boundary=----WebKitFormBoundary7MA4YWxkTrZu0gW

------WebKitFormBoundary7MA4YWxkTrZu0gW
Content-Disposition: form-data; name="title"

Quarterly report
------WebKitFormBoundary7MA4YWxkTrZu0gW
Content-Disposition: form-data; name="meta"
Content-Type: application/json

{"pages": 12}
------WebKitFormBoundary7MA4YWxkTrZu0gW
Content-Disposition: form-data; name="file"; filename="report.pdf"
Content-Type: application/pdf

%PDF-1.7 ...
------WebKitFormBoundary7MA4YWxkTrZu0gW--"""


def test_multipart_body_is_a_row_per_part():
    table = body_table(MULTIPART)
    assert table.body_reason is None
    assert groups(table)[1] == (
        "Body",
        [
            ("title", "Quarterly report"),
            ("meta.pages", "12"),
            ("file", "report.pdf (application/pdf, 12 bytes)"),
        ],
    )


def test_a_multipart_body_or_file_only_described_is_not_read_as_its_description():
    """An import writes a body it does not carry as `(N bytes of TYPE)`: a file part so was
    "(image/png, 27 bytes)", the length of the words; a whole body so was "no parts for its
    boundary", as if it were broken."""
    described = MULTIPART.replace("%PDF-1.7 ...", "(12,345 bytes of application/pdf)")
    assert groups(body_table(described))[1][1][2] == (
        "file",
        "report.pdf (application/pdf, 12,345 bytes)",
    )
    header = MULTIPART.split("\n\n", 1)[0]
    whole = body_table(f"{header}\n\n(796 bytes of multipart/form-data, not shown)")
    assert whole.body_reason == "it was not carried, only described"


def test_multipart_pasted_without_its_header_finds_the_boundary():
    body = MULTIPART.split("\n\n", 1)[1]
    assert body_table(body).source == "multipart"
    assert values(body_table(body, "multipart"))[0] == ("title", "Quarterly report")


def test_multipart_without_a_boundary_says_why():
    body = "POST /u HTTP/1.1\nContent-Type: multipart/form-data\n\nhello"
    assert body_table(body).body_reason == (
        "no table for a multipart body without a boundary"
        " (a Content-Type header with boundary=, or a first line --boundary)"
    )


# A HAR entry copied from DevTools ("Copy as HAR") and pasted as a body.
HAR_ENTRY = {
    "startedDateTime": "2024-05-01T10:00:00.000Z",
    "request": {
        "method": "POST",
        "url": "https://api.example.com/v1/items?draft=1",
        "httpVersion": "HTTP/2",
        "headers": [{"name": "content-type", "value": "application/json"}],
        "postData": {"mimeType": "application/json", "text": '{"name": "pen"}'},
    },
    "response": {
        "status": 201,
        "statusText": "Created",
        "httpVersion": "HTTP/2",
        "headers": [{"name": "content-type", "value": "application/json"}],
        "content": {"mimeType": "application/json", "text": '{"id": 7}'},
    },
}


@pytest.mark.parametrize("lang", [None, "json"])
def test_har_entry_pasted_as_json_reads_as_its_request_and_response(lang):
    table = body_table(json.dumps(HAR_ENTRY, indent=2), lang)
    assert table.start is not None and table.start.method == "POST"
    assert groups(table) == [
        ("Request headers", [("content-type", "application/json")]),
        ("Request body", [("name", "pen")]),
        (
            "Response headers",
            [("status", "HTTP/2 201 Created"), ("content-type", "application/json")],
        ),
        ("Response body", [("id", "7")]),
    ]
    assert not any("headers[0]" in row.key for row in table.rows)


# --- Any input ----------------------------------------------------------------------------------

LANGS = st.sampled_from([None, "json", "http", "yaml", "xml", "text", "form", ""])
PIECES = st.sampled_from(
    [
        "{",
        "}",
        "[",
        "]",
        '"',
        ":",
        ",",
        "\n",
        " ",
        "\t",
        "\\",
        "a",
        "1",
        "-",
        ".",
        "e",
        "=",
        "&",
        "%",
        "+",
        "true",
        "null",
        "NaN",
        "HTTP/1.1",
        "POST / ",
        "Content-Type: ",
        "application/json",
        "\n\n",
        "\r",
        "\ud800",
        "é",
    ]
)


@settings(max_examples=400, deadline=None)
@given(st.one_of(st.text(), st.lists(PIECES).map("".join)), LANGS)
def test_any_text_gives_a_table_or_a_reason(body, lang):
    table = body_table(body, lang)
    assert isinstance(table, Table)
    assert bool(table.rows) == (table.reason is None)
    for row in table.rows:
        (row.key + row.value).encode("utf-8")


@settings(max_examples=200, deadline=None)
@given(
    st.recursive(
        st.none() | st.booleans() | st.integers() | st.text(),
        lambda inner: st.lists(inner) | st.dictionaries(st.text(), inner),
    )
)
def test_parsed_and_python_values_flatten_alike(value):
    """The lossless parse of a document gives the rows its Python value gives."""
    assert body_table(json.dumps(value), "json").rows == flatten_json(value)


def test_blank_lines_before_a_body_or_a_notes_first_words_mean_nothing():
    """ "Blank lines separate nothing and mean nothing, except inside a fenced body": not
    between `in:` and its fence or indented lines, nor before a note's text."""
    diagram = volley.parse(
        'A -> B: call\nin: Request\n\n```json\n{"id": 1}\n```\nout: Reply\n\n\n  k: v\n'
        "note:\n\ntext\nB -> A: ok\n"
    )
    message = diagram.messages()[0]
    assert message.request is not None and message.request.body == '{"id": 1}'
    assert message.response is not None and message.response.body == "k: v"
    assert diagram.items[1].text == "text"


def test_an_indented_body_loses_the_columns_its_lines_share_tabs_and_spaces_alike():
    """A tab counts to the next multiple of four: `\\tk` and `    k2` share four columns."""
    diagram = volley.parse("A -> B\nin:\n\tk: v\n    k2: v2\n      k3\n")
    assert diagram.messages()[0].request.body == "k: v\nk2: v2\n  k3"
