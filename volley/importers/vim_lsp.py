"""vim-lsp's log (`g:lsp_log_file`, with `g:lsp_log_verbose` on), as people paste it into
bug reports.

Each record is a line: the time as Vim's `strftime('%c')` writes it in the user's language
(`Do 23 Mai 2024 10:14:57 CEST`), a colon, and the record as a JSON array:

- `["--->", 1, "ruff-server", {…}]`: what Vim sent to the server it names (1 is vim-lsp's
  number for it). A request is logged before vim-lsp gives it its id and its `jsonrpc`
  member, with vim-lsp's own keys in it (`"on_notification": "---funcref---"`);
- `["<---", 1, "ruff-server", {"response": {…}, "request": {…}}]`: what the server sent, as
  sent, and the request it answers as it went on the wire, with its id;
- `["<---", "s:on_request", 1, {…}]` (`["<---", 1, {…}]` in 2019): a request of the server's;
- `["<---(stderr)", 1, "ruff-server", "…"]`: a line the server wrote on its stderr, drawn as a
  note;
- anything else is vim-lsp's account of itself (`["Starting server", …]`), left out, but for
  its errors (`["s:on_stdout client option on_notification() error", "Vim(let):E716: …"]`),
  drawn as notes on Vim's side.

A request Vim sent becomes the request its answer repeats, id and all. One whose answer is
not in the log gets the id vim-lsp gave it: it numbers a server's requests 1, 2, 3… in the
order it sends them, so the count goes on from the nearest request whose id is known.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, replace
from typing import Any

from volley.errors import Diagnostic
from volley.importers.log_records import Sent, Side, compact, is_message, not_json

__all__ = ["read_vim_lsp_log", "vim_lsp_score"]

# A record: the time as the locale writes it (digits in it, no bracket: `Do 23 Mai 2024
# 10:14:57 CEST`, `2024年06月03日 星期一 10时00分00秒`), a colon, the record's array.
VIM_LSP_RECORD = re.compile(r"^(?P<time>[^\[\n]*\d[^\[\n]*?):(?P<rest>\[.*)$", re.M)
# A message's record, found anywhere in a text: what tells the log apart from others.
VIM_LSP_MARK = re.compile(r':\[[ \t]*"(?:--->|<---)"[ \t]*,')

# Keys vim-lsp adds to a request it logs, which never go on the wire.
_OWN_KEYS = ("on_notification", "sync", "sync_timeout", "bufnr")
_WIRE_KEYS = ("id", "method", "params", "result", "error")
_ERROR = re.compile(r"\berror\b", re.I)


@dataclass
class _Logged:
    """A record of the log read: who sent what, and for a request Vim logged without its
    id, whether vim-lsp waited for an answer (its `on_notification`)."""

    line: int  # its index in the log
    server: str | None
    sent: Sent | None
    message: dict[str, Any] | None = None  # the message, while it may still change
    asked: bool = False  # a request Vim sent, its id not logged
    awaited: bool = False  # vim-lsp logged the callback that waits for its answer
    # vim-lsp's number of the server's process (`--->`, 1, …): each counts its requests anew
    client: str | None = None


def vim_lsp_score(text: str) -> int:
    """100 when the text starts as a vim-lsp log does, 80 when its records come later (a page
    quoting one), 0 when it holds no message's record."""
    if VIM_LSP_MARK.search(text) is None or VIM_LSP_RECORD.search(text) is None:
        return 0
    first = next((line for line in text.split("\n", 50) if line.strip()), "")
    return 100 if VIM_LSP_RECORD.match(first) else 80


def read_vim_lsp_log(text: str) -> tuple[dict[str | None, list[Sent]], list[Diagnostic]]:
    """The messages of a vim-lsp log by the server each went to or came from, the servers'
    stderr and vim-lsp's errors as notes where they came, and what could not be read."""
    lines = text.split("\n")
    warnings: list[Diagnostic] = []
    logged: list[_Logged] = []
    names: dict[Any, str] = {}  # vim-lsp's number of a server -> its name
    current: str | None = None  # the server of the record before, for one that names none
    for number, line in enumerate(lines):
        found = VIM_LSP_RECORD.match(line)
        if found is None:
            continue
        rest = found["rest"]
        try:
            record = json.loads(rest)
        except (ValueError, RecursionError) as exc:
            if VIM_LSP_MARK.match(":" + rest):  # a message's record, cut or garbled
                warnings.append(not_json(exc, lines, number, rest, found.start("rest")))
                side: Side = "client" if rest.lstrip("[ \t").startswith('"--->"') else "server"
                logged.append(_Logged(number, current, Sent(side, rest.strip())))
            continue
        read = _record(record, names, number)
        if read is not None:
            current = read.server or current
            read.server = read.server or current
            logged.append(read)
    for unsure in _answered(logged):
        warnings.append(
            Diagnostic(
                "vim-lsp logs a request before it gives it its id, and no answer in this log "
                "repeats a request to this server: its requests are numbered as vim-lsp "
                "numbers them, from 1 at the first one logged",
                None,
                unsure.line + 1,
                1,
                lines[unsure.line],
                severity="warning",
                hint="a log kept from the server's start, or one that holds an answer, has the "
                "ids as sent",
            )
        )
    by_server: dict[str | None, list[Sent]] = {}
    for each in logged:
        sent = each.sent
        if each.message is not None:
            sent = Sent("client", json.dumps(each.message, ensure_ascii=False))
        if sent is not None:
            by_server.setdefault(each.server, []).append(sent)
    return by_server, warnings


def _record(record: Any, names: dict[Any, str], line: int) -> _Logged | None:
    """What one record of the log holds, or None for vim-lsp's account of itself."""
    if not isinstance(record, list) or not record or not isinstance(record[0], str):
        return None
    mark, *rest = record
    if mark == "--->" and len(rest) == 3 and is_message(rest[2]):
        names[_key(rest[0])] = str(rest[1])
        return replace(_sent(line, str(rest[1]), rest[2]), client=_key(rest[0]))
    if mark == "<---" and len(rest) == 3 and isinstance(rest[2], dict) and "response" in rest[2]:
        names[_key(rest[0])] = str(rest[1])
        return replace(_answer(line, str(rest[1]), rest[2]), client=_key(rest[0]))
    if mark == "<---" and rest and is_message(rest[-1]):  # the server's request
        server = names.get(_key(rest[-2])) if len(rest) >= 2 else None
        return _Logged(line, server, Sent("server", json.dumps(rest[-1], ensure_ascii=False)))
    if mark == "<---(stderr)" and len(rest) == 3:
        names[_key(rest[0])] = str(rest[1])
        data = rest[2]
        said = (
            data if isinstance(data, str)
            else "\n".join(map(str, data)) if isinstance(data, list)  # Neovim's: its lines
            else json.dumps(data, ensure_ascii=False)
        )  # fmt: skip
        if not said.strip():
            return None
        return _Logged(line, str(rest[1]), Sent("server", f"stderr: {compact(said)}", remark=True))
    if _ERROR.search(mark):  # vim-lsp's own error, on Vim's side
        details = " ".join(str(each) for each in rest[:1])
        said = compact(f"{mark}: {details}" if details else mark)
        return _Logged(line, None, Sent("client", said, remark=True))
    return None


def _sent(line: int, server: str, data: dict[str, Any]) -> _Logged:
    """What Vim sent: the message as it went on the wire, less vim-lsp's own keys; a request
    (a method, no id) is `asked` until the answer that repeats it gives its id."""
    message = {"jsonrpc": "2.0", **{key: data[key] for key in _WIRE_KEYS if key in data}}
    asked = "method" in data and "id" not in data
    # vim-lsp waits on `initialize` by a callback it keeps apart, which is not logged
    awaited = data.get("method") == "initialize" or any(key in data for key in _OWN_KEYS)
    return _Logged(line, server, None, message, asked=asked, awaited=asked and awaited)


def _answer(line: int, server: str, data: dict[str, Any]) -> _Logged:
    """What the server sent, and the request it answers (kept, to find the one Vim logged)."""
    response = data["response"]
    sent = Sent("server", json.dumps(response, ensure_ascii=False))
    request = data.get("request")
    answered = request if isinstance(request, dict) and "id" in request else None
    return _Logged(line, server, sent, answered)


def _answered(logged: list[_Logged]) -> list[_Logged]:
    """Give each request Vim sent the id it went with: the one its answer repeats, else the
    one vim-lsp's count gives it; an unanswered method that vim-lsp did not wait on is a
    notification."""
    # each server process's requests from Vim, in order
    sent: dict[tuple[str | None, str | None], list[_Logged]] = {}
    for each in logged:
        requests = sent.setdefault((each.server, each.client), [])
        if each.message is None:
            continue
        if each.asked:
            requests.append(each)
            continue
        if each.sent is not None and each.sent.sender == "server":  # an answer: `message` is
            repeated = each.message  # the request it answers, as sent
            each.message = None
            match = _asked(requests, repeated)
            if match is not None:
                match.message, match.asked = repeated, False
    counted = (_counted(requests) for requests in sent.values())
    return [each for each in counted if each is not None]


def _asked(requests: list[_Logged], repeated: dict[str, Any]) -> _Logged | None:
    """The request an answer repeats: of those still waiting with its method (and its params,
    where any has them: a log may hold params vim-lsp changed after logging), the one whose
    place in vim-lsp's count gives the id it repeats, else the first."""
    waiting = [
        each
        for each in requests
        if each.asked and each.message and each.message.get("method") == repeated.get("method")
    ]
    same = [e for e in waiting if e.message and e.message.get("params") == repeated.get("params")]
    candidates = same or waiting
    fits = [each for each in candidates if _counted_id(requests, each) == repeated.get("id")]
    chosen = fits or candidates
    return chosen[0] if chosen else None


def _counted_id(requests: list[_Logged], request: _Logged) -> int | None:
    """The id vim-lsp's count gives a request: one more for each request it waited on since
    the last whose id is known, else its place from the first (None if it was not waited on)."""
    waited = [each for each in requests if not each.asked or each.awaited]
    if request not in waited:
        return None
    index = waited.index(request)
    for before in range(index - 1, -1, -1):
        message = waited[before].message
        if not waited[before].asked and message and isinstance(message.get("id"), int):
            return int(message["id"]) + index - before
    return index + 1


def _counted(requests: list[_Logged]) -> _Logged | None:
    """The ids of the requests no answer repeats, counted from the nearest whose id is known,
    before or after it; the first counted from nothing (no id known, no `initialize` first,
    from which vim-lsp counts 1), which the user hears of."""
    waited = [each for each in requests if not each.asked or each.awaited]
    known = [
        (index, each.message["id"])
        for index, each in enumerate(waited)
        if not each.asked and each.message and isinstance(each.message.get("id"), int)
    ]
    taken = {message_id for _, message_id in known}
    first = waited[0].message if waited else None
    starts = first is not None and first.get("method") == "initialize"
    unsure: _Logged | None = None
    for index, each in enumerate(waited):
        if not each.asked or each.message is None:
            continue
        before = [(i, n) for i, n in known if i < index]
        after = [(i, n) for i, n in known if i > index]
        if before:
            guess = before[-1][1] + index - before[-1][0]
        elif after:
            guess = after[0][1] - (after[0][0] - index)
        else:
            guess = index + 1
            unsure = unsure or (None if starts else each)
        if guess >= 1 and guess not in taken:
            each.message = {"jsonrpc": "2.0", "id": guess, **_without_version(each.message)}
            taken.add(guess)
        each.asked = False
    return unsure


def _without_version(message: dict[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in message.items() if key != "jsonrpc"}


def _key(number: Any) -> str:
    return json.dumps(number)
