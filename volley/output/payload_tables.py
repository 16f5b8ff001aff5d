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
- A form (`lang` form / urlencoded): a row per field, percent-decoded.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import asdict, dataclass, field
from decimal import Decimal
from typing import Any, Literal
from urllib.parse import parse_qsl

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
Source = Literal["json", "http", "keyvalue", "form", "none"]

ROOT_KEY = "(value)"  # the key of a row whose value is the whole document (`42`, `{}`)


@dataclass(frozen=True)
class Row:
    """One line of a table. `value` is display text: JSON strings unquoted, numbers as written."""

    key: str
    value: str
    kind: RowKind
    section: Section

    def to_json(self) -> dict:
        return {"key": self.key, "value": self.value, "kind": self.kind, "section": self.section}


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
            "start": asdict(self.start) if self.start else None,
        }


def payload_table(payload: Payload) -> Table:
    """The table for a message's `in:` or `out:` body."""
    return body_table(payload.body, payload.lang)


def body_table(body: str, lang: str | None = None) -> Table:
    """The table for a body and its fence language; never raises, whatever the text."""
    if not body.strip():
        return _no_table("the body is empty")
    name = _lang_name(lang)
    if name in _JSON_LANGS:
        return _json_table(body)
    if name in _HTTP_LANGS:
        return _http_table(body, declared=True)
    if name in _FORM_LANGS:
        return _form_table(body)
    return _sniffed_table(body, name)


# --- JSON -------------------------------------------------------------------------------------


class _Number(str):
    """A JSON number kept as written, so `1.0`, `1e3` and 40-digit ids survive unchanged."""


class _Object(list):
    """A JSON object as its (key, value) pairs, so duplicate keys keep every row, in order."""


def _load_json(text: str) -> Any:
    """Parse losslessly: numbers as their source text, objects as lists of pairs."""
    return json.loads(
        text,
        object_pairs_hook=_Object,
        parse_int=_Number,
        parse_float=_Number,
        parse_constant=_Number,  # NaN, Infinity, -Infinity: shown as written
    )


def _json_table(text: str, line_offset: int = 0) -> Table:
    """JSON rows, or the parser's complaint with a line and column inside the payload."""
    try:
        value = _load_json(text)
    except RecursionError:  # the standard parser recurses once per level of nesting
        return _no_table("the JSON is nested too deeply to show as a table")
    except json.JSONDecodeError as error:
        return _no_table(
            f"the body is not valid JSON: {error.msg} "
            f"at line {error.lineno + line_offset}, column {error.colno}"
        )
    return Table(flatten_json(value), "json")


def flatten_json(value: Any) -> list[Row]:
    """One row per leaf of a JSON value, in document order, keyed by its path.

    Takes what `json.loads` returns (dicts, lists, str, int, float, bool, None, Decimal) as
    well as this module's lossless parse. Walks with an explicit stack, so depth is no limit.
    """
    if not _is_branch(value):
        return [_leaf(ROOT_KEY, value)]
    rows: list[Row] = []
    path: list[str] = []  # a segment per open branch below the root
    stack: list[Iterator[tuple[str, Any]]] = [_children(value)]
    while stack:
        for segment, child in stack[-1]:
            if _is_branch(child):
                path.append(segment)
                stack.append(_children(child))
                break
            rows.append(_leaf(_join_path(path, segment), child))
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


_IDENTIFIER = re.compile(r"(?:[^\W\d]|\$)[\w$]*")


def _key_segment(key: str) -> str:
    """`.name` for identifier-like keys, else `["quoted key"]` (JSON string syntax)."""
    if _IDENTIFIER.fullmatch(key):
        return "." + key
    return "[" + json.dumps(key, ensure_ascii=False) + "]"


def _join_path(path: list[str], last: str) -> str:
    joined = "".join(path) + last
    return joined[1:] if joined.startswith(".") else joined


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
        return hex(value)


# --- HTTP -------------------------------------------------------------------------------------

_TOKEN = r"[!#$%&'*+.^_`|~0-9A-Za-z-]+"
_VERSION = r"HTTP/\d+(?:\.\d+)?"
_REQUEST_LINE = re.compile(rf"(?P<method>{_TOKEN}) +(?P<target>\S+)(?: +(?P<version>{_VERSION}))?")
_STATUS_LINE = re.compile(rf"(?P<version>{_VERSION}) +(?P<status>\d{{3}})(?: +(?P<reason>.*))?")
_HEADER = re.compile(rf"(?P<name>:?{_TOKEN})[ \t]*:[ \t]*(?P<value>.*)")


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


# --- Choosing ---------------------------------------------------------------------------------

_JSON_LANGS = frozenset({"json", "application/json"})
_HTTP_LANGS = frozenset({"http"})
_FORM_LANGS = frozenset({"form", "urlencoded", "x-www-form-urlencoded", _FORM_MEDIA})
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
            return table
        broken_json = table
    lines = body.split("\n")
    if _start_line(lines[_first_filled(lines)], declared=False):
        return _http_table(body, declared=False)
    if name is not None and name not in _YAML_LANGS:
        return _no_table(
            f'no table for lang "{_clean(name)}": only JSON, HTTP and flat "key: value"'
            " bodies are shown as tables"
        )
    rows, other = _key_value_rows(body)
    if rows:
        return Table(rows, "keyvalue")
    if broken_json is not None:
        return broken_json
    if name is not None:
        return _no_table(f'no table for YAML beyond flat "key: value" lines (see line {other})')
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
    return _SURROGATE.sub("\ufffd", text)


def _row(key: str, value: str, kind: RowKind, section: Section) -> Row:
    return Row(_clean(key), _clean(value), kind, section)


def _no_table(reason: str) -> Table:
    return Table([], "none", reason)
