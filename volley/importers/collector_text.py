"""What the OpenTelemetry collector's debug exporter prints of spans (`verbosity: detailed`;
the `logging` exporter before it), as people paste it from the collector's output into bug
reports, read back as the OTLP/JSON it was printed from.

The exporter writes each span as aligned fields under a `Span #0` header, below the
resource and scope they belong to:

    ResourceSpans #0
    Resource attributes:
         -> service.name: Str(checkout)
    ScopeSpans #0
    InstrumentationScope io.opentelemetry.http 1.2.0
    Span #0
        Trace ID       : fafdac970271dd2ce89de2442c0518c7
        Parent ID      : d98de4cb8e2a0ad6
        ID             : 3875f436d989d0e5
        Name           : GET /cart
        Kind           : Server
        Start time     : 2025-04-17 08:40:44.555461596 +0000 UTC
        …
    Attributes:
         -> http.method: Str(GET)
    Events:
    SpanEvent #0
         -> Name: cache miss
         -> Timestamp: 2025-04-17 08:40:44.555500000 +0000 UTC

Older collectors wrote `Resource labels:`, `InstrumentationLibrarySpans`, `STRING(…)` and
`SPAN_KIND_SERVER`; the collector's log prefix on the first line (`2025-04-17T10:40:44.560Z
info ResourceSpans #0`), Docker Compose's on every line (`otel-collector-1  | `) and the time
`docker logs -t` or `kubectl logs --timestamps` puts before every line are left out.
"""

from __future__ import annotations

import re
from datetime import datetime
from typing import Any

from volley.errors import VolleyError

__all__ = ["collector_spans", "is_collector_text", "not_spans"]

_SPAN = re.compile(r"^Span #\d+[ \t]*$", re.M)
# A span's fields are indented four columns, unless a paste lost its alignment
_TRACE_ID = re.compile(r"^[ \t]*Trace ID[ \t]*:[ \t]*[0-9a-fA-F]{32}[ \t]*$", re.M)
_COMPOSE = re.compile(r"^[\w.-]+[ \t]*\| ?")  # `otel-collector-1  | `
_BRACKETED = re.compile(r"^\[[\w.-]{1,100}\]: ?")  # `[opentelemetry-collector_074e]: `
# The time `docker logs -t` and `kubectl logs --timestamps` put before every line
_STAMP = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?(?:Z|[+-]\d\d:?\d\d) ")
# `docker compose logs -t`: Compose's prefix, then the time
_PREFIXES = (_COMPOSE, _BRACKETED, _STAMP)
# A header after the collector's log prefix (`2025-04-17T10:40:44.560Z\tinfo\tResourceSpans #0`)
_PREFIXED_HEADER = re.compile(
    r"^\S*\d\d:\d\d\S*[ \t]+\S+[ \t]+"
    r"(?P<header>(?:ResourceSpans|ScopeSpans|InstrumentationLibrarySpans|Span) #\d+)[ \t]*$"
)
# A line that starts something of the output: an attribute or field (`->`), a header, a list
_STRUCTURE = re.compile(
    r"^[ \t]*-> |^(?:ResourceSpans|ScopeSpans|InstrumentationLibrarySpans|Span|SpanEvent|"
    r"SpanLink) #\d+|^(?:Attributes|Events|Links|Resource attributes|Resource labels):|"
    r"^Instrumentation(?:Scope|Library)\b"
)
_FIELD = re.compile(r"^[ \t]*(?P<label>[A-Za-z][\w ]*?)[ \t]*: ?(?P<value>.*)$")
_ARROW = re.compile(r"^(?P<indent>[ \t]*)-> (?P<key>[^\n]+?): ?(?P<value>.*)$", re.S)
_VALUE = re.compile(r"(?P<type>[A-Za-z]+)\((?P<inner>.*)\)", re.S)
_TIME = re.compile(
    r"(?P<day>\d{4}-\d\d-\d\d) (?P<clock>\d\d:\d\d:\d\d)(?:\.(?P<fraction>\d{1,9}))?"
    r" (?P<offset>[+-]\d{4})"
)
_KINDS = {"internal": 1, "server": 2, "client": 3, "producer": 4, "consumer": 5}
_STATUSES = {"ok": 1, "error": 2}


# The headers of the debug exporter's logs and metrics, which hold no span
_OTHER_HEADER = re.compile(
    r"^(?:\S+[ \t]+\S+[ \t]+)?Resource(?P<signal>Log|Metrics) #\d+[ \t]*$", re.M
)


def not_spans(text: str, filename: str | None) -> VolleyError | None:
    """The error for the debug exporter's output of logs or metrics alone: it holds no trace
    to draw (None for any other text)."""
    found = _OTHER_HEADER.search(text) if "Span #" not in text else None
    if found is None:
        return None
    signal = "logs" if found["signal"] == "Log" else "metrics"
    return VolleyError(
        f"this is the OpenTelemetry collector's debug output of {signal}, not of spans: "
        "there is no trace to draw",
        filename=filename,
        hint="print the traces pipeline with the debug exporter (its ResourceSpans), or "
        "export the trace as OTLP/JSON",
    )


def is_collector_text(text: str) -> bool:
    """Whether the text holds spans as the collector's debug exporter prints them."""
    if "Span #" not in text or "Trace ID" not in text:
        return False
    lines = "\n".join(_lines(text))
    return bool(_SPAN.search(lines)) and bool(_TRACE_ID.search(lines))


def _lines(text: str) -> list[str]:
    """The output's lines, without the log and Compose prefixes the collector's output may
    carry (or a container's name in brackets, as a log collector writes it), a value written
    over several lines as one (its lines joined by newlines)."""
    lines = text.replace("\r\n", "\n").split("\n")
    for prefix in _PREFIXES:
        if sum(1 for line in lines if prefix.match(line)) * 2 > len(lines):
            lines = [prefix.sub("", line, count=1) for line in lines]
    kept: list[str] = []
    for line in lines:
        prefixed = _PREFIXED_HEADER.match(line)
        if prefixed is not None:  # the collector's log prefix before the first header
            line = prefixed["header"]
        if kept and _continues(kept[-1], line):  # a value written over several lines
            kept[-1] += "\n" + line
            continue
        kept.append(line)
    return kept


def _continues(before: str, line: str) -> bool:
    """Whether `line` goes on with the attribute value `before` started: the exporter writes
    a string as it is (`Str(Traceback …` over several lines), up to its `)`; whatever starts
    something of the output ends it."""
    found = _ARROW.match(before.split("\n", 1)[0])
    if found is None or not re.match(r"[A-Za-z]+\(", found["value"]):
        return False
    return not before.endswith(")") and not _STRUCTURE.match(line)


def collector_spans(text: str) -> tuple[dict[str, Any], list[int]]:
    """The OTLP/JSON export the collector printed: its resources, scopes and spans; and the
    lines (from 1) of the `Span #N` headers whose spans have neither a name nor a time, where
    a paste of the output stops (or a span's fields were left out)."""
    resources: list[dict[str, Any]] = []
    headed: list[tuple[int, dict[str, Any]]] = []  # each span, with its header's line
    number = 0  # the line being read
    fields = True  # a span's own fields come first, then its attributes, events, links
    attributes: list[dict[str, Any]] | None = None  # where `->` lines go
    holder: dict[str, Any] | None = None  # the event or link whose fields `->` lines set
    span: dict[str, Any] | None = None
    for line in _lines(text):
        number += 1 + line.count("\n")  # a value written over several lines is one
        stripped = line.strip()
        if stripped.startswith("ResourceSpans #"):
            resources.append({"resource": {"attributes": []}, "scopeSpans": []})
            attributes, holder, span = None, None, None
        elif stripped in ("Resource attributes:", "Resource labels:"):
            attributes = _resource(resources)["resource"]["attributes"]
        elif stripped.startswith(("ScopeSpans #", "InstrumentationLibrarySpans #")):
            _resource(resources)["scopeSpans"].append({"scope": {}, "spans": []})
            attributes, holder, span = None, None, None
        elif stripped.startswith(("InstrumentationScope ", "InstrumentationLibrary ")):
            scope = _scope(resources)["scope"]
            if stripped.endswith("attributes:"):
                attributes = scope.setdefault("attributes", [])
                continue
            name, _, version = stripped.split(" ", 1)[1].strip().partition(" ")
            scope.update({k: v for k, v in (("name", name), ("version", version.strip())) if v})
        elif _SPAN.match(stripped):
            span = {"attributes": [], "events": [], "links": []}
            _scope(resources)["spans"].append(span)
            headed.append((number, span))
            attributes, holder, fields = None, None, True
        elif span is None:
            attributes = _arrow(line, attributes, None)
        elif stripped == "Attributes:":
            attributes, holder, fields = span["attributes"], None, False
        elif stripped.startswith(("SpanEvent #", "SpanLink #")):
            holder = {"attributes": []}
            span["events" if stripped.startswith("SpanEvent") else "links"].append(holder)
            attributes = None
        elif stripped in ("Events:", "Links:"):
            attributes, holder, fields = None, None, False
        elif fields and (field := _FIELD.match(line)) is not None:
            _span_field(span, field["label"].strip().lower(), field["value"].strip())
        else:
            attributes = _arrow(line, attributes, holder)
    cut = [line for line, span in headed if not _TOLD.intersection(span)]
    return {"resourceSpans": resources}, cut


# What a span's own fields tell of it; one with none of them is a paste cut short
_TOLD = frozenset({"name", "startTimeUnixNano", "endTimeUnixNano"})


def _resource(resources: list[dict[str, Any]]) -> dict[str, Any]:
    """The resource being read (one made up when the text starts below its header)."""
    if not resources:
        resources.append({"resource": {"attributes": []}, "scopeSpans": []})
    return resources[-1]


def _scope(resources: list[dict[str, Any]]) -> dict[str, Any]:
    scopes = _resource(resources)["scopeSpans"]
    if not scopes:
        scopes.append({"scope": {}, "spans": []})
    return scopes[-1]


def _arrow(
    line: str, attributes: list[dict[str, Any]] | None, holder: dict[str, Any] | None
) -> list[dict[str, Any]] | None:
    """A `-> key: value` line: an attribute where attributes are being read, or a field of
    the event or link being read (its own attributes are indented deeper); where the next
    such lines go."""
    found = _ARROW.match(line)
    if found is None:
        return attributes
    key, value = found["key"].strip(), found["value"].strip()
    if holder is not None and len(found["indent"].expandtabs()) <= 5:
        if key == "Attributes" or key == "Attributes:":
            return holder["attributes"]
        field = {"Name": "name", "Timestamp": "timeUnixNano", "Trace ID": "traceId", "ID": "spanId"}
        if key in field:
            holder[field[key]] = _nanos(value) if key == "Timestamp" else value
        return None
    if attributes is not None:
        attributes.append({"key": key, "value": _any_value(value)})
    return attributes


def _span_field(span: dict[str, Any], label: str, value: str) -> None:
    """One of a span's aligned fields (`Trace ID       : …`), set as OTLP/JSON names it."""
    if label == "trace id":
        span["traceId"] = value
    elif label == "parent id" and value:
        span["parentSpanId"] = value
    elif label == "id":
        span["spanId"] = value
    elif label == "name":
        span["name"] = value
    elif label == "kind":
        word = value.lower().removeprefix("span_kind_")
        span["kind"] = _KINDS.get(word, 0)
    elif label in ("start time", "end time"):
        span["startTimeUnixNano" if label == "start time" else "endTimeUnixNano"] = _nanos(value)
    elif label == "status code":
        word = value.lower().removeprefix("status_code_")
        span.setdefault("status", {})["code"] = _STATUSES.get(word, 0)
    elif label == "status message" and value:
        span.setdefault("status", {})["message"] = value


def _any_value(written: str) -> dict[str, Any]:
    """An attribute's value as the exporter writes it (`Str(GET)`, `Int(200)`, `Bool(true)`;
    before, `STRING(GET)`), as OTLP/JSON's AnyValue."""
    found = _VALUE.fullmatch(written)
    if found is None:
        return {"stringValue": written}
    kind, inner = found["type"].lower(), found["inner"]
    if kind in ("int", "double"):
        return {f"{kind}Value": inner}
    if kind == "bool":
        return {"boolValue": inner.lower() == "true"}
    return {"stringValue": inner}  # Str, and a map's, a slice's or bytes' text as written


def _nanos(written: str) -> str:
    """A time as the exporter writes it (`2025-04-17 08:40:44.555461596 +0000 UTC`) in
    nanoseconds since the epoch, as OTLP/JSON writes them; as written when it does not read
    (the trace reader then says where)."""
    found = _TIME.match(written)
    if found is None:
        return written
    try:
        whole = datetime.strptime(
            f"{found['day']} {found['clock']} {found['offset']}", "%Y-%m-%d %H:%M:%S %z"
        )
    except ValueError:  # no such day or offset (`2025-02-30`, `+9999`)
        return written
    fraction = (found["fraction"] or "").ljust(9, "0")
    return str(int(whole.timestamp()) * 1_000_000_000 + int(fraction))
