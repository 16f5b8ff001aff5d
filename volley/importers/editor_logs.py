"""Logs that editors and language servers write, each line marked with who sent its message.

People paste these into bug reports and docs as they come; each is read as the log it is:

- Emacs Eglot's events buffer (jsonrpc.el): `[jsonrpc] e[13:35:33.125] --> initialize[1] {…}`
  for what Emacs sent, `<--` for what the server sent; `[stderr] …` lines are the server's
  stderr, drawn as notes. Eglot's first versions wrote a header (`client-request (id:1) Tue
  Nov  5 15:16:06 2019:`, `server-reply`, `server-notification` …) and under it the message
  as the Lisp value it was decoded to (`volley.importers.lisp_values`).
- clangd's own log (`--log=verbose`): `V[15:59:41.877] <<< {…}` for what clangd received from
  the editor, `>>> {…}` for what it sent (the other way round from a client's log), its JSON on
  one line or pretty-printed over several. At the default level it logs each message by its
  method and id only (`I[…] <-- textDocument/hover(5)`, `--> reply:textDocument/hover(5)
  0 ms`): arrows without payloads. `E[…]` lines are its errors, drawn as notes.
- Zed's RPC messages (Server Logs): `// Send:` or `// Receive:` (later `// Receive (took
  2.8ms):`), the message on the lines below.
- Sublime Text's LSP log panel: `:: [07:54:41.870] --> LSP-pylance initialize (1): {…}`, its
  params as Python writes them, read back as JSON; `LSP-pylance: …` lines are that server's
  stderr.
- `CLIENT >> {…}` and `SERVER >> {…}`, a line each.
- Puppeteer's protocol log (`DEBUG=puppeteer:protocol*`): `SEND ► {…}` and `◀ RECV {…}`, the
  Chrome DevTools Protocol's messages (JSON-RPC without its version member).
"""

from __future__ import annotations

import ast
import json
import re
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from volley.errors import Diagnostic
from volley.importers.lisp_values import read_lisp_value
from volley.importers.log_records import (
    Sent,
    Side,
    compact,
    is_message,
    log_records,
    record_texts,
)

__all__ = ["MarkedLog", "marked_log", "read_marked_log", "started_server"]


@dataclass(frozen=True)
class MarkedLog:
    """A log whose records start with a mark of who sent the message."""

    markers: tuple[str, ...]  # one of them is in every such log: a cheap test before `record`
    record: re.Pattern[str]  # a record's first line: the mark (`way`) and what follows (`rest`)
    starts: re.Pattern[str]  # a line that starts any record of the log, ending the one before
    from_client: frozenset[str]  # the marks of what the editor (the client) sent
    client: str  # the client's lane, unless the messages name it (`clientInfo`)
    server: str | None = None  # the server's lane, whatever the messages name it
    # a line naming the command that runs the server (`server`): its lane unless the
    # messages name it (`serverInfo`)
    started: re.Pattern[str] | None = None
    # a line the server wrote of itself (`said`), drawn as a note headed `noted`
    note: re.Pattern[str] | None = None
    noted: str = "stderr"
    # for a log that writes a message its own way (by its method and id, its params as Python
    # writes them): from the mark and what follows it, the message it stands for and what its
    # arrow shows (None: the message; "": nothing, the log kept no payload; else as logged)
    summary: Callable[[str, str], tuple[dict[str, Any], str | None] | None] | None = None


_CLANGD_START = r"[EWIVD]\[\d\d:\d\d:\d\d\.\d+\] "


def _clangd_summary(way: str, rest: str) -> tuple[dict[str, Any], str | None] | None:
    """The message clangd's line at the default level stands for, without a payload:
    `method(id)` a request, `method` a notification, `reply:method(id) 3 ms` or `reply(id)` a
    response (`, error: …` after it a failed one)."""
    found = _CLANGD_SUMMARY.fullmatch(rest.strip())
    if found is None:
        return None
    message: dict[str, Any] = {"jsonrpc": "2.0"}
    if found["id"] is not None:
        message["id"] = _written_id(found["id"])
    if found["reply"] is None:
        message["method"] = found["method"]
        return message, ""
    if found["error"] is not None:
        message["error"] = {"message": found["error"]}
    else:
        message["result"] = None
    return (message, "") if "id" in message else None


_CLANGD_SUMMARY = re.compile(
    r"(?:(?P<reply>reply)(?::[^\s(]+)?|(?P<method>[^\s(]+))"
    r"(?:\((?P<id>[^()\s]*)\))?(?:[ \t]+\d+[ \t]*ms)?(?:,[ \t]*error:[ \t]*(?P<error>.*))?"
)


def _written_id(written: str) -> Any:
    """An id as a log writes it between brackets: a number, or a string (quoted or not)."""
    try:
        return json.loads(written)
    except ValueError:
        return written


# Sublime Text's LSP log panel: `-->` a request the editor sent, ` ->` its notification, `>>>`
# its answer (`~~>` an error); `<--`, `<-`, `<?` and `<<<` (`<~~`, `<==`) the server's. Each
# message is written as `:: [TIME] MARK SERVER METHOD (ID): PARAMS` (before 2023 without the
# time, and `METHOD(ID)`; an answer `ID` or `(ID) (duration: 3ms)`), its params as Python
# writes them (`repr`).
_SUBLIME_REQUEST = re.compile(r"(?P<method>[^\s(:]+) ?\((?P<id>[^()\n]*)\): (?P<params>.*)", re.S)
_SUBLIME_ANSWER = re.compile(
    r"\(?(?P<id>[^()\s:]+)\)?(?: \(duration: [^)\n]*\))?: (?P<params>.*)", re.S
)
_SUBLIME_NOTIFICATION = re.compile(r"(?P<method>[^\s(:]+): (?P<params>.*)", re.S)


def _sublime_message(way: str, rest: str) -> tuple[dict[str, Any], str | None] | None:
    """The message a line of Sublime's log panel stands for, its params read back as the
    JSON they were; params Python cannot read back (`<params with 90000 characters>`, the
    panel's stand-in for a long one) are shown as logged."""
    way = way.strip()
    kind = (
        _SUBLIME_REQUEST if way in ("-->", "<--")
        else _SUBLIME_NOTIFICATION if way in ("->", "<-", "<?")
        else _SUBLIME_ANSWER
    )  # fmt: skip
    found = kind.fullmatch(rest.strip())
    if found is None:
        return None
    message: dict[str, Any] = {"jsonrpc": "2.0"}
    if kind is not _SUBLIME_NOTIFICATION:
        message["id"] = _written_id(found["id"])
    if kind is not _SUBLIME_ANSWER:
        message["method"] = found["method"]
    member = "params" if kind is not _SUBLIME_ANSWER else "error" if "~~" in way else "result"
    try:
        value = ast.literal_eval(found["params"])
        json.dumps(value)  # what Python wrote of JSON is JSON again
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        if member != "params":
            message[member] = {} if member == "error" else None
        return message, found["params"]
    message[member] = value
    return message, None


def _plist_message(way: str, logged: str) -> tuple[dict[str, Any], str | None] | None:
    """The message an Eglot record of its first versions holds, as the Lisp value it was
    decoded to (`(:jsonrpc "2.0" :id 1 :method …)`), read back as JSON."""
    try:
        message = read_lisp_value(logged)
    except (ValueError, RecursionError):
        return None
    return (message, None) if is_message(message) else None


# clangd at the verbose level, each message as JSON; at the default level, by method and id.
_CLANGD = MarkedLog(
    markers=("] <<< ", "] >>> "),
    record=re.compile(rf"^{_CLANGD_START}(?P<way><<<|>>>)[ \t]*(?P<rest>[{{\[].*)$", re.M),
    starts=re.compile(rf"^{_CLANGD_START}"),
    from_client=frozenset({"<<<"}),
    client="Editor",
    server="clangd",
    note=re.compile(r"^E\[[^\]\n]*\] (?P<said>.*)$"),
    noted="error",
)

# Most specific first: a log is read as the first of these it holds a record of.
LOGS = (
    MarkedLog(
        markers=("[jsonrpc] ",),
        record=re.compile(
            r"^\[jsonrpc\] e\[[^\]\n]*\] (?P<way>-->|<--) \S+ (?P<rest>[{\[].*)$", re.M
        ),
        starts=re.compile(r"^\[[a-z-]+\] "),
        from_client=frozenset({"-->"}),
        client="Emacs",
        started=re.compile(
            r"^\[jsonrpc\] D\[[^\]\n]*\] Running language server: (?P<server>\S+)", re.M
        ),
        note=re.compile(r"^\[stderr\][ \t]*(?P<said>.*)$"),
    ),
    MarkedLog(  # Eglot's first versions: a header line, then the message as a Lisp value
        markers=("client-request (id:", "server-request (id:", "-notification "),
        record=re.compile(
            r"^(?P<way>client|server)-(?:request|reply|notification)\b[^\n]*:(?P<rest>[ \t]*)$",
            re.M,
        ),
        starts=re.compile(r"^(?:client|server|internal)-\w+\b|^\[[a-z-]+\] "),
        from_client=frozenset({"client"}),
        client="Emacs",
        summary=_plist_message,
    ),
    _CLANGD,
    replace(
        _CLANGD,
        markers=("] <-- ", "] --> "),
        record=re.compile(r"^I\[\d\d:\d\d:\d\d\.\d+\] (?P<way><--|-->) (?P<rest>\S.*)$", re.M),
        from_client=frozenset({"<--"}),
        summary=_clangd_summary,
    ),
    MarkedLog(
        markers=("// Send:", "// Receive"),
        # the mark alone on its line (a diagram's `// Send: the order` is a comment)
        record=re.compile(r"^// (?P<way>Send|Receive)\b[^:\n]*:(?P<rest>[ \t]*)$", re.M),
        starts=re.compile(r"^// (?:Send|Receive)\b[^:\n]*:"),
        from_client=frozenset({"Send"}),
        client="Zed",
    ),
    MarkedLog(
        markers=(":: ",),
        record=re.compile(
            r"^:: (?:\[[^\]\n]*\] )?(?P<way>-->| ->|>>>|~~>|<--|<- |<\? |<<<|<~~|<==) "
            r"(?P<server>\S+) (?P<rest>.*)$",
            re.M,
        ),
        starts=re.compile(r"^:: |^[\w.-]+: "),
        from_client=frozenset({"-->", " ->", ">>>", "~~>"}),
        client="Sublime Text",
        note=re.compile(r"^(?P<server>[\w.-]+): (?P<said>.*)$"),
        summary=_sublime_message,
    ),
    MarkedLog(
        markers=("CLIENT >> ", "SERVER >> "),
        record=re.compile(r"^[ \t]*(?P<way>CLIENT|SERVER) >>[ \t]*(?P<rest>[{\[].*)$", re.M),
        starts=re.compile(r"^[ \t]*(?:CLIENT|SERVER) >>"),
        from_client=frozenset({"CLIENT"}),
        client="Client",
    ),
    MarkedLog(
        markers=("puppeteer:protocol",),
        record=re.compile(
            r"^[ \t]*(?:\S+ )?puppeteer:protocol\S* (?P<way>SEND ►|◀ RECV)[ \t]*(?P<rest>.*)$", re.M
        ),
        starts=re.compile(r"^[ \t]*(?:\S+ )?puppeteer:"),
        from_client=frozenset({"SEND ►"}),
        client="Puppeteer",
        server="Browser",
    ),
)


def marked_log(text: str) -> tuple[MarkedLog, int] | None:
    """The log `text` is and how sure that is: 100 when it starts with a record of the log,
    80 when a record comes later (a page quoting one, read as the page it is). A log holds a
    message: a record's mark without one is no log (a comment in a diagram)."""
    first = next((line for line in text.split("\n", 50) if line.strip()), "")
    for log in LOGS:
        if not any(marker in text for marker in log.markers) or not log.record.search(text):
            continue
        if log.summary is None and not _MESSAGE.search(text):
            continue
        return log, 100 if log.starts.match(first) else 80
    return None


_MESSAGE = re.compile(r'"(?:method|id|result|error)"[ \t]*:')  # a member of a message


def read_marked_log(
    text: str, log: MarkedLog
) -> tuple[dict[str | None, list[Sent]], list[Diagnostic]]:
    """The messages of a log, in order, by the server each line names (None in a log of one
    server), with the server's own words (stderr, errors) as notes where they came, and what
    could not be read."""
    lines = text.split("\n")
    warnings: list[Diagnostic] = []
    found: list[tuple[int, str | None, Sent]] = []
    named = "server" in log.record.groupindex  # Sublime's panel: several servers, each named
    if log.summary is None:
        for number, match, logged in log_records(lines, log.record, log.starts, warnings):
            side: Side = "client" if match["way"] in log.from_client else "server"
            found.append((number, match["server"] if named else None, Sent(side, logged)))
    else:
        for number, match, logged in record_texts(lines, log.record, log.starts):
            side = "client" if match["way"] in log.from_client else "server"
            stands_for = log.summary(match["way"], logged)
            if stands_for is None:  # kept as logged: a note says it could not be read
                sent = Sent(side, logged.strip())
            else:
                message, as_logged = stands_for
                written = json.dumps(message, ensure_ascii=False, separators=(",", ":"))
                sent = Sent(side, written, as_logged=as_logged)
            found.append((number, match["server"] if named else None, sent))
    servers = {server for _, server, _ in found}
    said_by = log.note.match if log.note is not None else lambda line: None
    for number, said in enumerate(map(said_by, lines)):
        server = said["server"] if said and named else None  # `NAME: …` of a server it names
        if said and said["said"].strip() and server in servers:
            note = Sent("server", f"{log.noted}: {compact(said['said'])}", remark=True)
            found.append((number, server, note))
    by_server: dict[str | None, list[Sent]] = {}
    for _, server, sent in sorted(found, key=lambda record: record[0]):
        by_server.setdefault(server, []).append(sent)
    return by_server, warnings


def started_server(text: str, log: MarkedLog) -> str | None:
    """The command the log says runs the server, by its file's name (`…/bin/ty` is ty)."""
    found = log.started.search(text) if log.started is not None else None
    return found["server"].replace("\\", "/").rsplit("/", 1)[-1] if found else None
