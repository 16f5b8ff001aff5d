"""HAR 1.2 captures as diagrams: what a browser's DevTools, mitmproxy, Charles or Insomnia saved.

One lane for the client and one per host; each entry a request from the client to its host
carrying the HTTP request as its `in:` payload, and the reply back carrying the response as
`out:`. A request that got no answer (status 0) is a lost message, with the reason the capture
gives. HAR pages become sections. What a reader of a diagram rarely wants is left out unless
asked for: static assets, the headers every browser sends, bodies past a length.

The HAR format: http://www.softwareishard.com/blog/har-12-spec/ (W3C draft "HTTP Archive").
"""

from __future__ import annotations

import base64
import binascii
import fnmatch
import http
import json
import os
import re
import unicodedata
import zlib
from collections.abc import Sequence
from contextlib import suppress
from dataclasses import replace
from datetime import datetime, timedelta, timezone
from email.message import EmailMessage
from typing import Any
from urllib.parse import SplitResult, quote_plus, unquote, urlencode, urljoin, urlsplit

from volley.errors import Diagnostic, VolleyError, counted
from volley.importers import Imported
from volley.importers.labels import (
    cut_body,
    holds_controls,
    json_error,
    label,
    lane_name,
    named_lane,
    note_text,
    pretty_json,
    rpc_request_label,
    rpc_response_label,
)
from volley.importers.log_records import is_message
from volley.importers.traffic import HAR_MAX_BODY, TrafficOptions, imported
from volley.model import Diagram, Divider, Item, Message, Note, Payload

__all__ = ["NOISY_HEADERS", "convert", "detect", "import_har"]

# Headers every browser sends or every server answers with, which say nothing about the
# exchange a diagram shows. Dropped unless --keep-headers. A name ending in `-` is a prefix.
NOISY_HEADERS = (
    "sec-ch-", "sec-fetch-", "sec-gpc", "user-agent", "accept-encoding", "accept-language",
    "accept-ranges", "connection", "keep-alive", "cache-control", "pragma", "dnt", "priority",
    "upgrade-insecure-requests", "te", "referer", "date", "age", "expires", "last-modified",
    "etag", "if-none-match", "if-modified-since", "vary", "server", "via", "alt-svc", "x-cache",
    "x-served-by", "x-timer", "x-cache-hits", "cf-ray", "cf-cache-status", "nel", "report-to",
    "reporting-endpoints", "expect-ct", "strict-transport-security", "x-xss-protection",
    "x-content-type-options", "x-frame-options", "content-security-policy",
    "content-security-policy-report-only", "permissions-policy", "cross-origin-",
    "x-download-options", "x-permitted-cross-domain-policies", "server-timing",
)  # fmt: skip

# Static assets, by the response's media type or the path's extension.
_ASSET_MEDIA = ("image/", "font/", "text/css", "audio/", "video/")
_ASSET_SUBTYPES = ("javascript", "ecmascript", "font-woff", "font-woff2", "vnd.ms-fontobject")
_ASSET_EXTENSIONS = (
    ".png", ".jpg", ".jpeg", ".gif", ".webp", ".avif", ".svg", ".ico", ".bmp", ".css", ".js",
    ".mjs", ".map", ".woff", ".woff2", ".ttf", ".otf", ".eot", ".mp4", ".webm", ".mp3",
)  # fmt: skip
_ASSET_TYPES = frozenset({"image", "font", "stylesheet", "script", "media"})  # Chrome's

# The Content-Encodings a body may be sent compressed with.
_CODINGS = frozenset({"gzip", "x-gzip", "deflate", "br", "zstd", "compress"})
# A binary body a capture saved as hexadecimal digits, two a byte.
_HEX = re.compile(r"(?:[0-9a-fA-F]{2})+")
# Text worth showing after base64 decoding; anything else is described, not shown.
_TEXT_MEDIA_WORDS = ("json", "xml", "javascript", "x-www-form-urlencoded", "event-stream",
                     "ndjson", "jsonl", "graphql", "yaml", "csv")  # fmt: skip

NOTE_CHARS = 300  # a failure's reason is cut past this

# In the capture's `creator` name: Chrome's "WebInspector", Safari's "WebKit Web Inspector".
_BROWSERS = ("webinspector", "web inspector", "firefox", "safari", "chrome", "edge", "brave")

# Why entries were left out, as the warning for an empty diagram words it.
_WHY_LEFT_OUT = {
    "asset": ("static asset", "static assets", " (images, fonts, stylesheets, scripts)"),
    "exclude": ("request", "requests", " matching --exclude"),
    "include": ("request", "requests", " not matching --include"),
    "no-url": ("entry", "entries", " with no request URL"),
    "local": ("entry", "entries", " the browser answered itself (data:, blob: and extension URLs)"),
}
# URLs a browser answers from what it holds, without asking a server: no message to draw.
_LOCAL_SCHEMES = (
    "data", "blob", "about", "file", "javascript", "chrome", "chrome-extension",
    "moz-extension", "safari-extension", "safari-web-extension",
)  # fmt: skip


# HAR Viewer's padded form (`.harp`): the HAR as the argument of a call, `onInputData({…});`
_PADDING = re.compile(r"\A([ \t\r\n]*[A-Za-z_$][\w$.]*[ \t\r\n]*\()(?=[ \t\r\n]*\{)")
_PADDING_END = re.compile(r"\)[ \t\r\n]*;?[ \t\r\n]*\Z")


def _unpadded(text: str) -> str:
    """The HAR a padded one holds, its call blanked out so that lines and columns stay the
    file's; any other text as it is."""
    call = _PADDING.match(text)
    end = _PADDING_END.search(text) if call else None
    if call is None or end is None:
        return text
    return " " * call.end() + text[call.end() : end.start()] + " " * (len(text) - end.start())


def detect(text: str) -> int:
    """100 for JSON with a HAR `log` and its `entries` (padded as HAR Viewer's `.harp` too),
    90 for HAR entries alone, else 0."""
    text = _unpadded(text.lstrip("\ufeff"))
    head = text.lstrip("\ufeff \t\r\n")[:4096]
    if not head.startswith(("{", "[")) or not any(key in head for key in _HAR_KEYS):
        return 0
    try:
        data = json.loads(text.lstrip("\ufeff"))
    except (ValueError, RecursionError):
        return 0
    log = _log_of(data)
    return 0 if log is None else 100 if isinstance(data, dict) and "log" in data else 90


# Keys one of which a HAR file or entry has near its start (Chrome writes an entry's own
# `_initiator`, which may hold a long call stack, before its request).
_HAR_KEYS = ('"log"', '"request"', '"_initiator"', '"_connectionId"', '"startedDateTime"')


def _log_of(data: Any) -> dict | None:
    """A capture's `log`: a HAR file's, or one made around entries copied alone (DevTools'
    Copy as HAR on one request copies its entry; a list of them); None for anything else."""
    log = data.get("log") if isinstance(data, dict) else None
    if isinstance(log, dict) and isinstance(log.get("entries"), list):
        return log
    entries = data if isinstance(data, list) else [data]
    if entries and all(map(_is_entry, entries)):
        return {"entries": entries}
    return None


def _is_entry(value: Any) -> bool:
    """A HAR entry: a request with its URL, and its response."""
    request = value.get("request") if isinstance(value, dict) else None
    return (
        isinstance(request, dict)
        and isinstance(request.get("url"), str)
        and isinstance(value.get("response"), dict)
    )


def convert(
    text: str, filename: str | None = None, options: TrafficOptions | None = None
) -> list[Imported]:
    """`volley import` of a HAR file: one diagram, its secrets masked unless asked not to."""
    options = options or TrafficOptions()
    importer = _read(text, options, filename)
    result = imported(importer.diagram(), options)
    left_out = importer.what_was_left_out()
    if left_out is None:
        return [result]
    said = Diagnostic(
        left_out,
        filename=filename,
        hint=importer.how_to_keep(),
        severity="note" if importer.drawn else "warning",  # an empty diagram looks broken
    )
    return [replace(result, warnings=(*result.warnings, said))]


def import_har(
    text: str | bytes, options: TrafficOptions | None = None, filename: str | None = None
) -> Diagram:
    """The diagram of a HAR capture; a VolleyError when the text is not one."""
    return _read(text, options or TrafficOptions(), filename).diagram()


def _read(text: str | bytes, options: TrafficOptions, filename: str | None) -> _Importer:
    """The capture's log, ready to draw; a VolleyError when the text is not a HAR file."""
    if isinstance(text, bytes):
        text = text.decode("utf-8-sig", errors="replace")
    text = _unpadded(text.removeprefix("\ufeff"))
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise json_error(error, text, filename, "HAR file") from None
    log = _log_of(data)
    if log is None:
        raise VolleyError(
            'this is not a HAR file: it has no "log" with "entries", nor is it HAR entries '
            '(each a "request" with its "url", and a "response")',
            filename=filename,
            hint="export one from the browser's DevTools (Network, Save all as HAR)",
        )
    folder = os.path.dirname(os.path.abspath(filename)) if filename else None
    return _Importer(log, options, folder if filename and os.path.isfile(filename) else None)


def _matches(url: str, patterns: Sequence[str]) -> bool:
    """A pattern with `*` or `?` is a glob over the whole URL; one without matches anywhere."""
    for pattern in patterns:
        if any(ch in pattern for ch in "*?["):
            if fnmatch.fnmatchcase(url, pattern):
                return True
        elif pattern in url:
            return True
    return False


def _noisy(name: str) -> bool:
    lower = name.lower()
    return any(lower.startswith(n) if n.endswith("-") else lower == n for n in NOISY_HEADERS)


def _version(raw: Any, unknown: str) -> str:
    """`HTTP/1.1`, `HTTP/2`, `HTTP/3` from the spellings captures use (`h2`, `http/2.0`), or
    `unknown` where the capture has none that reads (``, `unknown`)."""
    text = str(raw or "").strip().upper()
    if text in ("H2", "HTTP/2.0", "HTTP/2"):
        return "HTTP/2"
    if text in ("H3", "HTTP/3.0", "HTTP/3", "H3-29"):
        return "HTTP/3"
    if re.fullmatch(r"HTTP/\d(?:\.\d)?", text):
        return text
    return unknown


def _decoded_size(data: str) -> int:
    """The bytes a base64 text holds (a binary WebSocket frame's), or its length if it is not
    base64."""
    try:
        return len(base64.b64decode(data, validate=True))
    except (binascii.Error, ValueError):
        return len(data)


def _readable(path: str) -> str:
    """A path as an address bar shows it: `/café/日本`, not `/caf%C3%A9/日本`; an escape that
    would change what the path says (`%2F`, `%25`) or show what is not text (control and
    direction characters, bytes that are not UTF-8) stays as written."""
    return _ESCAPES.sub(_readable_run, path)


_ESCAPES = re.compile(r"(?:%[0-9A-Fa-f]{2})+")


def _readable_run(run: re.Match[str]) -> str:
    try:
        text = unquote(run.group(), errors="strict")
    except UnicodeDecodeError:
        return run.group()
    hidden = any(unicodedata.category(char)[0] == "C" for char in text)
    return run.group() if hidden or "/" in text or "%" in text else text


_REDIRECTS = (301, 302, 303, 307, 308)  # a 304 answers from the cache and sends nowhere


def _redirected(status: Any, response: dict, url: str) -> str:
    """Where a redirect sends the client, for its arrow: ` → /login` (the Location resolved
    against the request's address, as the client does), or the scheme and host too when
    they change (` → https://example.com/`); its query is left to the payload, where the
    secrets a redirect carries (an OAuth code) are masked as a body's are."""
    if status not in _REDIRECTS:
        return ""
    location = _header(_headers(response.get("headers")), "location") or str(
        response.get("redirectURL") or ""
    )
    if not location.strip():
        return ""
    target, here = urlsplit(urljoin(url, location.strip())), urlsplit(url)
    if target.scheme not in ("http", "https", "ws", "wss"):
        return ""  # `javascript:…`, `data:…`: no place the arrow could name
    path = _readable(target.path) or "/"
    if _origin(target) != _origin(here):
        host = target.netloc.rpartition("@")[2]  # never a `user:password@` it carries
        return f" → {target.scheme}://{host}{path}"
    return f" → {path}"


def _origin(address: SplitResult) -> tuple[str, str, int | None]:
    """Scheme, host and port, as a browser compares them (`A.example.com:443` is
    `a.example.com` over https)."""
    try:
        port = address.port
    except ValueError:
        port = None
    default = {"http": 80, "https": 443, "ws": 80, "wss": 443}.get(address.scheme)
    return address.scheme, (address.hostname or "").lower(), None if port == default else port


def _error_text(error: Any) -> str:
    """What a capturing tool wrote about a failure: text, or `{"message": …, "code": …}`."""
    if isinstance(error, dict) and error.get("message"):
        code = error.get("code")
        return f"{error['message']} ({code})" if code else str(error["message"])
    return str(error)


def _object(value: Any) -> dict:
    """A HAR object, or an empty one where the capture has something else (or nothing)."""
    return value if isinstance(value, dict) else {}


_ABORTED = "net::ERR_ABORTED"  # Chrome's word for a request cancelled as it loaded
_NO_BODY = {"204", "205", "304"}  # answers that have no body to read


def _aborted(error: Any) -> bool:
    """Whether the capturing tool's error is Chrome's net::ERR_ABORTED (as text, or as its
    `{"message": …, "code": …}`)."""
    said = error.get("message") if isinstance(error, dict) else error
    return said == _ABORTED


def _nothing_lost(error: Any, status: Any, method: str) -> bool:
    """Whether the capturing tool's error on an answer says nothing about it: Chrome writes
    net::ERR_ABORTED on answers that have no body (a 204, a 304, a HEAD's)."""
    return _aborted(error) and (method.upper() == "HEAD" or str(status).strip() in _NO_BODY)


def _answer_error(error: Any) -> str:
    """The capturing tool's error on an answer it got, in words a reader of the diagram takes
    for what it is (the answer came; what followed did not)."""
    said = _error_text(error)
    return f"the browser stopped loading its body ({said})" if _aborted(error) else said


def _answered(status: Any) -> bool:
    """Whether the request got an answer: a status of 0 or none is a request that never did,
    and WebPageTest writes its own failures as negative ones (-1, -2)."""
    try:
        return int(status) > 0
    except (TypeError, ValueError):
        return bool(status)


def _reason(status: Any, given: Any) -> str:
    """The reason phrase the capture has, or the standard one (HTTP/2 sends none)."""
    text = str(given or "").strip()
    if text:
        return text
    try:
        return http.HTTPStatus(int(status)).phrase
    except (TypeError, ValueError):
        return ""


def _not_saved(response: dict, content: dict, headers: list[tuple[str, str]]) -> str:
    """A line for a body the response had but the capture did not keep (a tool that saves no
    content, or leaves out the large ones), so that it does not read as an empty one."""
    size = content.get("size")
    if isinstance(size, bool) or not isinstance(size, int) or size <= 0:
        return ""
    if response.get("status") in (204, 304):  # no body of their own: a cache's size, if any
        return ""
    media = _media_of(_content_type(headers, content.get("mimeType"))) or "data"
    return f"({size:,} bytes of {media}: the capture did not save them)"


def _from_cache(content: dict, headers: list[tuple[str, str]]) -> str:
    """A 304's body line: it sends none; the copy the capture kept (Chrome saves the cache's
    body with the answer) is the cached resource, not part of this response."""
    if not content.get("text"):
        return ""
    media = _media_of(_content_type(headers, content.get("mimeType"))) or "data"
    size = content.get("size")
    if isinstance(size, int) and not isinstance(size, bool) and size > 0:
        what = f"{size:,} bytes"
    else:
        what = f"{len(content['text']):,} characters"
    return f"(a 304 sends no body; the capture kept the cached copy: {what} of {media})"


def _query_string(fields: Any) -> str:
    """The query a HAR gives only as fields, its URL holding none (Insomnia's, httpsnippet's
    inputs): `foo=bar`, encoded as a form encodes it."""
    if not isinstance(fields, list):
        return ""
    pairs = [
        (str(field.get("name", "")), str(field.get("value", "")))
        for field in fields
        if isinstance(field, dict) and field.get("name")
    ]
    return urlencode(pairs)


def _headers(raw: Any) -> list[tuple[str, str]]:
    """(name, value) pairs; a value holding line breaks is that header sent once a line, as
    captures built on Chrome's DevTools protocol keep several `Set-Cookie`s in one value, and
    so is each item of a value that is a list (Polly.JS records `"value": ["a=1", "b=2"]`).
    A name with white space in it is no header: WebPageTest saves the request line among the
    headers, split at its first colon (`GET /x?u=http` and `//host/ HTTP/1.1`), and the request
    line is shown already."""
    pairs = []
    for header in raw if isinstance(raw, list) else []:
        if (
            isinstance(header, dict)
            and isinstance(header.get("name"), str)
            and not any(ch.isspace() for ch in header["name"])
        ):
            given = header.get("value", "")
            values = [str(item) for item in given] if isinstance(given, list) else [str(given)]
            # at line feeds only (a value may hold U+2028 or a form feed), no empty headers
            lines = [line.removesuffix("\r") for value in values for line in value.split("\n")]
            for value in [line for line in lines if line] or [""]:
                pairs.append((header["name"], value))
    return pairs


def _header(headers: list[tuple[str, str]], wanted: str) -> str:
    """The first value of a header, by its name in any case ("" if it is not there)."""
    return next((value for name, value in headers if name.lower() == wanted), "")


def _media(headers: list[tuple[str, str]], declared: Any) -> str:
    """The body's media type, lower case, without parameters ("" when nothing says)."""
    return _media_of(_content_type(headers, declared))


def _media_of(content_type: str) -> str:
    return content_type.split(";", 1)[0].strip().lower()


def _content_type(headers: list[tuple[str, str]], declared: Any) -> str:
    """The body's Content-Type: the capture's mimeType for it, else the message's header."""
    if isinstance(declared, str) and declared.strip():
        return declared
    return _header(headers, "content-type")


def _parsed_type(content_type: str) -> EmailMessage:
    """A Content-Type read by the standard library (a line break in it, which no header
    holds, read as a space)."""
    parsed = EmailMessage()
    parsed["content-type"] = " ".join(content_type.split())
    return parsed


def _charset(content_type: str) -> str:
    """The charset a Content-Type names (UTF-8 if none)."""
    return _parsed_type(content_type).get_content_charset() or "utf-8"


def _text_of(raw: bytes, coding: str, content_type: str) -> str | None:
    """A base64 body as text when it is text: decompressed if the capture saved it as sent
    with its Content-Encoding `coding` (gzip or deflate; never past `_MAX_UNZIPPED`), decoded
    in the charset its `content_type` names (UTF-8 if none)."""
    if coding in ("gzip", "x-gzip", "deflate") and raw:
        # gzip's header, or zlib's (RFC 1950: deflate, and a check on its first two bytes); a
        # capture that saved the body already decoded keeps it as it is
        check = int.from_bytes(raw[:2], "big")
        zlib_header = len(raw) > 1 and raw[0] & 0x0F == 8 and check % 31 == 0
        wbits = 31 if raw[:2] == b"\x1f\x8b" else 15 if zlib_header else None
        if wbits is not None:
            with suppress(zlib.error):  # not compressed after all: read as it is
                raw = zlib.decompressobj(wbits).decompress(raw, _MAX_UNZIPPED)
    if not _is_text(_media_of(content_type)):
        return None
    try:
        return raw.decode(_charset(content_type))
    except (LookupError, UnicodeDecodeError):
        return None


def _jsonrpc_methods(request: dict) -> str | None:
    """The JSON-RPC method a request's body calls (`tools/call`), or the first two of a
    batch; None for any other body."""
    post = _object(request.get("postData"))
    text = post.get("text")
    if not isinstance(text, str) or '"jsonrpc"' not in text:
        return None
    try:
        sent = json.loads(text)
    except ValueError:
        return None
    calls = sent if isinstance(sent, list) else [sent]
    methods = [
        call["method"]
        for call in calls
        if isinstance(call, dict) and isinstance(call.get("method"), str) and "jsonrpc" in call
    ]
    if not methods:
        return None
    return ", ".join(methods[:2]) + (", …" if len(methods) > 2 else "")


def _rpc_message(data: str) -> dict | None:
    """The JSON-RPC message a WebSocket text frame carries, or None (a batch, other JSON, or
    not JSON)."""
    if '"jsonrpc"' not in data:
        return None
    try:
        message = json.loads(data)
    except (ValueError, RecursionError):
        return None
    return message if is_message(message) else None


def _base64(text: str) -> bytes | None:
    """The bytes a text of base64 holds, or None when it is no such text."""
    try:
        return base64.b64decode(text, validate=True)
    except (binascii.Error, ValueError):
        return None


def _compressed(raw: bytes) -> bool:
    """Whether bytes start as gzip's do (a body saved as sent, still compressed)."""
    return raw[:2] == b"\x1f\x8b"


def _form(fields: list[dict], content_type: str) -> str:
    """A form a capture gives as fields only, written as it was sent: a multipart form one part
    a field (with the file name and type of a file), any other URL-encoded (`_form_text`)."""
    if not content_type.lower().startswith("multipart/"):
        pairs = ((str(f.get("name", "")), str(f.get("value", ""))) for f in fields)
        return "&".join(f"{_form_text(name)}={_form_text(value)}" for name, value in pairs)
    boundary = _parsed_type(content_type).get_boundary() or "boundary"
    lines = []
    for field in fields:
        disposition = f'form-data; name="{field.get("name", "")}"'
        if field.get("fileName"):
            disposition += f'; filename="{field["fileName"]}"'
        lines += [f"--{boundary}", f"Content-Disposition: {disposition}"]
        if field.get("contentType"):
            lines.append(f"Content-Type: {field['contentType']}")
        lines += ["", str(field.get("value", ""))]
    return "\n".join([*lines, f"--{boundary}--"])


# A field as a URL-encoded form holds it: unreserved characters, `%XX` escapes and `+`.
_FORM_ENCODED = re.compile(r"(?:[A-Za-z0-9\-._~!$'()*,;:@/?]|%[0-9A-Fa-f]{2}|\+)*")


# … and a piece of one: an escape, or a character a form may carry as it is
_ESCAPE = re.compile(r"%[0-9A-Fa-f]{2}")
_FORM_PIECE = re.compile(r"%[0-9A-Fa-f]{2}|[A-Za-z0-9\-._~!$'()*,;:@/?+]|.", re.S)


def _form_text(text: str) -> str:
    """A field's name or value in a URL-encoded form: as the capture gives it when it is
    already encoded (Chrome's DevTools and the HAR tools keep `field%5B1%5D` and `a+b` as sent),
    else encoded, so that `a&b=c` stays one value; one encoded in part (`field%5B${x}%5D`, as a
    k6 script's HAR holds it) keeps its escapes, its other characters encoded."""
    if _FORM_ENCODED.fullmatch(text):
        return text
    if not _ESCAPE.search(text):
        return quote_plus(text)
    pieces = (found.group() for found in _FORM_PIECE.finditer(text))
    return "".join(p if len(p) > 1 or _FORM_ENCODED.fullmatch(p) else quote_plus(p) for p in pieces)


_MAX_UNZIPPED = 10_000_000  # bytes of a compressed body read: a body is cut far shorter


_STARTED = re.compile(
    r"(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)(?:[.,](\d+))?(Z|[+-]\d\d:?\d\d)?", re.IGNORECASE
)


def _in_time_order(entries: list[dict]) -> list[dict]:
    """The entries in the order they started; file order where they started together, and
    where a time does not read, the order the times' text sorts in."""
    times = [_started(entry) for entry in entries]
    known = [time for time in times if time is not None]
    if len(known) < len(entries):
        return sorted(entries, key=lambda entry: str(entry.get("startedDateTime", "")))
    order = sorted(range(len(entries)), key=known.__getitem__)  # sorted() is stable
    return [entries[index] for index in order]


def _started(entry: dict) -> float | None:
    """When an entry started, in seconds since the epoch, or None if its time does not read.

    Its text does not sort in time order when captures write it differently: browsers give
    milliseconds and an offset (`…43.813+01:00`), Go's HAR loggers trim the fraction's
    trailing zeros (`…43.5Z` comes after `…43.45Z`), and a merged capture mixes offsets."""
    match = _STARTED.fullmatch(str(entry.get("startedDateTime") or "").strip())
    if match is None:
        return None
    seconds, fraction, zone = match.groups()
    offset = timedelta(0)
    if zone and zone.upper() != "Z":
        sign = -1 if zone[0] == "-" else 1
        offset = sign * timedelta(hours=int(zone[1:3]), minutes=int(zone[-2:]))
    try:
        when = datetime.fromisoformat(seconds).replace(tzinfo=timezone(offset))
    except ValueError:  # a month 13, a second 61, an offset of a day or more
        return None
    return when.timestamp() + float(f"0.{fraction or 0}")


# The name Playwright's `recordHar` gives a body it saves beside the HAR: its SHA-1, in hex.
_ATTACHED = re.compile(r"[0-9a-f]{40}(?:\.[A-Za-z0-9]{1,10})?")


def _beside(folder: str | None, name: Any) -> bytes | None:
    """The bytes of a body Playwright's `recordHar` (with `content: 'attach'`) saved in the
    file `name` beside the HAR, when the HAR is a file in `folder`. Only a name Playwright
    gives is read: a capture from elsewhere cannot pull another file into the diagram."""
    if folder is None or not isinstance(name, str) or not _ATTACHED.fullmatch(name):
        return None
    path = os.path.join(folder, name)
    try:
        if not os.path.isfile(path) or os.path.getsize(path) > _MAX_UNZIPPED:
            return None
        with open(path, "rb") as handle:
            return handle.read()
    except OSError:
        return None


def _is_text(media: str) -> bool:
    return media.startswith("text/") or any(word in media for word in _TEXT_MEDIA_WORDS)


class _Importer:
    def __init__(self, log: dict, options: TrafficOptions, folder: str | None = None) -> None:
        self.log = log
        self.options = options
        self.folder = folder  # where the HAR file is, for bodies saved beside it
        client = self._client_name()
        self.client = lane_name(options.chosen_name(client) or client)
        self.lanes: dict[str, str] = {}  # origin key → lane name
        self.labels: dict[str, str] = {}  # lane name → what its box shows, where they differ
        self.pages = {
            page.get("id"): page for page in log.get("pages") or [] if isinstance(page, dict)
        }
        self.body_limit = options.body_limit(HAR_MAX_BODY)  # characters of a body kept
        self.left_out: dict[str, int] = {}  # why an entry is not drawn → how many
        self.drawn = 0  # entries drawn

    def _client_name(self) -> str:
        creator = self.log.get("creator")
        name = str(creator.get("name", "")).lower() if isinstance(creator, dict) else ""
        browser = self.log.get("browser")
        return "Browser" if browser or any(b in name for b in _BROWSERS) else "Client"

    def diagram(self) -> Diagram:
        self.left_out = {}
        entries = [e for e in self.log["entries"] if isinstance(e, dict) and self._kept(e)]
        entries = _in_time_order(entries)
        self.drawn = len(entries)
        items: list[Item] = []
        page = None
        said_of_pages: list[Note] = []  # over every lane, known once every entry is drawn
        for entry in entries:
            pageref = entry.get("pageref")
            if pageref != page and pageref in self.pages:
                items.append(Divider(0, "bold", label(self._page_title(pageref))))
                comment = self.pages[pageref].get("comment")  # HAR 1.2's word on the page
                if isinstance(comment, str) and comment.strip():
                    lines = [label(line, NOTE_CHARS) for line in comment.strip().splitlines()]
                    said_of_pages.append(Note(0, [], note_text(lines)))
                    items.append(said_of_pages[-1])
            page = pageref
            # HAR 1.2's word on the entry, or on its request, from its writer (har-to-k6 names
            # each request so: "Login")
            said = (entry.get("comment"), entry["request"].get("comment"))
            comments = dict.fromkeys(c.strip() for c in said if isinstance(c, str) and c.strip())
            if comments:
                over = [self.client, self._lane(entry["request"]["url"])]
                text = " ".join(" ".join(comments).split())
                items.append(Note(0, over, label(text, NOTE_CHARS)))
            items += self._exchange(entry)
        participants = [self.client, *dict.fromkeys(self.lanes.values())]
        for note in said_of_pages:
            note.over = participants
        return Diagram(participants=participants, items=items, labels=self.labels)

    def _page_title(self, pageref: Any) -> str:
        page = self.pages[pageref]
        return str(page.get("title") or pageref)

    def _kept(self, entry: dict) -> bool:
        why = self._left_out(entry)
        if why is not None:
            self.left_out[why] = self.left_out.get(why, 0) + 1
        return why is None

    def _left_out(self, entry: dict) -> str | None:
        """Why an entry is not drawn (a key of `_WHY_LEFT_OUT`), or None when it is."""
        request = entry.get("request")
        if not isinstance(request, dict) or not isinstance(request.get("url"), str):
            return "no-url"
        if not request["url"].strip():  # `"url": ""`, as an invalid capture has it
            return "no-url"
        url = request["url"]
        if urlsplit(url).scheme.lower() in _LOCAL_SCHEMES:
            return "local"
        if self.options.include and not _matches(url, self.options.include):
            return "include"
        if _matches(url, self.options.exclude):
            return "exclude"
        return None if self.options.everything or not self._is_asset(entry) else "asset"

    def what_was_left_out(self) -> str | None:
        """What of the capture the diagram does not draw, and why (call after `diagram`);
        None when it draws every request.

        A page load saved from DevTools is mostly stylesheets, scripts and images, left out by
        default; nothing is left out without a word, and an empty diagram says why it is."""
        if not self.left_out:
            return None if self.drawn else "the capture holds no requests"
        reasons = ", ".join(
            counted(count, *_WHY_LEFT_OUT[why][:2]) + _WHY_LEFT_OUT[why][2]
            for why, count in sorted(self.left_out.items())
        )
        if not self.drawn:
            return f"none of the capture's requests is in the diagram: {reasons}"
        return f"left out of the diagram: {reasons}"

    def how_to_keep(self) -> str | None:
        """The option that brings back what `what_was_left_out` says was left out."""
        if "asset" in self.left_out:
            return "--all keeps static assets"
        if "include" in self.left_out or "exclude" in self.left_out:
            return "check the --include and --exclude patterns"
        return None

    def _is_asset(self, entry: dict) -> bool:
        """A file the page fetched to show itself: an image, font, stylesheet or script got
        with GET (a PUT of an avatar or a POST that answers with an SVG is the API at work)."""
        if str(entry["request"].get("method", "GET")).upper() not in ("GET", "HEAD"):
            return False
        if str(entry.get("_resourceType", "")).lower() in _ASSET_TYPES:
            return True
        response = _object(entry.get("response"))
        content = _object(response.get("content"))
        media = _media(_headers(response.get("headers")), content.get("mimeType"))
        if media.startswith(_ASSET_MEDIA) or media.split("/")[-1] in _ASSET_SUBTYPES:
            return True
        path = urlsplit(entry["request"]["url"]).path.lower()
        return path.endswith(_ASSET_EXTENSIONS)

    def _lane(self, url: str) -> str:
        parts = urlsplit(url)
        _, hostname, port = _origin(parts)
        host = hostname or parts.netloc or "(no host)"
        key = host if port is None else f"{host}:{port}"
        if key not in self.lanes:
            chosen = self.options.chosen_name(key, host)
            self.lanes[key] = named_lane(key, chosen, self.labels)
        return self.lanes[key]

    def _exchange(self, entry: dict) -> list[Item]:
        request = entry["request"]
        response = _object(entry.get("response"))
        host = self._lane(request["url"])
        method = str(request.get("method") or "GET")
        target, version, request_text = self._request_text(request)
        # the target is a path (`//v1/users`: no host there, whatever urlsplit would make of it)
        path = target.partition("?")[0].partition("#")[0]
        words = f"{method} {_readable(path) or '/'}"
        called = _jsonrpc_methods(request)
        if called:  # MCP's Streamable HTTP, and any JSON-RPC over HTTP: one URL for every call
            words += f" ({called})"
        status = response.get("status")
        asked = Message(
            0,
            self.client,
            host,
            "->",
            label(words),
            request=Payload("Request", "http", request_text, "fenced"),
        )
        error = entry.get("_error") or response.get("_error")  # what the capturing tool saw
        if not response and not error:  # a HAR written by hand, or for replay, holds none
            return [asked, Note(0, [self.client, host], "no response recorded", attached=True)]
        if not _answered(status):
            asked.arrow = "-x"
            why = _error_text(error) if error else f"status {status}" if status else "no response"
            failed = label(f"failed: {why}", NOTE_CHARS)
            return [asked, Note(0, [self.client, host], failed, attached=True)]
        reason = _reason(status, response.get("statusText"))
        reply = Message(
            0,
            host,
            self.client,
            "-->",
            label(f"{status} {reason}".strip() + _redirected(status, response, request["url"])),
            response=Payload("Response", "http", self._response_text(response, version), "fenced"),
        )
        items: list[Item] = [asked, reply]
        if error and not _nothing_lost(error, status, method):
            # the capturing tool's word on an answer it got (a redirect loop cut off)
            said = label(_answer_error(error), NOTE_CHARS)
            items.append(Note(0, [host, self.client], said, attached=True))
        return [*items, *self._websocket(entry, host)]

    def _websocket(self, entry: dict, host: str) -> list[Item]:
        """The frames of a WebSocket the capture kept (Chrome's and mitmproxy's
        `_webSocketMessages`), each an asynchronous arrow the way it went; a JSON-RPC message
        (MCP's or Ethereum's over a WebSocket) named as the JSON-RPC logs name it: its method,
        or `result`, a request and its answer a call and its dashed reply."""
        items: list[Item] = []
        for frame in entry.get("_webSocketMessages") or []:
            if not isinstance(frame, dict):
                continue
            data = str(frame.get("data", ""))
            binary = frame.get("opcode") == 2
            sent = frame.get("type") == "send"
            text = f"({_decoded_size(data):,} bytes of binary data)" if binary else data
            pretty = None if binary else pretty_json(data)
            sender, receiver = (self.client, host) if sent else (host, self.client)
            rpc = None if binary else _rpc_message(data)
            name, arrow = "Frame", "->>"
            if rpc is None:
                words = label(f"WebSocket {'binary' if binary else 'text'} frame")
            elif "method" in rpc:
                words = rpc_request_label(rpc)
                name, arrow = ("Request", "->") if "id" in rpc else ("Notification", "->>")
            else:
                words = rpc_response_label(rpc)
                name, arrow = "Error" if "error" in rpc else "Response", "-->"
            payload = Payload(
                name,
                "json" if pretty else None,
                cut_body(pretty or text, self.body_limit),
                "fenced",
            )
            if arrow == "-->":  # an answer: what it carries is a response's, as an HTTP reply's
                items.append(Message(0, sender, receiver, arrow, words, response=payload))
            else:
                items.append(Message(0, sender, receiver, arrow, words, request=payload))
        return items

    def _kept_headers(self, headers: list[tuple[str, str]]) -> list[tuple[str, str]]:
        if self.options.keep_headers:
            return headers
        return [(name, value) for name, value in headers if not _noisy(name)]

    def _request_text(self, request: dict) -> tuple[str, str, str]:
        """(the request target, its HTTP version, the request as HTTP text): HTTP/2
        pseudo-headers folded into the start line (`:method`, `:path`) and a Host header
        (`:authority`)."""
        headers = _headers(request.get("headers"))
        pseudo = {name.lower(): value for name, value in headers if name.startswith(":")}
        # a capture that cannot say which: HTTP/2's if it has HTTP/2's pseudo-headers
        version = _version(request.get("httpVersion"), "HTTP/2" if pseudo else "HTTP/1.1")
        headers = [(name, value) for name, value in headers if not name.startswith(":")]
        parts = urlsplit(request["url"])
        query = parts.query or _query_string(request.get("queryString"))
        target = pseudo.get(":path") or (parts.path or "/") + (f"?{query}" if query else "")
        method = pseudo.get(":method") or str(request.get("method") or "GET")
        if not any(name.lower() == "host" for name, _ in headers):
            # the host and port alone: a `user:password@` in the URL is no part of Host
            host = pseudo.get(":authority") or parts.netloc.rpartition("@")[2]
            headers.insert(0, ("Host", host))
        post = _object(request.get("postData"))
        body = self._post_body(post, headers)
        declared = post.get("mimeType")
        if body and isinstance(declared, str) and declared and not _header(headers, "content-type"):
            # the capture names the body's type in postData alone (har-to-k6's HARs): the
            # panel reads a body by its Content-Type, the parts of one `_form` wrote from the
            # fields by the boundary it wrote them with
            written = not isinstance(post.get("text"), str) or not post["text"]
            if (
                written
                and declared.lower().startswith("multipart/")
                and "boundary=" not in declared
            ):
                declared += "; boundary=boundary"
            headers.append(("Content-Type", declared))
        lines = [f"{method} {target} {version}"]
        lines += [f"{name}: {value}" for name, value in self._kept_headers(headers)]
        return target, version, self._message(lines, body)

    def _post_body(self, post: Any, headers: list[tuple[str, str]]) -> str:
        if not isinstance(post, dict):
            return ""
        text = post.get("text")
        if isinstance(text, str) and text:
            return self._body(text, headers, post.get("mimeType"), post.get("encoding"))
        params = post.get("params")
        if isinstance(params, list) and params:  # a form HAR gives as fields only
            fields = [p for p in params if isinstance(p, dict)]
            form = _form(fields, _content_type(headers, post.get("mimeType")))
            return cut_body(form, self.body_limit)
        return self._saved_apart(post, headers)

    def _saved_apart(self, holder: dict, headers: list[tuple[str, str]]) -> str:
        """A body the capture keeps outside itself (Playwright's `_file`): read from beside
        the HAR when it is there, else a line saying where it was saved, so the message is not
        shown as if it had no body."""
        name = holder.get("_file")
        if not isinstance(name, str) or not name:
            return ""
        raw = _beside(self.folder, name)
        if raw is None:
            return f"(the body is not in the HAR: it was saved beside it, as {name})"
        encoded = base64.b64encode(raw).decode("ascii")
        return self._body(encoded, headers, holder.get("mimeType"), "base64")

    def _response_text(self, response: dict, version: str) -> str:
        """The response as HTTP text; `version` is the request's, for a capture that does not
        say the response's."""
        headers = _headers(response.get("headers"))
        reason = _reason(response.get("status"), response.get("statusText"))
        start = f"{_version(response.get('httpVersion'), version)} {response.get('status')}"
        lines = [f"{start} {reason}".rstrip()]
        kept = self._kept_headers([(name, value) for name, value in headers if name[:1] != ":"])
        lines += [f"{name}: {value}" for name, value in kept]
        content = _object(response.get("content"))
        body = ""
        if response.get("status") == 304 and isinstance(content.get("text"), str):
            body = _from_cache(content, headers)  # what Chrome keeps: the cache's copy
        elif isinstance(content.get("text"), str) and content["text"]:
            body = self._body(
                content["text"], headers, content.get("mimeType"), content.get("encoding")
            )
        else:
            body = self._saved_apart(content, headers) or _not_saved(response, content, headers)
        return self._message(lines, body)

    def _body(self, text: str, headers: list[tuple[str, str]], declared: Any, encoding: Any) -> str:
        """A body as a reader wants it: base64 text decoded (in its charset, unzipped if it was
        saved still gzip- or deflate-compressed), JSON indented, long ones cut; `declared` is
        the capture's own mimeType for it."""
        content_type = _content_type(headers, declared)
        media = _media_of(content_type)
        if encoding == "base64":
            try:
                raw = base64.b64decode(text, validate=False)
            except (binascii.Error, ValueError):
                raw = None
            coding = _header(headers, "content-encoding").strip().lower()
            decoded = _text_of(raw, coding, content_type) if raw is not None else None
            if decoded is None:
                size = len(raw) if raw is not None else len(text)
                what = f"{size:,} bytes of {media or 'binary data'}"
                if raw is not None and _is_text(media) and _compressed(raw):
                    damaged = f"compressed with {coding or 'gzip'} but cut or damaged"
                    return f"({what}, {damaged}: they do not decompress)"
                return f"({what}, not shown)"
            text = decoded
        elif media and not _is_text(media) and holds_controls(text):
            # binary data the capture wrote as text (mitmproxy saves a protobuf that way)
            return f"({len(text):,} bytes of {media}, not shown)"
        elif (coding := _header(headers, "content-encoding").strip().lower()) in _CODINGS and (
            holds_controls(text) or "\ufffd" in text
        ):
            # a body still compressed, that a recorder read as text (Polly.JS): its bytes are lost
            return (
                f"({len(text):,} characters of {media or 'data'} compressed with {coding} and "
                "saved as text, which loses its bytes: not shown)"
            )
        elif media and not _is_text(media) and _HEX.fullmatch(text):
            # or as hexadecimal digits (Polly.JS saved an image so): two a byte
            return f"({len(text) // 2:,} bytes of {media}, not shown)"
        elif media and not _is_text(media) and (raw := _base64(text)) is not None:
            # or as base64 without saying so (Chrome's HARs of about 2013)
            return f"({len(raw):,} bytes of {media}, not shown)"
        if "json" in media or media == "" and text.lstrip()[:1] in ("{", "["):
            text = pretty_json(text) or text
        return cut_body(text.rstrip("\r\n"), self.body_limit)

    @staticmethod
    def _message(head: list[str], body: str) -> str:
        return "\n".join(head + (["", body] if body else []))
