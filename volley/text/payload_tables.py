"""Payload bodies as tables: what the interactive viewer shows when an arrow is clicked.

Pure functions from a body's text (and its fence language) to a `Table` of key/value rows.
Nothing here renders; the HTML viewer and any static appendix draw the rows their own way.
The raw body is always available as written, so a body that gives no table is never an error:
the `Table` says why (`reason`) in words a diagram author can act on.

What gets a table (see "How a body is shown as a table" in the format contract):

- JSON (`lang` json, or any body whose text is a JSON object or array): one row per leaf,
  keyed by its path (`params.capabilities.roots.listChanged`, `tools[0].name`,
  `headers["Content-Type"]`). A bare scalar is one row keyed `(value)`, but only when the body
  is declared JSON: an unlabelled `42` or `true` is more likely prose than data.
- HTTP (`lang` http, or a first line such as `POST /mcp HTTP/1.1` / `HTTP/1.1 200 OK`): the
  start line as one row keyed `request` or `status` (its parts in `Table.start`), a row per
  header, then the body by its Content-Type: JSON flattened, a form split into fields,
  anything else left to the raw view with `Table.body_reason` saying so.
- Flat `key: value` lines (no `lang`, or `yaml`): a row per line.
- A form (`lang` form / urlencoded): a row per field, percent-decoded; a multipart body
  (`multipart/form-data`, or `lang` multipart) a row per part, files by name, type and size.
- Server-sent events (`text/event-stream`, `lang` sse): a row group per event, its `data:`
  JSON flattened under `data`. NDJSON / JSON Lines: a row group per line.
- A `curl -v` transcript (`> ` request lines, `< ` response lines, `* ` info lines ignored,
  as GitHub's docs show a webhook delivery): the request and the response, each in its groups.

Bodies are read as people paste them: the indentation common to every line (an HTTP message
copied from an RFC or a blog post) is removed first.
"""

from __future__ import annotations

import json
import re
import textwrap
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field, replace
from decimal import Decimal
from typing import Any, Literal
from urllib.parse import parse_qsl

from volley.errors import json_reason
from volley.model import Payload

__all__ = [
    "ROOT_KEY",
    "Row",
    "RowKind",
    "Section",
    "Source",
    "StartLine",
    "Table",
    "body_table",
    "content_type",
    "flatten_json",
    "payload_table",
]

RowKind = Literal["string", "number", "boolean", "null", "empty-object", "empty-array", "text"]
Section = Literal["start", "header", "body", "field"]
Source = Literal["json", "http", "keyvalue", "form", "multipart", "events", "ndjson", "none"]

ROOT_KEY = "(value)"  # the key of a row whose value is the whole document (`42`, `{}`)


@dataclass(slots=True)
class Row:
    """One line of a table. `value` is display text: JSON strings unquoted, numbers as written.

    `group` heads the rows that belong together (one event of a stream, one line of NDJSON, the
    response of a transcript); None leaves the heading to `Table.groups`.
    """

    key: str
    value: str
    kind: RowKind
    section: Section
    group: str | None = None

    def to_json(self) -> dict:
        return {
            "key": self.key,
            "value": self.value,
            "kind": self.kind,
            "section": self.section,
            "group": self.group,
        }


@dataclass(frozen=True)
class StartLine:
    """An HTTP request line (method, target, version) or status line (version, status, reason).

    Parts that the line does not have are None: a request written without a version
    (`GET /users`), a status line without a reason phrase (`HTTP/2 204`).
    """

    kind: Literal["request", "status"]
    text: str
    method: str | None = None
    target: str | None = None
    version: str | None = None
    status: str | None = None
    reason: str | None = None

    def to_json(self) -> dict[str, str | None]:
        return {
            "kind": self.kind,
            "text": self.text,
            "method": self.method,
            "target": self.target,
            "version": self.version,
            "status": self.status,
            "reason": self.reason,
        }


@dataclass
class Table:
    """A body as rows, or no rows and the reason why.

    `source` is what the body was recognised as ("none" when nothing was). `reason` is set
    exactly when there are no rows. `body_reason` is set when an HTTP message's head gave rows
    but its body could not (a `text/html` body, JSON that does not parse).
    """

    rows: list[Row] = field(default_factory=list)
    source: Source = "none"
    reason: str | None = None
    body_reason: str | None = None
    start: StartLine | None = None

    def groups(self) -> list[tuple[str | None, list[Row]]]:
        """The rows below the start line, under their headings, in order.

        A row's own `group` heads it; otherwise an HTTP message's rows fall under "Headers"
        and "Body", and other rows under no heading. The start line is shown on its own.
        """
        rows = self.rows
        if self.start is not None and rows and rows[0].section == "start":
            rows = rows[1:]
        groups: list[tuple[str | None, list[Row]]] = []
        for row in rows:
            title = row.group if row.group is not None else self._heading(row)
            if groups and groups[-1][0] == title:
                groups[-1][1].append(row)
            else:
                groups.append((title, [row]))
        return groups

    def _heading(self, row: Row) -> str | None:
        if self.source != "http":
            return None
        return "Headers" if row.section == "header" else "Body"

    @property
    def headers(self) -> list[tuple[str, str]]:
        """The HTTP headers as (name, value) pairs in order; empty for other sources."""
        return [(row.key, row.value) for row in self.rows if row.section == "header"]

    def to_json(self) -> dict:
        return {
            "source": self.source,
            "rows": [row.to_json() for row in self.rows],
            "reason": self.reason,
            "body_reason": self.body_reason,
            "start": self.start.to_json() if self.start else None,
        }


def payload_table(payload: Payload) -> Table:
    """The table for a message's `in:` or `out:` body."""
    return body_table(payload.body, payload.lang)


def body_table(body: str, lang: str | None = None) -> Table:
    """The table for a body and its fence language; never raises, whatever the text."""
    if not body.strip():
        return _no_table("the body is empty")
    body = textwrap.dedent(body)  # an HTTP message pasted with the indentation of its page
    name = _lang_name(lang)
    if name in _JSON_LANGS:
        return _har_entry_table(body) or _json_table(body)
    if name in _NDJSON_LANGS:
        return _ndjson_table(body)
    if name in _EVENT_STREAM_LANGS:
        return _event_stream_table(body)
    if name in _MULTIPART_LANGS:
        return _multipart_table(body, None)
    if name in _FORM_LANGS:
        return _form_table(body)
    if (name is None or name in _TRANSCRIPT_LANGS) and _is_transcript(body):
        return _transcript_table(body)
    if name in _HTTP_LANGS:
        return _http_table(body, declared=True)
    return _sniffed_table(body, name)


# --- JSON -------------------------------------------------------------------------------------


class _Number(str):
    """A JSON number kept as written, so `1.0`, `1e3` and 40-digit ids survive unchanged."""


class _Object(list):
    """A JSON object as its (key, value) pairs, so duplicate keys keep every row, in order."""


class _NotJson(ValueError):
    """A value Python's parser takes but JSON has not: NaN, Infinity, -Infinity."""


def _constant(name: str) -> Any:
    raise _NotJson(f"{name} is not a JSON value (JSON has no NaN or Infinity)")


# One decoder for every body: `json.loads` with options makes a new one each time.
_LOSSLESS = json.JSONDecoder(
    object_pairs_hook=_Object,
    parse_int=_Number,
    parse_float=_Number,
    parse_constant=_constant,  # what Python's json.dumps writes for a float it cannot
)


def _load_json(text: str) -> Any:
    """Parse losslessly: numbers as their source text, objects as lists of pairs. A body that
    starts with a byte order mark is refused as `json.loads` refuses it, by name."""
    if text[:1] == "\ufeff":
        raise json.JSONDecodeError("Unexpected UTF-8 BOM (decode using utf-8-sig)", text, 0)
    return _LOSSLESS.decode(text)


def cut_note(cut: int, total: int) -> str:
    """The line that ends a body an import cut short: how much is left out of how much."""
    return f"… {cut:,} more characters cut ({total:,} in all)"


_CUT_NOTE = re.compile(r"\n… ([0-9,]+) more characters cut \([0-9,]+ in all\)\s*\Z")


def _json_table(text: str, line_offset: int = 0) -> Table:
    """JSON rows, or the parser's complaint with a line and column inside the payload; a body
    an import cut short says so, not that it is no JSON."""
    cut = _CUT_NOTE.search(text)
    if cut is not None:
        return _no_table(
            f"the body was cut short on import ({cut[1]} more characters left out): the raw "
            "view shows what was kept"
        )
    try:
        value = _load_json(text)
    except RecursionError:  # the standard parser recurses once per level of nesting
        return _no_table("the JSON is nested too deeply to show as a table")
    except json.JSONDecodeError as error:
        return _no_table(
            f"the body is not valid JSON: {json_reason(error.msg)} "
            f"at line {error.lineno + line_offset}, column {error.colno}"
        )
    except _NotJson as error:
        return _no_table(f"the body is not valid JSON: {error}")
    return Table(flatten_json(value), "json")


def flatten_json(value: Any) -> list[Row]:
    """One row per leaf of a JSON value, in document order, keyed by its path.

    Takes what `json.loads` returns (dicts, lists, str, int, float, bool, None, Decimal) as
    well as this module's lossless parse. Walks with an explicit stack, so depth is no limit.
    """
    if not _is_branch(value):
        return [_leaf(ROOT_KEY, value)]
    rows: list[Row] = []
    # Per open branch, its children still to walk; `path`, the segments that lead to the
    # innermost (one a branch below the value), so that a deep value's paths are not copied
    # at every level.
    stack: list[Iterator[tuple[str, Any]]] = [_children(value)]
    path: list[str] = []
    while stack:
        for segment, child in stack[-1]:
            if _is_branch(child):
                stack.append(_children(child))
                path.append(segment)
                break
            rows.append(_leaf(_key("".join(path) + segment), child))
        else:
            stack.pop()
            if path:
                path.pop()
    return rows


def _is_branch(value: Any) -> bool:
    """A container with something in it; empty ones are leaves shown as `{}` / `[]`."""
    return isinstance(value, (dict, list, tuple)) and len(value) > 0


def _children(value: Any) -> Iterator[tuple[str, Any]]:
    if isinstance(value, _Object):
        return ((_key_segment(key), child) for key, child in value)
    if isinstance(value, dict):
        return ((_key_segment(str(key)), child) for key, child in value.items())
    return ((f"[{index}]", child) for index, child in enumerate(value))


def _key_segment(key: str) -> str:
    """`.name` for identifier-like keys (as JavaScript reads them: letters of any script with
    their marks, digits after the first, `_` and `$`, and the joiners after the first, as a
    Persian word holds them: `شماره‌کارت`), else `["quoted key"]` (JSON syntax)."""
    if (key[:1] + key[1:].translate(_JOINERS)).replace("$", "_").isidentifier():
        return "." + key
    return "[" + json.dumps(key, ensure_ascii=False) + "]"


_JOINERS = str.maketrans("\u200c\u200d", "__")  # ZWNJ, ZWJ


def _key(path: str) -> str:
    """A row's key: its path, without the dot of a first segment (`result.id`, not `.result.id`)."""
    return path[1:] if path.startswith(".") else path


def _leaf(key: str, value: Any) -> Row:
    text, kind = _scalar(value)
    return _row(key, text, kind, "body")


def _scalar(value: Any) -> tuple[str, RowKind]:
    """The display text and kind of a leaf (bool before int: True is an int in Python)."""
    if isinstance(value, _Number):
        return str(value), "number"
    if isinstance(value, str):
        return value, "string"
    if value is None:
        return "null", "null"
    if isinstance(value, bool):
        return ("true" if value else "false"), "boolean"
    if isinstance(value, (int, float, Decimal)):
        return _number_text(value), "number"
    if isinstance(value, (dict, _Object)):
        return "{}", "empty-object"
    if isinstance(value, (list, tuple)):
        return "[]", "empty-array"
    return str(value), "string"


def _number_text(value: int | float | Decimal) -> str:
    if isinstance(value, float):
        return json.dumps(value)  # NaN and Infinity spelled as JSON readers spell them
    try:
        return str(value)
    except ValueError:  # an int beyond Python's digit limit for str()
        return hex(int(value))


# --- HTTP -------------------------------------------------------------------------------------

_TOKEN = r"[!#$%&'*+.^_`|~0-9A-Za-z-]+"
_VERSION = r"HTTP/\d+(?:\.\d+)?"
_REQUEST_LINE = re.compile(rf"(?P<method>{_TOKEN}) +(?P<target>\S+)(?: +(?P<version>{_VERSION}))?")
_STATUS_LINE = re.compile(rf"(?P<version>{_VERSION}) +(?P<status>\d{{3}})(?: +(?P<reason>.*))?")
# A header's name: HTTP's token, and letters of any script, which documentation writes
# (`X-Имя`) though HTTP/1.1 would refuse them; never a JSON line's `{"` or `["`.
# A header: a name of any characters but HTTP's delimiters and spaces (RFC 9110's token, letters
# of any script with their marks too: `X-Café`, decomposed as macOS writes it)
_HEADER = re.compile(r'(?P<name>:?[^\s"(),/:;<=>?@\[\\\]{}]+)[ \t]*:[ \t]*(?P<value>.*)')


def _start_line(line: str, declared: bool) -> StartLine | None:
    """Parse a start line.

    A request without a version (`GET /users`) counts only in a declared `http` body, and only
    with an upper-case method, so that prose is not taken for a request.
    """
    text = line.strip()
    status = _STATUS_LINE.fullmatch(text)
    if status:
        return StartLine("status", text, **_parts(status, "version", "status", "reason"))
    request = _REQUEST_LINE.fullmatch(text)
    if request and (request["version"] or (declared and request["method"].isupper())):
        return StartLine("request", text, **_parts(request, "method", "target", "version"))
    return None


def _parts(match: re.Match[str], *names: str) -> dict[str, str | None]:
    return {name: _clean(match[name].strip()) if match[name] else None for name in names}


def _http_table(body: str, declared: bool) -> Table:
    """Start line, headers, then the body by its Content-Type.

    The head ends at the first blank line, or leniently at the first line that is not a header
    (a forgotten blank line before a JSON body). A header line starting with white space
    continues the one before (obsolete line folding).
    """
    lines = body.split("\n")
    first = _first_filled(lines)
    start = _start_line(lines[first], declared)
    if start is None and not _HEADER.fullmatch(lines[first].rstrip("\r")):
        return _no_table(
            "the first line is not an HTTP request line (POST /mcp HTTP/1.1)"
            " or status line (HTTP/1.1 200 OK)"
        )
    rows = [_row(start.kind, start.text, "text", "start")] if start else []
    headers, body_at = _headers(lines, first + 1 if start else first)
    rows += [_row(name, value, "text", "header") for name, value in headers]
    table = Table(rows, "http", start=start)
    _add_http_body(table, headers, "\n".join(lines[body_at:]), body_at)
    return table


def _headers(lines: list[str], first: int) -> tuple[list[tuple[str, str]], int]:
    """The (name, value) headers from `first` on, and the index of the body's first line."""
    headers: list[tuple[str, str]] = []
    for index in range(first, len(lines)):
        line = lines[index].rstrip("\r")
        if not line.strip():
            return headers, index + 1
        if line[0] in " \t" and headers:
            name, value = headers[-1]
            headers[-1] = (name, f"{value} {line.strip()}".strip())
            continue
        match = _HEADER.fullmatch(line)
        if not match:
            return headers, index
        headers.append((match["name"], match["value"].strip()))
    return headers, len(lines)


def _add_http_body(table: Table, headers: list[tuple[str, str]], text: str, line: int) -> None:
    """Append the body's rows to `table`, or say in `body_reason` why there are none."""
    if not text.strip():
        return
    media = content_type(headers)
    if media is None:
        sub = _json_table(text, line) if _opens_like_json(text) else None
        if sub is None:
            table.body_reason = "no table for a body without a Content-Type header"
    elif _is_json_media(media):
        sub = _json_table(text, line)
    elif media == _FORM_MEDIA:
        sub = _form_table(text)
    elif media in _NDJSON_LANGS:
        sub = _ndjson_table(text)
    elif media == _EVENT_STREAM_MEDIA:
        sub = _event_stream_table(text)
    elif media.startswith("multipart/"):
        sub = _multipart_table(text, _header_value(headers, "content-type"))
    else:
        sub = None
        table.body_reason = f"no table for a {_clean(media)} body"
    if sub is not None:
        table.rows += sub.rows
        table.body_reason = sub.reason


def content_type(headers: Iterable[tuple[str, str]] | Mapping[str, str]) -> str | None:
    """The media type of the first Content-Type header, lower-cased, without parameters.

    `application/json; charset=utf-8` gives `application/json`; no header (or an empty one)
    gives None. Header names match case-insensitively, as in HTTP.
    """
    pairs = headers.items() if isinstance(headers, Mapping) else headers
    for name, value in pairs:
        if name.lower() == "content-type":
            media = value.split(";", 1)[0].strip().lower()
            return media or None
    return None


def _is_json_media(media: str) -> bool:
    """application/json, text/json, and every structured `+json` type (problem+json, …)."""
    subtype = media.partition("/")[2]
    return subtype == "json" or subtype.endswith("+json")


# --- Forms and key: value lines ---------------------------------------------------------------

_FORM_MEDIA = "application/x-www-form-urlencoded"


def _form_table(text: str) -> Table:
    """A row per `name=value` field, `+` and percent escapes decoded (bad UTF-8 replaced)."""
    fields = parse_qsl(text.strip(), keep_blank_values=True)
    rows = [_row(name, value, "text", "field") for name, value in fields]
    return Table(rows, "form") if rows else _no_table("the form has no fields")


def _key_value(line: str) -> tuple[str, str] | None:
    """Split `key: value`; the key starts the line with a letter, digit or one of `_$@`.

    As in YAML the colon is followed by white space or the line's end, which keeps
    `https://host` and `{"a": 1}` from reading as keys. The value may be empty.
    """
    key, colon, value = line.partition(":")
    key = key.rstrip()
    if not (colon and key and (key[0].isalnum() or key[0] in "_$@")):
        return None
    if value[:1] not in ("", " ", "\t", "\r"):
        return None
    return key, value.strip()


def _key_value_rows(text: str) -> tuple[list[Row], int | None]:
    """A row per `key: value` line, or no rows and the 1-based number of the first other line."""
    rows: list[Row] = []
    for number, line in enumerate(text.split("\n"), start=1):
        if not line.strip():
            continue
        pair = _key_value(line)
        if pair is None:
            return [], number
        rows.append(_row(*pair, "text", "field"))
    return rows, None


# --- Streams: server-sent events and NDJSON ---------------------------------------------------

_EVENT_STREAM_MEDIA = "text/event-stream"
_EVENT_FIELD = re.compile(r"(?P<name>event|data|id|retry)(?::[ ]?(?P<value>.*))?")


def _event_stream_table(text: str) -> Table:
    """A row group per event (WHATWG server-sent events): `event`, `id` and `retry` as fields,
    the `data:` lines joined and, when they are JSON, flattened under `data`. Comment lines
    (`: keep-alive`) and unknown fields are skipped, as an EventSource skips them.
    """
    rows: list[Row] = []
    number = 0
    fields: list[tuple[str, str]] = []
    for line in [*text.split("\n"), ""]:
        line = line.rstrip("\r")
        if line.strip():
            match = _EVENT_FIELD.fullmatch(line)
            if match:
                fields.append((match["name"], match["value"] or ""))
            continue
        if fields:
            number += 1
            rows += _event_rows(number, fields)
            fields = []
    if not rows:
        return _no_table("the event stream has no events (no event:, data:, id: or retry: lines)")
    return Table(rows, "events")


def _event_rows(number: int, fields: list[tuple[str, str]]) -> list[Row]:
    kind = next((value for name, value in fields if name == "event"), "")
    group = f"Event {number}" + (f" · {_clean(kind)}" if kind else "")
    rows = [_row(name, value, "text", "field", group) for name, value in fields if name != "data"]
    data = [value for name, value in fields if name == "data"]
    if data:
        rows += _prefixed_json_rows("data", "\n".join(data), group)
    return rows


def _prefixed_json_rows(prefix: str, text: str, group: str | None) -> list[Row]:
    """JSON rows keyed under `prefix` (`data.result.content[0].text`), or one text row."""
    try:
        value = _load_json(text) if _opens_like_json(text) else None
    except (ValueError, RecursionError):  # ValueError: a JSONDecodeError or a NaN
        value = None
    if value is None:
        return [_row(prefix, text, "text", "body", group)]
    rows = []
    for row in flatten_json(value):
        key = (
            prefix
            if row.key == ROOT_KEY
            else _key(prefix + (row.key if row.key.startswith("[") else "." + row.key))
        )
        rows.append(replace(row, key=key, group=group))
    return rows


def _ndjson_table(text: str) -> Table:
    """A row group per line of newline-delimited JSON (NDJSON, JSON Lines)."""
    rows: list[Row] = []
    for number, line in enumerate(text.split("\n"), start=1):
        if not line.strip():
            continue
        table = _json_table(line)
        if not table.rows:
            reason = (table.reason or "").replace("at line 1,", f"at line {number},")
            return _no_table(f"line {number} of the JSON Lines is not JSON: {reason}")
        rows += [replace(row, group=f"Line {number}") for row in table.rows]
    return Table(rows, "ndjson") if rows else _no_table("the JSON Lines body has no lines")


def _is_ndjson(text: str) -> bool:
    """Two or more lines, each a JSON object or array on its own."""
    lines = [line for line in text.split("\n") if line.strip()]
    return len(lines) > 1 and all(
        _opens_like_json(line) and _json_table(line).rows for line in lines
    )


def _is_event_stream(text: str) -> bool:
    """Only `event:`/`data:`/`id:`/`retry:` fields and `:` comments, with some `data:`, that
    say they are events: an `event:` line, or a blank line between two events. (`data: a`
    and `data: b` alone are `key: value` lines, a row each.)"""
    lines = [line.rstrip("\r") for line in text.strip("\n").split("\n")]
    filled = [line for line in lines if line.strip()]
    fields = [_EVENT_FIELD.fullmatch(line) for line in filled if not line.startswith(":")]
    if not all(match is not None and match["value"] is not None for match in fields):
        return False
    names = {match["name"] for match in fields if match is not None}
    return "data" in names and ("event" in names or len(filled) < len(lines))


# --- Multipart --------------------------------------------------------------------------------


def _multipart_table(text: str, header: str | None) -> Table:
    """A row per part of a multipart body, named by its `Content-Disposition` name.

    The boundary comes from the Content-Type header, or else from the body's first line
    (`--boundary`). The standard library's MIME parser splits the parts. A file part shows its
    file name, type and size; a JSON part is flattened under its name.
    """
    if header is None or "boundary=" not in header.lower():
        first = text.lstrip().split("\n", 1)[0].rstrip("\r")
        if not first.startswith("--") or len(first) < 3:
            return _no_table(
                "no table for a multipart body without a boundary"
                " (a Content-Type header with boundary=, or a first line --boundary)"
            )
        header = f'multipart/form-data; boundary="{first[2:]}"'
    # The MIME parser (the email package) is loaded by the few bodies that need it, not by
    # every render that shows a table.
    from email import policy
    from email.parser import Parser

    # `(796 bytes of multipart/form-data, not shown)`
    if re.compile(_DESCRIBED).fullmatch(text.strip()):
        return _no_table("it was not carried, only described")
    message = Parser(policy=policy.HTTP).parsestr(f"Content-Type: {header}\n\n{text.lstrip()}")
    parts = list(message.iter_parts()) if message.is_multipart() else []
    if not parts:
        return _no_table("the multipart body has no parts for its boundary")
    rows: list[Row] = []
    for index, part in enumerate(parts, start=1):
        name = part.get_param("name", header="content-disposition") or f"(part {index})"
        name = str(name)
        content = part.get_payload()
        content = content if isinstance(content, str) else ""
        filename = part.get_filename()
        media = part.get_content_type()
        if filename:
            described = re.compile(_DESCRIBED).fullmatch(content.strip())
            size = (
                described["size"]
                if described
                else str(len(content.encode("utf-8", "surrogatepass")))
            )
            rows.append(_row(name, f"{filename} ({media}, {size} bytes)", "text", "field"))
        elif _is_json_media(media):
            rows += [
                replace(row, section="field") for row in _prefixed_json_rows(name, content, None)
            ]
        else:
            rows.append(_row(name, content, "text", "field"))
    return Table(rows, "multipart")


# A body, or a file part, only described, as the importers write one they do not carry:
# `(12,345 bytes of image/png)`, `(796 bytes of multipart/form-data, not shown)`
_DESCRIBED = r"\((?P<size>\d[\d,]*) bytes of [^()\n]+\)"


def _is_multipart(text: str) -> bool:
    """A first line `--boundary` followed by a Content-Disposition header."""
    lines = text.lstrip().split("\n", 2)
    return (
        len(lines) > 1
        and lines[0].startswith("--")
        and lines[1].lower().startswith("content-disposition:")
    )


# --- curl -v transcripts ----------------------------------------------------------------------

_TRANSCRIPT_LANGS = frozenset({"http", "text", "console", "shell", "sh", "bash", "curl"})


def _transcript_lines(body: str) -> tuple[list[str], list[str]]:
    """The request's lines (`> `) and the response's (`< `, then the body curl prints bare).

    `* ` lines are curl's own news (connecting, TLS) and `{ [` / `} [` its data markers; a
    bare blank line between quoted ones (GitHub's docs put them there) is dropped.
    """
    request: list[str] = []
    response: list[str] = []
    for line in body.split("\n"):
        marker = line[:1]
        rest = line[2:] if line[1:2] == " " else line[1:]
        if marker == "*" and line[1:2] in ("", " ") or line.startswith(("{ [", "} [")):
            continue
        if marker == ">":
            request.append(rest)
        elif marker == "<":
            response.append(rest)
        elif response:
            response.append(line)
        elif line.strip():
            request.append(line)
    return request, response


def _is_transcript(body: str) -> bool:
    """Starts with a `* `, `> ` or `< ` line and quotes an HTTP start line after `> ` or `< `."""
    lines = body.split("\n")
    first = lines[_first_filled(lines)]
    if first[:2] not in ("* ", "> ", "< ") and first.rstrip() not in ("*", ">", "<"):
        return False
    return any(line[:2] in ("> ", "< ") and _start_line(line[2:], declared=False) for line in lines)


def _transcript_table(body: str) -> Table:
    """The request and the response of a `curl -v` transcript, each as an HTTP message."""
    request, response = _transcript_lines(body)
    return _exchange_table("\n".join(request), "\n".join(response))


def _exchange_table(request: str, response: str) -> Table:
    """A request and its response as one table: each side's head and body in its own group."""
    rows: list[Row] = []
    reasons: list[str] = []
    start: StartLine | None = None
    for side, text in (("Request", request), ("Response", response)):
        if not text.strip():
            continue
        table = _http_table(text, declared=True)
        start = start or table.start
        if not table.rows:
            reasons.append(f"the {side.lower()}: {table.reason}")
        if table.body_reason:
            reasons.append(f"{side.lower()} body: {table.body_reason}")
        for row in table.rows:
            part = "headers" if row.section in ("start", "header") else "body"
            rows.append(replace(row, group=f"{side} {part}"))
    if not rows:
        return _no_table("; ".join(reasons) or "the transcript quotes no HTTP message")
    return Table(rows, "http", body_reason="; ".join(reasons) or None, start=start)


# --- A HAR entry pasted as JSON ---------------------------------------------------------------


# The members of a HAR 1.2 entry (a tool's own start with "_": `_resourceType`)
_HAR_ENTRY_KEYS = frozenset(
    {"pageref", "startedDateTime", "time", "request", "response", "cache", "timings",
     "serverIPAddress", "connection", "comment"}
)  # fmt: skip
_HTTP_METHOD = r"[A-Za-z]+"  # GET, POST, PROPFIND: not a JSON-RPC `tools/call`


def _har_entry_table(text: str) -> Table | None:
    """A HAR 1.2 entry (`{"request": {...}, "response": {...}}`) read as the HTTP it records.

    Flattened as plain JSON it would be rows such as `request.headers[0].name`; people who
    paste one from DevTools mean the request and the response. None when it is not an entry.
    """
    if '"request"' not in text:
        return None
    try:
        entry = json.loads(text, parse_constant=_constant)
    except (ValueError, RecursionError):  # ValueError: also an int too long to convert
        return None
    if not isinstance(entry, dict) or any(
        key not in _HAR_ENTRY_KEYS and not key.startswith("_") for key in entry
    ):
        return None  # an object with keys of its own (`"id"`, `"note"`) is plain JSON
    request = entry.get("request")
    if not (
        isinstance(request, dict)
        and isinstance(request.get("method"), str)
        and re.compile(_HTTP_METHOD).fullmatch(request["method"])
        and isinstance(request.get("url"), str)
        and isinstance(request.get("headers"), list)
    ):
        return None
    response = entry.get("response")
    version = str(request.get("httpVersion") or "HTTP/1.1")
    request_text = _har_message(
        f"{request['method']} {request['url']} {version}",
        request["headers"],
        request.get("postData"),
    )
    response_text = ""
    if isinstance(response, dict) and response.get("status"):
        line = f"{response.get('httpVersion') or version} {response['status']}"
        line += f" {response['statusText']}" if response.get("statusText") else ""
        response_text = _har_message(line, response.get("headers"), response.get("content"))
    return _exchange_table(request_text, response_text)


def _har_message(start: str, headers: Any, content: Any) -> str:
    """An HTTP message's text from a HAR start line, header list and postData/content."""
    lines = [start]
    for header in headers if isinstance(headers, list) else []:
        if isinstance(header, dict) and header.get("name"):
            lines.append(f"{header['name']}: {header.get('value', '')}")
    body = content.get("text") if isinstance(content, dict) else None
    if isinstance(body, str) and body and content.get("encoding") != "base64":
        lines += ["", body]
    return "\n".join(lines)


# --- Choosing ---------------------------------------------------------------------------------

_JSON_LANGS = frozenset({"json", "application/json"})
_HTTP_LANGS = frozenset({"http"})
_FORM_LANGS = frozenset({"form", "urlencoded", "x-www-form-urlencoded", _FORM_MEDIA})
_NDJSON_LANGS = frozenset(
    {"ndjson", "jsonl", "jsonlines", "application/x-ndjson", "application/jsonl",
     "application/x-jsonlines", "application/ndjson"}
)  # fmt: skip
_EVENT_STREAM_LANGS = frozenset({"sse", "event-stream", _EVENT_STREAM_MEDIA})
_MULTIPART_LANGS = frozenset({"multipart", "multipart/form-data", "multipart/mixed"})
_YAML_LANGS = frozenset({"yaml", "yml"})


def _lang_name(lang: str | None) -> str | None:
    """The fence language's first word, lower-cased (`JSON`, `json title=x` → `json`)."""
    words = (lang or "").split()
    return words[0].lower() if words else None


def _sniffed_table(body: str, name: str | None) -> Table:
    """An unlabelled body, or one in a language with no table of its own: look at the text.

    A declared language other than YAML only yields to JSON and HTTP that read cleanly; an
    unlabelled body that opens like JSON but does not parse gets the parser's complaint.
    """
    broken_json = None
    if _opens_like_json(body):
        table = _json_table(body)
        if table.rows:
            return _har_entry_table(body) or table
        if _is_ndjson(body):
            return _ndjson_table(body)
        broken_json = table
    lines = body.split("\n")
    if _start_line(lines[_first_filled(lines)], declared=False):
        return _http_table(body, declared=False)
    if _is_event_stream(body):
        return _event_stream_table(body)
    if _is_multipart(body):
        return _multipart_table(body, None)
    if name is not None and name not in _YAML_LANGS:
        return _no_table(
            f'no table for lang "{_clean(name)}": only JSON, HTTP, forms, event streams,'
            ' JSON Lines and flat "key: value" bodies are shown as tables'
        )
    rows, other = _key_value_rows(body)
    if rows:
        return Table(rows, "keyvalue")
    if broken_json is not None:
        return broken_json
    if name is not None:
        return _no_table(f'no table for YAML beyond flat "key: value" lines (see line {other})')
    value = _json_table(body)
    if value.rows:  # `true`, `42`, `"ok"`: a body that parses as JSON, one value alone
        return value
    return _no_table('no table: the body is not JSON, HTTP or "key: value" lines')


def _opens_like_json(text: str) -> bool:
    return text.lstrip()[:1] in ("{", "[")


def _first_filled(lines: list[str]) -> int:
    """The index of the first line with something on it (0 when there is none)."""
    return next((index for index, line in enumerate(lines) if line.strip()), 0)


# --- Shared -----------------------------------------------------------------------------------

_SURROGATE = re.compile(r"[\ud800-\udfff]")


def _clean(text: str) -> str:
    """Replace lone surrogates (from `\\ud800` escapes) so every row encodes as UTF-8."""
    return text if text.isascii() else _SURROGATE.sub("\ufffd", text)


def _row(key: str, value: str, kind: RowKind, section: Section, group: str | None = None) -> Row:
    return Row(_clean(key), _clean(value), kind, section, group)


def _header_value(headers: list[tuple[str, str]], name: str) -> str | None:
    """The first value of a header, matched case-insensitively."""
    return next((value for key, value in headers if key.lower() == name), None)


def _no_table(reason: str) -> Table:
    return Table([], "none", reason)
