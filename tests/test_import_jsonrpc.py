"""`volley import` of JSON-RPC logs: Claude Desktop's MCP log as the Ably CLI project quoted it,
VS Code's log of an MCP server as its users quoted it in issues, a JSON Lines session of the MCP
specification's example messages, and Language Server Protocol
sessions as people share them: VS Code's trace of ty and gopls sessions quoted in their
issues, and Content-Length framed stdio captures (tests/cases/jsonrpc/)."""

from __future__ import annotations

import base64
import json
from pathlib import Path

import pytest

from volley.errors import VolleyError, VolleyErrors
from volley.importers import IMPORTERS, detect, jsonrpc
from volley.importers.jsonrpc import (
    Sent,
    convert,
    import_jsonrpc,
    read_jsonrpc,
    session_diagram,
)
from volley.importers.traffic import TrafficOptions
from volley.language.parser import parse
from volley.language.writer import write
from volley.model import Diagram, Note

from .conftest import arrows, notes_of, volley_cli

CASES = Path(__file__).parent / "cases" / "jsonrpc"


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


def test_a_host_log_of_several_servers_gives_a_diagram_for_each():
    """Claude Desktop's `mcp.log` holds every server's messages, and each numbers its ids."""
    lines = [
        ("memory", "client", '{"method":"prompts/list","params":{},"jsonrpc":"2.0","id":8}'),
        ("git", "client", '{"method":"prompts/list","params":{},"jsonrpc":"2.0","id":8}'),
        ("git", "server", '{"jsonrpc":"2.0","id":8,"result":{"prompts":[]}}'),
        ("memory", "server", '{"jsonrpc":"2.0","id":8,"error":{"code":-32601,"message":"no"}}'),
    ]
    text = "".join(
        f"2025-07-19T23:47:50.68{n}Z [info] [{server}] Message from {side}: {message}\n"
        for n, (server, side, message) in enumerate(lines)
    )
    diagrams, _ = read_jsonrpc(text)
    assert [arrows(diagram) for diagram in diagrams] == [
        [
            ("Client", "->", "memory", "prompts/list"),
            ("memory", "-->", "Client", "**error** -32601: no"),
        ],
        [("Client", "->", "git", "prompts/list"), ("git", "-->", "Client", "result")],
    ]
    # a line that names no server stays in its place, in the diagram of the line above it
    closed = "2025-07-19T23:47:50.690Z [error] Server transport closed unexpectedly\n"
    at = text.index("2025-07-19T23:47:50.683Z")
    [memory, git] = read_jsonrpc(text[:at] + closed + text[at:])[0]
    assert [type(item).__name__ for item in git.items] == ["Message", "Message", "Note"]


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


def test_a_batch_of_messages_and_junk_keeps_its_messages():
    """go-ethereum's invalid-batch test: each element of a batch is answered on its own
    (JSON-RPC 2.0, section 6), so its requests are drawn and paired with their answers."""
    batch = (
        '[{"jsonrpc":"2.0","id":1,"method":"test_echo","params":["x"]},55,'
        '{"jsonrpc":"2.0","id":2,"method":"unknown_method"},{"foo":"bar"}]'
    )
    answers = (
        '[{"jsonrpc":"2.0","id":1,"result":"x"},'
        '{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"invalid request"}},'
        '{"jsonrpc":"2.0","id":2,"error":{"code":-32601,"message":"no such method"}},'
        '{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"invalid request"}}]'
    )
    diagram = session_diagram([Sent("client", batch), Sent("server", answers)])
    assert [m.label for m in diagram.messages()] == [
        "test_echo",
        "unknown_method",
        "result",
        "**error** -32600: invalid request (id null: to a request it could not read)",
        "**error** -32601: no such method",
        "**error** -32600: invalid request (id null: to a request it could not read)",
    ]
    notes = [item.text for item in diagram.items if isinstance(item, Note)]
    assert notes == ["not JSON-RPC, in a batch: 55", 'not JSON-RPC, in a batch: {"foo":"bar"}']
    # a batch of one is shown as its element too, as every element of a longer one is
    one = session_diagram([Sent("client", "[ " + batch[1:].split(",55,")[0] + " ]")])
    assert (
        one.messages()[0].request.body
        == '{"jsonrpc":"2.0","id":1,"method":"test_echo","params":["x"]}'
    )
    # a request whose id no request may have (go-ethereum's invalid-id test) is the one the
    # null-id error answers: no "no response" note for it
    odd = '{"id":[],"method":"test_foo"}'
    error = '{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"invalid request"}}'
    answered = session_diagram([Sent("client", odd), Sent("server", error)])
    assert not [item for item in answered.items if isinstance(item, Note)]
    # each element's payload is its text as sent, spaces and order as written
    spaced = '[ {"id": 1,  "jsonrpc":"2.0", "method":"a"} ,\n {"jsonrpc":"2.0","method":"b"}]'
    first, second = session_diagram([Sent("client", spaced)]).messages()
    assert first.request.body == '{"id": 1,  "jsonrpc":"2.0", "method":"a"}'
    assert second.request.body == '{"jsonrpc":"2.0","method":"b"}'


def test_json_rpc_1_0_answers_carry_a_null_error_and_notify_with_a_null_id():
    """JSON-RPC 1.0 (Bitcoin Core's, the spec's own example): a success carries `"error":
    null`, titled Error; a notification has `"id": null`, drawn as a request never answered."""
    diagram = session_diagram(
        [
            Sent("client", '{"method": "echo", "params": ["Hello"], "id": 1}'),
            Sent("server", '{"result": "Hello", "error": null, "id": 1}'),
            Sent("server", '{"method": "userLeft", "params": ["user3"], "id": null}'),
            Sent("client", '{"jsonrpc": "2.0", "method": "ping", "id": null}'),  # 2.0: a request
        ]
    )
    assert arrows(diagram) == [
        ("Client", "->", "Server", "echo"),
        ("Server", "-->", "Client", "result"),
        ("Server", "->>", "Client", "userLeft"),
        ("Client", "->", "Server", "ping"),
    ]
    answer = diagram.messages()[1]
    assert answer.response is not None and answer.response.label == "Response"
    assert [item.text for item in diagram.items if isinstance(item, Note)] == [
        "no response to id null before the session ended"
    ]


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


@pytest.mark.parametrize(
    "cancel",
    [
        '{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}',  # MCP
        '{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":1}}',  # LSP
    ],
)
def test_a_request_cancelled_and_never_answered_says_so_under_its_cancellation(cancel):
    """The note under a request no response answered said the session ended first; where the
    asker cancelled it, the note stands under the cancellation, which explains it."""
    diagram = session_diagram(
        [
            Sent("client", '{"jsonrpc":"2.0","id":1,"method":"tools/call"}'),
            Sent("client", '{"jsonrpc":"2.0","id":2,"method":"ping"}'),
            Sent("client", cancel),
            Sent("server", '{"jsonrpc":"2.0","id":2,"result":{}}'),
        ]
    )
    kinds = [type(item).__name__ for item in diagram.items]
    assert kinds == ["Message", "Message", "Message", "Note", "Message"]
    assert diagram.items[3].text == "no response to id 1: the request was cancelled"
    answered = session_diagram(  # cancelled, and answered all the same: nothing to say
        [
            Sent("client", '{"jsonrpc":"2.0","id":1,"method":"tools/call"}'),
            Sent("client", cancel),
            Sent("server", '{"jsonrpc":"2.0","id":1,"error":{"code":-32800,"message":"x"}}'),
        ]
    )
    assert not [item for item in answered.items if isinstance(item, Note)]
    reused = session_diagram(  # then a new request under the same id, never answered
        [*answered_lines(cancel), Sent("client", '{"jsonrpc":"2.0","id":1,"method":"ping"}')]
    )
    assert reused.items[-1].text == "no response to id 1 before the session ended"


def answered_lines(cancel: str) -> list[Sent]:
    return [
        Sent("client", '{"jsonrpc":"2.0","id":1,"method":"tools/call"}'),
        Sent("client", cancel),
        Sent("server", '{"jsonrpc":"2.0","id":1,"error":{"code":-32800,"message":"x"}}'),
    ]


def test_lanes_are_renamed():
    options = TrafficOptions(names={"ably": "Ably MCP", "Client": "Claude", "ablyy": "x"})
    diagram = import_jsonrpc((CASES / "claude-desktop-ably.log").read_text(), options)
    assert diagram.participants == ["Claude", "Ably MCP"]
    assert [w.message.split(" named")[0] for w in options.unused_renames(None)] == [
        "--name ablyy=x"
    ]


@pytest.mark.parametrize(
    "name",
    [
        "claude-desktop-ably.log",
        "claude-desktop-short-664.log",
        "mcp-spec-examples.jsonl",
        "ty-2135-messages.log",
        "gopls-42157-verbose.log",
        "vscode-244377-client-says.log",
        "vscode-mcp-taskfile-134.log",
        "neovim-ruff-20847.log",
        "neovim-ruff-16342-multiline.log",
    ],
)
def test_detected_written_and_read_back(name):
    text = (CASES / name).read_text()
    found = detect(text)
    assert found is not None and found.name == "jsonrpc"
    diagram = import_jsonrpc(text)
    assert arrows(parse(write(diagram))) == arrows(diagram)


def test_a_line_of_json_lines_that_is_not_json_is_kept_as_logged():
    """A server's stdout junk glued before its answer (spring-ai#3972), and a second log's byte
    order mark after `cat`, refused the whole session; now the answer is read, the junk is a
    note by the server with a warning at its line, and the mark is no part of the message."""
    lines = [
        '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}',
        ':::::::::{"jsonrpc":"2.0","id":1,"result":{"capabilities":{},"serverInfo":{"name":"sds"}}}',
        "\ufeff" + '{"jsonrpc":"2.0","id":2,"method":"tools/list"}',
        "Server started on stdio",
        '{"jsonrpc":"2.0","id":2,"result":{"tools":[]}}',
    ]
    diagrams, warnings = read_jsonrpc("\n".join(lines), TrafficOptions(), "s.jsonl")
    [diagram] = diagrams
    assert arrows(diagram) == [
        ("Client", "->", "sds", "initialize"),
        ("sds", "-->", "Client", "result"),
        ("Client", "->", "sds", "tools/list"),
        ("sds", "-->", "Client", "result"),
    ]
    notes = [(item.over, item.text) for item in diagram.items if isinstance(item, Note)]
    assert notes == [
        (["sds"], "not JSON-RPC, as sent: :::::::::"),
        (["sds"], "not JSON-RPC, as sent: Server started on stdio"),
    ]
    assert [(w.filename, w.line, w.severity) for w in warnings] == [
        ("s.jsonl", 2, "warning"),
        ("s.jsonl", 4, "warning"),
    ]
    assert warnings[0].message.startswith("the text before this line's message is not JSON")
    assert warnings[1].message.startswith("this message is not JSON")
    with pytest.raises(VolleyError) as caught:  # mostly not JSON: no JSON Lines log
        read_jsonrpc('{"jsonrpc":"2.0","id":1,"method":"a"}\nhello\nworld\n', None, "x.jsonl")
    assert (caught.value.line, caught.value.message) == (
        2,
        "this JSON Lines log has a line that is not JSON",
    )


def test_json_lines_without_a_direction_says_what_it_expected():
    with pytest.raises(VolleyError) as caught:
        import_jsonrpc(
            '{"jsonrpc":"2.0","id":1,"method":"a"}\n{"when": 3, "what": {}}\n', filename="x.jsonl"
        )
    assert (caught.value.filename, caught.value.line) == ("x.jsonl", 2)
    assert "direction" in (caught.value.hint or "")


def test_a_message_claude_desktop_cut_short_is_paired_by_what_it_kept(tmp_path):
    """Claude Desktop leaves out the middle of a long message in its log
    (`…/draft-07/...[11759 chars truncated]...notations…`): the reply was a note "not
    JSON-RPC" and its request "had no response before the session ended"."""
    head = "2026-03-01T09:39:14.436Z [filesystem] [info] Message from"
    log = tmp_path / "mcp-server-filesystem.log"
    log.write_text(
        f'{head} client: {{"method":"tools/list","params":{{}},"jsonrpc":"2.0","id":1}} '
        "{ metadata: undefined }\n"
        f'{head} server: {{"jsonrpc":"2.0","id":1,"result":{{"tools":[{{"name":"read_file",'
        '"inputSchema":{"$schema":"http://json-schema.org/draft-07/...[11759 chars truncated]'
        '...notations":{"readOnlyHint":true}}]}} { metadata: undefined }\n'
    )
    done = volley_cli("import", str(log))
    assert done.returncode == 0 and "warning" not in done.stderr, done.stderr
    diagram = parse(done.stdout)
    assert [m.label for m in diagram.messages()] == ["tools/list", "result (cut short in the log)"]
    assert not [item for item in diagram.items if isinstance(item, Note)]
    assert "[11759 chars truncated]" in diagram.messages()[1].response.body


def test_volley_import_masks_secrets_and_counts_them(tmp_path):
    log = tmp_path / "mcp.log"
    log.write_text(
        '2025-01-01T00:00:00.000Z [gh] [info] Message from client: {"method":"tools/call",'
        '"params":{"name":"search","arguments":{"api_key":"sk-abcdefghijklmnopqrstuvwxyz0123"}},'
        '"jsonrpc":"2.0","id":3}\n'
    )
    done = volley_cli("import", str(log))
    assert done.returncode == 0, done.stderr
    assert '"api_key":"<redacted>"' in done.stdout and "sk-abc" not in done.stdout
    assert "masked 1 secret-looking value as <redacted> (--no-redact keeps them)" in done.stderr
    kept = volley_cli("import", str(log), "--no-redact")
    assert "sk-abcdefghijklmnopqrstuvwxyz0123" in kept.stdout and "masked" not in kept.stderr
    # --redact, the flag people reach for, says what is done by default
    asked = volley_cli("import", str(log), "--redact")
    assert asked.returncode == 0 and asked.stdout == done.stdout


# --- Language Server Protocol -----------------------------------------------------------------


def lsp_trace(name: str) -> Diagram:
    return import_jsonrpc((CASES / name).read_text(), filename=name)


def test_lsp_trace_at_messages_verbosity_pairs_by_id():
    diagram = lsp_trace("ty-2135-messages.log")
    assert diagram.participants == ["Client", "Server"]
    found = arrows(diagram)
    assert found[:3] == [
        ("Client", "->>", "Server", "textDocument/didChange"),
        ("Client", "->", "Server", "textDocument/diagnostic"),
        ("Server", "-->", "Client", "result"),
    ]
    # completion (1516) is answered eight seconds and many messages later, by id
    assert ("Client", "->>", "Server", "$/cancelRequest") in found
    cancelled = found.index(("Client", "->>", "Server", "$/cancelRequest")) + 1
    assert found[cancelled] == (
        "Server",
        "-->",
        "Client",
        "**error** -32800: request was cancelled by client",
    )
    assert not [item for item in diagram.items if isinstance(item, Note)]  # every id answered


def test_lsp_trace_cut_after_a_request_names_the_answer_by_the_method_it_logs():
    """A trace pasted from the middle of a session (angular/vscode-ng-language-service#1057):
    the answer to `initialize`, whose request is not in it, is named by the method its record
    names, as well as by its id."""
    text = (
        "[Trace - 3:58:03 PM] Received response 'initialize - (0)' in 777ms.\n"
        "[Trace - 3:58:03 PM] Sending notification 'initialized'.\n"
        "[Trace - 3:58:14 PM] Sending request 'textDocument/hover - (2)'.\n"
        "[Trace - 3:58:14 PM] Received response 'textDocument/hover - (2)' in 39ms.\n"
    )
    assert arrows(import_jsonrpc(text)) == [
        ("Server", "-->", "Client", "initialize result (id 0: no request seen)"),
        ("Client", "->>", "Server", "initialized"),
        ("Client", "->", "Server", "textDocument/hover"),
        ("Server", "-->", "Client", "result"),
    ]


def test_lsp_trace_json_after_a_blank_line_is_the_records_payload():
    """gopls' `-rpc.trace` logs a record's JSON after a blank line, with no `Params:` or
    `Result:` before it: it is the request's params and the response's result."""
    text = (
        "[Trace - 17:33:37.180 PM] Sending request 'textDocument/definition - (2)'.\n\n"
        '{\n   "position": {"character": 8, "line": 15}\n}\n\n'
        "[Trace - 17:33:37.181 PM] Received response 'textDocument/definition - (2)' in 0ms.\n"
        '\n[\n  {"uri": "file:///main.go"}\n]\n\n'
        "[Trace - 17:33:38.000 PM] Sending request 'textDocument/hover - (3)'.\n\n{\n"
    )
    (diagram,), warnings = jsonrpc.read_jsonrpc(text, TrafficOptions(), "gopls.log")
    notes = [item.text for item in diagram.items if isinstance(item, Note)]
    assert notes == ["no response to id 3 before the session ended"]  # no JSON as notes
    first, second, third = diagram.messages()
    assert json.loads(first.request.body)["params"] == {"position": {"character": 8, "line": 15}}
    assert json.loads(second.response.body)["result"] == [{"uri": "file:///main.go"}]
    assert third.request.body.endswith("{")  # cut short: kept as logged, with a warning
    assert [(w.line, w.message) for w in warnings] == [
        (16, "this params block is not JSON; its arrow shows it as logged")  # where it stops
    ]


def test_lsp_trace_server_to_client_requests_go_the_other_way():
    found = arrows(lsp_trace("ty-2135-messages.log"))
    at = found.index(("Server", "->", "Client", "workspace/diagnostic/refresh"))
    assert found[at + 1] == ("Client", "-->", "Server", "result")


def test_lsp_trace_failed_request_is_an_error_with_its_code():
    diagram = lsp_trace("gopls-42157-verbose.log")
    assert arrows(diagram) == [
        ("Client", "->", "Server", "textDocument/codeAction"),
        ("Server", "-->", "Client", "**error** 0: no packages returned: packages.Load error"),
    ]
    request, answer = diagram.messages()
    assert request.request is not None and request.request.lang == "json"
    sent = json.loads(request.request.body)
    assert sent["id"] == 8 and sent["params"]["textDocument"]["uri"].endswith("/hello/b.go")
    assert answer.response is not None and answer.response.label == "Error"
    assert json.loads(answer.response.body)["error"] == {
        "code": 0,
        "message": "no packages returned: packages.Load error",
    }


def test_messages_verbosity_has_no_payload_to_show():
    first = lsp_trace("ty-2135-messages.log").messages()[1]
    assert first.request is None  # the trace kept its method and id only: nothing is invented


VERBOSE = """\
2025-05-07 14:32:20.001 [info] [Trace - 14:32:20] Sending request 'initialize - (0)'.
2025-05-07 14:32:20.001 [info] Params: {
    "processId": 1234,
    "clientInfo": {
        "name": "Visual Studio Code",
        "version": "1.99.3"
    }
}


2025-05-07 14:32:20.121 [info] [Trace - 14:32:20] Received response 'initialize - (0)' in 120ms.
Result: {
    "capabilities": {},
    "serverInfo": {
        "name": "gopls"
    }
}


[Trace - 14:32:21] Sending notification 'textDocument/didOpen'.
Params: {"textDocument": {"uri": "file:///a.go", "languageId": "go", "version": 1, "text": ""}}


[Trace - 14:32:21] Received notification 'textDocument/publishDiagnostics'.
Params: {"uri": "file:///a.go", "diagnostics": []}


[Trace - 14:32:22] Received request 'workspace/configuration - (3)'.
Params: {"items": [{"section": "gopls"}]}


[Trace - 14:32:22] Sending response 'workspace/configuration - (3)'. Processing request took 1ms
Result: [{"ui.semanticTokens": true}]


[Trace - 14:32:23] Sending request 'textDocument/hover - (4)'.
Params: {"textDocument": {"uri": "file:///a.go"}, "position": {"line": 3, "character": 7}}


[Trace - 14:32:23] Received response 'textDocument/hover - (4)' in 3ms. \
Request failed: no file (-32602).
Error data: {"uri": "file:///a.go"}


[Trace - 14:32:24] Sending request 'shutdown - (5)'.
No parameters provided.


[Trace - 14:32:24] Received response 'shutdown - (5)' in 1ms.
No result returned.
"""


def test_lsp_trace_lanes_are_named_by_initialize():
    diagram = import_jsonrpc(VERBOSE)
    assert diagram.participants == ["Visual Studio Code", "gopls"]
    assert arrows(diagram) == [
        ("Visual Studio Code", "->", "gopls", "initialize"),
        ("gopls", "-->", "Visual Studio Code", "result"),
        ("Visual Studio Code", "->>", "gopls", "textDocument/didOpen"),
        ("gopls", "->>", "Visual Studio Code", "textDocument/publishDiagnostics file:///a.go"),
        ("gopls", "->", "Visual Studio Code", "workspace/configuration"),
        ("Visual Studio Code", "-->", "gopls", "result"),
        ("Visual Studio Code", "->", "gopls", "textDocument/hover"),
        ("gopls", "-->", "Visual Studio Code", "**error** -32602: no file"),
        ("Visual Studio Code", "->", "gopls", "shutdown"),
        ("gopls", "-->", "Visual Studio Code", "result"),
    ]
    hover_error = diagram.messages()[7].response
    assert hover_error is not None
    assert json.loads(hover_error.body) == {
        "jsonrpc": "2.0",
        "id": 4,
        "error": {"code": -32602, "message": "no file", "data": {"uri": "file:///a.go"}},
    }
    answer = diagram.messages()[5].response
    assert answer is not None and json.loads(answer.body)["result"] == [{"ui.semanticTokens": True}]


def test_server_side_trace_reads_sending_as_the_server():
    trace = (
        "[Trace - 2022-03-05T13:35:23Z] Received request 'initialize - (1)'\n"
        'Params: {"clientInfo": {"name": "Emacs"}}\n'
        "[Trace - 2022-03-05T13:35:23Z] Sending response 'initialize - (1)'. Request took 0ms.\n"
        'Result: {"serverInfo": {"name": "clojure-lsp"}}\n'
        "[Trace - 2022-03-05T13:35:24Z] Received request 'foo - (2)'\n"
        "[Trace - 2022-03-05T13:35:24Z] Sending response 'foo - (2)'. Request took 0ms. "
        "Request failed: Method not found (-32601).\n"
    )
    assert arrows(import_jsonrpc(trace)) == [
        ("Emacs", "->", "clojure-lsp", "initialize"),
        ("clojure-lsp", "-->", "Emacs", "result"),
        ("Emacs", "->", "clojure-lsp", "foo"),
        ("clojure-lsp", "-->", "Emacs", "**error** -32601: Method not found"),
    ]


def test_a_server_side_trace_cut_from_the_middle_is_told_by_its_methods():
    # Metals' own trace, as quoted in an issue: no `initialize`, but it receives an editor's
    # request and sends a server's notification.
    trace = (
        "[Trace - 10:53:07 AM] Received request 'completionItem/resolve - (27)'\n"
        'Params: {"label": "map"}\n\n'
        "[Trace - 10:53:07 AM] Sending response 'completionItem/resolve - (27)'. "
        "Processing request took 2ms\n"
        'Result: {"label": "map"}\n\n'
        "[Trace - 10:53:08 AM] Received notification '$/cancelRequest'\n"
        'Params: {"id": 28}\n\n'
        "[Trace - 10:53:09 AM] Sending notification 'textDocument/publishDiagnostics'\n"
        'Params: {"uri": "file:///a.scala", "diagnostics": []}\n'
    )
    assert [arrow[:3] for arrow in arrows(import_jsonrpc(trace))] == [
        ("Client", "->", "Server"),
        ("Server", "-->", "Client"),
        ("Client", "->>", "Server"),
        ("Server", "->>", "Client"),
    ]


def test_trimmed_block_is_kept_as_logged_with_a_warning(tmp_path):
    log = tmp_path / "trimmed.log"
    log.write_text(
        "[Trace - 10:20:04 AM] Sending request 'initialize - (0)'.\n"
        'Params: {\n    "processId": 1234,\n    ...\n}\n\n\n'
        "[Trace - 10:20:04 AM] Received response 'initialize - (0)' in 120ms.\n"
        'Result: {"capabilities": {}}\n'
    )
    done = volley_cli("import", str(log))
    assert done.returncode == 0, done.stderr
    assert f"{log}:4:1: warning: this Params block is not JSON" in done.stderr
    assert "Client -> Server: initialize" in done.stdout
    assert '    "processId": 1234,\n    ...' in done.stdout  # as logged, not re-read as JSON


@pytest.mark.parametrize(
    "line",
    [
        "[Trace - 10:20 AM] Sending request 'initialize'.",  # a request without its id
        "[Trace - 10:20 AM] Received response 'initialize - 0' in 3ms.",
    ],
)
def test_malformed_trace_record_says_where_and_what_was_expected(tmp_path, line):
    log = tmp_path / "lsp.log"
    log.write_text("[Trace - 10:20 AM] Sending notification 'initialized'.\n\n" + line + "\n")
    done = volley_cli("import", str(log))
    assert done.returncode == 1
    assert f"{log}:3:1: error: this LSP trace has a record volley cannot read" in done.stderr
    assert "'METHOD - (ID)'" in done.stderr and "Traceback" not in done.stderr


def framed(*messages: dict, newline: bytes = b"\r\n") -> bytes:
    out = b""
    for message in messages:
        body = json.dumps(message, ensure_ascii=False).encode()
        out += b"Content-Length: %d" % len(body) + newline * 2 + body
    return out


STDIO = (
    {"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {"clientInfo": {"name": "nvim"}}},
    {"jsonrpc": "2.0", "id": 0, "result": {"serverInfo": {"name": "rust-analyzer"}}},
    {"jsonrpc": "2.0", "method": "initialized", "params": {}},
    {"jsonrpc": "2.0", "id": 1, "method": "workspace/configuration", "params": {"items": []}},
    {"jsonrpc": "2.0", "id": 1, "result": []},
    {
        "jsonrpc": "2.0",
        "method": "textDocument/publishDiagnostics",
        "params": {"uri": "file:///m.rs"},
    },
    {"jsonrpc": "2.0", "id": 2, "method": "textDocument/hover", "params": {"text": "é"}},
    {"jsonrpc": "2.0", "id": 2, "error": {"code": -32801, "message": "content modified"}},
)


@pytest.mark.parametrize("newline", [b"\r\n", b"\n"])
def test_content_length_capture_infers_each_side(tmp_path, newline):
    capture = tmp_path / "stdio.log"
    capture.write_bytes(framed(*STDIO, newline=newline))
    done = volley_cli("import", str(capture))
    assert done.returncode == 0, done.stderr
    diagram = parse(done.stdout)
    assert arrows(diagram) == [
        ("nvim", "->", "rust-analyzer", "initialize"),
        ("rust-analyzer", "-->", "nvim", "result"),
        ("nvim", "->>", "rust-analyzer", "initialized"),
        ("rust-analyzer", "->", "nvim", "workspace/configuration"),
        ("nvim", "-->", "rust-analyzer", "result"),
        ("rust-analyzer", "->>", "nvim", "textDocument/publishDiagnostics file:///m.rs"),
        ("nvim", "->", "rust-analyzer", "textDocument/hover"),
        ("rust-analyzer", "-->", "nvim", "**error** -32801: content modified"),
    ]
    hover = diagram.messages()[6].request
    assert hover is not None and json.loads(hover.body)["params"] == {"text": "é"}


def test_one_stream_of_a_capture_is_that_sides_whatever_ids_it_shares():
    """Each side counts its requests from 0: in the editor's stream alone, its answer to the
    server's request 1 shares an id with its own request 1, and was drawn as the server's."""
    editor = framed(
        {"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {"processId": 1}},
        {"jsonrpc": "2.0", "method": "initialized", "params": {}},
        {"jsonrpc": "2.0", "id": 1, "method": "textDocument/documentSymbol", "params": {}},
        {"jsonrpc": "2.0", "id": 1, "result": None},  # to the server's request 1
    ).decode()
    drawn = arrows(import_jsonrpc(editor))
    assert [sender for sender, *_ in drawn] == ["Client"] * 4
    assert drawn[-1][1:] == ("-->", "Server", "result (id 1: no request seen)")
    server = framed(
        {"jsonrpc": "2.0", "id": 0, "result": {"capabilities": {}}},
        {"jsonrpc": "2.0", "id": 3, "method": "workspace/configuration", "params": {}},
        {"jsonrpc": "2.0", "id": 1, "result": []},
        {"jsonrpc": "2.0", "id": 3, "error": {"code": -32800, "message": "cancelled"}},
    ).decode()
    assert [sender for sender, *_ in arrows(import_jsonrpc(server))] == ["Server"] * 4
    # both streams, the server refusing to start: its error answers the editor's initialize
    refused = framed(
        {"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {}},
        {"jsonrpc": "2.0", "id": 0, "error": {"code": -32603, "message": "crash"}},
    ).decode()
    assert arrows(import_jsonrpc(refused)) == [
        ("Client", "->", "Server", "initialize"),
        ("Server", "-->", "Client", "**error** -32603: crash"),
    ]


def test_content_length_capture_cut_short_says_so():
    capture = framed(*STDIO[:2])[:-10].decode()
    with pytest.raises(VolleyError) as caught:
        import_jsonrpc(capture, filename="stdio.log")
    assert (caught.value.filename, caught.value.line) == ("stdio.log", 5)  # its JSON
    assert "ends inside a message" in caught.value.message
    assert caught.value.hint == "a capture cut short: remove the partial message at its end"


def test_a_content_length_too_large_says_which_length_the_json_has():
    """A capture edited by hand: the first message's JSON ends where the next header starts,
    so the count is wrong, not the capture short; the hint says the count (in bytes: é is 2)."""
    first = '{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"x":"é"}}'
    second = '{"jsonrpc":"2.0","id":0,"result":{}}'
    capture = f"Content-Length: 500\r\n\r\n{first}Content-Length: {len(second)}\r\n\r\n{second}"
    with pytest.raises(VolleyError) as caught:
        import_jsonrpc(capture)
    size = len(first.encode("utf-8"))
    assert caught.value.hint == (
        f"its JSON ends after {size} bytes, where the next message's header starts: its "
        f"Content-Length is wrong (a capture edited by hand?); make it {size}"
    )


def test_every_message_of_a_capture_that_does_not_frame_is_reported(tmp_path):
    """Two counts edited by hand and a header without its count, among good messages: one
    error each, read on from the next header (it stopped at the first), from the CLI too."""
    good = '{"jsonrpc":"2.0","method":"initialized","params":{}}'
    first = '{"jsonrpc":"2.0","id":0,"method":"initialize","params":{}}'
    third = '{"jsonrpc":"2.0","id":1,"method":"shutdown"}'
    capture = (
        f"Content-Length: 999\r\n\r\n{first}"
        f"Content-Length: {len(good)}\r\n\r\n{good}"
        f"Content-Length: 10\r\n\r\n{third}"
        f"Content-Type: application/json\r\n\r\n{good}"
        f"Content-Length: {len(good)}\r\n\r\n{good}"
    )
    with pytest.raises(VolleyErrors) as caught:
        import_jsonrpc(capture, filename="stdio.log")
    assert [error.message.split("capture ")[1] for error in caught.value.errors] == [
        f"ends inside a message: Content-Length says 999 bytes, {len(capture) - 23} remain",
        "has a message whose 10 bytes are not JSON",
        "has a message without a Content-Length header",
    ]
    assert caught.value.errors[0].hint.endswith(f"make it {len(first)}")
    # a header whose count is no number, after another header line: one error, not one per
    # line of its header
    typed = f"Content-Type: x\r\nContent-Length: abc\r\n\r\n{good}"
    typed += f"Content-Length: {len(good)}\r\n\r\n{good}"
    with pytest.raises(VolleyErrors) as caught:
        import_jsonrpc(typed)
    assert len(caught.value.errors) == 1
    path = tmp_path / "stdio.log"
    path.write_text(capture, encoding="utf-8")
    done = volley_cli("import", str(path), "--from", "jsonrpc")
    assert done.returncode == 1 and "Traceback" not in done.stderr
    places = [
        line.split("stdio.log:")[1].split(": error")[0]
        for line in done.stderr.splitlines()
        if ": error:" in line
    ]
    assert places == ["3:1", "7:1", "7:45"] and done.stderr.endswith("3 errors\n"), done.stderr


def test_lsp_forms_are_read_with_from_jsonrpc(tmp_path):
    for name, data in [
        ("trace.txt", (CASES / "gopls-42157-verbose.log").read_bytes()),
        ("capture.bin", framed(*STDIO)),
    ]:
        path = tmp_path / name
        path.write_bytes(data)
        done = volley_cli("import", str(path), "--from", "jsonrpc")
        assert done.returncode == 0, done.stderr
        assert "->" in done.stdout and "not JSON" not in done.stderr


@pytest.mark.parametrize(
    ("capture", "expected"),
    [
        ('{"jsonrpc": "2.0", "method": "initialized"}', "without a Content-Length header"),
        ("Content-Length: ten\r\n\r\n{}", "not a number of bytes: 'ten'"),
        ("Content-Length: 5\r\n\r\nhello", "whose 5 bytes are not JSON"),
    ],
)
def test_malformed_capture_says_what_it_expected(capture, expected):
    text = capture if capture.startswith("Content") else framed(*STDIO[:1]).decode() + capture
    with pytest.raises(VolleyError) as caught:
        import_jsonrpc(text, filename="stdio.log")
    assert caught.value.filename == "stdio.log" and caught.value.line >= 1
    assert expected in caught.value.message


def test_response_the_client_was_not_waiting_for_and_string_ids():
    trace = (
        "[Trace - 1:00 PM] Received response 7 without active response promise.\n"
        'Result: {"a": 1}\n\n'
        "[Trace - 1:00 PM] Sending request 'x/y - (abc)'.\r\n"
        "Params: [1, 2]\r\n"
        "[Error - 1:00 PM] Request x/y failed.\n  Message: boom\n  Code: -32603\n"
        "[Trace - 1:00 PM] Received response 'x/y - (abc)' in 4ms. Request failed: boom.\n"
    )
    assert arrows(import_jsonrpc(trace)) == [
        ("Server", "-->", "Client", "result (id 7: no request seen)"),
        ("Client", "->", "Server", "x/y"),
        ("Server", "-->", "Client", "**error**: boom"),  # the client's own [Error] lines skipped
    ]


def test_trace_after_other_output_is_detected_but_markdown_quoting_one_stays_markdown():
    channel = (
        "[Info  - 10:20:03 AM] Starting server\n" + (CASES / "ty-2135-messages.log").read_text()
    )
    found = detect(channel)
    assert found is not None and found.name == "jsonrpc"
    markdown = (
        "# Hover\n\n```mermaid\nsequenceDiagram\n    Editor->>Server: hover\n```\n\n"
        "```\n[Trace - 2:12:36 PM] Sending request 'textDocument/hover - (3)'.\n```\n"
    )
    found = detect(markdown)
    assert found is not None and found.name == "mermaid"


# --- VS Code's Output channel of an MCP server ---------------------------------------------------


def test_vscode_mcp_log_of_its_first_versions_client_says_server_says():
    diagram = import_jsonrpc((CASES / "vscode-244377-client-says.log").read_text())
    assert diagram.participants == ["Client", "Server"]  # no initialize in the excerpt
    assert arrows(diagram) == [
        ("Client", "->", "Server", "tools/call validate_username"),
        ("Server", "-->", "Client", "result"),
    ]
    call, answer = diagram.messages()
    assert call.request is not None
    assert json.loads(call.request.body)["params"]["arguments"] == {"username": "deifieded"}
    assert answer.response is not None
    assert json.loads(answer.response.body)["result"]["isError"] is False


def test_a_vscode_mcp_log_cut_inside_a_mark_says_its_last_line_is_left_out():
    """A copy of the channel cut at `… [info] [Serv` lost that line unsaid (and the diagram
    said there was no response); a whole line of the channel's own ends none."""
    call = (
        '2025-03-23 16:38:00.970 [info] [Client Says] {"jsonrpc":"2.0","id":4,'
        '"method":"tools/call","params":{"name":"x"}}'
    )
    diagrams, warnings = read_jsonrpc(call + "\n2025-03-23 16:38:00.989 [info] [Serv")
    [warning] = warnings
    assert (warning.line, warning.message) == (
        2,
        "the log ends in the middle of this line, which is left out",
    )
    _, quiet = read_jsonrpc(call + "\n2025-03-23 16:38:01.000 [info] Connection state: Running")
    assert quiet == []


def test_vscode_mcp_log_names_the_server_it_starts_and_skips_its_own_lines():
    """The channel's own lines (connection state, the command line) are not messages; a log
    that ends after `initialize` says the request was not answered."""
    diagram = import_jsonrpc((CASES / "vscode-mcp-taskfile-134.log").read_text())
    assert diagram.participants == ["Visual Studio Code", "mcp-taskfile-server"]
    assert arrows(diagram) == [("Visual Studio Code", "->", "mcp-taskfile-server", "initialize")]
    (note,) = [item for item in diagram.items if isinstance(item, Note)]
    assert note.text == "no response to id 1 before the session ended"


VSCODE_SESSION = (CASES / "vscode-mcp-session.log").read_text()


def test_vscode_mcp_session_reads_both_ways_between_the_channels_own_lines():
    found = detect(VSCODE_SESSION)
    assert found is not None and found.name == "jsonrpc"
    diagram = import_jsonrpc(VSCODE_SESSION)
    # The channel's name for the server (its key in mcp.json) names its lane, as Claude
    # Desktop's does; the editor is named by its clientInfo.
    assert diagram.participants == ["Visual Studio Code", "weather"]
    assert arrows(diagram) == [
        ("Visual Studio Code", "->", "weather", "initialize"),
        ("weather", "-->", "Visual Studio Code", "result"),
        ("Visual Studio Code", "->>", "weather", "notifications/initialized"),
        ("Visual Studio Code", "->", "weather", "tools/list"),
        ("weather", "-->", "Visual Studio Code", "result"),
        ("Visual Studio Code", "->", "weather", "tools/call get_forecast"),
        ("weather", "->", "Visual Studio Code", "sampling/createMessage"),
        ("Visual Studio Code", "-->", "weather", "**error** -1: User rejected sampling request"),
        ("weather", "-->", "Visual Studio Code", "**error** -32603: sampling refused"),
    ]
    assert not [item for item in diagram.items if isinstance(item, Note)]  # every one answered


def test_vscode_mcp_messages_pasted_without_times_and_wrapped_by_hand():
    """As people quote the channel in issues and docs: the time and level left out, and a long
    message broken over indented lines."""
    pasted = (
        '[editor -> server] {"jsonrpc":"2.0","id":1,"method":"initialize","params":\n'
        '  {"protocolVersion":"2025-11-25","clientInfo":{"name":"Visual Studio Code"}}}\n'
        '[server -> editor] {"error":{"code":-32601,"message":"Method not found"},"id":1,'
        '"jsonrpc":"2.0"}\n'
    )
    diagram = import_jsonrpc(pasted)
    assert arrows(diagram) == [
        ("Visual Studio Code", "->", "Server", "initialize"),
        ("Server", "-->", "Visual Studio Code", "**error** -32601: Method not found"),
    ]
    first = diagram.messages()[0]
    assert first.request is not None
    assert json.loads(first.request.body)["params"]["protocolVersion"] == "2025-11-25"


def test_volley_import_reads_a_vscode_mcp_log(tmp_path):
    log = tmp_path / "MCP weather.log"
    log.write_text(VSCODE_SESSION, encoding="utf-8")
    done = volley_cli("import", str(log))
    assert done.returncode == 0, done.stderr
    assert arrows(parse(done.stdout))[0] == ("Visual Studio Code", "->", "weather", "initialize")


# --- Neovim's LSP log ----------------------------------------------------------------------------


def test_neovim_log_each_lua_table_read_back_as_its_json():
    diagram = import_jsonrpc((CASES / "neovim-ruff-20847.log").read_text())
    assert diagram.participants == ["Neovim", "ruff"]  # clientInfo and serverInfo
    assert arrows(diagram) == [
        ("Neovim", "->", "ruff", "initialize"),
        ("ruff", "-->", "Neovim", "result"),
        ("Neovim", "->>", "ruff", "initialized"),
        ("Neovim", "->>", "ruff", "workspace/didChangeConfiguration"),
        ("Neovim", "->>", "ruff", "textDocument/didOpen"),
        ("ruff", "->", "Neovim", "client/registerCapability"),  # the server asks, id 0
        ("Neovim", "->", "ruff", "textDocument/diagnostic"),
        ("ruff", "-->", "Neovim", "result"),
        ("Neovim", "-->", "ruff", "result"),  # the answer to id 0
    ]
    bodies = [
        json.loads(payload.body)
        for message in diagram.messages()
        for payload in (message.request, message.response)
        if payload is not None
    ]
    assert bodies[2] == {"jsonrpc": "2.0", "method": "initialized", "params": {}}  # empty_dict
    opened = bodies[4]["params"]["textDocument"]
    assert opened["text"] == 'print "Hello world!"\n'  # a '-quoted Lua string, \n escaped
    assert bodies[5]["params"]["registrations"][0]["registerOptions"]["watchers"][0] == {
        "globPattern": "**/.ruff.toml"
    }
    assert bodies[7]["result"] == {"items": [], "kind": "full"}  # an empty table: an array
    assert bodies[8] == {"id": 0, "jsonrpc": "2.0", "result": None}  # vim.NIL
    (item,) = convert((CASES / "neovim-ruff-20847.log").read_text(), "lsp.log")
    assert '"workDoneToken": "1"' in item.text  # a progress token: not masked as a secret
    assert item.masked == 0


def test_neovim_log_excerpt_names_the_server_as_neovims_own_lines_do():
    """An excerpt without initialize: Neovim's own lines name the client ("LSP[ruff]")."""
    lines = (CASES / "neovim-ruff-20847.log").read_text().split("\n")
    excerpt = "\n".join(lines[7:])  # from the server's capabilities on
    diagram = import_jsonrpc(excerpt)
    assert diagram.participants == ["Client", "ruff"]
    assert arrows(diagram)[0] == ("ruff", "->", "Client", "client/registerCapability")


def test_neovim_log_of_older_versions_writes_a_table_over_several_lines():
    diagram = import_jsonrpc((CASES / "neovim-ruff-16342-multiline.log").read_text())
    (change,) = diagram.messages()
    assert (change.sender, change.arrow, change.label) == (
        "Client",
        "->>",
        "textDocument/didChange",
    )
    assert change.request is not None
    (edit,) = json.loads(change.request.body)["params"]["contentChanges"]
    assert edit["range"]["end"] == {"character": 0, "line": 3}  # ["end"]: a Lua keyword as key
    assert edit["text"] == "\n\n"


def test_neovim_log_from_a_place_with_spaces_and_tabs_become_spaces():
    """Neovim on Windows logs from C:\\Program Files\\…; a log pasted into an issue may have
    its tabs turned into spaces."""
    log = (
        "[DEBUG][2025-10-14 09:04:17] C:\\Program Files\\Neovim\\share\\nvim\\runtime\\lua"
        '\\vim\\lsp\\log.lua:151    "rpc.send"    { id = 1, jsonrpc = "2.0", method = "exit" }\n'
    )
    assert arrows(import_jsonrpc(log)) == [("Client", "->", "Server", "exit")]


def test_neovim_log_message_that_is_not_a_lua_table_is_kept_with_a_warning(tmp_path):
    log = tmp_path / "lsp.log"
    log.write_text(
        '[DEBUG][2025-10-14 09:04:17] .../lsp/log.lua:151\t"rpc.send"\t'
        '{ id = 1, jsonrpc = "2.0", method = "initialize" }\n'
        '[DEBUG][2025-10-14 09:04:18] .../lsp/log.lua:151\t"rpc.receive"\t'
        '{ id = 1, jsonrpc = "2.0", result = { capabilities = ... } }\n',
        encoding="utf-8",
    )
    done = volley_cli("import", str(log))
    assert done.returncode == 0, done.stderr
    column = log.read_text(encoding="utf-8").split("\n")[1].rindex("...") + 1  # where it stops
    assert (
        f"{log}:2:{column}: warning: this message is not a Lua table as Neovim writes one "
        "(expected a value); a note shows it as logged"
    ) in done.stderr
    diagram = parse(done.stdout)
    assert arrows(diagram)[0] == ("Client", "->", "Server", "initialize")
    notes = [item for item in diagram.items if isinstance(item, Note)]
    assert any("capabilities = ..." in note.text for note in notes)  # shown as logged


# --- what a log holds besides one clean session ---------------------------------------------------

T = "2026-07-24 02:03:14.089 [debug] "


def editor(line: str) -> str:
    return T + line + "\n"


def test_a_restarted_server_gives_a_diagram_for_each_session(tmp_path):
    log = (
        T[:-8] + "[info] Starting server alpha\n"
        + editor('[editor -> server] {"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}')
        + editor('[server -> editor] {"jsonrpc":"2.0","id":1,"result":{}}')
        + editor('[editor -> server] {"jsonrpc":"2.0","id":2,"method":"tools/call","params":{}}')
        + T[:-8] + "[info] Stopping server alpha\n"
        + editor('[editor -> server] {"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}')
        + editor('[server -> editor] {"jsonrpc":"2.0","id":1,"result":{}}')
        + editor('[editor -> server] {"jsonrpc":"2.0","id":2,"method":"tools/list"}')
        + editor('[server -> editor] {"jsonrpc":"2.0","id":2,"result":{"tools":[]}}')
    )  # fmt: skip
    first, second = convert(log, "MCP alpha.log")
    assert (first.name, second.name) == ("MCP alpha-1", "MCP alpha-2")
    assert [item.name for item in convert(log, "<stdin>")] == ["diagram-1", "diagram-2"]
    assert "tools/call" in first.text and "no response to id 2" in first.text
    assert "tools/list" in second.text and "no response" not in second.text
    with pytest.raises(VolleyError, match="this log holds 2 sessions"):
        import_jsonrpc(log)
    path = tmp_path / "MCP alpha.log"
    path.write_text(log, encoding="utf-8")
    done = volley_cli("import", str(path))
    assert done.returncode == 2 and "holds 2 sessions; give -o DIR" in done.stderr
    done = volley_cli("import", str(path), "-o", f"{tmp_path}/out/")
    assert done.returncode == 0, done.stderr
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == [
        "MCP alpha-1.volley",
        "MCP alpha-2.volley",
    ]


def test_an_unanswered_request_notes_itself_not_an_equal_one_answered_before():
    sent = [
        Sent("client", '{"jsonrpc":"2.0","id":5,"method":"ping"}'),
        Sent("server", '{"jsonrpc":"2.0","id":5,"result":{}}'),
        Sent("client", '{"jsonrpc":"2.0","id":5,"method":"ping"}'),
    ]
    items = session_diagram(sent).items
    assert [type(item).__name__ for item in items] == ["Message", "Message", "Message", "Note"]


def test_the_channels_other_lines_are_never_messages_nor_names():
    """The server's stderr may say anything, the words of a message line too."""
    log = (
        editor("[info] Connection state: Running")
        + editor("[warning] [server stderr] Starting server on port 3000")
        + editor('[warning] [server stderr] [server -> editor] {"jsonrpc":"2.0","id":9}')
        + editor('[editor -> server] {"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}')
        + editor('[server -> editor] {"jsonrpc":"2.0","id":1,"result":{"serverInfo":{"name":"w"}}}')
    )  # fmt: skip
    diagram = import_jsonrpc(log)
    assert diagram.participants == ["Client", "w"]
    assert [label for *_, label in arrows(diagram)] == ["initialize", "result"]


def test_pretty_printed_and_unreadable_channel_messages():
    pretty = (
        editor('[editor -> server] {\n  "jsonrpc": "2.0",\n  "id": 1,\n  "params":')
        + '[\n"a"],\n  "method": "tools/list"\n}\n'
        + editor('[server -> editor] {"jsonrpc":"2.0","id":1,"result":{...}}')
    )
    found = detect(pretty)
    assert found is not None and found.name == "jsonrpc"
    diagrams, warnings = read_jsonrpc(pretty, filename="MCP.log")
    assert arrows(diagrams[0])[0] == ("Client", "->", "Server", "tools/list")
    (warning,) = warnings
    assert (warning.filename, warning.line, warning.column) == ("MCP.log", 9, 86)  # at {...}
    assert warning.message.startswith("this message is not JSON (Expecting property name")


@pytest.mark.parametrize(
    "log_line",
    [
        '2026-07-24 02:03:14.089 [debug] [editor -> server] {"jsonrpc":"2.0","id":1,"method":"a"}',
        '[DEBUG][2025-10-14 09:04:17] …/log.lua:151\t"rpc.send"\t{ id = 1, jsonrpc = "2.0" }',
    ],
)
def test_a_page_or_a_session_quoting_a_log_line_is_read_as_what_it_is(log_line):
    page = (
        "# Flow\n\n```mermaid\nsequenceDiagram\n    A->>B: hi\n```\n\n```\n" + log_line + "\n```\n"
    )
    found = detect(page)
    assert found is not None and found.name == "mermaid"
    quoted = {
        "jsonrpc": "2.0",
        "id": 2,
        "result": {"content": [{"type": "text", "text": log_line}]},
    }
    session = '{"jsonrpc":"2.0","id":2,"method":"tools/call"}\n' + json.dumps(quoted) + "\n"
    assert arrows(import_jsonrpc(session)) == [
        ("Client", "->", "Server", "tools/call"),
        ("Server", "-->", "Client", "result"),
    ]


def test_a_long_log_is_told_from_lines_past_its_start_and_a_deep_one_does_not_crash():
    noise = '[ERROR][2025-10-14 09:04:17] …/log.lua:151\t"rpc"\t"ruff"\t"stderr"\t"x"\n' * 2500
    log = noise + (CASES / "neovim-ruff-20847.log").read_text()
    found = detect(log)
    assert found is not None and found.name == "jsonrpc"
    assert arrows(import_jsonrpc(log))[0] == ("Neovim", "->", "ruff", "initialize")
    deep = editor("[editor -> server] " + "[" * 50_000 + "]" * 50_000)
    diagrams, warnings = read_jsonrpc(deep)
    assert "nested too deeply" in warnings[0].message


def test_why_a_session_failed_is_kept_where_the_channel_says_it():
    log = (
        T[:-8] + "[info] Starting server echo\n"
        + editor('[editor -> server] {"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}')
        + T[:-8] + "[info] Connection state: Error Error sending message: fetch failed\n"
        + T[:-8] + "[error] Server exited before responding to `initialize` request.\n"
    )  # fmt: skip
    diagram = import_jsonrpc(log)
    notes = [(item.over, item.text) for item in diagram.items if isinstance(item, Note)]
    assert notes[1:] == [
        (["echo"], "Connection state: Error Error sending message: fetch failed"),
        (["echo"], "Server exited before responding to \\`initialize\\` request."),
    ]


def test_a_message_is_kept_whole_unless_max_body_is_given():
    """A JSON-RPC message is the protocol's payload, kept whole by default (a long tools/list
    result still reads as a table); --max-body cuts it as it cuts a HAR's bodies."""
    result = {"tools": [{"name": f"tool{n}", "description": "d" * 200} for n in range(30)]}
    log = "\n".join(
        json.dumps({"direction": way, "message": message})
        for way, message in [
            ("send", {"jsonrpc": "2.0", "id": 1, "method": "tools/list"}),
            ("recv", {"jsonrpc": "2.0", "id": 1, "result": result}),
        ]
    )
    whole = import_jsonrpc(log).messages()[1].response
    assert whole is not None and json.loads(whole.body)["result"] == result
    cut = import_jsonrpc(log, TrafficOptions(max_body=100)).messages()[1].response
    assert cut is not None and 50 <= len(cut.body.split("\n")[0]) <= 100  # between words
    assert cut.body.endswith(f"more characters cut ({len(whole.body):,} in all)")


def test_a_hosts_error_lines_are_notes_in_their_place():
    """An MCP host's `[error]` line says why a session went wrong (the server wrote something
    that is not JSON; a message failed validation, over several lines): a note over the server
    where it was logged, not dropped."""
    log = (
        '2025-06-27T07:58:07.774Z [info] [go-mcp] Message from client: {"method":"initialize",'
        '"params":{},"jsonrpc":"2.0","id":0}\n'
        "2025-06-27T07:58:08.067Z [error] [go-mcp] Unexpected token 'i', \"time=2025-0\"... "
        "is not valid JSON\n"
        '2025-06-27T07:58:08.068Z [info] [go-mcp] Message from server: {"jsonrpc":"2.0","id":0,'
        '"result":{}}\n'
        "2025-06-27T07:58:09.000Z [go-mcp] [info] Server transport closed\n"
        "2025-06-27T07:58:09.086Z [go-mcp] [error] [\n"
        '  {\n    "code": "invalid_type",\n    "path": ["method"]\n  }\n]\n'
    )
    diagram = import_jsonrpc(log)
    said = [
        (item.over, item.text) if isinstance(item, Note) else item.label for item in diagram.items
    ]
    assert said == [
        "initialize",
        (["go-mcp"], "error: Unexpected token 'i', \"time=2025-0\"... is not valid JSON"),
        "result",
        (["go-mcp"], 'error: [{"code":"invalid_type","path":["method"]}]'),
    ]
    # what Claude Desktop writes after a line is none of what the host said (mcp-remote's log)
    disconnected = import_jsonrpc(
        log + "2025-09-30T01:19:25.049Z [go-mcp] [error] Server disconnected. "
        "{ metadata: { context: 'connection', stack: undefined } }\n"
    )
    assert disconnected.items[-1].text == "error: Server disconnected."


def test_the_clients_error_lines_in_an_lsp_trace_are_notes_in_their_place():
    trace = (
        "[Trace - 9:12:07 PM] Sending notification 'initialized'.\nParams: {}\n\n\n"
        "[Error - 9:12:09 PM] Connection to server got closed. Server will restart.\n"
        "[Trace - 9:12:10 PM] Sending request 'textDocument/hover - (1)'.\n"
        'Params: {"position": {"line": 0, "character": 4}}\n\n\n'
        "[Trace - 9:12:10 PM] Received response 'textDocument/hover - (1)' in 5ms.\n"
        "No result returned.\n"
    )
    diagram = import_jsonrpc(trace)
    said = [item.text if isinstance(item, Note) else item.label for item in diagram.items]
    assert said == [
        "initialized",
        "error: Connection to server got closed. Server will restart.",
        "textDocument/hover",
        "result",
    ]


def test_helix_log_a_diagram_for_each_server_with_its_stderr_as_notes():
    """Helix's log (from helix-editor/helix#7495, shortened): `->` the editor's, `<-` the
    server's, `err <-` a line the server wrote on stderr; two servers, two diagrams."""
    log = (
        '2023-07-01T09:24:40.623 helix_lsp::transport [INFO] roslyn -> {"jsonrpc":"2.0",'
        '"method":"initialize","params":{"clientInfo":{"name":"helix"}},"id":0}\n'
        "2023-07-01T09:24:40.700 helix_lsp::transport [INFO] taplo -> "
        '{"jsonrpc":"2.0","method":"initialize","params":{},"id":0}\n'
        "2023-07-01T09:24:41.001 helix_lsp::transport [ERROR] roslyn err <- "
        '"Unhandled exception. System.InvalidOperationException\\n"\n'
        '2023-07-01T09:24:41.100 helix_lsp::transport [INFO] roslyn <- {"jsonrpc":"2.0","id":0,'
        '"result":{"capabilities":{}}}\n'
        "2023-07-01T09:24:41.200 helix_lsp::transport [INFO] taplo <- "
        '{"jsonrpc":"2.0","id":0,"result":{}}\n'
    )
    assert detect(log).name == "jsonrpc"
    roslyn, taplo = read_jsonrpc(log)[0]
    assert roslyn.participants == ["helix", "roslyn"] and taplo.participants == ["Helix", "taplo"]
    assert arrows(roslyn) == [
        ("helix", "->", "roslyn", "initialize"),
        ("roslyn", "-->", "helix", "result"),
    ]
    (note,) = [item for item in roslyn.items if isinstance(item, Note)]
    assert note.text == "stderr: Unhandled exception. System.InvalidOperationException"


def test_helix_says_why_it_ended_a_server_in_a_note_by_that_server():
    """helix#15078: `[ERROR] Exiting subtl after unexpected error: …`, the reason the session
    ended, was dropped unsaid; it is a note by the server it names, where it was logged."""
    log = (
        "2026-01-06T04:04:15.010 helix_lsp::transport [INFO] subtl -> "
        '{"jsonrpc":"2.0","method":"initialized","params":{}}\n'
        "2026-01-06T04:04:15.011 helix_lsp::transport [INFO] taplo -> "
        '{"jsonrpc":"2.0","method":"initialized","params":{}}\n'
        "2026-01-06T04:04:15.018 helix_lsp::transport [ERROR] Exiting subtl after unexpected "
        'error: Parse(Error("data did not match", line: 0, column: 0))\n'
        "2026-01-06T04:04:15.020 helix_lsp::transport [INFO] taplo <- "
        '{"jsonrpc":"2.0","method":"window/logMessage","params":{"type":3,"message":"ok"}}\n'
    )
    subtl, taplo = read_jsonrpc(log)[0]
    [note] = [item for item in subtl.items if isinstance(item, Note)]
    assert note.over == ["subtl"] and note.text.startswith("Exiting subtl after unexpected error")
    assert subtl.items.index(note) == len(subtl.items) - 1
    assert not [item for item in taplo.items if isinstance(item, Note)]


def test_a_servers_own_trace_lines_are_notes_between_the_records():
    diagram = lsp_trace("lspinspector-tslint-dirty-trace.log")
    notes = [item for item in diagram.items if isinstance(item, Note)]
    said = [note.text for note in notes]
    assert said[:3] == ["onDidChangeConfiguraton", "validateAllTextDocuments", "onDidOpen"]
    assert all(note.over == ["Server"] for note in notes[:3])
    found = arrows(diagram)
    assert found[0] == ("Client", "->", "Server", "initialize")
    # the notes stand where the server logged them: after the document was opened
    first_note = diagram.items.index(notes[0])
    before = [m.label for m in diagram.items[:first_note] if hasattr(m, "label")]
    assert before[-1] == "textDocument/didOpen"


def test_a_request_vs_code_says_failed_is_answered_with_that_error():
    """VS Code writes `[Error - T] Request X failed.` in place of the error response's record:
    it was a note beside "no response to id 1"."""
    trace = (
        "[Trace - 10:20:05 AM] Sending request 'textDocument/hover - (1)'.\n"
        'Params: {\n    "position": {"line": 1}\n}\n\n\n'
        "[Error - 10:20:05 AM] Request textDocument/hover failed.\n"
        "  Message: Cannot read properties of undefined (reading 'kind')\n"
        "  Code: -32603 \n"
    )
    diagram = import_jsonrpc(trace)
    assert arrows(diagram) == [
        ("Client", "->", "Server", "textDocument/hover"),
        (
            "Server",
            "-->",
            "Client",
            "**error** -32603: Cannot read properties of undefined (reading 'kind')",
        ),
    ]
    assert not [item for item in diagram.items if isinstance(item, Note)]


def test_what_a_server_wrote_on_stderr_in_neovims_log_is_a_note():
    log = (
        '[DEBUG][2025-10-14 09:04:17] …/lsp/rpc.lua:347\t"rpc.send"\t'
        '{ id = 1, jsonrpc = "2.0", method = "textDocument/hover", params = {} }\n'
        '[ERROR][2025-10-14 09:04:17] …/lsp/rpc.lua:420\t"rpc"\t"ruff"\t"stderr"\t'
        "'LOG INFO: hover for file:///a.py\\nLOG DEBUG: done\\n'\n"
        '[DEBUG][2025-10-14 09:04:17] …/lsp/rpc.lua:454\t"rpc.receive"\t'
        '{ id = 1, jsonrpc = "2.0", result = {} }\n'
    )
    diagram = import_jsonrpc(log)
    (note,) = [item for item in diagram.items if isinstance(item, Note)]
    assert note.text == "stderr: LOG INFO: hover for file:///a.py<br>LOG DEBUG: done"
    assert diagram.items.index(note) == 1  # where the server wrote it


def test_a_traceback_on_stderr_keeps_its_lines_and_its_last_line():
    """A server's traceback is a note of its lines, each whole up to a label's length, the
    last (what failed) kept past a note's length; a very long one keeps its first and last."""
    frames = "".join(f'  File "/srv/lsp/server.py", line {n}, in handler{n}\\n' for n in range(30))
    said = f"Traceback (most recent call last):\\n{frames}ValueError: missing field range\\n"
    log = (
        '[DEBUG][2025-10-14 09:04:17] …/lsp/rpc.lua:347\t"rpc.send"\t'
        '{ id = 1, jsonrpc = "2.0", method = "textDocument/codeAction", params = {} }\n'
        '[ERROR][2025-10-14 09:04:17] …/lsp/rpc.lua:420\t"rpc"\t"ruff"\t"stderr"\t'
        f"'{said}'\n"
    )
    notes = [item.text for item in import_jsonrpc(log).items if isinstance(item, Note)]
    assert notes[0] == "no response to id 1 before the session ended"
    lines = notes[1].split("<br>")
    assert lines[0] == "stderr: Traceback (most recent call last):"
    assert lines[1] == 'File "/srv/lsp/server.py", line 0, in handler0'
    assert lines[12] == "… 8 more lines …" and len(lines) == 25
    assert lines[-1] == "ValueError: missing field range"
    assert lines[-2] == 'File "/srv/lsp/server.py", line 29, in handler29'


def test_neovim_log_of_two_servers_is_one_diagram_with_a_warning_why(tmp_path):
    """Neovim's "rpc" lines never name the server: a log where ruff and pyright both run can
    not be split by server or by session, so it is drawn as logged and the user is told."""
    place = "[DEBUG][2025-10-14 09:04:17] .../lsp/log.lua:151\t"
    log = tmp_path / "lsp.log"
    log.write_text(
        f'{place}"rpc.send"\t{{ id = 1, jsonrpc = "2.0", method = "initialize" }}\n'
        f'{place}"rpc.receive"\t{{ id = 1, jsonrpc = "2.0", result = {{}} }}\n'
        f'{place}"LSP[ruff]"\t"server_capabilities"\t{{}}\n'
        f'{place}"rpc.send"\t{{ id = 1, jsonrpc = "2.0", method = "initialize" }}\n'
        f'{place}"rpc.receive"\t{{ id = 1, jsonrpc = "2.0", result = {{}} }}\n'
        f'{place}"LSP[pyright]"\t"server_capabilities"\t{{}}\n',
        encoding="utf-8",
    )
    diagrams, warnings = read_jsonrpc(log.read_text(), filename="lsp.log")
    (diagram,) = diagrams
    assert diagram.participants == ["Client", "Language servers"]
    assert [a[3] for a in arrows(diagram)] == ["initialize", "result", "initialize", "result"]
    (warning,) = warnings
    assert (warning.filename, warning.line, warning.column) == ("lsp.log", 6, 1)
    assert "2 language servers (ruff and pyright)" in warning.message
    done = volley_cli("import", str(log), "-o", str(tmp_path / "out.volley"))
    assert done.returncode == 0, done.stderr
    assert "lsp.log:6:1: warning: this log holds the messages of 2 language servers" in done.stderr
    assert (tmp_path / "out.volley").exists()


def test_a_log_line_that_is_not_utf8_is_read_with_a_warning_at_it(tmp_path):
    """A server's stderr in another encoding is one line of a long log: the rest is read, and
    the user hears which line held bytes that are not UTF-8 and how they were read."""
    lines = (CASES / "neovim-ruff-20847.log").read_bytes().rstrip(b"\n").split(b"\n")
    stderr = b'[ERROR][2025-10-14 09:04:18] .../log.lua:151\t"rpc"\t"ruff"\t"stderr"\t"caf\xe9"'
    log = tmp_path / "lsp.log"
    log.write_bytes(b"\n".join([*lines[:5], stderr, *lines[5:], stderr, b""]))
    done = volley_cli("import", str(log), "-o", str(tmp_path / "lsp.volley"))
    assert done.returncode == 0, done.stderr
    said = [line for line in done.stderr.splitlines() if ": warning: this line is not" in line]
    column = stderr.index(b"\xe9") + 1
    assert [line.split(": warning:")[0] for line in said] == [
        f"{log}:6:{column}",
        f"{log}:{len(lines) + 2}:{column}",
    ]
    assert "(byte 0xe9: invalid continuation byte)" in said[0]
    diagram = parse((tmp_path / "lsp.volley").read_text(encoding="utf-8"))
    assert diagram.messages()  # the rest of the log is read
    notes = [item.text for item in diagram.items if isinstance(item, Note)]
    assert sum("stderr: caf\ufffd" in note for note in notes) == 2


def test_many_lines_that_are_not_utf8_are_told_ten_and_then_the_rest_at_once(tmp_path):
    record = (
        '[DEBUG][2025-10-14 09:04:17] .../log.lua:151\t"rpc.send"\t'
        '{{ id = {}, jsonrpc = "2.0", method = "x\\233" }}'
    )
    log = tmp_path / "lsp.log"
    log.write_bytes(
        "\n".join(record.format(n) for n in range(1, 16)).encode().replace(b"\\233", b"\xe9")
    )
    done = volley_cli("import", str(log), "-o", str(tmp_path / "lsp.volley"))
    assert done.returncode == 0, done.stderr
    assert done.stderr.count("warning: this line is not valid UTF-8 (") == 10
    assert f"{log}:11:" in done.stderr
    assert "this line and 4 more after it are not valid UTF-8 either" in done.stderr


def test_a_diagram_source_that_is_not_utf8_is_still_refused(tmp_path):
    """Only captured traffic is read past bytes that are not UTF-8: in a diagram someone
    wrote, a misread character would be drawn as something else."""
    source = tmp_path / "flow.mmd"
    source.write_bytes(b"sequenceDiagram\nA->>B: caf\xe9\n")
    done = volley_cli("import", str(source))
    assert done.returncode == 1
    assert f"{source}:2:11: error: the file is not valid UTF-8: byte 0xe9" in done.stderr


def test_json_lines_of_batches_are_told_and_an_unreadable_batch_is_the_clients():
    """A session that starts with invalid batches (`[]`, `[1]`, answered with id null) is
    still the client's requests and the server's answers: answers to what could not be read
    pair with nothing, and no longer made the whole file read as the server's stream."""
    request = '{"jsonrpc":"2.0","id":1,"method":"test_echo","params":["foo",1]}'
    answer = '{"jsonrpc":"2.0","id":1,"result":"foo"}'
    invalid = '{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"invalid request"}}'
    batches = f"[{request}]\n[{answer}]\n"
    assert detect(batches) is IMPORTERS["jsonrpc"]
    assert arrows(import_jsonrpc(batches)) == [
        ("Client", "->", "Server", "test_echo"),
        ("Server", "-->", "Client", "result"),
    ]
    log = f"[]\n{invalid}\n[1]\n[{invalid}]\n{request}\n{answer}\n"
    diagram = import_jsonrpc(log)
    assert [a[:3] for a in arrows(diagram)] == [
        ("Server", "-->", "Client"),
        ("Server", "-->", "Client"),
        ("Client", "->", "Server"),
        ("Server", "-->", "Client"),
    ]
    notes = [item for item in diagram.items if isinstance(item, Note)]
    assert [note.over for note in notes] == [["Client"], ["Client"]]  # `[]` and `[1]`


def test_neovim_log_of_two_servers_named_only_by_their_stderr_is_told_too():
    """ruff's issue 11259: ruff and ruff-lsp in one log, with no "LSP[…]" line; each is named
    only by the command whose stderr the log holds."""
    place = "[ERROR][2024-05-03 10:00:00] .../lsp/log.lua:151\t"
    log = (
        f'{place}"rpc.send"\t{{ id = 1, jsonrpc = "2.0", method = "initialize" }}\n'
        f'{place}"rpc"\t"/home/u/.local/share/nvim/mason/bin/ruff"\t"stderr"\t"starting"\n'
        f'{place}"rpc.send"\t{{ id = 1, jsonrpc = "2.0", method = "initialize" }}\n'
        f'{place}"rpc"\t"/home/u/.local/share/nvim/mason/bin/ruff-lsp"\t"stderr"\t"starting"\n'
    )
    (diagram,), (warning,) = read_jsonrpc(log, filename="lsp.log")
    assert diagram.participants == ["Client", "Language servers"]
    assert "2 language servers (ruff and ruff-lsp)" in warning.message and warning.line == 4


def test_an_ethereum_subscriptions_notifications_come_from_the_server():
    """`eth_subscribe` asks; the `eth_subscription` notifications that follow bring what was
    subscribed to (go-ethereum's rpc testdata). They were drawn as the client's."""
    log = (
        '{"jsonrpc":"2.0","id":1,"method":"eth_subscribe","params":["newHeads"]}\n'
        '{"jsonrpc":"2.0","id":1,"result":"0x1"}\n'
        '{"jsonrpc":"2.0","method":"eth_subscription","params":{"subscription":"0x1"}}\n'
    )
    assert arrows(import_jsonrpc(log)) == [
        ("Client", "->", "Server", "eth_subscribe"),
        ("Server", "-->", "Client", "result"),
        ("Server", "->>", "Client", "eth_subscription"),
    ]


def test_a_transcript_marked_with_directions_is_read_as_marked():
    """The Ethereum execution APIs' tests write `>> {…}` for the client's message and `<< {…}`
    for the node's, go-ethereum's `--> {…}` and `<-- {…}`; `//` lines are the test's words.
    Such a file was read as swimlanes text, an error a line."""
    text = (CASES / "execution-apis-call-revert.io").read_text(encoding="utf-8")
    assert detect(text) is IMPORTERS["jsonrpc"]
    diagram = import_jsonrpc(text)
    assert arrows(diagram) == [
        ("Client", "->", "Server", "eth_call"),
        ("Server", "-->", "Client", "**error** 3: execution reverted: user error"),
    ]
    (note,) = [item for item in diagram.items if isinstance(item, Note)]
    assert note.text.startswith("calls a contract that reverts")
    go = '--> {"jsonrpc":"2.0","id":1,"method":"x"}\n<-- {"jsonrpc":"2.0","id":1,"result":1}\n'
    assert [a[:3] for a in arrows(import_jsonrpc(go))] == [
        ("Client", "->", "Server"),
        ("Server", "-->", "Client"),
    ]


def test_a_method_that_is_no_name_is_no_request():
    """The specification's invalid request, `{"method": 1}`, was a notification named 1."""
    diagram = session_diagram([Sent("client", '{"jsonrpc": "2.0", "method": 1, "params": "bar"}')])
    assert arrows(diagram) == []
    assert notes_of(diagram) == [
        'not JSON-RPC, as sent: {"jsonrpc": "2.0", "method": 1, "params": "bar"}'
    ]


def test_a_transcript_message_may_run_over_several_lines():
    """The JSON-RPC 2.0 specification prints a batch, and a long object, over several lines
    under its `-->`: such a transcript was "cannot tell what format this is"."""
    text = (
        '--> {"jsonrpc": "2.0", "method": "subtract",\n     "params": [42, 23], "id": 1}\n'
        '<-- {"jsonrpc": "2.0", "result": 19, "id": 1}\n'
        '--> [\n  {"jsonrpc": "2.0", "method": "sum", "params": [1,2,4], "id": "1"},\n'
        '  {"jsonrpc": "2.0", "method": "notify_hello", "params": [7]}\n]\n'
        '<-- [\n  {"jsonrpc": "2.0", "result": 7, "id": "1"}\n]\n'
    )
    assert detect(text) is IMPORTERS["jsonrpc"]
    diagram = import_jsonrpc(text)
    assert arrows(diagram) == [
        ("Client", "->", "Server", "subtract"),
        ("Server", "-->", "Client", "result"),
        ("Client", "->", "Server", "sum"),
        ("Client", "->>", "Server", "notify_hello"),
        ("Server", "-->", "Client", "result"),
    ]
    first = diagram.messages()[0].request
    assert first is not None and json.loads(first.body)["params"] == [42, 23]
    # a mark's text that no line below completes stays its own line: a message not JSON
    broken = import_jsonrpc('--> {"jsonrpc": "2.0",\n<-- {"jsonrpc": "2.0", "result": 1, "id": 1}')
    assert notes_of(broken) == ['not JSON-RPC, as sent: {"jsonrpc": "2.0",']
    assert arrows(broken) == [("Server", "-->", "Client", "result (id 1: no request seen)")]


def test_a_transcript_message_that_is_not_json_is_kept_with_a_warning_at_its_place(tmp_path):
    """go-ethereum tests a request that is not JSON (`--> 'f`), which the node answers with
    id null: the file was "cannot tell what format this is", or an error at its first line."""
    saved = tmp_path / "invalid-syntax.js"
    saved.write_text(
        "// checks that an error is written for a request that is not JSON\n\n--> 'f\n"
        '<-- {"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"invalid character"}}\n',
        encoding="utf-8",
    )
    done = volley_cli("import", str(saved))
    assert done.returncode == 0, done.stderr
    assert (
        f"{saved}:3:5: warning: this message is not JSON (Expecting value); "
        "a note shows it as logged" in done.stderr
    )
    diagram = parse(done.stdout)
    assert notes_of(diagram)[1] == "not JSON-RPC, as sent: 'f"
    assert arrows(diagram) == [
        (
            "Server",
            "-->",
            "Client",
            "**error** -32700: invalid character (id null: to a request it could not read)",
        )
    ]
    # a page's quotes (`> text`) are no transcript, however many lines hold JSON
    assert detect("> I ran it and got\n> {}\n> then nothing\n") is not IMPORTERS["jsonrpc"]


def test_a_transcript_message_over_several_lines_that_is_not_json_is_kept_whole(tmp_path):
    """The JSON-RPC 2.0 specification's "rpc call Batch, invalid JSON" prints a batch cut off
    over several lines: the whole transcript was "cannot tell what format this is" (with
    `--from jsonrpc`, an error at its valid first line)."""
    saved = tmp_path / "spec.txt"
    saved.write_text(
        '--> {"jsonrpc": "2.0", "method": "subtract", "params": [42, 23], "id": 1}\n'
        '<-- {"jsonrpc": "2.0", "result": 19, "id": 1}\n\n'
        '--> [\n  {"jsonrpc": "2.0", "method": "sum", "params": [1,2,4], "id": "1"},\n'
        '  {"jsonrpc": "2.0", "method"\n]\n'
        '<-- {"jsonrpc": "2.0", "error": {"code": -32700, "message": "Parse error"}, "id": null}\n',
        encoding="utf-8",
    )
    done = volley_cli("import", str(saved))
    assert done.returncode == 0, done.stderr
    assert f"{saved}:7:1: warning: this message is not JSON (Expecting ':' delimiter)" in (
        done.stderr
    )
    diagram = parse(done.stdout)
    assert notes_of(diagram) == [
        'not JSON-RPC, as sent: [ {"jsonrpc": "2.0", "method": "sum", "params": [1,2,4], '
        '"id": "1"}, {"jsonrpc": "2.0", "method" ]'
    ]
    assert [arrow[3] for arrow in arrows(diagram)] == [
        "subtract",
        "result",
        "**error** -32700: Parse error (id null: to a request it could not read)",
    ]
    # the run of lines under the mark ends at a blank line: what follows is read on its own
    text = '--> {"jsonrpc": "2.0",\n  "method"\n\n<-- {"jsonrpc": "2.0", "result": 1, "id": 1}'
    assert notes_of(import_jsonrpc(text)) == ['not JSON-RPC, as sent: {"jsonrpc": "2.0", "method"']


# --- editors' and servers' own logs (editor_logs.py) -------------------------------------------


def test_eglot_events_buffer_is_read_with_the_servers_stderr_as_notes():
    """Emacs Eglot's events buffer (jsonrpc.el): `-->` what Emacs sent, `<--` what the server
    sent, each with its message; `[stderr]` lines are the server's. It was "cannot tell what
    format this is"."""
    text = (CASES / "eglot-ty-1745.log").read_text(encoding="utf-8")
    assert detect(text) is IMPORTERS["jsonrpc"]
    diagram = import_jsonrpc(text)
    assert diagram.participants == ["Eglot", "ty"]  # clientInfo and serverInfo
    assert arrows(diagram) == [
        ("Eglot", "->", "ty", "initialize"),
        ("ty", "-->", "Eglot", "result"),
        ("Eglot", "->>", "ty", "initialized"),
    ]
    (note,) = notes_of(diagram)
    assert note.startswith("stderr: 2025-12-03 13:35:33.130330000 INFO Version: 0.0.1-alpha.29")
    initialize = diagram.messages()[0].request
    assert initialize is not None and '"processId":14322' in initialize.body


def test_eglot_requests_from_the_server_pair_by_direction_and_id():
    """pyright asks Emacs (`<-- workspace/configuration[1]`) with ids its own: each answer
    (`-->`) pairs with the server's request, not with Emacs's own id 1. Without serverInfo the
    server is named by the command Eglot says it ran."""
    text = (CASES / "eglot-1387-server-requests.log").read_text(encoding="utf-8")
    diagram = import_jsonrpc(text)
    assert diagram.participants == ["Emacs", "Server"]
    assert arrows(diagram)[:5] == [
        ("Emacs", "->>", "Server", "workspace/didChangeConfiguration"),
        ("Server", "->", "Emacs", "client/registerCapability"),
        ("Emacs", "-->", "Server", "result"),
        ("Server", "->", "Emacs", "workspace/configuration"),
        ("Emacs", "-->", "Server", "result"),
    ]
    assert not any("no request seen" in label for *_, label in arrows(diagram))
    started = "[jsonrpc] D[00:32:15.800] Running language server: /usr/bin/pyright-langserver\n"
    assert import_jsonrpc(started + text).participants == ["Emacs", "pyright-langserver"]


def test_clangd_verbose_log_reads_its_json_the_servers_way_round():
    """clangd's own log: `<<<` is what clangd received (the editor's), `>>>` what it sent; its
    other lines (`I[…] <-- …` summaries, `V[…] ASTWorker …`) are not messages of their own."""
    text = (CASES / "clangd-verbose-921.log").read_text(encoding="utf-8")
    assert detect(text) is IMPORTERS["jsonrpc"]
    diagram = import_jsonrpc(text)
    assert diagram.participants == ["Editor", "clangd"]
    found = arrows(diagram)
    assert found[:3] == [
        ("Editor", "->", "clangd", "textDocument/documentHighlight"),
        ("clangd", "-->", "Editor", "result"),
        (
            "clangd",
            "->>",
            "Editor",
            "textDocument/clangd.fileStatus file:///u4/rydong/cs444/cs-444-compiler/src/main.cpp",
        ),
    ]
    assert all(message.request or message.response for message in diagram.messages())
    pretty = 'V[10:00:00.000] <<< {\n  "id": 0,\n  "method": "initialize"\n}\n\n'
    pretty += 'V[10:00:00.100] >>> {\n  "id": 0,\n  "result": {}\n}\n'
    assert arrows(import_jsonrpc(pretty)) == [
        ("Editor", "->", "clangd", "initialize"),
        ("clangd", "-->", "Editor", "result"),
    ]


def test_clangd_log_at_its_default_level_gives_arrows_without_payloads():
    """At the default level clangd logs a message by its method and id: `<-- method(id)` a
    request from the editor, `--> reply:method(id) 6 ms` its answer, `--> method(id)` clangd's
    own request and `<-- reply(id)` the editor's answer, `--> method` a notification."""
    text = (CASES / "clangd-info-1759.log").read_text(encoding="utf-8")
    assert detect(text) is IMPORTERS["jsonrpc"]
    diagram = import_jsonrpc(text)
    found = arrows(diagram)
    assert found[1:5] == [
        ("clangd", "->", "Editor", "workspace/semanticTokens/refresh"),
        ("clangd", "->>", "Editor", "textDocument/clangd.fileStatus"),
        ("clangd", "->>", "Editor", "textDocument/clangd.fileStatus"),
        ("Editor", "-->", "clangd", "result"),
    ]
    link = found.index(("Editor", "->", "clangd", "textDocument/documentLink"))
    assert ("clangd", "-->", "Editor", "result") in found[link : link + 3]
    assert not any(m.request or m.response for m in diagram.messages())
    assert notes_of(diagram) == ["no response to id 16 before the session ended"]
    failed = "I[10:00:00.000] <-- textDocument/hover(3)\n"
    failed += "I[10:00:00.002] --> reply:textDocument/hover(3) 2 ms, error: invalid AST\n"
    failed += "E[10:00:00.003] Failed to build AST for /src/a.cpp\n"
    diagram = import_jsonrpc(failed)
    assert arrows(diagram)[1] == ("clangd", "-->", "Editor", "**error**: invalid AST")
    assert notes_of(diagram) == ["error: Failed to build AST for /src/a.cpp"]


def test_zed_rpc_messages_are_read_by_their_send_and_receive_lines():
    """Zed's Server Logs (RPC Messages): `// Send:` or `// Receive:` (later `// Receive (took
    2.8ms):`), the message on the lines below."""
    text = (CASES / "zed-lsp-ai-4.log").read_text(encoding="utf-8")
    assert detect(text) is IMPORTERS["jsonrpc"]
    assert (
        arrows(import_jsonrpc(text))
        == [
            ("Zed", "->", "Server", "textDocument/completion"),
            ("Server", "-->", "Zed", "**error** -32603: channel closed"),
        ]
        * 2
    )
    newer = "// Receive (took 2.819125ms):\n"
    newer += '{"jsonrpc":"2.0","id":25,"method":"workspace/configuration"}\n\n'
    newer += '// Send:\n{\n  "jsonrpc": "2.0",\n  "id": 25,\n  "result": [null]\n}\n'
    assert arrows(import_jsonrpc(newer)) == [
        ("Server", "->", "Zed", "workspace/configuration"),
        ("Zed", "-->", "Server", "result"),
    ]


def test_client_and_server_labelled_lines_and_puppeteers_protocol_log():
    """`CLIENT >> {…}` / `SERVER >> {…}`, and Puppeteer's `SEND ► {…}` / `◀ RECV {…}` (the
    Chrome DevTools Protocol, JSON-RPC without its version), among the debug log's others."""
    labelled = import_jsonrpc((CASES / "client-server-dart-56311.log").read_text("utf-8"))
    assert arrows(labelled) == [
        ("Client", "->", "Server", "textDocument/inlayHint"),
        ("Server", "->", "Client", "workspace/configuration"),
        ("Server", "->", "Client", "workspace/configuration"),
        ("Client", "-->", "Server", "result"),
    ]
    text = (CASES / "puppeteer-protocol-2170.log").read_text(encoding="utf-8")
    assert detect(text) is IMPORTERS["jsonrpc"]
    found = arrows(import_jsonrpc(text))
    assert found[0] == ("Puppeteer", "->", "Browser", "Target.setDiscoverTargets")
    assert found[4] == ("Browser", "-->", "Puppeteer", "result")
    assert ("Browser", "->>", "Puppeteer", "Target.targetCreated") in found
    assert len(found) == 8  # `puppeteer:browser browser.newPage()` is not a message


def test_helix_log_from_before_it_named_servers_is_one_diagram():
    """Helix in 2021 wrote `[INFO] -> {…}` and `[ERROR] err: <- …` with no server's name: its
    `err:` was taken for a server, and `initialize` was lost."""
    text = (CASES / "helix-old-669.log").read_text(encoding="utf-8")
    diagrams, _ = read_jsonrpc(text)
    (diagram,) = diagrams
    assert diagram.participants == ["Helix", "Server"]
    assert arrows(diagram) == [("Helix", "->", "Server", "initialize")]
    assert any(
        note.startswith("stderr: Other(Failed to parse header") for note in notes_of(diagram)
    )


def test_a_wscat_session_is_a_transcript():
    """wscat shows a WebSocket session as `> {…}` sent and `< {…}` received, after its command
    and its `Connected (press CTRL+C to quit)`."""
    text = (
        "$ wscat -c wss://node.example/ws\nConnected (press CTRL+C to quit)\n"
        '> {"id": 1, "method": "eth_subscribe", "params": ["newHeads"], "jsonrpc":"2.0"}\n'
        '< {"jsonrpc":"2.0","result":"0x55cba7be0653ec81","id":1}\n'
        '< {"jsonrpc":"2.0","method":"eth_subscription","params":{"subscription":"0x55"}}\n'
    )
    assert detect(text) is IMPORTERS["jsonrpc"]
    assert arrows(import_jsonrpc(text)) == [
        ("Client", "->", "Server", "eth_subscribe"),
        ("Server", "-->", "Client", "result"),
        ("Server", "->>", "Client", "eth_subscription"),
    ]


def test_sublime_lsp_log_panel_reads_python_params_back_as_json():
    """Sublime Text's LSP log panel writes each message by its mark, server, method and id,
    its params as Python writes them (`True`, `None`, single quotes): `-->` a request of the
    editor's, ` ->` its notification, `>>>` its answer, `<--`/`<-`/`<<<` the server's, `~~>`
    and `<~~` errors; the time first since 2023 (`(ID) (duration: 3ms)` for an answer).
    `NAME: …` lines are that server's stderr. Each server named is a diagram of its own."""
    log = (
        ":: [07:54:41.870] --> c3-lsp initialize (1): {'processId': 42, 'rootUri': None,"
        " 'capabilities': {'workspace': {'applyEdit': True}}}\n"
        ":: [07:54:41.990] <<< c3-lsp (1) (duration: 120ms): {'capabilities': {}}\n"
        ":: [07:54:42.001]  -> c3-lsp initialized: {}\n"
        ":: [07:54:42.100] <-- c3-lsp workspace/configuration (0): {'items': [{'section': 'c3'}]}\n"
        ":: [07:54:42.101] >>> c3-lsp (0) (duration: 1ms): [None]\n"
        "c3-lsp: panic: runtime error: index out of range\n"
        ":: [07:54:42.200] --> c3-lsp textDocument/hover (2): <params with 90210 characters>\n"
        ":: [07:54:42.300] <~~ c3-lsp (2) (duration: 100ms): {'code': -32603, 'message': 'boom'}\n"
        ":: --> LSP-json initialize(1): {'processId': 42}\n"
        ":: <<< LSP-json 1: {'capabilities': {}}\n"
    )
    assert detect(log) is IMPORTERS["jsonrpc"]
    c3, json_server = read_jsonrpc(log)[0]
    assert c3.participants == ["Sublime Text", "c3-lsp"]
    assert arrows(c3) == [
        ("Sublime Text", "->", "c3-lsp", "initialize"),
        ("c3-lsp", "-->", "Sublime Text", "result"),
        ("Sublime Text", "->>", "c3-lsp", "initialized"),
        ("c3-lsp", "->", "Sublime Text", "workspace/configuration"),
        ("Sublime Text", "-->", "c3-lsp", "result"),
        ("Sublime Text", "->", "c3-lsp", "textDocument/hover"),
        ("c3-lsp", "-->", "Sublime Text", "**error** -32603: boom"),
    ]
    initialize = c3.messages()[0].request
    assert initialize is not None and initialize.lang == "json"
    assert json.loads(initialize.body)["params"]["capabilities"]["workspace"]["applyEdit"] is True
    hover = c3.messages()[5].request
    assert hover is not None and hover.body == "<params with 90210 characters>"
    assert notes_of(c3) == ["stderr: panic: runtime error: index out of range"]
    assert arrows(json_server) == [
        ("Sublime Text", "->", "LSP-json", "initialize"),
        ("LSP-json", "-->", "Sublime Text", "result"),
    ]


def test_a_diagram_whose_comments_read_like_a_logs_marks_is_still_a_diagram():
    """`// Send: the order` is a comment in a diagram, not Zed's mark (which stands alone on
    its line, a message below it); a mark with no message under it is no log."""
    diagram = "// Send: the order\nShop -> Bank: charge\n// Receive:\nBank --> Shop: ok\n"
    assert detect(diagram).name == "swimlanes"


def test_eglot_events_buffer_of_its_first_versions_reads_its_lisp_values_as_json():
    """Eglot before jsonrpc.el wrote JSON: a header (`server-request (id:-100) DATE:`) and the
    message under it as the Lisp value it was decoded to, over several lines. It was read as
    swimlanes text, an error a line."""
    log = (
        "client-request (id:1) Tue Nov  5 15:16:05 2019:\n"
        '(:jsonrpc "2.0" :id 1 :method "initialize" :params\n'
        "          (:processId 42 :capabilities (:workspace (:applyEdit t))))\n\n"
        "server-reply (id:1) Tue Nov  5 15:16:06 2019:\n"
        '(:jsonrpc "2.0" :id 1 :result (:capabilities (:hoverProvider t)))\n\n'
        "server-request (id:-100) Tue Nov  5 15:16:06 2019:\n"
        '(:method "workspace/configuration" :id -100 :params\n'
        '         (:items [(:scopeUri nil :section "julia.format.indent")]) :jsonrpc "2.0")\n\n'
        "client-reply (id:-100) ERROR Tue Nov  5 15:16:06 2019:\n"
        '(:jsonrpc "2.0" :id -100 :result nil :error\n'
        '          (:code -32603 :message "Internal \\"error\\""))\n\n'
        "server-notification Tue Nov  5 15:16:07 2019:\n"
        '(:jsonrpc "2.0" :method "window/logMessage" :params (:type 3 :message :json-false))\n'
    )
    assert detect(log) is IMPORTERS["jsonrpc"]
    diagram = import_jsonrpc(log)
    assert arrows(diagram) == [
        ("Emacs", "->", "Server", "initialize"),
        ("Server", "-->", "Emacs", "result"),
        ("Server", "->", "Emacs", "workspace/configuration"),
        ("Emacs", "-->", "Server", '**error** -32603: Internal "error"'),
        ("Server", "->>", "Emacs", "window/logMessage"),
    ]
    asked = diagram.messages()[2].request
    assert asked is not None and json.loads(asked.body)["params"]["items"] == [
        {"scopeUri": None, "section": "julia.format.indent"}
    ]
    first = diagram.messages()[0].request
    assert first is not None
    assert json.loads(first.body)["params"]["capabilities"] == {"workspace": {"applyEdit": True}}


def test_a_record_that_cannot_be_read_is_kept_as_logged_in_a_note():
    """A line of a log that stands for a message it cannot be read as (clangd's summary cut
    short, a Lisp value trimmed by hand) is not lost: a note says what was logged."""
    log = (
        "I[10:00:00.000] <-- textDocument/hover(3)\nI[10:00:00.001] --> reply:textDocument/hover(\n"
    )
    diagram = import_jsonrpc(log)
    assert any("reply:textDocument/hover(" in note for note in notes_of(diagram))


def test_lisp_values_read_back_as_the_json_they_were_decoded_from():
    from volley.importers.lisp_values import read_lisp_value

    assert read_lisp_value('(:a 1 :b -2.5 :c "x\\ny" :d [] :e nil :f t :g :json-false)') == {
        "a": 1, "b": -2.5, "c": "x\ny", "d": [], "e": None, "f": True, "g": False,
    }  # fmt: skip
    assert read_lisp_value('[1 "two" (:three 3)]') == [1, "two", {"three": 3}]
    assert read_lisp_value("(1 2 3)") == [1, 2, 3]  # a list that is no property list
    for broken in ("(:a 1", "(:a 1]", ")", ""):
        with pytest.raises(ValueError):
            read_lisp_value(broken)


# --- vim-lsp's log ---------------------------------------------------------------------------


def _json_body(message) -> dict:
    payload = message.request or message.response
    return json.loads(payload.body)


def test_vim_lsp_log_pairs_each_request_by_the_answer_that_repeats_it():
    """vim-lsp logs a request before it numbers it (`["--->", 1, "ruff-server", {method,
    params, on_notification}]`); the server's answer repeats it as sent, id and all. Its own
    account of itself is left out; its errors and the server's stderr are notes."""
    text = (CASES / "vimlsp-ruff-11506.log").read_text(encoding="utf-8")
    assert detect(text).name == "jsonrpc"
    (diagram,), warnings = read_jsonrpc(text)
    assert warnings == []
    assert diagram.participants == ["vim-lsp", "ruff-server"]  # from clientInfo, the log
    assert arrows(diagram) == [
        ("vim-lsp", "->", "ruff-server", "initialize"),
        ("ruff-server", "-->", "vim-lsp", "result"),
        ("vim-lsp", "->>", "ruff-server", "initialized"),
        ("vim-lsp", "->>", "ruff-server", "workspace/didChangeConfiguration"),
        ("vim-lsp", "->>", "ruff-server", "textDocument/didOpen"),
        (
            "ruff-server",
            "->>",
            "vim-lsp",
            "textDocument/publishDiagnostics file:///home/jschmidt/tmp/repo/file.py",
        ),
        ("vim-lsp", "->", "ruff-server", "textDocument/codeAction"),
        ("ruff-server", "-->", "vim-lsp", "result"),
    ]
    initialize, _, initialized, *_, code_action, _ = diagram.messages()
    # the request as it went on the wire: its id and version, without vim-lsp's own keys
    assert _json_body(initialize)["id"] == 1 and _json_body(initialize)["jsonrpc"] == "2.0"
    assert _json_body(code_action)["id"] == 2
    assert "on_notification" not in code_action.request.body
    assert _json_body(initialized) == {"jsonrpc": "2.0", "method": "initialized", "params": {}}
    notes = [item.text for item in diagram.items if isinstance(item, Note)]
    assert notes[0].startswith(
        "s:on_stdout client option on_notification() error: "
        'Vim(let):E716: Key not present in Dictionary: "pylsp"'
    )
    assert notes[1].startswith("stderr: 0.019681s WARN ruff_server::server No workspace(s)")


def test_vim_lsp_log_of_2019_names_the_server_of_its_requests_by_number():
    """vim-lsp in 2019 logged a server's request as `["<---", 5, {…}]`, naming the server by
    its number only; a request with no answer in the log is numbered as vim-lsp numbers them,
    and the user hears that its id was counted, not logged."""
    text = (CASES / "vimlsp-texlab-426.log").read_text(encoding="utf-8")
    (diagram,), warnings = read_jsonrpc(text, filename="vim-lsp.log")
    assert diagram.participants == ["Vim", "texlab"]
    assert arrows(diagram) == [
        ("Vim", "->", "texlab", "textDocument/formatting"),
        ("texlab", "->", "Vim", "workspace/configuration"),
        ("Vim", "-->", "texlab", "**error** -32601: Method not found"),
    ]
    (warning,) = warnings
    assert (warning.filename, warning.line, warning.severity) == ("vim-lsp.log", 1, "warning")
    assert "numbered as vim-lsp numbers them" in warning.message
    notes = [item.text for item in diagram.items if isinstance(item, Note)]
    assert notes == ["no response to id 1 before the session ended"]


def _vim_lsp(*records: str) -> str:
    return "".join(f"Mon Mar 16 16:34:23 2026:{record}\n" for record in records)


def test_vim_lsp_request_with_no_answer_is_counted_on_from_the_one_before():
    text = _vim_lsp(
        '["--->",1,"ty",{"method":"textDocument/hover","on_notification":"---funcref---",'
        '"params":{"x":1}}]',
        '["<---",1,"ty",{"response":{"id":7,"jsonrpc":"2.0","result":null},'
        '"request":{"id":7,"jsonrpc":"2.0","method":"textDocument/hover","params":{"x":1}}}]',
        '["--->",1,"ty",{"method":"textDocument/didChange","params":{}}]',
        '["--->",1,"ty",{"method":"textDocument/hover","on_notification":"---funcref---",'
        '"params":{"x":2}}]',
    )
    assert detect(text).name == "jsonrpc"
    (diagram,), warnings = read_jsonrpc(text)
    assert warnings == []  # counted on from id 7, which the answer gave
    hover, _, did_change, second = diagram.messages()
    assert (_json_body(hover)["id"], _json_body(second)["id"]) == (7, 8)
    assert did_change.arrow == "->>" and "id" not in _json_body(did_change)
    notes = [item.text for item in diagram.items if isinstance(item, Note)]
    assert notes == ["no response to id 8 before the session ended"]


def test_vim_lsp_answers_out_of_order_find_their_requests_by_params():
    text = _vim_lsp(
        '["--->",1,"ty",{"method":"a","on_notification":"---funcref---","params":{"n":1}}]',
        '["--->",1,"ty",{"method":"a","on_notification":"---funcref---","params":{"n":2}}]',
        '["<---",1,"ty",{"response":{"id":4,"jsonrpc":"2.0","result":2},'
        '"request":{"id":4,"jsonrpc":"2.0","method":"a","params":{"n":2}}}]',
        '["<---",1,"ty",{"response":{"id":3,"jsonrpc":"2.0","result":1},'
        '"request":{"id":3,"jsonrpc":"2.0","method":"a","params":{"n":1}}}]',
    )
    (diagram,), _ = read_jsonrpc(text)
    first, second, *_ = diagram.messages()
    assert (_json_body(first)["id"], _json_body(second)["id"]) == (3, 4)
    # the answer that comes out of order says which id it shares with its request
    assert [m.label for m in diagram.messages()] == ["a", "a (id 4)", "result (id 4)", "result"]


def test_vim_lsp_log_of_two_servers_gives_a_diagram_each_and_a_cut_record_is_kept():
    text = _vim_lsp(
        '["--->",1,"pyright",{"method":"initialized","params":{}}]',
        '["--->",2,"ruff",{"method":"initialized","params":{}}]',
        '["<---",2,"ruff",{"response":{"method":"window/logMessage","jsonrpc":"2.0",',
    )
    (pyright, ruff), warnings = read_jsonrpc(text, filename="lsp.log")
    assert pyright.participants == ["Vim", "pyright"] and ruff.participants == ["Vim", "ruff"]
    (warning,) = warnings
    assert (warning.line, warning.severity) == (3, "warning")
    assert "not JSON" in warning.message
    (note,) = [item for item in ruff.items if isinstance(item, Note)]
    assert note.text.startswith("not JSON-RPC, as sent:") and note.over == ["ruff"]


def test_vim_lsp_log_is_sure_when_it_starts_with_a_record_less_when_quoted_in_a_page():
    """A bug report that quotes records after its own words scores 80, below Markdown's 100."""
    log = _vim_lsp('["lsp#register_server","server registered","ty"]') + _vim_lsp(
        '["--->",1,"ty",{"method":"x","params":{}}]'
    )
    assert jsonrpc.detect(log) == 100
    assert jsonrpc.detect("I see this in the log:\n\n" + log) == 80
    assert jsonrpc.detect(_vim_lsp('["Starting server","ty",["ty"]]')) == 0  # no message


def test_vim_lsp_counts_each_server_process_anew_and_fits_equal_requests_to_the_count():
    """vim-lsp numbers the requests of each process it starts from 1 (a restarted server
    counts again), and two requests alike take the ids of their places in that count."""
    hover = '"method":"textDocument/hover","on_notification":"---funcref---","params":{"p":1}'
    asked = '{"id":%d,"jsonrpc":"2.0","method":"textDocument/hover","params":{"p":1}}'
    text = _vim_lsp(
        '["--->",1,"ruff",{"method":"initialize","params":{}}]',
        '["<---",1,"ruff",{"response":{"id":1,"jsonrpc":"2.0","result":{}},'
        '"request":{"id":1,"jsonrpc":"2.0","method":"initialize","params":{}}}]',
        f'["--->",1,"ruff",{{{hover}}}]',
        f'["--->",1,"ruff",{{{hover}}}]',
        '["<---",1,"ruff",{"response":{"id":3,"jsonrpc":"2.0","result":null},"request":'
        + asked % 3
        + "}]",
        '["--->",2,"ruff",{"method":"initialize","params":{}}]',  # the server started again
        f'["--->",2,"ruff",{{{hover}}}]',
    )
    first, second = read_jsonrpc(text)[0]
    ids = [_json_body(m).get("id") for m in first.messages() if m.request]
    assert ids == [1, 2, 3]  # not 3 then 4, with a false "no response to id 4"
    assert [n.text for n in first.items if isinstance(n, Note)] == [
        "no response to id 2 before the session ended"
    ]
    assert [_json_body(m).get("id") for m in second.messages()] == [1, 2]  # counted anew


def test_vim_lsp_log_in_a_locale_whose_time_has_no_colons_and_odd_stderr():
    """glibc's `%c` in Chinese, Japanese or Korean writes no `10:14:57`; a stderr record
    may hold a number."""
    text = (
        '2024年06月03日 星期一 10时00分00秒:["--->",1,"ruff",'
        '{"method":"initialized","params":{}}]\n'
        '2024年06月03日 星期一 10时00分01秒:["<---(stderr)",1,"ruff",7]\n'
    )
    assert jsonrpc.detect(text) == 100
    (diagram,), _ = read_jsonrpc(text)
    assert arrows(diagram) == [("Vim", "->>", "ruff", "initialized")]
    assert [n.text for n in diagram.items if isinstance(n, Note)] == ["stderr: 7"]


def test_a_host_log_pasted_on_one_line_is_read_record_by_record():
    """A paste that lost its line breaks (a chat, an issue) runs records together: each is read
    from its time on, so no answer is dropped and then said never to have come."""
    lines = (CASES / "claude-desktop-ably.log").read_text().split("\n")
    joined = "\n".join([*lines[:2], " ".join(lines[2:4]) + " { metadata: undefined }", *lines[4:]])
    assert write(import_jsonrpc(joined)) == write(host_log())
    broken = (
        '2025-04-11T23:03:05.759Z [ably] [info] Message from client: {"jsonrpc":"2.0",'
        '"method":"prompts/list","id":1} 2025-04-11T23:03:05.760Z [ably] [info] Message from '
        'server: {"jsonrpc":"2.0","id":1,"result":{...}}\n'
    )
    diagrams, warnings = read_jsonrpc(broken, filename="mcp.log")
    apart, _ = read_jsonrpc(broken.replace("} 2025", "}\n2025"), filename="mcp.log")
    assert write(diagrams[0]) == write(apart[0])  # its message not JSON: a note, as logged
    (warning,) = warnings
    assert (warning.line, warning.message[:24]) == (1, "this message is not JSON")  # the file's
    assert broken[warning.column - 1 :].startswith("...}}")  # in the line as written
    # a record with no message between two (the host's own error), and records after one
    # whose message is not JSON, are each read
    stamp = "2025-04-11T23:03:05.7{}Z [ably] [{}] "
    line = " ".join(
        [
            stamp.format(60, "info") + 'Message from client: {"jsonrpc":"2.0","method":"a",'
            '"params":{...},"id":1}',
            stamp.format(61, "error") + "Server said something odd",
            stamp.format(62, "info") + 'Message from client: {"jsonrpc":"2.0","method":"b","id":2}',
        ]
    )
    diagrams, _ = read_jsonrpc(line + "\n")
    assert "error: Server said something odd" in write(diagrams[0])
    assert [label for *_, label in arrows(diagrams[0])] == ["b"]


def test_a_session_saved_as_one_json_array_is_read_message_by_message():
    """A JSON array over several lines holds a session's messages (or records of them with
    their direction); `[…]` on one line stays a batch."""
    saved = (
        "[\n"
        '  {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {}},\n'
        "  {\n"
        '    "jsonrpc": "2.0",\n'
        '    "id": 1,\n'
        '    "result": {"capabilities": {}, "serverInfo": {"name": "s"}}\n'
        "  },\n"
        '  {"direction": "send", "message": {"jsonrpc": "2.0", "method": "initialized"}}\n'
        "]\n"
    )
    found = detect(saved)
    assert found is not None and found.name == "jsonrpc"
    diagrams, _ = read_jsonrpc(saved)
    assert arrows(diagrams[0]) == [
        ("Client", "->", "s", "initialize"),
        ("s", "-->", "Client", "result"),
        ("Client", "->>", "s", "initialized"),
    ]
    answer = diagrams[0].messages()[1].response
    assert answer is not None and answer.body.split("\n")[:2] == ["{", '  "jsonrpc": "2.0",']
    tabbed, _ = read_jsonrpc("\ufeff" + saved.replace("  ", "\t"))  # indented with tabs
    assert tabbed[0].messages()[1].response.body.split("\n")[:2] == ["{", '\t"jsonrpc": "2.0",']
    with pytest.raises(VolleyError) as caught:
        read_jsonrpc('[\n  {"time": "22:33:18",\n   "msgKind": "send-request"}\n]\n', filename="x")
    assert (caught.value.line, caught.value.column) == (2, 3)
    assert caught.value.source_line == '  {"time": "22:33:18",'
    assert "no direction and message" in caught.value.message


def test_claudes_short_form_is_read_by_method_and_id():
    """Claude's mcp.log since 2026 writes `method="initialize" id=0 params` and `id=0 result`:
    every line was a note "not JSON-RPC", nothing paired."""
    diagram = import_jsonrpc((CASES / "claude-desktop-short-664.log").read_text())
    assert arrows(diagram) == [
        ("Client", "->", "obsidian-vault", "initialize"),
        ("obsidian-vault", "-->", "Client", "result"),
        ("Client", "->>", "obsidian-vault", "notifications/initialized"),
        ("Client", "->", "obsidian-vault", "tools/list"),
        ("obsidian-vault", "-->", "Client", "result"),
    ]
    assert not [m for m in diagram.messages() if m.request or m.response]  # nothing more kept
    failed = import_jsonrpc(
        '10:00:00.000Z [x] Message from client: method="tools/call" id="a1" params\n'
        '10:00:01.000Z [x] Message from server: id="a1" error\n'
    )
    assert arrows(failed)[1] == ("x", "-->", "Client", "**error**")


def test_claudes_short_form_with_its_metadata_and_the_servers_stderr_after_it():
    """Claude Desktop's per-server logs (2026) write ` { metadata: undefined }` after the short
    form: no message was read, each a note "not JSON-RPC", the sessions one diagram; a line of
    the server's stderr holding a `[` was read as the JSON of the message above it."""

    def said(time: str, side: str, what: str) -> str:
        return f"2026-07-31T15:07:{time}Z [jarvis-fs] [info] Message from {side}: {what} " \
            "{ metadata: undefined }\n"  # fmt: skip

    session = (
        said("22.145", "client", 'method="initialize" id=0 params')
        + said("30.777", "server", "id=0 result")
        + said("30.842", "client", 'method="notifications/initialized"')
        + "Client does not support MCP Roots, using allowed directories: [ 'D:\\\\Jarvis' ]\n"
        + said("30.882", "client", 'method="tools/list" id=1 params')
        + said("30.929", "server", "id=1 result")
    )
    nested = said("30.999", "client", 'method="ping" id=2 params').replace(
        "{ metadata: undefined }", "{ metadata: { sessionId: undefined } }"
    )
    found = jsonrpc.convert(session + nested + session, "mcp-server-jarvis-fs.log")
    assert len(found) == 2  # a session each
    assert arrows(parse(found[0].text)) == [
        ("Client", "->", "jarvis-fs", "initialize"),
        ("jarvis-fs", "-->", "Client", "result"),
        ("Client", "->>", "jarvis-fs", "notifications/initialized"),
        ("Client", "->", "jarvis-fs", "tools/list"),
        ("jarvis-fs", "-->", "Client", "result"),
        ("Client", "->", "jarvis-fs", "ping"),
    ]
    assert "MCP Roots" not in found[0].text
    # the server's own line is left out with a note that counts it (once in each session)
    assert [(w.severity, w.line) for w in found[0].warnings] == [("note", 4)]
    assert found[0].warnings[0].message.startswith("2 lines after the messages are none")


def test_the_bytes_mcp_carries_as_base64_are_described_not_kept():
    """A screenshot tool's 4.5 MB result made a 6 MB diagram that `volley render` refused,
    its table one unreadable row; the JSON around the bytes stays as written."""
    pixels = base64.b64encode(bytes(range(256)) * 40).decode()
    call = {"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": "shot"}}
    result = {
        "jsonrpc": "2.0",
        "id": 3,
        "result": {
            "content": [
                {"type": "image", "data": pixels, "mimeType": "image/png"},
                {"type": "text", "text": "data: kept"},
                {"type": "resource", "resource": {"uri": "f", "mimeType": "x/y", "blob": "QQ=="}},
            ]
        },
    }
    diagram = import_jsonrpc(f"{json.dumps(call)}\n{json.dumps(result)}")
    body = diagram.messages()[1].response.body
    assert pixels not in body
    assert '"data": "(10,240 bytes of image/png, base64, not shown)"' in body
    assert '"blob": "QQ=="' in body and "data: kept" in body  # a few bytes are shown as they are


def test_vs_code_lines_pasted_with_their_level_but_not_their_time_are_read():
    """An issue about sampling quotes VS Code's MCP channel as `[debug] [editor -> server] …`:
    "cannot tell what format this is" (without the level, or with the time, it was read)."""
    text = (
        '[debug] [editor -> server] {"jsonrpc":"2.0","id":1,"method":"tools/list","params":{}}\n'
        '[debug] [server -> editor] {"jsonrpc":"2.0","id":1,"result":{"tools":[]}}\n'
    )
    assert detect(text) is not None and detect(text).name == "jsonrpc"
    assert arrows(import_jsonrpc(text)) == [
        ("Client", "->", "Server", "tools/list"),
        ("Server", "-->", "Client", "result"),
    ]
    # the channel's own words so pasted: the server's name, and why the session failed
    said = import_jsonrpc(
        "[info] Starting server weather\n[info] Discovered 2 tools\n"
        + text
        + "[info] Connection state: Error Process exited with code 1\n"
    )
    assert arrows(said)[0][2] == "weather"
    assert [n.text for n in said.items if isinstance(n, Note)] == [
        "Connection state: Error Process exited with code 1"
    ]


def test_bare_json_lines_send_progress_to_its_token_and_answers_back_to_the_latest_asker():
    """Bare JSON Lines (no side written): MCP's progress went from the client, though it
    goes to whoever gave its token; and when both sides asked with id 1 (each counts its own),
    the server's answer to the client's `tools/call` went back to the server."""
    lines = [
        {"id": 1, "method": "tools/call", "params": {"name": "t", "_meta": {"progressToken": 7}}},
        {"method": "notifications/progress", "params": {"progressToken": 7, "progress": 1}},
        {"id": 1, "method": "sampling/createMessage", "params": {"messages": []}},
        {"id": 1, "result": {"role": "assistant"}},
        {"method": "notifications/cancelled", "params": {"requestId": 1}},
        {"id": 1, "result": {"content": []}},
    ]
    text = "\n".join(json.dumps({"jsonrpc": "2.0", **line}) for line in lines)
    assert [arrow[:3] for arrow in arrows(import_jsonrpc(text))] == [
        ("Client", "->", "Server"),
        ("Server", "->>", "Client"),
        ("Server", "->", "Client"),
        ("Client", "-->", "Server"),
        ("Client", "->>", "Server"),  # the cancel: from who asked the call still waiting
        ("Server", "-->", "Client"),
    ]
    # both waiting on id 1 (a user's stop while the server samples): the client cancels
    both = [lines[0], lines[2], {"method": "notifications/cancelled", "params": {"requestId": 1}}]
    text = "\n".join(json.dumps({"jsonrpc": "2.0", **line}) for line in both)
    assert arrows(import_jsonrpc(text))[2][:3] == ("Client", "->>", "Server")


def test_what_the_output_channel_wrote_between_trace_records_is_a_note_over_the_server():
    """The words of each `window/logMessage` (the command Black ran, "All done! ✨ 🍰 ✨") were
    on the channel's lines after its record, and were lost without a word."""
    diagram = import_jsonrpc((CASES / "vscode-lsnode-logmessage-1367.log").read_text())
    notes = [item for item in diagram.items if isinstance(item, Note) and item.over == ["Server"]]
    assert len(notes) == 3 and "python.exe -m black --stdin-filename" in notes[0].text
    assert notes[1].text.startswith("CWD formatter:")
    assert notes[2].text.startswith("All done! ✨ 🍰 ✨")
    assert "1 file left unchanged." in notes[2].text
    logged = [m.label for m in diagram.messages()].count("window/logMessage")
    assert logged == 3


def test_lsp_modes_nil_for_a_method_it_lost_is_no_method():
    """Emacs lsp-mode logs `Received response 'nil - (14)'` for a request it lost track of:
    the arrow read "nil result"."""
    trace = "[Trace - 02:33:12 AM] Received response 'nil - (14)' in 0ms.\nResult: null\n"
    (answer,) = import_jsonrpc(trace).messages()
    assert answer.label.startswith("result (id 14")


def test_a_servers_own_output_in_a_host_log_is_said_to_be_left_out():
    """Claude Desktop's `mcp-server-NAME.log` holds what the server writes to its standard
    error among the messages (Python's logging lines); they were dropped without a word."""
    stderr = [
        "2026-03-17 17:02:22 - mcp.server.lowlevel.server - INFO - Processing request",
        '2026-03-17 17:02:22 - httpx - INFO - HTTP Request: POST http://localhost/mcp "200"',
    ]
    log = [
        '2026-03-17T21:02:22.693Z [demo] [info] Message from client: {"method":"tools/list",'
        '"params":{},"jsonrpc":"2.0","id":1} { metadata: undefined }',
        *stderr,
        "",
        '2026-03-17T21:02:23.482Z [demo] [info] Message from server: {"jsonrpc":"2.0","id":1,',
        '  "result":{"tools":[]}}',
        "{ metadata: undefined }",
        "==> mcp.log <==",
    ]
    (item,) = convert("\n".join(log), "mcp-server-demo.log")
    (note,) = item.warnings
    assert (note.severity, note.line, note.column) == ("note", 2, 1)
    assert note.message.startswith("2 lines after the messages are none of them")
    # Claude Desktop's own suffix and tail's header are no output of the server
    (quiet,) = convert("\n".join(line for line in log if line not in stderr), "demo.log")
    assert quiet.warnings == ()
    # after a message over several lines and its suffix on a line of its own: the line after
    after = [*(line for line in log[:-1] if line not in stderr), stderr[0]]
    (late,) = convert("\n".join(after), "mcp-server-demo.log")
    assert [(w.line, w.source_line) for w in late.warnings] == [(len(after), stderr[0])]
