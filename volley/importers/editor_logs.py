"""Logs that editors and language servers write, each line marked with who sent its message.

People paste these into bug reports and docs as they come; each is read as the log it is:

- Emacs Eglot's events buffer (jsonrpc.el): `[jsonrpc] e[13:35:33.125] --> initialize[1] {…}`
  for what Emacs sent, `<--` for what the server sent; `[stderr] …` lines are the server's
  stderr, drawn as notes.
- clangd's own log (`--log=verbose`): `V[15:59:41.877] <<< {…}` for what clangd received from
  the editor, `>>> {…}` for what it sent (the other way round from a client's log), its JSON on
  one line or pretty-printed over several. At the default level it logs each message by its
  method and id only (`I[…] <-- textDocument/hover(5)`, `--> reply:textDocument/hover(5)
  0 ms`): arrows without payloads. `E[…]` lines are its errors, drawn as notes.
- Zed's RPC messages (Server Logs): `// Send:` or `// Receive:` (later `// Receive (took
  2.8ms):`), the message on the lines below.
- `CLIENT >> {…}` and `SERVER >> {…}`, a line each.
- Puppeteer's protocol log (`DEBUG=puppeteer:protocol*`): `SEND ► {…}` and `◀ RECV {…}`, the
  Chrome DevTools Protocol's messages (JSON-RPC without its version member).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from volley.errors import Diagnostic
from volley.importers.log_records import Sent, Side, compact, log_records

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
    # for a log that keeps a message's method and id only: the message its `rest` stands for
    summary: Callable[[str, Side], dict[str, Any] | None] | None = None


_CLANGD_START = r"[EWIVD]\[\d\d:\d\d:\d\d\.\d+\] "


def _clangd_summary(rest: str, side: Side) -> dict[str, Any] | None:
    """The message clangd's line at the default level stands for: `method(id)` a request,
    `method` a notification, `reply:method(id) 3 ms` or `reply(id)` a response (`, error: …`
    after it a failed one)."""
    found = _CLANGD_SUMMARY.fullmatch(rest.strip())
    if found is None:
        return None
    message: dict[str, Any] = {"jsonrpc": "2.0"}
    if found["id"] is not None:
        message["id"] = _clangd_id(found["id"])
    if found["reply"] is None:
        message["method"] = found["method"]
        return message
    if found["error"] is not None:
        message["error"] = {"message": found["error"]}
    else:
        message["result"] = None
    return message if "id" in message else None


_CLANGD_SUMMARY = re.compile(
    r"(?:(?P<reply>reply)(?::(?P<method2>[^\s(]+))?|(?P<method>[^\s(]+))"
    r"(?:\((?P<id>[^()\s]*)\))?(?:[ \t]+\d+[ \t]*ms)?(?:,[ \t]*error:[ \t]*(?P<error>.*))?"
)


def _clangd_id(written: str) -> Any:
    """An id as clangd writes it between brackets: a number, or a string in quotes."""
    try:
        return json.loads(written)
    except ValueError:
        return written


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
        record=re.compile(r"^// (?P<way>Send|Receive)\b[^:\n]*:[ \t]*(?P<rest>.*)$", re.M),
        starts=re.compile(r"^// (?:Send|Receive)\b[^:\n]*:"),
        from_client=frozenset({"Send"}),
        client="Zed",
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
    80 when a record comes later (a page quoting one, read as the page it is)."""
    first = next((line for line in text.split("\n", 50) if line.strip()), "")
    for log in LOGS:
        if any(marker in text for marker in log.markers) and log.record.search(text):
            return log, 100 if log.starts.match(first) else 80
    return None


def read_marked_log(text: str, log: MarkedLog) -> tuple[list[Sent], list[Diagnostic]]:
    """The messages of a log, in order, with the server's own words (stderr, errors) as notes
    where they came, and what could not be read."""
    lines = text.split("\n")
    warnings: list[Diagnostic] = []
    found: list[tuple[int, Sent]] = []
    for number, match, message in log_records(lines, log.record, log.starts, warnings):
        side: Side = "client" if match["way"] in log.from_client else "server"
        if log.summary is None:
            found.append((number, Sent(side, message)))
        elif (stands_for := log.summary(match["rest"], side)) is not None:
            found.append((number, Sent(side, json.dumps(stands_for), as_logged="")))
    if log.note is not None:
        for number, line in enumerate(lines):
            said = log.note.match(line)
            if said is not None and said["said"].strip():
                note = f"{log.noted}: {compact(said['said'])}"
                found.append((number, Sent("server", note, remark=True)))
    return [sent for _, sent in sorted(found, key=lambda pair: pair[0])], warnings


def started_server(text: str, log: MarkedLog) -> str | None:
    """The command the log says runs the server, by its file's name (`…/bin/ty` is ty)."""
    found = log.started.search(text) if log.started is not None else None
    return found["server"].replace("\\", "/").rsplit("/", 1)[-1] if found else None
