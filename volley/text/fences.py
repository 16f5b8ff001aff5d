"""Fenced blocks, opened and closed as CommonMark does: the one rule volley reads fences by.

A fence is a run of three or more backticks or tildes. The text after an opening fence, trimmed,
is its info string, whose first word names the language; a backtick fence's info string holds
no backtick (```` ```a`b``` ```` is inline code, not a fence). A block closes at the first line
that holds only the fence's character, at least as many times as the opening has, with spaces or
tabs around it; a fence of the other character, or a shorter one, is part of the body. The body
loses the opening fence's indentation.

In `.volley`, a payload's fence sits under its `in:`/`out:` line at whatever depth that line
has, and Python-Markdown's superfences finds fences four columns deep in admonitions and tabs,
so by default there is no limit on the indentation. CommonMark allows three columns (four make
an indented code block): `max_indent=3` gives its rule, which the tests hold against
markdown-it-py. Markdown pages themselves are read by markdown-it-py (`volley.text.markdown`);
this module is for fences in volley's own text and in the lines superfences hands over.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

__all__ = [
    "FencedBlock",
    "Opening",
    "closes",
    "dedent",
    "fence_attrs",
    "fence_open",
    "read_block",
    "twice_said",
    "written_twice",
    "TWICE_HINT",
]

_OPENING = re.compile(r"([ \t]*)(`{3,}|~{3,})[ \t]*([^\n]*?)[ \t]*")
_TAB_STOP = 4  # CommonMark: a tab advances to the next multiple of four columns
# A `key=value` attribute of an info string (`name=login`, `title="Log in"`).
_ATTR = r"""(?P<key>[A-Za-z_][\w-]*)=(?:"(?P<dq>[^"]*)"|'(?P<sq>[^']*)'|(?P<bare>[^\s}]+))"""


@dataclass(slots=True)
class Opening:
    """An opening fence line: the white space before the fence, the fence, the info string."""

    indent: str
    fence: str
    info: str

    @property
    def lang(self) -> str | None:
        """The info string's first word (`json` of ```` ```json title=x ````), if any."""
        words = self.info.split()
        return words[0] if words else None

    @property
    def column(self) -> int:
        """The 1-based column the fence starts at, for pointing at it."""
        return len(self.indent) + 1


@dataclass(slots=True)
class FencedBlock:
    """A fenced block of `lines`: its opening at index `start`, its closing fence at `end`
    (`len(lines)` when it is never closed), and the body between, the opening's indent removed.
    """

    opening: Opening
    start: int
    end: int
    body: list[str]
    closed: bool


def _within(indent: str, max_indent: int | None) -> bool:
    return max_indent is None or len(indent.expandtabs(_TAB_STOP)) <= max_indent


def fence_open(line: str, *, max_indent: int | None = None) -> Opening | None:
    """The opening the line is, or None (a line of its own: no line ending in it)."""
    found = _OPENING.fullmatch(line)
    if found is None:
        return None
    indent, fence, info = found.groups()
    if fence[0] == "`" and "`" in info:
        return None
    if not _within(indent, max_indent):
        return None
    return Opening(indent, fence, info)


def closes(line: str, fence: str, *, max_indent: int | None = None) -> bool:
    """Whether the line closes a block opened by `fence` (its run of backticks or tildes)."""
    stripped = line.strip(" \t")
    return (
        len(stripped) >= len(fence)
        and stripped == fence[0] * len(stripped)
        and _within(line[: len(line) - len(line.lstrip(" \t"))], max_indent)
    )


def dedent(line: str, opening: Opening) -> str:
    """A line of the block without the opening's indentation, as CommonMark removes it: as
    many columns as the opening is indented (a tab advancing to the next multiple of four),
    the rest of the line's indentation kept. A line indented less loses all of its own."""
    if line.startswith(opening.indent):
        return line[len(opening.indent) :]
    width = len(opening.indent.expandtabs(_TAB_STOP))
    column = 0
    for at, char in enumerate(line):
        if column >= width or char not in " \t":
            return line[at:]
        column = column + 1 if char == " " else column + _TAB_STOP - column % _TAB_STOP
        if column > width:  # a tab reaching past the indentation: its columns after it stay
            return " " * (column - width) + line[at + 1 :]
    return ""


def read_block(
    lines: Sequence[str], start: int, opening: Opening, *, max_indent: int | None = None
) -> FencedBlock:
    """The block that `opening` (the line at index `start`) opens, read up to its closing
    fence; a block never closed runs to the end of `lines`."""
    fence, end = opening.fence, start + 1
    while end < len(lines) and not (
        fence[0] in lines[end] and closes(lines[end], fence, max_indent=max_indent)
    ):
        end += 1  # a line without the fence's character (most lines) cannot close it
    body = lines[start + 1 : end]
    if opening.indent:
        body = [dedent(line, opening) for line in body]
    return FencedBlock(opening, start, end, list(body), end < len(lines))


def read_to_close(
    lines: Sequence[str], start: int, column: int, closing: re.Pattern[str]
) -> tuple[list[str], int, bool]:
    """The text of a region opened inside a line (an HTML element's, a template literal's)
    at `column` of line `start`, up to where `closing` first matches, each line at its column
    in the page (what stands before the region as spaces); the line it ends on, and whether
    it was closed. One never closed runs to the end of `lines`."""
    body, end = [" " * column + lines[start][column:]], start
    while not closing.search(body[-1]) and end + 1 < len(lines):
        end += 1
        body.append(lines[end])
    closed = closing.search(body[-1])
    if closed is not None:
        body[-1] = body[-1][: closed.start()]
    return body, end, closed is not None


def fence_attrs(info: str) -> tuple[str, dict[str, str]]:
    """The language word of an info string and its `key=value` attributes, a word alone
    (`redact`) with the value "".

    Accepts ```` ```volley name=login ```` and ```` ```volley {name="login"} ````; GitHub
    highlights by the first word only, so attributes stay invisible there. Pandoc's and
    Quarto's braces name the language as a class, `{.mermaid caption="…"}`, or a directive,
    `{mermaid}`, an id first or spaces inside allowed: the word is `mermaid` in each.
    """
    info = info.strip()
    lang, _, rest = info.partition(" ")
    if info.startswith("{"):  # `{#fig .mermaid}`, `{ .mermaid }`: the first class names it
        words = info[1:].partition("}")[0].split()
        classes = [word[1:] for word in words if word.startswith(".")]
        plain = [word for word in words if not word.startswith(("#", ".")) and "=" not in word]
        lang = (classes or plain or [""])[0]
    lang = lang.strip("{}").lstrip(".")
    attrs: dict[str, str] = {}
    for key, value in _attr_pairs(rest):
        if value or key not in attrs:  # a word alone does not undo `redact=false`
            attrs[key] = value
    return lang, attrs


def written_twice(info: str) -> list[str]:
    """The attributes an info string gives more than once (```` ```volley name=a name=b ````),
    which `fence_attrs` would read as the last: a writer meant one of them, and volley cannot
    tell which."""
    seen: set[str] = set()
    twice: list[str] = []
    for key, _ in _attr_pairs(info.strip().partition(" ")[2]):
        if key in seen and key not in twice:
            twice.append(key)
        seen.add(key)
    return twice


TWICE_HINT = "keep one: volley cannot tell which was meant"


def twice_said(key: str, where: str) -> str:
    """What is said of an option `written_twice` on a fence line."""
    return f"the option {key} is given twice on {where}"


def _attr_pairs(rest: str) -> list[tuple[str, str]]:
    """The `key=value` attributes after an info string's first word, in order, then each word
    alone (`redact`), as HTML writes an attribute that is on, with the value "". An id or a
    class in braces (`#fig`, `.mermaid`) is none."""
    pairs = []
    for match in re.compile(_ATTR).finditer(rest):
        value = match["dq"] if match["dq"] is not None else match["sq"]
        pairs.append((match["key"], value if value is not None else match["bare"]))
    for word in re.compile(_ATTR).sub(" ", rest).replace("{", " ").replace("}", " ").split():
        if not word.startswith(("#", ".")):
            pairs.append((word, ""))
    return pairs
