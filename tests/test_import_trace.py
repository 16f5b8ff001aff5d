"""`volley import` of traces: OTLP/JSON, Jaeger JSON and Zipkin JSON from opentelemetry-proto's,
Jaeger's and Zipkin's own test data (tests/cases/traces/), checked as a reader of the diagram
would check it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from volley.errors import VolleyError
from volley.importers import IMPORTERS, convert, detect
from volley.importers.labels import json_documents
from volley.importers.trace import import_trace, is_trace
from volley.importers.traffic import TrafficOptions
from volley.language.parser import parse
from volley.language.writer import write
from volley.model import Block, Diagram, Divider, Message, Note, walk
from volley.text.payload_tables import body_table

from .conftest import arrows, volley_cli

CASES = Path(__file__).parent / "cases" / "traces"
# Every capture: one JSON document, or JSON Lines of them (a collector's file exporter).
CAPTURES = sorted(p.name for p in CASES.iterdir() if p.suffix in (".json", ".jsonl"))
# "service-x -> B" would read as a lost arrow "-x" after "service": the lane keeps the name
# with a non-breaking hyphen, which is no arrow.
SERVICE_X = "service\u2011x"


def trace(name: str, **options) -> Diagram:
    return import_trace((CASES / name).read_bytes(), TrafficOptions(**options), name)


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


@pytest.mark.parametrize("name", CAPTURES)
def test_every_trace_writes_a_diagram_that_reads_back(name):
    diagram = trace(name)
    again = parse(write(diagram))
    assert arrows(again) == arrows(diagram)
    documents = json_documents((CASES / name).read_text())  # JSON Lines, or one after another
    # a file exporter writing logs too puts them beside the spans
    assert all(is_trace(document) for document in documents if "resourceLogs" not in document)


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


@pytest.mark.parametrize("name", CAPTURES)
def test_volley_import_tells_a_trace_by_its_content(name):
    found = detect((CASES / name).read_text(encoding="utf-8"))
    assert found is not None and found.name == "trace"


def test_a_member_of_the_wrong_type_is_an_error_not_a_traceback(tmp_path):
    from volley.errors import VolleyError
    from volley.importers import convert

    text = '{"resourceSpans": [{"resource": 5, "scopeSpans": [{"spans": [{"name": 3}]}]}]}'
    with pytest.raises(VolleyError, match="a member has a type the format does not give it"):
        convert(text, "bad.json")


# --- Zipkin -----------------------------------------------------------------------------------


def zipkin_span(**fields) -> dict:
    span = {"traceId": "1e223ff1f80f1c69", "id": "74280ae0c10d8062", "timestamp": 1, "duration": 2}
    return span | fields


def test_zipkin_shared_span_is_a_call_and_its_reply():
    # skew.json: servicea's CLIENT and serviceb's SERVER share one span id (the server half is
    # `shared`); serviceb's local span under that id ran inside the call.
    diagram = trace("zipkin-skew.json")
    assert diagram.participants == ["Client", "servicea", "serviceb"]
    assert arrows(diagram) == [
        ("Client", "->", "servicea", "get"),
        ("servicea", "->", "serviceb", "post"),
        ("serviceb", "->", "serviceb", "async"),
        ("serviceb", "-->", "servicea", "ok"),
        ("servicea", "-->", "Client", "ok"),
    ]
    call, reply = diagram.messages()[1], diagram.messages()[3]
    assert (call.activate, reply.activate) == ("+", "-")
    assert rows(call)["service"] == "servicea"
    assert rows(reply, "response")["service"] == "serviceb"


def test_zipkin_clients_call_their_remote_endpoint():
    diagram = trace("zipkin-yelp.json")
    assert diagram.participants == [
        "Client", "routing", "unknown", "yelp_main/api_proxy", "yelp-main", "memcache", "mysql",
        "mobile_api", "spectre", "blt",
    ]  # fmt: skip
    calls = [(m.sender, m.receiver, m.label) for m in diagram.messages() if m.arrow == "->"]
    assert calls == [
        ("Client", "routing", "post /location/update/v4"),
        ("unknown", "yelp_main/api_proxy", "post"),
        ("yelp-main", "memcache", "get my_cache_name_v2"),
        ("yelp-main", "yelp-main", "txn: user_get_basic_and_scout_info"),
        ("yelp-main", "mysql", "begin"),
        ("yelp-main", "memcache", "get user_details_cache-20150901"),
        ("yelp-main", "memcache", "get_multi my_cache_name_v1"),
        ("yelp-main", "mysql", "commit"),
        ("yelp-main", "mobile_api", "post"),
        ("mobile_api", "memcache", "get_multi mobile_api_nonce"),
        ("mobile_api", "memcache", "set mobile_api_nonce"),
        ("mobile_api", "spectre", "get"),
        ("mobile_api", "blt", "post"),
    ]
    blt = next(m for m in diagram.messages() if m.receiver == "blt")
    assert rows(blt)["remoteEndpoint"] == "blt 31882"  # the port, as the file gives it
    assert rows(blt)["http.uri.client"] == "/visits"


def test_zipkin_annotations_are_notes():
    notes = [item for item in walk(trace("zipkin-yelp.json").items) if isinstance(item, Note)]
    assert [(n.over, n.text) for n in notes] == [
        (["yelp_main/api_proxy"], "**py_zipkin.logging_end**")
    ]


def test_zipkin_error_tag_marks_the_span():
    diagram = trace("zipkin-messaging-kafka.json")
    failed = [m for m in diagram.messages() if m.label.startswith("**error**")]
    assert [(m.sender, m.receiver, m.label) for m in failed] == [
        ("serviceb", "serviceb", "**error** on-message")
    ] * 3
    assert rows(failed[0])["status"] == "error: some error"
    assert rows(failed[2])["status"] == "error"  # "error": "" names no reason
    assert arrows(diagram)[0] == ("kafka", "->>", "servicea", "poll")  # the consumer polled kafka


def test_a_message_two_consumers_read_is_an_arrow_to_each():
    # messaging-kafka.json: each `send` to the "messages" topic is polled by serviceb and by
    # servicea itself (two consumer groups); neither poll is work the sender did itself.
    diagram = trace("zipkin-messaging-kafka.json")
    sends = [a for a in arrows(diagram) if a[3] == "send" and a[2] != "kafka"]
    to_b, to_a = ("servicea", "->>", "serviceb", "send"), ("servicea", "->>", "servicea", "send")
    assert sends == [to_b, to_a, to_b, to_a, to_a, to_b]  # each in the order it was polled
    assert all(label != "poll" for *_, label in arrows(diagram)[1:])


def test_zipkin_failed_call_says_why_on_its_reply():
    span = zipkin_span(
        kind="CLIENT",
        name="个人信息查询",
        localEndpoint={"serviceName": "订单维护服务"},
        remoteEndpoint={"serviceName": "个人信息服务", "ipv4": "192.168.99.101", "port": 9000},
        tags={"http.method": "GET", "http.path": "/person/profile/query",
              "http.status_code": "403", "error": "此用户没有操作权限"},
    )  # fmt: skip
    assert arrows(import_trace(json.dumps([span]))) == [
        ("订单维护服务", "->", "个人信息服务", "GET /person/profile/query"),
        ("个人信息服务", "-->", "订单维护服务", "**error** 403: 此用户没有操作权限"),
    ]


def test_zipkin_client_without_a_remote_service_calls_its_address():
    local = {"serviceName": "frontend"}
    by_address = zipkin_span(
        kind="CLIENT", name="get", localEndpoint=local,
        remoteEndpoint={"ipv4": "192.168.99.101", "port": 9000},
    )  # fmt: skip
    nowhere = zipkin_span(id="2", kind="CLIENT", name="query", timestamp=5, localEndpoint=local)
    diagram = import_trace(json.dumps([by_address, nowhere]))
    assert [(m.sender, m.receiver, m.label) for m in diagram.messages()] == [
        ("frontend", "192.168.99.101 9000", "get"),
        ("192.168.99.101 9000", "frontend", "ok"),
        ("frontend", "remote", "query"),
        ("remote", "frontend", "ok"),
    ]
    assert diagram.labels == {"192.168.99.101 9000": "192.168.99.101:9000"}  # the box shows it


def test_zipkin_client_whose_peer_is_named_as_itself_calls_out_not_to_itself():
    """Brave names a Cassandra call's peer after its keyspace: 252 of `auth`'s calls to its
    keyspace `auth` were drawn as `auth -> auth`, as its own work inside it is."""
    local = {"serviceName": "auth", "ipv4": "10.104.159.78", "port": 8180}
    remote = {"serviceName": "auth", "ipv4": "10.104.140.58", "port": 9042}
    keyspace = zipkin_span(
        kind="CLIENT", name="client-select-by-id", localEndpoint=local, remoteEndpoint=remote,
        tags={"cassandra.keyspace": "auth", "cassandra.query": "SELECT * FROM auth.client"},
    )  # fmt: skip
    # a call over HTTP to its own API is a call to itself, as it was
    own_api = zipkin_span(
        id="2", kind="CLIENT", name="get", timestamp=5, localEndpoint=local,
        remoteEndpoint=remote, tags={"http.method": "GET", "http.path": "/health"},
    )  # fmt: skip
    diagram = import_trace(json.dumps([keyspace, own_api]))
    assert [(m.sender, m.receiver) for m in diagram.messages()] == [
        ("auth", "auth (cassandra)"),
        ("auth (cassandra)", "auth"),
        ("auth", "auth"),
        ("auth", "auth"),
    ]


def test_zipkin_list_of_traces_draws_each_trace_as_a_section():
    traces = [
        json.loads((CASES / name).read_text()) for name in ("zipkin-skew.json", "zipkin-yelp.json")
    ]
    diagram = import_trace(json.dumps(traces))
    sections = [item.label for item in diagram.items if isinstance(item, Divider)]
    assert sections == ["trace 1e223ff1f80f1c69", "trace a03ee8fff1dcd9b9"]
    assert len(diagram.messages()) == len(trace("zipkin-skew.json").messages()) + len(
        trace("zipkin-yelp.json").messages()
    )
    found = detect(json.dumps(traces))
    assert found is not None and found.name == "trace"


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ('[{"traceId": "1e22", "name": "get"}]', "span 1 has no id"),
        ('[{"traceId": "1e22", "id": "1"}, 5]', "span 2 is a number, not an object"),
        (
            '[{"traceId": "a", "id": "b", "tags": ["x"]}]',
            "span 1's tags is an array, not an object",
        ),
        ('[[{"traceId": "1e22", "id": 7}]]', "span 1 has no id"),
        ('[[{"traceId": "a", "id": "b"}], [{"traceId": "c"}]]', "trace 2, span 1 has no id"),
        (
            '[{"traceId": "a", "id": "b", "binaryAnnotations": []}]',
            "span 1 is Zipkin's v1 format",
        ),
        (  # v1 without binaryAnnotations (left out when empty): its lanes were "unknown service"
            '[{"traceId": "a", "id": "b", "annotations": [{"value": "sr", "timestamp": 1,'
            ' "endpoint": {"serviceName": "zipkin-query"}}]}]',
            "span 1 is Zipkin's v1 format (annotations with an endpoint)",
        ),
    ],
)
def test_malformed_zipkin_says_which_span_and_what_was_expected(text, problem):
    from volley.importers import convert

    with pytest.raises(VolleyError) as caught:
        convert(text, "spans.json")  # no --from: told apart as a trace, then refused
    assert caught.value.filename == "spans.json"
    assert str(caught.value.message).startswith("this is not Zipkin JSON: " + problem)
    assert "traceId and id" in str(caught.value.hint)


def test_json_that_is_no_trace_names_every_format_read():
    from volley.importers import convert

    with pytest.raises(VolleyError, match="OTLP/JSON .*, Jaeger JSON .*, Zipkin JSON .*, Tempo"):
        convert('[{"name": "get"}]', "x.json", source="trace")


@pytest.mark.parametrize("text", ["[]", "[[], []]"])
def test_an_empty_zipkin_answer_says_there_are_no_spans(text):
    with pytest.raises(VolleyError, match="no spans here: an empty array"):
        import_trace(text, filename="none.json")


def test_spans_whose_parents_form_a_loop_are_still_drawn():
    """A broken export (each span naming the other as its parent) reaches no root: the first
    to start is drawn as one, so no span is left out."""
    first = zipkin_span(id="1", parentId="2", name="first", localEndpoint={"serviceName": "a"})
    second = zipkin_span(
        id="2", parentId="1", name="second", timestamp=5, localEndpoint={"serviceName": "b"}
    )
    diagram = import_trace(json.dumps([second, first]))
    assert [m.label for m in diagram.messages()] == ["first", "second"]


# --- Traces from more producers (tests/cases/traces/README.md names each) ---------------------


def test_jaeger_consumer_that_follows_from_its_producer_is_the_producers_message():
    # trace-graph.json: service2's CONSUMER span op3 refers to service1's PRODUCER span op4 by
    # FOLLOWS_FROM (how Jaeger's clients link a message to its reader), not CHILD_OF.
    diagram = trace("jaeger-ui-trace-graph.json")
    assert ("service1", "->>", "service2", "op4") in arrows(diagram)
    assert arrows(diagram)[-1] == ("service1", "-->", "Client", "ok")  # nothing after the reply
    assert "remote" not in [receiver for _, _, receiver, label in arrows(diagram) if label == "op4"]


def test_server_span_under_another_services_span_is_a_call_from_that_service():
    # messaging2.json: auth-service's SERVER span hangs straight under mobile-gateway's SERVER
    # span (the client's half went unrecorded); genai: graphql-gateway under api-edge's.
    orphans = arrows(trace("zipkin-messaging-orphans.json"))
    assert orphans[:4] == [
        ("Client", "->", "mobile-gateway", "POST /mobile-gateway/transfer-service/transactions/"
         "5698ba57-f2f6-44e9-90f8-987e10353ed8/"),
        ("mobile-gateway", "->", "auth-service", "GET /auth-service/v1/authentications/"),
        ("auth-service", "->", "auth-service", "extend-token"),
        ("auth-service", "-->", "mobile-gateway", "ok"),
    ]  # fmt: skip
    genai = trace("jaeger-ui-genai.json")
    assert genai.participants[:3] == ["Client", "api-edge", "graphql-gateway"]
    assert arrows(genai)[1] == ("api-edge", "->", "graphql-gateway", "Query.assistantReply")
    assert ("mcp-gateway", "->", "auth-service", "GET /validate") in arrows(genai)
    assert ("auth-service", "-->", "mcp-gateway", "200") in arrows(genai)
    assert not [a for a in arrows(genai) if a[0] == a[2] == "auth-service"]


def test_clients_call_the_database_and_ai_provider_newer_conventions_name():
    # genai: `db.system.name` (semantic conventions 1.33 on) and `gen_ai.provider.name`
    calls = [(s, r, label) for s, arrow, r, label in arrows(trace("jaeger-ui-genai.json"))]
    assert ("metrics-backend", "clickhouse", "SELECT series") in calls
    assert ("trace-store", "elasticsearch", "search") in calls
    assert ("coding-agent", "example-ai", "chat model-a") in calls


def test_a_server_span_naming_its_caller_by_peer_service_is_called_from_it():
    diagram = trace("otlp-telemetrygen.json")
    assert arrows(diagram) == [
        ("telemetrygen-client", "->", "telemetrygen", "okey-dokey-0"),
        ("telemetrygen", "-->", "telemetrygen-client", "ok"),
    ]
    nameless = trace("otlp-telemetrygen-no-service.json")  # no service.name in its resource
    assert nameless.participants == ["telemetrygen-client", "unknown service"]


def test_a_span_with_no_duration_says_it_is_unknown_not_zero():
    # smartthings: the CLIENT halves of redirects were never finished, so Zipkin has no duration
    diagram = trace("zipkin-smartthings-oauth.json")
    redirect = next(m for m in diagram.messages() if m.label == "redirect")
    assert rows(redirect)["duration"] == "unknown"
    first = diagram.messages()[0]
    assert rows(first)["duration"] == "1.43 ms"


def test_an_event_after_its_span_ended_is_drawn_when_it_happened():
    """A CLIENT span never finished (no duration) whose one annotation, `brave.flush`, came
    2.7 s later was drawn as a note straight after its call: before the sibling PUT and its
    reply, which happened in between."""
    diagram = trace("zipkin-smartthings-flush.json")
    items = [
        item.text if isinstance(item, Note) else item.label
        for item in walk(diagram.items)
        if isinstance(item, (Note, Message))
    ]
    assert items[-1] == "**brave.flush**"
    assert items.index("**brave.flush**") > [i for i, x in enumerate(items) if x == "ok"][-1]


def test_an_event_after_its_span_is_a_moment_not_a_call_beside_another():
    """An event kept back for its time is a moment: drawn among what ran then, not as a `par`
    branch of its own beside a call, and not before its own span's message."""

    def span(at: int, name: str, took: int, **more) -> dict:
        return {"traceId": "t1", "timestamp": at, "name": name, "duration": took,
                "localEndpoint": {"serviceName": "a"}, **more}  # fmt: skip

    spans = [
        span(1000, "root", 10000, id="1", kind="SERVER"),
        span(
            1100,
            "get",
            1000,
            id="2",
            parentId="1",
            kind="CLIENT",
            remoteEndpoint={"serviceName": "b"},
        ),  # fmt: skip
        span(
            1200,
            "work",
            100,
            id="3",
            parentId="1",
            annotations=[{"timestamp": 1500, "value": "late"}],
        ),  # fmt: skip
    ]
    diagram = import_trace(json.dumps(spans))
    assert not any(isinstance(item, Block) for item in walk(diagram.items))
    said = [
        item.text if isinstance(item, Note) else item.label
        for item in walk(diagram.items)
        if isinstance(item, (Note, Message))
    ]
    assert said == ["root", "get", "ok", "work", "**late**", "ok"]


def test_jaeger_api_v3_answer_is_the_otlp_inside_its_result():
    """GET /api/v3/traces/{id} answers OTLP/JSON wrapped in {"result": …}, one a line when it
    streams (Jaeger's own snapshot of that answer)."""
    diagram = trace("jaeger-api-v3.json")
    assert arrows(diagram) == [
        ("Client", "->", "unknown service", "foobar"),
        ("unknown service", "-->", "Client", "**error**"),
    ]
    answer = (CASES / "jaeger-api-v3.json").read_text(encoding="utf-8")
    second = answer.replace('"0000000000000002"', '"0000000000000003"')  # the stream's next span
    streamed = f"{json.dumps(json.loads(answer))}\n{json.dumps(json.loads(second))}"
    found = detect(streamed)
    assert found is not None and found.name == "trace"
    assert len(import_trace(streamed).messages()) == 4


def test_an_error_that_only_repeats_the_status_code_is_said_once():
    # smartthings: the failed call's `error` tag is "401", as its http.status_code is
    replies = [a for a in arrows(trace("zipkin-smartthings-oauth.json")) if "401" in a[3]]
    assert replies[0] == ("auth", "-->", "stlogin", "**error** 401")


def test_envoy_client_span_calls_its_upstream_cluster():
    # The OpenTelemetry demo's front proxy (Envoy) names the service it forwards to only by
    # `upstream_cluster.name`.
    assert arrows(trace("otlp-demo-envoy.json")) == [
        ("Client", "->", "frontend-proxy", "GET /api/products/66VCHSJNUP"),
        ("frontend-proxy", "->", "frontend", "router frontend egress"),
        ("frontend", "-->", "frontend-proxy", "200"),
        ("frontend-proxy", "-->", "Client", "200"),
    ]


def test_grpc_status_codes_are_named_and_json_lines_are_sections():
    diagram = trace("otlp-json-lines.jsonl")
    sections = [item for item in diagram.items if isinstance(item, Divider)]
    assert len(sections) == 19  # a trace a line
    # the ids are in base64 in the file; the sections show them in hex, as Jaeger or Tempo do
    assert sections[0].label == "trace 69842a979911036cf3e822086ecaa007"  # aYQql5kRA2zz6CIIbsqgBw==
    assert ("product-catalog", "-->", "Client", "0 OK") in arrows(diagram)
    assert all(label != "0" for *_, label in arrows(diagram))


@pytest.mark.parametrize(
    ("name", "wrap"),
    [
        ("otlp-memory", lambda data: {"batches": data["resourceSpans"]}),  # Tempo's first API
        ("otlp-memory", lambda data: {"trace": data}),  # Tempo's API v2
        ("jaeger", lambda data: [data]),  # the Jaeger UI's download of several traces
    ],
)
def test_the_wrappers_query_apis_answer_with_import_as_the_trace_inside(name, wrap):
    file = {"otlp-memory": "otlp-jaeger-memory-store.json", "jaeger": "jaeger-ui-01.json"}[name]
    data = json.loads((CASES / file).read_text(encoding="utf-8"))
    wrapped = json.dumps(wrap(data))
    assert detect(wrapped).name == "trace"
    assert write(import_trace(wrapped)) == write(trace(file))


def otlp_span(span_id: str, parent: str | None, service: str, kind: int, start_ms: int, **more):
    """One OTLP export of a span starting `start_ms` after a second into the epoch."""
    span = {
        "traceId": "5b8efff798038103d269b633813fc60c",
        "spanId": span_id,
        "name": f"{service} span",
        "kind": kind,
        "startTimeUnixNano": str((1000 + start_ms) * 1_000_000),
        "endTimeUnixNano": str((1200 + start_ms) * 1_000_000),
        **({"parentSpanId": parent} if parent else {}),
        **more,
    }
    resource = {"attributes": [{"key": "service.name", "value": {"stringValue": service}}]}
    return {"resource": resource, "scopeSpans": [{"spans": [span]}]}


def event(name: str, at_ms: int) -> dict:
    return {"name": name, "timeUnixNano": str((1000 + at_ms) * 1_000_000)}


def test_a_span_event_is_cut_in_its_note_and_whole_in_the_spans_payload():
    stack = "java.lang.IllegalStateException: " + "x" * 150 + "\n\tat Parser.parse(Parser.java:42)"
    exception = event("exception", 5) | {
        "attributes": [
            {"key": "exception.type", "value": {"stringValue": "IllegalStateException"}},
            {"key": "exception.stacktrace", "value": {"stringValue": stack}},
        ]
    }
    data = {"resourceSpans": [otlp_span("01", None, "a", 2, 0, events=[exception])]}
    diagram = import_trace(json.dumps(data))
    (note,) = [item for item in diagram.items if isinstance(item, Note)]
    assert note.text.startswith("**exception**") and "Parser.java:42" not in note.text
    call = diagram.messages()[0]
    payload = call.request
    assert payload is not None
    assert "event: exception\nevent.exception.type: IllegalStateException\n" in payload.body
    table = rows(call)
    assert table["event.exception.stacktrace"] == " ".join(stack.split())  # one row, all of it


def test_what_the_consumer_recorded_is_the_asynchronous_arrows_second_payload():
    # zipkin-messaging.json: frontend publishes to rabbitmq; backend's CONSUMER span takes it
    diagram = trace("zipkin-messaging.json")
    (publish,) = [m for m in diagram.messages() if m.arrow == "->>"]
    assert rows(publish)["kind"] == "producer"
    assert publish.response is not None and publish.response.label == "Consumer"
    taken = rows(publish, "response")
    assert (taken["span"], taken["kind"], taken["rabbit.queue"]) == (
        "next-message",
        "consumer",
        "backend",
    )


def test_span_events_are_drawn_when_they_happened_among_the_calls():
    """An event after a nested call returned is drawn after its reply, not right after the
    request that opened the span."""
    data = {
        "resourceSpans": [
            otlp_span("01", None, "a", 3, 0, events=[event("a-late", 150)]),  # CLIENT
            otlp_span("02", "01", "b", 2, 1, events=[event("b-early", 5), event("b-late", 99)]),
            otlp_span("03", "02", "b", 3, 10),  # b's CLIENT call to c
            otlp_span("04", "03", "c", 2, 11),
        ]
    }
    diagram = import_trace(json.dumps(data))
    order = [
        f"{item.sender}>{item.receiver}" if isinstance(item, Message) else item.text
        for item in diagram.items
    ]
    assert order == ["a>b", "**b-early**", "b>c", "c>b", "**b-late**", "**a-late**", "b>a"]


def test_zipkin_otel_status_is_an_error_and_v1_core_annotations_are_not_notes():
    span = {
        "traceId": "4d1e00c0db9010db86154a4ba6e91385",
        "id": "4d1e00c0db9010db",
        "kind": "CLIENT",
        "name": "get",
        "timestamp": 1472470996199000,
        "duration": 207000,
        "localEndpoint": {"serviceName": "frontend"},
        "remoteEndpoint": {"serviceName": "backend"},
        "annotations": [
            {"timestamp": 1472470996199000, "value": "cs"},
            {"timestamp": 1472470996238000, "value": "retrying"},
            {"timestamp": 1472470996406000, "value": "cr"},
        ],
        "tags": {"otel.status_code": "ERROR", "otel.status_description": "Something failed"},
    }
    diagram = import_trace(json.dumps([span]))
    notes = [item.text for item in diagram.items if isinstance(item, Note)]
    assert notes == ["**retrying**"]
    assert diagram.messages()[-1].label == "**error**: Something failed"


def test_zipkin_v1_spans_take_their_kind_from_their_annotations():
    """Spans from Zipkin v1 (jaeger's zipkin_v1_merged_spans.json) have no `kind`: `sr`/`ss`
    make a server span, `cs`/`cr` a client's. Both were drawn as calls from first_service to
    itself. A span that holds both halves of a call (`cs` and `sr`, merged from v1) and names
    no remote endpoint is a call to the service it ran in, not to a lane made up for it. A span
    named with white space only (a tracer wrote "\\n") is said to have none."""

    def span(span_id: str, name: str, values: list[str], parent: str | None = None) -> dict:
        return {
            "traceId": "4ed11df465275600", "id": span_id, "name": name,
            "timestamp": 1633073248674949, "duration": 14861,
            "localEndpoint": {"serviceName": "first_service"},
            "annotations": [{"timestamp": 1633073248674949, "value": v} for v in values],
            **({"parentId": parent} if parent else {}),
        }  # fmt: skip

    spans = [
        span("4ed11df465275600", "get /", ["sr", "ss"]),
        span("c943743e25dc2cdf", "\n", ["cs", "sr", "cr", "ss"], "4ed11df465275600"),
    ]
    diagram = import_trace(json.dumps(spans))
    assert arrows(diagram) == [
        ("Client", "->", "first_service", "get /"),
        ("first_service", "->", "first_service", "(unnamed span)"),
        ("first_service", "-->", "first_service", "ok"),
        ("first_service", "-->", "Client", "ok"),
    ]


def test_otlp_array_and_map_attributes_keep_their_values_types():
    attributes = [
        {
            "key": "arr",
            "value": {"arrayValue": {"values": [{"stringValue": "a"}, {"intValue": "2"}]}},
        },
        {
            "key": "kv",
            "value": {"kvlistValue": {"values": [{"key": "x", "value": {"boolValue": True}}]}},
        },
        {"key": "big", "value": {"intValue": "9007199254740993"}},
    ]
    data = {"resourceSpans": [otlp_span("01", None, "svc", 1, 0, attributes=attributes)]}
    body = import_trace(json.dumps(data)).messages()[0].request.body
    assert '\narr: ["a", 2]\nkv: {"x": true}\nbig: 9007199254740993' in body
    # written as a map of names to values (not OTLP's list): read, not dropped
    mapped = {"beast": "manticore", "ok": True, "n": 3, "tags": ["a"], "v": {"intValue": "7"}}
    data = {"resourceSpans": [otlp_span("01", None, "svc", 1, 0, attributes=mapped)]}
    body = import_trace(json.dumps(data)).messages()[0].request.body
    assert '\nbeast: manticore\nok: true\nn: 3\ntags: ["a"]\nv: 7' in body


def test_a_zipkin_span_with_an_address_and_no_service_name_is_named_by_its_address():
    """Envoy's spans (zipkin-envoy.json) give the local endpoint's ip alone: the lane is named
    by it, as the remote end of a call with no name is."""
    assert trace("zipkin-envoy.json").participants[1] == "169.254.65.45"


def otlp(*spans: tuple[str, str, int, int, str, int | None]) -> str:
    """An OTLP/JSON export of spans given as (service, name, start ms, end ms, kind, parent)."""
    kinds = {"internal": 1, "server": 2, "client": 3, "producer": 4, "consumer": 5}
    resources = {}
    for number, (service, name, start, end, kind, parent) in enumerate(spans, 1):
        span = {
            "traceId": "5b8efff798038103d269b633813fc60c",
            "spanId": f"{number:016x}",
            "name": name,
            "kind": kinds[kind],
            "startTimeUnixNano": str(1_700_000_000_000_000_000 + start * 1_000_000),
            "endTimeUnixNano": str(1_700_000_000_000_000_000 + end * 1_000_000),
        }
        if parent is not None:
            span["parentSpanId"] = f"{parent:016x}"
        resources.setdefault(service, []).append(span)
    return json.dumps(
        {
            "resourceSpans": [
                {
                    "resource": {
                        "attributes": [{"key": "service.name", "value": {"stringValue": s}}]
                    },
                    "scopeSpans": [{"spans": found}],
                }
                for s, found in resources.items()
            ]
        }
    )


def test_calls_made_at_once_are_the_branches_of_a_par_block():
    """cart (10-90 ms) and pricing (20-30 ms) ran together: drawn one after the other, the
    second looked as if it waited for the first."""
    text = otlp(
        ("frontend", "GET /checkout", 0, 100, "server", None),
        ("frontend", "GET /cart", 10, 90, "client", 1),
        ("frontend", "GET /price", 20, 30, "client", 1),
        ("frontend", "GET /tax", 95, 99, "client", 1),
    )
    diagram = import_trace(text, TrafficOptions(), "t.json")
    (block,) = [item for item in diagram.items if isinstance(item, Block)]
    assert block.kind == "par"
    assert [[m.label for m in b.items] for b in block.branches] == [
        ["GET /cart", "ok"],
        ["GET /price", "ok"],
    ]
    after = diagram.items[diagram.items.index(block) + 1]
    assert isinstance(after, Message) and after.label == "GET /tax"  # after both had ended


def test_the_callers_own_work_is_drawn_when_it_happened():
    """A connect before the callee's database call, a publish after the reply: the caller's
    spans beside its call were all drawn after everything the callee did."""
    text = otlp(
        ("requester", "GET /orders", 0, 50, "client", None),
        ("requester", "tcp.connect", 1, 2, "internal", 1),
        ("requester", "publish", 40, 41, "producer", 1),
        ("server", "GET /orders", 3, 31, "server", 1),
        ("server", "SELECT orders", 5, 25, "client", 4),
    )
    found = arrows(import_trace(text, TrafficOptions(), "t.json"))
    assert [label for *_, label in found] == [
        "GET /orders",
        "tcp.connect",
        "SELECT orders",
        "ok",
        "ok",
        "publish",
    ]


def test_what_a_consumer_did_is_drawn_when_it_took_the_message():
    """Grafana Tempo's queue trace: the recorder took the message 7 ms after it was sent,
    while the requester went on connecting; its work was drawn right after the send."""

    def labels(consumer_at: int) -> list[str]:
        text = otlp(
            ("requester", "GET /orders", 0, 50, "client", None),
            ("server", "GET /orders", 3, 31, "server", 1),
            ("requester", "publish", 38, 39, "internal", 1),
            ("requester", "send", 38, 39, "producer", 3),
            ("recorder", "take", consumer_at, consumer_at + 1, "consumer", 4),
            ("recorder", "process", consumer_at, consumer_at + 1, "internal", 5),
            ("requester", "tcp.connect", 41, 42, "internal", 1),
        )
        return [label for *_, label in arrows(import_trace(text, TrafficOptions(), "t.json"))]

    sent = ["GET /orders", "ok", "publish", "send"]
    assert labels(45) == [*sent, "tcp.connect", "process"]
    assert labels(40) == [*sent, "process", "tcp.connect"]
    assert labels(100) == [*sent, "tcp.connect", "process"]  # after all the trace did
    assert labels(38) == [*sent, "process", "tcp.connect"]  # taken while it was sent


def test_a_consumer_that_took_the_message_while_it_was_sent_follows_the_send():
    """A Kafka send lasts until the broker's ack: a consumer taking the message before that
    was drawn beside its own send, in a par block, as if both happened at once."""
    text = otlp(
        ("web", "POST /order", 0, 100, "server", None),
        ("web", "send", 10, 30, "producer", 1),
        ("billing", "take", 15, 16, "consumer", 2),
        ("billing", "charge", 15, 16, "internal", 3),
        ("web", "INSERT", 40, 50, "client", 1),
    )
    diagram = import_trace(text, TrafficOptions(), "t.json")
    assert not [item for item in diagram.items if isinstance(item, Block)]
    assert [label for *_, label in arrows(diagram)][1:3] == ["send", "charge"]


def test_a_message_taken_without_a_consumer_span_goes_to_the_service_it_led_to():
    """Jaeger's own example: service-two's calls under service-one's send, with no CONSUMER
    span; the send went to a lane named `remote`, and service-two's work hung unconnected."""
    text = otlp(
        ("service-one", "send", 0, 1, "producer", None),
        ("service-two", "async task 1", 2, 6, "client", 1),
        ("service-two", "shorter than parent", 3, 4, "client", 1),
    )
    diagram = import_trace(text, TrafficOptions(), "t.json")
    assert arrows(diagram)[0] == ("service-one", "->>", "service-two", "send")
    # a producer whose later spans are its own service's, or several services', still sends
    # to the peer it names, or to `remote`
    mixed = otlp(
        ("web", "send", 0, 1, "producer", None),
        ("a", "x", 2, 3, "client", 1),
        ("b", "y", 2, 3, "client", 1),
    )
    assert arrows(import_trace(mixed, TrafficOptions(), "t.json"))[0][2] == "remote"


def test_what_a_consumer_did_is_drawn_inside_a_later_top_level_call_that_ran_meanwhile():
    text = otlp(
        ("cron", "publish", 0, 1, "producer", None),
        ("worker", "take", 50, 51, "consumer", 1),
        ("worker", "do", 50, 51, "internal", 2),
        ("api", "GET /y", 30, 80, "server", None),
        ("api", "SELECT", 70, 75, "client", 4),
    )
    labels = [label for *_, label in arrows(import_trace(text, TrafficOptions(), "t.json"))]
    assert labels.index("do") < labels.index("SELECT")


def test_jaeger_spans_that_carry_their_own_process_are_a_trace():
    """Jaeger's storage, and its anonymizer, write a trace as an array of spans, each with its
    process: it was "not a trace"."""
    diagram = trace("jaeger-anonymizer-spans.json")
    assert diagram.participants == ["Client", "16af988c443cff37", "3c220036602f839e", "remote"]
    assert [label for *_, label in arrows(diagram)] == [
        "a071653098f9250d",
        "471418097747d04a",
        "**error**",
        "ok",
    ]


def test_a_zipkin_span_on_its_own_is_a_trace_of_one():
    diagram = trace("zipkin-one-span-chinese.json")
    call = diagram.messages()[0]
    assert (call.sender, call.receiver) == ("订单维护服务", "个人信息服务")
    assert call.label == "个人信息查询"
    text = (CASES / "zipkin-one-span-chinese.json").read_text(encoding="utf-8")
    assert detect(text) is IMPORTERS["trace"]  # volley import tells it without --from


def test_a_time_that_is_not_a_number_is_an_error_not_the_epoch():
    span = {"traceId": "4d1e00c0db9010db", "id": "86154a4ba6e91385", "name": "get"}
    text = json.dumps([{**span, "timestamp": "soon", "duration": 5}], indent=1)
    with pytest.raises(VolleyError) as raised:
        convert(text, "z.json", "trace")
    error = raised.value
    assert error.message == 'a span\'s time is not a number: "soon"'
    # at its place in the file, and not about naming the format: the format was known
    assert (error.line, error.source_line) == (6, '  "timestamp": "soon",')
    assert error.column == error.source_line.index('"soon"') + 1
    assert "--from" not in error.hint
    assert convert(json.dumps([{**span, "duration": 5}]), "z.json", "trace")  # none: drawn


def test_a_time_written_as_true_is_an_error_not_one_nanosecond():
    """int(True) is 1: a boolean time would have been drawn as the first nanosecond."""
    span = {"traceId": "4d1e00c0db9010db", "id": "86154a4ba6e91385", "name": "get"}
    with pytest.raises(VolleyError, match="time is not a number: true"):
        convert(json.dumps([{**span, "timestamp": True}]), "z.json", "trace")


def test_a_spans_links_and_other_references_are_in_its_payload():
    otlp = {
        "resourceSpans": [
            {
                "resource": {
                    "attributes": [{"key": "service.name", "value": {"stringValue": "a"}}]
                },
                "scopeSpans": [
                    {
                        "spans": [
                            {
                                "traceId": "01",
                                "spanId": "0a",
                                "name": "consume",
                                "startTimeUnixNano": "1",
                                "endTimeUnixNano": "9",
                                "links": [
                                    {
                                        "traceId": "02",
                                        "spanId": "0b",
                                        "attributes": [
                                            {"key": "why", "value": {"stringValue": "batch"}}
                                        ],
                                    }
                                ],
                            }
                        ]
                    }
                ],
            }
        ]
    }
    diagram = import_trace(json.dumps(otlp))
    bodies = [m.request.body for m in diagram.messages() if m.request]
    assert any("links to: span 0b of trace 02, why=batch" in body for body in bodies)
    span = {"traceID": "t1", "operationName": "join", "processID": "p1", "startTime": 5}
    refs = [{"refType": "CHILD_OF", "traceID": "t1", "spanID": s} for s in ("r1", "r2")]
    jaeger = {
        "traceID": "t1",
        "processes": {"p1": {"serviceName": "a"}, "p2": {"serviceName": "b"}},
        "spans": [
            {**span, "spanID": "r1", "processID": "p2", "startTime": 1, "duration": 9},
            {**span, "spanID": "r2", "processID": "p2", "startTime": 2, "duration": 9},
            {**span, "spanID": "s1", "duration": 2, "references": refs},
        ],
    }
    bodies = [m.request.body for m in import_trace(json.dumps(jaeger)).messages() if m.request]
    assert sum("links to: CHILD_OF span r2" in body for body in bodies) == 1
    assert not any("of trace" in body for body in bodies)


def test_a_log_line_with_a_trace_id_is_no_zipkin_span():
    line = {"id": "evt-1", "traceId": "4bf92f3577b34da6", "level": "info", "msg": "started"}
    assert detect(json.dumps(line)) is not IMPORTERS["trace"]


def test_jaegers_own_protobuf_json_test_data():
    """Jaeger's converter fixture: its api_v2 model as protobuf JSON, with hex ids, Go
    durations, RFC 3339 times with an offset, logs as events and typed tags."""
    diagram = trace("jaeger-proto-domain.json")
    assert [(m.sender, m.receiver, m.label) for m in diagram.messages()] == [
        (SERVICE_X, SERVICE_X, "test-general-conversion"),
        ("service-y", "service-y", "some-operation"),
        ("service-y", "service-y", "reference-test"),
        ("service-y", "service-y", "preserveParentID-test"),
    ]
    first = rows(diagram.messages()[0])
    assert first["duration"] == "5 µs"
    notes = [item.text for item in walk(diagram.items) if isinstance(item, Note)]
    assert notes == ["**some-event**", "**log**\nx: y"]
    reference = rows(diagram.messages()[2])
    assert reference["links to"] == "CHILD_OF span ff of trace ff"


JAEGER_PROTO_CALL = [
    {
        "traceId": "AAAAAAAAAABSlpqJVVcaPw==",
        "spanId": "AAAAAABkfZg=",
        "operationName": "HTTP GET /dispatch",
        "startTime": "2023-12-01T10:47:45.853375888Z",
        "duration": "0.001245672s",
        "tags": [
            {"key": "span.kind", "vStr": "client"},
            {"key": "http.status_code", "vType": "INT64", "vInt64": "200"},
            {"key": "sampler.param", "vType": "BOOL", "vBool": True},
            {"key": "retries", "vType": "INT64"},  # zero: protobuf's JSON leaves it out
        ],
        "processId": "p1",
    },
    {
        "traceId": "AAAAAAAAAABSlpqJVVcaPw==",
        "spanId": "AAAAAABkfZk=",
        "operationName": "HTTP GET /dispatch",
        # no refType: CHILD_OF, the default, which protobuf's JSON leaves out
        "references": [{"traceId": "AAAAAAAAAABSlpqJVVcaPw==", "spanId": "AAAAAABkfZg="}],
        "startTime": "2023-12-01T11:47:45.853475888+01:00",  # 100 µs later, in Paris
        "duration": "1ms",
        "tags": [
            {"key": "span.kind", "vStr": "server"},
            {"key": "error", "vType": "BOOL", "vBool": True},
        ],
        "process": {"serviceName": "driver"},
        "logs": [
            {
                "timestamp": "2023-12-01T10:47:45.8534Z",
                "fields": [
                    {"key": "event", "vStr": "retry"},
                    {"key": "attempt", "vType": "INT64", "vInt64": "2"},
                ],
            }
        ],
    },
]  # fmt: skip
FRONTEND = {"processId": "p1", "process": {"serviceName": "frontend"}}


def _proto_forms() -> dict[str, str]:
    """One call as each source writes Jaeger's protobuf JSON."""
    client, server = JAEGER_PROTO_CALL
    own = {**client, "process": FRONTEND["process"]}
    trace = {"spans": JAEGER_PROTO_CALL, "processMap": [FRONTEND]}
    return {
        "a trace": json.dumps(trace, indent=2),
        "a gateway's answer": json.dumps({"result": trace}),
        # grpcurl prints each chunk of GetTrace's stream, indented, one after another
        "grpcurl's chunks": "\n".join(
            json.dumps({"spans": [span], "processMap": [FRONTEND]}, indent=2)
            for span in JAEGER_PROTO_CALL
        ),
        # the collector's Kafka messages with the json encoding: a span each, with its process
        "Kafka messages": json.dumps(own) + "\n" + json.dumps(server) + "\n",
        "an array of spans": json.dumps([own, server]),
    }


@pytest.mark.parametrize("form", list(_proto_forms()))
def test_jaegers_protobuf_json_is_read_in_every_form(form: str):
    """Jaeger's protobuf JSON (base64 ids, `vType` tags, RFC 3339 times) was refused; each
    form of it now draws as the same trace in the query API's JSON does."""
    text = _proto_forms()[form]
    assert detect(text) is IMPORTERS["trace"]
    diagram = import_trace(text)
    assert arrows(diagram) == [
        ("frontend", "->", "driver", "HTTP GET /dispatch"),
        ("driver", "-->", "frontend", "**error** 200"),
    ]
    call, reply = diagram.messages()
    request = rows(call)
    assert request["duration"] == "1.25 ms"  # 0.001245672 s, in whole microseconds
    assert (request["http.status_code"], request["sampler.param"], request["retries"]) == (
        "200",
        "true",
        "0",
    )
    assert rows(reply, "response")["duration"] == "1 ms"
    (note,) = [item for item in walk(diagram.items) if isinstance(item, Note)]
    assert note.over == ["driver"] and note.text == "**retry**\nattempt: 2"


def test_jaegers_protobuf_json_in_two_traces_shows_their_ids_in_hex():
    client, server = JAEGER_PROTO_CALL
    other = {**client, "traceId": "AAAAAAAAAAAAAAAAAAAAEQ==", "startTime": "2023-12-01T10:48:00Z"}
    spans = [{**s, "process": FRONTEND["process"]} for s in (client, other)]
    diagram = import_trace(json.dumps(spans))
    dividers = [item.label for item in walk(diagram.items) if isinstance(item, Divider)]
    assert dividers == [
        "trace 000000000000000052969a8955571a3f",
        "trace 00000000000000000000000000000011",
    ]


@pytest.mark.parametrize(
    ("member", "written", "said"),
    [
        ("startTime", "yesterday", 'a span\'s time is not an RFC 3339 time: "yesterday"'),
        ("startTime", "2023-02-30T10:00:00Z", "is not an RFC 3339 time"),
        ("duration", "soon", 'a span\'s time is not a duration: "soon"'),
        ("duration", 1500, "is not a duration: 1500"),
    ],
)
def test_a_protobuf_time_volley_cannot_read_is_pointed_at(member, written, said, tmp_path):
    span = {**JAEGER_PROTO_CALL[1], member: written}
    source = tmp_path / "spans.json"
    source.write_text(json.dumps([span], indent=2))
    done = volley_cli("import", str(source))
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert said in done.stderr
    line = next(
        n for n, text in enumerate(source.read_text().splitlines(), 1) if f'"{member}"' in text
    )
    assert f"spans.json:{line}:" in done.stderr


def _console(**fields) -> dict:
    """A span as the OpenTelemetry Python SDK's ConsoleSpanExporter prints it."""
    service = fields.pop("service")
    span = {
        "name": fields.pop("name"),
        "context": {"trace_id": "0x4f30f3348f14cca1c9473b5a2ea813de", "span_id": fields.pop("id")},
        "kind": fields.pop("kind"),
        "parent_id": fields.pop("parent", None),
        "status": {"status_code": "UNSET"},
        "attributes": {},
        "events": [],
        "links": [],
        "resource": {"attributes": {"service.name": service}, "schema_url": ""},
    }
    return {**span, **fields}


def test_the_python_sdks_console_output_is_read():
    """What OpenTelemetry's Python getting-started pages print: indented JSON spans one after
    another, with `0x` ids, RFC 3339 times and `SpanKind.SERVER`."""
    spans = [
        _console(
            name="GET /checkout", id="0x01", kind="SpanKind.SERVER", service="frontend",
            start_time="2024-06-14T09:57:30.100000Z", end_time="2024-06-14T09:57:31.000000Z",
            attributes={"http.method": "GET", "http.status_code": 200},
        ),
        _console(
            name="POST", id="0x02", parent="0x01", kind="SpanKind.CLIENT", service="frontend",
            start_time="2024-06-14T09:57:30.200000Z", end_time="2024-06-14T09:57:30.900000Z",
            attributes={"http.url": "http://payments/charge", "retried": True, "tags": ["a", 1]},
        ),
        _console(
            name="POST /charge", id="0x03", parent="0x02", kind="SpanKind.SERVER",
            service="payments", start_time="2024-06-14T09:57:30.300000Z",
            end_time="2024-06-14T09:57:30.800000Z",
            status={"status_code": "ERROR", "description": "card declined"},
            events=[{"name": "retry", "timestamp": "2024-06-14T09:57:30.400000Z",
                     "attributes": {"attempt": 2}}],
            links=[{"context": {"trace_id": "0xff", "span_id": "0x0b"}, "attributes": {}}],
        ),
    ]  # fmt: skip
    text = "\n".join(json.dumps(span, indent=4) for span in reversed(spans))  # any order
    assert detect(text) is IMPORTERS["trace"]
    diagram = import_trace(text)
    assert arrows(diagram) == [
        ("Client", "->", "frontend", "GET /checkout"),
        ("frontend", "->", "payments", "POST"),  # named by its client span
        ("payments", "-->", "frontend", "**error**: card declined"),
        ("frontend", "-->", "Client", "200"),
    ]
    call = rows(diagram.messages()[1])
    assert (call["retried"], call["tags"]) == ("true", '["a", 1]')
    reply = diagram.messages()[2].response
    assert reply is not None and "links to: span 0b of trace ff" in reply.body
    (note,) = [item for item in walk(diagram.items) if isinstance(item, Note)]
    assert note.over == ["payments"] and note.text == "**retry**\nattempt: 2"


def test_the_caller_of_the_trace_stands_at_the_left():
    """A service's own work that starts with the call (Jaeger's example trace) put its lane
    before the Client that called it in: the caller now stands first, as callers do."""
    service = {"attributes": [{"key": "service.name", "value": {"stringValue": "api"}}]}
    spans = [
        {"traceId": "01", "spanId": "0a", "name": "warm cache", "kind": 1,
         "startTimeUnixNano": "100", "endTimeUnixNano": "150"},
        {"traceId": "01", "spanId": "0b", "name": "GET /", "kind": 2,
         "startTimeUnixNano": "100", "endTimeUnixNano": "200"},
    ]  # fmt: skip
    other = {"attributes": [{"key": "service.name", "value": {"stringValue": "worker"}}]}
    otlp = {
        "resourceSpans": [
            {"resource": other, "scopeSpans": [{"spans": [{**spans[0], "spanId": "0c"}]}]},
            {"resource": service, "scopeSpans": [{"spans": spans}]},
        ]
    }
    diagram = import_trace(json.dumps(otlp))
    assert diagram.participants[0] == "Client"
    assert set(diagram.participants) == {"Client", "api", "worker"}


def test_a_peer_named_by_a_url_is_its_host_without_the_password():
    """OpenTracing's `peer.address` may be a database's connection URL, password and all: the
    lane is the host and port, and the password is nowhere in the text."""
    address = {
        "key": "peer.address",
        "value": {"stringValue": "mongodb://app:S3cret99@mongo:27017/shop"},
    }
    data = {"resourceSpans": [otlp_span("01", None, "orders", 3, 0, attributes=[address])]}
    (item,) = convert(json.dumps(data), "spans.json")
    assert "S3cret99" not in item.text
    assert "orders" in parse(item.text).participants
    assert "mongo:27017" in parse(item.text).shown("mongo 27017")
    broken = {"key": "peer.address", "value": {"stringValue": "http://[::1"}}
    data = {"resourceSpans": [otlp_span("01", None, "orders", 3, 0, attributes=[broken])]}
    assert convert(json.dumps(data), "spans.json")  # a peer that reads as no URL stays a name


def test_a_zipkin_span_reported_in_pieces_is_one_span():
    """A tracer may report one span in several records of one trace, id and service; Zipkin
    merges them. Left apart, the piece without a kind took the place of the client's call,
    and the server was drawn calling itself."""
    diagram = trace("zipkin-smartthings-fragments.json")
    assert arrows(diagram) == [
        ("Client", "->", "strongman", "post pages/install/initialize"),
        ("strongman", "->", "platformapi", "put /installedapps/\\_uuid\\_/init-update-flow"),
        ("platformapi", "-->", "strongman", "ok"),
        ("strongman", "-->", "Client", "ok"),
    ]


def test_spans_with_empty_ids_are_each_drawn():
    """The OTLP specification's file-exporter example writes every id as "": eight spans, not
    the same span eight times (they were drawn as one)."""
    diagram = trace("otlp-spec-file-exporter.jsonl")
    labels = [m.label for m in diagram.messages() if m.arrow in ("->", "->>")]
    assert len(labels) == 8
    assert sum("operationA" in label for label in labels) == 4


def test_a_jaeger_thrift_batch_is_refused_as_what_it_is():
    """What a tracer sends Jaeger's collector (jaeger's `thrift_batch_01.json`): its times
    were refused as "not an RFC 3339 time", beside a hint that whole numbers are read."""
    batch = {
        "process": {"serviceName": "api", "tags": []},
        "spans": [
            {"traceIdLow": 5951113872249657919, "spanId": 6585752, "parentSpanId": 6866147,
             "operationName": "get", "startTime": 1485467191639875, "duration": 22938}
        ],
    }  # fmt: skip
    with pytest.raises(VolleyError, match="Jaeger batch in its Thrift model") as caught:
        import_trace(json.dumps(batch), filename="batch.json")
    assert "Jaeger's UI" in (caught.value.hint or "")


@pytest.mark.parametrize(
    ("data", "what", "where"),
    [
        (
            [[{"trace_id": 1, "span_id": 1, "name": "smoke", "resource": "/", "service": "s"}]],
            "Datadog's format",
            "OTLP/JSON",
        ),
        (  # zipkin's own tests: binary_annotations, base64 values
            [{"trace_id": 1, "id": 2, "name": "x", "binary_annotations": [{"key": "b"}]}],
            "Zipkin v1's Thrift JSON",
            "/api/v2/trace/",
        ),
        (
            {"spans": [{"trace_id": "QoVouqoJRn5CjmiKqglGfw==", "local_endpoint": {}}]},
            "Zipkin's proto3 model",
            "/api/v2/trace/",
        ),
        (
            {"TraceID": "AAAAAAAAAAEAAAAAAAAAAA==", "SpanID": 2, "OperationName": "get"},
            "Jaeger's Cassandra storage",
            "Jaeger's UI",
        ),
    ],
)
def test_a_trace_in_a_format_volley_does_not_read_is_told_what_it_is(tmp_path, data, what, where):
    """These were "cannot tell what format this is", and with --from trace a list of what is
    read: the error says what the file is, and where to get a trace volley reads."""
    path = tmp_path / "trace.json"
    path.write_text(json.dumps(data, indent=2), encoding="utf-8")
    done = volley_cli("import", str(path))
    assert done.returncode == 1
    first, hint = done.stderr.split("\n")[:2]
    assert first.startswith(f"{path}: error: this is ") and what in first
    assert where in hint


def test_logs_beside_the_spans_of_a_file_exporter_are_told_and_left_out(tmp_path):
    """The collector's file exporter writes every signal alike: a file of traces and logs was
    "cannot tell what format this is"."""
    path = CASES / "otlp-spec-file-exporter-logs.jsonl"
    assert detect(path.read_text(encoding="utf-8")) is IMPORTERS["trace"]
    done = volley_cli("import", str(path), "-o", str(tmp_path / "out.volley"))
    assert done.returncode == 0, done.stderr
    assert "4 records of this file are logs or metrics, not spans" in done.stderr
    diagram = parse((tmp_path / "out.volley").read_text(encoding="utf-8"))
    assert len([m for m in diagram.messages() if m.arrow == "->"]) == 8
    logs_only = "\n".join(path.read_text(encoding="utf-8").splitlines()[4:])
    with pytest.raises(VolleyError, match="holds logs or metrics, not spans"):
        import_trace(logs_only)
    # told apart without --from too: it was "cannot tell what format this is"
    with pytest.raises(VolleyError, match="holds logs or metrics, not spans"):
        convert(logs_only, "logs.jsonl")


def test_one_span_as_jaegers_storage_keeps_it_is_a_trace():
    """An Elasticsearch document of Jaeger's: one span, its process inside it. An array of
    such spans was read; the document alone was "cannot tell what format this is"."""
    text = (CASES / "jaeger-es-span.json").read_text(encoding="utf-8")
    assert detect(text) is IMPORTERS["trace"]
    (message, *_) = import_trace(text).messages()
    assert "test-general-conversion" in message.label


def test_an_otlp_spans_instrumentation_scope_is_in_its_payload():
    """The library that made a span (OTLP's scope, `instrumentationLibrary` before 0.15), as
    OpenTelemetry names it in formats without scopes: otel.scope.name, .version, attributes."""
    data = {"resourceSpans": [otlp_span("01", None, "svc", 2, 0)]}
    data["resourceSpans"][0]["scopeSpans"][0]["scope"] = {
        "name": "testing-library",
        "version": "1.1.1",
        "attributes": [{"key": "tier", "value": {"intValue": "3"}}],
    }
    body = import_trace(json.dumps(data)).messages()[0].request.body
    assert body.endswith(
        "\notel.scope.name: testing-library\notel.scope.version: 1.1.1\notel.scope.tier: 3"
    )
    old = {"resourceSpans": [otlp_span("01", None, "svc", 2, 0)]}
    old["resourceSpans"][0]["instrumentationLibrarySpans"] = old["resourceSpans"][0].pop(
        "scopeSpans"
    )
    old["resourceSpans"][0]["instrumentationLibrarySpans"][0]["instrumentationLibrary"] = {
        "name": "io.opentelemetry.jdbc"
    }
    body = import_trace(json.dumps(old)).messages()[0].request.body
    assert body.endswith("\notel.scope.name: io.opentelemetry.jdbc")


def test_what_ran_a_span_is_in_its_payload_in_every_format_that_says_it():
    """The resource's attributes besides service.name (the service's version, its host, the
    SDK), and Jaeger's process tags, are `resource.` lines in the payload of each service's
    first span: they were left out without a word."""
    data = {"resourceSpans": [otlp_span("01", None, "svc", 2, 0)]}
    data["resourceSpans"][0]["resource"]["attributes"] += [
        {"key": "service.version", "value": {"stringValue": "1.0.0"}},
        {"key": "host.name", "value": {"stringValue": "server-01"}},
    ]
    said = rows(import_trace(json.dumps(data)).messages()[0])
    assert (said["resource.service.version"], said["resource.host.name"]) == ("1.0.0", "server-01")
    assert "resource.service.name" not in said and said["service"] == "svc"
    python = import_trace((CASES / "otel-python-console.json").read_text(encoding="utf-8"))
    assert rows(python.messages()[0])["resource.telemetry.sdk.language"] == "python"
    go = import_trace((CASES / "otel-go-stdout.json").read_text(encoding="utf-8"))
    assert any(k.startswith("resource.telemetry.sdk") for k in rows(go.messages()[0]))
    jaeger = import_trace((CASES / "jaeger-ui-trace-graph.json").read_text(encoding="utf-8"))
    assert rows(jaeger.messages()[0])["resource.hostname"] == "foobar.org"
    collector = import_trace((CASES / "otelcol-debug-detailed.log").read_text(encoding="utf-8"))
    assert not any("resource." in m.request.body for m in collector.messages() if m.request)


def test_what_ran_a_service_is_said_once_not_on_every_span():
    """A trace of thousands of spans with the same resource lines on each grew several times
    over; they stand on the service's first span, and again where the resource changes."""
    version = {"key": "service.version", "value": {"stringValue": "1.0.0"}}
    spans = [otlp_span(f"{n:02x}", None, "svc", 2, 10 * n) for n in range(1, 4)]
    for span in spans:
        span["resource"]["attributes"].append(version)
    spans[2]["resource"]["attributes"][-1] = {
        "key": "service.version",
        "value": {"stringValue": "2"},
    }
    requests = [
        m for m in import_trace(json.dumps({"resourceSpans": spans})).messages() if m.request
    ]
    said = [rows(m).get("resource.service.version") for m in requests]
    assert said == ["1.0.0", None, "2"]


# --- the collector's debug exporter, as printed ----------------------------------------------


def test_the_collectors_debug_exporter_output_is_read_as_the_spans_it_printed():
    """`verbosity: detailed` prints each span's fields under `Span #0`, below its resource and
    scope: read back as the OTLP/JSON it was (it was "cannot tell what format this is")."""
    text = (CASES / "otelcol-debug-detailed.log").read_text(encoding="utf-8")
    assert detect(text) is IMPORTERS["trace"]
    diagram = trace("otelcol-debug-detailed.log")
    assert arrows(diagram) == [
        ("telemetrygen", "->", "telemetrygen", "lets-go"),
        ("telemetrygen", "-->", "telemetrygen", "ok"),
    ]
    call, reply = diagram.messages()
    assert rows(call)["kind"] == "client" and rows(reply, "response")["kind"] == "server"
    assert rows(call)["peer.service"] == "telemetrygen-server"
    assert rows(call)["otel.scope.name"] == "telemetrygen"
    assert rows(call)["duration"] == "123 µs"  # from its start and end times, to the nanosecond


OLD_COLLECTOR = """\
otel-collector_1  | Resource labels:
otel-collector_1  |      -> service.name: STRING(trace-demo)
otel-collector_1  | InstrumentationLibrarySpans #0
otel-collector_1  | InstrumentationLibrary
otel-collector_1  | Span #0
otel-collector_1  |     Trace ID       : 737d9c966e8250475f400776228c0044
otel-collector_1  |     Parent ID      : ade62a071825f2db
otel-collector_1  |     ID             : 7aa9ea5f24e0444c
otel-collector_1  |     Name           : Sub operation...
otel-collector_1  |     Kind           : SPAN_KIND_CLIENT
otel-collector_1  |     Start time     : 2022-02-24 04:59:57.218995 +0000 UTC
otel-collector_1  |     End time       : 2022-02-24 04:59:57.219022 +0000 UTC
otel-collector_1  |     Status code    : STATUS_CODE_ERROR
otel-collector_1  |     Status message : no lemons
otel-collector_1  | Attributes:
otel-collector_1  |      -> lemons: STRING(five)
otel-collector_1  |      -> peer.service: STRING(grocer)
otel-collector_1  | Events:
otel-collector_1  | SpanEvent #0
otel-collector_1  |      -> Name: Sub span event
otel-collector_1  |      -> Timestamp: 2022-02-24 04:59:57.219012 +0000 UTC
otel-collector_1  |      -> DroppedAttributesCount: 0
otel-collector_1  |      -> Attributes:
otel-collector_1  |          -> aisle: INT(7)
otel-collector_1  | ResourceSpans #1
otel-collector_1  | Resource labels:
otel-collector_1  |      -> service.name: STRING(trace-demo)
otel-collector_1  | InstrumentationLibrarySpans #0
otel-collector_1  | Span #0
otel-collector_1  |     Trace ID       : 737d9c966e8250475f400776228c0044
otel-collector_1  |     Parent ID      :
otel-collector_1  |     ID             : ade62a071825f2db
otel-collector_1  |     Name           : operation
otel-collector_1  |     Kind           : SPAN_KIND_INTERNAL
otel-collector_1  |     Start time     : 2022-02-24 04:59:57.218900 +0000 UTC
otel-collector_1  |     End time       : 2022-02-24 04:59:57.219100 +0000 UTC
otel-collector_1  |     Status code    : STATUS_CODE_UNSET
otel-collector_1  |     Status message :
"""


def test_an_older_collectors_output_under_docker_composes_prefix_is_read_too():
    """Older collectors (the `logging` exporter, as opentelemetry-rust's README shows it) wrote
    `Resource labels:`, `InstrumentationLibrarySpans`, `STRING(…)` and `SPAN_KIND_…`; Docker
    Compose puts its service's name before every line. The text starts below its first
    `ResourceSpans #0`, as a paste cut from a longer output does."""
    assert detect(OLD_COLLECTOR) is IMPORTERS["trace"]
    diagram = import_trace(OLD_COLLECTOR)
    assert diagram.participants == ["trace-demo", "grocer"]
    assert arrows(diagram) == [
        ("trace-demo", "->", "trace-demo", "operation"),
        ("trace-demo", "->", "grocer", "Sub operation..."),
        ("grocer", "-->", "trace-demo", "**error**: no lemons"),
    ]
    (note,) = [item for item in diagram.items if isinstance(item, Note)]
    assert note.text.startswith("**Sub span event**") and "aisle: 7" in note.text


@pytest.mark.parametrize(
    "prefix",
    [
        "2023-11-02T15:56:55.650244396Z ",
        "otel-1  | 2023-11-02T15:56:55.65+01:00 ",
        "[opentelemetry-collector_074ebfb8-f]: ",  # a container's name, in brackets
    ],
)
def test_the_collectors_output_with_dockers_times_before_its_lines_is_read_too(prefix):
    """`docker logs -t` (and `kubectl logs --timestamps`) write the time before every line,
    as opentelemetry-collector-contrib#28870 pasted it: "cannot tell what format this is"."""
    text = (CASES / "otelcol-debug-detailed.log").read_text(encoding="utf-8")
    stamped = "".join(prefix + line for line in text.splitlines(keepends=True))
    assert detect(stamped) is IMPORTERS["trace"]
    assert arrows(import_trace(stamped)) == arrows(trace("otelcol-debug-detailed.log"))


def test_collector_output_cut_short_inside_a_span_says_so():
    """opentelemetry-collector-contrib#28870's paste stops after a span's ids: it was drawn as
    an "(unnamed span)" without a word."""
    text = (CASES / "otelcol-debug-detailed.log").read_text(encoding="utf-8")
    cut = text[: text.index("Name", text.rindex("Span #"))]
    (item,) = convert(cut, "cut.log")
    (warning,) = [w for w in item.warnings if "cut short" in w.message]
    assert warning.line == cut.count("\n", 0, cut.rindex("Span #")) + 1
    assert not [w for w in convert(text, "whole.log")[0].warnings if "cut short" in w.message]


def test_the_collectors_output_pasted_without_its_alignment_is_read_too():
    """opentelemetry-dotnet#2208 pasted the output with each span's fields at the start of
    their lines (`Trace ID : …`), its four columns of alignment lost."""
    text = (CASES / "otelcol-debug-detailed.log").read_text(encoding="utf-8")
    flush = "".join(line.lstrip(" ") for line in text.splitlines(keepends=True))
    assert detect(flush) is IMPORTERS["trace"]
    assert arrows(import_trace(flush)) == arrows(trace("otelcol-debug-detailed.log"))


# --- AWS X-Ray ----------------------------------------------------------------------------------


def test_an_xray_subsegment_whose_segment_is_not_in_the_file_is_called_from_that_segment():
    """The database called itself, labelled with its own host's name: the subsegment's
    service was taken from its own name, which for a call is the service it called."""
    host = "ebdb@aawijb5u25wdoy.cpamxznpdoq8.us-west-2.rds.amazonaws.com"
    assert arrows(trace("xray-independent-sql-subsegment.json")) == [
        ("segment defdfd9912dc5a56", "->", host, "SELECT * FROM customers WHERE customer_id=?;"),
        (host, "-->", "segment defdfd9912dc5a56", "ok"),
    ]


def test_an_xray_trace_is_a_call_for_each_segment_and_each_calling_subsegment():
    """`aws xray batch-get-traces` (the AWS CLI's example): the Scorekeep segment answers the
    client; its DynamoDB subsegment (namespace aws) calls DynamoDB, whose segment X-Ray
    inferred. It was "cannot tell what format this is"."""
    text = (CASES / "xray-batch-get-traces.json").read_text(encoding="utf-8")
    assert detect(text) is IMPORTERS["trace"]
    diagram = trace("xray-batch-get-traces.json")
    assert diagram.participants == ["Client", "Scorekeep", "DynamoDB"]
    assert arrows(diagram) == [
        ("Client", "->", "Scorekeep", "POST /api/user"),
        ("Scorekeep", "->", "DynamoDB", "UpdateItem"),
        ("DynamoDB", "-->", "Scorekeep", "200"),  # its http.response.status, as OTLP's reads
        ("Scorekeep", "-->", "Client", "200"),
    ]
    served, called = diagram.messages()[:2]
    assert rows(served)["duration"] == "232 ms"
    assert rows(served)["http.request.client_ip"] == "52.95.4.28"
    assert rows(called)["aws.table_name"] == "scorekeep-user"
    assert rows(called)["aws.resource_names"] == '["scorekeep-user"]'


def test_xray_segments_as_put_trace_segments_sends_them_are_the_same_trace():
    """The daemon's (and the collector's exporter's) PutTraceSegments request holds each
    segment as a JSON string under `TraceSegmentDocuments`: "cannot tell what format"."""
    text = (CASES / "xray-batch-get-traces.json").read_text(encoding="utf-8")
    documents = [
        segment["Document"] for each in json.loads(text)["Traces"] for segment in each["Segments"]
    ]
    uploaded = json.dumps({"TraceSegmentDocuments": documents})
    assert detect(uploaded) is IMPORTERS["trace"]
    assert arrows(import_trace(uploaded)) == arrows(trace("xray-batch-get-traces.json"))


def test_xray_segments_as_an_sdk_sends_them_to_the_daemon_with_a_fault():
    """An SDK sends the daemon a header line, then a segment a line; a remote subsegment that
    failed says why on its reply, from its cause."""
    segment = {
        "name": "orders",
        "id": "70de5b6f19ff9a0a",
        "trace_id": "1-581cf771-a006649127e371903a2de979",
        "start_time": 1478293361.271,
        "end_time": 1478293361.449,
        "subsegments": [
            {
                "name": "payments.example.com",
                "id": "53995c3f42cd8ad8",
                "namespace": "remote",
                "start_time": 1478293361.3,
                "end_time": 1478293361.4,
                "http": {
                    "request": {"method": "POST", "url": "https://payments.example.com/charge"}
                },
                "fault": True,
                "cause": {"exceptions": [{"message": "Connection reset"}]},
            },
            {
                "name": "render",
                "id": "aa01",
                "start_time": 1478293361.41,
                "end_time": 1478293361.44,
            },
        ],
    }
    text = '{"format": "json", "version": 1}\n' + json.dumps(segment) + "\n"
    assert detect(text) is IMPORTERS["trace"]
    assert arrows(import_trace(text)) == [
        ("Client", "->", "orders", "orders"),
        ("orders", "->", "payments.example.com", "POST /charge"),
        ("payments.example.com", "-->", "orders", "**error**: Connection reset"),
        ("orders", "->", "orders", "render"),
        ("orders", "-->", "Client", "ok"),
    ]


def test_an_xray_segment_sent_in_progress_then_complete_is_drawn_as_it_ended():
    """X-Ray's guide: "send the complete segment to overwrite the in-progress segment". The
    first copy was kept: a 500 was drawn as answered "ok"; a segment still in progress was
    drawn answered "ok" too; and X-Ray's `http.response.status` was never a reply's status."""
    started = {
        "name": "example.com",
        "id": "70de5b6f19ff9a0b",
        "trace_id": "1-581cf771-a006649127e371903a2de979",
        "start_time": 1478293361.271,
        "in_progress": True,
    }
    ended = {key: value for key, value in started.items() if key != "in_progress"}
    ended |= {"end_time": 1478293361.449, "fault": True}
    ended |= {"http": {"request": {"method": "GET"}, "response": {"status": 500}}}
    header = '{"format": "json", "version": 1}\n'
    both = header + json.dumps(started) + "\n" + header + json.dumps(ended) + "\n"
    assert arrows(import_trace(both))[-1] == (
        "example.com",
        "-->",
        "Client",
        "**error** 500: fault",
    )
    assert arrows(import_trace(header + json.dumps(started)))[-1][-1] == "(no end recorded)"
    ended.pop("fault")
    ended["http"]["response"]["status"] = 503
    assert arrows(import_trace(json.dumps(ended)))[-1][-1] == "503"


@pytest.mark.parametrize(
    "text",
    ['{"data": [{"traceID": "abc", "spans": [], "processes": {}}]}', '{"resourceSpans": []}'],
)
def test_a_trace_with_no_spans_says_so(text):
    """An empty diagram and exit 0 without a word looked broken (an empty HAR said so)."""
    (found,) = convert(text, "empty.json")
    assert [w.message for w in found.warnings] == [
        "the trace holds no spans: there is nothing to draw"
    ]
    assert found.warnings[0].severity == "warning"


def test_what_the_go_sdk_prints_is_a_trace():
    """OpenTelemetry's Go getting-started prints its spans with stdouttrace: one JSON object a
    span, `SpanContext`, `Parent` (all zeros for a root), `SpanKind` as a number, attributes
    as `{"Key", "Value": {"Type", "Value"}}`. It was "cannot tell what format this is"."""
    text = (CASES / "otel-go-stdout.json").read_text(encoding="utf-8")
    assert detect(text) is IMPORTERS["trace"]
    diagram = trace("otel-go-stdout.json")
    assert arrows(diagram) == [
        ("Client", "->", "dice", "GET /rolldice/Alice"),
        ("dice", "->", "dice", "roll"),
        ("dice", "-->", "Client", "200"),
    ]
    assert rows(diagram.messages()[1])["roll.value"] == "6"
    # a call to another service that failed, an event, in a list as a test prints them
    spans = json.loads("[" + text.replace("}\n{", "},\n{") + "]")
    call = json.loads(json.dumps(spans[0]))
    call["SpanKind"], call["Name"] = 3, "GET"
    call["Attributes"] = [
        {"Key": key, "Value": {"Type": "STRING", "Value": value}}
        for key, value in (
            ("http.request.method", "GET"),
            ("url.full", "http://stock:8080/items/4"),
        )
    ]
    call["Status"] = {"Code": "Error", "Description": "connection refused"}
    call["Events"] = [
        {"Name": "retry", "Attributes": None, "Time": "2023-09-25T12:42:06.177120001+02:00"}
    ]
    failed = import_trace(json.dumps([call, spans[1]]))
    assert arrows(failed)[1:3] == [
        ("dice", "->", "stock 8080", "GET /items/4"),
        ("stock 8080", "-->", "dice", "**error**: connection refused"),
    ]


def test_collector_output_keeps_a_value_written_over_several_lines_whole():
    """The exporter writes a string as it is: a statement or a stack trace runs over several
    lines, up to its `)`. Only its first line was kept, and a line of it that looked like a
    span's field (`    Name: x`) took the span's name; a `Span #2` in a name began a span."""
    text = (
        "ResourceSpans #0\nResource attributes:\n     -> service.name: Str(api)\n"
        "ScopeSpans #0\nSpan #0\n"
        "    Trace ID       : fafdac970271dd2ce89de2442c0518c7\n"
        "    Parent ID      : \n    ID             : 3875f436d989d0e5\n"
        "    Name           : retry Span #2\n    Kind           : Client\n"
        "    Start time     : 2025-04-17 08:40:44.555461596 +0000 UTC\n"
        "    End time       : 2025-02-30 08:40:44.565584596 +0000 UTC\n"
        "Attributes:\n     -> db.statement: Str(SELECT *\n    FROM users\n    Name: x\n"
        "WHERE id = 1)\n     -> peer.service: Str(db)\n"
    )
    assert detect(text) is IMPORTERS["trace"]
    with pytest.raises(VolleyError, match="not a number"):  # no 30 February: said where
        import_trace(text)
    text = text.replace("2025-02-30", "2025-04-17")
    (call, _) = import_trace(text).messages()
    assert call.label == "retry Span #2"
    assert rows(call)["db.statement"] == "SELECT * FROM users Name: x WHERE id = 1"
    assert rows(call)["peer.service"] == "db"


def test_xray_segments_of_one_trace_and_subsegments_sent_on_their_own():
    """`{"Segments": …}` and one trace of batch-get-traces were "cannot tell what format this
    is"; a subsegment an SDK streams on its own (`"type": "subsegment"`) was a lane of its
    own, drawn as a service. Values are written as JSON writes them (`null`, not `None`)."""
    capture = json.loads((CASES / "xray-batch-get-traces.json").read_text(encoding="utf-8"))
    for data in (capture["Traces"][0], {"Segments": capture["Traces"][0]["Segments"]}):
        text = json.dumps(data, indent=2)
        assert detect(text) is IMPORTERS["trace"]
        assert len(import_trace(text).messages()) == 4
    web = {
        "id": "70de5b6f19ff9a0a", "name": "web", "trace_id": "1-581cf771-a006649127e371903a2de979",
        "start_time": 1478293361.271, "end_time": 1478293361.5,
        "metadata": {"default": {"nothing": None, "ratios": [0.5, 1.25]}},
    }  # fmt: skip
    parse_body = {
        "type": "subsegment", "id": "3fd8634e78ad8a9c", "name": "parse-body",
        "trace_id": web["trace_id"], "parent_id": web["id"],
        "start_time": 1478293361.3, "end_time": 1478293361.4,
    }  # fmt: skip
    header = '{"format": "json", "version": 1}\n'
    text = f"{header}{json.dumps(parse_body)}\n{header}{json.dumps(web)}\n"
    diagram = import_trace(text)
    assert diagram.participants == ["Client", "web"]
    assert arrows(diagram)[1] == ("web", "->", "web", "parse-body")
    served = rows(diagram.messages()[0])
    assert served["metadata.default.nothing"] == "null"
    assert served["metadata.default.ratios"] == "[0.5, 1.25]"


def test_a_client_span_that_names_only_its_url_calls_the_urls_host():
    """An HTTP client span whose instrumentation left out `server.address` and the like (older
    OpenTelemetry SDKs: `http.url` alone) calls the host its URL names, not a lane `remote`
    that every such call would share."""
    attributes = [
        [{"key": "http.url", "value": {"stringValue": "https://api.github.com/repos/o/r"}}],
        [{"key": "url.full", "value": {"stringValue": "http://10.0.0.7:8080/v1/charges"}}],
        [{"key": "url.full", "value": {"stringValue": "http://[::1/broken"}}],
        [{"key": "http.url", "value": {"stringValue": "/api/orders?page=2"}}],  # a path alone
    ]
    data = {
        "resourceSpans": [
            otlp_span("01", None, "shop", 2, 0),
            *[
                otlp_span(f"0{k + 2}", "01", "shop", 3, 10 * k + 1, attributes=more)
                for k, more in enumerate(attributes)
            ],
        ]
    }
    messages = import_trace(json.dumps(data)).messages()
    calls = [m.receiver for m in messages if m.sender == "shop" and m.arrow == "->"]
    assert calls == ["api.github.com", "10.0.0.7 8080", "remote", "remote"]  # port kept


def test_a_url_that_cannot_be_split_is_no_reason_to_refuse_the_trace():
    """`http://[::1/x` (an IPv6 host left open) made urllib raise, and the whole X-Ray trace was
    refused as "a member has a type the format does not give it"."""
    segment = {
        "id": "a1", "name": "svc", "start_time": 1, "end_time": 2,
        "trace_id": "1-5f84c7a5-c4d7c1d9d2a5b4e0a9b2a6b1",
        "http": {"request": {"url": "http://[::1/x", "method": "GET"}},
        "subsegments": [{
            "id": "b2", "name": "billing", "namespace": "remote", "start_time": 1.1,
            "end_time": 1.5, "http": {"request": {"url": "http://[::1/y", "method": "POST"}},
        }],
    }  # fmt: skip
    data = {"Traces": [{"Id": segment["trace_id"], "Segments": [
        {"Id": "a1", "Document": json.dumps(segment)},
    ]}]}  # fmt: skip
    labels = [m.label for m in import_trace(json.dumps(data)).messages()]
    assert labels[:2] == ["GET http://[::1/x", "POST http://[::1/y"]  # as written


@pytest.mark.parametrize(
    ("header", "signal"),
    [
        ("ResourceLog #0", "logs"),
        ("2025-04-17T10:40:44.560Z\tinfo\tResourceMetrics #0", "metrics"),
    ],
)
def test_the_collectors_debug_output_of_logs_or_metrics_says_what_it_is(header, signal):
    """The collector's own testdata (`logs/two_records.out`): no span in it, which is said
    whether the format was named or not ("cannot tell what format this is" before)."""
    text = f"{header}\nResource SchemaURL: \nResource attributes:\n     -> a: Str(b)\n"
    for source in (None, "trace"):
        with pytest.raises(VolleyError) as caught:
            convert(text, "debug.log", source)
        assert caught.value.message == (
            f"this is the OpenTelemetry collector's debug output of {signal}, not of spans: "
            "there is no trace to draw"
        )
