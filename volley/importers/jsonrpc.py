"""JSON-RPC sessions as diagrams: what `volley record` saw, and the logs people already have.

A session is the messages two sides sent each other, in the order they were seen. Requests
and their responses are paired by `id` (a response answers the request with its id from the
other side), notifications are asynchronous arrows, and each message, as it was sent, is its
arrow's payload. For MCP the lanes take the names the two sides give in `initialize`
(`clientInfo.name`, `serverInfo.name`).

Logs read by `volley import`:

- MCP hosts' logs (Claude Desktop's `mcp-server-NAME.log` / `mcp.log`), a line per message:
  `2025-04-11T23:03:05.759Z [ably] [info] Message from client: {"method": ...}` (the
  level and the server's name in brackets, either order; a message may run over several
  lines, and be followed by `{ metadata: undefined }`).
- JSON Lines, an object a line: the message under `message` (or `msg`, `data`, `payload`)
  and its direction under `direction` (or `dir`, `from`, `source`): `send`/`recv`,
  `client`/`server`, `client_to_server`, `outgoing`/`incoming`, `request`/`response` …
- JSON Lines of bare JSON-RPC messages: the side that sends `initialize` is the client,
  a response goes back the way its request came, and MCP's server-initiated methods
  (`sampling/…`, `roots/list`, `elicitation/…`, `notifications/message`, …) come from the server.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, Literal

from volley.errors import VolleyError
from volley.importers import Imported
from volley.importers.labels import label, lane_name
from volley.importers.traffic import TrafficOptions, imported
from volley.model import Diagram, Item, Message, Note, Payload

__all__ = ["Sent", "convert", "detect", "import_jsonrpc", "session_diagram"]

Side = Literal["client", "server"]
_OTHER: dict[Side, Side] = {"client": "server", "server": "client"}


@dataclass(frozen=True)
class Sent:
    """One line one side sent: the text as sent (a JSON-RPC message, or anything else)."""

    sender: Side
    text: str


# --- The session as a diagram -----------------------------------------------------------------

NOTE_CHARS = 300  # a malformed line is quoted in a note up to this many characters


def _key(message_id: Any) -> str:
    return json.dumps(message_id, sort_keys=True)


def _parsed(text: str) -> list[dict] | None:
    """The JSON-RPC messages a line holds (a batch holds several), or None if it holds none."""
    try:
        value = json.loads(text)
    except (ValueError, RecursionError):
        return None
    values = value if isinstance(value, list) else [value]
    if not values or not all(isinstance(v, dict) and ("method" in v or "id" in v) for v in values):
        return None
    return values


def _request_label(message: dict) -> str:
    """`tools/call get_forecast`, `resources/read ably://…`: the method and what it names."""
    method = str(message.get("method"))
    params = message.get("params")
    subject = (params.get("name") or params.get("uri")) if isinstance(params, dict) else None
    return label(f"{method} {subject}" if isinstance(subject, str) and subject else method)


def _response_label(message: dict) -> str:
    error = message.get("error")
    if isinstance(error, dict):
        code = error.get("code")
        text = str(error.get("message") or "")
        return (
            "**error**"
            + (f" {label(str(code))}" if code is not None else "")
            + (f": {label(text)}" if text else "")
        )
    result = message.get("result")
    if isinstance(result, dict) and result.get("isError") is True:
        return "**error** result (isError)"
    return "result"


def session_diagram(
    sent: Iterable[Sent],
    options: TrafficOptions | None = None,
    client: str | None = None,
    server: str | None = None,
) -> Diagram:
    """The diagram of a session: its lines in order, requests paired with their responses."""
    options = options or TrafficOptions()
    sent = list(sent)
    found = _names(sent)
    names: dict[Side, str] = {
        "client": client or found["client"] or "Client",
        "server": server or found["server"] or "Server",
    }
    lanes: dict[Side, str] = {
        side: lane_name(options.names.get(name) or name) for side, name in names.items()
    }
    if lanes["client"] == lanes["server"]:
        lanes["server"] += " (server)"
    items: list[Item] = []
    waiting: dict[tuple[Side, str], Message] = {}  # (who asked, id) → the request
    for line in sent:
        here, there = lanes[line.sender], lanes[_OTHER[line.sender]]
        messages = _parsed(line.text)
        if messages is None:
            if line.text.strip():
                quoted = label(f"not JSON-RPC, relayed as sent: {line.text}", NOTE_CHARS)
                items.append(Note(0, [here], quoted))
            continue
        for message in messages:
            text = line.text if len(messages) == 1 else json.dumps(message, ensure_ascii=False)
            if "method" in message and "id" in message:
                payload = Payload("Request", "json", text, "fenced")
                request = Message(0, here, there, "->", _request_label(message), request=payload)
                waiting[(line.sender, _key(message["id"]))] = request
                items.append(request)
            elif "method" in message:
                payload = Payload("Notification", "json", text, "fenced")
                items.append(
                    Message(0, here, there, "->>", _request_label(message), request=payload)
                )
            else:
                items.append(_response(message, text, here, there, waiting, line.sender))
    for (_, message_id), request in waiting.items():
        at = items.index(request) + 1
        note = label(f"no response to id {message_id} before the session ended", NOTE_CHARS)
        items.insert(at, Note(0, [request.sender, request.receiver], note, attached=True))
    return Diagram(participants=[lanes["client"], lanes["server"]], items=items)


def _response(
    message: dict,
    text: str,
    here: str,
    there: str,
    waiting: dict[tuple[Side, str], Message],
    sender: Side,
) -> Message:
    """A response, paired with the request it answers by id. When it answers one that is not
    the oldest still waiting (answers out of order), both say which id they share, since a
    reader (and the viewer) would otherwise pair them first come, first answered."""
    message_id = _key(message.get("id"))
    asked = [key for key in waiting if key[0] == _OTHER[sender]]
    request = waiting.pop((_OTHER[sender], message_id), None)
    words = _response_label(message)
    if request is None:
        words += " " + label(f"(id {message_id}: no request seen)")
    elif asked[0] != (_OTHER[sender], message_id):
        request.label += " " + label(f"(id {message_id})")
        words += " " + label(f"(id {message_id})")
    payload = Payload("Error" if "error" in message else "Response", "json", text, "fenced")
    return Message(0, here, there, "-->", words, response=payload)


def _names(sent: list[Sent]) -> dict[Side, str | None]:
    """The names the two sides give in MCP's `initialize` request and its result."""
    names: dict[Side, str | None] = {"client": None, "server": None}
    asked: set[str] = set()
    for line in sent:
        for message in _parsed(line.text) or []:
            params = message.get("params")
            if message.get("method") == "initialize" and isinstance(params, dict):
                info = params.get("clientInfo")
                if isinstance(info, dict) and isinstance(info.get("name"), str):
                    names["client"] = info["name"]
                asked.add(_key(message.get("id")))
            result = message.get("result")
            if (
                "method" not in message
                and _key(message.get("id")) in asked
                and isinstance(result, dict)
            ):
                info = result.get("serverInfo")
                if isinstance(info, dict) and isinstance(info.get("name"), str):
                    names["server"] = info["name"]
    return names


# --- Logs -------------------------------------------------------------------------------------

_HOST_LINE = re.compile(r"^(?P<head>.*?)\bMessage from (?P<side>client|server):[ \t]*(?P<rest>.*)$")
_BRACKET = re.compile(r"\[([^\]\n]{1,80})\]")
_LEVELS = frozenset({"info", "error", "warn", "warning", "debug", "trace", "notice"})
_LOG_START = re.compile(r"^\d{4}-\d\d-\d\dT|^\[\d")  # where the next log record begins

_DIRECTION_KEYS = ("direction", "dir", "from", "source", "sender")
_MESSAGE_KEYS = ("message", "msg", "data", "payload", "json", "content")
_FROM_CLIENT = frozenset(
    {"send", "sent", "out", "outgoing", "outbound", "client", "client_to_server",
     "client->server", "c2s", "to_server", "request", "tx", ">", "->", "→"}
)  # fmt: skip
_FROM_SERVER = frozenset(
    {"recv", "received", "receive", "in", "incoming", "inbound", "server", "server_to_client",
     "server->client", "s2c", "to_client", "from_server", "response", "rx", "<", "<-", "←"}
)  # fmt: skip
# MCP methods only a server sends (everything else without a direction is taken as the client's)
_SERVER_METHODS = (
    "sampling/", "roots/list", "elicitation/", "notifications/message",
    "notifications/resources/", "notifications/tools/", "notifications/prompts/",
)  # fmt: skip


def _host_log(text: str) -> tuple[list[Sent], str | None]:
    """The messages of an MCP host's log, and the server name its brackets give."""
    lines = text.split("\n")
    sent: list[Sent] = []
    server = None
    decoder = json.JSONDecoder()
    for index, line in enumerate(lines):
        match = _HOST_LINE.match(line)
        if not match:
            continue
        for word in _BRACKET.findall(match["head"]):
            if word.strip().lower() not in _LEVELS and server is None:
                server = word.strip()
        following = []
        for more in lines[index + 1 :]:
            if _LOG_START.match(more) or _HOST_LINE.match(more):
                break
            following.append(more)
        rest = "\n".join([match["rest"], *following])
        start = min((i for i in (rest.find("{"), rest.find("[")) if i >= 0), default=-1)
        try:
            _, end = decoder.raw_decode(rest, start) if start >= 0 else (None, -1)
        except ValueError:
            end = -1
        text_sent = rest[start:end] if end > 0 else match["rest"].strip()
        sent.append(Sent(match["side"], text_sent))  # type: ignore[arg-type]
    return sent, server


def _direction(record: dict) -> Side | None:
    for key in _DIRECTION_KEYS:
        value = record.get(key)
        if isinstance(value, str):
            word = value.strip().lower()
            if word in _FROM_CLIENT:
                return "client"
            if word in _FROM_SERVER:
                return "server"
    return None


def _json_lines(text: str, filename: str | None) -> list[Sent]:
    """JSON Lines of messages with their direction, or of bare JSON-RPC messages."""
    sent: list[Sent] = []
    asked: dict[str, Side] = {}
    for number, line in enumerate(text.split("\n"), start=1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except ValueError:
            raise VolleyError(
                "this JSON Lines log has a line that is not JSON",
                filename=filename,
                line=number,
                column=1,
                source_line=line[:200],
            ) from None
        if isinstance(record, dict) and "jsonrpc" not in record:
            side = _direction(record)
            body = next((record[k] for k in _MESSAGE_KEYS if k in record), None)
            if side is None or body is None:
                raise VolleyError(
                    "this JSON Lines log line has no direction and message that volley knows",
                    filename=filename,
                    line=number,
                    column=1,
                    source_line=line[:200],
                    hint=f"expected a direction under one of {', '.join(_DIRECTION_KEYS)} and "
                    f"the message under one of {', '.join(_MESSAGE_KEYS)}",
                )
            message = body if isinstance(body, str) else json.dumps(body, ensure_ascii=False)
            sent.append(Sent(side, message))
            continue
        sent.append(Sent(_guessed_side(record, asked), line.strip()))
    return sent


def _guessed_side(record: Any, asked: dict[str, Side]) -> Side:
    """Who sent a bare message: a response goes back to whoever asked; a request is the
    client's unless only a server sends that method."""
    first = record[0] if isinstance(record, list) and record else record
    if not isinstance(first, dict):
        return "client"
    method = first.get("method")
    if isinstance(method, str):
        side: Side = "server" if method.startswith(_SERVER_METHODS) else "client"
        if "id" in first:
            asked[_key(first["id"])] = side
        return side
    return _OTHER[asked.get(_key(first.get("id")), "client")]


def detect(text: str) -> int:
    """100 for an MCP host's log; 90 for JSON Lines of JSON-RPC messages (with a direction)."""
    if "Message from client:" in text or "Message from server:" in text:
        return 100 if any(_HOST_LINE.match(line) for line in text.split("\n", 2000)) else 0
    first = next((line for line in text.split("\n", 50) if line.strip()), "")
    try:
        record = json.loads(first)
    except ValueError:
        return 0
    if isinstance(record, dict) and record.get("jsonrpc") == "2.0":
        return 90
    if isinstance(record, dict) and _direction(record) and any(k in record for k in _MESSAGE_KEYS):
        return 90
    return 0


def import_jsonrpc(
    text: str | bytes, options: TrafficOptions | None = None, filename: str | None = None
) -> Diagram:
    """The diagram of a JSON-RPC log (an MCP host's log, or JSON Lines)."""
    if isinstance(text, bytes):
        text = text.decode("utf-8-sig", errors="replace")
    text = text.removeprefix("\ufeff").replace("\r\n", "\n")
    if "Message from client:" in text or "Message from server:" in text:
        sent, server = _host_log(text)
        return session_diagram(sent, options, server=server)
    return session_diagram(_json_lines(text, filename), options)


def convert(
    text: str, filename: str | None = None, options: TrafficOptions | None = None
) -> list[Imported]:
    """`volley import` of a JSON-RPC log: one diagram, its secrets masked unless asked not to."""
    options = options or TrafficOptions()
    return [imported(import_jsonrpc(text, options, filename), options)]
