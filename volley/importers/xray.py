"""AWS X-Ray traces, read as the OTLP/JSON export they would be, so that one reader draws
every trace.

X-Ray records a trace as segments, one for each service that handled the request (`name`),
each with the work it did inside as nested subsegments. A subsegment in the `remote` or `aws`
namespace is a call to another service (an HTTP API, DynamoDB); the segment of the service it
called names it as its `parent_id` (X-Ray infers one for an AWS service, `inferred: true`).
So a segment is a SERVER span of its service, a calling subsegment a CLIENT span (its name the
service called) and any other subsegment an INTERNAL span.

Read: the output of `aws xray batch-get-traces` (`{"Traces": [{"Segments": [{"Document":
"…"}]}]}`) or one trace of it, `{"Segments": […]}`, the request the daemon or the OpenTelemetry
collector's exporter sends to PutTraceSegments (`{"TraceSegmentDocuments": ["…"]}`), a segment
document alone or a list of them,
and what an SDK sends the X-Ray daemon (a `{"format": "json", "version": 1}` header line, then a
segment a line, or a long segment's subsegments one by one, `"type": "subsegment"`).
"""

from __future__ import annotations

import json
from decimal import Decimal
from typing import Any

from volley.importers.labels import url_parts

__all__ = ["is_xray", "is_xray_header", "xray_export"]

# Members of a segment that make the span itself; every other one is one of its attributes.
_OWN = frozenset(
    {
        "id", "name", "trace_id", "parent_id", "start_time", "end_time", "subsegments",
        "in_progress", "namespace", "inferred", "type", "precursor_ids", "error", "fault",
        "throttle", "cause",
    }
)  # fmt: skip
_CALLS = ("remote", "aws")  # the namespaces of a subsegment that calls another service


def is_xray_header(document: Any) -> bool:
    """The line an SDK sends the X-Ray daemon before each segment."""
    return isinstance(document, dict) and document.keys() == {"format", "version"}


def xray_export(documents: list[Any]) -> dict[str, Any] | None:
    """The OTLP/JSON export of the X-Ray segments the documents of a file hold, a segment's
    subsegments sent on their own (`"type": "subsegment"`, as an SDK streams a long one) in
    its service; None if they hold none."""
    found = _segments(documents)
    if not found:
        return None
    streamed = [each for each in found if each.get("type") == "subsegment"]
    segments = [each for each in found if each.get("type") != "subsegment"]
    services = _services(segments, streamed)
    resources = []
    for part in found:
        spans: list[dict[str, Any]] = []
        top = part.get("type") != "subsegment"
        _add(part, part.get("parent_id"), spans, top=top)
        service = str(part["name"]) if top else services.get(str(part["id"])) or _unrecorded(part)
        named = {"key": "service.name", "value": {"stringValue": service}}
        resources.append({"resource": {"attributes": [named]}, "scopeSpans": [{"spans": spans}]})
    return {"resourceSpans": resources}


def _unrecorded(part: dict[str, Any]) -> str:
    """The service of a subsegment sent on its own whose segment the file does not hold: named
    by that segment's id, which is all the subsegment says of it (its own name is what it
    called, for a call)."""
    parent = part.get("parent_id")
    return f"segment {parent}" if parent else str(part["name"])


def is_xray(document: Any) -> bool:
    """Whether a document holds X-Ray segments."""
    return bool(_segments(document))


def _services(segments: list[dict[str, Any]], streamed: list[dict[str, Any]]) -> dict[str, str]:
    """The service each (sub)segment id belongs to: its segment's name, through however many
    subsegments, nested or streamed, stand between."""
    services: dict[str, str] = {}

    def walk(part: dict[str, Any], service: str) -> None:
        services[str(part.get("id"))] = service
        for inner in part.get("subsegments") or []:
            if isinstance(inner, dict):
                walk(inner, service)

    for segment in segments:
        walk(segment, str(segment["name"]))
    waiting = list(streamed)
    while waiting:  # a streamed subsegment's parent may be streamed too, in any order
        placed = [part for part in waiting if str(part.get("parent_id")) in services]
        if not placed:
            break
        for part in placed:
            walk(part, services[str(part.get("parent_id"))])
        waiting = [part for part in waiting if str(part.get("id")) not in services]
    return services


def _segments(document: Any) -> list[dict[str, Any]]:
    """The segment documents in what X-Ray's API, CLI or SDKs write."""
    if isinstance(document, list):
        return [segment for item in document for segment in _segments(item)]
    if not isinstance(document, dict):
        return []
    if isinstance(document.get("Traces"), list):
        return _segments(document["Traces"])
    if isinstance(document.get("Segments"), list):
        return _segments(document["Segments"])
    if isinstance(document.get("TraceSegmentDocuments"), list):  # PutTraceSegments' request
        return _segments([{"Document": each} for each in document["TraceSegmentDocuments"]])
    written = document.get("Document")
    if isinstance(written, str):  # the API gives each segment as a JSON string
        try:
            return _segments(json.loads(written))
        except ValueError:
            return []
    if _is_segment(document):
        return [document]
    return []


def _is_segment(document: dict[str, Any]) -> bool:
    return (
        isinstance(document.get("name"), str)
        and isinstance(document.get("id"), str)
        and str(document.get("trace_id", "")).startswith("1-")
        and "start_time" in document
    )


def _add(
    part: dict[str, Any], parent: Any, spans: list[dict[str, Any]], *, top: bool = False
) -> None:
    """A segment (`top`) or subsegment as a span, and its subsegments after it."""
    calls = not top and part.get("namespace") in _CALLS
    attributes = _attributes(part)
    if calls:
        attributes.append({"key": "peer.service", "value": {"stringValue": str(part["name"])}})
    span: dict[str, Any] = {
        "traceId": str(part.get("trace_id") or ""),
        "spanId": str(part.get("id") or ""),
        "name": _name(part),
        "kind": 2 if top else 3 if calls else 1,
        "startTimeUnixNano": _nanos(part.get("start_time")),
        "attributes": attributes,
    }
    if parent:
        span["parentSpanId"] = str(parent)
    if part.get("end_time") is not None:
        span["endTimeUnixNano"] = _nanos(part["end_time"])
    failed = _failure(part)
    if failed is not None:
        span["status"] = {"code": 2, "message": failed}
    spans.append(span)
    for inner in part.get("subsegments") or []:
        if isinstance(inner, dict):
            _add({"trace_id": part.get("trace_id"), **inner}, part.get("id"), spans)


def _name(part: dict[str, Any]) -> str:
    """What the call did: an AWS operation (`UpdateItem`), an SQL statement as X-Ray keeps it
    (`SELECT * FROM customers WHERE customer_id=?;`), an HTTP request's method and path, else
    the (sub)segment's name."""
    aws = _member(part, "aws")
    if aws.get("operation"):
        return str(aws["operation"])
    query = _member(part, "sql").get("sanitized_query")
    if isinstance(query, str) and query.strip():  # a database call: the statement it ran
        return " ".join(query.split())
    request = _member(_member(part, "http"), "request")
    if request.get("method"):
        url = str(request.get("url") or "")
        parts = url_parts(url)
        return f"{request['method']} {(parts.path or '/') if parts else url or '/'}".strip()
    return str(part.get("name") or "")


def _member(part: dict[str, Any], key: str) -> dict[str, Any]:
    """A member that is an object, or an empty one."""
    value = part.get(key)
    return value if isinstance(value, dict) else {}


def _attributes(part: dict[str, Any]) -> list[dict[str, Any]]:
    """The (sub)segment's other members, nested ones by their dotted paths (`http.response.
    status`), lists as JSON."""
    found: list[dict[str, Any]] = []

    def walk(prefix: str, value: Any) -> None:
        if isinstance(value, dict):
            for key, inner in value.items():
                walk(f"{prefix}.{key}" if prefix else str(key), inner)
            return
        # a string as it is, any other value as JSON writes it (`null`, `true`, `[0.5]`)
        written = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
        found.append({"key": prefix, "value": {"stringValue": written}})

    walk("", {key: value for key, value in part.items() if key not in _OWN})
    return found


def _failure(part: dict[str, Any]) -> str | None:
    """Why a (sub)segment failed, as X-Ray says: its cause's first exception, else which of
    its flags is set (a fault is the service's, an error the client's, throttle a 429)."""
    flags = [flag for flag in ("fault", "error", "throttle") if part.get(flag) is True]
    if not flags:
        return None
    exceptions = [e for e in _member(part, "cause").get("exceptions") or [] if isinstance(e, dict)]
    if exceptions and exceptions[0].get("message"):
        return str(exceptions[0]["message"])
    return flags[0]


def _nanos(seconds: Any) -> str:
    """Epoch seconds, as X-Ray writes them with a fraction, in nanoseconds as OTLP writes them;
    as written when they are no number (the trace reader then says where)."""
    try:
        return str(int(Decimal(str(seconds)) * 1_000_000_000))
    except (ArithmeticError, ValueError):
        return str(seconds)
