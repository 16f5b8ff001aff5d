"""Lark's parse failures, worded for people: where it went wrong and what was expected there.

The grammar decides what is valid; this module only explains a failure. It looks at the
parser's stack (which blocks are open, what came just before) and at the offending line, and
says it in the language's own words, with a suggestion where one is likely.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable

from lark import Token
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

from volley.errors import LOOK_ALIKE_SPACE, VolleyError, character_name
from volley.language.keywords import (
    COLON_WORDS,
    PLANTUML_PARTICIPANTS,
    VOLLEY_WORDS,
    misspelt_keyword,
)
from volley.language.prepass import (
    NOTE_END,
    OTHER_TOOLS_NOTE,
    other_note_meant,
    unclaimed_body_owner,
)
from volley.model import BRANCH_WORDS
from volley.text.fences import fence_open, read_block

WORDS = {
    "NAME": "a participant name",
    "ARROW": "an arrow such as -> or -->",
    "_COLON": '":"',
    "COMMA": '","',
    "TEXT": "a label",
    "NUMBER": "a number",
    "_NL": "the end of the line",
    "$END": "the end of the file",
    "END": '"end"',
    "ELSE": '"else"',
    "AND": '"and"',
    "OPTION": '"option"',
    "CRITICAL": '"critical:"',
    "BREAK": '"break:"',
    "RECT": '"rect"',
    "BOX": '"box"',
    "PARTICIPANT": '"participant"',
    "ACTIVATE": '"activate"',
    "PLACE": '"over"',
    "MARK": "an activation mark (+ or -)",
    "IN": '"in:"',
    "OUT": '"out:"',
    "NOTE": '"note"',
    "TITLE": '"title:"',
    "ORDER": '"order:"',
    "AUTONUMBER": '"autonumber"',
    "DIVIDER": "a divider such as =: or -:",
    "IF": '"if:"',
    "GROUP": '"group:"',
    "LOOP": '"loop:"',
    "OPT": '"opt:"',
    "PAR": '"par:"',
}
BLOCK_KEYWORDS = ("IF", "GROUP", "LOOP", "OPT", "PAR", "CRITICAL", "BREAK", "RECT", "BOX")
# Words other tools declare a participant with (`alias App: Event Source`, `database DB`): the
# name is the word after
_DECLARING_WORDS = ("alias", *PLANTUML_PARTICIPANTS)
# PlantUML's statements that set how its picture looks: volley has nothing to set.
PLANTUML_SETTINGS = ("skinparam", "hide", "show", "autoactivate", "header", "footer", "newpage")
# Words that start a statement of Mermaid or PlantUML: a line starting with one is that
# statement, whatever arrow-like text it holds.
OTHER_TOOLS_STATEMENTS = frozenset(
    {"autonumber", "create", "destroy", "link", "links", "return", "@enduml", *PLANTUML_SETTINGS}
)
# PlantUML's delay and divider (`... 5 minutes ...`, `== Setup ==`).
_PLANTUML_DELAY = re.compile(r"\.{3,}(?:[ \t]*(?P<label>.*?)[ \t]*\.{3,})?")
_PLANTUML_DIVIDER = re.compile(r"[ \t]*==+[ \t]*(?P<label>.*?)[ \t]*==+[ \t]*$")
# Whose notes those are besides PlantUML's: sequencediagram.org draws `box`, `abox` and `rbox`,
# WebSequenceDiagrams `state`, over or beside participants.
_NOTE_TOOL = {
    "box": "sequencediagram.org's", "abox": "sequencediagram.org's",
    "rbox": "sequencediagram.org's", "state": "WebSequenceDiagrams'",
    "ref": "PlantUML's and WebSequenceDiagrams'",
}  # fmt: skip
# sequencediagram.org's participant drawn as an icon: `fontawesome5solid f007 User #red`.
_ICON_PARTICIPANT = re.compile(
    r"(?i)(?P<word>fontawesome\w*|materialdesignicons)[ \t]+\S+[ \t]+(?P<name>.+?)"
    r"(?:[ \t]+#\S+)?[ \t]*$"
)
# A block's word with sequencediagram.org's colours after it (`alt#2f2e7b #lightgreen ok`: its
# frame's and its background's), and the label after them.
_COLOURED_BLOCK = re.compile(
    r"(?i)(?P<word>alt|else|opt|loop|par|break|critical|group|ref|seq|strict|neg|ignore|"
    r"consider|assert)#\S*(?:[ \t]+#\S+)?(?P<label>.*)"
)
# The arrows of Mermaid that volley writes another way (its async arrows: an open head).
MERMAID_ARROWS = {"--)": "-->>", "-)": "->>"}
# Arrow-like text that is not an arrow, and what was probably meant.
TYPO_ARROWS = [
    ("--->>", "-->>"),  # PlantUML's longer dotted arrows
    ("--->", "-->"),
    ("~>", "->"),
    ("~~>", "-->"),
    ("-->>>", "-->>"),
    ("—>", "->"),
    ("–>", "->"),
    ("→", "->"),
    ("⟶", "->"),
    ("⇒", "=>"),
    ("←", "<-"),
    ("==>", "=>"),
    ("<==", "<="),
    ("<>", "<->"),  # heads at both ends, the shaft left out
    ("- >", "->"),
    ("-- >", "-->"),
    (">>", "->>"),
    ("--x", "--x "),
    ("-x", "-x "),
    ("--X", "--x"),  # Mermaid reads its lost head in either case
    ("-X", "-x"),
    *MERMAID_ARROWS.items(),
    (">", "->"),
]

_TYPO_MEANT = dict(TYPO_ARROWS)

Matcher = Callable[..., re.Pattern[str]]
_ARROW_RUN = re.compile(r"[-=<>]+(?:[ \t]+[-=<>]+)*")  # arrow characters, spaces between


# A sender written with a colon in it (`localhost:8080 -> api`, `http://a -> B`): the colon comes
# before any arrow, and an arrow follows the rest of the would-be name.
_COLON_IN_NAME = re.compile(
    r"(?P<name>[^:\n]*?(?P<end>:)[^:\s][^:\n]*?)[ \t]*(?:<{1,2}[-=]|[-=]{1,2}(?:>|x[+-]?[ \t]))"
)


def _meant_arrow(written: str) -> str | None:
    """The arrow most likely meant by arrow characters that are not one: a known slip
    (`<==`), or the first of two arrows (`-> ->`, `->->`)."""
    from volley.model import ARROWS

    if written in _TYPO_MEANT:
        return _TYPO_MEANT[written]
    parts = written.split()
    if len(parts) > 1 and parts[0] in ARROWS:
        return parts[0]
    half = len(written) // 2
    if written[:half] == written[half:] and written[:half] in ARROWS:
        return written[:half]
    return None


# A divider's mark with a character too many, or a dot too few or many: `---:`, `==:`, `....:`.
_DIVIDER_SLIP = re.compile(r"[ \t]*(?P<mark>-{3,}|={2,}|_{2,}|\.\.(?!\.:)|\.{4,})[ \t]*:")
# A name with a comma in it, then a real arrow: `Map<K,V> -> B` (a comma ends a name).
_COMMA_IN_NAME = re.compile(
    r"(?P<name>[^,:\n]*?(?P<end>,)[^:\n]*?)[ \t]+(?:<{1,2}[-=]{1,2}|[-=]{1,2}>{1,2})[ \t]"
)
# A message from a participant whose name starts with the word note (`Note Taker -> B: x`).
_NOTE_NAMED_SENDER = re.compile(
    r"[ \t]*(?P<name>(?i:note)[ \t]+(?!(?i:over|left|right)\b)[^\s:,<>=-][^:,<>=]*?)[ \t]*"
    r"(?:<{1,2}[-=]|[-=]{1,2}[>x])"
)
# A name with a shaft between two words and no head: `A - B`, `A -- B`, `A = B`.
_LONE_SHAFT = re.compile(r"(?<=\S)[ \t]+(?P<shaft>--?|=)[ \t]+(?=\S)")
# A divider's marks as an editor's autocorrection types them: `…` for `...`, a dash for `-`.
_TYPED_MARKS = {"…": "...", "–": "-", "—": "--"}
_TYPED_DIVIDER = re.compile(r"[ \t]*(?P<mark>[…–—])[ \t]*:")
_GLUED_SHAFT = re.compile(r"(?<=[^\s=-])(?P<shaft>--|==)(?=[^\s=<>-])")  # `A--B: x`
_ARROW_PARTS = (
    "an arrow is a shaft (- solid, -- dashed, = bold) with a head at one end or both "
    "(> >> x on the right, < << x on the left): ->, -->, =>, <->"
)
# Arrow-like characters standing alone between two names that make no arrow: `A -< B`.
_ARROWISH = re.compile(r"(?<=\S)[ \t]+(?P<run>[-=<>~]+)[ \t]+(?=\S)")
# An arrow as an input method types it, in full-width or small forms (`A －＞ B`, `甲－＞乙`),
# which NFKC reads as ASCII.
_WIDE = "\ufe63\ufe64\ufe65\uff0d\uff1c\uff1d\uff1e"
_WIDE_ARROW = re.compile(rf"[-=<>{_WIDE}]*[{_WIDE}][-=<>{_WIDE}]*")
_ARROW = re.compile(r"(?:<<?|x)?(?:--?|=)(?:>>?|x)?")
# An arrow with a head, as volley reads one: a typo's characters inside it are no typo
# (`Auth: client -> server` holds ">", which is the arrow's).
_HEADED_ARROW = re.compile(
    r"(?:<<?|(?<![^ \t])x)?(?:--?|=)(?:>>?|x(?=[+-]?(?:[ \t]|$)))|(?:<<?|(?<![^ \t])x)(?:--?|=)"
)  # an `x` head stands apart from the names, as the grammar's does
# Names apart by commas before an arrow: `A, B -> C` (a comma ends a name).
_SEVERAL_SENDERS = re.compile(
    r"(?P<names>[^\s:,<>=-][^:,<>=]*?(?P<comma>,)[^:<>=]*?)[ \t]*<{0,2}[-=]"
)
# `end:` (as `if:` and `group:` are written) and other tools' `endif`, `end if`
_END_AND_SEMICOLON = re.compile(r"(?i:end)[ \t]*;")
_END_WRITTEN_OTHERWISE = re.compile(r"end[ \t]*:|end[ \t]*if", re.IGNORECASE)
# Mermaid's multi-line description: `accDescr {`, its lines, then `}` on a line of its own.
_BRACED_DESCRIPTION = re.compile(r"[ \t]*accDescr[ \t]*\{[ \t]*$", re.IGNORECASE)
# A name glued to a lost-message arrow, then another arrow: `service-x -> B`, where `-x `
# is the arrow and the line then has a second one.
_GLUED_LOST_ARROW = re.compile(r"[ \t]*(?P<name>[^\s:,]+?)(?P<arrow>[-=]{1,2}x)[ \t]+<{0,2}[-=]")


def _open_blocks(exc: UnexpectedInput) -> list[Token]:
    """Keyword tokens of the blocks still open at the failure, outermost first."""
    stack = getattr(getattr(exc, "state", None), "value_stack", None) or []
    return [v for v in stack if isinstance(v, Token) and v.type in BLOCK_KEYWORDS]


def _previous_token(exc: UnexpectedInput) -> Token | None:
    stack = getattr(getattr(exc, "state", None), "value_stack", None) or []
    for value in reversed(stack):
        if isinstance(value, Token):
            return value
    return None


def _expected_words(names: set[str]) -> str:
    words = sorted({WORDS.get(name, name) for name in names if not name.startswith("__")})
    words = [w for w in words if w != "the end of the file"] or words
    if len(words) > 5:
        return ", ".join(words[:4]) + " or another element"
    if len(words) > 1:
        return ", ".join(words[:-1]) + " or " + words[-1]
    return words[0] if words else "something else"


def block_keyword(written: str) -> str:
    """A block keyword as volley writes it, for messages: `alt` is an `if:`; a `rect` and a
    `box` take a colour after them, with no colon."""
    word = written.strip().rstrip(":").strip().lower()
    return word if word in ("rect", "box") else {"alt": "if"}.get(word, word) + ":"


# The word that starts a block's next branch, by the block's word (PlantUML writes `else`).
_BRANCH_OF = {f"{kind}:": word for kind, word in BRANCH_WORDS.items()}
_BLOCK_OPENERS = "(?i:alt|loop|opt|par|critical|break|group|if)"
# A line that starts with a block's word and holds an arrow: a message from a participant whose
# name starts with that word (`loop retry -> 3 times`), though its writer meant the block.
_OPENER_WITH_ARROW = re.compile(
    rf"[ \t]*({_BLOCK_OPENERS})[ \t]+"
    r"([^:\n]*?(?P<arrow>[-=]{1,2}>|<[-=]|[-=]{1,2}x[ \t])[^\n]*)$"
)
# A line starting with a block's word, the rest its label: where what reads as a mistyped
# arrow is a comparison (`if count > 0`, `loop i <= 10`), the colon was what was left out.
_OPENER = re.compile(rf"[ \t]*({_BLOCK_OPENERS})[ \t]+(.*)$")
_COMPARISONS = (">", "<", ">=", "<=", "<>")


def _keyword(token: Token) -> str:
    return block_keyword(token.value)


def note_named(name: str, written: str = "") -> tuple[str, str]:
    """What is said of a participant whose name starts with the word note (`Note Taker`),
    which starts a note on a line with a colon, and the way out. A line `written` without a
    colon (`NOTE Info required => email`) was most likely meant as a note."""
    declare = (
        f'declare the participant under another name, "participant N as {name}", and write N -> …'
    )
    words = written.strip()[4:].strip()
    if written and ":" not in written and words:
        declare = (
            f'for a note, write its text after a colon, "note: {words}"; for a lane, {declare}'
        )
    return (
        f'"{name}" cannot be a participant\'s name: a line that starts with the word "note" '
        "starts a note",
        declare,
    )


def without_colours(label: str) -> str:
    """A block's label without sequencediagram.org's colours around it (`#navy Login #white`:
    its frame's, its background's, its text's), each a `#` and a colour's name or hex digits."""
    if "#" not in label:
        return label
    from volley.text.colours import names_colour  # only such a label needs the CSS parser

    kept = label.split()
    while kept and kept[0][:1] == "#" and names_colour(kept[0][1:]):
        kept.pop(0)
    while kept and kept[-1][:1] == "#" and names_colour(kept[-1][1:]):
        kept.pop()
    return " ".join(kept) if len(kept) < len(label.split()) else label


def other_tools_note(line: str) -> tuple[str, str] | None:
    """For another tool's note over (or beside) participants (PlantUML's `hnote over A:`,
    sequencediagram.org's `box over A:`), what to say and the note volley writes."""
    note = OTHER_TOOLS_NOTE.match(line)
    if note is None:
        return None
    meant = other_note_meant(note)
    tools = _NOTE_TOOL.get(note["word"].lower(), "PlantUML's")
    return f'{tools} "{note["word"]}" is written "{meant}" in volley', meant


class _Explainer:
    def __init__(self, lines: list[str], filename: str | None, keywords: Matcher) -> None:
        self.lines = lines
        self.filename = filename
        self.keywords = keywords
        self.meant: str | None = None  # the line most likely meant, when a slip is recognised

    def body_without_keyword(self, line: int) -> VolleyError | None:
        """A payload's body written under its message with no `in:`/`out:` over it: one
        error for the whole body (the parser sets aside the body's lines with it)."""
        if unclaimed_body_owner(self.lines, line - 1) is None:
            return None
        return self.error(
            'a body needs "in:" (what the message carries) or "out:" (what comes back) on the '
            "line above it",
            line,
            self.indent_column(line),
            hint='write "in: Request" between the message and its body, as deep as the message',
        )

    def error(self, message: str, line: int, column: int, hint: str | None = None) -> VolleyError:
        line = min(max(line, 1), len(self.lines))
        source = self.lines[line - 1]
        return VolleyError(
            message,
            filename=self.filename,
            line=line,
            column=max(column, 1),
            source_line=source,
            hint=hint,
        )

    def at_line_start(self, line: int, *names: str) -> re.Match[str] | None:
        if line > len(self.lines):
            return None
        return self.keywords(*names).match(self.lines[line - 1] + "\n")

    def indent_column(self, line: int) -> int:
        text = self.lines[line - 1]
        return len(text) - len(text.lstrip(" \t")) + 1

    def misplaced_keyword(self, exc: UnexpectedInput, line: int) -> VolleyError | None:
        """A keyword line where the grammar does not allow it (payloads, block parts)."""
        opened = _open_blocks(exc)
        innermost = opened[-1] if opened else None
        column = self.indent_column(line)
        if self.at_line_start(line, "IN", "OUT"):
            side = self.lines[line - 1].strip()[:3].rstrip(":").strip().lower()
            return self.error(
                f"{side}: must come right after a message (or after that message's "
                f"{'out' if side == 'in' else 'in'}:)",
                line,
                column,
                hint="payloads belong to the message line above them; a note, a divider or a "
                "block's line (if:, else, end …) in between detaches them",
            )
        for name, owner in (("ELSE", "if:"), ("AND", "par:"), ("OPTION", "critical:")):
            found = self.at_line_start(line, name)
            if found:
                word = found.group().strip().lower().replace(" ", "")
                if innermost is None:
                    return self.error(
                        f"{word} outside any block; it belongs inside {owner}",
                        line,
                        column,
                        hint=self.opened_as_message(line),
                    )
                article = "an" if owner == "if:" else "a"
                branch = _BRANCH_OF.get(block_keyword(innermost.value))
                return self.error(
                    f"{word} belongs to {article} {owner} block, but the innermost open block is "
                    f"{_keyword(innermost)} (line {(innermost.line or 1) - 1})",
                    line,
                    column,
                    hint=None
                    if branch is None
                    else f'the next branch of a {_keyword(innermost)} block starts with "{branch}"',
                )
        if self.at_line_start(line, "END") and innermost is None:
            return self.error(
                "end without an open block "
                "(if:, group:, loop:, opt:, par:, critical:, break:, rect or box)",
                line,
                column,
                hint=self.opened_as_message(line)
                or "delete it, or write the line that opens its block above it",
            )
        return None

    def opened_as_message(self, line: int) -> str | None:
        """Where the block an `end` closes was most likely meant to open: the last line before
        it that starts with a block's word and holds an arrow (`loop retry -> 3 times`), which
        reads as a message from "loop retry"."""
        for number in range(line - 1, 0, -1):
            found = _OPENER_WITH_ARROW.match(self.lines[number - 1])
            if found is not None:
                word, rest = found.group(1), found.group(2).strip()
                sender = self.lines[number - 1][found.start(1) : found.start("arrow")].strip()
                return (
                    f'line {number} is a message from "{sender}" (a line that holds an arrow is '
                    f'a message); to open the block there, write "{word.lower()}: {rest}"'
                )
        return None

    def unclosed_block(self, exc: UnexpectedInput) -> VolleyError | None:
        opened = _open_blocks(exc)
        if not opened:
            return None
        token = opened[-1]
        line = (token.line or 1) - 1
        return self.error(
            f'this {_keyword(token)} block is never closed; expected "end" on a line of its '
            "own after its last line",
            line,
            token.column or 1,
        )

    def fence_without_owner(self, line: int) -> VolleyError | None:
        opening = fence_open(self.lines[line - 1])
        if opening is None:
            return None
        closed = read_block(self.lines, line - 1, opening).closed
        other = opening.info.strip().split(" ")[0].lower()
        if other in _OTHER_DIAGRAMS:  # a page's diagram pasted whole
            return self.error(
                f"a {opening.fence}{other} block is a {_OTHER_DIAGRAMS[other]} diagram, "
                "not volley's text",
                line,
                self.indent_column(line),
                hint='"volley import FILE" writes it as volley (it reads a page\'s fences too)',
            )
        return self.error(
            "a fenced block must follow an in:, out: or note line"
            + ("" if closed else ", and this one is never closed: it takes the rest of the file"),
            line,
            self.indent_column(line),
            hint="to attach a body to a message, put `in: Request` or `out: Response` "
            "on the line before the fence"
            + ("" if closed else f", and close it with {opening.fence} on a line of its own"),
        )

    def plantuml_divider(self, line: int) -> VolleyError | None:
        """`== Setup ==`, `...5 minutes later...`: PlantUML's divider and delay (and
        sequencediagram.org's), which volley writes `=: Setup` and `...: 5 minutes later`."""
        text = self.lines[line - 1]
        found = _PLANTUML_DIVIDER.match(text)
        if found is not None:
            what, kind, self.meant = "divider", "section", f"=: {found['label']}".rstrip()
        elif (found := _PLANTUML_DELAY.fullmatch(text.strip())) is not None:
            what, kind, self.meant = "delay", "delay", f"...: {found['label'] or ''}".rstrip()
        else:
            return None
        return self.error(
            f'"{text.strip()}" is PlantUML\'s {what}',
            line,
            len(text) - len(text.lstrip(" \t")) + 1,
            hint=f'volley writes a {kind} as "{self.meant}"',
        )

    def odd_space(self, line: int) -> VolleyError | None:
        """A space other than a plain one before the line's label (`A ->\u00a0B`,
        `title\u00a0Login`): pasted from a web page or typed by a keyboard layout, it looks
        like a space, but only spaces and tabs part words. The line is read on as if each were
        a plain space. (A label may hold one: it is text.)"""
        text = self.lines[line - 1]
        colon = text.find(":")
        found = LOOK_ALIKE_SPACE.search(text, 0, colon if colon >= 0 else len(text))
        if found is None:
            return None
        space = found.group()
        self.meant = LOOK_ALIKE_SPACE.sub(" ", text)
        return self.error(
            f"{character_name(space)} stands where volley reads only plain spaces and tabs",
            line,
            found.start() + 1,
            hint="write a plain space",
        )

    def divider_slip(self, line: int) -> VolleyError | None:
        """`---: three`, `==: two`, `....: four`: a divider's mark with a character too many,
        read on as the divider most likely meant."""
        text = self.lines[line - 1]
        found = _DIVIDER_SLIP.match(text)
        if found is None:
            return None
        mark = found["mark"]
        meant = {"-": "--", "=": "=", "_": "_", ".": "..."}[mark[0]]
        self.meant = text[: found.start("mark")] + meant + text[found.end("mark") :]
        return self.error(
            f'"{mark}:" is not a divider',
            line,
            found.start("mark") + 1,
            hint=f'did you mean "{meant}:"? The dividers are =: (a section), -: (a line), --: '
            "(a dashed line), _: (a thin line) and ...: (a delay)",
        )

    def note_named_sender(self, line: int) -> VolleyError | None:
        """`Note Taker -> B: x`: a line that starts with the word note starts a note, so a
        participant's name cannot start with it."""
        text = self.lines[line - 1]
        found = _NOTE_NAMED_SENDER.match(text)
        if found is None:
            return None
        said, hint = note_named(found["name"].strip(), text)
        return self.error(said, line, found.start("name") + 1, hint=hint)

    def glued_lost_arrow(self, line: int) -> VolleyError | None:
        """`service-x -> B`: a name ending in `-x` before a space reads as the name and the
        lost-message arrow, so the line has two arrows."""
        found = _GLUED_LOST_ARROW.match(self.lines[line - 1])
        if found is None:
            return None
        name, arrow = found["name"], found["arrow"]
        return self.error(
            f'"{name}{arrow}" reads as "{name}" and the lost-message arrow "{arrow}", '
            "and then the line has a second arrow",
            line,
            found.start("arrow") + 1,
            hint=f'a name cannot end in "{arrow}" before a space: write "{name}_x" or "{name} x"',
        )

    def arrow_missing(
        self, name: Token, line: int, column: int, in_block: bool = False
    ) -> VolleyError:
        written = name.value.strip()
        text = self.lines[line - 1]
        segment = text[(name.column or 1) - 1 :]
        slip = self.slip(text)
        if slip is not None and not in_block and slip[1] is not None and slip[1].strip() == "end":
            slip = ('"end" closes a block, and none is open here', None)  # `end:` alone
        names = _SEVERAL_SENDERS.match(segment)
        if names is not None:  # `A, B -> C`: a comma ends a name
            return self.error(
                f'"{names["names"].strip()}" is not one participant: a name cannot hold ","',
                line,
                (name.column or 1) + names.start("comma"),
                hint="a message goes from one participant to one: write a message for each",
            )
        for held in (_COLON_IN_NAME.match(segment), _COMMA_IN_NAME.match(segment)):
            if held is not None:  # `localhost:8080 -> api`, `Map<K,V> -> B`: either ends a name
                whole = held["name"].strip()
                return self.error(
                    f'"{whole}" is not one name: a name ends at its first "{held["end"]}"',
                    line,
                    (name.column or 1) + held.start("end"),
                    hint=f'declare it with a display label, "participant P as {whole}", '
                    'and write "P -> …"',
                )
        # `autonumber 10 10 "<b>[000]"` is that statement, not a message with a typo'd arrow
        statement = slip is not None and text.split(None, 1)[0].lower() in OTHER_TOOLS_STATEMENTS
        arrows = [found.span() for found in _HEADED_ARROW.finditer(segment)]
        for typo, meant in [] if statement else TYPO_ARROWS:
            at = segment.find(typo)
            if at > 0 and not any(a <= at and at + len(typo) <= b for a, b in arrows):
                before = segment[:at].strip()
                hint = f'did you mean "{meant}"?'
                if typo in MERMAID_ARROWS:
                    hint = f'"{typo}" is Mermaid\'s async arrow: volley writes "{meant}"'
                if typo in ("--X", "-X"):
                    hint = f'volley\'s lost head is a small x: "A {meant} B"'
                if typo in ("--x", "-x"):
                    mark = segment[at + len(typo) : at + len(typo) + 1]
                    arrow = typo + mark if mark in ("+", "-") else typo  # `A -x+B`: with its mark
                    hint = f'a lost message needs a space after "{arrow}": "A {arrow} B"'
                opener = _OPENER.match(text) if typo in _COMPARISONS else None
                if opener is not None:  # `if count goes to >0`: a label, not an arrow typed
                    word, rest = opener[1].lower(), opener[2].strip()  # wrong
                    hint = f'to open a block here, write "{word}: {rest}" (its word takes a colon)'
                # read on as the message meant, so that its in: and out: are its own
                start = (name.column or 1) - 1 + at
                self.meant = text[:start] + meant + text[start + len(typo) :]
                return self.error(
                    f'"{typo}" is not an arrow; expected an arrow such as -> or --> after '
                    f'"{before}"',
                    line,
                    (name.column or 1) + at,
                    hint=hint,
                )
        typed = _TYPED_DIVIDER.match(text)
        if typed is not None:  # `…: later`: an editor made the `...` of a delay one character
            mark, meant = typed["mark"], _TYPED_MARKS[typed["mark"]]
            return self.error(
                f'"{mark}" does not start a divider: volley writes it "{meant}:"',
                line,
                typed.start("mark") + 1,
                hint=f'an editor may have turned "{meant}" into "{mark}": write "{meant}: …"',
            )
        habit = _OTHER_COMMENT.match(text)
        if habit is not None:  # `' note to self`, `# Heading`
            return self.error(
                f'"{habit[1]}" does not start a comment in volley',
                line,
                habit.start(1) + 1,
                hint='a comment line starts with "//" ("\'" is PlantUML\'s, "#" '
                "WebSequenceDiagrams', YAML's and a shell's; a Markdown heading goes outside "
                "the diagram)",
            )
        if slip is not None:
            hint, self.meant = slip
            word = text.split(None, 1)[0]
            if OTHER_TOOLS_NOTE.match(text.lstrip(" \t")):  # `box over A: text`
                return self.error(
                    f'"{word}" does not start a note in volley',
                    line,
                    text.index(word) + 1,
                    hint=hint,
                )
            if word.lower() in COLON_WORDS:  # `title Login`: where the colon goes
                column = text.index(word) + len(word) + 1
                return self.error(f'expected ":" after "{word}"', line, column, hint=hint)
            if word.lower().startswith("autonumber:"):
                column = text.index(word) + len("autonumber:")
                return self.error('"autonumber" takes no ":"', line, column, hint=hint)
            if word.lower() == "autonumber":  # `autonumber -3`, `autonumber 10 5`
                after = text.index(word) + len(word)
                column = after + len(text[after:]) - len(text[after:].lstrip()) + 1
                said = text[after:].strip()
                what = (
                    "one whole number" if said.split()[0].isdigit() else 'a whole number or "off"'
                )
                return self.error(
                    f'expected {what} after "autonumber", not "{said}"', line, column, hint=hint
                )
            if word.lower() == "note" and ":" not in text:  # `note over A`, `note X`
                return self.error(
                    f'expected ":" after "{text.strip()}"',
                    line,
                    len(text.rstrip()) + 1,
                    hint=hint,
                )
            bare = word.rstrip(":;")
            if (bare.isalpha() or bare.lower() == "par_over") and bare.lower() not in VOLLEY_WORDS:
                return self.error(
                    f'"{bare}" is not a volley keyword', line, text.index(word) + 1, hint=hint
                )
        else:
            shaft = _LONE_SHAFT.search(written) or _GLUED_SHAFT.search(written)
            if shaft is not None:  # `A - B: 25`, `A--B: 25`: a shaft with no head
                start = (name.column or 1) - 1 + len(name.value) - len(name.value.lstrip())
                at = start + shaft.start("shaft")
                arrow = shaft["shaft"] + ">"
                self.meant = text[:at] + arrow + text[at + len(shaft["shaft"]) :]
                return self.error(
                    f'"{shaft["shaft"]}" is a shaft with no head; expected an arrow such as -> '
                    f'or --> between "{written[: shaft.start()]}" and '
                    f'"{written[shaft.end() :]}"',
                    line,
                    at + 1,
                    hint=f'did you mean "{arrow}"? {_ARROW_PARTS}',
                )
            start = (name.column or 1) - 1 + len(name.value) - len(name.value.lstrip())
            wide = _WIDE_ARROW.search(written)
            if wide is not None and _ARROW.fullmatch(unicodedata.normalize("NFKC", wide[0])):
                arrow = unicodedata.normalize("NFKC", wide[0])
                arrow += ">" if arrow in ("-", "--", "=") else ""  # a shaft alone
                at = start + wide.start()
                self.meant = text[:at] + f" {arrow} " + text[at + len(wide[0]) :]
                return self.error(
                    f'"{wide[0]}" is written in full-width characters, which volley does not '
                    "read as an arrow",
                    line,
                    at + 1,
                    hint=f'did you mean "{arrow}"? (an input method may have typed it wide)',
                )
            bare_shaft = _SHAFT_AT_END.search(written)
            if bare_shaft is not None:  # `A --: y`: neither a head nor a receiver
                return self.error(
                    f'"{bare_shaft[1]}" is a shaft with no head and no participant after it; '
                    f'expected an arrow such as -> or --> and a receiver after "'
                    f'{written[: bare_shaft.start()]}"',
                    line,
                    start + bare_shaft.start(1) + 1,
                    hint=f"a message is written `Sender -> Receiver: label`; {_ARROW_PARTS}"
                    + (
                        f'; a divider ("{bare_shaft[1]}: label") is a line of its own'
                        if bare_shaft[1] in ("-", "--", "=")
                        else ""
                    ),
                )
            lost = _LOST_AT_END.search(written)
            if lost is not None:  # `A -x`: a lost message's arrow, and no name after it
                return self.error(
                    f'expected the name of a participant after "{lost[1]}"',
                    line,
                    len(text.rstrip()) + 1,
                )
            arrowish = _ARROWISH.search(written)
            if arrowish is not None:  # `A -< B`, `A ~ B`
                return self.error(
                    f'"{arrowish["run"]}" is not an arrow; expected an arrow such as -> or --> '
                    f'between "{written[: arrowish.start()]}" and "{written[arrowish.end() :]}"',
                    line,
                    start + arrowish.start("run") + 1,
                    hint=_ARROW_PARTS,
                )
            hint = "a message is written `Sender -> Receiver: label`"
            named, colon, label = text.strip().partition(":")
            if colon and _HEADED_ARROW.search(label) and named.strip() == written:
                hint = f'the colon after "{written}" starts a label; {hint}'  # `Auth: A -> B`
            elif colon and named.strip() == written and label.strip():  # `FE UI: Frontend UI`
                # the text after the colon is not repeated: it may be a secret (`password: …`),
                # which a hint of other words would not show masked
                word, _, rest = written.partition(" ")
                declared = word.lower() in _DECLARING_WORDS and rest.strip()
                name = rest.strip() if declared else written
                hint += (  # `alias App: Event Source`: App's, not "alias App"'s
                    f"; a participant shown by a longer name is written "
                    f"`participant {name} as …`, the longer name after as"
                )
        misspelt = misspelt_keyword(text)
        if misspelt is not None:  # `tilte: Login`: read on as the keyword meant
            word, keyword, self.meant = misspelt
            return self.error(
                f'"{word}" is not a volley keyword; did you mean "{keyword}"?',
                line,
                text.index(word) + 1,
            )
        return self.error(
            f'expected an arrow such as -> or --> after "{written}"', line, column, hint=hint
        )

    @staticmethod
    def slip(text: str) -> tuple[str, str | None] | None:
        """A hint for a line that is a keyword without its colon, or another language's habit,
        and the line most likely meant (read in its place so later errors are real ones)."""
        stripped = text.lstrip(" \t")
        indent = text[: len(text) - len(stripped)]
        word, _, rest = stripped.partition(" ")
        lowered = word.lower()
        if lowered == "note":
            # read on as the note meant (its colon added), so a line after it is not read as
            # one of the message's above
            meant = text.rstrip() + ":" if ":" not in text else None
            return 'a note is written "note A: text" (or "note A, B: text"), with a colon', meant
        if lowered.rstrip(":") in ("elif", "elsif", "elseif"):  # `elsif x`, `elsif: x`
            return 'volley has no "else if": write "else: label" and nest an if: inside', None
        if _END_WRITTEN_OTHERWISE.fullmatch(stripped.rstrip()):
            # read on as the end it means, so the block closes where it was meant to
            return f'write "end": it closes any block, with no colon (not "{stripped.rstrip()}")', (
                indent + "end"
            )
        if NOTE_END.match(stripped):
            return (
                '"end note" ends a note of several lines in PlantUML and WebSequenceDiagrams; a '
                "volley note (note B: with its lines below it) ends at the next element by "
                "itself: delete the line"
            ), None
        if _END_AND_SEMICOLON.fullmatch(stripped.rstrip()):  # Mermaid's `end;`
            # read on as the end it means, so the block closes where it was meant to
            return 'Mermaid ends a statement at ";", volley at the end of the line: write "end"', (
                indent + "end"
            )
        if lowered.startswith("end"):
            return '"end" closes a block on a line of its own', None
        if lowered.rstrip(":") == "par_over":  # Mermaid's branches drawn over each other
            # read on as the par it means, so its `and` and `end` are the block's
            words = stripped[len(word) :].lstrip(" \t:").strip()
            return (
                'Mermaid\'s "par_over" is volley\'s "par:" (volley draws its branches one under '
                'another): write "par: ' + (words or "…") + '"'
            ), f"{indent}par: {words}".rstrip()
        if lowered.rstrip(":") == "acctitle":  # Mermaid's title for screen readers
            # not read on as a title: the diagram may have its own title: line as well
            words = stripped[len(word) :].lstrip(" \t:").strip() or "…"
            return (
                "Mermaid's \"accTitle\" is the title screen readers hear; volley's title is "
                f'drawn and heard: write "title: {words}" (or delete the line)'
            ), None
        if lowered.rstrip(":") == "accdescr":
            delete = (
                'delete it, through its closing "}"'
                if _BRACED_DESCRIPTION.match(text)
                else "delete the line (or make it a note)"
            )
            return (
                'Mermaid\'s "accDescr" describes the diagram to screen readers; volley writes '
                f"that description from the diagram itself: {delete}"
            ), None
        if lowered == "create" and rest.lower().startswith(("participant ", "actor ")):
            meant = "participant " + rest.partition(" ")[2].strip().removesuffix(";").rstrip()
            return (
                f'Mermaid\'s "create" (a participant that appears at its first message) is not '
                f'drawn: write "{meant}"'
            ), indent + meant
        if lowered == "destroy" and rest.strip():
            return (
                "Mermaid's and WebSequenceDiagrams' \"destroy\" (a lifeline that ends) is not "
                "drawn: delete the line"
            ), None
        if lowered in ("link", "links") and ":" in rest:
            return f'Mermaid\'s "{word}" (a menu) is not drawn: delete the line', None
        if lowered.startswith("autonumber:"):  # the other keywords take a colon; not this one
            meant = f"autonumber {stripped[len('autonumber:') :].strip()}".rstrip()
            again = _Explainer.slip(indent + meant)  # `autonumber: off` is wrong without it too
            if again is not None:
                return f"autonumber takes no colon, and {again[0]}", again[1]
            return f'autonumber takes no colon: write "{meant}"', indent + meant
        if lowered == "autonumber" and rest.strip().lower() == "stop":  # PlantUML's
            return 'PlantUML\'s "autonumber stop" is written "autonumber off"', indent + (
                "autonumber off"
            )
        if lowered == "autonumber" and rest.strip().lower().startswith("resume"):
            return (
                'PlantUML\'s "autonumber resume" goes on from the last number: volley writes '
                'the number to go on from, "autonumber N"'
            ), None
        if lowered == "autonumber" and rest.strip() and not rest.split()[0].isdigit():
            if rest.strip().lower() == "off":  # `autonumber: off`, with the colon taken out
                return None
            if rest.strip().lower() == "on":
                return 'numbers are on from an "autonumber" line: write "autonumber"', (
                    indent + "autonumber"
                )
            return ("autonumber takes a whole number to start from (autonumber 10), or off"), None
        if lowered == "autonumber" and len(rest.split()) > 1 and rest.split()[0].isdigit():
            meant = f"autonumber {rest.split()[0]}"  # Mermaid's START STEP
            return f'volley counts on by one from the start: write "{meant}"', indent + meant
        if stripped.startswith("||"):
            return "PlantUML's spacing is not needed: volley spaces messages; delete the line", None
        found = other_tools_note(stripped)
        if found is not None:
            return found[0], indent + found[1]
        coloured = _COLOURED_BLOCK.fullmatch(stripped.rstrip())
        if coloured is not None:  # `group#43829c #lightblue Registration`
            block, label = coloured["word"].lower(), without_colours(coloured["label"].strip())
            if block in ("alt", "else", "opt", "loop", "par", "break", "critical", "group"):
                meant = f"{block}: {label}" if block == "group" else f"{block} {label}"
            else:  # UML's other fragments, which volley draws as a group
                meant = f"group: {block} {label}"
            return (
                f'sequencediagram.org\'s colours after "{block}" are not drawn: write '
                f'"{meant.rstrip()}"'
            ), indent + meant.rstrip()
        icon = _ICON_PARTICIPANT.match(stripped)
        if icon is not None:
            meant = f"participant {icon['name']}"
            return (
                f'sequencediagram.org\'s "{icon["word"]}" draws a participant as an icon: write '
                f'"{meant}" (an icon may go in its label by its Font Awesome name: participant '
                f"{icon['name']} as {{fas-name}} {icon['name']})"
            ), indent + meant
        if lowered in ("expandable+", "expandable-"):
            meant = f"group: {rest.strip()}".rstrip()
            return (
                f'sequencediagram.org\'s "{word}" (a part that folds away) is drawn open in '
                f'volley: write "{meant}"'
            ), indent + meant
        if lowered == "participantgroup":  # `participantgroup #lightgreen **Chain**` … `end`
            meant = f"box {without_colours(rest.strip())}".rstrip()
            return (
                f'sequencediagram.org\'s "participantgroup" is a box of participants: write '
                f'"{meant}"'
            ), indent + meant
        # sequencediagram.org's statements have no colon (`Space Station: docked` is a label)
        statement = ":" not in stripped
        if lowered == "frame" and rest.strip() and statement:
            meant = f"title: {rest.strip()}"
            return f'sequencediagram.org\'s "frame" is volley\'s title: write "{meant}"', None
        if lowered in ("destroyafter", "destroysilent") and len(rest.split()) == 1 and statement:
            return (
                f'sequencediagram.org\'s "{word}" (a lifeline that ends) is not drawn: delete '
                "the line"
            ), None
        if lowered == "return":
            return (
                'PlantUML\'s "return" answers the last call; volley writes the answer as a '
                'message: "B --> A: done"'
            ), None
        if lowered in ("sequencediagram", "@startuml") and not rest.strip(" \t;"):
            tool = "Mermaid" if lowered == "sequencediagram" else "PlantUML"
            return (
                f'"{word}" is {tool}\'s header, which opens a {tool} diagram on its first line: '
                f"delete the line, or convert a whole {tool} diagram with volley import"
            ), None
        if lowered in PLANTUML_SETTINGS or lowered == "@enduml":
            return f'PlantUML\'s "{word}" sets nothing in volley: delete the line', None
        if lowered in COLON_WORDS:
            label = rest.strip()
            kept = without_colours(label) if lowered == "if" else label
            if kept != label:  # `if #navy ok #white`
                meant = f"{word}: {kept}".rstrip()
                return (
                    f'did you mean "{meant}"? The keyword takes a colon, and '
                    "sequencediagram.org's colours are not drawn"
                ), indent + meant
            meant = f"{word}: {label}".rstrip()
            return f'did you mean "{meant}"? The keyword takes a colon', indent + meant
        return None

    def explain(self, exc: UnexpectedInput) -> VolleyError:
        line = exc.line - 1 if isinstance(exc.line, int) else len(self.lines)
        column = exc.column if isinstance(exc.column, int) else 1
        token = getattr(exc, "token", None)
        at_end = isinstance(exc, UnexpectedEOF) or (
            isinstance(token, Token) and token.type == "$END"
        )
        if at_end:
            return self.unclosed_block(exc) or self.error(
                "the file ends in the middle of an element", len(self.lines), 1
            )
        line = min(max(line, 1), len(self.lines))
        found = (
            self.odd_space(line)
            or self.fence_without_owner(line)
            or self.body_without_keyword(line)
            or self.misplaced_keyword(exc, line)
            or self.glued_lost_arrow(line)
            or self.plantuml_divider(line)
            or self.note_named_sender(line)
            or self.divider_slip(line)
        )
        if found:
            return found
        expected = set(getattr(exc, "expected", None) or getattr(exc, "allowed", None) or ())
        previous = _previous_token(exc)
        if "ARROW" in expected and previous is not None and previous.type == "NAME":
            return self.arrow_missing(previous, line, column, bool(_open_blocks(exc)))
        if isinstance(exc, UnexpectedToken) and token is not None and token.type == "_NL":
            if previous is not None and previous.type == "ARROW":
                return self.error(
                    f'expected the name of a participant after "{previous.value}"',
                    line,
                    column,
                )
            column = len(self.lines[line - 1].rstrip()) + 1
        if previous is not None and previous.type == "MARK" and "NAME" in expected:
            text = self.lines[line - 1]
            at = (previous.end_column or 1) - 1
            second, after = text[at : at + 1], text[at + 1 : at + 2]
            if second in ("+", "-") and after not in ("-", "=", ">", "<"):  # `A ->>++ B`
                return self.error(
                    f'"{previous.value}{text[at]}" is two activation marks; an arrow takes one',
                    line,
                    at,
                    hint='"+" after the arrow starts the receiver\'s bar, "-" ends the '
                    'sender\'s: write one, as in "A ->>+ B"',
                )
        if previous is not None and previous.type in ("ARROW", "MARK") and "NAME" in expected:
            # `A <== B`, `A ->-> B`, `A -> -> B`: more of an arrow than an arrow has
            text = self.lines[line - 1]
            at = min((previous.column or 1) - 1, len(text))
            while at > 0 and text[at - 1] in "-=<> \t":
                at -= 1
            while at < len(text) and text[at] in " \t":
                at += 1
            run = _ARROW_RUN.match(text, at)
            written = run.group() if run else ""
            if written and written != previous.value.strip():
                meant = _meant_arrow(written)
                return self.error(
                    f'"{written}" is not an arrow',
                    line,
                    at + 1,
                    hint=f'did you mean "{meant}"?' if meant else _ARROW_PARTS,
                )
            return self.error(
                f'expected the name of a participant after "{previous.value}"', line, column
            )
        if isinstance(exc, UnexpectedCharacters):
            char = exc.char if exc.char != "\n" else "the end of the line"
            what = f'"{char}"' if char != "the end of the line" else char
        elif token is not None:
            what = WORDS.get(token.type, f'"{token.value}"')
            if token.type == "NAME":
                what = f'"{token.value.strip()}"'
            elif token.type == "TEXT":  # the root lexer's guess: name only the first character
                what = f'"{token.value.strip()[:1]}"'
        else:
            what = "this"
        if {"NAME", "TITLE", "NOTE"} <= expected:
            wanted = (
                "a message such as `A -> B: label`, or a line that starts with a keyword "
                "(title:, note, =:, if:, end …)"
            )
        elif previous is not None and previous.type == "PARTICIPANT":  # its text is a name
            wanted = "a participant name (participant A, or participant A as Long name)"
        else:
            wanted = _expected_words(expected)
        if what == "the end of the line":  # `activate`, `order:` with nothing after them
            return self.error(f"the line ends too soon; expected {wanted}", line, column)
        return self.error(f"unexpected {what}; expected {wanted}", line, column)


# PlantUML's note over several lines: `note left of A` (no colon), its lines, `end note`.
_PLANTUML_NOTE_START = re.compile(r"[ \t]*[hr]?note\b[^:]*$", re.IGNORECASE)


def plantuml_note_end(
    lines: list[str], index: int, is_element: Callable[[str], bool]
) -> int | None:
    """The index after the `end note` that closes PlantUML's note started on line `index`
    (`note left of A` with no colon), or None when the line starts none, or an element of
    volley's comes first (then it is more likely a note whose colon was forgotten)."""
    if not _PLANTUML_NOTE_START.match(lines[index]):
        return None
    return _closing(lines, index, NOTE_END.match, is_element)


def braced_description_end(
    lines: list[str], index: int, is_element: Callable[[str], bool]
) -> int | None:
    """The index after the `}` that closes Mermaid's `accDescr {` on line `index` (its lines
    are a description, not elements), or None when the line opens none, or an element of
    volley's comes before its `}` (a body's closing brace further down is not its own)."""
    if not _BRACED_DESCRIPTION.match(lines[index]):
        return None
    return _closing(lines, index, lambda line: line.strip(" \t") == "}", is_element)


def _closing(
    lines: list[str], index: int, closes: Callable[[str], object], is_element: Callable[[str], bool]
) -> int | None:
    """The index after the first line after `index` that `closes`, unless an element comes
    first; None when there is none."""
    for end in range(index + 1, len(lines)):
        if closes(lines[end]):
            return end + 1
        if is_element(lines[end]):
            return None
    return None


# A lost message's arrow ending the line (`A -x`): a name ending in `-x` is one only where a
# name or a colon follows (`A -> service-x`)
_OTHER_DIAGRAMS = {"mermaid": "Mermaid", "plantuml": "PlantUML", "puml": "PlantUML"}
_LOST_AT_END = re.compile(r"[ \t]((?:--?|=)x)$")
_SHAFT_AT_END = re.compile(r"(?<=[^\s=-])[ \t]*(-+|=+)$")  # `A --: y`, `A ==: y`
# Another language's comment at the start of a line: PlantUML's `'`; WebSequenceDiagrams', YAML's
# and a shell's `#`.
_OTHER_COMMENT = re.compile(r"[ \t]*(['#])")


def describe(
    exc: UnexpectedInput, lines: list[str], filename: str | None, keywords: Matcher
) -> tuple[VolleyError, str | None]:
    """Turn a Lark failure into a VolleyError in plain words (lines are the user's text), with
    the line most likely meant when the mistake is a known slip (`if ok` for `if: ok`)."""
    explainer = _Explainer(lines, filename, keywords)
    return explainer.explain(exc), explainer.meant
