"""Distributed traces as diagrams: OpenTelemetry's OTLP/JSON, Jaeger's and Zipkin's JSON.

A trace already says who called whom: a CLIENT (or PRODUCER) span in one service whose
SERVER (or CONSUMER) child runs in another is a call between the two, and everything the
server span did before it ended happens inside that call. So each service is a lane (its
`service.name`), each such pair a call and a reply, drawn in time order with nested calls
inside their caller's (calls made at once side by side, in a `par` block), and each span's
attributes are the payload a reader clicks to see.
A CLIENT span with no server span under it (a database, an outside API) calls a lane named
after the peer it names (`peer.service`, `db.system`, `server.address`, …). INTERNAL spans are
work inside one service: a message to itself. Errored spans are marked on their reply, and
span events (an exception, a retry) become notes over the service.

Formats: OTLP/JSON (https://opentelemetry.io/docs/specs/otlp/#json-protobuf-encoding), one
export request or a file exporter's JSON Lines of them, or Jaeger's API v3 answer, which wraps
it in `{"result": …}`; Jaeger's JSON (the query API's `{"data": [trace]}`, or one trace
`{"traceID", "spans", "processes"}`), and its api_v2 model as protobuf JSON; Zipkin's v2 JSON
(https://zipkin.io/zipkin-api/: one trace's array of spans, or `/api/v2/traces`' array of
them); the OpenTelemetry Python SDK's console output (one span after another). Each format is
read into the same spans, so all of them draw alike.
"""

from __future__ import annotations

import base64
import binascii
import json
import re
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, timedelta
from fractions import Fraction
from typing import Any

from volley.errors import Diagnostic, VolleyError, counted, place_in
from volley.importers import Imported
from volley.importers.collector_text import collector_spans, is_collector_text, not_spans
from volley.importers.labels import json_documents, json_error, label, named_lane, url_parts
from volley.importers.traffic import TrafficOptions, imported
from volley.importers.xray import is_xray, is_xray_header, xray_export
from volley.model import Block, Branch, Diagram, Divider, Item, Message, Note, Payload

__all__ = ["convert", "detect", "import_trace", "is_trace"]

_KINDS = {0: "unspecified", 1: "internal", 2: "server", 3: "client", 4: "producer", 5: "consumer"}
_CALLERS = ("client", "producer")
_CALLEES = ("server", "consumer")
# Attributes that name the other end of a CLIENT span, most specific first.
# `upstream_cluster.name` is Envoy's (the OpenTelemetry demo's front proxy); `peer.hostname`
# and `peer.address` are OpenTracing's.
_PEER_KEYS = (
    "peer.service", "db.system", "db.system.name", "messaging.system", "gen_ai.provider.name",
    "gen_ai.system", "rpc.service", "upstream_cluster.name", "server.address", "net.peer.name",
    "peer.hostname", "http.host", "net.sock.peer.addr", "peer.address",
)  # fmt: skip
_HTTP_STATUS_KEYS = ("http.response.status_code", "http.status_code", "http.response.status")
# gRPC's status codes by number (https://grpc.io/docs/guides/status-codes/): a reply reads
# `0 OK` or `14 UNAVAILABLE`, where the number alone tells a reader little.
_GRPC_CODES = (
    "OK", "CANCELLED", "UNKNOWN", "INVALID_ARGUMENT", "DEADLINE_EXCEEDED", "NOT_FOUND",
    "ALREADY_EXISTS", "PERMISSION_DENIED", "RESOURCE_EXHAUSTED", "FAILED_PRECONDITION",
    "ABORTED", "OUT_OF_RANGE", "UNIMPLEMENTED", "INTERNAL", "UNAVAILABLE", "DATA_LOSS",
    "UNAUTHENTICATED",
)  # fmt: skip
ROOT_CALLER = "Client"  # the lane a trace's first SERVER span is called from


@dataclass
class _Event:
    name: str
    attributes: list[tuple[str, str]]
    time: int | None = None  # nanoseconds since the epoch, as a span's start


@dataclass
class _Span:
    """A span as both formats have it, reduced to what a diagram shows."""

    trace: str
    id: str
    parent: str | None
    service: str
    name: str
    kind: str
    start: int  # nanoseconds
    end: int | None  # None when the export gives no end or duration (a span still open)
    attributes: list[tuple[str, str]]
    error: str | None  # None when the span did not fail; else the status message (maybe "")
    events: list[_Event]
    children: list[_Span] = field(default_factory=list)
    # The other end as Zipkin records it (remoteEndpoint): its service name, its ip:port.
    peer: str | None = None
    peer_address: str | None = None
    # Other spans it points at besides its parent (OTLP's links, Jaeger's other references),
    # as its payload says them: "span 00f0… of trace 5b8a…", "FOLLOWS_FROM span …".
    links: list[str] = field(default_factory=list)
    # What ran it besides its service's name (OpenTelemetry's resource, Jaeger's process tags:
    # the service's version, its host, the SDK): `resource.` lines in its service's first
    # span's payload.
    resource: list[tuple[str, str]] = field(default_factory=list)

    def attribute(self, *keys: str) -> str | None:
        found = dict(self.attributes)
        return next((found[key] for key in keys if found.get(key)), None)

    def named_peer(self) -> str | None:
        """The other end a CLIENT or PRODUCER span names: Zipkin's remote service, a peer's
        attribute (`peer.service`, `db.system` …), or Zipkin's remote address."""
        return self.peer or self.attribute(*_PEER_KEYS) or self.peer_address

    def status(self) -> str | None:
        """The HTTP status code, or the gRPC one with its name, if the span has one."""
        code = self.attribute(*_HTTP_STATUS_KEYS)
        if code is not None:
            return code
        grpc = self.attribute("rpc.grpc.status_code")
        if grpc is not None and grpc.isdigit() and int(grpc) < len(_GRPC_CODES):
            return f"{grpc} {_GRPC_CODES[int(grpc)]}"
        return grpc


def is_trace(data: Any) -> bool:
    """Whether parsed JSON is an OTLP export, Jaeger spans, Zipkin spans or X-Ray segments
    (for detection)."""
    if _proto_spans(data) is not None or _is_console_span(data) or is_xray(data):
        return True
    if _go_spans(data) is not None:  # the Go SDK's, a span or a list of them
        return True
    data = _unwrapped(data)
    if isinstance(data, list):
        return _zipkin_problem(data) is None
    if isinstance(data, dict):
        if "resourceSpans" in data:
            return True
        inner = data.get("data")
        if isinstance(inner, list):
            return bool(inner) and all(_is_jaeger_trace(t) for t in inner)
        return _is_jaeger_trace(inner) or _is_jaeger_trace(data)
    return False


def _unwrapped(data: Any) -> Any:
    """A trace in the wrappers query APIs answer with, as the export it wraps: OTLP/JSON in
    Jaeger's API v3 `{"result": …}` (one a line when the answer streams) or Tempo's API v2
    `{"trace": …}`; Tempo's first API's `{"batches": […]}` (OTLP's resourceSpans under another
    name); Jaeger traces as a bare array (the UI's download of several) as its API's
    `{"data": […]}`; a Zipkin span on its own as an array of one. Anything else as it is."""
    if isinstance(data, list) and data and all(_is_jaeger_trace(t) for t in data):
        return {"data": data}
    if isinstance(data, list) and data and all(_is_jaeger_span(s) for s in data):
        return {"data": _jaeger_traces_of_spans(data)}
    if isinstance(data, dict) and _is_zipkin_span(data):
        return [data]  # one Zipkin span, as its API documentation prints one
    if _is_jaeger_span(data):  # one span as Jaeger's storage keeps it (an Elasticsearch document)
        return {"data": _jaeger_traces_of_spans([data])}
    if not isinstance(data, dict) or "resourceSpans" in data:
        return data
    for key in ("result", "trace"):
        inner = data.get(key)
        if isinstance(inner, dict) and ("resourceSpans" in inner or "batches" in inner):
            return _unwrapped(inner)
    if isinstance(data.get("batches"), list):
        return {"resourceSpans": data["batches"]}
    return data


def _is_zipkin_span(data: dict) -> bool:
    """A Zipkin span on its own: ids, and where or when it ran (a log line holding a traceId
    and an id is not one)."""
    return (
        "traceId" in data
        and "id" in data
        and ("localEndpoint" in data or "remoteEndpoint" in data or "duration" in data)
    )


def _is_jaeger_trace(data: Any) -> bool:
    return isinstance(data, dict) and isinstance(data.get("spans"), list) and "processes" in data


def _is_jaeger_span(data: Any) -> bool:
    """A Jaeger span that carries its own process, as Jaeger's storage keeps one (and its
    anonymizer writes a trace as an array of them)."""
    return (
        isinstance(data, dict)
        and "spanID" in data
        and "operationName" in data
        and isinstance(data.get("process"), dict)
    )


def _jaeger_traces_of_spans(spans: list[dict]) -> list[dict]:
    """Spans that each carry their process, as traces in the query API's form."""
    traces: dict[str, dict] = {}
    for number, span in enumerate(spans):
        trace = traces.setdefault(str(span.get("traceID") or ""), {"spans": [], "processes": {}})
        trace["processes"][f"p{number}"] = span["process"]
        trace["spans"].append({**span, "processID": f"p{number}"})
    return [{"traceID": key, **trace} for key, trace in traces.items()]


def detect(text: str) -> int:
    """100 for an OTLP/JSON export, a Jaeger trace (or JSON Lines of exports), Zipkin spans,
    X-Ray segments or the Go SDK's stdout spans; 60 for a trace in a format volley does not
    read (Datadog's, Zipkin's Thrift JSON, …) or OTLP that holds logs or metrics alone, and
    50 for a JSON array of objects with a `traceId` that are not all spans, so that importing
    any of these says what it is rather than that its format is unknown; else 0."""
    if is_collector_text(text):
        return 90
    head = text.lstrip("\ufeff \t\r\n")[:4096]
    if head.startswith("["):
        # Zipkin's, Jaeger's; Zipkin's Thrift JSON and Datadog's, to say what they are
        if not any(key in head for key in ('"traceId"', '"traceID"', '"trace_id"', '"TraceID"')):
            return 0
    elif not head.startswith("{") or not (
        '"resourceSpans"' in head
        or '"spans"' in text
        or '"traceId"' in head  # Zipkin's one
        or '"spanID"' in head  # Jaeger's storage's one
        or '"span_id"' in head  # the Python SDK's console output
        or '"TraceID"' in head  # the Go SDK's stdout output; Jaeger's Cassandra span
        or '"trace_id"' in head  # an X-Ray segment
        or '"Traces"' in head  # X-Ray's batch-get-traces
        or '"Segments"' in head  # X-Ray's segments of one trace
        or '"TraceSegmentDocuments"' in head  # X-Ray's PutTraceSegments request
        or '"resourceLogs"' in head  # OTLP's other signals, to say they hold no spans
        or '"resourceMetrics"' in head
    ):
        return 0
    try:
        documents = _documents(text.lstrip("\ufeff"), None)
    except VolleyError:
        return 0
    traces = [d for d in documents if not _other_signal(d) and not is_xray_header(d)]
    if traces and all(is_trace(d) for d in traces):
        return 100
    if documents and all(map(_other_signal, documents)):  # import says it holds no spans
        return 60
    if any(_unread_format(d) for d in traces):  # import says what it is and where to get one
        return 60
    return 50 if head.startswith("[") and len(documents) == 1 else 0


def convert(
    text: str, filename: str | None = None, options: TrafficOptions | None = None
) -> list[Imported]:
    """`volley import` of a trace file: one diagram, its secrets masked unless asked not to."""
    options = options or TrafficOptions()
    diagram, others, cut = _read(text, options, filename)
    said: tuple[Diagnostic, ...] = ()
    if others:  # the collector's file exporter writes every signal alike
        verb = "is" if others == 1 else "are"
        records = f"{counted(others, 'record', 'records')} of this file {verb}"
        words = f"{records} logs or metrics, not spans: the diagram draws the traces alone"
        said = (Diagnostic(words, filename, severity="warning"),)
    said += tuple(  # a paste of the collector's output cut short: a span with its ids alone
        Diagnostic(
            "this span has no name and no times: the output seems cut short here",
            filename,
            line,
            1,
            severity="warning",
        )
        for line in cut
    )
    if not diagram.items:  # an empty diagram looks broken
        said += (
            Diagnostic(
                "the trace holds no spans: there is nothing to draw", filename, severity="warning"
            ),
        )
    return [replace(imported(diagram, options), warnings=said)]


def import_trace(
    text: str | bytes, options: TrafficOptions | None = None, filename: str | None = None
) -> Diagram:
    """The diagram of the trace(s) in an OTLP/JSON or Jaeger JSON file."""
    return _read(text, options or TrafficOptions(), filename)[0]


def _read(
    text: str | bytes, options: TrafficOptions, filename: str | None
) -> tuple[Diagram, int, list[int]]:
    """The diagram of a trace file, how many of its records are another signal's, and the
    lines of the collector's output where a span stops before its name and times."""
    if isinstance(text, bytes):
        text = text.decode("utf-8-sig", errors="replace")
    text = text.removeprefix("\ufeff")
    try:
        return _diagram(text, options, filename)
    except _NotATime as bad:
        raise _time_error(bad, text, filename) from None


# OTLP's other signals, which the collector's file exporter writes into the same file.
_OTHER_SIGNALS = ("resourceLogs", "resourceMetrics", "resourceProfiles")


def _other_signal(document: Any) -> bool:
    return isinstance(document, dict) and any(key in document for key in _OTHER_SIGNALS)


def _diagram(
    text: str, options: TrafficOptions, filename: str | None
) -> tuple[Diagram, int, list[int]]:
    cut: list[int] = []
    if is_collector_text(text):  # the collector's debug exporter, as printed
        printed, cut = collector_spans(text)
        documents: list[Any] = [printed]
    elif (logs := not_spans(text, filename)) is not None:
        raise logs
    else:
        documents = _documents(text, filename)
    others = sum(1 for document in documents if _other_signal(document))
    if others == len(documents):
        raise VolleyError(
            "this OTLP/JSON holds logs or metrics, not spans: there is no trace to draw",
            filename=filename,
            hint="export traces (resourceSpans), from the collector's file exporter's traces"
            " pipeline",
        )
    documents = [d for d in documents if not _other_signal(d) and not is_xray_header(d)]
    xray = xray_export(documents)  # X-Ray's documents, read together: a subsegment sent on
    if xray is not None:  # its own belongs to its segment's service
        documents = [document for document in documents if not is_xray(document)] + [xray]
    spans: list[_Span] = []
    for document in documents:
        if _is_console_span(document):
            spans.append(_console_span(document))
            continue
        go = _go_spans(document)
        if go is not None:
            spans += map(_go_span, go)
            continue
        unread = _unread_format(document)
        if unread is not None:
            what, hint = unread
            raise VolleyError(f"this is {what}", filename=filename, hint=hint)
        proto = _proto_spans(document)
        if proto is not None:
            read = [_from_proto(span, proto[1]) for span in proto[0]]
            spans += _jaeger_spans({"data": _jaeger_traces_of_spans(read)})
            continue
        data = _unwrapped(document)
        if isinstance(data, list) and not any(_zipkin_traces(data)):
            raise VolleyError(
                "there are no spans here: an empty array (what Zipkin's API answers when no"
                " trace matched)",
                filename=filename,
            )
        problem = _zipkin_problem(data) if isinstance(data, list) else None
        if problem is not None and _looks_zipkin(data):
            raise VolleyError(
                f"this is not Zipkin JSON: {problem}",
                filename=filename,
                hint="Zipkin's v2 API gives a trace as an array of spans, each an object with"
                " traceId and id (GET /api/v2/trace/{id}); /api/v2/traces gives an array of those",
            )
        if not is_trace(data):
            raise VolleyError(
                "this is not a trace: expected OTLP/JSON (resourceSpans), Jaeger JSON"
                " (spans and processes), Zipkin JSON (an array of spans with traceId and id),"
                " Tempo's (batches) or an AWS X-Ray segment document (trace_id and"
                " subsegments)",
                filename=filename,
            )
        if isinstance(data, list):
            spans += _zipkin_spans(data)
        else:
            spans += _otlp_spans(data) if "resourceSpans" in data else _jaeger_spans(data)
    return _Builder(spans, options).diagram(), others, cut


_FROM_JAEGER = "download the trace as JSON from Jaeger's UI, or GET /api/traces/{trace id}"
_FROM_ZIPKIN = "Zipkin's v2 API gives the trace as Zipkin JSON: GET /api/v2/trace/{trace id}"
_FROM_OTEL = (
    "volley reads OpenTelemetry's OTLP/JSON, Jaeger's and Zipkin's JSON and AWS X-Ray's "
    "segments: an OpenTelemetry collector's file exporter writes a trace as OTLP/JSON"
)


def _unread_format(document: Any) -> tuple[str, str] | None:
    """What a trace in a format volley does not read is, and where to get one it reads; None
    for any other document."""
    spans = document.get("spans") if isinstance(document, dict) else None
    first = _first_dict(spans) if isinstance(spans, list) else {}
    if "traceIdLow" in first:
        return (
            "a Jaeger batch in its Thrift model (traceIdLow, numbered span ids, vStr tags), what"
            " a tracer sends Jaeger's collector; volley reads the traces Jaeger gives back",
            _FROM_JAEGER,
        )
    if "local_endpoint" in first or "remote_endpoint" in first:
        return "a trace in the JSON of Zipkin's proto3 model (local_endpoint, ids in base64)", (
            _FROM_ZIPKIN
        )
    if isinstance(document, dict) and {"TraceID", "SpanID", "OperationName"} <= document.keys():
        return "a span as Jaeger's Cassandra storage keeps it", _FROM_JAEGER
    if isinstance(document, list):
        span = _first_dict(document)
        if "binary_annotations" in span or "trace_id" in span and "annotations" in span:
            return "a trace in Zipkin v1's Thrift JSON (trace_id, binary_annotations)", _FROM_ZIPKIN
        inner = _first_dict(document[0]) if document and isinstance(document[0], list) else {}
        if {"trace_id", "span_id", "resource"} <= inner.keys():
            return (
                "a trace in Datadog's format (lists of spans with trace_id, span_id and resource)",
                (_FROM_OTEL),
            )
    return None


def _first_dict(items: Any) -> dict:
    """The first object in a list, or an empty one."""
    if not isinstance(items, list):
        return {}
    return next((item for item in items if isinstance(item, dict)), {})


def _documents(text: str, filename: str | None) -> list[Any]:
    """One JSON document, or several one after another: JSON Lines (the collector's file
    exporter writes those) or indented ones (grpcurl prints each message of a stream so)."""
    try:
        return json_documents(text)
    except json.JSONDecodeError as error:
        raise json_error(error, text, filename, "trace") from None


# --- OTLP/JSON --------------------------------------------------------------------------------


def _any_value(value: Any) -> str:
    """An OTLP AnyValue as text: scalars as written, arrays and maps as compact JSON that keeps
    their values' types (`["a", 2]`, `{"ok": true}`)."""
    if not isinstance(value, dict):
        return "" if value is None else str(value)
    for key in ("stringValue", "intValue", "doubleValue", "bytesValue"):
        if key in value:
            return str(value[key])
    if "boolValue" in value:
        return "true" if value["boolValue"] else "false"
    if "arrayValue" in value or "kvlistValue" in value:
        return json.dumps(_json_value(value), ensure_ascii=False)
    return ""


def _json_value(value: Any) -> Any:
    """An OTLP AnyValue as the JSON value it stands for (OTLP/JSON writes a 64-bit int as a
    string, and a double may be "NaN" or "Infinity", which stay text)."""
    if not isinstance(value, dict):
        return None
    if "intValue" in value:
        try:
            return int(value["intValue"])
        except (TypeError, ValueError):
            return str(value["intValue"])
    if "doubleValue" in value:
        number = value["doubleValue"]
        return number if isinstance(number, (int, float)) else str(number)
    if "boolValue" in value:
        return bool(value["boolValue"])
    if "arrayValue" in value:
        return [_json_value(v) for v in (value["arrayValue"] or {}).get("values") or []]
    if "kvlistValue" in value:
        pairs = (value["kvlistValue"] or {}).get("values") or []
        return {
            str(p.get("key")): _json_value(p.get("value")) for p in pairs if isinstance(p, dict)
        }
    return value.get("stringValue", value.get("bytesValue"))


def _otlp_attributes(raw: Any) -> list[tuple[str, str]]:
    if isinstance(raw, dict):  # a map of names to values, as some writers give them
        return [(str(key), _map_value(value)) for key, value in raw.items()]
    return [
        (str(a.get("key")), _any_value(a.get("value")))
        for a in raw or []
        if isinstance(a, dict) and a.get("key")
    ]


def _map_value(value: Any) -> str:
    """A value of attributes written as a map: an OTLP AnyValue, or plain JSON (`"manticore"`,
    `true`, `3`, `["a"]`) as JSON writes it, a string without its quotes."""
    if isinstance(value, dict) and _ANY_VALUE_KEYS & value.keys():
        return _any_value(value)
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)


_ANY_VALUE_KEYS = frozenset(
    (
        "stringValue",
        "intValue",
        "doubleValue",
        "bytesValue",
        "boolValue",
        "arrayValue",
        "kvlistValue",
    )
)


def _otlp_kind(raw: Any) -> str:
    if isinstance(raw, int):
        return _KINDS.get(raw, "unspecified")
    return str(raw or "").removeprefix("SPAN_KIND_").lower() or "unspecified"


def _otlp_error(status: Any) -> str | None:
    if not isinstance(status, dict):
        return None
    code = status.get("code")
    if code == 2 or code == "STATUS_CODE_ERROR":
        return str(status.get("message") or "")
    return None


class _NotATime(ValueError):
    """A span's time or duration that is not a number: the file's fault, said with its place
    by `import_trace`."""

    def __init__(self, raw: Any, expected: str = "a number") -> None:
        super().__init__(f"a time that is not {expected}: {str(raw)[:40]!r}")
        self.raw = raw
        self.expected = expected


def _nanos(raw: Any) -> int:
    """A time or a duration as an integer (OTLP/JSON writes 64-bit ones as strings); 0 when
    the span leaves it out, `_NotATime` when it is not a number."""
    if raw is None or raw == "":
        return 0
    if isinstance(raw, bool):  # int() would read true as 1
        raise _NotATime(raw)
    try:
        return int(raw)
    except (TypeError, ValueError):
        raise _NotATime(raw) from None


# A time or duration member of any of the formats (startTimeUnixNano, startTime,
# timestamp, duration ...), up to its value.
_TIME_MEMBER = r'"(?:\w*[Tt]ime\w*|duration|timestamp)"\s*:\s*'


def _time_error(bad: _NotATime, text: str, filename: str | None) -> VolleyError:
    """The error for a time that is not a number, at the member that holds it when the file
    writes it as `json` would (one of a few spellings: a string, true, null ...)."""
    written = json.dumps(bad.raw, ensure_ascii=False)
    found = re.search(_TIME_MEMBER + "(" + re.escape(written) + ")", text)
    message = f"a span's time is not {bad.expected}: {written[:40]}"
    hint = (
        "a trace gives times as whole numbers (nanoseconds in OTLP/JSON, microseconds in"
        " Jaeger and Zipkin JSON, seconds with a fraction in X-Ray's), or as strings of digits;"
        " Jaeger's protobuf JSON gives RFC 3339 times (2017-01-26T16:46:31.639875Z) and"
        " durations such as 0.0015s"
    )
    if found is None:
        return VolleyError(message, filename=filename, hint=hint)
    return VolleyError(message, filename=filename, hint=hint, **place_in(text, found.start(1)))


def _optional_nanos(raw: Any) -> int | None:
    return None if raw is None or raw == "" else _nanos(raw)


def _times_1000(micros: int | None) -> int | None:
    """Microseconds (Jaeger's and Zipkin's times) as nanoseconds (OTLP's, and the spans')."""
    return None if micros is None else micros * 1000


_ZIPKIN_V1_CORE = frozenset({"cs", "sr", "ss", "cr"})


def _end(start: int, duration: Any) -> int | None:
    """The end of a Jaeger or Zipkin span from its duration in microseconds; None without
    one (Zipkin leaves it out of a span that was never finished, or that only logged)."""
    micros = _optional_nanos(duration)
    return None if micros is None else start + micros * 1000


def _otlp_spans(data: dict) -> Iterator[_Span]:
    for resource_spans in data.get("resourceSpans") or []:
        resource = _otlp_attributes((resource_spans.get("resource") or {}).get("attributes"))
        service = dict(resource).get("service.name") or "unknown service"
        scopes = resource_spans.get("scopeSpans") or resource_spans.get(
            "instrumentationLibrarySpans"  # OTLP before 0.15
        )
        for scope in scopes or []:
            about = _otlp_scope(_dict(scope.get("scope") or scope.get("instrumentationLibrary")))
            for span in scope.get("spans") or []:
                yield _Span(
                    trace=str(span.get("traceId") or ""),
                    id=str(span.get("spanId") or ""),
                    parent=span.get("parentSpanId") or None,
                    service=service,
                    name=str(span.get("name") or ""),
                    kind=_otlp_kind(span.get("kind")),
                    start=_nanos(span.get("startTimeUnixNano")),
                    end=_optional_nanos(span.get("endTimeUnixNano")),
                    attributes=[*_otlp_attributes(span.get("attributes")), *about],
                    error=_otlp_error(span.get("status")),
                    events=[
                        _Event(
                            str(e.get("name") or "event"),
                            _otlp_attributes(e.get("attributes")),
                            _optional_nanos(e.get("timeUnixNano")),
                        )
                        for e in span.get("events") or []
                        if isinstance(e, dict)
                    ],
                    links=[_otlp_link(link, span) for link in _dicts(span.get("links"))],
                    resource=_unnamed(resource),
                )


def _unnamed(resource: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """A resource's attributes but the service's name, which names the lane."""
    return [(key, value) for key, value in resource if key != "service.name"]


def _otlp_scope(scope: dict) -> list[tuple[str, str]]:
    """The library that made a span (its instrumentation scope), as OpenTelemetry names it in
    formats without scopes: `otel.scope.name`, `otel.scope.version`, and its attributes under
    the same prefix."""
    said = [(f"otel.scope.{key}", str(scope[key])) for key in ("name", "version") if scope.get(key)]
    attributes = _otlp_attributes(scope.get("attributes"))
    return said + [(f"otel.scope.{key}", value) for key, value in attributes]


def _dict(raw: Any) -> dict:
    return raw if isinstance(raw, dict) else {}


def _dicts(raw: Any) -> list[dict]:
    return [item for item in raw if isinstance(item, dict)] if isinstance(raw, list) else []


def _otlp_link(link: dict, span: dict) -> str:
    """A link as the payload says it: the span, its trace when another, its attributes."""
    said = _linked(link.get("spanId"), link.get("traceId"), span.get("traceId"))
    attributes = _otlp_attributes(link.get("attributes"))
    return said + "".join(f", {key}={value}" for key, value in attributes)


def _linked(span_id: Any, trace: Any, own_trace: Any) -> str:
    """`span 0b`, or `span 0b of trace 02` when it is in another trace than the span's own."""
    said = f"span {span_id or '?'}"
    return f"{said} of trace {trace}" if trace and trace != own_trace else said


# --- Jaeger JSON ------------------------------------------------------------------------------


def _jaeger_traces(data: dict) -> list[dict]:
    inner = data.get("data")
    if isinstance(inner, list):
        return [t for t in inner if _is_jaeger_trace(t)]
    return [inner] if isinstance(inner, dict) and _is_jaeger_trace(inner) else [data]


def _jaeger_tags(raw: Any) -> list[tuple[str, str]]:
    tags = []
    for tag in raw or []:
        if isinstance(tag, dict) and tag.get("key"):
            value = tag.get("value")
            text = ("true" if value else "false") if isinstance(value, bool) else str(value)
            tags.append((str(tag["key"]), text))
    return tags


def _jaeger_spans(data: dict) -> Iterator[_Span]:
    for trace in _jaeger_traces(data):
        processes = trace.get("processes") or {}
        for span in trace.get("spans") or []:
            tags = _jaeger_tags(span.get("tags"))
            found = dict(tags)
            process = processes.get(span.get("processID")) or {}
            parent = _jaeger_parent(span)
            others = [
                f"{ref.get('refType') or 'reference'} "
                + _linked(ref.get("spanID"), ref.get("traceID"), span.get("traceID"))
                for ref in _dicts(span.get("references"))
                if str(ref.get("spanID")) != parent
            ]
            failed = found.get("error") == "true" or found.get("otel.status_code") == "ERROR"
            start = _nanos(span.get("startTime")) * 1000  # microseconds in Jaeger
            yield _Span(
                trace=str(span.get("traceID") or ""),
                id=str(span.get("spanID") or ""),
                parent=parent,
                service=str(process.get("serviceName") or "unknown service"),
                name=str(span.get("operationName") or ""),
                kind=found.get("span.kind", "internal").lower(),
                start=start,
                end=_end(start, span.get("duration")),
                attributes=[(k, v) for k, v in tags if k not in ("span.kind", "error")],
                error=(found.get("otel.status_description") or "") if failed else None,
                events=[
                    _jaeger_log(log) for log in span.get("logs") or [] if isinstance(log, dict)
                ],
                links=others,
                resource=_jaeger_tags(process.get("tags")),
            )


def _jaeger_parent(span: dict) -> str | None:
    """The span this one hangs under: its CHILD_OF reference, else its FOLLOWS_FROM one (how
    Jaeger's clients link a message's consumer to its producer), in the same trace."""
    references = [
        ref
        for ref in span.get("references") or []
        if isinstance(ref, dict) and ref.get("traceID") == span.get("traceID")
    ]
    for kind in ("CHILD_OF", "FOLLOWS_FROM"):
        found = next((ref.get("spanID") for ref in references if ref.get("refType") == kind), None)
        if found:
            return str(found)
    return None


def _jaeger_log(log: dict) -> _Event:
    fields = _jaeger_tags(log.get("fields"))
    name = dict(fields).get("event") or "log"
    micros = _optional_nanos(log.get("timestamp"))  # microseconds in Jaeger
    return _Event(name, [(k, v) for k, v in fields if k != "event"], _times_1000(micros))


# --- Jaeger's protobuf JSON ------------------------------------------------------------------
# Jaeger's api_v2 model as protobuf's JSON mapping writes it: what its gRPC API answers (grpcurl
# prints `{"spans": […]}` for each chunk of a trace), what its collector writes to Kafka with
# the `json` encoding (a span a message), and how its own test data writes spans. Each span is
# read into the query API's form above: ids in hex, times in microseconds, `{key, value}` tags.


def _proto_spans(data: Any) -> tuple[list[dict], dict[str, Any]] | None:
    """The spans a document of Jaeger's protobuf JSON holds, and the processes its trace names
    by id; None for any other document. A span has `spanId` and `operationName` (the query
    API writes `spanID`, OTLP `name`); it stands alone, or in a list, or in a trace's
    `{"spans": […], "processMap": […]}`, or in a gateway's `{"result": …}`."""
    if isinstance(data, dict) and isinstance(data.get("result"), dict):
        data = data["result"]
    processes: dict[str, Any] = {}
    if isinstance(data, dict) and isinstance(data.get("spans"), list):
        for entry in _dicts(data.get("processMap")):
            processes[str(entry.get("processId"))] = entry.get("process")
        data = data["spans"]
    spans = data if isinstance(data, list) else [data]
    if not spans or not all(_is_proto_span(span) for span in spans):
        return None
    return spans, processes


def _is_proto_span(data: Any) -> bool:
    return isinstance(data, dict) and "spanId" in data and "operationName" in data


def _from_proto(span: dict, processes: dict[str, Any]) -> dict:
    """One span of the protobuf JSON in the query API's form (which `_jaeger_spans` reads),
    with its process: its own, or the trace's `processMap` entry it names."""
    process = span.get("process")
    if not isinstance(process, dict):
        process = processes.get(str(span.get("processId")))
    process = process if isinstance(process, dict) else {}
    return {
        "traceID": _proto_id(span.get("traceId")),
        "spanID": _proto_id(span.get("spanId")),
        "operationName": span.get("operationName"),
        "references": [
            {
                # protobuf's JSON leaves out a field's default: CHILD_OF, the first refType
                "refType": ref.get("refType") or "CHILD_OF",
                "traceID": _proto_id(ref.get("traceId")),
                "spanID": _proto_id(ref.get("spanId")),
            }
            for ref in _dicts(span.get("references"))
        ],
        "startTime": _proto_time(span.get("startTime")),
        "duration": _proto_duration(span.get("duration")),
        "tags": _proto_tags(span.get("tags")),
        "logs": [
            {
                "timestamp": _proto_time(log.get("timestamp")),
                "fields": _proto_tags(log.get("fields")),
            }
            for log in _dicts(span.get("logs"))
        ],
        "process": {
            "serviceName": process.get("serviceName"),
            "tags": _proto_tags(process.get("tags")),
        },
    }


def _proto_id(raw: Any) -> str:
    """An id in hex: protobuf's JSON writes Jaeger's 16- and 8-byte ids in base64, always
    padded (`AAAAAAAAAAI=`), and Jaeger's own test data writes them in hex."""
    text = "" if raw is None else str(raw)
    if text.endswith("="):
        try:
            return base64.b64decode(text, validate=True).hex()
        except binascii.Error:
            pass
    return text


# The value each type keeps in its own member; protobuf's JSON leaves out a zero value, and the
# type itself when it is STRING, the first.
_PROTO_VALUES = {
    "STRING": ("vStr", ""),
    "BOOL": ("vBool", False),
    "INT64": ("vInt64", 0),
    "FLOAT64": ("vFloat64", 0),
    "BINARY": ("vBinary", ""),  # base64, shown as written
}


def _proto_tags(raw: Any) -> list[dict]:
    tags = []
    for tag in _dicts(raw):
        member, zero = _PROTO_VALUES.get(str(tag.get("vType") or "STRING").upper(), ("vStr", ""))
        value = tag.get(member)
        tags.append({"key": tag.get("key"), "value": zero if value is None else value})
    return tags


_RFC3339 = re.compile(r"(\d{4}-\d\d-\d\d[Tt ]\d\d:\d\d:\d\d)(?:\.(\d+))?([Zz]|[+-]\d\d:\d\d)")
_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


def _proto_time(raw: Any) -> int | None:
    """A time as protobuf's JSON writes a Timestamp (RFC 3339: `2017-01-26T16:46:31.639875Z`,
    or with an offset), in microseconds since the epoch."""
    nanos = _rfc3339_nanos(raw)
    return None if nanos is None else nanos // 1000


def _rfc3339_nanos(raw: Any) -> int | None:
    """An RFC 3339 time (`2017-01-26T16:46:31.639875139-05:00`) in nanoseconds since the
    epoch; None when there is none, `_NotATime` when it is not one."""
    if raw is None or raw == "":
        return None
    found = _RFC3339.fullmatch(raw) if isinstance(raw, str) else None
    if found is None:
        raise _NotATime(raw, "an RFC 3339 time")
    clock, fraction, zone = found.groups()
    try:
        when = datetime.fromisoformat(clock + ("+00:00" if zone in "Zz" else zone))
    except ValueError:  # a day or an hour that does not exist: 2017-02-30, 25:00
        raise _NotATime(raw, "an RFC 3339 time") from None
    nanos = ((fraction or "") + "000000000")[:9]
    return (when - _EPOCH) // timedelta(seconds=1) * 1_000_000_000 + int(nanos)


_DURATION = re.compile(r"(?:(?:\d+(?:\.\d*)?|\.\d+)(?:ns|us|µs|μs|ms|s|m|h))+")
_DURATION_PART = re.compile(r"(\d+(?:\.\d*)?|\.\d+)(ns|us|µs|μs|ms|s|m|h)")
_NANOS_IN = {"ns": 1, "us": 1_000, "µs": 1_000, "μs": 1_000, "ms": 1_000_000, "s": 10**9}
_NANOS_IN |= {"m": 60 * 10**9, "h": 3600 * 10**9}


def _proto_duration(raw: Any) -> int | None:
    """A duration as protobuf's JSON writes one (`0.001245672s`), or as Go writes one
    (`5000ns`, `1m30s`, which Jaeger's own test data uses), in whole microseconds."""
    if raw is None or raw == "":
        return None
    if not isinstance(raw, str) or not _DURATION.fullmatch(raw):
        raise _NotATime(raw, "a duration")
    nanos = sum(Fraction(number) * _NANOS_IN[unit] for number, unit in _DURATION_PART.findall(raw))
    return int(nanos) // 1000


# --- the OpenTelemetry Python SDK's console output ------------------------------------------
# What its ConsoleSpanExporter prints (OpenTelemetry's own getting-started pages show it): each
# span as an indented JSON object, one after another, with hex ids after `0x`, RFC 3339 times,
# `"kind": "SpanKind.SERVER"` and the resource's attributes (older SDKs print them bare).


def _is_console_span(data: Any) -> bool:
    context = data.get("context") if isinstance(data, dict) else None
    return (
        isinstance(context, dict)
        and "span_id" in context
        and str(data.get("kind", "")).startswith("SpanKind.")
    )


def _console_span(span: dict) -> _Span:
    context = span["context"]
    trace = _console_id(context.get("trace_id"))
    resource = _dict(span.get("resource"))
    shared = _dict(resource.get("attributes", resource))  # older SDKs print them bare
    status = _dict(span.get("status"))
    failed = status.get("status_code") == "ERROR"
    links = []
    for link in _dicts(span.get("links")):
        linked = _dict(link.get("context"))
        said = _linked(
            _console_id(linked.get("span_id")), _console_id(linked.get("trace_id")), trace
        )
        links.append(said + "".join(f", {k}={v}" for k, v in _console_attributes(link)))
    return _Span(
        trace=trace,
        id=_console_id(context.get("span_id")),
        parent=_console_id(span.get("parent_id")) or None,
        service=str(shared.get("service.name") or "unknown service"),
        name=str(span.get("name") or ""),
        kind=str(span.get("kind")).removeprefix("SpanKind.").lower(),
        start=_rfc3339_nanos(span.get("start_time")) or 0,
        end=_rfc3339_nanos(span.get("end_time")),
        attributes=_console_attributes(span),
        error=str(status.get("description") or "") if failed else None,
        events=[
            _Event(
                str(event.get("name") or "event"),
                _console_attributes(event),
                _rfc3339_nanos(event.get("timestamp")),
            )
            for event in _dicts(span.get("events"))
        ],
        links=links,
        resource=_unnamed([(str(key), _json_text(value)) for key, value in shared.items()]),
    )


def _go_spans(data: Any) -> list[dict] | None:
    """The spans of what OpenTelemetry's Go SDK prints with its stdout exporter (stdouttrace):
    one span (`Name`, `SpanContext`, `SpanKind`, …) a JSON object, or a list of them; None
    when `data` is not that."""
    spans = data if isinstance(data, list) else [data]
    if spans and all(
        isinstance(span, dict)
        and isinstance(span.get("SpanContext"), dict)
        and "SpanID" in span["SpanContext"]
        and "SpanKind" in span
        for span in spans
    ):
        return spans
    return None


# Go's zero time: what its exporter prints for a span that has not ended
_GO_ZERO_TIME = "0001-01-01T00:00:00Z"


def _go_span(span: dict) -> _Span:
    context, parent = _dict(span.get("SpanContext")), _dict(span.get("Parent"))
    parent_id = str(parent.get("SpanID") or "")
    status = _dict(span.get("Status"))
    ended = span.get("EndTime")
    resource = _go_attributes(span.get("Resource"))
    return _Span(
        trace=str(context.get("TraceID") or ""),
        id=str(context.get("SpanID") or ""),
        parent=parent_id if parent_id.strip("0") else None,  # all zeros: a root
        service=dict(resource).get("service.name", "unknown service"),
        name=str(span.get("Name") or ""),
        kind=_KINDS.get(span["SpanKind"], "unspecified"),
        start=_rfc3339_nanos(span.get("StartTime")) or 0,
        end=None if ended == _GO_ZERO_TIME else _rfc3339_nanos(ended),
        attributes=_go_attributes(span.get("Attributes")),
        error=str(status.get("Description") or "") if status.get("Code") == "Error" else None,
        events=[
            _Event(
                str(event.get("Name") or "event"),
                _go_attributes(event.get("Attributes")),
                _rfc3339_nanos(event.get("Time")),
            )
            for event in _dicts(span.get("Events"))
        ],
        links=[
            _linked(linked.get("SpanID"), linked.get("TraceID"), context.get("TraceID"))
            for linked in (_dict(link.get("SpanContext")) for link in _dicts(span.get("Links")))
        ],
        resource=_unnamed(resource),
    )


def _go_attributes(items: Any) -> list[tuple[str, str]]:
    """Go's `[{"Key": …, "Value": {"Type": "STRING", "Value": …}}]` as (key, value) pairs, a
    slice's values as compact JSON."""
    return [
        (str(item.get("Key")), _json_text(_dict(item.get("Value")).get("Value")))
        for item in _dicts(items)
    ]


def _console_id(raw: Any) -> str:
    """`0x9f528e0b…` as the hex the other formats write."""
    return "" if raw is None else str(raw).removeprefix("0x")


def _console_attributes(owner: dict) -> list[tuple[str, str]]:
    """Attributes as Python printed them to JSON: scalars as written (a bool as true or
    false), lists as compact JSON."""
    attributes = owner.get("attributes")
    if not isinstance(attributes, dict):
        return []
    return [(str(key), _json_text(value)) for key, value in attributes.items()]


def _json_text(value: Any) -> str:
    if isinstance(value, bool) or value is None:
        return json.dumps(value)
    if isinstance(value, (list, dict)):
        return json.dumps(value, ensure_ascii=False)
    return str(value)


# --- Zipkin JSON (v2) --------------------------------------------------------------------------


def _zipkin_traces(data: list) -> list[list]:
    """The traces of Zipkin JSON: one trace's array of spans, or `/api/v2/traces`' array of them."""
    if data and all(isinstance(trace, list) for trace in data):
        return data
    return [data]


def _looks_zipkin(data: list) -> bool:
    """Whether a JSON array holds something span-like (an object with a traceId) at all."""
    return any(
        isinstance(span, dict) and "traceId" in span for t in _zipkin_traces(data) for span in t
    )


def _zipkin_problem(data: list) -> str | None:
    """What keeps a JSON array from being Zipkin v2 spans (for its error), or None if nothing."""
    traces = _zipkin_traces(data)
    if not any(traces):
        return "it holds no spans"
    for number, trace in enumerate(traces, start=1):
        where = f"trace {number}, " if len(traces) > 1 else ""
        for index, span in enumerate(trace, start=1):
            if not isinstance(span, dict):
                return f"{where}span {index} is {_json_type(span)}, not an object"
            missing = [key for key in ("traceId", "id") if not isinstance(span.get(key), str)]
            if missing:
                return f"{where}span {index} has no {' or '.join(missing)} (a hex string)"
            for key, kind in _ZIPKIN_MEMBERS.items():
                if span.get(key) is not None and not isinstance(span[key], kind):
                    wanted = "an object" if kind is dict else "an array"
                    return f"{where}span {index}'s {key} is {_json_type(span[key])}, not {wanted}"
            # v1 names services in binaryAnnotations, or only in its annotations' endpoints
            # (`{"value": "sr", "endpoint": {"serviceName": …}}`, binaryAnnotations left out)
            v1 = "binaryAnnotations" if "binaryAnnotations" in span else None
            if v1 is None and any(
                isinstance(note, dict) and "endpoint" in note
                for note in span.get("annotations") or ()
            ):
                v1 = "annotations with an endpoint"
            if v1 is not None:
                return (
                    f"{where}span {index} is Zipkin's v1 format ({v1}); export the v2 format"
                    " (/api/v2/trace/{id})"
                )
    return None


# Members of a Zipkin span that hold more than one value, and what JSON type they are.
_ZIPKIN_MEMBERS = {"localEndpoint": dict, "remoteEndpoint": dict, "tags": dict, "annotations": list}


def _json_type(value: Any) -> str:
    names = {dict: "an object", list: "an array", str: "a string", bool: "a boolean"}
    return names.get(type(value), "a number")


def _endpoint_address(endpoint: dict) -> str | None:
    host = endpoint.get("ipv4") or endpoint.get("ipv6")
    port = endpoint.get("port")
    if host and port:
        return f"[{host}]:{port}" if ":" in str(host) else f"{host}:{port}"
    return str(host or port) if host or port else None


def _zipkin_service(span: dict) -> str:
    """The service a span ran in: its local endpoint's name, else its address (as the remote
    end of a call is named when it has no name), else "unknown service"."""
    local = span.get("localEndpoint") or {}
    return str(local.get("serviceName") or _endpoint_address(local) or "unknown service")


def _zipkin_spans(data: list) -> Iterator[_Span]:
    """Zipkin's spans as the others'. Zipkin may record both halves of a call under one span
    id, the server's marked `shared`: the server half becomes a child of the client half, and
    a span whose parent is such an id belongs under the server half (where it ran) unless it
    runs in the client's service."""
    spans = _zipkin_whole([span for trace in _zipkin_traces(data) for span in trace])
    clients = {
        (s["traceId"], s["id"]): _zipkin_service(s) for s in spans if s.get("shared") is not True
    }
    servers = {
        (s["traceId"], s["id"]): _zipkin_service(s) for s in spans if s.get("shared") is True
    }
    for span in spans:
        trace, service = span["traceId"], _zipkin_service(span)
        span_id = span["id"]
        parent = str(span["parentId"]) if span.get("parentId") else None
        if span.get("shared") is True and (trace, span_id) in clients:
            span_id, parent = _server_half(span_id), span_id
        else:
            client, server = clients.get((trace, parent)), servers.get((trace, parent))
            ran_in_server = client != service or server == service
            if parent and parent != span_id and client and server and ran_in_server:
                parent = _server_half(parent)
        tags = [(str(key), str(value)) for key, value in (span.get("tags") or {}).items()]
        found = dict(tags)
        error = found.get("error")
        if error is None and found.get("otel.status_code") == "ERROR":  # OpenTelemetry's status
            error = found.get("otel.status_description") or ""
        remote = span.get("remoteEndpoint") or {}
        address = _endpoint_address(remote)
        attributes = [(key, value) for key, value in tags if key != "error"]
        if remote.get("serviceName") or address:
            attributes.append(
                ("remoteEndpoint", " ".join(filter(None, [remote.get("serviceName"), address])))
            )
        start = _nanos(span.get("timestamp")) * 1000  # microseconds in Zipkin
        yield _Span(
            trace=str(trace),
            id=str(span_id),
            parent=parent,
            service=service,
            name=str(span.get("name") or "").strip(),  # a tracer may name a span "\n"
            kind=_zipkin_kind(span),
            start=start,
            end=_end(start, span.get("duration")),
            attributes=attributes,
            # Zipkin's `error` tag holds the message; some tracers write just "true"; spans from
            # OpenTelemetry say it in `otel.status_code` and `otel.status_description`
            error=None if error is None else ("" if error == "true" else error),
            events=[
                _Event(
                    str(a.get("value") or "annotation"),
                    [],
                    _times_1000(_optional_nanos(a.get("timestamp"))),  # microseconds
                )
                for a in span.get("annotations") or []
                # cs, sr, ss, cr: Zipkin v1's client send … client receive, which the arrows
                # draw (data converted from v1, as Istio's, still carries them)
                if isinstance(a, dict) and a.get("value") not in _ZIPKIN_V1_CORE
            ],
            peer=remote.get("serviceName") or _both_halves(span, service),
            peer_address=address,
        )


def _both_halves(span: dict, service: str) -> str | None:
    """The service a call went to when its span holds both halves of it (Zipkin v1's client
    send and server receive, merged into one span): the span's own, a call to itself."""
    values = {a.get("value") for a in span.get("annotations") or [] if isinstance(a, dict)}
    return service if {"cs", "sr"} <= values else None


def _zipkin_whole(spans: list[dict]) -> list[dict]:
    """Zipkin's spans with each one's pieces put together, as Zipkin's own UI and API merge
    them: a tracer may report one span in several records of the same trace, id and service
    (its name in one, its kind, times and tags in another), whose kind and `shared` flag do not
    disagree. Left apart, a piece without a kind took the place of the client's call."""
    whole: list[dict] = []
    by_key: dict[tuple[str, str, str], list[dict]] = {}
    for span in spans:
        key = (str(span["traceId"]), str(span["id"]), _zipkin_service(span))
        same = next((s for s in by_key.get(key, []) if _pieces_of_one(s, span)), None)
        if same is None:
            piece = dict(span)
            by_key.setdefault(key, []).append(piece)
            whole.append(piece)
            continue
        for name, value in span.items():
            if name == "tags":
                same["tags"] = {**(same.get("tags") or {}), **(value or {})}
            elif name == "annotations":
                same["annotations"] = [*(same.get("annotations") or []), *(value or [])]
            elif same.get(name) in (None, "", {}, []):
                same[name] = value
    return whole


def _pieces_of_one(one: dict, other: dict) -> bool:
    """Whether two records of one id and service can be one span's pieces: they do not say
    different kinds, nor different sides of a shared call."""
    return all(
        one.get(name) is None or other.get(name) is None or one[name] == other[name]
        for name in ("kind", "shared")
    )


def _zipkin_kind(span: dict) -> str:
    """The span's kind; a span from Zipkin v1 (or converted from it) has none, and says it in
    its annotations instead: `cs`/`cr` a client's send and receive, `sr`/`ss` a server's."""
    if span.get("kind"):
        return str(span["kind"]).lower()
    said = {a.get("value") for a in span.get("annotations") or [] if isinstance(a, dict)}
    return "client" if "cs" in said else "server" if "sr" in said else "internal"


# What the arrow of a span without a name says (a tracer wrote its name as "\n").
_UNNAMED = "(unnamed span)"


def _server_half(span_id: str) -> str:
    return f"{span_id} server"


# --- The diagram ------------------------------------------------------------------------------


class _Builder:
    def __init__(self, spans: list[_Span], options: TrafficOptions) -> None:
        self.options = options
        self.lanes: dict[str, str] = {}
        self.labels: dict[str, str] = {}  # lane name → what its box shows, where they differ
        self.resourced: set[tuple[str, tuple]] = set()  # (service, resource) said in a payload
        self.spans: list[_Span] = []
        # what consumers did with a message, kept back to be drawn at its time (`publish`),
        # and events after their span's end: (when, the items, when it ended; None for an
        # event, a moment, which no call runs beside as a branch of a `par`)
        self._late: list[_Late] = []
        kept: dict[tuple[str, str], int] = {}  # where each span is in self.spans
        for span in spans:  # the same span twice (ui_01 has one): keep the first, unless it
            # was still open and this one ended (X-Ray sends a segment in progress, then the
            # complete one to overwrite it)
            at = kept.get((span.trace, span.id)) if span.id else None
            if at is None:  # spans with no id (the OTLP specification's example) are many
                kept[(span.trace, span.id)] = len(self.spans)
                self.spans.append(span)
            elif self.spans[at].end is None and span.end is not None:
                self.spans[at] = span
        by_id = {(s.trace, s.id): s for s in self.spans}
        self.roots: dict[str, list[_Span]] = defaultdict(list)
        for span in self.spans:
            parent = by_id.get((span.trace, span.parent)) if span.parent else None
            if parent is None or parent is span:
                self.roots[span.trace].append(span)
            else:
                parent.children.append(span)
        self._break_parent_loops(by_id)
        for span in self.spans:
            span.children.sort(key=lambda s: s.start)

    def _break_parent_loops(self, by_id: dict[tuple[str, str], _Span]) -> None:
        """Spans whose parents lead back to themselves (a broken export) reach no root: the
        first to start of each such loop is drawn as a root, so that no span is left out."""
        reached: set[int] = set()

        def reach(span: _Span) -> None:
            stack = [span]
            while stack:
                here = stack.pop()
                if id(here) not in reached:
                    reached.add(id(here))
                    stack += here.children

        for roots in self.roots.values():
            for root in roots:
                reach(root)
        if len(reached) == len(self.spans):
            return  # every span is under a root: the usual case
        for span in sorted(self.spans, key=lambda s: s.start):
            if id(span) in reached or span.parent is None:
                continue
            by_id[(span.trace, span.parent)].children.remove(span)
            self.roots[span.trace].append(span)
            reach(span)

    def lane(self, service: str) -> str:
        service = _without_userinfo(service)
        if service not in self.lanes:
            chosen = self.options.chosen_name(service)
            self.lanes[service] = named_lane(service, chosen, self.labels)
        return self.lanes[service]

    def diagram(self) -> Diagram:
        items: list[Item] = []
        traces = sorted(self.roots, key=lambda t: min(s.start for s in self.roots[t]))
        for trace in traces:
            if len(traces) > 1:
                items.append(Divider(0, "bold", label(f"trace {_hex_id(trace)}")))
            for root in sorted(self.roots[trace], key=lambda s: s.start):
                items += self._taken_before(root.start)
                items += self.span_items(root, caller=None)
            items += self._taken_before(None)
        participants = list(dict.fromkeys(self.lanes.values()))
        caller = self.lanes.get(ROOT_CALLER)
        if caller is not None:  # whoever called the trace in stands at the left, as callers do
            participants.remove(caller)
            participants.insert(0, caller)
        return Diagram(participants=participants, items=items, labels=self.labels)

    def span_items(self, span: _Span, caller: str | None) -> list[Item]:
        """The messages of a span and everything under it, in start-time order."""
        if span.kind == "producer":
            return self.publish(span)
        if span.kind == "client":
            callee = next((c for c in span.children if c.kind in _CALLEES), None)
            return self.call(span, callee)
        if span.kind in _CALLEES and (caller is None or caller != self.lane(span.service)):
            return self.entry(span, caller)  # called from outside, or by `caller`
        here = self.lane(span.service)
        words = _marked(span, label(span.name or _UNNAMED))
        items: list[Item] = [
            Message(0, here, here, "->", words, request=self.payload("Span", span))
        ]
        items += self.meanwhile([(span, here)], [(child, here) for child in span.children])
        return items

    def entry(self, span: _Span, caller: str | None = None) -> list[Item]:
        """A SERVER (or CONSUMER) span with no CLIENT (or PRODUCER) span over it: called from
        the service its parent span ran in (`caller`: the client's side went unrecorded, as
        when a proxy passed the trace on), or at a trace's entry point from outside."""
        # On a SERVER span `peer.service` names the caller, as Zipkin's remote endpoint does.
        outside = caller or self.lane(
            span.peer or span.attribute("peer.service", "messaging.system") or ROOT_CALLER
        )
        here = self.lane(span.service)
        asynchronous = span.kind == "consumer"
        items: list[Item] = [
            Message(
                0,
                outside,
                here,
                "->>" if asynchronous else "->",
                _marked(span, self.call_label(span, None))
                if asynchronous
                else self.call_label(span, None),
                request=self.payload("Request", span),
                activate=None if asynchronous else "+",
            )
        ]
        items += self.meanwhile([(span, here)], [(child, here) for child in span.children])
        if asynchronous:
            return items
        return [*items, self.reply(here, outside, span, None, with_payload=False)]

    def call(self, client: _Span, server: _Span | None) -> list[Item]:
        """A CLIENT span: a call to the service of its SERVER child (or to the peer it names),
        what that service did meanwhile, and the reply.

        The caller's own work beside the call (a connect before it, a publish after it) is
        drawn when it happened: among what the callee did while the call ran, or after the
        reply once the call is over."""
        here = self.lane(client.service)
        others = [child for child in client.children if child is not server]
        ended = (server.end if server is not None else None) or client.end
        after = [c for c in others if ended is not None and c.start >= ended]
        during = [c for c in others if c not in after]
        there = self.lane(server.service) if server is not None else self.peer_lane(client)
        words = self.call_label(client, server)
        items: list[Item] = [
            Message(
                0,
                here,
                there,
                "->",
                words,
                request=self.payload("Request", client),
                activate=None if here == there else "+",
            )
        ]
        logged = [(client, here)]
        inside = [(child, there) for child in server.children] if server else []
        if server is not None:
            logged.append((server, there))
        items += self.meanwhile(logged, inside + [(child, there) for child in during])
        reply = self.reply(there, here, client, server, with_payload=server is not None)
        return [*items, reply, *self.meanwhile([], [(child, there) for child in after])]

    def publish(self, producer: _Span) -> list[Item]:
        """A PRODUCER span: an asynchronous arrow to the service of each CONSUMER child (a
        message two consumer groups read reaches both), then what the producer did beside it.

        A consumer takes the message when it takes it, often after the producer's side has
        gone on to other work: what each consumer did is kept back (`_late`) and drawn at
        its own time, among whatever the trace did around it (`meanwhile`)."""
        here = self.lane(producer.service)
        consumers = [c for c in producer.children if c.kind in _CALLEES]
        others = [c for c in producer.children if c.kind not in _CALLEES]
        items: list[Item] = []
        reached: list[_Span | None] = [*consumers] or [None]  # none recorded: its peer
        sent = producer.end if producer.end is not None else producer.start
        for consumer in reached:
            there = self.lane(consumer.service) if consumer else self._receiver(producer, others)
            words = _marked(producer, self.call_label(producer, consumer))
            request = self.payload("Request", producer)
            # what the consumer recorded of taking it: an asynchronous arrow has no reply
            # to carry it, as a call's reply carries its server's span
            taken = self.payload("Consumer", consumer) if consumer is not None else None
            items.append(Message(0, here, there, "->>", words, request=request, response=taken))
            if consumer is None:
                continue
            took = self.meanwhile(
                [(consumer, there)], [(child, there) for child in consumer.children]
            )
            if consumer.start <= sent:  # taken while it was sent (a send that waits for the
                items += took  # broker's ack), or a clock ahead: straight after the arrow
            else:
                end = max(consumer.end or consumer.start, consumer.start)
                self._late.append((consumer.start, took, end))
        return [*items, *self.meanwhile([(producer, here)], [(child, here) for child in others])]

    def _receiver(self, producer: _Span, children: list[_Span]) -> str:
        """Where a message no CONSUMER span took went: the peer the producer names; else the
        one other service whose spans it leads to, which took it without a span of its own
        (Jaeger's own example trace: service-two's calls under service-one's send); else
        `remote`."""
        services = {child.service for child in children} - {producer.service}
        if producer.named_peer() is None and len(services) == 1:
            return self.lane(services.pop())
        return self.peer_lane(producer)

    def peer_lane(self, client: _Span) -> str:
        """The lane of what a CLIENT or PRODUCER span with no SERVER or CONSUMER under it
        called: the peer it names, or the host (and port) of the URL it called, else
        `remote`."""
        peer = client.named_peer()
        if peer is not None and peer == client.service:
            peer = _told_apart(client, peer)
        url = client.attribute("url.full", "http.url")
        parts = url_parts(url)
        return self.lane(peer or (url if parts and parts.netloc else None) or "remote")

    def reply(
        self, there: str, here: str, span: _Span, server: _Span | None, with_payload: bool
    ) -> Message:
        """The answer: its status code, or ok, or **error** and the reason when a span failed."""
        ends = [s for s in (server, span) if s is not None]
        status = next(filter(None, (s.status() for s in ends)), None)
        why = next((s.error for s in ends if s.error), None)
        if any(s.error is not None for s in ends):
            text = "**error**" + (f" {label(status)}" if status else "")
            text += f": {label(why)}" if why and why != status else ""  # Zipkin: error=401
        elif status is None and all(s.end is None for s in ends):
            text = "(no end recorded)"  # still open when the trace was written
        else:
            text = label(status or "ok")
        return Message(
            0,
            there,
            here,
            "-->",
            text,
            response=self.payload("Response", server) if server and with_payload else None,
            activate=None if here == there else "-",
        )

    def call_label(self, client: _Span, server: _Span | None) -> str:
        """`GET /bike` from HTTP attributes, `Service/Method` for RPC, else the span's name."""
        for span in (server, client):
            if span is None:
                continue
            method = span.attribute("http.request.method", "http.method")
            route = span.attribute("http.route", "url.path", "http.target", "http.path")
            url = span.attribute("url.full", "http.url")
            parts = url_parts(url)
            route = route or (parts.path if parts else None)
            if method and route:
                return label(f"{method} {route}")
            rpc = span.attribute("rpc.method")
            if rpc:
                service = span.attribute("rpc.service")
                return label(f"{service}/{rpc}" if service else rpc)
        return label(client.name or (server.name if server is not None else "") or _UNNAMED)

    def payload(self, title: str, span: _Span) -> Payload:
        """The span's attributes as `key: value` lines, after its name, kind and duration, and
        then what ran it (`resource.` lines) on the first span of each service that ran so:
        the same lines on every span made a trace of thousands of spans several times its
        size."""
        lines = [
            f"span: {span.name}",
            f"kind: {span.kind}",
            f"service: {span.service}",
            f"duration: {'unknown' if span.end is None else _duration(span.end - span.start)}",
        ]
        if span.error is not None:
            lines.append(f"status: error{': ' + span.error if span.error else ''}")
        lines += [f"links to: {link}" for link in span.links]
        lines += [f"{key}: {_one_line(value)}" for key, value in span.attributes]
        for event in span.events:  # drawn as notes, cut to a label's length; whole here
            lines.append(f"event: {event.name}")
            lines += [f"event.{key}: {_one_line(value)}" for key, value in event.attributes]
        ran = (span.service, tuple(span.resource))
        if span.resource and ran not in self.resourced:
            self.resourced.add(ran)
            lines += [f"resource.{key}: {_one_line(value)}" for key, value in span.resource]
        return Payload(title, None, "\n".join(_one_line(line) for line in lines), "fenced")

    def meanwhile(
        self, logged: list[tuple[_Span, str]], children: list[tuple[_Span, str]]
    ) -> list[Item]:
        """What happened inside a call, in time order: the events of the `logged` spans (each
        a note over its lane) among the messages of `children` (each with the lane that called
        it). An event with no time comes first, as it did before the children's times were
        known."""
        # (time, order written, items, the span's end for a child: None for an event)
        happened: list[tuple[int, int, list[Item], int | None]] = []
        for span, where in logged:
            ended = span.end if span.end is not None else span.start
            for event in span.events:
                lines = [f"**{label(event.name)}**"]
                lines += [label(f"{key}: {value}") for key, value in event.attributes]
                note = Note(0, [where], "\n".join(lines))
                time = event.time if event.time is not None else span.start
                if time > ended:  # after its span (Brave's `brave.flush` of one never ended):
                    self._late.append((time, [note], None))  # drawn at its time
                else:
                    happened.append((time, len(happened), [note], None))
        for child, lane in children:
            # a call's time, which calls made at once share; work inside one service is a
            # moment in it (a span timing a whole request would overlap every call in it),
            # unless it holds calls of its own (an agent's tool run), which ran as long as it
            call = child.kind in _CALLERS or child.kind in _CALLEES or bool(child.children)
            end = (child.end if child.end is not None else child.start) if call else None
            happened.append((child.start, len(happened), self.span_items(child, lane), end))
        # What a consumer did with a message, kept back, is drawn here if it took the message
        # while this stretch of time ran; otherwise it waits for the stretch around its time.
        starts = [span.start for span, _ in logged] or [start for start, *_ in happened]
        if self._late and starts:
            ends = [span.end or span.start for span, _ in logged]
            ends += [start if end is None else end for start, _, _, end in happened]
            begun, over = min(starts), max(ends)
            waiting, self._late = self._late, []
            for start, items, end in waiting:
                if begun <= start <= over:
                    happened.append((start, len(happened), items, end))
                else:
                    self._late.append((start, items, end))
        happened.sort(key=lambda each: each[:2])
        return _side_by_side(happened)

    def _taken_before(self, time: int | None) -> list[Item]:
        """What consumers did with messages, kept back until now (`publish`), that happened
        before `time` (all of it if None): between a trace's top spans, or after the last."""
        due: list[_Late] = []
        kept: list[_Late] = []
        for late in self._late:
            (due if time is None or late[0] < time else kept).append(late)
        self._late = kept
        return [item for _, items, _ in sorted(due, key=lambda late: late[0]) for item in items]


_Late = tuple[int, list[Item], int | None]


def _side_by_side(happened: list[tuple[int, int, list[Item], int | None]]) -> list[Item]:
    """Items in time order, where calls that ran at the same time (one started before the
    other ended: made in parallel) are the branches of a `par` block, not one after the other
    as if each waited for the last. Moments (an event, work inside the service, whose end is
    None) are not calls: one that happened while such calls ran comes after their block."""
    out: list[Item] = []
    branches: list[list[Item]] = []  # the spans running together so far
    until = 0  # when the last of them ended
    held: list[Item] = []  # events that happened while they ran

    def close() -> None:
        if len(branches) > 1:
            out.append(Block(0, "par", [Branch("", items) for items in branches]))
        else:
            out.extend(item for items in branches for item in items)
        out.extend(held)
        branches.clear()
        held.clear()

    for start, _, items, end in happened:
        if end is None:  # a moment
            if branches and start >= until:
                close()
            (held if branches else out).extend(items)
            continue
        if branches and start >= until:
            close()
        branches.append(items)
        until = max(until, end) if len(branches) > 1 else end
    close()
    return out


def _told_apart(client: _Span, peer: str) -> str:
    """A peer named as the service that calls it (Brave names a Cassandra call's peer after
    its keyspace, `auth` from the service `auth`): a call to a store or a broker leaves its
    service, so the peer is named by the system its tags name (`db.system`, or the store's
    prefix they share: `cassandra.`). Any other stays a call to itself (a service calling
    its own API; a span of both halves of a call, as Zipkin v1's merged ones)."""
    system = client.attribute("db.system", "db.system.name", "messaging.system")
    if system is None:
        prefixes = {key.partition(".")[0] for key, _ in client.attributes if "." in key}
        system = prefixes.pop() if len(prefixes) == 1 and prefixes <= _STORES else None
    return f"{peer} ({system})" if system else peer


# Tag prefixes of stores and brokers, as tracers name a call's tags after what it calls
_STORES = frozenset(
    {"cassandra", "sql", "db", "jdbc", "mongodb", "redis", "memcached", "elasticsearch",
     "mysql", "postgresql", "kafka", "rabbitmq", "amqp", "sqs", "dynamodb"}
)  # fmt: skip


def _without_userinfo(peer: str) -> str:
    """A peer named by its URL (OpenTracing's `peer.address`, a database's connection URL) as
    its host and port, without the user and password the URL may hold."""
    parts = url_parts(peer) if "://" in peer else None
    host = parts.netloc.rpartition("@")[2] if parts else ""  # `http://[::1`: as it stands
    return host or peer


def _hex_id(trace: str) -> str:
    """A trace id as tracing UIs show it and search by: hex. OTLP/JSON says hex, but exporters
    that use protobuf's own JSON mapping write its 16 bytes in base64 (`aYQql5kRA2zz6CII…==`)."""
    if len(trace) != 24 or not trace.endswith("=="):
        return trace
    try:
        raw = base64.b64decode(trace, validate=True)
    except binascii.Error:
        return trace
    return raw.hex() if len(raw) == 16 else trace


def _marked(span: _Span, words: str) -> str:
    """A label with **error** before it when the span failed (and has no reply to say so)."""
    return f"**error** {words}" if span.error is not None else words


def _one_line(text: str) -> str:
    """A value on one line (a SQL statement's line breaks as spaces), so each stays one row."""
    return " ".join(text.split()) if "\n" in text or "\r" in text else text


def _duration(nanos: int) -> str:
    if nanos >= 1_000_000_000:
        return f"{nanos / 1e9:.3g} s"
    if nanos >= 1_000_000:
        return f"{nanos / 1e6:.3g} ms"
    return f"{nanos / 1e3:.3g} µs"
