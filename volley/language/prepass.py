"""The line-level pass that lifts payload bodies and the further lines of notes out of the text.

Bodies are kept byte for byte and must never be tokenised as volley syntax, so before the
grammar runs, each body is cut out and replaced by blank lines. Line numbers stay true; the
parser later joins each body to the line that owns it. A payload's body is a fenced block or the
lines indented deeper than its `in:`/`out:` line. A note, as in swimlanes.io, runs until the next
line that is an element of the language: its lines need no indentation, blank lines inside it
are paragraph breaks, and fenced blocks inside it are its own. Which lines own bodies, and which
lines are elements, is decided by the grammar's own terminals, handed in by the parser.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from os.path import commonprefix
from typing import Literal

from volley.errors import VolleyError
from volley.text.fences import FencedBlock, Opening, dedent, fence_open, read_block
from volley.text.inline import TABLE_LINE, ends_table, table_start

TAB_STOP = 4


@dataclass
class Body:
    """Text lifted from under an owner line (1-based `line`)."""

    line: int
    text: str
    form: str  # "fenced" or "indented" (a note's body may mix both: "indented")
    lang: str | None = None
    start: int = 0  # the 1-based line its text starts on (0: the line after `line`)
    # Lines of a note that start with a word other tools use as a keyword ("loop …"): text here,
    # which the parser points out, since its writer may have meant the keyword.
    doubtful: list[int] = field(default_factory=list)
    # Lines of a note that read as Mermaid's branch with its words (`else failure`, `and then`):
    # text here (swimlanes.io writes `else: failure`), pointed out by the parser where the
    # block the note is in takes that branch.
    branches: list[int] = field(default_factory=list)
    # Where a fence was opened on the owner line itself (`in: ```json`), 1-based; 0 if not:
    # its block is lifted as the body meant, and the parser says the fence goes on a line of
    # its own.
    fence_on_owner: int = 0
    # The first of a payload's lines indented one column deeper than its owner, not two
    # (1-based; 0 if none): read as the body meant, so that the slip is one error (the
    # parser's), not one for each line from there on.
    shallow: int = 0
    # Where a fence of two backticks or tildes opened the body (1-based; 0 if none), closed by
    # the same two: read as the block meant, and said once by the parser.
    short_fence: int = 0
    # A note ended by `end note` (`note over A`, its lines, `end note`): each of its lines is a
    # line of its own, as WebSequenceDiagrams and PlantUML draw it; other notes' lines run on.
    lines_kept: bool = False


# What a line is, for where a note ends: an element, plain text, text that starts with a
# word that is a keyword elsewhere (Mermaid's `loop every minute`), or text that starts as
# Mermaid's branch does (`else failure`), which is prose as often ("Else the client retries").
LineKind = Literal["element", "text", "keyword text", "branch text"]


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


def is_deeper(line: str, owner: str, columns: int = 2) -> bool:
    """Whether `line` is indented `columns` deeper than `owner`, or a tab deeper: the owner's
    indentation and then a tab, whichever column that tab ends on."""
    if indent_width(line) >= indent_width(owner) + columns:
        return True
    return line.startswith(owner[: len(owner) - len(owner.lstrip(" \t"))] + "\t")


def unclaimed_body_owner(lines: list[str], index: int) -> int | None:
    """The index of the message that the line at `index` is a body of, written with no `in:`
    or `out:` above it: JSON or markup (`{`, `[`, a JSON string, `<`) indented deeper than
    the line before it that is not blank, a message. None when the line does not read so (a
    quoted name starts a message: `"Web" ~> API` under a block's line is a message's typo)."""
    if re.compile(_BODY_START).match(lines[index]) is None:
        return None
    owner = next((at for at in range(index - 1, -1, -1) if not _is_blank(lines[at])), None)
    if owner is None or indent_width(lines[index]) <= indent_width(lines[owner]):
        return None
    return owner if ARROW_LIKE.search(lines[owner]) else None


# The first line of a body: an object, a list or markup, or a JSON string with its colon, comma
# or nothing after it
_BODY_START = r'[ \t]*(?:[{\[<]|"(?:[^"\\\n]|\\.)*"[ \t]*(?:[:,]|$))'
# Something of an arrow in a line: such a line is a message (written wrong, or a body's owner),
# not a note's words
ARROW_LIKE = re.compile(r"[-=]{1,2}>|<[-=]")


def _is_blank(line: str) -> bool:
    return not line.strip(" \t")


def is_comment(line: str) -> bool:
    """A comment line: `//`, or Mermaid's `%%`, after any indentation."""
    return line.lstrip(" \t").startswith(("//", "%%"))


def is_percent_comment(line: str) -> bool:
    """Mermaid's `%%` comment line, which swimlanes.io, having no such comment, reads as a
    note's text."""
    return line.lstrip(" \t").startswith("%%")


# Mermaid's setting that numbers every message, in a `%%{init: …}%%` directive
SHOWS_NUMBERS = re.compile(r"(?i)[\"']?showSequenceNumbers[\"']?[ \t]*:[ \t]*true\b")


def mermaid_directive(lines: list[str], index: int) -> int | None:
    """The index after the Mermaid directive (`%%{init: …}%%`) that starts at `index`, or None
    where none does. Mermaid reads it as settings, not as a comment, over as many lines as it
    takes to close with `}%%`; one never closed is its first line alone."""
    if not lines[index].lstrip(" \t").startswith("%%{"):
        return None
    return next((end + 1 for end in range(index, len(lines)) if "}%%" in lines[end]), index + 1)


def _dedented(lines: list[str], most: int | None = None) -> list[str]:
    """The lines without the indentation they all share (`most` columns at most). Where every
    line starts with the same white space, that is removed and the rest kept byte for byte
    (tabs and all); where they mix tabs and spaces, it is counted in columns (a tab to the
    next multiple of four), so a tab on one line and four spaces on the next share it, and the
    indentation past it is kept as spaces. A blank line keeps what it has past the shared part
    (in the second case, it is empty)."""
    filled = [line for line in lines if not _is_blank(line)]
    written = commonprefix([line[: len(line) - len(line.lstrip(" \t"))] for line in filled])
    shared = min((indent_width(line) for line in filled), default=0)
    if most is not None:
        shared = min(shared, most)
    if indent_width(written) == shared:
        return [line[len(written) :] if line.startswith(written) else "" for line in lines]
    out = []
    for line in lines:
        if _is_blank(line):
            out.append("")
            continue
        words = line.lstrip(" \t")
        lead = line[: len(line) - len(words)]
        out.append(lead.expandtabs(TAB_STOP)[shared:] + words)
    return out


# A fence opened at the end of a line that owns a body (`in: ```json`, `out: Reply ~~~`).
_FENCE_AT_END = re.compile(r"(?<=[:\s])((?:`{3,}|~{3,})[^`\n]*)$")
# A fence one character short (``json), which a body's reader would take for text
_SHORT_FENCE = re.compile(r"[ \t]*(``|~~)(?![`~])[ \t]*([\w+.-]*)[ \t]*")


# Whether a line is an element, text, or text that reads like a keyword; given the next line
# that is not blank or a comment, where it is known.
LineKinds = Callable[[str, str | None], LineKind]


class UnclosedFence(VolleyError):
    """A fenced body never closed: it would take the rest of the file, so the lines before it
    are all that can be read (`closing` is the fence that would have closed it)."""

    def __init__(
        self, message: str, *, filename: str | None, line: int, column: int, source_line: str,
        closing: str,
    ) -> None:  # fmt: skip
        super().__init__(
            message, filename=filename, line=line, column=column, source_line=source_line
        )
        self.closing = closing


class _Lifter:
    def __init__(self, lines: list[str], filename: str | None, line_kind: LineKinds) -> None:
        self.lines = lines
        self.filename = filename
        self.line_kind = line_kind
        # 1-based lines of the lines that ended a note, with the note's line: a line written
        # as the note's words but read as an element (after a comment, `In: …`) gets an error
        # that can say so.
        self.note_ends: dict[int, int] = {}

    def fenced(self, start: int, opening: Opening, column: int | None = None) -> FencedBlock:
        """The block `opening` (line `start`, at `column` where the line holds more before
        it) opens; an error when it is never closed."""
        block = read_block(self.lines, start, opening)
        if not block.closed:
            raise UnclosedFence(
                f"this fenced block is never closed; expected a closing {opening.fence} on a "
                "line of its own",
                filename=self.filename,
                line=start + 1,
                column=column or opening.column,
                source_line=self.lines[start],
                closing=opening.fence,
            )
        return block

    def indented(self, start: int, owner: str, deeper: int = 2) -> int:
        """Index after the run of lines indented `deeper` columns (or a tab) deeper than the
        owner line."""
        end = start
        last = start
        while end < len(self.lines):
            line = self.lines[end]
            if _is_blank(line):
                end += 1
                continue
            if not is_deeper(line, owner, deeper):
                break
            end += 1
            last = end
        return last

    def payload(self, index: int) -> tuple[int, Body | None]:
        owner = self.lines[index]
        nxt = index + 1
        while nxt < len(self.lines) and _is_blank(self.lines[nxt]):
            nxt += 1  # blank lines mean nothing before a body either
        opening = fence_open(self.lines[nxt]) if nxt < len(self.lines) else None
        if opening is not None:
            block = self.fenced(nxt, opening)
            text = "\n".join(block.body)
            return block.end + 1, Body(index + 1, text, "fenced", opening.lang, start=nxt + 2)
        after, body = self.fence_on_owner(index)  # its block may be indented too
        if body is not None:
            return after, body
        width = indent_width(owner)
        short = _SHORT_FENCE.fullmatch(self.lines[nxt]) if nxt < len(self.lines) else None
        if short is not None and indent_width(self.lines[nxt]) < width + 2:  # no body's line
            marker = short.group(1)
            for close in range(nxt + 1, len(self.lines)):  # by two of its character, or more
                closing = self.lines[close].strip(" \t")
                if len(closing) >= 2 and closing == marker[0] * len(closing):
                    text = "\n".join(self.lines[nxt + 1 : close])
                    lang = short.group(2) or None
                    return close + 1, Body(
                        index + 1, text, "fenced", lang, start=nxt + 2, short_fence=nxt + 1
                    )
        after = self.indented(nxt, owner)
        shallow = 0
        if after < len(self.lines):  # its first line, or one after lines indented enough
            line = self.lines[after]
            if indent_width(line) == width + 1 and self.line_kind(line, None) != "element":
                after, shallow = self.indented(nxt, owner, deeper=1), after + 1
        if after == nxt:
            return index + 1, None
        text = "\n".join(_dedented(self.lines[nxt:after]))
        return after, Body(index + 1, text, "indented", start=nxt + 1, shallow=shallow)

    def fence_on_owner(self, index: int) -> tuple[int, Body | None]:
        """A body whose fence was opened at the end of its `in:` line, closed below it: read
        as the body meant, marked so that the slip is one error, not one for each line."""
        found = _FENCE_AT_END.search(self.lines[index])
        opening = fence_open(found.group(1)) if found else None
        if found is None or opening is None:
            return index + 1, None
        block = read_block(self.lines, index, opening)
        if not block.closed:
            return index + 1, None
        text = "\n".join(block.body)
        at = found.start(1) + 1
        return block.end + 1, Body(
            index + 1, text, "fenced", opening.lang, start=index + 2, fence_on_owner=at
        )

    def note_form(self, index: int, mermaid_note: re.Pattern[str]) -> NoteForm:
        """How far a note's lines go: one written the Mermaid way is one line, as in Mermaid,
        unless its words start below it and an `end note` closes them before the next element,
        as WebSequenceDiagrams writes a note of several lines (`note over B:`, its lines, `end
        note`): then it goes to that line. Any other runs on to the next element."""
        line = self.lines[index]
        if not mermaid_note.match(line):
            return "runs on"
        if line.partition(":")[2].strip():
            return "one line"
        return "to end note" if self.ended_by_end_note(index) else "one line"

    def ended_by_end_note(self, index: int) -> bool:
        """Whether an `end note` closes the lines below line `index` before the next element
        (what a fenced block holds is its own: neither)."""
        at = index + 1
        while at < len(self.lines):
            later = self.lines[at]
            opening = fence_open(later)
            if opening is not None:
                at = read_block(self.lines, at, opening).end + 1
                continue
            if NOTE_END.match(later):
                return True
            if self.line_kind(later, None) == "element":
                return False
            at += 1
        return False

    def note(self, index: int, form: NoteForm) -> tuple[int, Body | None]:
        """A note's further lines: until the next element (swimlanes.io's rule, however deep
        the element is indented: there indentation means nothing), fenced blocks kept with
        their fences.

        A note written the Mermaid way (`note over A: text`) is one line, as in Mermaid: only
        lines indented deeper than it, and fences, continue it (see `note_form`).
        """
        one_line = form == "one line"
        lines = self.lines
        after = None  # the index after an `end note` that closed the note
        pos = index + 1
        parts: list[str] = []
        run: list[str] = []  # plain lines not yet added
        # where the plain lines stand in `parts`, their indentation on until the note ends:
        # the indentation they all share, up to its first line's, is the note's, taken off at
        # once (a block indented deeper after a fence is code, as it is before one)
        plain: list[int] = []
        first: int | None = None  # the column of the note's first line under it: its edge

        def flush() -> None:
            plain.extend(range(len(parts), len(parts) + len(run)))
            parts.extend(run)
            run.clear()

        end = pos  # the index after the note's last non-blank line
        doubtful: list[int] = []
        branches: list[int] = []
        # a table's rows run to a blank line; its header may be on the `note:` line
        before, _, text = lines[index].partition(":")  # the note line's words, after its colon
        in_table = pos < len(lines) and bool(table_start(text, lines[pos]))
        # a fence that opens on the `note:` line itself (`note A, B:```yaml`, as swimlanes.io
        # reads a note's Markdown from the colon on): its block is the note's next lines
        opening = None if one_line else fence_open(text.lstrip(" \t"))
        if opening is not None:
            column = len(before) + 2 + len(text) - len(text.lstrip(" \t"))
            block = self.fenced(index, opening, column)
            parts += [*block.body, lines[block.end].lstrip(" \t")]
            pos = end = block.end + 1
        while pos < len(lines):
            line = lines[pos]
            if _is_blank(line):
                in_table = False
                pos += 1
                continue
            opening = fence_open(line)
            if opening is not None:
                in_table = False  # a fence ends a table, as a blank line does
                run.extend(lines[end:pos])  # blank lines before the fence: paragraph breaks
                flush()
                block = self.fenced(pos, opening)
                first = indent_width(line) if first is None else first
                # kept with its fences, less the opening's indentation
                parts.append(dedent(line, opening))
                parts.extend(block.body)
                parts.append(dedent(lines[block.end], opening))
                pos = end = block.end + 1
                continue
            if form == "to end note" and NOTE_END.match(line):  # the note ends here
                after = pos + 1
                break
            deeper = is_deeper(line, lines[index])
            if one_line and not deeper:
                kind: LineKind = "element"
            else:
                row = table_line(lines, pos, in_table)
                kind = "text" if row else self.line_kind(line, _next_statement(lines, pos))
                # a line without a pipe is one more row (GitHub's rule), unless it ends the note
                in_table = row or (in_table and not ends_table(line))
            if kind == "element":
                self.note_ends[pos + 1] = index + 1
                break
            if kind == "keyword text" and (
                not deeper or is_percent_comment(line) or (one_line and NOTE_END.match(line))
            ):  # a `%%` line (Mermaid's comment), or an `end note` under a one-line note
                doubtful.append(pos + 1)
            elif kind == "branch text" and not deeper:
                branches.append(pos + 1)
            first = indent_width(line) if first is None else first
            run.extend(lines[end : pos + 1])
            pos += 1
            end = pos
        flush()
        for at, line in zip(plain, _dedented([parts[at] for at in plain], first), strict=True):
            parts[at] = line
        if not parts:
            return after or index + 1, None
        return after or end, Body(
            index + 1,
            "\n".join(parts),
            "indented",
            doubtful=doubtful,
            branches=branches,
            lines_kept=after is not None,  # ended by `end note`
        )


def _next_statement(lines: list[str], pos: int) -> str:
    """The first line after `pos` that is not blank or a comment ("" at the end)."""
    return next(
        (
            line
            for line in (lines[at] for at in range(pos + 1, len(lines)))
            if line.strip() and not is_comment(line) and not is_percent_comment(line)
        ),
        "",
    )


def table_line(lines: list[str], pos: int, in_table: bool) -> bool:
    """Whether `lines[pos]`, in a note, is a table's header or one of its rows: it has a pipe,
    a table is open (`in_table`: a header and delimiter row came before it, and each line since
    was a row) and it does not end the table; or the delimiter row follows it. Those are the
    note's text even where a cell holds an arrow (`1 | A -> B: call`); a line without a pipe,
    or a `//` comment, may still end the note."""
    line = lines[pos]
    if is_comment(line):
        return False
    if in_table:
        return "|" in line and not ends_table(line)
    return pos + 1 < len(lines) and table_start(line, lines[pos + 1]) is not None


def table_end(lines: list[str], index: int) -> int | None:
    """The index after the table rows from `index` on, if the line there is a table's: its
    header row, or a row only a table has (one that starts with a pipe, a delimiter row)
    under another table line; else None."""
    if not table_line(lines, index, in_table=False) and not (
        index > 0
        and TABLE_LINE.match(lines[index])
        and (TABLE_LINE.match(lines[index - 1]) or table_line(lines, index - 1, in_table=False))
    ):
        return None
    end = index + 1
    while end < len(lines) and table_line(lines, end, in_table=True):
        end += 1
    return end


def note_body(lines: list[str], index: int, line_kind: LineKinds) -> tuple[int, Body | None]:
    """The further lines of the `note:` line at `index`, as the reader takes them: the index
    after the note's last line, and its text with the lines it doubts (None if it has none)."""
    return _Lifter(lines, None, line_kind).note(index, "runs on")


def payload_end(lines: list[str], index: int, line_kind: LineKinds, filename: str | None) -> int:
    """The index after the body an `in:`/`out:` line at `index` owns: its fenced block or the
    lines indented deeper than it (`index + 1` when it has none)."""
    return _Lifter(lines, filename, line_kind).payload(index)[0]


NoteForm = Literal["one line", "to end note", "runs on"]  # how far a note's lines go

# PlantUML's and WebSequenceDiagrams' end of a note of several lines: `end note`, `endnote`,
# `end hnote`.
# Other tools' notes over or beside participants: PlantUML's `hnote over A: text`,
# sequencediagram.org's `box over A: text`, WebSequenceDiagrams' `state over A: text`.
OTHER_TOOLS_NOTE = re.compile(
    r"(?i)(?P<word>hnote|rnote|ref|box|abox|rbox|state)[ \t]+"
    r"(?P<place>over|left[ \t]+of|right[ \t]+of)[ \t]+(?P<over>[^:]+?)[ \t]*:(?P<text>.*)"
)


def other_note_meant(note: re.Match[str]) -> str:
    """The volley note another tool's note (an `OTHER_TOOLS_NOTE` match) is written as: over
    its participants, or beside the one it names (`left of A`)."""
    place = " ".join(note["place"].lower().split())
    beside = "" if place == "over" or "," in note["over"] else f"{place} "
    return f"note {beside}{note['over'].strip()}: {note['text'].strip()}".rstrip()


# WebSequenceDiagrams' note of several lines, written without a colon: `note over A, B`,
# `note left of A`, then its lines and `end note`
_COLONLESS_NOTE = re.compile(
    r"[ \t]*(?i:note)[ \t]+(?i:over|left[ \t]+of|right[ \t]+of)[ \t]+[^:\n]*?[ \t]*$", re.M
)
NOTE_END_WORDS = r"(?i:end[ \t]*[hr]?note)[ \t]*$"
NOTE_END = re.compile(rf"[ \t]*{NOTE_END_WORDS}")


def lift_bodies(
    text: str,
    payload: re.Pattern[str],
    note: re.Pattern[str],
    line_kind: LineKinds,
    one_line_note: re.Pattern[str],
    filename: str | None = None,
) -> tuple[str, dict[int, Body], dict[int, int]]:
    """Return the text with every body blanked out, the bodies by their owner's line, and the
    comment lines that ended a note (with the note's line).

    `payload` and `note` match the start of a line that owns a body (the grammar's `in:`/`out:`
    and note keywords); `line_kind` tells whether a line is an element (which ends a note);
    `one_line_note` matches a note written the Mermaid way. One multi-line search finds the
    candidate owners, so the lines between them are never looked at one by one.
    """
    lines = text.split("\n")
    lifter = _Lifter(lines, filename, line_kind)
    bodies: dict[int, Body] = {}
    # An owner is searched for as the line break before it, in the text with a line break put
    # in front: a pattern that starts with a character lets the search skip from one line
    # break to the next instead of trying every position.
    owners = re.compile(
        f"(?m)\n(?:(?P<payload>{payload.pattern})|(?P<note>{note.pattern})"
        f"|(?P<colonless>{_COLONLESS_NOTE.pattern}))"
    )
    index = 0  # the first line not yet lifted
    line, counted = 0, 0  # the line of the character offset `counted` (in `text`)
    for found in owners.finditer("\n" + text):
        start = found.start()  # the owner's offset in `text`: the search added one character
        line += text.count("\n", counted, start)
        counted = start
        if line < index:
            continue  # inside a body lifted already
        if found.lastgroup == "payload":
            after, body = lifter.payload(line)
        elif found.lastgroup == "note":
            after, body = lifter.note(line, lifter.note_form(line, one_line_note))
        elif lifter.ended_by_end_note(line):  # WebSequenceDiagrams' `note over A`, its
            lines[line] += ":"  # lines and `end note`: read as the note with its colon
            after, body = lifter.note(line, "to end note")
        else:  # `note over A`, its colon forgotten: an error of the grammar's
            continue
        if body is not None:
            bodies[line + 1] = body
        for blank in range(line + 1, after):
            lines[blank] = ""
        index = after
    return "\n".join(lines), bodies, lifter.note_ends
