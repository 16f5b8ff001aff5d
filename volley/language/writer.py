"""Model to canonical `.volley` text: what `volley fmt` prints and what every importer writes.

One way to write each element, so that two people's diagrams of the same thing read the same
and a diff shows only what changed: directives first (`title:`, each box with its participants'
declarations, `participant A as Label` for each other labelled participant, `participant A`
for one declared that no message names, `order:` only when
the order of first use would not give the diagram's order or the author wrote one, `autonumber`
when numbering starts with the first message), one space around an arrow, items inside a block
indented two spaces a level, payload bodies kept byte for byte but their line breaks (each one
LF, as a reader reads a CR LF or a CR; a fenced body gets a fence longer
than any fence-like line inside it; an indented one is indented two spaces deeper than its
`in:`/`out:`), a note longer than a line indented under its `note:` line (one whose lines
are kept, read ended by `end note`, between `note over A:` and `end note` as it was written).

Reading what this writes gives the same model again (`parse(write(d))` equals `d` but for line
numbers), and writing that model gives the same text (the writer is idempotent). The one
exception is a note only an import can make, with a later line that would read as an element:
it is written on one line with `\\n` breaks, which draw the same lines.

Comments are not part of the model; a caller that has them (the formatter reads them from the
source, `//` and Mermaid's `%%` alike, an importer makes them for what has no volley
equivalent) passes them in, each with its source line, and they are written as `//` at that
place. Given the source, the writer also keeps the author's blank lines between elements.
"""

from __future__ import annotations

import re
from collections.abc import Container, Iterable, Sequence
from dataclasses import dataclass
from functools import partial

from volley.language.keywords import LOOK_SETTING
from volley.language.parser import line_kind, normalise, parse
from volley.language.prepass import NOTE_END, mermaid_directive, note_body
from volley.limits import Limits
from volley.model import (
    Activation,
    Block,
    Box,
    Diagram,
    Divider,
    Item,
    Message,
    Note,
    Payload,
    walk,
)
from volley.text.fences import closes, fence_open

INDENT = "  "
DIVIDER_MARKS = {"bold": "=", "regular": "-", "dashed": "--", "thin": "_", "delay": "..."}
OTHER_BRANCH = {"if": "else", "par": "and", "critical": "option"}

__all__ = ["Comment", "fence_for", "format_text", "rewrite", "source_comments", "write"]


@dataclass(frozen=True)
class Comment:
    """A `//` comment line, written before the first element whose source line is the same or
    after it (an importer's comment about an element carries that element's line)."""

    line: int
    text: str  # what follows `//`, as written (a leading space kept)


def fence_for(lines: Iterable[str], char: str = "`") -> str:
    """The shortest fence (at least three) that no line of the body closes."""
    lines = list(lines)
    fence = char * 3
    while any(closes(line, fence) for line in lines):
        fence += char
    return fence


class _Writer:
    def __init__(
        self, comments: Sequence[Comment], lines: list[str] | None, one_line_each: bool = False
    ) -> None:
        self.lines = lines  # the source, when there is one: where its notes' texts start
        # the source is another tool's, whose every element is one line (a Mermaid note with
        # a <br/> in it too): none takes the lines under it, as a volley note or body does
        self.one_line_each = one_line_each
        self.out: list[str] = []
        self.comments = sorted(comments, key=lambda c: c.line)
        self.next_comment = 0
        self.number: int | None = None  # the number the next message gets from autonumber
        self.last = 0  # the last source line written, for keeping the author's blank lines
        self.opened = False  # the last line written opens a block or a branch
        self.in_note = False  # the last item written is a note: its text runs on to an element

    def emit(self, depth: int, text: str) -> None:
        self.out.append(INDENT * depth + text if text else "")
        self.opened = False
        self.in_note = False

    def space(self, line: int) -> None:
        """One blank line where the source had one before `line` (never after an opener)."""
        if self.gap_before(line) and self.out and self.out[-1] and not self.opened:
            self.out.append("")
        if line:
            self.last = line

    def gap_before(self, line: int) -> bool:
        if not (line and self.last and line > self.last + 1):
            return False
        if self.lines is None:  # a model built in code: its line numbers say it
            return True
        return any(not text.strip(" \t") for text in self.lines[self.last : line - 1])

    def comments_before(self, line: int, depth: int) -> None:
        """Write the comments that stood before (or were made for) source line `line`; 0: all
        that are left."""
        while self.next_comment < len(self.comments):
            comment = self.comments[self.next_comment]
            if line and comment.line > line:
                return
            self.space(comment.line)
            for text in comment.text.split("\n"):
                self.emit(depth, "//" + text.rstrip())
            self.next_comment += 1

    def items(self, items: list[Item], depth: int) -> None:
        for item in items:
            self.comments_before(item.line, depth)
            self.space(item.line)
            if isinstance(item, Message):
                self.message(item, depth)
            elif isinstance(item, Note):
                self.note(item, depth)
            elif isinstance(item, Divider):
                self.emit(depth, _with_label(DIVIDER_MARKS[item.style] + ":", item.label))
            elif isinstance(item, Activation):
                # Right after a note, `activate B` would read as the note's text: the colon
                # makes it an element, which ends the note.
                keyword = ("activate" if item.on else "deactivate") + (":" if self.in_note else "")
                self.emit(depth, f"{keyword} {item.participant}")
            elif isinstance(item, Block):
                self.block(item, depth)
            if item.line and self.one_line_each and not isinstance(item, Block):
                self.last = max(self.last, item.line)
            elif item.line:
                self.last = max(self.last, _extent_end(item, self.lines))

    def message(self, message: Message, depth: int) -> None:
        if message.number is not None and message.number != self.number:
            start = "" if message.number == 1 else f" {message.number}"
            self.emit(depth, "autonumber" + start)
        elif message.number is None and self.number is not None:
            self.emit(depth, "autonumber off")
        self.number = None if message.number is None else message.number + 1
        mark, arrow = message.activate or "", message.arrow
        # A mark stands apart after a one-dash shaft, which a `-` would make two (`<--`, dashed),
        # and after a left cross's shaft, which needs a space or a head after it (`x- +`)
        one_dash = arrow.endswith("-") and not arrow.endswith("--")
        crossed = arrow[:1] in "xX" and arrow[-1] in "-="
        if mark and ((mark == "-" and one_dash) or crossed):
            arrow = f"{arrow} {mark}"
        else:
            arrow += mark
        head = f"{message.sender} {arrow} {message.receiver}"
        self.emit(depth, f"{head}: {message.label}" if message.label else head)
        if message.request is not None:
            self.payload("in", message.request, depth)
        if message.response is not None:
            self.payload("out", message.response, depth)

    def payload(self, side: str, payload: Payload, depth: int) -> None:
        if payload.line:  # a comment between the message and its body stays there
            self.comments_before(payload.line, depth)
        self.emit(depth, _with_label(f"{side}:", payload.label))
        lines = _LINE_BREAK.split(payload.body)
        if payload.form == "fenced":
            fence = fence_for(lines)
            self.emit(depth, fence + (payload.lang or ""))
            self.body_lines(lines, depth)
            self.emit(depth, fence)
        else:
            self.body_lines(lines, depth + 1)

    def body_lines(self, lines: list[str], depth: int) -> None:
        """Body lines under an indentation that reading removes again; an empty line stays empty."""
        self.out.extend(INDENT * depth + line if line else "" for line in lines)

    def note(self, note: Note, depth: int) -> None:
        beside = "" if note.side == "over" else f"{note.side} of "
        over = "" if note.attached else f" {beside}{_span(note.over)}"
        if note.lines_kept and not note.attached and "\n" in note.text:
            # as it was written, WebSequenceDiagrams' way: under `note:`, a paragraph's lines
            # would run on
            self.emit(depth, f"note {beside or 'over '}{_span(note.over)}:")
            self.body_lines(note.text.split("\n"), depth + 1)
            self.emit(depth, "end note")
            return
        first, below = _note_lines(note.text)
        self.emit(depth, _with_label(f"note{over}:", first))
        self.body_lines(below, depth + 1)
        self.in_note = True

    def box(self, box: Box, labels: dict[str, str]) -> None:
        """A box and its participants' declarations (`box: Aqua Front end`, or a bare `box`)."""
        from volley.text.colours import box_text  # only a box needs the CSS parser

        text = box_text(box.tint, box.label)
        self.emit(0, f"box: {text}" if text else "box")
        for name in box.participants:
            self.emit(1, _declaration(name, labels))
        self.emit(0, "end")

    def block(self, block: Block, depth: int) -> None:
        for index, branch in enumerate(block.branches):
            if index:
                self.comments_before(branch.line, depth + 1)
                self.last = max(self.last, branch.line)
            if block.kind == "rect":  # its colour is no label, but takes the colon as one does
                self.emit(depth, f"rect: {block.tint}" if block.tint else "rect")
            else:
                keyword = block.kind if index == 0 else OTHER_BRANCH.get(block.kind, "else")
                self.emit(depth, _with_label(f"{keyword}:", branch.label))
            self.opened = True
            self.items(branch.items, depth + 1)
        if block.end_line:  # a block left open at the end of the file has none
            # the comments above `end`; one on its line (Mermaid's `end %% …`) follows it
            if block.end_line > 1:
                self.comments_before(block.end_line - 1, depth + 1)
            self.last = max(self.last, block.end_line)
        self.emit(depth, "end")


def _extent_end(item: Item, lines: list[str] | None) -> int:
    """The last source line of an item (a block's `end`)."""
    if isinstance(item, Block):
        return item.end_line or item.line
    return max(_extent(item, lines))


def _note_lines(text: str) -> tuple[str, list[str]]:
    """A note's text as (the rest of its `note:` line, the lines indented under it): a one-line
    note on one line, a longer one (a list, paragraphs) wholly under it, as people write them,
    unless its first line would end it there (a line that reads as an element ends a note
    however deeply it is indented): that line stays on the `note:` line.

    A note that only a model built in code can hold (an import's), whose lines would not read
    back as its own (a later line reads as an element and ends it, or a `%%` line is pointed
    out), is written on its `note:` line with `\\n` line breaks, which draw the same lines and
    read back as one note. A fenced block cannot be written on one line, and nothing inside
    it ends the note. (An empty last line is not kept: the reader of a note leaves it out.)"""
    first, _, more = text.partition("\n")
    if not more:
        return first, []
    opening = fence_open(first) if first else None
    lines = more.split("\n")
    if opening is None and first and line_kind(first) == "element":
        written = first, lines
    elif opening is None or any(closes(line, opening.fence) for line in lines):
        written = "", text.split("\n")  # a fenced block (closed below) stays one under `note:`
    else:
        written = first, lines  # a lone fence-like first line was text on the `note:` line
    if any(fence_open(line) for line in lines) or _reads_back(*written):
        return written
    return _on_one_line(text), []


def _reads_back(first: str, lines: list[str]) -> bool:
    """Whether a note written as `note: FIRST` with `lines` indented under it is read back as
    all of them, none pointed out as doubtful."""
    written = [_with_label("note:", first), *(f"  {line}" if line else "" for line in lines)]
    # an `activate A` line ends a note where A is a lane of the messages: taken as one, so the
    # note reads back whatever lanes the text around it has
    end, body = note_body(written, 0, partial(line_kind, lanes=_EveryName()))
    last = max(index for index, line in enumerate(written) if line.strip())
    return end > last and not (body is not None and body.doubtful)


def ends_a_note(line: str) -> bool:
    """Whether a line of a note's text would end the note, read back (it reads as an element,
    whatever lanes the diagram has): such a line cannot stand in a note written over lines."""
    return line_kind(line, lanes=_EveryName()) == "element"


class _EveryName(Container[str]):
    def __contains__(self, name: object) -> bool:
        return True


def _on_one_line(text: str) -> str:
    """A note's lines joined by `\\n` breaks. A line that ends in a backslash gets another
    (`\\\\` draws one), so that its backslash is not read as the start of the break."""
    lines = text.split("\n")
    ended = [
        line + "\\" if (len(line) - len(line.rstrip("\\"))) % 2 else line for line in lines[:-1]
    ]
    return "\\n".join([*ended, lines[-1]])


def _declaration(name: str, labels: dict[str, str]) -> str:
    return f"participant {name} as {labels[name]}" if name in labels else f"participant {name}"


def _with_label(keyword: str, label: str) -> str:
    return f"{keyword} {label}" if label else keyword


def _span(over: list[str]) -> str:
    """`A` or `A, C`: a note's span by its two ends (reading fills in those between)."""
    if len(over) > 1 and over[0] != over[-1]:
        return f"{over[0]}, {over[-1]}"
    return over[0] if over else ""


def _declared(diagram: Diagram) -> list[str]:
    """The participants written as declarations at the top, in display order: each with a
    label, each in a box, each that stands before a box's, which a declaration keeps in its
    place (else an `order:` line would have to), and each declared that no message names: a
    lane drawn on purpose, which listed in `order:` alone would read as a misspelt name."""
    boxed = {name for box in diagram.boxes for name in box.participants}
    last = max((i for i, name in enumerate(diagram.participants) if name in boxed), default=-1)
    in_messages = {name for m in diagram.messages() for name in (m.sender, m.receiver)}
    return [
        name
        for index, name in enumerate(diagram.participants)
        if name in diagram.labels
        or name in boxed
        or index < last
        or (name in diagram.declared_lines and name not in in_messages)
    ]


def _first_use(diagram: Diagram) -> list[str]:
    """The participants in the order reading the written declarations and items would create
    them."""
    seen: dict[str, None] = dict.fromkeys(_declared(diagram))
    for item in walk(diagram.items):
        if isinstance(item, Message):
            seen.setdefault(item.sender)
            seen.setdefault(item.receiver)
        elif isinstance(item, Note) and not item.attached and item.over:
            seen.setdefault(item.over[0])
            seen.setdefault(item.over[-1])
        elif isinstance(item, Activation):
            seen.setdefault(item.participant)
    return list(seen)


def _order(diagram: Diagram, lines: list[str] | None) -> list[str]:
    """Every participant when the order of first use would not give the diagram's order, or
    when the author wrote an `order:` line; else none (`order:` may name only some, but a
    reader wants all the lanes in one place)."""
    if _first_use(diagram) != diagram.participants:
        return list(diagram.participants)
    written = lines is not None and any(
        _ORDER.match(line) for _, line in _loose_lines(lines, diagram)
    )
    return list(diagram.participants) if written else []


def write(
    diagram: Diagram,
    comments: Sequence[Comment] = (),
    source: str | None = None,
    *,
    one_line_each: bool = False,
) -> str:
    """The diagram as canonical `.volley` text, ending in a newline.

    `comments` are written before the first element after their line; `source`, the text the
    diagram was read from (normalised), tells where the author left blank lines. Where that
    is another tool's text, in which every element is one line, `one_line_each` says so.
    """
    lines = source.split("\n") if source is not None else None
    head = _head_comments(comments, lines, diagram.title_line)
    writer = _Writer([c for c in comments if c not in head], lines, one_line_each)
    for comment in head:
        writer.space(comment.line)  # a blank line the author left between them stays
        writer.emit(0, "//" + comment.text.rstrip())
    if head and lines and 0 < head[-1].line < len(lines) and not lines[head[-1].line].strip():
        writer.out.append("")  # the blank line the author left under them
    above = len(writer.out)
    if diagram.title is not None:
        writer.emit(0, _with_label("title:", diagram.title))
    labels = diagram.labels
    boxes = {name: box for box in diagram.boxes for name in box.participants}
    for name in _declared(diagram):  # in display order, so no `order:` is needed
        box = boxes.get(name)
        if box is None:
            writer.emit(0, _declaration(name, labels))
        elif name == box.participants[0]:
            writer.box(box, labels)
    for box in diagram.boxes:  # one that holds no participant draws nothing, but is kept
        if not box.participants:
            writer.box(box, labels)
    order = _order(diagram, writer.lines)
    if order:
        writer.emit(0, "order: " + ", ".join(order))
    messages = diagram.messages()
    if messages and messages[0].number is not None:  # numbered from the start: say so up top
        writer.number = messages[0].number
        writer.emit(0, "autonumber" + ("" if messages[0].number == 1 else f" {messages[0].number}"))
    if len(writer.out) > above and diagram.items:  # a blank line after the directives
        writer.out.append("")
    writer.items(diagram.items, 0)
    writer.comments_before(0, 0)
    while writer.out and not writer.out[-1]:  # a blank line kept under comments ending the file
        writer.out.pop()
    return "\n".join(writer.out) + "\n" if writer.out else ""


def _head_comments(
    comments: Sequence[Comment], lines: list[str] | None, title_line: int
) -> list[Comment]:
    """The comments that head the file, above the directives: those with no line (an
    importer's notes on the whole diagram), those above the title, and the run of comment lines
    the source starts with."""
    by_line = {comment.line: comment for comment in comments}
    leading: set[int] = set()
    number = 1
    while number in by_line or (lines and number <= len(lines) and not lines[number - 1].strip()):
        leading.add(number)
        number += 1
    return sorted(
        (
            c
            for c in comments
            if c.line == 0 or c.line in leading or (title_line and c.line < title_line)
        ),
        key=lambda c: c.line,
    )


# --- the comments of a source file -----------------------------------------------------------

# A line break as `normalise` reads one: a body's CR LF (a HAR's HTML) is written as LF
_LINE_BREAK = re.compile(r"\r\n?|\n")
_COMMENT = re.compile(r"[ \t]*(?://|%%)(.*)")  # `%%` is Mermaid's, read as a comment too
_ORDER = re.compile(r"(?i)[ \t]*order[ \t]*:")


def _extent(item: Item, lines: list[str] | None) -> Sequence[int]:
    """The source lines an item's own text takes: its line and the bodies under it."""
    if isinstance(item, Message):  # its line and its bodies', not the comments between them
        taken = [item.line]
        for payload in (item.request, item.response):
            if payload is not None and payload.line:
                size = payload.body.count("\n") + 1
                end = payload.line + size + (2 if payload.form == "fenced" else 0)
                taken.extend(range(payload.line, end + 1))
        return taken
    if isinstance(item, Note):
        size = item.text.count("\n") + 1
        first = item.text.split("\n", 1)[0]
        if lines is None:  # as the writer puts it
            starts_below = not _note_lines(item.text)[0] and bool(item.text)
            return range(item.line, item.line + size + (1 if starts_below else 0))
        if item.text_line:  # its words start below, after any blank lines
            last = item.text_line + size - 1
        else:
            written = lines[item.line - 1] if 0 < item.line <= len(lines) else ""
            starts_below = bool(item.text) and (not first or not written.rstrip().endswith(first))
            last = item.line + size - 1 + (1 if starts_below else 0)
        # and the `end note` that closed it (WebSequenceDiagrams'), past blank lines above it
        below = next((n for n in range(last + 1, len(lines) + 1) if lines[n - 1].strip()), 0)
        last = below if below and NOTE_END.match(lines[below - 1]) else last
        return range(item.line, last + 1)
    return range(item.line, item.line + 1)


def _loose_lines(lines: list[str], diagram: Diagram) -> Iterable[tuple[int, str]]:
    """(number, line) of the source lines outside every element's own text and bodies."""
    taken: set[int] = set()
    for item in walk(diagram.items):
        taken.update(_extent(item, lines))
    return ((n, line) for n, line in enumerate(lines, start=1) if n not in taken)


def source_comments(text: str, diagram: Diagram) -> list[Comment]:
    """The comment lines (`//`, `%%`) of `text`, parsed into `diagram`, outside every body,
    the lines of a Mermaid directive (`%%{init: {` … `}}%%`) after its first, and
    sequencediagram.org's look settings (`linear`), which the parser reads as blank: kept as
    comments, so that what was written stays in the file."""
    lines = text.split("\n")
    comments: list[Comment] = []
    directive_end = 0  # the line a directive being read ends on
    for n, line in _loose_lines(lines, diagram):
        if n <= directive_end:
            comments.append(Comment(n, line))
            continue
        match = _COMMENT.fullmatch(line)
        if match:
            comments.append(Comment(n, match.group(1)))
            directive_end = mermaid_directive(lines, n - 1) or 0
        elif LOOK_SETTING.fullmatch(line):
            comments.append(Comment(n, f" {line.strip()}"))
    return comments


def rewrite(diagram: Diagram, text: str) -> str:
    """`diagram`, read from `text`, as canonical text with the comments and blank lines of
    `text` kept."""
    source = normalise(text)
    return write(diagram, source_comments(source, diagram), source)


def format_text(text: str, filename: str | None = None, limits: Limits | None = None) -> str:
    """Source text as canonical `.volley` text; a VolleyError if it does not parse."""
    return rewrite(parse(text, filename=filename, limits=limits), text)
