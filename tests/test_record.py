"""`volley record -- CMD`: end to end, a scripted client talking through volley to a small
JSON-RPC server written for the test. The relay must be byte-exact both ways and answer
line by line; the diagram pairs requests with responses by id."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from volley.language.parser import parse
from volley.model import Note

# A JSON-RPC server over stdio: answers requests (initialize with its name), says nothing to
# notifications, logs to stderr, keeps a copy of every byte it read and wrote, and exits 3.
SERVER = textwrap.dedent(
    """
    import json, sys
    seen = open(sys.argv[1], "wb")
    said = open(sys.argv[2], "wb")
    def send(data):
        sys.stdout.buffer.write(data)
        sys.stdout.buffer.flush()
        said.write(data)
    for line in sys.stdin.buffer:
        seen.write(line)
        seen.flush()
        try:
            message = json.loads(line)
        except ValueError:
            sys.stderr.write("server: not JSON\\n")
            continue
        if "id" not in message:
            send(b'{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"noted"}}\\n')
            continue
        if message["method"] == "initialize":
            result = {"serverInfo": {"name": "weather", "version": "1.0"}, "capabilities": {}}
        else:
            result = {"content": [{"type": "text", "text": "72\\u00b0F \\u2600"}], "isError": False}
        answer = {"jsonrpc": "2.0", "id": message["id"], "result": result}
        send((json.dumps(answer, ensure_ascii=False) + "\\r\\n").encode())
    sys.stderr.write("server: bye\\n")
    said.close()
    sys.exit(3)
    """
)

CLIENT_LINES = [
    b'{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"clientInfo":{"name":"claude-ai","version":"0.1.0"}}}\n',
    b'{"jsonrpc":"2.0","method":"notifications/initialized"}\n',
    b"this is not json\n",
    b'{"jsonrpc":"2.0","id":"call-1","method":"tools/call","params":{"name":"get_forecast","arguments":{"city":"Paris","token":"ghp_abcdefghijklmnopqrstuvwxyz0123456789"}}}\n',
]


@pytest.fixture
def session(tmp_path: Path):
    """Run a scripted client through `volley record`; return what each side saw."""
    server = tmp_path / "server.py"
    server.write_text(SERVER)
    seen, said, output = tmp_path / "seen.bin", tmp_path / "said.bin", tmp_path / "flow.volley"
    volley = subprocess.Popen(
        [sys.executable, "-m", "volley", "record", "-o", str(output), "--",
         sys.executable, str(server), str(seen), str(said)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        bufsize=0,
    )  # fmt: skip
    assert volley.stdin is not None and volley.stdout is not None
    received = []

    def send(line: bytes) -> None:
        try:
            volley.stdin.write(line)
        except BrokenPipeError:
            pytest.fail(f"volley stopped reading: {volley.stderr.read().decode()}")

    # Line by line: each answer must come back before the next request is sent.
    send(CLIENT_LINES[0])
    received.append(volley.stdout.readline())
    for line in CLIENT_LINES[1:3]:
        send(line)
    received.append(volley.stdout.readline())  # the server's notification
    send(CLIENT_LINES[3])
    received.append(volley.stdout.readline())
    volley.stdin.close()
    received.append(volley.stdout.read())  # nothing more
    errors = volley.stderr.read().decode()
    code = volley.wait(timeout=60)
    return {
        "received": received,
        "seen": seen.read_bytes(),
        "said": said.read_bytes(),
        "stderr": errors,
        "code": code,
        "text": output.read_text(encoding="utf-8"),
    }


def test_the_relay_is_byte_exact_both_ways(session):
    assert session["seen"] == b"".join(CLIENT_LINES)
    assert b"".join(session["received"]) == session["said"]
    assert session["received"][0].endswith(b"\r\n")  # CRLF and UTF-8 as the server sent them
    assert "72°F ☀".encode() in session["received"][2]


def test_stderr_passes_through_and_the_exit_code_is_the_commands(session):
    assert "server: not JSON\n" in session["stderr"]
    assert "server: bye\n" in session["stderr"]
    assert session["code"] == 3
    wrote = next(line for line in session["stderr"].splitlines() if "record: wrote" in line)
    drawn = len(parse(session["text"]).messages())  # the arrows the diagram has
    assert wrote.endswith(f"({drawn} messages)"), wrote


def test_the_diagram_pairs_requests_and_responses(session):
    diagram = parse(session["text"])
    assert diagram.participants == ["claude-ai", "weather"]
    assert [(m.sender, m.arrow, m.receiver, m.label) for m in diagram.messages()] == [
        ("claude-ai", "->", "weather", "initialize"),
        ("weather", "-->", "claude-ai", "result"),
        ("claude-ai", "->>", "weather", "notifications/initialized"),
        ("weather", "->>", "claude-ai", "notifications/message"),
        ("claude-ai", "->", "weather", "tools/call get_forecast"),
        ("weather", "-->", "claude-ai", "result"),
    ]
    call = diagram.messages()[4]
    assert call.request is not None and call.request.lang == "json"
    assert json.loads(call.request.body)["params"]["arguments"]["city"] == "Paris"


def test_malformed_lines_are_noted(session):
    diagram = parse(session["text"])
    notes = [item for item in diagram.items if isinstance(item, Note)]
    assert [note.over for note in notes] == [["claude-ai"]]
    assert notes[0].text == "not JSON-RPC, as sent: this is not json"


def test_secrets_are_masked_in_the_diagram_not_in_the_relay(session):
    assert b"ghp_abcdefghijklmnopqrstuvwxyz0123456789" in session["seen"]
    assert "ghp_" not in session["text"]
    assert '"token":"<redacted>"' in session["text"]
    assert "masked 1 secret-looking value" in session["stderr"]


def test_a_command_that_does_not_exist(tmp_path):
    done = subprocess.run(
        [sys.executable, "-m", "volley", "record", "-o", str(tmp_path / "x.volley"), "--",
         str(tmp_path / "no-such-program")],
        input=b"",
        capture_output=True,
    )  # fmt: skip
    assert done.returncode == 127
    assert done.stderr.decode().startswith("volley record: error: cannot run ")
    assert not (tmp_path / "x.volley").exists()


def recording(output: Path, server: Path, *arguments: Path) -> tuple[subprocess.Popen, bytes]:
    """`volley record -o OUTPUT` in front of a Python server, sent the client's first line;
    the running volley and the first line it relayed back."""
    volley = subprocess.Popen(
        [sys.executable, "-m", "volley", "record", "-o", str(output), "--",
         sys.executable, str(server), *map(str, arguments)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )  # fmt: skip
    assert volley.stdin is not None and volley.stdout is not None
    volley.stdin.write(CLIENT_LINES[0])
    volley.stdin.flush()
    return volley, volley.stdout.readline()


def test_sigterm_reaches_the_server_and_the_diagram_is_still_written(tmp_path):
    """Hosts stop a server with SIGTERM: volley passes it on and writes what it saw."""
    server = tmp_path / "server.py"
    server.write_text(SERVER)
    output = tmp_path / "flow.volley"
    volley, answer = recording(output, server, tmp_path / "seen", tmp_path / "said")
    assert answer.startswith(b'{"jsonrpc": "2.0", "id": 0')
    volley.send_signal(signal.SIGTERM)
    assert volley.wait(timeout=60) == 128 + signal.SIGTERM
    diagram = parse(output.read_text(encoding="utf-8"))
    assert [m.label for m in diagram.messages()] == ["initialize", "result"]


def record_run(tmp_path: Path, output: str, lines: list[bytes]) -> subprocess.CompletedProcess:
    """`volley record -o OUTPUT` in front of the test's server, fed `lines` at once."""
    server = tmp_path / "server.py"
    server.write_text(SERVER)
    return subprocess.run(
        [sys.executable, "-m", "volley", "record", "-o", output, "--",
         sys.executable, str(server), str(tmp_path / "seen.bin"), str(tmp_path / "said.bin")],
        input=b"".join(lines),
        capture_output=True,
        timeout=60,
    )  # fmt: skip


def test_the_folder_of_the_output_is_made_before_the_session(tmp_path):
    """A folder that did not exist lost the whole session when it ended ("cannot write"),
    and volley exited 1 instead of with the server's code."""
    output = tmp_path / "sessions" / "today" / "flow.volley"
    done = record_run(tmp_path, str(output), CLIENT_LINES[:1])
    assert done.returncode == 3, done.stderr  # the server's
    diagram = parse(output.read_text(encoding="utf-8"))
    assert [m.label for m in diagram.messages()][:1] == ["initialize"]


def test_stdout_is_no_place_for_the_diagram(tmp_path):
    """`-o -` wrote a file called "-": stdout carries the session; `-o FOLDER` was found out
    only when the session had ended, and lost it."""
    done = record_run(tmp_path, "-", CLIENT_LINES[:1])
    assert done.returncode == 2 and b"stdout carries the session" in done.stderr
    assert not (tmp_path / "seen.bin").exists() and not (tmp_path / "-").exists()
    (tmp_path / "sessions").mkdir()
    folder = record_run(tmp_path, str(tmp_path / "sessions"), CLIENT_LINES[:1])
    assert folder.returncode == 2 and b"is a folder" in folder.stderr
    assert not (tmp_path / "seen.bin").exists()
    picture = record_run(tmp_path, str(tmp_path / "session.svg"), CLIENT_LINES[:1])
    assert picture.returncode == 2 and b"-o " in picture.stderr
    assert b"names a .svg file, but this writes .volley text" in picture.stderr
    assert not (tmp_path / "seen.bin").exists() and not (tmp_path / "session.svg").exists()


def test_a_client_and_a_server_named_alike_but_for_case_are_two_lanes(tmp_path):
    """The recording was written its own way: the lanes `volley import` keeps apart by case
    (`weather` and `Weather`) were one, talking to itself."""
    initialize = CLIENT_LINES[0].replace(b'"name":"claude-ai"', b'"name":"Weather"')
    output = tmp_path / "flow.volley"
    done = record_run(tmp_path, str(output), [initialize])
    assert done.returncode == 3, done.stderr
    diagram = parse(output.read_text(encoding="utf-8"))
    assert len(diagram.participants) == 2, output.read_text(encoding="utf-8")


ECHO_UNTIL_CTRL_C = """
import sys
try:
    for line in sys.stdin:
        sys.stdout.write(line)
        sys.stdout.flush()
except KeyboardInterrupt:  # stopped as a server may choose to be: its own status
    sys.exit(1)
"""


def test_ctrl_c_reaches_the_server_and_volley_exits_with_its_status(tmp_path):
    """Ctrl-C is the session's: the server gets it, the diagram is written, and volley exits
    with the server's status (not 130, which a command of volley's own exits with)."""
    server = tmp_path / "echo.py"
    server.write_text(ECHO_UNTIL_CTRL_C)
    output = tmp_path / "flow.volley"
    volley, answer = recording(output, server)
    assert answer == CLIENT_LINES[0]  # the server is up and reading
    volley.send_signal(signal.SIGINT)
    assert volley.wait(timeout=60) == 1
    said = parse(output.read_text(encoding="utf-8")).messages()
    assert said[0].label == "initialize"  # the client's, then the echo of it
