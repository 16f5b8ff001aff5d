"""`volley import` of JSON-RPC logs: Claude Desktop's MCP log as the Ably CLI project quoted it,
and a JSON Lines session of the MCP specification's example messages (tests/cases/jsonrpc/)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from volley.errors import VolleyError
from volley.importers import detect
from volley.importers.jsonrpc import Sent, import_jsonrpc, session_diagram
from volley.importers.traffic import TrafficOptions
from volley.language.parser import parse
from volley.language.writer import write
from volley.model import Diagram, Note

CASES = Path(__file__).parent / "cases" / "jsonrpc"


def arrows(diagram: Diagram) -> list[tuple[str, str, str, str]]:
    return [(m.sender, m.arrow, m.receiver, m.label) for m in diagram.messages()]


def host_log() -> Diagram:
    return import_jsonrpc((CASES / "claude-desktop-ably.log").read_text())


def test_host_log_lanes_and_pairs():
    diagram = host_log()
    assert diagram.participants == ["Client", "ably"]  # the server's name from the brackets
    assert arrows(diagram) == [
        ("Client", "->", "ably", "prompts/list"),
        ("ably", "-->", "Client", "**error** -32601: Method not found"),
        ("Client", "->", "ably", "resources/list"),
        ("ably", "-->", "Client", "result"),
        ("Client", "->", "ably", "prompts/list"),
        ("ably", "-->", "Client", "**error** -32601: Method not found"),
        ("Client", "->", "ably", "resources/list"),
        ("Client", "->", "ably", "resources/read ably://apps/cPr1qg (id 28)"),
        (
            "ably",
            "-->",
            "Client",
            "**error** -32602: MCP error -32602: Resource ably://apps/cPr1qg not found (id 28)",
        ),
        ("ably", "-->", "Client", "result"),
    ]


def test_each_message_is_its_payload_as_logged():
    first, answer = host_log().messages()[:2]
    assert first.request is not None and first.request.lang == "json"
    assert first.request.body == '{"method":"prompts/list","params":{},"jsonrpc":"2.0","id":24}'
    assert answer.response is not None and answer.response.label == "Error"
    assert json.loads(answer.response.body)["error"]["code"] == -32601


def test_json_lines_with_a_direction():
    diagram = import_jsonrpc((CASES / "mcp-spec-examples.jsonl").read_text())
    assert arrows(diagram) == [
        ("Client", "->", "Server", "tools/list"),
        ("Server", "-->", "Client", "result"),
        ("Client", "->", "Server", "tools/call get_weather"),
        ("Server", "->>", "Client", "notifications/progress"),
        ("Server", "->>", "Client", "notifications/message"),
        ("Server", "-->", "Client", "result"),
    ]
    call = diagram.messages()[2]
    assert call.request is not None
    assert json.loads(call.request.body)["params"]["arguments"] == {"location": "New York"}


def test_bare_json_rpc_lines_guess_who_sent_what():
    lines = [
        {
            "jsonrpc": "2.0",
            "id": 1,
            "method": "initialize",
            "params": {"clientInfo": {"name": "ide"}},
        },
        {"jsonrpc": "2.0", "id": 1, "result": {"serverInfo": {"name": "files"}}},
        {"jsonrpc": "2.0", "id": 7, "method": "roots/list"},
        {"jsonrpc": "2.0", "id": 7, "result": {"roots": []}},
    ]
    diagram = import_jsonrpc("\n".join(json.dumps(line) for line in lines))
    assert arrows(diagram) == [
        ("ide", "->", "files", "initialize"),
        ("files", "-->", "ide", "result"),
        ("files", "->", "ide", "roots/list"),
        ("ide", "-->", "files", "result"),
    ]


def test_multi_line_message_and_trailing_metadata_in_a_host_log():
    log = (
        '2025-07-20T13:44:16.395Z [weather] [info] Message from client: {"method":"tools/list",'
        '"params":{},"jsonrpc":"2.0","id":1} { metadata: undefined }\n'
        "2025-07-20T13:44:18.960Z [weather] [info] Message from server:\n"
        '{\n  "jsonrpc": "2.0",\n  "id": 1,\n  "result": {"tools": []}\n}\n'
        "{ metadata: undefined }\n"
    )
    diagram = import_jsonrpc(log)
    assert arrows(diagram) == [
        ("Client", "->", "weather", "tools/list"),
        ("weather", "-->", "Client", "result"),
    ]
    reply = diagram.messages()[1].response
    assert reply is not None and json.loads(reply.body) == {
        "jsonrpc": "2.0",
        "id": 1,
        "result": {"tools": []},
    }


def test_unanswered_request_and_unknown_response_say_so():
    diagram = session_diagram(
        [
            Sent("client", '{"jsonrpc":"2.0","id":1,"method":"ping"}'),
            Sent("server", '{"jsonrpc":"2.0","id":9,"result":{}}'),
        ]
    )
    assert diagram.messages()[1].label == "result (id 9: no request seen)"
    note = diagram.items[1]
    assert isinstance(note, Note) and note.text == "no response to id 1 before the session ended"


def test_lanes_are_renamed():
    diagram = import_jsonrpc(
        (CASES / "claude-desktop-ably.log").read_text(),
        TrafficOptions(names={"ably": "Ably MCP", "Client": "Claude"}),
    )
    assert diagram.participants == ["Claude", "Ably MCP"]


@pytest.mark.parametrize("name", ["claude-desktop-ably.log", "mcp-spec-examples.jsonl"])
def test_detected_written_and_read_back(name):
    text = (CASES / name).read_text()
    found = detect(text)
    assert found is not None and found.name == "jsonrpc"
    diagram = import_jsonrpc(text)
    assert arrows(parse(write(diagram))) == arrows(diagram)


def test_json_lines_without_a_direction_says_what_it_expected():
    with pytest.raises(VolleyError) as caught:
        import_jsonrpc(
            '{"jsonrpc":"2.0","id":1,"method":"a"}\n{"when": 3, "what": {}}\n', filename="x.jsonl"
        )
    assert (caught.value.filename, caught.value.line) == ("x.jsonl", 2)
    assert "direction" in (caught.value.hint or "")


def test_volley_import_masks_secrets_and_counts_them(tmp_path):
    log = tmp_path / "mcp.log"
    log.write_text(
        '2025-01-01T00:00:00.000Z [gh] [info] Message from client: {"method":"tools/call",'
        '"params":{"name":"search","arguments":{"api_key":"sk-abcdefghijklmnopqrstuvwxyz0123"}},'
        '"jsonrpc":"2.0","id":3}\n'
    )
    done = subprocess.run(
        [sys.executable, "-m", "volley", "import", str(log)], capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    assert '"api_key":"<redacted>"' in done.stdout and "sk-abc" not in done.stdout
    assert "masked 1 secret-looking value as <redacted> (--no-redact keeps them)" in done.stderr
    kept = subprocess.run(
        [sys.executable, "-m", "volley", "import", str(log), "--no-redact"],
        capture_output=True,
        text=True,
    )
    assert "sk-abcdefghijklmnopqrstuvwxyz0123" in kept.stdout and "masked" not in kept.stderr
