"""The line-level pass that lifts payload bodies and note continuations out of the text.

Bodies are kept byte for byte and must never be tokenised as volley syntax, so before the
grammar runs, each body (a fenced block, or lines indented deeper than their `in:`/`out:`/note
line) is cut out and replaced by blank lines. Line numbers stay true; the parser later joins each
body to the line that owns it. Which lines own bodies is decided by the grammar's own keyword
terminals, handed in as `is_owner`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from volley.errors import VolleyError

_FENCE_OPEN = re.compile(r"([ \t]*)(`{3,}|~{3,})[ \t]*([^\n]*?)[ \t]*$")
_INDENT = re.compile(r"[ \t]*")
TAB_STOP = 4


@dataclass
class Body:
    """Text lifted from under an owner line (1-based `line`)."""

    line: int
    text: str
    form: str  # "fenced" or "indented" (a note's body may mix both: "indented")
    lang: str | None = None


def indent_width(line: str) -> int:
    """Columns of leading white space, a tab advancing to the next multiple of four."""
    width = 0
    for ch in line:
        if ch == " ":
            width += 1
        elif ch == "\t":
            width += TAB_STOP - width % TAB_STOP
        else:
            break
    return width


def _is_blank(line: str) -> bool:
    return not line.strip(" \t")


def _fence_open(line: str) -> tuple[str, str, str] | None:
    """(indentation, fence, info string) when the line opens a fence."""
    m = _FENCE_OPEN.fullmatch(line)
    if not m:
        return None
    indent, fence, info = m.groups()
    if fence[0] == "`" and "`" in info:
        return None  # CommonMark: a backtick fence's info string holds no backtick
    return indent, fence, info


def _closes(line: str, fence: str) -> bool:
    stripped = line.strip(" \t")
    return len(stripped) >= len(fence) and stripped == fence[0] * len(stripped)


def _strip_indent(line: str, indent: str) -> str:
    if line.startswith(indent):
        return line[len(indent) :]
    return line.lstrip(" \t")


def _common_prefix(lines: list[str]) -> str:
    """The leading white space every non-blank line shares, as characters (tabs and spaces)."""
    prefixes = [_INDENT.match(line).group() for line in lines if not _is_blank(line)]
    if not prefixes:
        return ""
    first, last = min(prefixes), max(prefixes)
    size = 0
    while size < len(first) and first[size] == last[size]:
        size += 1
    return first[:size]


class _Lifter:
    def __init__(self, lines: list[str], filename: str | None) -> None:
        self.lines = lines
        self.filename = filename

    def fenced(self, start: int) -> tuple[int, list[str], str | None, list[str]]:
        """Read the fence opening at `start`: (index after it, body lines, lang, raw lines)."""
        lines = self.lines
        indent, fence, info = _fence_open(lines[start])  # type: ignore[misc]
        end, mark = start + 1, fence[0]
        while end < len(lines) and not (mark in lines[end] and _closes(lines[end], fence)):
            end += 1  # a line without the fence's character (most lines) cannot close it
        if end >= len(lines):
            raise VolleyError(
                f"this fenced block is never closed; expected a closing {fence} on a line "
                "of its own",
                filename=self.filename,
                line=start + 1,
                column=len(indent) + 1,
                source_line=lines[start],
            )
        raw = lines[start : end + 1]
        if indent:
            raw = [_strip_indent(line, indent) for line in raw]
        lang = info.split()[0] if info.split() else None
        return end + 1, raw[1:-1], lang, raw

    def indented(self, start: int, owner_width: int) -> int:
        """Index after the run of lines indented two columns deeper than the owner."""
        end = start
        last = start
        while end < len(self.lines):
            line = self.lines[end]
            if _is_blank(line):
                end += 1
                continue
            if indent_width(line) < owner_width + 2:
                break
            end += 1
            last = end
        return last

    def payload(self, index: int) -> tuple[int, Body | None]:
        owner = self.lines[index]
        nxt = index + 1
        if nxt < len(self.lines) and _fence_open(self.lines[nxt]):
            after, body, lang, _ = self.fenced(nxt)
            return after, Body(index + 1, "\n".join(body), "fenced", lang)
        after = self.indented(nxt, indent_width(owner))
        if after == nxt:
            return nxt, None
        chunk = self.lines[nxt:after]
        prefix = _common_prefix(chunk)
        text = "\n".join("" if _is_blank(line) else line[len(prefix) :] for line in chunk)
        return after, Body(index + 1, text, "indented")

    def note(self, index: int) -> tuple[int, Body | None]:
        """A note's continuation: deeper-indented lines and fenced blocks, in any mix."""
        owner_width = indent_width(self.lines[index])
        pos = index + 1
        parts: list[str] = []
        while pos < len(self.lines):
            if _fence_open(self.lines[pos]):
                pos, _, _, raw = self.fenced(pos)
                parts.extend(raw)
                continue
            after = self.indented(pos, owner_width)
            if after == pos:
                break
            chunk = self.lines[pos:after]
            prefix = _common_prefix(chunk)
            parts.extend("" if _is_blank(line) else line[len(prefix) :] for line in chunk)
            pos = after
        if not parts:
            return index + 1, None
        return pos, Body(index + 1, "\n".join(parts), "indented")


def lift_bodies(
    text: str,
    payload: re.Pattern[str],
    note: re.Pattern[str],
    filename: str | None = None,
) -> tuple[str, dict[int, Body]]:
    """Return the text with every body blanked out, and the bodies by their owner's line.

    `payload` and `note` match the start of a line that owns a body (the grammar's `in:`/`out:`
    and note keywords). One multi-line search finds the candidate owners, so the lines between
    them are never looked at one by one.
    """
    lines = text.split("\n")
    lifter = _Lifter(lines, filename)
    bodies: dict[int, Body] = {}
    owners = re.compile(f"(?m)^(?:(?P<payload>{payload.pattern})|(?P<note>{note.pattern}))")
    index = 0  # the first line not yet lifted
    line, counted = 0, 0  # the line of the character offset `counted`
    for found in owners.finditer(text):
        line += text.count("\n", counted, found.start())
        counted = found.start()
        if line < index:
            continue  # inside a body lifted already
        lift = lifter.payload if found.lastgroup == "payload" else lifter.note
        after, body = lift(line)
        if body is not None:
            bodies[line + 1] = body
        for blank in range(line + 1, after):
            lines[blank] = ""
        index = after
    return "\n".join(lines), bodies
