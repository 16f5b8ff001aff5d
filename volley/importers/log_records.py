"""The lines of a log that carry messages: each record, what it logged, and the JSON in it.

A log writes a record per message: a line that says who sent it (and when), the message on
it or on the lines after it. The readers of each log (`volley.importers.jsonrpc`,
`volley.importers.editor_logs`) say which lines start a record; these helpers find what each
record logged and the JSON-RPC message in it, and say where one could not be read.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any, Literal

from volley.errors import Diagnostic, json_reason

Side = Literal["client", "server"]


@dataclass(frozen=True)
class Sent:
    """One line one side sent: the text as sent (a JSON-RPC message, or anything else), or
    for a trace the message its record stands for."""

    sender: Side
    text: str
    # what the arrow's payload shows when it is not `text`: the block of a log that is not
    # JSON, as logged; "" when the log kept nothing beyond the method and id (no payload)
    as_logged: str | None = None
    # a line the log wrote about the connection rather than a message ("Connection state:
    # Error …"): a note over the sender's lane
    remark: bool = False
    cut: bool = False  # a message the log cut short: its arrow says so
    # the method a log names for a response (VS Code's trace: `response 'initialize - (0)'`),
    # which names its arrow when the request it answers is not in the log
    answers: str | None = None


def record_texts(
    lines: list[str], record: re.Pattern[str], starts: re.Pattern[str]
) -> Iterator[tuple[int, re.Match[str], str]]:
    """Each line of a log that `record` matches (its index and match), with what it logged:
    its `rest` and the lines after it up to the next line that `starts` a record."""
    index = 0
    while index < len(lines):
        match = record.match(lines[index])
        end = index + 1
        if match is None:
            index = end
            continue
        while end < len(lines) and not starts.match(lines[end]) and not record.match(lines[end]):
            end += 1
        yield index, match, "\n".join([match["rest"], *lines[index + 1 : end]])
        index = end


def unreadable(
    what: str, why: str, lines: list[str], number: int, logged: str, offset: int, at: int
) -> Diagnostic:
    """A warning at the place in a log record (`logged`, from line `number`, its first line
    starting at column `offset`) where reading its message stopped (`at`)."""
    line = number + logged.count("\n", 0, at)
    start = logged.rfind("\n", 0, at) + 1
    column = at - start + (offset if line == number else 0) + 1
    return Diagnostic(
        f"this message is not {what} ({why}); a note shows it as logged",
        None,
        line + 1,
        column,
        lines[line],
        severity="warning",
    )


def not_json(
    error: ValueError | RecursionError,
    lines: list[str],
    number: int,
    logged: str,
    offset: int,
    start: int = 0,
) -> Diagnostic:
    """`unreadable` for a record whose JSON, from `start` in what it logged, did not parse:
    at the place the parser stopped, in the parser's words."""
    if isinstance(error, json.JSONDecodeError):
        return unreadable("JSON", json_reason(error.msg), lines, number, logged, offset, error.pos)
    return unreadable("JSON", "nested too deeply", lines, number, logged, offset, start)


def log_records(
    lines: list[str],
    record: re.Pattern[str],
    starts: re.Pattern[str],
    warnings: list[Diagnostic],
    short: Callable[[str], bool] | None = None,
    left: list[int] | None = None,
) -> Iterator[tuple[int, re.Match[str], str]]:
    """Each line of a log that `record` matches (its index and match), with the message it
    logged: the JSON that starts in what it logged, as far as it runs, or else (with a
    warning) what it logged; or its first line, where `short` says the log wrote the message
    in a short form of its own on that line (the lines after it are then none of it). The
    index of each line after a message's JSON that holds more (another program's output,
    written into the same log) goes into `left`."""
    decoder = json.JSONDecoder()
    for number, match, logged in record_texts(lines, record, starts):
        line_end = logged.find("\n") if "\n" in logged else len(logged)
        first = logged.strip().split("\n", 1)[0]
        if short is not None and short(first):
            if left is not None:
                left.extend(_left_over(logged, line_end, number))
            yield number, match, first
            continue
        start = min((i for i in (logged.find("{"), logged.find("[")) if i >= 0), default=-1)
        if start < 0:
            if left is not None:
                left.extend(_left_over(logged, line_end, number))
            yield number, match, match["rest"].strip()
            continue
        try:
            _, end = decoder.raw_decode(logged, start)
        except (ValueError, RecursionError) as exc:
            if cut_short(logged) is None:  # one the log cut short is read by what it kept
                warnings.append(not_json(exc, lines, number, logged, match.start("rest"), start))
            yield number, match, logged.strip()
            continue
        if left is not None:
            left.extend(_left_over(logged, end, number))
        yield number, match, logged[start:end]


def _left_over(logged: str, end: int, number: int) -> Iterator[int]:
    """The lines of a record (`logged`, from line `number`) after `end`, where its message
    stops, that hold more than Claude Desktop's suffix or `tail`'s header: another program's
    output, written into the same log."""
    rest = logged[end:]
    suffix = _METADATA.match(rest)
    skip = suffix.end() if suffix else 0
    line = number + logged.count("\n", 0, end + skip)
    for k, text in enumerate(rest[skip:].split("\n")):
        if text.strip() and not _TAIL_HEADER.match(text):
            yield line + k


def compact(said: str) -> str:
    """What a log line said, on one line: JSON without its indentation (a ZodError's), else
    its lines joined."""
    try:
        return json.dumps(json.loads(said), ensure_ascii=False, separators=(",", ":"))
    except (ValueError, RecursionError):
        return " ".join(said.split())


def is_message(value: Any) -> bool:
    """A JSON-RPC request or notification (its method a name), or an answer (an id, no method):
    `{"method": 1}` is the specification's own invalid request."""
    if not isinstance(value, dict):
        return False
    return isinstance(value.get("method"), str) if "method" in value else "id" in value


# What Claude Desktop writes after a message: ` { metadata: undefined }` (on a line of its own
# after one written over several)
_METADATA = re.compile(r"\A\s*\{ metadata:[^{}\n]*(?:\{[^{}\n]*\}[^{}\n]*)?\}")
# `tail -f`'s header before the lines of each file it follows: `==> mcp.log <==`
_TAIL_HEADER = re.compile(r"==> .* <==[ \t]*$")
# Where a log left out the middle of a long message: Claude Desktop writes
# `…"$schema":"http://json-schema.org/draft-07/...[11759 chars truncated]...notations":…`.
_CUT = re.compile(r"\.\.\.\[(\d+) chars truncated\]\.\.\.")
_SCALAR = r'(?:-?\d+(?:\.\d+)?|"(?:[^"\\]|\\.)*"|true|false|null)'
_MEMBER = rf'"(?:[^"\\]|\\.)*"[ \t]*:[ \t]*{_SCALAR}'
# The members of a message before its first nested value, and after its last (to its end,
# less what Claude Desktop writes after a message: ` { metadata: undefined }`).
_LEADING = re.compile(rf"[ \t]*\{{[ \t]*(?:{_MEMBER}[ \t]*,[ \t]*)*(?:{_MEMBER})?")
_TRAILING = re.compile(
    rf"(?:[ \t]*,[ \t]*{_MEMBER})*[ \t]*\}}[ \t]*(?:\{{ metadata:[^{{}}]*\}}[ \t]*)?\Z"
)


def cut_short(text: str) -> dict | None:
    """The message a log line stands for when the log cut out its middle: the members it
    kept at the top level (its id, its method), and whether it is a result or an error, as
    far as the parts around the cut say; None if they do not say it is a message."""
    cut = _CUT.search(text)
    if cut is None:
        return None
    head, tail = text[: cut.start()], text[cut.end() :].rstrip()
    leading, trailing = _LEADING.match(head), _TRAILING.search(tail)
    kept: dict = {}
    if leading:
        kept.update(_members(leading[0].rstrip(" \t,") + "}"))
    if trailing:
        kept.update(_members("{" + trailing[0].split("}")[0].lstrip(" \t,") + "}"))
    nested = re.match(
        r'[ \t]*"(result|error|params)"[ \t]*:', head[leading.end() :] if leading else ""
    )
    if nested:
        kept.setdefault(nested[1], {})
    if "method" not in kept and "id" in kept and "error" not in kept:
        kept.setdefault("result", {})
    return kept if is_message(kept) else None


def _members(text: str) -> dict:
    """The members of a JSON object written out (none if it does not parse)."""
    try:
        value = json.loads(text)
    except ValueError:
        return {}
    return value if isinstance(value, dict) else {}
