"""Text to model: Lark's LALR parser over `grammar/volley.lark`, rule callbacks into dataclasses,
and a resolving pass for what needs the whole document (title, order, numbering, note spans).

`parse()` is the only way in. A failure is worded for people by `volley.language.syntax_errors`;
a parse goes on past each mistake (the line is set aside and the text parsed again), so one run
reports every error of a file at once, as a `VolleyErrors`.
"""

from __future__ import annotations

import os
import re
import threading
import unicodedata
from collections.abc import Container, Iterator
from dataclasses import dataclass, field
from functools import cache, lru_cache, partial
from typing import Any, cast

from lark import Lark, Token
from lark.exceptions import UnexpectedInput

from volley.errors import Diagnostic, VolleyError, VolleyErrors, shown_path
from volley.language.keywords import LOOK_SETTING, PLANTUML_PARTICIPANTS, misspelt_keyword
from volley.language.prepass import (
    ARROW_LIKE,
    NOTE_END,
    NOTE_END_WORDS,
    OTHER_TOOLS_NOTE,
    SHOWS_NUMBERS,
    Body,
    LineKind,
    UnclosedFence,
    is_comment,
    is_percent_comment,
    lift_bodies,
    mermaid_directive,
    other_note_meant,
    payload_end,
    table_end,
    unclaimed_body_owner,
)
from volley.limits import (
    DEFAULT_LIMITS,
    MAX_DEPTH,
    LimitError,
    Limits,
    check_input,
    items_over,
    items_said,
    limit_error,
    nul_errors,
)
from volley.model import (
    BRANCH_WORDS,
    Activation,
    Block,
    BlockKind,
    Box,
    Branch,
    Diagram,
    Divider,
    Item,
    Message,
    Note,
    NoteSide,
    Payload,
    walk,
)
from volley.resources import grammar_cache, read_text, resource_path
from volley.text.fences import fence_open, read_block
from volley.text.inline import TABLE_LINE

DIVIDER_STYLES = {"=": "bold", "-": "regular", "--": "dashed", "_": "thin", "...": "delay"}
LARGEST_NUMBER = 999_999_999  # a message's number: nine digits at most
DEFAULT_PAYLOAD_LABELS = {"in": "Request", "out": "Response"}
# A file with more mistakes than this is reported up to here: the rest are most likely the
# same mistake again. Each one costs a parse of the text up to it, so a long text gets fewer:
# about a million characters are parsed again at most, and a text that long stops at the first.
MAX_ERRORS = 25
_CHARACTERS_REPARSED = 1_000_000


def error_budget(text: str) -> int:
    """How many errors are looked for in `text` before reading stops (see MAX_ERRORS)."""
    return max(1, min(MAX_ERRORS, _CHARACTERS_REPARSED // max(len(text), 1)))


# The first line of a Mermaid or PlantUML file, which `volley import` converts.
FOREIGN_HEADERS = {"sequencediagram": "a Mermaid sequence diagram", "@startuml": "PlantUML"}
# Keywords end a note when written with a colon (`loop: x`, but not "Loop over items", which
# in a swimlanes.io note is text). These end it as they are (a note line holds a colon).
_NOTE_ENDING_BARE = ("END", "AUTONUMBER", "NOTE")
_NOTE_ENDING_ALONE = ("ELSE", "AND", "OPTION", "RECT", "BOX")
# PlantUML's notes placed by a side, with no participant named (`note left: x`).
_PLANTUML_NOTE_SIDES = {
    "left": "note left of the message before it",
    "right": "note right of the message before it",
    "over": "note over the participants it names",
    "across": "note across every lane",
    "left of": "note left of the participant it names",
    "right of": "note right of the participant it names",
}


def _side(name: str) -> str:
    """A note's name as a side of PlantUML's: "Left  of" is "left of"."""
    return " ".join(name.lower().split())


# A name that starts with a note's place: `over A`, `left of A` (Mermaid's note, misplaced).
_NOTE_PLACE = re.compile(r"(?i)(over|left[ \t]+of|right[ \t]+of)[ \t]")
# `'Web App'`: a name in single quotes (the lint says the quotes are part of it); any other
# name that starts with one is a line PlantUML's `'` meant to leave out
_SINGLE_QUOTED = r"'[^']+'"
# `participant A as Client -> Server`: a declaration whose label holds an arrow, which makes
# the line a message from "participant A as Client".
_DECLARATION = re.compile(r"(?i)(?:participant|actor)[ \t]+(\S+)[ \t]+as[ \t]")
# `participant A -> B`: a declaration's keyword before a message's name, as Mermaid writes it
# (in small letters) on a line of its own; `actor` before one word only (a longer name may be
# one: `actor model runtime`)
_DECLARED_IN_MESSAGE = re.compile(r"(participant)[ \t]+(\S.*)|(actor)[ \t]+(\S+)")
# Arrow-like text that is no arrow (`~>`, `→`), in what was read as a name: an arrow's slip
_ARROW_SLIP = re.compile(r"~~?>|[→⟶⇒←]|[—–]>|==>|<==")
# `participant API %% the gateway`, `B -> C // db`: a comment after a name, which Mermaid
# would make part of the name (a lane called "API %% the gateway")
COMMENT_AFTER_NAME = re.compile(r"[ \t]+(%%|//)")
# The `as` of `participant A as Long name`, in any case, as Mermaid reads it (`A AS Alpha`)
_AS = re.compile(r"[ \t]+as(?:[ \t]+|$)", re.IGNORECASE)
# PlantUML's marks after a participant's name on an arrow: what each does, and volley's way.
LIFELINE_MARKS = {
    "++": ("starts an activation", 'volley writes the mark after the arrow: "A ->+ B"'),
    "--": ("ends an activation", 'volley writes the mark after the arrow: "B -->- A"'),
    "**": ("creates the participant", "volley does not draw that: delete it"),
    "!!": ("destroys the participant", "volley does not draw that: delete it"),
}
# PlantUML's stereotype after a declared name: `participant A <<Service>>`
_STEREOTYPE = re.compile(r"[ \t](<<[^<>\n]*>>)")
# WebSequenceDiagrams' mark before the name of a participant a message creates: `A->*B: new`
_CREATE_MARK = r"\*[ \t]*[^\s*](?:.*[^*\s])?[ \t]*$"
# sequencediagram.org's delayed message, glued to its arrow: `A ->(2) B`, `A->(2)B`.
_DELAY_MARK = r"\([0-9]+\)"
# PlantUML's colour after a declared name (`actor Bob #red`, `activate B #FFBBBB`): a colour's
# name or six hex digits, so that `participant Issue #123` stays a name.
_COLOUR = re.compile(r"[ \t](#(\w+))$")  # a word with its `#` after a name's last space
# sequencediagram.org's colour before a participant's name with its opacity, `#green:0.5 Bob`,
# which no name holds (a colour alone before a name, `#lightblue Alice`, is a name's words:
# volley.checks.lint says so where the name without it is used too)
_COLOUR_BEFORE = r"(#\w+:[0-9.]+)[ \t]+(?=\S)"
# PlantUML's heads glued to an arrow that volley has no such head for: `A ->o B` (a circle).
_GLUED_HEADS = {
    "x": ("lost message", 'a lost message has an x for its head: "A {arrow}x B"'),
    "o": ("circle head", 'volley draws no circle: write "A {arrow} B"'),
}
# A sender that starts with the word of a block's further branch (`else cache miss -> db`)
_BRANCH_START = re.compile(rf"(?i:{'|'.join(BRANCH_WORDS.values())})[ \t]")
# The word "if" starting an if block's label, which its tag already shows.
_SPOKEN_IF = r"^(?i:if)[ \t]+(?=\S)"
_KEYWORDS = (
    *("TITLE", "ORDER", "AUTONUMBER", "NOTE", "IN", "OUT", "DIVIDER", "IF", "GROUP", "END"),
    *("ELSE", "AND", "LOOP", "OPT", "PAR", "CRITICAL", "OPTION", "BREAK", "PARTICIPANT"),
    *("ACTIVATE", "RECT", "BOX"),
)
# The keyword terminal each word starts (`alt` is an `if`), so that a line is matched against
# its first word's terminal alone: all of them in one pattern is the longest the parser has,
# and a note's lines would compile it for their prose. DIVIDER starts with no letter.
_KEYWORD_OF_WORD = {
    **{name.lower(): name for name in _KEYWORDS if name not in ("DIVIDER", "PARTICIPANT")},
    **dict.fromkeys(("participant", "actor", *PLANTUML_PARTICIPANTS), "PARTICIPANT"),
    "alt": "IF",
    "deactivate": "ACTIVATE",
}
_FIRST_LETTERS = re.compile(r"[ \t]*([^\W\d_]*)")


@cache
def _grammar() -> str:
    return read_text(resource_path("grammar", "volley.lark"))


@cache
def grammar_parser() -> Lark:
    """Lark's LALR parser for the grammar, built once per process and kept between runs by
    Lark's own cache (see `volley.resources.grammar_cache`). The model is built by `_ToModel`
    as each rule is reduced, so no parse tree is made and walked a second time."""
    return Lark(
        _grammar(),
        parser="lalr",
        cache=grammar_cache(_grammar()),
        transformer=CALLBACKS,
    )


def keyword_at(line: str) -> re.Match[str] | None:
    """The keyword terminal a line starts with (its name is the match's `lastgroup`)."""
    letters = _FIRST_LETTERS.match(line)
    word = letters[1] if letters else ""
    names: tuple[str, ...]
    if not word.isascii():  # `(?i:...)` takes a few other letters for i, k and s
        names = _KEYWORDS
    elif not word:
        names = ("DIVIDER",)
    elif word.lower() in _KEYWORD_OF_WORD:
        names = (_KEYWORD_OF_WORD[word.lower()],)
    else:
        return None
    return keyword_matcher(*names).match(line + "\n")


def _terminal(name: str) -> str:
    return grammar_parser().get_terminal(name).pattern.to_regexp()


@cache
def keyword_matcher(*names: str) -> re.Pattern[str]:
    """A pattern for lines that start with one of the grammar's keyword terminals."""
    alternatives = "|".join(f"(?P<{name}>{_terminal(name)})" for name in names)
    return re.compile(rf"[ \t]*(?:{alternatives})")


@cache
def _message_start() -> re.Pattern[str]:
    """A line that starts as a message does: a name, an arrow and the name it points at (an
    arrow with nothing after it, as in `<!-- a comment -->`, makes no message)."""
    name, arrow, mark = _terminal("NAME"), _terminal("ARROW"), _terminal("MARK")
    return re.compile(rf"[ \t]*(?:{name})[ \t]*(?:{arrow})[ \t]*(?:{mark})?[ \t]*(?:{name})")


@cache
def _message_names() -> re.Pattern[str]:
    """A message line's sender and receiver, as `_message_start` finds them."""
    name, arrow, mark = _terminal("NAME"), _terminal("ARROW"), _terminal("MARK")
    return re.compile(
        rf"^[ \t]*(?P<sender>{name})[ \t]*(?:{arrow})[ \t]*(?:{mark})?[ \t]*(?P<receiver>{name})",
        re.MULTILINE,
    )


class _MessageNames(Container[str]):
    """The names a text's message lines use, read the first time one is asked about (most
    texts never ask: only a note's `activate` line does)."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.names: set[str] | None = None

    def __contains__(self, name: object) -> bool:
        if self.names is None:
            self.names = {
                found[side].strip()
                for found in _message_names().finditer(self.text)
                for side in ("sender", "receiver")
            }
        return name in self.names


@cache
def _name() -> re.Pattern[str]:
    return re.compile(_terminal("NAME"))


@cache
def _mermaid_note() -> re.Pattern[str]:
    """A note written the Mermaid way: `note over A: text`, `note left of A: text`."""
    return re.compile(rf"[ \t]*(?:{_terminal('NOTE')})[ \t]+(?:{_terminal('PLACE')})")


def if_label(label: str) -> str:
    """An if block's label as read: without a spoken "if" at its start (`alt if it is sick`),
    which the frame's tag already shows."""
    return re.compile(_SPOKEN_IF).sub("", label, count=1)


def _blank_or_comment(line: str) -> bool:
    return not line.strip() or is_comment(line)


def line_kind(line: str, next_line: str | None = None, lanes: Container[str] = ()) -> LineKind:
    """Whether a line is an element of the language, which ends a note (swimlanes.io's rule).

    Messages, comment lines, and keywords written with their colon are; so are `end`,
    `autonumber`, and a bare `else`/`and`. A line that only starts with a word that Mermaid
    uses as a keyword ("Loop over the pages", "Activate the account") is a note's text. A box
    holds declarations: a `box` line is one only where `next_line` (the next line that is not
    blank or a comment, when known) declares a participant, so "Box: 3 items" in a note is
    text. `activate A` and `deactivate A` are elements where A is one of the `lanes` the
    messages use (`deactivate Server` under a note), prose where it is not ("Activate the
    account").
    """
    if is_percent_comment(line):  # Mermaid's comment; in swimlanes.io, text
        return "keyword text"
    if _quotes_a_message(line):  # inline code: how a note shows `A -> B: call` as text
        return "text"
    if TABLE_LINE.match(line):  # `| Client -> API | call |`, `--:|:-:`: a table's rows
        return "text"
    if is_comment(line) or _message_start().match(line + "\n"):
        return "element"
    other = OTHER_TOOLS_NOTE.match(line.lstrip(" \t"))  # `box over A: text`, over lanes
    if other is not None and all(name.strip() in lanes for name in other["over"].split(",")):
        return "keyword text"
    found = keyword_at(line)
    if found is None:
        return "keyword text" if _OTHER_TOOLS_LINE.match(line) or _misspelt(line) else "text"
    name = found.lastgroup
    if name == "ACTIVATE" and line[found.end() :].strip() in lanes:
        return "element"
    if name == "BOX" and next_line is not None and not _opens_box(next_line):
        return "keyword text"
    if name in _NOTE_ENDING_BARE or found.group().rstrip().endswith(":"):
        return "element"
    if name in _NOTE_ENDING_ALONE and not line[found.end() :].strip():
        return "element"
    if name == "TITLE":  # Mermaid's `title Login` is a diagram's first line, not a note's
        return "text"
    if name == "PARTICIPANT" and found.group().split()[0].lower() in PLANTUML_PARTICIPANTS:
        return "text"  # PlantUML's `database DB`, which swimlanes.io reads as a note's words
    # "And then …" and "Else …" start prose too often to point out but in the block they would
    # be a branch of; Mermaid's statement words (`loop every minute`, `activate A`) rarely do,
    # and a statement is no sentence ("Loop detection is handled by the proxy.")
    if name in ("ELSE", "AND"):
        return "branch text"
    return "text" if re.compile(_SENTENCE).fullmatch(line) else "keyword text"


# Three words or more ending as a sentence does: a note's prose, whatever its first word
_SENTENCE = r"[ \t]*\S+(?:[ \t]+\S+){2,}[.!?。…][ \t]*"


def _quotes_a_message(line: str) -> bool:
    """Whether the line's arrows stand in inline code only (`` `A -> B: call` ``, ``the token
    flows `Client -> Server` then on``): a message shown as text, or prose quoting one. Not
    `` `kubectl` -> API `` (a participant written in backticks) nor ``A -> B: run `a => b` ``
    (a message whose label holds code), whose arrow stands outside the code."""
    if not any(_ARROW_IN_CODE.search(code) for code in _CODE.findall(line)):
        return False
    return not _message_start().match(_CODE.sub(_blanked, line) + "\n")


def _blanked(code: re.Match[str]) -> str:
    return "`" + "x" * (len(code[0]) - 2) + "`"


_CODE = re.compile(r"`[^`\n]*`")  # an inline code span
_ARROW_IN_CODE = re.compile(rf"{ARROW_LIKE.pattern}|[-=]x[ \t]")
# A line that reads as prose in a note but was most likely meant as an element: a message with
# Mermaid's or PlantUML's arrow (`B -) A`, `A-xB`, `A ~> B`) or a volley message written wrong
# (`B -> -> A: x`; one written right is an element and ends the note), PlantUML's divider
# (`== Setup ==`) or delay (`... later ...`). Pointed out, as a keyword line is.
# A note closed or opened the way PlantUML and Mermaid write it: `end note`, `note over B`
_NOTE_OPENED_WORDS = r"(?i:note[ \t]+(?:over|left[ \t]+of|right[ \t]+of))[ \t]"
_NOTE_OPENED = rf"[ \t]*{_NOTE_OPENED_WORDS}"
_OTHER_TOOLS_LINE = re.compile(
    r"[ \t]*(?:[^\s:,]+(?:[ \t]+[^\s:,]+)*[ \t]*"
    r"(?:--?\)|~~?>|[-=]{1,2}x|[→⟶⇒←]|==>|<{0,2}[-=]{1,2}>{1,2}|<{1,2}[-=]{1,2}"
    r"|>>|\.\.+>|[-=][ \t]+>)"  # and a volley arrow mistyped: `A >> B`, `A ..> B`, `A - > B`
    r"[ \t]*[^\s:,][^:,]*:"  # to a name, then the label's colon, as a message has
    r"|==+[^=]*==+[ \t]*$|\.{3,}.*\.{3,}[ \t]*$"
    r"|'[ \t]|(?i:end[ \t]*(?:if|loop|alt|opt|par|group))[ \t]*$"  # PlantUML's comment, `endif`
    rf"|{_NOTE_OPENED_WORDS}[^:\n]*$|{NOTE_END_WORDS})"  # without volley's colon
)


def _misspelt(line: str) -> bool:
    """Whether a note's line is a keyword a letter off, standing where the keyword would
    (`tilte: Login`, `partcipant C`, `autonumbr`): pointed out, as a keyword line is."""
    if len(line.split()) > 2 and ":" not in line:
        return False  # words after it: prose with a typo, not a statement
    return misspelt_keyword(line, shortest=4, typo_only=True) is not None


def _opens_box(next_line: str) -> bool:
    """Whether the line after a `box` line (comments passed over) is what a box holds: a
    declaration. (A box with none draws nothing: `Box: 3 items` as a block's last line, above
    its `end`, is a note's text.)"""
    return keyword_matcher("PARTICIPANT").match(next_line + "\n") is not None


def _is_element(line: str) -> bool:
    return line_kind(line) == "element"


def normalise(text: str) -> str:
    """Drop a BOM (two, as a tool that adds one to a file that has one leaves them) and make
    every line end in a single LF."""
    text = text.lstrip("\ufeff")
    return text.replace("\r\n", "\n").replace("\r", "\n")


class _Directive:
    """A title/order/autonumber/participant line, kept until the resolving pass."""

    def __init__(self, kind: str, line: int, value: Any, at: Token | None = None) -> None:
        self.kind, self.line, self.value, self.at = kind, line, value, at


@dataclass
class _Declaration:
    """What a `participant` line says: a name, and the label it gives it."""

    line: int
    name: str
    label: str
    at: Token  # the name as written, for a message about it


@dataclass
class _BoxLines:
    """A box as read, with the declarations it holds, for the resolving pass to place."""

    box: Box
    declared: list[_Declaration]
    at: Token  # the `box` keyword
    faulty: bool  # a mistake in it was said already


def _text(token: Token | None) -> str:
    return str(token).strip() if token is not None else ""


def _name_of(token: Token | None) -> str:
    return _composed(_text(token))


def _composed(name: str) -> str:
    """A participant's name, in Unicode's composed form: `é` typed as one character and as
    `e` with a combining accent look alike, so they name one participant, not two."""
    return unicodedata.normalize("NFC", name)


def _line_ends(lines: list[str]) -> list[str]:
    """A note's lines without the spaces and tabs at their ends, but two where a line of prose
    that another follows ended in two or more: Markdown's line break. Elsewhere (a fenced
    block's lines, a paragraph's last) they mean nothing."""
    out = [line.rstrip(" \t") for line in lines]
    index = 0
    while index < len(lines):
        opening = fence_open(lines[index])
        if opening is not None:
            index = read_block(lines, index, opening).end + 1
            continue
        after = lines[index + 1] if index + 1 < len(lines) else ""
        if out[index] and lines[index].endswith("  ") and after.strip() and not fence_open(after):
            out[index] += "  "
        index += 1
    return out


def note_side(place: str) -> NoteSide:
    """Where a note's place words put it (Mermaid's and PlantUML's too): `left of A`, `right
    of A`, or `over` its lanes."""
    word = place.lower()
    return "left" if word.startswith("left") else "right" if word.startswith("right") else "over"


def _line(token: Token) -> int:
    """The token's line in the user's text (the parser adds one line at the top)."""
    return (token.line or 1) - 1


def _shifted(token: Token) -> Token:
    return Token(token.type, token.value, line=_line(token), column=token.column)


def _at_text(token: Token, offset: int = 0) -> Token:
    """Where the written text of a token starts, past the white space it may begin with (or
    `offset` characters into that text), in the user's lines."""
    skipped = len(token.value) - len(token.value.lstrip(" \t"))
    column = (token.column or 1) + skipped + offset
    return Token(token.type, token.value, line=_line(token), column=column)


@dataclass
class _ParseRun:
    """What one parse() call hands the callbacks: the lifted bodies and where to put mistakes."""

    bodies: dict[int, Body]
    error: object
    warn: object
    keywords: dict[int, Token] = field(default_factory=dict)  # id(block) -> its keyword
    # id(note) -> its name, for `note left: x`: PlantUML's side of the message before it,
    # unless the diagram has a participant of that name (see `_Resolver`)
    sides: dict[int, Token] = field(default_factory=dict)
    lines: list[str] = field(default_factory=list)  # the source, for what a warning quotes
    # id(note) -> its lines that read as Mermaid's branch (`else failure`), for its block
    branch_lines: dict[int, list[int]] = field(default_factory=dict)
    note_ends: dict[int, int] = field(default_factory=dict)  # lines that ended a note: its line


@dataclass(frozen=True, slots=True)
class _NameProblem:
    """A mistake in a name as written: an error (a warning when `warning`), `offset`
    characters into the name."""

    warning: bool
    message: str
    offset: int
    hint: str = ""


# An arrow's head left beside a name (`A <-< B`, `A -> B>`): one standing apart from it, or
# glued to a word (a name may hold markup, `<b>API</b>`, and start with a stereotype written
# with spaces, `<< interface >> Store`, which are said as written)
_HEAD_AT_START = re.compile(r"(?!<<.*>>)(?:[<>]{1,2}[ \t]|>)")
_HEAD_AT_END = re.compile(r"[ \t][<>]{1,2}$|^[\w .-]*\w>{1,2}$")
# A tag of markup's at a name's start (`<b>API</b>`), which no arrow's head glued to it is
_TAG_START = r"</?[A-Za-z][^<>]*>"
# What an arrow is made of, said where a piece of one is left beside a name
_ARROW_MADE_OF = (
    "arrows are a left head (<, << or x), a shaft (-, -- or =) and a right head (>, >> or x)"
)
_HEAD_BEFORE_NAME = (
    "starts with a piece of an arrow; an arrow's heads stand at its ends, and a name holds none",
    f"{_ARROW_MADE_OF}: A <- B, A <-> B",
)


@lru_cache(maxsize=512)
def _name_problems(name: str, arrow: str = "") -> tuple[_NameProblem, ...]:
    """What is wrong with a name as written (in a message, `order:`, a declaration, a note),
    each with where in the name it lies: a name that starts like a note's place is Mermaid's
    note, misplaced; one that ends in `<` holds a piece of the arrow after it (`A <<<- B`). A
    diagram names its few participants again and again, so each name is looked at once."""
    problems: list[_NameProblem] = []
    slip = _ARROW_SLIP.search(name)
    if slip is not None:  # `B -> A ~> C`: the second arrow a slip, read as part of a name
        from volley.language.syntax_errors import TYPO_ARROWS

        typo = slip.group()
        meant = dict(TYPO_ARROWS).get(typo, "->")
        hint = f'did you mean "{meant}"? a message goes from one participant to one'
        said = f'"{name}" holds "{typo}", which is not an arrow; a name holds no arrow'
        return (_NameProblem(False, said, slip.start(), hint),)
    comment = COMMENT_AFTER_NAME.search(name) if "%%" in name or "//" in name else None
    if comment is not None:
        said = name[comment.start(1) :]
        message = (
            f'"{said}" after "{name[: comment.start()]}" is a comment, which volley reads '
            "only on a line of its own (Mermaid would make it part of the name)"
        )
        hint = f'put "{said}" on a line of its own, or delete it'
        return (_NameProblem(False, message, comment.start(1), hint),)
    labelled = _DECLARATION.match(name)  # `participant A as Client -> B`: one slip
    refusals = (  # (refused, what is said after the name, the hint)
        (
            name.endswith("<") or bool(_HEAD_AT_END.search(name)),
            "ends with a piece of an arrow; an arrow has at most two heads on each side",
            f"{_ARROW_MADE_OF}: A <<- B",
        ),
        (  # `A <-< B`, `A -> >B`: a head after the arrow read as the name's first letter
            bool(_HEAD_AT_START.match(name)),
            *_HEAD_BEFORE_NAME,
        ),
        (
            name.startswith("|"),
            "starts with a pipe, which no name does: a line that starts with one is a table's row",
            "rename it; a table is a note's text: write it under note A: (note A, B:), "
            "whose lines run to the next element",
        ),
        (
            name.startswith("'") and not re.compile(_SINGLE_QUOTED).fullmatch(name),
            'starts with "\'", which starts a comment in PlantUML, not in volley',
            'a comment line starts with "//"; to name a participant, write the name '
            "without the quote",
        ),
        (
            bool(_NOTE_PLACE.match(name)),
            'is not a participant name; "over", "left of" and "right of" belong in a note',
            'write a note over a participant as "note A: text"',
        ),
        (
            labelled is not None,
            "reads as a participant's name: a line that holds an arrow"
            + (f' ("{arrow}")' if arrow else "")
            + " is a message, so a display label cannot hold one",
            f'declare it on a line of its own ("{name}") and write '
            f'"{labelled[1] if labelled else ""}" in the message',
        ),
    )
    problems += [
        _NameProblem(False, f'"{name}" {said}', 0, hint)
        for refused, said, hint in refusals
        if refused
    ]
    declared = None if labelled else _DECLARED_IN_MESSAGE.fullmatch(name)
    if declared is not None:
        keyword = declared[1] or declared[3]
        meant = declared[2] or declared[4]
        message = (
            f'"{name}" is not a participant\'s name: {keyword} declares one on a line of its own'
        )
        hint = (
            f'write "{name}" on a line of its own, and "{meant}" in the message (to show a lane '
            f'called "{name}", declare it: participant P as {name})'
        )
        problems.append(_NameProblem(False, message, 0, hint))
    if name.endswith(";") and len(name) > 1:  # swimlanes.io's name, Mermaid's statement end
        message = (
            f'"{name}" ends with ";", which is part of the name here (as swimlanes.io reads '
            "it); in Mermaid it ends a statement: to name the same participant as "
            f'"{name[:-1].rstrip()}", delete the ";"'
        )
        problems.append(_NameProblem(True, message, len(name) - 1))
    mark, before = name[-2:], name[:-2]
    if mark in LIFELINE_MARKS and before.endswith((" ", "\t")):  # `A -> B ++`
        does, instead = LIFELINE_MARKS[mark]
        message = (
            f'"{mark}" after "{before.rstrip()}" is PlantUML\'s mark that {does}, not part '
            "of a name"
        )
        problems.append(_NameProblem(False, message, len(before), instead))
    return tuple(problems)


# The `end` fed for a block still open at the end of the file (see `_close_open_blocks`).
_CLOSING = "end of file"


class _ToModel:
    """The rule callbacks: model objects as rules are reduced; bodies joined by line.

    One instance (`CALLBACKS`) serves every parse, so the state of the parse in progress is
    per thread (`run`), which keeps concurrent parses in different threads apart.
    """

    def __init__(self) -> None:
        self._local = threading.local()

    @property
    def run(self) -> _ParseRun:
        return self._local.run

    @run.setter
    def run(self, value: _ParseRun | None) -> None:
        self._local.run = value

    @property
    def bodies(self) -> dict[int, Body]:
        return self._local.run.bodies

    def error(self, message: str, token: Token, at_end: bool = False, hint: str = "") -> None:
        self._local.run.error(message, token, at_end, hint)

    def start(self, items):
        return list(items)

    def title(self, children):
        keyword, text = children
        if not _text(text):  # `title` or `title:` alone: nothing is drawn
            self._local.run.warn(
                "this title is empty: its words go after it, on its line (title: Login)",
                _shifted(keyword),
            )
        return _Directive("title", _line(keyword), (_text(text), _shifted(keyword)))

    def order(self, children):
        keyword, *names = children
        for name in names:
            self._check_name(_name_of(name), name)
        return _Directive("order", _line(keyword), [(_name_of(n), _shifted(n)) for n in names])

    def autonumber(self, children):
        """The number the next message gets: from 1, from the one given, or none (`off`)."""
        keyword, number = children
        if number is not None and number.type == "OFF":
            return _Directive("autonumber", _line(keyword), None)
        if number is not None and len(number) > len(str(LARGEST_NUMBER)):
            self.error(f"autonumber starts at most at {LARGEST_NUMBER}", _shifted(number))
            number = None
        start = int(number) if number else 1
        return _Directive("autonumber", _line(keyword), start, _shifted(keyword))

    def participant(self, children):
        keyword, text = children
        written = _text(text)
        said_as = _AS.search(written)
        name, label = written, ""
        if said_as:
            name, label = written[: said_as.start()], written[said_as.end() :]
        name, label = _composed(name.strip()), label.strip()
        if said_as and not label:  # `participant C as`: the longer name left out
            self.error(
                f'expected the name to show after "{written[said_as.start() :].strip()}"',
                _at_text(text, len(written.rstrip())),
                hint=f'write "{keyword.value.strip()} {name} as Longer name", or leave out '
                f'"{written[said_as.start() :].strip()}"',
            )
        typed = name.find("@{")  # Mermaid's `participant API@{ "type": "boundary" }`
        if typed > 0:
            self.error(
                f'"{name[typed:]}" after "{name[:typed]}" is Mermaid\'s kind of participant, '
                "which volley does not draw",
                _at_text(text, typed),
                hint=f'write "{keyword.value.strip()} {name[:typed].strip()}'
                + (f' as {label}"' if label else '"'),
            )
        elif not _name().fullmatch(name):
            # `actor #green:0.5 Bob` (sequencediagram.org's)
            colour = re.compile(_COLOUR_BEFORE).match(name)
            if colour is not None:
                rest = name[colour.end() :]
                self.error(
                    f'"{colour[1]}" before "{rest}" is sequencediagram.org\'s colour, not part '
                    "of a name",
                    _at_text(text),
                    hint=f'volley does not colour participants: write "{keyword.value.strip()} '
                    + (f'{rest} as {label}"' if label else f'{rest}"'),
                )
            else:
                self.error(
                    f'expected a participant name after {keyword.value.strip()}, not "{name}"',
                    _shifted(keyword) if not name else _at_text(text),
                    hint="a name is text without : or , that holds no arrow",
                )
        self._check_name(name, text)
        self._check_colour(name, text)
        self._check_decoration(name, label, text)
        if label.endswith(";") and len(label) > 1:  # `participant A as Alice;`
            self._local.run.warn(
                f'"{label}" ends with ";", which is part of the label here (as swimlanes.io '
                f'reads it); in Mermaid it ends a statement: to show "{label[:-1].rstrip()}", '
                'delete the ";"',
                _at_text(text, len(written.rstrip()) - 1),
            )
        if label and len(name) > 1 and name[0] == name[-1] == '"':
            if len(label) > 1 and label[0] == label[-1] == '"':  # `"User" as "用户"`
                said = "is quoted: a volley name and its label take no quotes"
                meant = f"participant {name[1:-1]} as {label[1:-1]}"
            else:
                said = (
                    "is PlantUML's and WebSequenceDiagrams' order (the shown name, then the lane's)"
                )
                meant = f"participant {label} as {name[1:-1]}"
            self.error(f'{name} as {label} {said}: volley writes "{meant}"', _at_text(text))
        return _Directive(
            "participant", _line(keyword), _Declaration(_line(keyword), name, label, _at_text(text))
        )

    def activation(self, children):
        keyword, name = children
        self._check_name(_name_of(name), name)
        self._check_colour(_name_of(name), name)
        on = keyword.value.lower().startswith("activate")
        return Activation(line=_line(keyword), participant=_name_of(name), on=on)

    def payload(self, children):
        keyword, label = children
        side = "in" if keyword.type == "IN" else "out"
        body = self.bodies.get(_line(keyword))
        if body is not None and body.shallow:
            first = self._local.run.lines[body.shallow - 1]
            said, hint = (
                ("this body is", f"indent the lines under {side}: by one more space")
                if body.shallow == body.start
                else (
                    "this line of the body above it is",
                    "indent it by one more space, as the lines above it",
                )
            )
            self.error(
                f"{said} indented one space deeper than its {side}: line; a body is "
                f"indented at least two spaces (or a tab) deeper",
                Token(
                    "TEXT", first, line=body.shallow, column=len(first) - len(first.lstrip()) + 1
                ),
                hint=hint,
            )
        if body is None:
            self.error(
                f"{side}: needs a body after it: a fenced block (```) or lines "
                f"indented two spaces deeper than {side}:",
                _shifted(keyword),
                at_end=True,
            )
            body = Body(_line(keyword), "", "indented")
        elif body.short_fence:
            opening = self._local.run.lines[body.short_fence - 1]
            marker = opening.strip()[:2]
            self.error(
                f"a fence is three {'backticks' if marker == '``' else 'tildes'} or more; this "
                f"one has two, so the lines under {side}: would be read as elements",
                Token("TEXT", opening, line=body.short_fence, column=opening.find(marker) + 1),
                hint=f"open and close the body with {marker[0] * 3}",
            )
        elif body.fence_on_owner:
            fence = label.value[body.fence_on_owner - label.column :].strip()  # with its lang
            self.error(
                f"the fence {fence} goes on a line of its own, under {side}:",
                Token("TEXT", fence, line=_line(keyword), column=body.fence_on_owner),
                hint=f"write {side}: and its label on this line, then {fence} on the next",
            )
        payload = Payload(
            label=_text(label) or DEFAULT_PAYLOAD_LABELS[side],
            lang=body.lang,
            body=body.text,
            form=body.form,  # type: ignore[arg-type]
            line=_line(keyword),
            body_line=body.start,
        )
        return side, payload, keyword

    def _check_name(self, name: str, token: Token, arrow: str = "") -> None:
        """Say what is wrong with a name as written (`_name_problems`), each at its place in
        the user's text: `token` is the name's, as Lark gives it; `arrow` the one written
        after a sender's name."""
        for problem in _name_problems(name, arrow):
            at = _at_text(token, problem.offset)
            if problem.warning:
                self._local.run.warn(problem.message, at)
            else:
                self.error(problem.message, at, hint=problem.hint)

    def _check_decoration(self, name: str, label: str, token: Token) -> None:
        """`participant A <<Service>>`: PlantUML's stereotype after a declared name, which it
        would be read as part of. (Its `participant A order 10` is pointed out by the lint,
        where `A` is used alone: `Purchase Order 42` is a name.)"""
        stereotype = _STEREOTYPE.search(name)
        if stereotype is not None:
            bare = name[: stereotype.start()].strip()
            shown = f"{label or bare} «{stereotype.group(1)[2:-2].strip()}»"
            self.error(
                f'"{stereotype.group(1)}" after "{bare}" is PlantUML\'s stereotype, not part of '
                "a name",
                _at_text(token, stereotype.start(1)),
                hint=f'volley draws none: delete it, or show it in the label: "participant {bare} '
                f'as {shown}"',
            )

    def _check_colour(self, name: str, token: Token) -> None:
        """`actor Bob #red`, `note over A #aqua`: a name where PlantUML puts a colour, ending
        in one."""
        colour = _COLOUR.search(name) if "#" in name else None
        if colour is None:
            return
        from volley.text.colours import names_colour  # only a name holding "#" needs it

        if names_colour(colour[2]):
            self.error(
                f'"{colour[1]}" after "{name[: colour.start()]}" is PlantUML\'s colour, not part '
                "of a name",
                _at_text(token, colour.start(1)),
                hint="volley does not colour participants or notes: delete it",
            )

    def message(self, children):
        sender, arrow, mark, receiver, label, *payloads = children
        message = Message(
            line=_line(sender),
            sender=_name_of(sender),
            receiver=_name_of(receiver),
            arrow=str(arrow),
            label=_text(label),
            activate=str(mark) if mark is not None else None,  # type: ignore[arg-type]
        )
        glued = receiver.column == (mark or arrow).end_column  # the receiver's text and arrow
        if _BRANCH_START.match(message.sender):  # `else x -> y;`: in its block a branch and
            pass  # its label (`_branch_with_arrow`), whose words are no names to check
        elif glued and re.compile(_CREATE_MARK).match(receiver.value):
            self.error(  # `A ->*B: new`, `A ->* B`, `A ->+*B`: the mark glued to the arrow
                f'"*" before "{message.receiver[1:].strip()}" is WebSequenceDiagrams\' mark that '
                "creates the participant, not part of its name",
                _at_text(receiver, 0),
                hint="volley draws every participant from the top of the diagram: delete the *",
            )
        elif (
            glued
            and receiver.value[:1] in "<>"
            and not re.compile(_TAG_START).match(receiver.value)
        ):
            said, hint = _HEAD_BEFORE_NAME  # `A <-<B`: glued to the arrow and the name
            self.error(f'"{message.receiver}" {said}', _at_text(receiver, 0), hint=hint)
        elif glued and (found := re.compile(_DELAY_MARK).match(receiver.value)):
            delay = found[0]
            self.error(
                f'"{delay}" before "{receiver.value[len(delay) :].strip()}" is '
                "sequencediagram.org's delay (a message drawn slanting), not part of its name",
                _at_text(receiver, 0),
                hint=f"volley draws each message level: delete {delay}",
            )
        else:
            self._check_name(message.sender, sender, message.arrow)
            self._check_name(message.receiver, receiver)
        if _TITLE_WORD.match(message.sender) and label is None:
            self._local.run.warn(  # Mermaid's title that holds an arrow: a message here
                f'"{message.sender}" is read as a participant: a line that holds an arrow is a '
                f'message; for a title that holds one, write "title: …" with its colon',
                _at_text(sender),
            )
        if _NOTE_WORD.match(message.sender):  # with a label, the line reads as a note
            from volley.language.syntax_errors import note_named  # only a mistake needs it

            said, hint = note_named(message.sender, self._local.run.lines[_line(sender) - 1])
            self.error(said, _at_text(sender), hint=hint)
        for edge, token, glued in (  # the name's text holds any spaces before the arrow
            ("[", sender, sender.value == "[" and sender.end_column == arrow.column),
            ("]", receiver, receiver.column == arrow.end_column),
        ):
            if glued and token.value.strip() == edge:  # `[-> A`, `A ->]`
                self.error(
                    f'"{edge}" is PlantUML\'s edge of the diagram (a message from or to outside '
                    "it), not a participant",
                    _shifted(token),
                    hint='name who sends or receives it: "Outside -> A: call"',
                )
        head = receiver.value[:1]
        if (
            mark is None
            and str(arrow).endswith(">")
            and receiver.column == arrow.end_column
            and head in _GLUED_HEADS
            and receiver.value[1:2] in (" ", "\t")
        ):  # `A ->x B`, `A ->o B`: a head glued to the arrow, the name after it
            what, hint = _GLUED_HEADS[head]
            shaft = str(arrow).rstrip(">") if head == "x" else str(arrow)
            self.error(
                f'"{arrow}{head}" is PlantUML\'s {what}, not an arrow to "{message.receiver}"',
                _shifted(arrow),
                hint=hint.format(arrow=shaft),
            )
        for side, payload, keyword in payloads:
            attr = "request" if side == "in" else "response"
            previous = getattr(message, attr)
            if previous is not None:
                self.error(
                    f"a message carries at most one {side}:; this message (line "
                    f"{message.line}) already has one on line {previous.line}",
                    _shifted(keyword),
                )
            setattr(message, attr, payload)
        return message

    def note(self, children):
        keyword, _place, *rest = children
        text_token = rest.pop()
        names = [_name_of(n) for n in rest if n is not None]
        for name in rest:
            if name is not None:
                self._check_name(_name_of(name), name)
                self._check_colour(_name_of(name), name)  # `note over A #aqua: x`
        text = _text(text_token)
        body = self.bodies.get(_line(keyword))
        text_line = 0
        if body is not None:
            # blank lines before a note's first words are no paragraph break; spaces at a
            # line's end mean nothing (as on the note: line, which the grammar trims) but two,
            # which break the line there, as in Markdown
            more = "\n".join(_line_ends(body.text.split("\n")))
            if not text:  # its words start below the `note:` line
                text_line = _line(keyword) + 1 + len(more) - len(more.lstrip("\n"))
            text = f"{text}\n{more}" if text else more.lstrip("\n")
            for line in body.doubtful:
                said = f"this line is read as text of the note on line {_line(keyword)}"
                written = self._local.run.lines[line - 1]
                if is_percent_comment(written):
                    said += (
                        ', as swimlanes.io reads it ("%%" starts no comment there); to end the '
                        'note with a comment, write "//" instead'
                    )
                elif NOTE_END.match(written):  # PlantUML's end of a note of several lines
                    said += ": a volley note ends at the next element by itself; delete this line"
                elif re.compile(_NOTE_OPENED).match(written):  # `note over B`, no colon
                    said += (
                        "; to start a note of its own here, write it with its colon, as in "
                        '"note B: …"'
                    )
                elif (other := OTHER_TOOLS_NOTE.match(written.lstrip(" \t"))) is not None:
                    meant = other_note_meant(other)
                    said += f'; to start a note of its own here, write "{meant}"'
                elif keyword_matcher("BOX").match(written + "\n"):
                    said += (
                        ": a box starts only where its participants' declarations follow it "
                        "(box: Front end, then participant A on the next line)"
                    )
                elif (misspelt := misspelt_keyword(written, 4, typo_only=True)) is not None:
                    said += (
                        f'; if "{misspelt[0]}" was meant as "{misspelt[1]}", end the note before '
                        'it with a "//" line and write the keyword so'
                    )
                else:
                    said += (
                        '; to start an element here instead, end the note before it with a "//" '
                        "line (and write a keyword with its colon, as in loop: … or "
                        "deactivate: A, an arrow as volley does, as in ->>)"
                    )
                column = len(written) - len(written.lstrip(" \t")) + 1  # where its words start
                self._local.run.warn(said, Token("TEXT", "", line=line, column=column))
        if not text.strip():
            self._local.run.warn(
                "this note is empty: its words go after its colon, or on the lines below it up to "
                'the next element (a line right below it such as "Title: …", "Order: …" or '
                '"Note: …" is an element of its own)',
                _shifted(keyword),
            )
        side = note_side(str(_place or "over"))
        if side != "over" and len(names) > 1:
            place = " ".join(_place.lower().split())
            self.error(
                f"a note {place} stands beside one participant, not {len(names)}",
                _shifted(_place),
                hint=f"write note over {', '.join(names)}: to span them",
            )
        note = Note(line=_line(keyword), over=names, text=text, text_line=text_line, side=side)
        note.lines_kept = body is not None and body.lines_kept and "\n" in text
        note.attached = not names
        if body is not None and body.branches:
            self._local.run.branch_lines[id(note)] = body.branches
        if _place is None and len(names) == 1 and _side(names[0]) in _PLANTUML_NOTE_SIDES:
            self._local.run.sides[id(note)] = rest[0]
        return note

    def divider(self, children):
        keyword, label = children
        mark = str(keyword).rstrip(" \t:")
        return Divider(line=_line(keyword), style=DIVIDER_STYLES[mark], label=_text(label))

    def _frame(self, kind: BlockKind, children) -> Block:
        keyword, label, *rest = children
        block = Block(line=_line(keyword), kind=kind)
        self._local.run.keywords[id(block)] = keyword
        branch = Branch(label=_text(label), line=_line(keyword))
        self._coloured_label(label)
        block.branches.append(branch)
        for child in rest:
            if isinstance(child, Branch):
                block.branches.append(child)
                branch = child
            elif isinstance(child, Token):  # the END token
                block.end_line = self._end_line(keyword, child)
            elif (label := self._branch_with_arrow(kind, child)) is not None:
                branch = Branch(label=label, line=child.line)  # type: ignore[union-attr]
                block.branches.append(branch)
            elif not self._box_inside(child, keyword):
                branch.items.append(child)
                if isinstance(child, Note):
                    self._branch_in_note(kind, child)
        return block

    def _branch_with_arrow(self, kind: BlockKind, item: object) -> str | None:
        """The label of a branch written Mermaid's way with an arrow in its label (`else cache
        miss -> db` in an if block), which the grammar reads as a message from "else cache
        miss": inside its block, as Mermaid reads it, the line is the branch. None for any
        other item (a message that carries a payload is a message)."""
        word = BRANCH_WORDS.get(kind)
        if word is None or not isinstance(item, Message) or item.request or item.response:
            return None
        starts = _BRANCH_START.match(item.sender)
        if starts is None or starts.group().rstrip().lower() != word:
            return None
        return self._local.run.lines[item.line - 1].strip()[len(word) :].strip()

    def _branch_in_note(self, kind: BlockKind, note: Note) -> None:
        """Point out a line of the note that reads as a branch of its block, written Mermaid's
        way (`else failure` in an if block): the note's text, as swimlanes.io reads it, where
        its writer most likely meant the branch."""
        word = BRANCH_WORDS.get(kind)
        for line in self._local.run.branch_lines.pop(id(note), ()):
            written = self._local.run.lines[line - 1]
            words = written.strip()
            if word is None or not words.lower().startswith(word):
                continue
            label = words[len(word) :].strip()
            self._local.run.warn(
                f"this line is read as text of the note on line {note.line}; to start the "
                f'{kind} block\'s {word} branch here, write "{word}: {label}": with its colon, as '
                "swimlanes.io writes it, a branch ends the note",
                Token("TEXT", "", line=line, column=len(written) - len(written.lstrip()) + 1),
            )

    def _end_line(self, keyword: Token, end: Token) -> int:
        """The line of a block's `end`; 0, with a warning, for one never closed."""
        if end.value != _CLOSING:
            return _line(end)
        from volley.language.syntax_errors import block_keyword

        word = block_keyword(keyword.value)
        run = self._local.run
        line = _line(keyword)
        note = run.note_ends.get(line, 0)
        hint = None
        words = [run.lines[note - 1].partition(":")[2], *run.lines[note : line - 1]] if note else []
        colon = keyword.value.rstrip().endswith(":")  # (without one it ended no note)
        if colon and any(text.strip() for text in words):  # the note's line's words count too
            # right under a note's words: most likely its prose ("If: the token is stale, …")
            written = run.lines[line - 1].strip().split(":")[0].rstrip()
            hint = (
                f"it opens right under the words of the note on line {note}; if it is the "
                f"note's words, escape its colon: {written}\\:"
            )
        run.warn(
            f"this {'box' if word == 'box' else word + ' block'} is never closed; it ends at the "
            'end of the file (write "end" on a line of its own after its last line)',
            _shifted(keyword),
            hint,
        )
        return 0

    def _box_inside(self, child: object, keyword: Token, part: str = "block") -> bool:
        """Whether `child`, met inside the block or branch `keyword` opens, is a box: an error,
        for a box groups participants for the whole diagram."""
        if not (isinstance(child, _Directive) and child.kind == "box"):
            return False
        from volley.language.syntax_errors import block_keyword

        self.error(
            f"a box groups participants for the whole diagram; it cannot stand inside the "
            f"{block_keyword(keyword.value)} {part}",
            child.value.at,
            hint="move the box to the top of the diagram, before the first message",
        )
        return True

    def _coloured_label(self, label: Token | None) -> None:
        """A block's or branch's label that starts with sequencediagram.org's colours (`alt
        #navy ok`, `else #pink failed`), which volley would draw as its words."""
        text = _text(label)
        if label is None or not text.startswith("#"):
            return
        from volley.language.syntax_errors import without_colours

        kept = without_colours(text)
        if kept != text:
            self._local.run.warn(
                f'"{text}" holds sequencediagram.org\'s colours, which volley draws as the '
                "label's words: " + (f'write "{kept}"' if kept else "delete them"),
                _at_text(label),
            )

    def _branch(self, children) -> Branch:
        keyword, label, *items = children
        self._coloured_label(label)
        items = [item for item in items if not self._box_inside(item, keyword, "branch")]
        word = keyword.value.strip().rstrip(":").strip().lower()
        # `else if expired` reads as an "else if" that volley does not have; `else: if it
        # expired` is a branch labelled as written, as swimlanes.io and Mermaid draw it
        if label is not None and ":" not in keyword.value and re.match(r"(?i)if\b", _text(label)):
            self.error(
                f'volley has no "{word} if"; a branch is "{word}" with an optional label',
                _shifted(keyword),
                hint=f'write "{word}: {_text(label)[2:].lstrip(" :")}" and put the condition '
                "in its label, or nest an if: block inside the branch",
            )
        return Branch(label=_text(label), items=list(items), line=_line(keyword))

    def if_block(self, children):
        """The tag already says "if": `alt if the token is valid` (Mermaid's habit) is labelled
        "the token is valid", so the frame does not read "if if …". A label after `if:` is
        kept as written (`if: If success`), as swimlanes.io draws it."""
        block = self._frame("if", children)
        if children[0].value.lower().startswith("alt"):
            first = block.branches[0]
            first.label = if_label(first.label)
        return block

    def group_block(self, children):
        return self._frame("group", children)

    def rect_block(self, children):
        """Mermaid's highlight: the text after `rect` is its colour, never a label. A colour
        volley cannot read is kept as written (`volley fmt` writes it back) and drawn in the
        theme's tint."""
        from volley.text.colours import read_colour  # only a rect needs the CSS parser

        keyword, colour, *rest = children
        block = self._frame("rect", [keyword, None, *rest])
        block.tint = _text(colour) or None
        if block.tint is not None and read_colour(block.tint) is None:
            write = "write a CSS colour: rgb(200, 220, 255), #c8dcff or lightblue"
            if read_colour(block.tint.removesuffix(";").rstrip()) is not None:  # Mermaid's `;`
                write = 'Mermaid ends a statement at ";", volley does not: delete it'
            self._local.run.warn(
                f'"{block.tint}" is not a colour volley reads; the rect is drawn in the '
                f"theme's tint ({write})",
                _at_text(colour),
            )
        return block

    def box_block(self, children):
        """Mermaid's box: its text is a colour and then a label, or a label alone (`box Aqua
        Front end`, `box Front end`, read as Mermaid reads them); it holds the declarations
        of the participants that stand in it, and nothing else."""
        from volley.text.colours import colour_and_label  # only a box needs the CSS parser

        keyword, text, *rest, end = children
        tint, label = colour_and_label(_text(text))
        box = Box(line=_line(keyword), label=label, tint=tint)
        declared = [c.value for c in rest if isinstance(c, _Directive) and c.kind == "participant"]
        strays = [c for c in rest if not (isinstance(c, _Directive) and c.kind == "participant")]
        read = _BoxLines(box, declared, _shifted(keyword), faulty=bool(strays))
        if end.value == _CLOSING and strays:
            # the diagram goes on after the declarations: one mistake, the missing `end`
            stray = _what(strays[0]).replace("this", "the", 1)
            wanted = '"end" after its declarations' if declared else 'its declarations and "end"'
            from volley.language.syntax_errors import other_tools_note

            note = other_tools_note(f"{keyword.value.strip()} {_text(text)}")  # `box over A: x`
            self.error(
                f"this box is never closed; expected {wanted}, before {stray} on line "
                f"{strays[0].line}",
                read.at,
                hint=None if note is None else f"or, as a note: {note[0]}",
            )
            return _Directive("box", box.line, read)
        box.end_line = self._end_line(keyword, end)
        for child in strays:
            if isinstance(child, _Directive) and child.kind == "box":
                self.error("a box cannot hold another box", child.value.at)
            else:
                self.error(
                    "a box holds the declarations of its participants (participant A, actor "
                    f"B) and nothing else; {_what(child)} goes after its end",
                    self._line_start(child.line),
                )
        return _Directive("box", box.line, read)

    def _line_start(self, line: int) -> Token:
        """Where the text of a source line starts, for a mistake that is the whole line."""
        lines = self._local.run.lines
        text = lines[line - 1] if 0 < line <= len(lines) else ""
        return Token("LINE", text, line=line, column=len(text) - len(text.lstrip(" \t")) + 1)

    def loop_block(self, children):
        return self._frame("loop", children)

    def opt_block(self, children):
        return self._frame("opt", children)

    def par_block(self, children):
        return self._frame("par", children)

    def critical_block(self, children):
        return self._frame("critical", children)

    def break_block(self, children):
        return self._frame("break", children)

    else_branch = and_branch = option_branch = _branch


CALLBACKS = _ToModel()


def _what(item: object) -> str:
    """An element as a message about it names it: "this message", "this note" …"""
    if isinstance(item, _Directive):
        return f"this {item.kind} line"
    if isinstance(item, Activation):
        return f"this {'activate' if item.on else 'deactivate'} line"
    return {Message: "this message", Note: "this note", Block: "this block"}.get(
        type(item), "this divider"
    )


def _nested_items(items: list) -> list[Item]:
    """Model items only (directives removed), recursively inside blocks."""
    kept: list[Item] = []
    for item in items:
        if isinstance(item, _Directive):
            continue
        if isinstance(item, Block):
            for branch in item.branches:
                branch.items = _nested_items(branch.items)
        kept.append(item)
    return kept


def _names_besides_notes(item: object) -> list[str]:
    """The participants an item names, if it is not a note."""
    if isinstance(item, Message):
        return [item.sender, item.receiver]
    if isinstance(item, Activation):
        return [item.participant]
    if isinstance(item, _Directive) and item.kind == "order":
        return [name for name, _ in item.value]
    if isinstance(item, _Directive) and item.kind == "participant":
        return [item.value.name]
    if isinstance(item, _Directive) and item.kind == "box":
        return [declared.name for declared in item.value.declared]
    return []


def _one_spelling(raw: list) -> None:
    """Names that differ only in case name one participant, shown as first written:
    swimlanes.io draws `EU team`, `EU Team` and `Eu Team` as one lane, its arrows ending there
    (its exported pictures show it), where three lanes would turn arrows round."""
    first: dict[str, str] = {}

    def spelled(name: str) -> str:
        return first.setdefault(name.casefold(), name)

    for item in walk(raw):  # directives included, in document order
        if isinstance(item, Message):
            item.sender, item.receiver = spelled(item.sender), spelled(item.receiver)
        elif isinstance(item, Note):
            item.over = [spelled(name) for name in item.over]
        elif isinstance(item, Activation):
            item.participant = spelled(item.participant)
        elif isinstance(item, _Directive) and item.kind == "order":
            item.value = [(spelled(name), token) for name, token in item.value]
        elif isinstance(item, _Directive) and item.kind == "participant":
            item.value.name = spelled(item.value.name)
        elif isinstance(item, _Directive) and item.kind == "box":
            for declared in item.value.declared:
                declared.name = spelled(declared.name)


class _Resolver:
    """The pass that needs the whole document: title, order, numbering, note spans."""

    def __init__(self, error, warn, sides: dict[int, Token]) -> None:
        self.error, self.warn = error, warn
        self.sides = sides  # notes written as PlantUML's `note left:` (`_ParseRun.sides`)
        self.boxes: list[_BoxLines] = []  # the diagram's boxes as read, in document order

    def run(self, raw: list) -> Diagram:
        _one_spelling(raw)
        diagram = Diagram()
        order: list[str] = []
        first_use: dict[str, None] = {}
        number: int | None = None
        numbering: _Directive | None = None  # the `autonumber` before any message it numbers
        messages = False
        previous: Message | None = None
        notes: list[tuple[Note, Message | None]] = []
        boxed: dict[str, Box] = {}  # each participant in a box, and its box
        for item in walk(raw):  # directives included, in document order
            if isinstance(item, _Directive):
                if item.kind == "title":
                    text, keyword = item.value
                    if diagram.title is not None:
                        self.error(
                            f"a diagram has one title; it was already set on line "
                            f"{diagram.title_line}",
                            keyword,
                            hint="delete one; a heading inside the diagram is a divider (=: Text)",
                        )
                        continue
                    diagram.title, diagram.title_line = text, item.line
                elif item.kind == "order":
                    self.check_order(item, order)
                    for name, token in item.value:
                        if not name:
                            self.error("expected a participant name in order:", token)
                        if name not in order:
                            order.append(name)
                            diagram.listed_lines[name] = item.line
                elif item.kind == "participant":
                    self.declare(item.value, diagram, first_use)
                elif item.kind == "box":
                    self.box(item.value, diagram, first_use, boxed)
                else:
                    number = item.value
                    numbering = item if number is not None else None
            elif isinstance(item, Message):
                first_use.setdefault(item.sender)
                first_use.setdefault(item.receiver)
                if number is not None:
                    item.number = number
                    number += 1
                previous, numbering, messages = item, None, True
            elif isinstance(item, Note):
                for name in item.over:
                    first_use.setdefault(name)
                notes.append((item, previous))
            elif isinstance(item, Activation):
                first_use.setdefault(item.participant)
            elif isinstance(item, Divider):  # a `note:` after it spans everyone, as in
                previous = None  # swimlanes.io: the section's first words, no message's
        self.check_sides([note for note, _ in notes], raw)
        if numbering is not None and numbering.at is not None and messages:
            self.warn(  # swimlanes.io's gallery: `autonumber` under the messages it meant
                "autonumber numbers the messages after it, and none follows: put it above "
                "the first message to number them all",
                numbering.at,
            )
        participants = order + [name for name in first_use if name not in order]
        participants = self.side_by_side(participants, order)
        position = {name: index for index, name in enumerate(participants)}
        # left to right, as drawn; one that holds no participant, and draws nothing, last
        diagram.boxes.sort(
            key=lambda box: position[box.participants[0]] if box.participants else len(position)
        )
        for note, message in notes:
            if note.over:
                ends = sorted(position[name] for name in note.over)
            elif message is not None:
                ends = sorted((position[message.sender], position[message.receiver]))
            else:
                ends = [0, len(participants) - 1] if participants else []
            note.over = participants[ends[0] : ends[-1] + 1] if ends else []
        diagram.participants = participants
        diagram.items = _nested_items(raw)
        return diagram

    def declare(
        self, declaration: _Declaration, diagram: Diagram, first_use: dict[str, None]
    ) -> None:
        """`participant A` / `participant A as Long name`: A takes its place, and its label."""
        name, label = declaration.name, declaration.label
        first_use.setdefault(name)
        diagram.declared_lines.setdefault(name, declaration.line)
        if label:
            shown = diagram.labels.get(name)
            if shown is not None and shown != label:  # one lane shows one label: the last
                self.warn(
                    f'{name} is declared again with another label, "{label}" ("{shown}" on '
                    f"line {diagram.declared_lines[name]}): its lane shows the last declared",
                    declaration.at,
                )
            diagram.labels[name] = label
            diagram.declared_lines[name] = declaration.line

    def box(
        self, read: _BoxLines, diagram: Diagram, first_use: dict[str, None], boxed: dict[str, Box]
    ) -> None:
        """A box's declarations, and the participants it holds (each in one box only)."""
        box = read.box
        for declaration in read.declared:
            self.declare(declaration, diagram, first_use)
            name = declaration.name
            other = boxed.get(name)
            if other is not None and other is not box:
                self.error(
                    f"{name} is in the box on line {other.line} already; a participant stands "
                    "in one box",
                    declaration.at,
                )
            elif other is None:
                boxed[name] = box
                box.participants.append(name)
        if not read.declared and not read.faulty:
            self.warn("this box declares no participant, so nothing is drawn for it", read.at)
        diagram.boxes.append(box)
        self.boxes.append(read)

    def side_by_side(self, participants: list[str], order: list[str]) -> list[str]:
        """The participants with each box's side by side, in the order it declares them, where
        the first of them stands. Where that differs from an `order:` line, a warning says so."""
        placed = list(participants)
        for read in self.boxes:
            box = read.box
            if not box.participants:
                continue
            first = min(placed.index(name) for name in box.participants)  # none before it
            others = [name for name in placed if name not in box.participants]
            placed = others[:first] + box.participants + others[first:]
            ordered = [name for name in placed if name in order]
            if ordered != [name for name in order if name in placed] and order:
                moved = next(a for a, b in zip(ordered, order, strict=False) if a != b)
                self.warn(
                    f"this box keeps {', '.join(box.participants)} side by side, which moves "
                    f"{moved} from where order: puts it",
                    read.at,
                )
                order = ordered  # said once
        return placed

    def check_order(self, directive: _Directive, order: list[str]) -> None:
        """A later `order:` adds its new names after those placed (a long order written on
        two lines). Where it would put two names otherwise than that gives (two placed ones
        turned round, or a new one before a placed one), it is not followed, and the first
        such name it would move is pointed out."""
        last = -1  # where the last placed name of the line stands
        new: str | None = None  # the first name the line adds, if one came yet
        for name, token in directive.value:
            if name not in order:
                new = new or name
                continue
            if new is not None:
                said = (
                    f"this order: puts {new} before {name}, but {name} was placed by an order: "
                    f"above, so {new} goes after it"
                )
            elif order.index(name) < last:
                said = (
                    f"this order: puts {name} after {order[last]}, but an order: above put it "
                    "before, and that stands"
                )
            else:
                last = order.index(name)
                continue
            self.warn(said, token)
            return

    def check_sides(self, notes: list[Note], raw: list) -> None:
        """`note left: x` is PlantUML's note beside the message before it (`note across:`, its
        note across every lane): an error, unless something besides such notes names a
        participant so, in which case it is a note over that participant."""
        if not self.sides:
            return
        named = {name for item in walk(raw) for name in _names_besides_notes(item)}
        for note in notes:
            token = self.sides.get(id(note))
            if token is None or note.over[0] in named:
                continue
            side = _side(note.over[0])
            self.error(
                f'"note {note.over[0]}:" is PlantUML\'s {_PLANTUML_NOTE_SIDES[side]}, not a note '
                f'over a participant called "{note.over[0]}"',
                _at_text(token),
                hint='write "note: TEXT" for a note under the message before it, or '
                '"note A: TEXT" / "note A, C: TEXT" for one over A, or spanning A to C',
            )


def parse(text: str, filename: str | None = None, limits: Limits | None = None) -> Diagram:
    """Parse `.volley` source into a Diagram, or raise VolleyErrors naming every mistake."""
    if not isinstance(text, str):
        raise TypeError("volley.parse takes text (str); decode bytes with volley.decode first")
    return _Parse(text, filename, limits or DEFAULT_LIMITS).run()


class _Parse:
    """One call of `parse`: the text, what went wrong so far, and the parse itself."""

    def __init__(self, text: str, filename: str | None, limits: Limits) -> None:
        self.text = normalise(text)
        check_input(self.text, filename, limits)
        self.filename = filename
        self.limits = limits
        self.lines = self.text.split("\n")
        # kept across attempts; a NUL byte's line is one, said among the text's other errors
        self.syntax_errors: list[VolleyError] = nul_errors(self.text, filename)
        self.unclosed: list[VolleyError] = []  # a fence never closed, which ends what is read
        self.note_ends: dict[int, int] = {}  # lines that ended a note: the note's line
        self.errors: list[VolleyError] = []  # found by the callbacks of the last attempt
        self.warnings: list[Diagnostic] = []
        self.read_first: list[Diagnostic] = []  # warnings found before the grammar reads

    def located(
        self, message: str, token: Token, at_end: bool = False, hint: str = ""
    ) -> VolleyError:
        return VolleyError(message, hint=hint or None, **self.place(token, at_end))

    def place(self, token: Token, at_end: bool = False) -> dict[str, Any]:
        """Where a token is, as an error takes it: the file, the line, the column (or the
        line's end) and the line itself."""
        number = token.line or 0
        line = self.lines[number - 1] if 0 < number <= len(self.lines) else ""
        column = len(line.rstrip()) + 1 if at_end else token.column or 1
        return {"filename": self.filename, "line": number, "column": column, "source_line": line}

    def error(self, message: str, token: Token, at_end: bool = False, hint: str = "") -> None:
        self.errors.append(self.located(message, token, at_end, hint))

    def warn(self, message: str, token: Token, hint: str | None = None) -> None:
        error = self.located(message, token)
        self.warnings.append(
            Diagnostic(
                message,
                self.filename,
                error.line,
                error.column,
                error.source_line,
                hint,
                severity="warning",
            )
        )

    def too_deep(self, depth: int, token: Token) -> None:
        """Blocks nested past the limit stop the parse at once: the passes after it recurse."""
        limit = min(self.limits.depth, MAX_DEPTH)
        said = f"blocks nested {depth} deep; the limit is {limit}"
        ceiling = "no option goes higher; move the innermost blocks out"
        found = (
            LimitError(said, "--max-depth", **self.place(token))
            if limit < MAX_DEPTH
            else self.located(said, token, hint=ceiling)
        )
        raise self.fail([*self.syntax_errors, *self.errors, found])

    def fail(self, errors: list[VolleyError], stopped_at: int | None = None) -> VolleyErrors:
        """Every error, in order; on a line already reported as a syntax error, that one alone
        (no warning either):
        the line was read again as what was most likely meant (`set_aside`), and a mistake
        found in that guess (`in Request` read as `in:` with no body) is not the user's.
        `stopped_at`: the line reading stopped at, with lines after it unread."""
        guessed = {error.line for error in self.syntax_errors}
        kept = [e for e in errors if e in self.syntax_errors or e.line not in guessed]
        kept += self.unclosed
        ordered = sorted(kept, key=lambda error: (error.line, error.column))
        said = [w for w in self.warnings if w.line not in guessed]  # nor a warning of a guess
        warnings = sorted(said, key=lambda w: (w.line, w.column))
        return VolleyErrors(ordered, warnings, stopped_at=stopped_at)

    def run(self) -> Diagram:
        self.refuse_foreign_files()
        blanked, bodies, self.note_ends = self.lifted()
        # The grammar wants a newline after every line; a leading one lets _NL swallow comment
        # lines at the very top. Lark then counts lines from 2, which `_line` undoes.
        source = blanked.split("\n")
        if "%%{" in blanked:  # how Mermaid's directive starts; most texts have none
            self.mermaid_directives(source)
        if LOOK_SETTING.search(blanked):
            self.look_settings(source)
        raw = None
        while raw is None:
            self.errors, self.warnings = [], list(self.read_first)
            run = _ParseRun(
                bodies, self.error, self.warn, lines=self.lines, note_ends=self.note_ends
            )
            CALLBACKS.run = run
            try:
                text = "\n" + "\n".join(source) + "\n"
                # The transformer's `start` makes the result a list of items, not a tree.
                raw = cast(list, grammar_parser().parse(text, on_error=_close_open_blocks))
            except UnexpectedInput as exc:
                self.set_aside(exc, source)
            finally:
                CALLBACKS.run = None
        self.warnings.extend(self.directives_ending_notes())
        _check_depth(raw, self.limits, run.keywords, self.too_deep)
        diagram = _Resolver(self.error, self.warn, run.sides).run(raw)
        diagram.filename = self.filename
        too_big = _size_errors(diagram, self.limits, self.lines)
        if self.syntax_errors or self.errors or too_big or self.unclosed:
            raise self.fail(self.syntax_errors + self.errors + too_big)
        diagram.warnings = sorted(self.warnings, key=lambda w: (w.line, w.column))
        return diagram

    def directives_ending_notes(self) -> Iterator[Diagnostic]:
        """A `title:` or `order:` line under a note's words ends the note and changes the whole
        diagram, as swimlanes.io reads it; written as the note's words (`Order: 1234`), it
        would name a lane or retitle the diagram unseen. Each is said, with how to keep it in
        the note."""
        for line, note in sorted(self.note_ends.items()):
            written = self.lines[line - 1]
            found = keyword_matcher("TITLE", "ORDER").match(written + "\n")
            words = any(text.strip() for text in self.lines[note : line - 1])
            if found is None or not words or not found.group().rstrip().endswith(":"):
                continue  # not a directive, or after a note of one line (blank lines aside)
            word = found.group().strip()[:-1].rstrip()
            does = "sets the lanes' order" if found.lastgroup == "ORDER" else "retitles the diagram"
            yield Diagnostic(
                f'"{word}:" ends the note on line {note} and {does}',
                self.filename,
                line,
                len(written) - len(written.lstrip()) + 1,
                written,
                f"if it is the note's words, escape its colon: {word}\\:",
                severity="warning",
            )

    def mermaid_directives(self, source: list[str]) -> None:
        """Mermaid's `%%{init: …}%%` is its settings, not a comment: volley reads none, so each
        is said, as an error where it numbers the messages (volley's `autonumber`), and its
        lines after the first are no lines of the diagram. `source`: the lines the grammar
        reads, bodies blanked (a directive in a code sample is the sample's)."""
        index = 0
        while index < len(source):
            end = mermaid_directive(source, index)
            if end is None:
                index += 1
                continue
            source[index + 1 : end] = [""] * (end - index - 1)
            written = self.lines[index]
            column = len(written) - len(written.lstrip()) + 1
            what = "this is" if end == index + 1 else f"lines {index + 1}-{end} are"
            said = f"{what} a Mermaid directive, which volley does not read"
            if any(SHOWS_NUMBERS.search(line) for line in self.lines[index:end]):
                self.syntax_errors.append(
                    VolleyError(
                        f"{said}; it numbers the messages",
                        filename=self.filename,
                        line=index + 1,
                        column=column,
                        source_line=written,
                        hint="write autonumber on a line of its own instead",
                    )
                )
            else:
                hint = "delete it; volley's colours are its theme (--theme, or theme= on a fence)"
                self.read_first.append(
                    Diagnostic(
                        f"{said}: its settings are ignored",
                        self.filename,
                        index + 1,
                        column,
                        written,
                        hint,
                        severity="warning",
                    )
                )
            index = end

    def look_settings(self, source: list[str]) -> None:
        """sequencediagram.org's settings of how its picture looks (`linear`, `space 3`,
        `bottomparticipants`): volley has none to set, so they are read as blank lines, and
        each setting is said once, where it is first written. `source`: the lines the grammar
        reads, bodies blanked (a note's words are its own)."""
        found: dict[str, list[int]] = {}
        for index, line in enumerate(source):
            setting = LOOK_SETTING.fullmatch(line)
            if setting is not None:
                found.setdefault((setting["word"] or setting["wordy"]).lower(), []).append(index)
                source[index] = ""
        for word, indexes in found.items():
            written = self.lines[indexes[0]]
            also = f" (lines {', '.join(str(i + 1) for i in indexes)})" if len(indexes) > 1 else ""
            self.read_first.append(
                Diagnostic(
                    f'sequencediagram.org\'s "{word}" sets how its picture looks, which volley '
                    f"decides itself: ignored{also}",
                    self.filename,
                    indexes[0] + 1,
                    len(written) - len(written.lstrip()) + 1,
                    written,
                    "delete the line",
                    severity="warning",
                )
            )

    def lifted(self) -> tuple[str, dict[int, Body], dict[int, int]]:
        """`lift_bodies` of the text. A fence never closed is an error that takes the rest of
        the file: the lines up to it are still read, for the errors they hold, with a closing
        fence put right after its opening line."""
        text = self.text
        while True:
            try:
                return lift_bodies(
                    text,
                    keyword_matcher("IN", "OUT"),
                    keyword_matcher("NOTE"),
                    partial(line_kind, lanes=_MessageNames(text)),
                    _mermaid_note(),
                    self.filename,
                )
            except UnclosedFence as unclosed:
                self.unclosed = [unclosed]
                text = "\n".join([*self.lines[: unclosed.line], unclosed.closing])

    def set_aside(self, exc: UnexpectedInput, source: list[str]) -> None:
        """Word the failure, then blank its line so that the next attempt goes on past it.

        A line that is already blank cannot be the mistake's own (the parser failed on it only
        because of what came before, such as the end of the file in an open block), and then
        nothing more can be learnt.
        """
        from volley.language.syntax_errors import describe  # only a failed parse needs it

        error, meant = describe(exc, self.lines, self.filename, keyword_matcher)
        written = self.lines[error.line - 1]
        note = self.note_ended_by_comment_before(error.line)
        if note is not None and meant is None:
            error.hint = (
                f"the note on line {note[0]} ended at the comment on line {note[1]}, so this "
                "line is read as an element; to keep it in the note, leave a blank line "
                "instead of the comment (a blank line is a paragraph break in a note)"
            )
        elif (keyword := self.payload_keyword(error.line)) and (
            ended := self.note_ended_by_payloads(error.line)
        ):
            error.hint = (
                f"{error.hint}; if it is the words of the note on line {ended[0]} (which "
                f"would run to here), escape its colon: {keyword[:-1]}\\:"
            )
        elif meant is None and error.line in self.note_ends and ARROW_LIKE.search(written):
            error.hint = (
                f"this line ended the note on line {self.note_ends[error.line]}, as a message "
                "does; if it is the note's words, write its arrows in inline code (`Client -> "
                "Server`), or the line in a fenced block"
            )
        elif meant is None and table_end(self.lines, error.line - 1) is not None:
            error.hint = (
                "a table is a note's text: write it under note A: (note A, B:), whose lines run"
                " to the next element"
                + (
                    "; a note written the Mermaid way (note over A: …) is one line"
                    if self.after_one_line_note(error.line)
                    else ""
                )
            )
        elif meant is None and error.hint and self.after_one_line_note(error.line):
            error.hint = (
                "if this line goes on the note above: a note written the Mermaid way (note over"
                " A: …) is one line, as in Mermaid; indent this line deeper than the note, or "
                "write it note A: … (note A, B: …), which runs until the next element. Else: "
                + error.hint
            )
        line = error.line
        if any(known.line == line for known in self.syntax_errors):
            meant = None  # what was meant did not read either: the line's first error stands
        else:
            self.syntax_errors.append(error)
        unread = any(later.strip() and not is_comment(later) for later in source[line:])
        if len(self.syntax_errors) >= error_budget(self.text) and unread:
            raise self.fail(self.syntax_errors + self.errors, stopped_at=line)
        if not 0 < line <= len(source) or not source[line - 1].strip():
            raise self.fail(self.syntax_errors + self.errors)
        source[line - 1] = meant or ""  # what was most likely meant, or nothing
        for covered in range(line, min(self.covered_end(source, line - 1, meant), len(source))):
            source[covered] = ""  # read with the line set aside: not errors of their own

    def covered_end(self, source: list[str], index: int, meant: str | None) -> int:
        """The index after the lines that go with the line at `index` once it is read as what
        was meant: the body of `in Request` read as `in: Request`, the lines of Mermaid's
        `accDescr { … }` and PlantUML's `note left of A` … `end note`, a fenced block with no
        line to own it. No more errors are looked for in them than in a body."""
        from volley.language.syntax_errors import braced_description_end, plantuml_note_end

        if meant is None or not keyword_matcher("IN", "OUT").match(meant):
            opening = fence_open(self.lines[index]) if meant is None else None
            if opening is not None:  # a fence with no in:, out: or note line: its body too
                return read_block(self.lines, index, opening).end + 1  # unclosed: to the end
            owner = unclaimed_body_owner(self.lines, index) if meant is None else None
            if owner is not None:  # a body with no in: or out: over it: the rest of it too
                return payload_end(self.lines, owner, line_kind, self.filename)
            return (  # `note left of A` read as `note left of A:`: its lines to `end note` too
                braced_description_end(self.lines, index, _is_element)
                or plantuml_note_end(self.lines, index, _is_element)
                or table_end(self.lines, index)
                or index + 1
            )
        try:
            return payload_end(source, index, line_kind, self.filename)
        except VolleyError as never_closed:  # a fence never closed: it says so, and, as the
            self.syntax_errors.append(never_closed)  # body of a real in: would, takes the rest
            return len(source)

    def after_one_line_note(self, line: int) -> bool:
        """Whether the line is the first after a note written the Mermaid way, which is one
        line: its writer may have meant it to go on (`note A:` would)."""
        if ARROW_LIKE.search(self.lines[line - 1]):
            return False  # a message written wrong, not a note's words
        above = line - 1
        while above >= 1 and not self.lines[above - 1].strip():
            above -= 1
        return above >= 1 and bool(_mermaid_note().match(self.lines[above - 1]))

    def payload_keyword(self, line: int) -> str:
        """The line's `in:`/`out:` keyword as written (`In:`), or "" when it has none."""
        found = keyword_matcher("IN", "OUT").match(self.lines[line - 1] + "\n")
        return found.group().strip() if found else ""

    def note_ended_by_payloads(self, line: int) -> tuple[int, int] | None:
        """(note line, payload line) when `line` and the lines just above it, up to the first
        that is neither blank, a comment nor a payload's keyword line, hold one that ended a
        note: `In: …` written as a note's words."""
        above = line
        while above >= 1 and (
            _blank_or_comment(self.lines[above - 1]) or self.payload_keyword(above)
        ):
            if above in self.note_ends and self.payload_keyword(above):
                return self.note_ends[above], above
            above -= 1
        return None

    def note_ended_by_comment_before(self, line: int) -> tuple[int, int] | None:
        """(note line, comment line) when the lines just above `line`, up to the first that is
        neither blank nor a comment, hold a comment line that ended a note."""
        above = line - 1
        while above >= 1 and _blank_or_comment(self.lines[above - 1]):
            if above in self.note_ends and is_comment(self.lines[above - 1]):
                return self.note_ends[above], above
            above -= 1
        return None

    def refuse_foreign_files(self) -> None:
        """A Mermaid or PlantUML file, or a picture, gets one error that says so, not one per
        line."""
        first = next((n for n, line in enumerate(self.lines, 1) if line.strip()), 0)
        markup = _MARKUP_FILE.match(self.lines[first - 1]) if first else None
        svg = "</svg>" in self.text
        if markup is not None and (markup["xml"] or svg):
            raise self.refused(
                first,
                f"this is {'an SVG picture' if svg else 'an XML file'}, not a volley diagram",
                "give the .volley file the picture was drawn from"
                if svg
                else "volley reads .volley text; volley import converts other tools' diagrams",
            )
        found = foreign_header(self.lines)
        if found is None:
            self.refuse_front_matter(first)
            return
        from volley.importers import import_hint  # here: only such a file needs it

        number, what = found
        command, out = import_hint(None, self.filename)
        raise self.refused(
            number,
            f"this is {what}, not volley; volley import converts it",
            f"run: {command}, then edit and render {out}",
        )

    def refuse_front_matter(self, first: int) -> None:
        """YAML front matter before the diagram (`---`, `title: Login`, `---`, as Mermaid and
        Markdown pages start): one error, not one for each of its lines."""
        if not first or self.lines[first - 1].strip() != "---":
            return
        end = next(
            (
                n
                for n in range(first + 1, len(self.lines) + 1)
                if self.lines[n - 1].strip() == "---"
            ),
            None,
        )
        if end is None:
            return
        titled = next(
            (
                line.strip()
                for line in self.lines[first : end - 1]
                if re.compile(_YAML_TITLE).match(line)
            ),
            None,
        )
        raise self.refused(
            first,
            f'lines {first}-{end} are YAML front matter ("---" … "---", as Mermaid diagrams and '
            "Markdown pages start), which volley does not read",
            f'keep "{titled}" as a line of the diagram and delete the other lines, "---" included'
            if titled
            else 'delete those lines, "---" included',
        )

    def refused(self, number: int, message: str, hint: str) -> VolleyErrors:
        """The one error for a file that is not volley text, at its line `number`."""
        line = self.lines[number - 1]
        column = len(line) - len(line.lstrip()) + 1
        return VolleyErrors(
            [
                VolleyError(
                    message,
                    filename=self.filename,
                    line=number,
                    column=column,
                    source_line=line,
                    hint=hint,
                )
            ]
        )


# An XML file's start, an SVG picture's among them (`<svg` alone is one with its closing tag)
_MARKUP_FILE = re.compile(r"[ \t]*<(?:(?P<xml>\?xml)|svg(?=[ \t>]|$))")


_YAML_TITLE = r"[ \t]*title[ \t]*:[ \t]*\S"  # front matter's title, written as volley's
_NOTE_WORD = re.compile(r"(?i:note)[ \t]")  # a sender so named: `Note Taker -> B`
_TITLE_WORD = re.compile(r"title[ \t]")  # Mermaid's `title Login -> Logout` (`Title Co` a name)


def named_as_another_tools(
    text: str, filename: str | None, errors: VolleyErrors
) -> VolleyErrors | None:
    """For a file named as another tool's diagram (`flow.puml`, `flow.mmd`) that does not read
    as volley, its `errors` naming that tool's habits, though it starts with no header (a
    `.. uml::` body, which Sphinx wraps in `@startuml`): the one error that says what it is,
    in place of one for each of its lines. A volley diagram so named, with a mistake of its
    own (a stray `end`), keeps its errors."""
    suffix = os.path.splitext(filename or "")[1].lower()
    what = _FOREIGN_SUFFIXES.get(suffix)
    lines = normalise(text).split("\n")
    if what is None or foreign_header(lines) is not None:  # (its header said so already)
        return None
    tool = what.split()[1]  # "PlantUML", "Mermaid": how the errors name its habits
    if not any(tool in f"{error.message} {error.hint}" for error in errors.errors):
        return None
    from volley.importers import import_hint  # here: only such a file needs it

    command, out = (shown_path(said) for said in import_hint(None, filename))
    first = next((n for n, line in enumerate(lines, 1) if line.strip()), 1)
    line = lines[first - 1]
    return VolleyErrors(
        [
            VolleyError(
                f"this is named as {what} ({suffix}) and does not read as volley; volley "
                "import converts it",
                filename=filename,
                line=first,
                column=len(line) - len(line.lstrip()) + 1,
                source_line=line,
                hint=f"run: {command}, then edit and render {out}",
            )
        ]
    )


# What a file named so holds (the suffixes PlantUML's and Mermaid's tools read)
_FOREIGN_SUFFIXES = dict.fromkeys(
    (".puml", ".plantuml", ".pu", ".iuml", ".wsd", ".pml"), "a PlantUML diagram"
) | dict.fromkeys((".mmd", ".mermaid"), "a Mermaid diagram")


def foreign_header(lines: list[str]) -> tuple[int, str] | None:
    """(line, what) when the text is another tool's diagram: its first line that is not blank
    or a comment (volley's, Mermaid's or PlantUML's) is a Mermaid or PlantUML header.
    Mermaid's front matter (`---`, `title: …`, `---`) and `%%{init}%%` directives may come
    before it."""
    front_matter = False
    directive_end = 0  # the line a `%%{init: {` … `}}%%` over several lines ends on
    for number, line in enumerate(lines, 1):
        word = line.strip()
        if word == "---" and (front_matter or number == 1):
            front_matter = not front_matter
            continue
        if number <= directive_end:
            continue
        if (end := mermaid_directive(lines, number - 1)) is not None:
            directive_end = end
            continue
        if front_matter or not word or is_comment(word) or word.startswith("'"):
            continue  # `'` is PlantUML's comment: a licence above `@startuml`
        # Mermaid ends a statement at a `;` too: `sequenceDiagram; A->>B: hi` is one diagram;
        # a message from a participant of that name (`SequenceDiagram -> B: x`) is volley's
        first = re.split(r"[\s;]", word, maxsplit=1)[0]
        what = FOREIGN_HEADERS.get(first.lower())
        if what is None or re.match(_terminal("ARROW"), word[len(first) :].lstrip()):
            return None
        return number, what
    return None


def _close_open_blocks(exc: UnexpectedInput) -> bool:
    """Lark's `on_error`: at the end of the file, close the blocks still open, as swimlanes.io
    does; each is warned about by its callback (it sees the `end` this feeds). Any other
    failure is left to raise."""
    token = getattr(exc, "token", None)
    if token is None or token.type != "$END":
        return False
    parser = exc.interactive_parser
    if "END" not in parser.accepts():
        return False
    while "END" in parser.accepts():
        parser.feed_token(Token("END", _CLOSING, line=token.line, column=1))
        parser.feed_token(Token("_NL", "\n", line=token.line, column=1))
    return True


def _check_depth(items: list, limits: Limits, keywords: dict[int, Token], error) -> None:
    """Refuse blocks nested deeper than the limit, before anything recurses over the items."""
    stack = [(item, 0) for item in items]
    while stack:
        node, depth = stack.pop()
        if not isinstance(node, Block):
            continue
        depth += 1
        if depth > min(limits.depth, MAX_DEPTH):
            error(depth, _shifted(keywords[id(node)]))
        stack.extend((child, depth) for branch in node.branches for child in branch.items)


def _size_errors(diagram: Diagram, limits: Limits, lines: list[str]) -> list[VolleyError]:
    """The limits that need the model: message and participant counts, the length of each
    text and name (the first `MAX_ERRORS` found)."""
    messages = diagram.messages()
    over: list[tuple[str, int, str, int]] = []  # what, its limit, the option, its line
    if len(messages) > limits.messages:
        line = messages[limits.messages].line
        over.append((f"{len(messages):,} messages", limits.messages, "--max-messages", line))
    if len(diagram.participants) > limits.participants:
        count = f"{len(diagram.participants):,} participants"
        # the line where the count passes the limit: where the first one past it is named
        named = sorted(t.line for t in diagram.all_texts() if t.kind == "participant")
        line = named[limits.participants] if len(named) > limits.participants else 0
        over.append((count, limits.participants, "--max-participants", line))
    items = items_over(diagram, limits.items)
    if items is not None:
        over.append((items_said(items[0]), limits.items, "--max-items", items[1]))
    long = limits.label_chars
    over += [
        (f"a text of {len(text):,} characters", long, "--max-label-chars", line)
        for line, text in diagram.texts()
        if len(text) > long
    ]
    over += [
        (f"a participant name of {len(name):,} characters", long, "--max-label-chars", 0)
        for name in diagram.participants
        if len(name) > long
    ]
    return [
        limit_error(
            what,
            limit,
            option,
            filename=diagram.filename,
            line=line,
            column=1 if line else 0,
            source_line=lines[line - 1] if 0 < line <= len(lines) else None,
        )
        for what, limit, option, line in over[:MAX_ERRORS]
    ]
