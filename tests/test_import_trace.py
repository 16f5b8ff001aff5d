"""`volley import` of traces: OTLP/JSON and Jaeger JSON from opentelemetry-proto's and Jaeger's
own test data (tests/cases/traces/), checked as a reader of the diagram would check it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from volley.errors import VolleyError
from volley.importers import detect
from volley.importers.trace import import_trace, is_trace
from volley.importers.traffic import TrafficOptions
from volley.language.parser import parse
from volley.language.writer import write
from volley.model import Diagram, Divider, Message, Note
from volley.text.payload_tables import body_table

CASES = Path(__file__).parent / "cases" / "traces"
# "service-x -> B" would read as a lost arrow "-x" after "service": the lane keeps the name
# with a non-breaking hyphen, which is no arrow.
SERVICE_X = "service\u2011x"


def trace(name: str, **options) -> Diagram:
    return import_trace((CASES / name).read_bytes(), TrafficOptions(**options), name)


def arrows(diagram: Diagram) -> list[tuple[str, str, str, str]]:
    return [(m.sender, m.arrow, m.receiver, m.label) for m in diagram.messages()]


def rows(message: Message, side: str = "request") -> dict[str, str]:
    payload = getattr(message, side)
    assert payload is not None
    table = body_table(payload.body, payload.lang)
    assert table.reason is None, table.reason
    return {row.key: row.value for row in table.rows}


def test_jaeger_client_and_server_spans_are_a_call_and_its_reply():
    diagram = trace("jaeger-ride-sharing.json")
    assert diagram.participants == ["load-generator", "ride-sharing-app"]
    assert arrows(diagram) == [
        ("load-generator", "->", "load-generator", "OrderVehicle"),
        ("load-generator", "->", "ride-sharing-app", "GET /bike"),
        ("ride-sharing-app", "->", "ride-sharing-app", "FindNearestVehicle"),
        ("ride-sharing-app", "-->", "load-generator", "200"),
    ]
    call, reply = diagram.messages()[1], diagram.messages()[3]
    assert (call.activate, reply.activate) == ("+", "-")


def test_span_attributes_are_the_payload_tables():
    call, _, reply = trace("jaeger-ride-sharing.json").messages()[1:]
    request = rows(call)
    assert request["span"] == "HTTP GET" and request["kind"] == "client"
    assert request["http.method"] == "GET" and request["http.url"] == "http://ap-south:5000/bike"
    assert request["duration"] == "968 ms"
    response = rows(reply, "response")
    assert response["span"] == "BikeHandler" and response["http.target"] == "/bike"


def test_otlp_specification_example_is_a_call_from_outside():
    diagram = trace("otlp-proto-example.json")
    assert diagram.participants == ["Client", "my.service"]
    assert arrows(diagram) == [
        ("Client", "->", "my.service", "I'm a server span"),
        ("my.service", "-->", "Client", "ok"),
    ]
    assert rows(diagram.messages()[0])["my.span.attr"] == "some value"


def test_errored_spans_are_marked_and_events_are_notes():
    diagram = trace("otlp-jaeger-memory-store.json")
    labels = [m.label for m in diagram.messages()]
    assert labels == [
        "test-general-conversion-2",
        "**error**",
        "**error** test-general-conversion-4",
        "test-general-conversion-3",
        "**error**",
        "**error** test-general-conversion-5",
    ]
    notes = [item for item in diagram.items if isinstance(item, Note)]
    assert notes[0].over == [SERVICE_X] and notes[0].text == "**testing-event**\nevent-x: event-y"
    assert rows(diagram.messages()[0])["status"] == "error"


def test_producer_is_asynchronous_to_the_peer_service():
    diagram = trace("otlp-jaeger-memory-store.json")
    assert (SERVICE_X, "->>", "service-y", "**error** test-general-conversion-4") in arrows(diagram)


def test_traces_in_one_file_are_sections():
    diagram = trace("otlp-jaeger-memory-store.json")
    sections = [item.label for item in diagram.items if isinstance(item, Divider)]
    assert sections == [
        "trace 00000000000000010000000000000000",
        "trace 00000000000000020000000000000000",
    ]


def test_jaeger_logs_are_notes():
    diagram = trace("jaeger-ui-01.json")
    notes = [item.text for item in diagram.items if isinstance(item, Note)]
    assert notes == ["**some-event**", "**log**\nx: y"]
    assert diagram.participants == [SERVICE_X, "service-y"]


def test_services_are_renamed():
    diagram = trace("jaeger-ride-sharing.json", names={"ride-sharing-app": "Rides"})
    assert diagram.participants == ["load-generator", "Rides"]


@pytest.mark.parametrize("name", sorted(p.name for p in CASES.glob("*.json")))
def test_every_trace_writes_a_diagram_that_reads_back(name):
    diagram = trace(name)
    again = parse(write(diagram))
    assert arrows(again) == arrows(diagram)
    assert is_trace(json.loads((CASES / name).read_text()))


def test_collector_file_exporter_json_lines():
    one = json.loads((CASES / "otlp-proto-example.json").read_text())
    lines = "\n".join(json.dumps(one) for _ in range(2))
    assert len(import_trace(lines).messages()) == 2


def test_not_a_trace_says_what_was_expected():
    with pytest.raises(VolleyError, match="expected OTLP/JSON"):
        import_trace('{"log": {"entries": []}}')
    with pytest.raises(VolleyError) as caught:
        import_trace('{"resourceSpans": [', filename="t.json")
    assert (caught.value.filename, caught.value.line) == ("t.json", 1)


@pytest.mark.parametrize("name", sorted(p.name for p in CASES.glob("*.json")))
def test_volley_import_tells_a_trace_by_its_content(name):
    found = detect((CASES / name).read_text(encoding="utf-8"))
    assert found is not None and found.name == "trace"


def test_a_member_of_the_wrong_type_is_an_error_not_a_traceback(tmp_path):
    from volley.errors import VolleyError
    from volley.importers import convert

    text = '{"resourceSpans": [{"resource": 5, "scopeSpans": [{"spans": [{"name": 3}]}]}]}'
    with pytest.raises(VolleyError, match="a member has a type the format does not give it"):
        convert(text, "bad.json")
