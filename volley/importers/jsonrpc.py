"""JSON-RPC sessions as diagrams: what `volley record` saw, and the logs people already have.

A session is the messages two sides sent each other, in the order they were seen. Requests
and their responses are paired by `id` (a response answers the request with its id from the
other side), notifications are asynchronous arrows, and each message, as it was sent, is its
arrow's payload (from a trace: the message put back together from what the trace logged).
For MCP and LSP the lanes take the names the two sides give in `initialize`
(`clientInfo.name`, `serverInfo.name`).

Logs read by `volley import`:

- MCP hosts' logs (Claude Desktop's `mcp-server-NAME.log` / `mcp.log`), a line per message:
  `2025-04-11T23:03:05.759Z [ably] [info] Message from client: {"method": ...}` (the
  level and the server's name in brackets, either order; a message may run over several
  lines, and be followed by `{ metadata: undefined }`).
- VS Code's Output channel of an MCP server (`MCP: NAME`, at the Debug or Trace level):
  `2026-07-24 02:03:14.089 [debug] [editor -> server] {"jsonrpc": ...}` and
  `[server -> editor]` (`[Client Says]` and `[Server Says]` in VS Code's first versions with
  MCP); `Starting server NAME` names the server's lane.
- Neovim's LSP log (`lsp.log`, at the debug level), where each message is a Lua table:
  `[DEBUG][2025-10-14 09:04:17] …/lsp/log.lua:151 "rpc.send" { id = 1, jsonrpc = "2.0" … }`,
  the fields apart by tabs (`rpc.send` is the editor's, `rpc.receive` the server's), read back
  as the JSON it was.
- JSON Lines, an object a line: the message under `message` (or `msg`, `data`, `payload`)
  and its direction under `direction` (or `dir`, `from`, `source`): `send`/`recv`,
  `client`/`server`, `client_to_server`, `outgoing`/`incoming`, `request`/`response` …
- JSON Lines of bare JSON-RPC messages: the side that sends `initialize` is the client,
  a response goes back the way its request came, and MCP's server-initiated methods
  (`sampling/…`, `roots/list`, `elicitation/…`, `notifications/message`, …) and LSP's
  (`workspace/configuration`, `textDocument/publishDiagnostics`, `window/showMessage`, …)
  come from the server.
- Helix's log (`helix.log`, with `-v`): `… helix_lsp::transport [INFO] rust-analyzer -> {…}`
  (`<-` the server's answer, `err <-` a line of its stderr, a note), a diagram for each server.
- The logs of other editors and servers, each line marked with who sent it: Eglot's, clangd's,
  Zed's, Puppeteer's (see `volley.importers.editor_logs`).
- Language Server Protocol sessions as people share them: VS Code's trace of a language
  client (`"<server>.trace.server": "verbose"`, "compact" or "messages"), a record per message,
  `[Trace - 10:20:04 AM] Sending request 'initialize - (0)'.` then its `Params:`/`Result:`/
  `Error data:` block; and a raw stdio capture, `Content-Length: N` framed messages, each
  side inferred as for bare JSON Lines.
"""

from __future__ import annotations

import json
import re
import textwrap
from collections import defaultdict, deque
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field, replace
from typing import Any

from volley.errors import Diagnostic, VolleyError, VolleyErrors
from volley.importers import Imported, part_name
from volley.importers.editor_logs import marked_log, read_marked_log, started_server
from volley.importers.labels import (
    cut_body,
    label,
    lane_name,
    note_text,
    rpc_request_label,
    rpc_response_label,
)
from volley.importers.log_records import (
    Sent,
    Side,
    compact,
    cut_short,
    is_message,
    log_records,
    not_json,
    record_texts,
    unreadable,
)
from volley.importers.lua_values import LuaValueError, read_lua_value
from volley.importers.traffic import TrafficOptions, imported
from volley.importers.vim_lsp import read_vim_lsp_log, vim_lsp_score
from volley.model import Diagram, Item, Message, Note, Payload

__all__ = ["Sent", "convert", "detect", "import_jsonrpc", "read_jsonrpc", "session_diagram"]

_OTHER: dict[Side, Side] = {"client": "server", "server": "client"}


# --- The session as a diagram -----------------------------------------------------------------

NOTE_CHARS = 300  # a malformed line is quoted in a note up to this many characters
NOTE_LINES = 24  # a server's words on its stderr (a traceback) keep this many lines of a note


def _stderr(said: str) -> str:
    """What a server wrote on its stderr: JSON on one line, other text in its own lines (a
    traceback's), without blank ones."""
    if "\n" not in said.strip():
        return compact(said)
    return "\n".join(line.rstrip() for line in said.strip().split("\n") if line.strip())


def _remark(text: str) -> str:
    """A note of what a log said beside the messages, each of its lines a label's length at
    most; past `NOTE_LINES` lines its first and its last (a traceback ends with what failed)."""
    lines = text.split("\n")
    if len(lines) > NOTE_LINES:
        half = NOTE_LINES // 2
        lines = [*lines[:half], f"… {len(lines) - 2 * half} more lines …", *lines[-half:]]
    return note_text([label(line, NOTE_CHARS) for line in lines])


def _key(message_id: Any) -> str:
    return json.dumps(message_id, sort_keys=True)


def _elements(text: str) -> list[Any] | None:
    """What a line holds: its JSON-RPC message, or a batch's elements, each a message or not
    (a server answers each element of a batch on its own, JSON-RPC 2.0 section 6); None if
    it holds no message at all."""
    try:
        value = json.loads(text)
    except (ValueError, RecursionError):
        return None
    values = value if isinstance(value, list) else [value]
    return values if any(is_message(v) for v in values) else None


def _element_texts(text: str, count: int) -> list[str]:
    """The text of each of a batch's `count` elements as sent, spaces and all."""
    decoder = json.JSONDecoder()
    texts = []
    at = text.index("[") + 1
    for _ in range(count):
        while text[at] in " \t\r\n,":
            at += 1
        _, end = decoder.raw_decode(text, at)
        texts.append(text[at:end])
        at = end
    return texts


def _parsed(text: str) -> list[dict] | None:
    """The JSON-RPC messages a line holds (a batch holds several), or None if it holds none."""
    values = _elements(text)
    return None if values is None else [v for v in values if is_message(v)]


def session_diagram(
    sent: Iterable[Sent],
    options: TrafficOptions | None = None,
    client: str | None = None,
    server: str | None = None,
    unnamed_client: str = "Client",
) -> Diagram:
    """The diagram of a session: its lines in order, requests paired with their responses;
    the client's lane is `client`, else the name it gives, else `unnamed_client`."""
    options = options or TrafficOptions()
    sent = list(sent)
    found = _names(sent)
    names: dict[Side, str] = {
        "client": client or found["client"] or unnamed_client,
        "server": server or found["server"] or "Server",
    }
    lanes: dict[Side, str] = {
        side: lane_name(options.chosen_name(name) or name) for side, name in names.items()
    }
    if lanes["client"] == lanes["server"]:
        lanes["server"] += " (server)"
    limit = options.body_limit(0)  # a message is the protocol's own payload: whole by default
    items: list[Item] = []
    waiting: dict[tuple[Side, str], Message] = {}  # (who asked, id) → the request
    # what to say of a request never answered, and the message it is said under
    unanswered: list[tuple[str, Message]] = []
    cancels: dict[tuple[Side, str], Message] = {}  # a request waiting -> what cancelled it
    for line in sent:
        here, there = lanes[line.sender], lanes[_OTHER[line.sender]]
        if line.remark:
            items.append(Note(0, [here], _remark(line.text)))
            continue
        messages = _elements(line.text)
        if messages is None and line.as_logged is None:
            stand_in = cut_short(line.text)
            if stand_in is not None:  # paired by the id and method the log kept of it
                line = Sent(line.sender, json.dumps(stand_in), as_logged=line.text, cut=True)
                messages = [stand_in]
        if messages is None:
            if line.text.strip():
                sent_as = re.sub(r"[ \t]*\n[ \t]*", " ", line.text)  # a printed batch's lines
                quoted = label(f"not JSON-RPC, as sent: {sent_as}", NOTE_CHARS)
                items.append(Note(0, [here], quoted))
            continue
        batch = line.text.lstrip().startswith("[")  # each element apart, one alone too
        texts = _element_texts(line.text, len(messages)) if batch else [line.text]
        for message, text in zip(messages, texts, strict=True):
            if not is_message(message):  # in a batch beside messages: answered as invalid
                quoted = label(f"not JSON-RPC, in a batch: {text}", NOTE_CHARS)
                items.append(Note(0, [here], quoted))
            elif "method" in message and not _notification(message):
                payload = _payload("Request", text, line.as_logged, limit)
                request = Message(0, here, there, "->", rpc_request_label(message), request=payload)
                key = (line.sender, _key(message["id"]))
                cancel = cancels.pop(key, None)  # of the last request under this id
                if key in waiting:  # asked again with the same id before an answer
                    unanswered.append(_unanswered(key[1], waiting[key], cancel))
                waiting[key] = request
                items.append(request)
            elif "method" in message:
                payload = _payload("Notification", text, line.as_logged, limit)
                notification = Message(
                    0, here, there, "->>", rpc_request_label(message), request=payload
                )
                items.append(notification)
                asked = (line.sender, _cancelled_id(message))
                if asked in waiting:
                    cancels[asked] = notification
            else:
                items.append(_response(message, line, text, here, there, waiting, limit))
        if line.cut and isinstance(items[-1], Message):
            items[-1].label += " " + label("(cut short in the log)")
    unanswered += [_unanswered(key[1], asked, cancels.get(key)) for key, asked in waiting.items()]
    return Diagram(participants=[lanes["client"], lanes["server"]], items=_noted(items, unanswered))


def _notification(message: dict) -> bool:
    """Whether a message with a method expects no answer: 2.0's has no id; 1.0's has an id of
    null (2.0 only discourages a null id on a request)."""
    return "id" not in message or (message["id"] is None and message.get("jsonrpc") != "2.0")


def _unanswered(message_id: str, request: Message, cancel: Message | None) -> tuple[str, Message]:
    """What to say of a request no response answered, and the message to say it under: the
    request, or the cancellation that explains it."""
    if cancel is None:
        return f"no response to id {message_id} before the session ended", request
    return f"no response to id {message_id}: the request was cancelled", cancel


def _cancelled_id(message: dict) -> str | None:
    """The id of the request a notification cancels (MCP's `notifications/cancelled`, LSP's
    `$/cancelRequest`), or None."""
    params = message.get("params")
    if message.get("method") not in ("notifications/cancelled", "$/cancelRequest"):
        return None
    if not isinstance(params, dict):
        return None
    asked = params.get("requestId", params.get("id"))
    return None if asked is None else _key(asked)


def _noted(items: list[Item], unanswered: list[tuple[str, Message]]) -> list[Item]:
    """The items with a note under each message that something is said of: a request that no
    response answered, or the cancellation of one."""
    notes: dict[int, Note] = {}
    for said, under in unanswered:
        note = label(said, NOTE_CHARS)
        notes[id(under)] = Note(0, [under.sender, under.receiver], note, attached=True)
    if not notes:
        return items
    out: list[Item] = []
    for item in items:
        out.append(item)
        if id(item) in notes:
            out.append(notes[id(item)])
    return out


def _payload(name: str, text: str, as_logged: str | None, limit: int) -> Payload | None:
    """The message as sent (JSON), the bytes it carries as base64 described, or the block a
    log kept of it (as text), or none; past `limit` characters (--max-body) cut, with a line
    saying so."""
    if as_logged is None:
        return Payload(name, "json", cut_body(_bytes_described(text), limit), "fenced")
    return Payload(name, "text", cut_body(as_logged, limit), "fenced") if as_logged else None


def _bytes_described(text: str) -> str:
    """The message with the bytes MCP carries as base64 (an image's or audio's `data` in a
    tool's result, a resource's `blob`) described, as a HAR's binary bodies are: a
    screenshot's megabytes read as nothing in a table, and make the diagram too large to
    render. The JSON stays as written around them."""
    if '"data"' not in text and '"blob"' not in text:
        return text
    try:
        message = json.loads(text)
    except (ValueError, RecursionError):
        return text
    for media, encoded in _base64_members(message):
        written = json.dumps(encoded)
        if len(encoded) > _SHOWN_BASE64 and _BASE64.fullmatch(encoded) and written in text:
            size = len(encoded) * 3 // 4 - encoded.count("=")
            said = json.dumps(f"({size:,} bytes of {media}, base64, not shown)")
            text = text.replace(written, said, 1)
    return text


def _base64_members(value: Any) -> Iterator[tuple[str, str]]:
    """(media type, base64) of each image, audio or blob an MCP message holds, at any depth."""
    if isinstance(value, list):
        for item in value:
            yield from _base64_members(item)
    elif isinstance(value, dict):
        media = value.get("mimeType")
        for key in ("data", "blob"):
            encoded = value.get(key)
            binary = key == "blob" or value.get("type") in ("image", "audio")
            if binary and isinstance(encoded, str) and isinstance(media, str):
                yield media, encoded
        for member in value.values():
            if isinstance(member, (dict, list)):
                yield from _base64_members(member)


_BASE64 = re.compile(r"[A-Za-z0-9+/]+={0,2}")
_SHOWN_BASE64 = 80  # a base64 this short (a pixel, an empty file) is shown as it is


def _response(
    message: dict,
    line: Sent,
    text: str,
    here: str,
    there: str,
    waiting: dict[tuple[Side, str], Message],
    limit: int,
) -> Message:
    """A response, paired with the request it answers by id. When it answers one that is not
    the oldest still waiting (answers out of order), both say which id they share, since a
    reader (and the viewer) would otherwise pair them first come, first answered."""
    sender = line.sender
    message_id = _key(message.get("id"))
    asked = [key for key in waiting if key[0] == _OTHER[sender]]
    request = waiting.pop((_OTHER[sender], message_id), None)
    words = rpc_response_label(message)
    if request is None and message.get("id") is None:  # the answer to what could not be read
        unreadable = next((key for key in asked if key[1][:1] in "[{tf"), None)
        if unreadable is not None:  # an id no request may have (`[]`, `{}`): that request's
            waiting.pop(unreadable)
        words += " " + label("(id null: to a request it could not read)")
    elif request is None:
        if line.answers:  # the log names what it answers: `initialize result`
            words = f"{label(line.answers)} {words}"
        words += " " + label(f"(id {message_id}: no request seen)")
    elif asked[0] != (_OTHER[sender], message_id):
        request.label += " " + label(f"(id {message_id})")
        words += " " + label(f"(id {message_id})")
    # JSON-RPC 1.0 answers with both members, the unused one null
    kind = "Error" if message.get("error") is not None else "Response"
    payload = _payload(kind, text, line.as_logged, limit)
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
# A host's own line at a level worth a reader's eye: `TIME [server] [error] what went wrong`
# (the server wrote something that is not JSON, a message failed validation), which may run
# over the lines after it (a ZodError's JSON)
_HOST_RECORD = re.compile(
    r"^(?P<head>\d{4}-\d\d-\d\dT\S+(?:[ \t]+\[[^\]\n]{1,80}\])+)[ \t]*(?P<rest>.*)$"
)
_HOST_PROBLEM_LEVELS = frozenset({"error", "warn", "warning"})
_LEVELS = frozenset({"info", "error", "warn", "warning", "debug", "trace", "notice"})
_LOG_START = re.compile(r"^\d{4}-\d\d-\d\dT|^\[\d")  # where the next log record begins

# VS Code's Output channel of an MCP server writes each message as one line of JSON after
# `[editor -> server]` or `[server -> editor]`, behind the channel's time and level (a quote
# in an issue may leave those out, or keep only the time).
_EDITOR_MARKERS = ("[editor -> server]", "[server -> editor]", "[Client Says]", "[Server Says]")
_CHANNEL_STAMP = r"\d{4}-\d\d-\d\d[ T]\d\d:\d\d:\d\d(?:\.\d+)? "
_CHANNEL_TIME = _CHANNEL_STAMP + r"\[[a-z]+\] "  # the channel's time and level
# the channel's level alone, as a line is pasted into an issue without its time
_CHANNEL_LEVEL = r"\[(?:trace|debug|info|warning|error)\][ \t]+"
_EDITOR_LINE = re.compile(
    rf"^[ \t]*(?:{_CHANNEL_TIME}|\d\d:\d\d:\d\d(?:\.\d+)?[ \t]+|{_CHANNEL_LEVEL})?"
    r"\[(?:(?P<client>editor -> server|Client Says)|server -> editor|Server Says)\]"
    r"[ \t]*(?P<rest>[{\[].*)$",
    re.M,
)
# the channel's line
_EDITOR_RECORD = re.compile(rf"^[ \t]*(?:{_CHANNEL_TIME}|\d\d:\d\d:\d\d|{_CHANNEL_LEVEL})")
_OPEN_MARK = re.compile(r"\[[^\]]*$")  # a `[…]` mark the line ends inside
_EDITOR_FAILED = re.compile(
    rf"^[ \t]*(?:{_CHANNEL_STAMP})?\[(?:info|warning|error)\] "
    r"(?P<what>Connection state: Error\b.*?|Server exited before responding\b.*?)\s*$"
)
_EDITOR_STARTS_SERVER = re.compile(
    rf"^[ \t]*(?:{_CHANNEL_TIME}|{_CHANNEL_LEVEL})Starting server (?!from )(?P<name>\S.*?)\s*$"
)

# Neovim's LSP log: `[LEVEL][TIME] PLACE<TAB>"rpc.send"<TAB>{ Lua table }` (or "rpc.receive");
# the place may hold spaces (C:\Program Files\Neovim\…), never a quote, and a log pasted into an
# issue may have its tabs turned into spaces.
# A line the server wrote on its stderr: `… "rpc"<TAB>"ruff"<TAB>"stderr"<TAB>'a Lua string'`.
_NEOVIM_LINE = re.compile(
    r'^\[[A-Z]+\]\[[^\]\n]*\][ \t]+(?:[^"\n]*?[ \t])?'
    r'(?:"rpc\.(?P<verb>send|receive)"|"rpc"[ \t]+"(?P<command>[^"\n]*)"[ \t]+"(?P<stderr>stderr)")'
    r"[ \t]+(?P<rest>.*)$",
    re.M,
)
_NEOVIM_MARKERS = ('"rpc.send"', '"rpc.receive"')
_NEOVIM_CLIENT_NAME = re.compile(r'^\[[A-Z]+\]\[[^\]\n]*\][^\n]*?[ \t]"LSP\[([^\]"\n]+)\]"', re.M)
_NEOVIM_RECORD = re.compile(r"^\[[A-Z]+\]\[")
# Helix's log (`~/.cache/helix/helix.log`): `TIME helix_lsp::transport [INFO] NAME -> {…}` for
# what the editor sent the server NAME, `<-` for what it answered, `NAME err <- "…"` for a line
# the server wrote on its stderr (a JSON string). Helix before 2022 named no server (`[INFO]
# -> {…}`, `[ERROR] err: <- …`).
_HELIX_MARKERS = ("helix_lsp::transport",)
_HELIX_LINE = re.compile(
    r"^\d{4}-\d\d-\d\dT\S+ helix_lsp::transport \[[A-Z]+\] (?:(?!err:? )(?P<server>\S+) )?"
    r"(?P<stderr>err:? )?(?P<way>->|<-) ?(?P<rest>.*)$",
    re.M,
)
# Helix's own words about a server at a level that says something went wrong (`[ERROR] Exiting
# subtl after unexpected error: Parse(…)`, which says why the session ended)
_HELIX_PROBLEM = re.compile(
    r"^\d{4}-\d\d-\d\dT\S+ helix_lsp::transport \[(?:ERROR|WARN)\] (?P<rest>.*\S)[ \t]*$", re.M
)
# The first line of either log: the channel's time and level, or Neovim's level and time.
_LOG_LINE_START = re.compile(rf"^[ \t]*(?:{_CHANNEL_TIME}|\[[A-Z]+\]\[)")

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
# Methods only an editor or an MCP host sends, by how they start.
_CLIENT_METHODS = (
    "initialize", "initialized", "shutdown", "exit", "textDocument/", "notebookDocument/",
    "workspace/did", "workspace/symbol", "workspace/executeCommand", "workspace/will",
    "callHierarchy/", "typeHierarchy/", "completionItem/", "codeAction/", "codeLens/",
    "documentLink/", "inlayHint/", "workspaceSymbol/", "$/setTrace",
    "notifications/initialized", "notifications/roots/", "tools/", "resources/", "prompts/",
    "completion/", "logging/setLevel",
)  # fmt: skip
# MCP and LSP methods only a server sends (any other without a direction is the client's)
_SERVER_METHODS = (
    "sampling/", "roots/list", "elicitation/", "notifications/message",
    "notifications/resources/", "notifications/tools/", "notifications/prompts/",
    "workspace/configuration", "workspace/applyEdit", "workspace/workspaceFolders",
    "workspace/semanticTokens/refresh", "workspace/inlayHint/refresh",
    "workspace/inlineValue/refresh", "workspace/codeLens/refresh",
    "workspace/diagnostic/refresh", "workspace/foldingRange/refresh",
    "client/registerCapability", "client/unregisterCapability",
    "textDocument/publishDiagnostics", "window/showMessage", "window/logMessage",
    "window/showDocument", "window/workDoneProgress/create", "telemetry/event",
    "$/progress", "$/logTrace",
)  # fmt: skip


def _short_match(text: str) -> re.Match[str] | None:
    """A message as Claude's `mcp.log` writes it in short, by its method and id alone:
    `method="tools/list" id=1 params`, `id=1 result` (the log kept nothing more of it), with
    what Claude Desktop writes after a message (` { metadata: undefined }`)."""
    said = _without_metadata(text)
    return _SHORT_REQUEST.fullmatch(said) or _SHORT_RESPONSE.fullmatch(said)


def _is_short(text: str) -> bool:
    return _short_match(text) is not None


def _said_in_short(side: Side, text: str) -> Sent | None:
    """The message a record in the short form stands for (`_short_match`)."""
    found = _short_match(text)
    if found is None:
        return None
    message: dict[str, Any] = {"jsonrpc": "2.0"}
    if found["id"] is not None:
        try:
            message["id"] = json.loads(found["id"])  # `id=0`, `id="a1"`
        except ValueError:
            message["id"] = found["id"]
    if "method" in found.re.groupindex:
        message["method"] = found["method"]
    else:
        message[found["kind"]] = {}
    return Sent(side, json.dumps(message), as_logged="")


_SHORT_REQUEST = re.compile(
    r'method="(?P<method>[^"\n]*)"(?:[ \t]+id=(?P<id>\S+))?(?:[ \t]+params)?[ \t]*'
)
_SHORT_RESPONSE = re.compile(r"id=(?P<id>\S+)[ \t]+(?P<kind>result|error)[ \t]*")


def _host_log(text: str) -> tuple[dict[str | None, list[Sent]], list[Diagnostic]]:
    """The messages of an MCP host's log, by the server its brackets name (Claude Desktop's
    `mcp.log` holds every server's, each numbering its own ids), and what could not be
    read."""
    written = text.split("\n")
    lines: list[str] = []
    written_on: list[tuple[int, int]] = []  # the line of the text each of `lines` is on, and
    for number, line in enumerate(written):  # where in it
        for offset, record in _records_apart(line):
            lines.append(record)
            written_on.append((number, offset))
    found: list[tuple[int, str | None, Sent]] = []
    warnings: list[Diagnostic] = []
    left: list[int] = []  # lines after a message that are none of it: the server's stderr
    for number, match, message in log_records(
        lines, _HOST_LINE, _LOG_START, warnings, short=_is_short, left=left
    ):
        sent = _said_in_short(match["side"], message) or Sent(match["side"], message)  # type: ignore[arg-type]
        found.append((number, _server_named(match["head"]), sent))
    # What went wrong, as the host says it, in its place among the messages.
    for number, match, said in record_texts(lines, _HOST_RECORD, _LOG_START):
        levels = {word.strip().lower() for word in _BRACKET.findall(match["head"])}
        level = next(iter(levels & _HOST_PROBLEM_LEVELS), None)
        if level and not _HOST_LINE.match(lines[number]) and said.strip():
            remark = Sent("server", f"{level}: {_without_metadata(compact(said))}", remark=True)
            found.append((number, _server_named(match["head"]), remark))
    if left:
        warnings.append(_left_out(left, lines))
    if written_on[-1][0] + 1 < len(lines):  # a line held several records: point into it
        warnings = [_on_written_line(w, written_on, written) for w in warnings]
    by_server: dict[str | None, list[Sent]] = {}
    ordered = sorted(found, key=lambda record: record[0])
    # A line naming no server (`Server transport closed unexpectedly`) is the one's above it.
    current = next((server for _, server, _ in ordered if server is not None), None)
    for _, server, sent in ordered:
        current = server or current
        by_server.setdefault(current, []).append(sent)
    return by_server, warnings


def _left_out(left: list[int], lines: list[str]) -> Diagnostic:
    """A note on the lines of a host's log that hold no message, at the first of them: what
    the server wrote to its standard error, which the host logs among its messages."""
    count = f"{len(left)} line{'s' if len(left) > 1 else ''}"
    return Diagnostic(
        f"{count} after the messages {'are' if len(left) > 1 else 'is'} none of them (the "
        "server's own output, which the host logs with them) and left out of the diagram",
        None,
        left[0] + 1,
        1,
        lines[left[0]],
        severity="note",
    )


def _without_metadata(said: str) -> str:
    """What the host said, without what Claude Desktop writes after it (` { metadata:
    undefined }`, ` { metadata: { context: 'connection', stack: undefined } }`)."""
    at = said.rfind("{ metadata:")
    depth = 0
    for index, character in enumerate(said[at:] if at >= 0 else ""):
        depth += {"{": 1, "}": -1}.get(character, 0)
        if depth == 0:  # the object closes here: at the end of what was said, or not at all
            return said[:at].rstrip() if at + index == len(said.rstrip()) - 1 else said
    return said


_DECODER = json.JSONDecoder()
# Where the next record begins on a line that holds several (a paste that lost its line
# breaks, as a chat or an issue may): after a message and what Claude Desktop writes after one
# (` { metadata: undefined }`), a space, then a record's time and its first bracket.
_RUN_ON = re.compile(
    r"(?:[ \t]*\{ metadata:[^{}\n]*\})?[ \t]+(?=\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z?[ \t]+\[)"
)


def _records_apart(line: str) -> list[tuple[int, str]]:
    """A line of a host's log as the records it holds, each with where it starts in the line:
    the line itself, or, where a paste ran several together, each from its time on. A message
    is read whole, so a time inside its text splits nothing; one that is not JSON (`{...}`)
    ends where the next record's time begins."""
    records = []
    start = 0
    boundaries = list(_RUN_ON.finditer(line))
    at = 0  # the next boundary to look at
    while at < len(boundaries):
        said = _SAID.search(line, start, boundaries[at].start())
        if said is not None:  # the message runs on past any time inside it
            try:
                end = _DECODER.raw_decode(line, said.end() - 1)[1]
            except (ValueError, RecursionError):
                end = said.end()
            while at < len(boundaries) and boundaries[at].start() < end:
                at += 1
            if at == len(boundaries):
                break
        records.append((start, line[start : boundaries[at].start()]))
        start = boundaries[at].end()
        at += 1
    records.append((start, line[start:]))
    return records


def _on_written_line(
    warning: Diagnostic, written_on: list[tuple[int, int]], written: list[str]
) -> Diagnostic:
    """A warning about a record a paste ran together with others, moved to the line of the
    text it is on and the place in it."""
    number, offset = written_on[(warning.line or 1) - 1]
    line = written[number] if offset else warning.source_line
    return replace(warning, line=number + 1, column=(warning.column or 1) + offset,
                   source_line=line)  # fmt: skip


# The start of a message in a host's log record: after it, the message's JSON.
_SAID = re.compile(r"\bMessage from (?:client|server):[ \t]*\{")


def _server_named(head: str) -> str | None:
    """The server a host's log line names in brackets (its level is in brackets too)."""
    words = (word.strip() for word in _BRACKET.findall(head))
    return next((word for word in words if word.lower() not in _LEVELS), None)


def _editor_log(text: str) -> tuple[list[Sent], str | None, list[Diagnostic]]:
    """The messages of VS Code's Output channel for an MCP server, the server's name as the
    channel says it starts it, and what could not be read."""
    lines = text.split("\n")
    started = next(filter(None, map(_EDITOR_STARTS_SERVER.match, lines)), None)
    warnings: list[Diagnostic] = []
    found = [
        (number, Sent("client" if match["client"] else "server", message))
        for number, match, message in log_records(lines, _EDITOR_LINE, _EDITOR_RECORD, warnings)
    ]
    # Why a session failed, as the channel says it, in its place among the messages.
    found += [
        (number, Sent("server", failed["what"], remark=True))
        for number, failed in enumerate(map(_EDITOR_FAILED.match, lines))
        if failed
    ]
    sent = [line for _, line in sorted(found, key=lambda pair: pair[0])]
    last = lines[-1]  # with no line end after it: where a copy of the channel was cut, in
    # the mark of a message (`[info] [Serv`)
    if _EDITOR_RECORD.match(last) and not _EDITOR_LINE.match(last) and _OPEN_MARK.search(last):
        cut = "the log ends in the middle of this line, which is left out"
        warnings.append(Diagnostic(cut, None, len(lines), 1, last, severity="warning"))
    return sent, started["name"] if started else None, warnings


def _helix_log(text: str) -> tuple[dict[str | None, list[Sent]], list[Diagnostic]]:
    """The messages of Helix's log, by the server they went to or came from (a Helix session
    runs a server for each language, and several for one), and what could not be read."""
    by_server: dict[str | None, list[Sent]] = {}
    warnings: list[Diagnostic] = []
    lines = text.split("\n")
    problems = deque(
        (number, found["rest"])
        for number, found in enumerate(map(_HELIX_PROBLEM.match, lines))
        if found is not None and _HELIX_LINE.match(lines[number]) is None
    )
    server: str | None = None  # the server of the line before

    def said_before(number: int) -> None:
        """Helix's problems logged before line `number`, each a note by the server it names
        (or else the one of the line before)."""
        while problems and problems[0][0] < number:
            _, words = problems.popleft()
            named = next(
                (n for n in by_server if n and re.search(rf"\b{re.escape(n)}\b", words)), server
            )
            by_server.setdefault(named, []).append(Sent("server", compact(words), remark=True))

    for number, match, message in log_records(lines, _HELIX_LINE, _LOG_START, warnings):
        said_before(number)
        server = match["server"]
        sent = by_server.setdefault(match["server"], [])
        if match["stderr"]:
            try:
                said = json.loads(message)
            except ValueError:
                said = message
            if str(said).strip():
                sent.append(Sent("server", f"stderr: {_stderr(str(said))}", remark=True))
            continue
        sent.append(Sent("client" if match["way"] == "->" else "server", message))
    said_before(len(lines))
    return by_server, warnings


def _neovim_servers(text: str) -> dict[str, int]:
    """The servers Neovim's own lines name (`"LSP[ruff]"`), each with the index of the first
    line that names it, in the order they first appear; in a log without such lines, the
    commands whose stderr it holds (`"rpc" "…/mason/bin/ruff-lsp" "stderr"`)."""
    named = [(found[1], found.start()) for found in _NEOVIM_CLIENT_NAME.finditer(text)]
    if not named:
        named = [(f["command"], f.start()) for f in _NEOVIM_LINE.finditer(text) if f["stderr"]]
    servers: dict[str, int] = {}
    for written, start in named:
        name = re.split(r"[\\/]", written)[-1] or written  # a command: its file's name
        if name not in servers:
            servers[name] = text.count("\n", 0, start)
    return servers


def _several_servers(servers: dict[str, int], lines: list[str]) -> Diagnostic:
    """Neovim logs every client's messages alike: its "rpc" lines never say which server a
    message went to or came from. With two or more servers in one log, their messages can only
    be drawn together, and the user hears why."""
    names = list(servers)
    second = servers[names[1]]
    listed = ", ".join(names[:-1]) + " and " + names[-1]
    return Diagnostic(
        f"this log holds the messages of {len(names)} language servers ({listed}); Neovim's "
        '"rpc" lines do not say which server each message went to or came from, so they are '
        f'drawn between the client and one lane, "{_SEVERAL_SERVERS}", in the order logged',
        None,
        second + 1,
        1,
        lines[second],
        severity="warning",
        hint="to see a server's messages apart, log a session with only that server running",
    )


_SEVERAL_SERVERS = "Language servers"


def _neovim_log(text: str) -> tuple[list[Sent], list[Diagnostic]]:
    """The messages of Neovim's LSP log, each put back together as JSON from the Lua table the
    log wrote; one that cannot be read is kept as logged, with a warning at the place."""
    lines = text.split("\n")
    sent: list[Sent] = []
    warnings: list[Diagnostic] = []
    for number, match, logged in record_texts(lines, _NEOVIM_LINE, _NEOVIM_RECORD):
        side: Side = "client" if match["verb"] == "send" else "server"
        if match["stderr"]:  # a note, as Helix's log gives it
            try:
                said, _ = read_lua_value(logged)
            except (LuaValueError, RecursionError):
                said = logged
            if str(said).strip():
                sent.append(Sent("server", f"stderr: {_stderr(str(said))}", remark=True))
            continue
        try:
            value, _ = read_lua_value(logged)
        except (LuaValueError, RecursionError) as exc:
            why = exc.reason if isinstance(exc, LuaValueError) else "nested too deeply"
            at = exc.pos if isinstance(exc, LuaValueError) else 0
            where = match.start("rest")
            warnings.append(
                unreadable(
                    "a Lua table as Neovim writes one", why, lines, number, logged, where, at
                )
            )
            sent.append(Sent(side, logged.strip()))
            continue
        sent.append(Sent(side, json.dumps(value, ensure_ascii=False)))
    return sent, warnings


# A transcript, each message marked with its direction: `>> {…}` what the client sent and
# `<< {…}` the server's answer, as the Ethereum execution APIs' tests write them, `--> {…}`
# and `<-- {…}`, as go-ethereum's do, or `> {…}` and `< {…}`, as wscat shows a WebSocket
# session (after its command and its `Connected (press CTRL+C to quit)`, which are left out);
# `//` lines are its own words, drawn as notes.
_TRANSCRIPT_LINE = re.compile(r"[ \t]*(?P<way>>>|-->|>|<<|<--|<)[ \t]*(?P<rest>[\[{].*)")
# A message that is not JSON, under a mark no quote in a page starts with (`> ` does)
_TRANSCRIPT_ODD = re.compile(r"[ \t]*(?P<way>>>|-->|<<|<--)[ \t]+(?P<rest>\S.*)")
_TRANSCRIPT_COMMENT = re.compile(r"[ \t]*//[ \t]*(?P<rest>.*)")
_WSCAT_LINE = re.compile(r"[ \t]*(?:\$[ \t]*)?wscat[ \t].*|(?i:[ \t]*(?:dis)?connected\b.*)")


def _transcript_lines(lines: list[str]) -> Iterator[tuple[int, re.Match[str] | None, str]]:
    """Each message of a transcript as (its first line's index, its direction mark, its text),
    the lines under a mark that continue its JSON taken with it (the JSON-RPC specification
    prints a batch over several lines); each other line as (its index, None, the line)."""
    index = 0
    while index < len(lines):
        line = lines[index]
        mark = _TRANSCRIPT_LINE.fullmatch(line) or _TRANSCRIPT_ODD.fullmatch(line)
        if mark is None:
            yield index, None, line
            index += 1
            continue
        first, text, index = index, mark["rest"].strip(), index + 1
        if mark.re is _TRANSCRIPT_LINE and not _is_json(text):
            text, index = _continued(lines, index, text)
        yield first, mark, text


_MESSAGE_LINES = 2000  # a message printed over more lines than this is no transcript's


def _continued(lines: list[str], index: int, text: str) -> tuple[str, int]:
    """A message's `text` with the lines from `index` that continue it, and the index after
    them: as far as they make it JSON (the JSON-RPC specification prints a batch over several
    lines), or, where they never do (its example of a batch that is not JSON), the run of
    lines right under it, to the next blank line, comment or mark, kept as sent."""
    stop = index
    for end in range(index, min(len(lines), index + _MESSAGE_LINES)):
        line = lines[end]
        if _marked(line):
            break
        if stop == end and line.strip() and not _TRANSCRIPT_COMMENT.fullmatch(line):
            stop = end + 1
        if line.rstrip().endswith(("}", "]")):
            whole = "\n".join([text, *lines[index : end + 1]])
            if _is_json(whole):
                return whole, end + 1
    return "\n".join([text, *lines[index:stop]]), stop


def _marked(line: str) -> bool:
    return bool(_TRANSCRIPT_LINE.fullmatch(line) or _TRANSCRIPT_ODD.fullmatch(line))


def _is_json(text: str) -> bool:
    try:
        json.loads(text)
    except (ValueError, RecursionError):
        return False
    return True


def _is_transcript(text: str) -> bool:
    lines = text.split("\n", 2000)[:2000]
    marks = [
        mark
        for _, mark, said in _transcript_lines(lines)
        if said.strip()
        and not _TRANSCRIPT_COMMENT.fullmatch(said)
        and not _WSCAT_LINE.fullmatch(said)
    ]
    return all(marks) and any(mark is not None and mark.re is _TRANSCRIPT_LINE for mark in marks)


def _transcript(text: str) -> tuple[list[Sent], list[Diagnostic]]:
    """The messages of a transcript; one that is not JSON (go-ethereum's test of a request
    that is not, `--> 'f`) is kept as sent, with a warning at the place."""
    sent = []
    warnings: list[Diagnostic] = []
    lines = text.split("\n")
    for number, mark, said in _transcript_lines(lines):
        if mark is not None:
            side: Side = "client" if mark["way"] in (">>", "-->", ">") else "server"
            try:
                json.loads(said)
            except (ValueError, RecursionError) as exc:
                warnings.append(not_json(exc, lines, number, said, mark.start("rest")))
            sent.append(Sent(side, said))
        elif (comment := _TRANSCRIPT_COMMENT.fullmatch(said)) and comment["rest"].strip():
            sent.append(Sent("client", comment["rest"].strip(), remark=True))
    return sent, warnings


def _log_score(text: str, markers: tuple[str, ...], record: re.Pattern[str]) -> int:
    """100 when the text starts as the log does; 80 when a record of it comes later (a page
    quoting one scores less than the Markdown it is in, which is read as Markdown)."""
    if not any(marker in text for marker in markers):
        return 0
    found = record.search(text)
    if found is None:
        return 0
    first = next((line for line in text.split("\n", 50) if line.strip()), "")
    return 100 if record.match(first) or _LOG_LINE_START.match(first) else 80


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


@dataclass(slots=True)
class _JsonRecord:
    """One record of a JSON log: where it starts, its value, its text as a message's body (its
    indentation taken off) and the line of the file it starts on."""

    line: int
    column: int
    value: Any
    written: str
    source_line: str
    logged: bool = False  # not JSON: `written` is the line as logged


def _json_records(
    text: str, filename: str | None, warnings: list[Diagnostic]
) -> Iterator[_JsonRecord]:
    """Each record of JSON Lines, or of one JSON array of records written over several lines
    (a session saved as a list of its messages).

    A line that is not JSON (what a server printed on its stdout, a second log's byte order
    mark after `cat`) is kept as logged, with a warning at the place: its value is the line's
    text. Text glued before a record (`:::::{"jsonrpc": …}`) is such a line of its own, the
    record after it read. A file most of whose lines are not JSON is no JSON Lines log."""
    items = _array_items(text)
    if items is not None:
        yield from items
        return
    lines = text.split("\n")
    records: list[_JsonRecord] = []
    odd: list[_JsonRecord] = []
    for number, line in enumerate(lines, start=1):
        written = line.lstrip("\ufeff").strip()
        if not written:
            continue
        try:
            records.append(_JsonRecord(number, 1, json.loads(written), written, line))
            continue
        except ValueError as exc:
            error: ValueError | RecursionError = exc
        except RecursionError as exc:
            error = exc
        start = min((i for i in (written.find("{"), written.find("[")) if i > 0), default=-1)
        value = _whole_json(written[start:]) if start > 0 else None
        glued = written[:start].strip() if value is not None else written
        odd.append(_JsonRecord(number, 1, None, glued, line, logged=True))
        records.append(odd[-1])
        offset = len(line) - len(line.lstrip("\ufeff \t"))
        if value is None:
            warnings.append(not_json(error, lines, number - 1, written, offset))
            continue
        said = "the text before this line's message is not JSON; a note shows it as logged"
        warnings.append(Diagnostic(said, None, number, offset + 1, line, severity="warning"))
        records.append(_JsonRecord(number, start + 1, value[0], written[start:], line))
    if odd and 2 * len(odd) > len(records) - len(odd):
        first = odd[0]
        raise VolleyError(
            "this JSON Lines log has a line that is not JSON",
            filename=filename,
            line=first.line,
            column=1,
            source_line=first.source_line[:200],
        )
    yield from records


def _whole_json(text: str) -> tuple[Any] | None:
    """The value of a text that is one JSON value and nothing after it, in a tuple; or None."""
    try:
        value, end = _DECODER.raw_decode(text)
    except (ValueError, RecursionError):
        return None
    return (value,) if not text[end:].strip() else None


def _array_items(text: str) -> list[_JsonRecord] | None:
    """The items of a JSON array written over several lines, each read once where it stands;
    None for anything else (a line of JSON Lines, `[…]` on one line, is a batch)."""
    if not _opens_array(text):
        return None
    items: list[_JsonRecord] = []
    at, line = text.index("[") + 1, 1
    while True:
        start = _BETWEEN_ITEMS.match(text, at).end()  # type: ignore[union-attr]
        if text.startswith("]", start):  # the array's end, and nothing after it
            return items if not text[start + 1 :].strip() else None
        try:
            item, end = _DECODER.raw_decode(text, start)
        except (ValueError, RecursionError):
            return None
        line += text.count("\n", at, start)
        line_start = text.rfind("\n", 0, start) + 1
        line_end = text.find("\n", start)
        lead = text[line_start:start]  # the item's indentation, as written (tabs too)
        pad = lead if not lead.strip() else " " * len(lead)
        written = textwrap.dedent(pad + text[start:end]).strip()
        shown = text[line_start : line_end if line_end >= 0 else len(text)]
        items.append(_JsonRecord(line, len(lead) + 1, item, written, shown))
        line += text.count("\n", start, end)
        at = end


_BETWEEN_ITEMS = re.compile(r"[ \t\r\n,]*")


def _opens_array(text: str) -> bool:
    """Whether the text starts a JSON array that its first line does not end."""
    first = next((line for line in text.split("\n", 20) if line.strip()), "")
    if not first.lstrip().startswith("["):
        return False
    try:
        json.loads(first)
        return False  # a whole line: a batch, in JSON Lines
    except ValueError:
        return True


def _array(text: str) -> list | None:
    """The value of a text that is one JSON array written over several lines, else None."""
    if not _opens_array(text):
        return None
    try:
        value = json.loads(text)
    except (ValueError, RecursionError):
        return None
    return value if isinstance(value, list) else None


def _json_lines(text: str, filename: str | None) -> tuple[list[Sent], list[Diagnostic]]:
    """JSON Lines of messages with their direction, or of bare JSON-RPC messages; or the same
    as one JSON array. A line that is not JSON is kept as logged, with a warning, by the side
    of the message after it (a server's stdout ahead of its answer)."""
    said: list[Sent | tuple[Any, str]] = []  # a bare message waits for its side (`_sides`)
    warnings: list[Diagnostic] = []
    odd: dict[int, str] = {}  # lines that are not JSON, by their place, wait for a side
    for found in _json_records(text, filename, warnings):
        record = found.value
        if found.logged:
            odd[len(said)] = found.written
            said.append((None, found.written))
            continue
        if isinstance(record, dict) and "jsonrpc" not in record:
            side = _direction(record)
            body = next((record[k] for k in _MESSAGE_KEYS if k in record), None)
            if side is None or body is None:
                raise VolleyError(
                    "this log record has no direction and message that volley knows",
                    filename=filename,
                    line=found.line,
                    column=found.column,
                    source_line=found.source_line[:200],
                    hint=f"expected a direction under one of {', '.join(_DIRECTION_KEYS)} and "
                    f"the message under one of {', '.join(_MESSAGE_KEYS)}",
                )
            message = body if isinstance(body, str) else json.dumps(body, ensure_ascii=False)
            said.append(Sent(side, message))
            continue
        said.append((record, found.written))
    bare = [each for k, each in enumerate(said) if not isinstance(each, Sent) and k not in odd]
    sides = iter(_sides([record for record, _ in bare]))
    sent: list[Sent | None] = [
        None if k in odd else each if isinstance(each, Sent) else Sent(next(sides), each[1])
        for k, each in enumerate(said)
    ]
    for k in reversed(odd):  # by the side of the message after it, or else before it
        near = next((m for m in sent[k + 1 :] if m is not None), None) or next(
            (m for m in reversed(sent[:k]) if m is not None), None
        )
        sent[k] = Sent(near.sender if near else "server", odd[k])
    return [each for each in sent if each is not None], warnings


def _sides(records: list[Any]) -> list[Side]:
    """Who sent each of a capture's bare messages, in order: all of them one side's when the
    capture is one stream (`_one_stream`), else each guessed (`_Guess`)."""
    alone = _one_stream(records)
    if alone is not None:
        return [alone] * len(records)
    guess = _Guess()
    return [guess.side(record) for record in records]


def _one_stream(records: list[Any]) -> Side | None:
    """The side whose messages alone a capture holds, when it holds one stream: what the editor
    wrote to the server (its requests, notifications and its answers to the server's requests,
    which are not in the file) or what the server wrote back. Their ids overlap (each side
    counts its own requests from 0), so pairing by id alone would send an answer the wrong way.

    The editor's stream starts the session with `initialize` and holds no answer to it (the
    server's capabilities, or an error) and no method only a server sends; the server's holds
    no method of the editor's (`initialize`, `textDocument/didOpen`), and most of its answers
    pair with no request in the file. None for a capture of both streams, or one too short to
    tell."""
    firsts = [r[0] if isinstance(r, list) and r else r for r in records]
    messages = [r for r in firsts if isinstance(r, dict)]
    methods = [str(m["method"]) for m in messages if isinstance(m.get("method"), str)]
    servers = [m for m in methods if m.startswith(_SERVER_METHODS)]
    clients = [m for m in methods if m.startswith(_CLIENT_METHODS) and m not in servers]
    answers = [m for m in messages if "method" not in m and ("result" in m or "error" in m)]
    if "initialize" in clients and not servers:
        started = {
            _key(m.get("id")) for m in messages if m.get("method") == "initialize" and "id" in m
        }
        answered = any(  # the server's capabilities, or its refusal to start
            (isinstance(m.get("result"), dict) and "capabilities" in m["result"])
            or ("error" in m and _key(m.get("id")) in started)
            for m in answers
        )
        return None if answered else "client"
    # An answer to what could not be read (id null) pairs with no request in either stream.
    keyed = [m for m in answers if m.get("id") is not None]
    if not clients and keyed:  # a server's own methods (razor/…) are not all known
        asked = {_key(m["id"]) for m in messages if "method" in m and "id" in m}
        paired = sum(1 for m in keyed if _key(m.get("id")) in asked)
        return "server" if paired * 2 < len(keyed) else None
    return None


@dataclass
class _Guess:
    """Who sent each bare message of a capture of both streams, read in order: a response goes
    back to whoever asked; a request is the client's unless only a server sends that method;
    MCP's progress goes to whoever gave its token, a cancellation comes from whoever asked
    (the client, where both sides wait on the id it names: a user's stop)."""

    # the requests waiting for an answer, by id, each with who asked it, the latest last (both
    # sides count their ids from 0 or 1: the client's `tools/call` 1 and, while it runs, the
    # server's `sampling/createMessage` 1, which is answered first)
    waiting: dict[str, list[Side]] = field(default_factory=dict)
    asked_last: dict[str, Side] = field(default_factory=dict)  # an answer said twice goes there
    tokens: dict[str, Side] = field(default_factory=dict)  # progress tokens, by who gave them

    def side(self, record: Any) -> Side:
        first = record[0] if isinstance(record, list) and record else record
        if not isinstance(first, dict):
            return "client"
        method = first.get("method")
        if not isinstance(method, str):
            key = _key(first.get("id"))
            asked = self.waiting.get(key)
            return _OTHER[asked.pop() if asked else self.asked_last.get(key, "client")]
        params: dict[str, Any] = first["params"] if isinstance(first.get("params"), dict) else {}
        meta: dict[str, Any] = params["_meta"] if isinstance(params.get("_meta"), dict) else {}
        # Ethereum's subscriptions: `eth_subscribe` asks, `eth_subscription` notifications
        # bring what was subscribed to, from the server
        pushed = method.endswith("_subscription") and "id" not in first
        side: Side = "server" if method.startswith(_SERVER_METHODS) or pushed else "client"
        token = _key(params.get("progressToken"))
        if method == "notifications/progress" and token in self.tokens:
            side = _OTHER[self.tokens[token]]
        elif method == "notifications/cancelled":  # from who asked; the client, if both did
            askers = set(self.waiting.get(_key(params.get("requestId")), ()))
            side = askers.pop() if len(askers) == 1 else "client"
        if "id" in first:
            asked_id = _key(first["id"])
            self.waiting.setdefault(asked_id, []).append(side)
            self.asked_last[asked_id] = side
            if "progressToken" in meta:
                self.tokens[_key(meta["progressToken"])] = side
        return side


# --- Language Server Protocol: VS Code's trace, and Content-Length framed captures ---------

# VS Code's Output channel may put its own time and level before a record's lines
_OUTPUT_PREFIX = re.compile(r"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d(?:\.\d+)? \[[a-z]+\] ")
_TRACE_START = re.compile(r"^\[Trace - [^\]\n]*\]")
# The client's own word on what went wrong, between the records: `[Error - TIME] Connection
# to server got closed. Server will restart.` (its lines after it, a stack, belong to it)
_TRACE_PROBLEM = re.compile(r"^\[(?P<level>Error|Warn) - [^\]\n]*\][ \t]*(?P<what>.*)$")
_TRACE = re.compile(
    r"^\[Trace - [^\]\n]*\] (?P<verb>Sending|Received) (?P<kind>request|notification|response)"
    r" '(?P<name>[^'\n]*)'(?P<rest>.*)$"
)
_TRACE_ORPHAN = re.compile(  # a response the client had no request waiting for
    r"^\[Trace - [^\]\n]*\] Received response (?P<id>\S+) without active response promise"
)
# A trace line that is no record: what the server logged through the trace (`$/logTrace`,
# vscode-languageserver's `connection.tracer.log`), `[Trace - TIME] onDidChangeConfiguration`.
_TRACE_LOGGED = re.compile(r"^\[Trace - [^\]\n]*\][ \t]*(?!(?:Sending|Received) )(?P<what>\S.*)$")
_NAME_ID = re.compile(r"^(?P<method>.*) - \((?P<id>[^()\n]*)\)$")
_FAILED = re.compile(r"Request failed: (?P<message>.*?)(?: \((?P<code>-?\d+)\))?\.?\s*$")
_BLOCKS = {"Params:": "params", "Result:": "result", "Error data:": "data"}
_NOTHING = {"No parameters provided.": "params", "No result returned.": "result"}
_TRACE_EXPECTED = (
    "expected a record as VS Code writes it: [Trace - TIME] Sending|Received "
    "request 'METHOD - (ID)' | notification 'METHOD' | response 'METHOD - (ID)'"
)


@dataclass(frozen=True)
class _Block:
    """What a trace record logged under its header: `Params:` and the like."""

    member: str | None = None  # "params", "result" or "data"; None: nothing logged
    value: Any = None
    text: str | None = None  # the block as logged when it is not JSON


def _trace_id(text: str) -> Any:
    """An id as the trace prints it: a number, or a string id written without its quotes."""
    return int(text) if re.fullmatch(r"-?\d+", text) else text


def _trace_lines(text: str) -> list[str]:
    return [_OUTPUT_PREFIX.sub("", line, count=1) for line in text.split("\n")]


def _trace_block(
    lines: list[str], start: int, end: int, filename: str | None, bare: str | None = None
) -> tuple[_Block, Diagnostic | None]:
    """The block of the record whose body is `lines[start:end]`, and a warning if it is
    not JSON (a trimmed paste, `{ ... }`): then it is kept as text, not guessed at.

    `bare` is the member ("params", "result") a block of JSON with no `Params:` label stands
    for, as gopls' `-rpc.trace` logs it, after a blank line."""
    first = next((i for i in range(start, end) if lines[i].strip()), None)
    if first is None:
        return _Block(), None
    head = lines[first].strip()
    if head in _NOTHING:
        return _Block(_NOTHING[head], None), None
    label_ = next((b for b in _BLOCKS if lines[first].startswith(b)), None)
    if label_ is not None:
        member, said = _BLOCKS[label_], label_[:-1]
    elif bare is not None and head.startswith(("{", "[")):
        label_, member, said = "", bare, bare
    else:
        return _Block(), None  # text between records that is not the trace's (stderr, "...")
    body = "\n".join([lines[first][len(label_) :], *lines[first + 1 : end]])
    try:
        value, _ = json.JSONDecoder().raw_decode(body, len(body) - len(body.lstrip()))
    except ValueError as exc:
        line = first + body.count("\n", 0, getattr(exc, "pos", 0))
        warning = Diagnostic(
            f"this {said} block is not JSON; its arrow shows it as logged",
            filename,
            line + 1,
            1,
            lines[line][:200],
            severity="warning",
        )
        return _Block(member, None, body.strip()), warning
    return _Block(member, value), None


def _trace_message(match: re.Match[str], block: _Block) -> dict:
    """The JSON-RPC message a trace record stands for, from its header and its block."""
    kind = match["kind"]
    message: dict[str, Any] = {"jsonrpc": "2.0"}
    if kind == "notification":
        message["method"] = match["name"]
    else:
        named = _NAME_ID.match(match["name"])
        if named is None:
            raise ValueError(f"{kind} 'METHOD - (ID)'")
        message["id"] = _trace_id(named["id"])
        if kind == "request":
            message["method"] = named["method"]
    if kind != "response":
        if block.member == "params" and block.value is not None:
            message["params"] = block.value
        return message
    failed = _FAILED.search(match["rest"])
    if failed is not None or block.member == "data":
        error: dict[str, Any] = {}
        if failed is not None:
            if failed["code"] is not None:
                error["code"] = int(failed["code"])
            error["message"] = failed["message"]
        if block.member == "data":
            error["data"] = block.value
        message["error"] = error
    else:
        message["result"] = block.value
    return message


def _traced_by_server(headers: list[re.Match[str]]) -> bool:
    """Whether a trace is the server's own: it receives `initialize`, or, cut from a session's
    middle, it receives more methods only an editor sends (`completionItem/resolve`) and sends
    more only a server sends (`textDocument/publishDiagnostics`) than the other way round."""
    server, client = 0, 0
    for header in headers:
        if header["kind"] == "response":
            continue
        named = _NAME_ID.match(header["name"])
        method = named["method"] if named else header["name"]
        if method == "initialize":
            return header["verb"] == "Received"
        by_server = method.startswith(_SERVER_METHODS)
        by_client = not by_server and method.startswith(_CLIENT_METHODS)
        if by_server or by_client:
            sent_by_tracer = header["verb"] == "Sending"
            if sent_by_tracer == by_server:
                server += 1
            else:
                client += 1
    return server > client


def _lsp_trace(text: str, filename: str | None) -> tuple[list[Sent], list[Diagnostic]]:
    """The messages of VS Code's trace of a language client, and warnings about blocks that
    are not JSON. "Sending" is the editor's; when the trace is the server's own (it receives
    `initialize`), "Sending" is the server's."""
    lines = _trace_lines(text)
    starts = [
        i for i, line in enumerate(lines) if _TRACE_START.match(line) or _TRACE_PROBLEM.match(line)
    ]
    headers = [found for i in starts if (found := _TRACE.match(lines[i]))]
    sending: Side = "server" if _traced_by_server(headers) else "client"
    sent: list[Sent] = []
    warnings: list[Diagnostic] = []
    waiting: dict[str, list[Any]] = defaultdict(list)  # method -> ids of requests unanswered
    # ids whose response the trace records (VS Code may log a failure both ways)
    recorded = {
        named["id"]
        for header in (lines[i] for i in starts)
        if (found := _TRACE.match(header)) and found["kind"] == "response"
        if (named := _NAME_ID.match(found["name"]))
    }
    for at, start in enumerate(starts):
        end = starts[at + 1] if at + 1 < len(starts) else len(lines)
        header = lines[start]
        problem = _TRACE_PROBLEM.match(header)
        if problem is not None:
            failed = _failed_request(problem["what"], lines[start + 1 : end], waiting, recorded)
            if failed is not None:  # the answer the trace logged no record of
                sent.append(Sent(_OTHER[sending], failed, ""))
                continue
            said = compact("\n".join([problem["what"], *lines[start + 1 : end]]))
            sent.append(Sent("server", f"{problem['level'].lower()}: {said}", remark=True))
            continue
        orphan = _TRACE_ORPHAN.match(header)
        match = _TRACE.match(header)
        logged = _TRACE_LOGGED.match(header)
        if orphan is None and match is None and logged is not None:
            # the server's own words (`$/logTrace`, its tracer's log): a note, as it said them
            said = compact("\n".join([logged["what"], *lines[start + 1 : end]]))
            sent.append(Sent("server", said, remark=True))
            continue
        answer = orphan is not None or (match is not None and match["kind"] == "response")
        bare = "result" if answer else "params" if match is not None else None
        block, warning = _trace_block(lines, start + 1, end, filename, bare)
        if warning is not None:
            warnings.append(warning)
        try:
            if orphan is not None:
                message: dict[str, Any] = {"jsonrpc": "2.0", "id": _trace_id(orphan["id"])}
                message["result"] = block.value
            elif match is not None:
                message = _trace_message(match, block)
            else:
                raise ValueError
        except ValueError:
            raise VolleyError(
                "this LSP trace has a record volley cannot read",
                filename=filename,
                line=start + 1,
                column=1,
                source_line=header[:200],
                hint=_TRACE_EXPECTED,
            ) from None
        received = orphan is not None or (match is not None and match["verb"] == "Received")
        sender = _OTHER[sending] if received else sending
        if "method" in message and "id" in message and sender == sending:
            waiting[message["method"]].append(message["id"])
        elif "method" not in message:
            for ids in waiting.values():
                if message.get("id") in ids:
                    ids.remove(message["id"])
        as_logged = block.text
        if as_logged is None and block.member is None and "error" not in message:
            as_logged = ""  # the "messages" verbosity: nothing to show beyond method and id
        text_sent = json.dumps(message, ensure_ascii=False, separators=(",", ":"))
        named = _NAME_ID.match(match["name"]) if match is not None else None
        answers = named["method"] if named and match and match["kind"] == "response" else None
        if answers == "nil":  # Emacs lsp-mode's word for a method it no longer knows
            answers = None
        sent.append(Sent(sender, text_sent, as_logged, answers=answers))
        if block.member is None and (shown := _channel_text(lines[start + 1 : end])):
            sent.append(Sent("server", shown, remark=True))
    return sent, warnings


def _channel_text(lines: list[str]) -> str | None:
    """What the Output channel wrote between two records that is no block of theirs: the
    words of a `window/logMessage` the client shows there, what the server wrote on its
    stderr. A note over the server, as written (a paste's `...` says nothing)."""
    kept = [line.rstrip() for line in lines if line.strip() and line.strip() not in ("...", "…")]
    return "\n".join(kept) if kept else None


# VS Code's word that a request failed, written in place of its response record:
# `[Error - T] Request textDocument/hover failed.` then `  Message: …` and `  Code: -32603`.
_REQUEST_FAILED = re.compile(r"Request (?P<method>\S+) failed\.?$")
_FAILED_DETAIL = re.compile(r"^[ \t]*(?P<key>Message|Code):[ \t]*(?P<value>.*?)[ \t]*$")


def _failed_request(
    what: str, details: list[str], waiting: dict[str, list[Any]], recorded: set[str]
) -> str | None:
    """The error response a `Request METHOD failed.` line stands for, to the oldest request of
    that method still waiting (as JSON text); None when none waits for it, or the trace
    records its response as well (`recorded`: the ids it logs responses for)."""
    found = _REQUEST_FAILED.match(what.strip())
    ids = waiting.get(found["method"]) if found else None
    if found is None or not ids or str(ids[0]) in recorded:
        return None
    error: dict[str, Any] = {}
    for line in details:
        detail = _FAILED_DETAIL.match(line)
        if detail is None:
            continue
        value = detail["value"]
        if detail["key"] == "Code" and re.fullmatch(r"-?\d+", value):
            error["code"] = int(value)
        elif detail["key"] == "Message":
            error["message"] = value
    error.setdefault("message", what.strip())
    answer = {"jsonrpc": "2.0", "id": waiting[found["method"]].pop(0), "error": error}
    return json.dumps(answer, ensure_ascii=False, separators=(",", ":"))


_FRAME_HEAD = re.compile(rb"((?:[A-Za-z][A-Za-z-]*:[^\r\n]*\r?\n)+)\r?\n")
_FRAME_EXPECTED = "expected `Content-Length: N`, a blank line, then N bytes of JSON"


def _framed(text: str, filename: str | None) -> list[Sent]:
    """A stdio capture of `Content-Length: N` framed messages, in the order they are in the
    file; who sent each is inferred as for bare JSON Lines (one stream of one side reads as
    that side's messages, `_one_stream`). A message that does not frame as its header says
    is an error, and reading goes on at the next header, so that every one is reported."""
    data = text.encode("utf-8")
    records: list[tuple[Any, str]] = []
    errors: list[VolleyError] = []
    at = 0

    def fail(what: str, where: int, hint: str | None = None, past: int = 0) -> int:
        """Keep the error; where reading goes on: the next line that starts a header, past
        `past` (the end of the header that failed, whose other lines may start so)."""
        before = data[:where].decode("utf-8", "replace")
        number = before.count("\n")
        errors.append(
            VolleyError(
                f"this Content-Length framed capture {what}",
                filename=filename,
                line=number + 1,
                column=len(before) - before.rfind("\n"),
                source_line=text.split("\n")[number].rstrip("\r")[:200],
                hint=hint,
            )
        )
        after = _NEXT_HEAD.search(data, max(where + 1, past))
        return after.start(1) if after else len(data)

    while True:
        while at < len(data) and data[at] in b" \t\r\n":
            at += 1
        if at >= len(data):
            break
        head = _FRAME_HEAD.match(data, at)
        fields = dict(
            (name.strip().lower(), value.strip())
            for name, _, value in (
                field.decode("utf-8", "replace").partition(":")
                for field in (head[1].splitlines() if head else [])
            )
        )
        length = fields.get("content-length")
        if head is None or length is None:
            at = fail(
                "has a message without a Content-Length header",
                at,
                _FRAME_EXPECTED,
                head.end() if head else 0,
            )
            continue
        if not (length.isascii() and length.isdigit()):
            at = fail(
                f"has a Content-Length that is not a number of bytes: {length!r}",
                at,
                _FRAME_EXPECTED,
                head.end(),
            )
            continue
        size = int(length)
        body = data[head.end() : head.end() + size]
        if len(body) < size:
            at = fail(
                f"ends inside a message: Content-Length says {length} bytes, {len(body)} remain",
                head.end(),
                _short_message_hint(body),
            )
            continue
        try:
            record = json.loads(body)
        except ValueError:
            at = fail(
                f"has a message whose {length} bytes are not JSON",
                head.end(),
                "check that Content-Length counts the bytes of the JSON (UTF-8), not characters",
            )
            continue
        records.append((record, body.decode("utf-8", "replace")))
        at = head.end() + size
    if errors:
        raise VolleyErrors(errors)
    sides = _sides([record for record, _ in records])
    return [Sent(side, body) for side, (_, body) in zip(sides, records, strict=True)]


# Where reading goes on after a message that did not frame: the next header (the base
# protocol has two), at a line's start or straight after the JSON before it (a capture has no
# line break between a body and the next header).
_NEXT_HEAD = re.compile(rb"(?:^|[\n}\]])[ \t]*((?i:content-(?:length|type)):)", re.MULTILINE)


def _short_message_hint(rest: bytes) -> str:
    """What to do about a message longer than what is left: when its JSON ends before another
    message's header, that header's count is wrong (a capture edited by hand); else the
    capture was cut short."""
    cut_short = "a capture cut short: remove the partial message at its end"
    try:
        text = rest.decode("utf-8")
        _, end = json.JSONDecoder().raw_decode(text)
    except (UnicodeDecodeError, ValueError):
        return cut_short
    if text[end:].lstrip()[:15].lower() != "content-length:":
        return cut_short
    size = len(text[:end].encode("utf-8"))  # Content-Length counts bytes
    return (
        f"its JSON ends after {size} bytes, where the next message's header starts: its "
        f"Content-Length is wrong (a capture edited by hand?); make it {size}"
    )


def _trace_score(text: str) -> int:
    """100 when the text starts as VS Code's trace does; 80 when a trace record comes later
    (after other output of the channel), less than a Markdown file quoting one in its
    Mermaid blocks gets, so that one is read as Markdown."""
    if "[Trace - " not in text:
        return 0
    lines = [line for line in _trace_lines(text[:200_000]) if line.strip()]
    records = [bool(_TRACE.match(line) or _TRACE_ORPHAN.match(line)) for line in lines]
    return 100 if records and records[0] else 80 if any(records) else 0


def _is_framed(text: str) -> bool:
    return bool(_FIRST_HEAD.match(text))


# A capture's first header: its count, perhaps after its type (the base protocol's two headers)
_FIRST_HEAD = re.compile(r"\s*(?:content-type:[^\r\n]*\r?\n)?content-length:", re.IGNORECASE)


def detect(text: str) -> int:
    """100 for an MCP host's log, VS Code's log of an MCP server, Neovim's LSP log, VS Code's
    LSP trace or Helix's log (80 for one of the last four after other lines); 95 for
    Content-Length framed messages; 90 for JSON Lines of JSON-RPC messages (or batches of
    them)."""
    if "Message from client:" in text or "Message from server:" in text:
        return 100 if any(_HOST_LINE.match(line) for line in text.split("\n", 2000)) else 0
    if sure := _log_score(text, _EDITOR_MARKERS, _EDITOR_LINE):
        return sure
    if sure := _log_score(text, _NEOVIM_MARKERS, _NEOVIM_LINE):
        return sure
    if sure := _trace_score(text):
        return sure
    if sure := _log_score(text, _HELIX_MARKERS, _HELIX_LINE):
        return sure
    if sure := vim_lsp_score(text):
        return sure
    if marked := marked_log(text):
        return marked[1]
    if _is_framed(text):
        return 95
    if _is_transcript(text):
        return 90
    records = _array(text)
    if records is not None:  # a session saved as one JSON array of its messages
        return 90 if records and all(map(_is_record, records)) else 0
    first = next((line for line in text.split("\n", 50) if line.strip()), "")
    try:
        record = json.loads(first)
    except ValueError:
        return 0
    return 90 if _is_record(record) else 0


def _is_record(record: Any) -> bool:
    """A JSON-RPC message, a batch of them (`[{…}, {…}]`), or a record of one with its direction
    (`{"direction": "send", "message": {…}}`)."""
    batch = record if isinstance(record, list) and record else [record]
    if all(isinstance(each, dict) and each.get("jsonrpc") == "2.0" for each in batch):
        return True
    return (
        isinstance(record, dict)
        and _direction(record) is not None
        and any(k in record for k in _MESSAGE_KEYS)
    )


def read_jsonrpc(
    text: str | bytes, options: TrafficOptions | None = None, filename: str | None = None
) -> tuple[list[Diagram], list[Diagnostic]]:
    """The diagrams of a JSON-RPC log, one for each session it holds (a host or an editor
    that restarted the server, or ran again, starts a new one with `initialize`), and what
    the user should hear about how it was read."""
    if isinstance(text, bytes):
        text = text.decode("utf-8-sig", errors="replace")
    text = text.removeprefix("\ufeff")
    if _is_framed(text):  # Content-Length counts bytes: read before line ends are touched
        return _session_diagrams(_framed(text, filename), options, None), []
    text = text.replace("\r\n", "\n")
    server: str | None = None
    if "Message from client:" in text or "Message from server:" in text:
        by_server, warnings = _host_log(text)
        return _diagrams_by_server(by_server, options, warnings, filename)
    if _log_score(text, _EDITOR_MARKERS, _EDITOR_LINE):
        sent, server, warnings = _editor_log(text)
    elif _log_score(text, _NEOVIM_MARKERS, _NEOVIM_LINE):
        sent, warnings = _neovim_log(text)
        servers = _neovim_servers(text)
        if len(servers) > 1:  # one diagram: an initialize may start any of them
            warnings.append(_several_servers(servers, text.split("\n")))
            diagram = session_diagram(sent, options, server=_SEVERAL_SERVERS)
            return [diagram], [replace(warning, filename=filename) for warning in warnings]
        server = next(iter(servers), None)
    elif _trace_score(text):
        sent, warnings = _lsp_trace(text, filename)
    elif _log_score(text, _HELIX_MARKERS, _HELIX_LINE):
        helix, warnings = _helix_log(text)
        return _diagrams_by_server(helix, options, warnings, filename, "Helix")
    elif vim_lsp_score(text):
        by_server, warnings = read_vim_lsp_log(text)
        return _diagrams_by_server(by_server, options, warnings, filename, "Vim")
    elif marked := marked_log(text):
        log = marked[0]
        by_server, warnings = read_marked_log(text, log)
        if None in by_server:  # a log of one server: named by the log, or by its messages
            sent = by_server.pop(None)
            named = log.server or (None if _names(sent)["server"] else started_server(text, log))
            by_server = {named: sent, **by_server}
        return _diagrams_by_server(by_server, options, warnings, filename, log.client)

    elif _is_transcript(text):
        sent, warnings = _transcript(text)
    else:
        sent, warnings = _json_lines(text, filename)
    return _diagrams_by_server({server: sent}, options, warnings, filename)


def _diagrams_by_server(
    by_server: dict[str | None, list[Sent]],
    options: TrafficOptions | None,
    warnings: list[Diagnostic],
    filename: str | None,
    unnamed_client: str = "Client",
) -> tuple[list[Diagram], list[Diagnostic]]:
    """The diagrams of a log, each server's sessions apart (a log of one server holds one),
    and its warnings, which name the file."""
    diagrams = [
        diagram
        for name, said in by_server.items()
        for diagram in _session_diagrams(said, options, name, unnamed_client)
    ]
    return diagrams, [replace(warning, filename=filename) for warning in warnings]


def _session_diagrams(
    sent: list[Sent],
    options: TrafficOptions | None,
    server: str | None,
    unnamed_client: str = "Client",
) -> list[Diagram]:
    """A diagram for each session: a new one starts at each `initialize` the client sends
    after the first message."""
    sessions: list[list[Sent]] = [[]]
    for line in sent:
        starts = (
            line.sender == "client"
            and '"initialize"' in line.text  # most messages: no need to parse them here
            and any(
                message.get("method") == "initialize" and "id" in message
                for message in _parsed(line.text) or []
            )
        )
        if starts and any(not said.remark for said in sessions[-1]):  # notes alone: no session
            sessions.append([])
        sessions[-1].append(line)
    return [
        session_diagram(session, options, server=server, unnamed_client=unnamed_client)
        for session in sessions
    ]


def import_jsonrpc(
    text: str | bytes, options: TrafficOptions | None = None, filename: str | None = None
) -> Diagram:
    """The diagram of a JSON-RPC log that holds one session (an MCP host's log, JSON Lines,
    an LSP trace or capture); one that holds several is refused, naming how many."""
    diagrams, _ = read_jsonrpc(text, options, filename)
    if len(diagrams) > 1:
        raise VolleyError(
            f"this log holds {len(diagrams)} sessions (each starts with initialize)",
            filename=filename,
            hint="volley import writes one diagram for each into a folder (-o DIR)",
        )
    return diagrams[0]


def convert(
    text: str, filename: str | None = None, options: TrafficOptions | None = None
) -> list[Imported]:
    """`volley import` of a JSON-RPC log: a diagram for each session it holds, their secrets
    masked unless asked not to."""
    options = options or TrafficOptions()
    diagrams, warnings = read_jsonrpc(text, options, filename)
    out = []
    for number, diagram in enumerate(diagrams, 1):
        item = imported(diagram, options)
        name = part_name(filename, number) if len(diagrams) > 1 else None
        out.append(replace(item, name=name, warnings=tuple(warnings) if number == 1 else ()))
    return out
