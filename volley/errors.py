"""Errors and warnings a user sees, with the place they point at.

Every mistake in a diagram becomes a `VolleyError`; nothing else escapes for any input text.
`format()` gives the `path:line:col: error: message` form with the line and a caret under the
place, the caret placed by display width so tabs, CJK and emoji do not shift it.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from typing import TypedDict

TAB_WIDTH = 4
# Unicode's spaces (Zs) other than the plain one: no-break, thin, ideographic, ... They look like
# a space, pasted from a web page or typed by a keyboard layout, but only a plain space (or a
# tab) parts words, and a name holding one is another name.
LOOK_ALIKE_SPACE = re.compile("[\u00a0\u1680\u2000-\u200a\u202f\u205f\u3000]")


def character_name(ch: str) -> str:
    """`U+00A0 NO-BREAK SPACE`: a character as a message names it."""
    return f"U+{ord(ch):04X} {unicodedata.name(ch, '')}".rstrip()


def char_width(ch: str) -> int:
    """Columns a character takes on a terminal: wide for CJK and emoji, none for combining marks."""
    if unicodedata.combining(ch) or ch in "\u200b\u200c\u200d\ufe0f\ufe0e":
        return 0
    if unicodedata.east_asian_width(ch) in ("W", "F"):
        return 2
    return 1


def hidden(ch: str) -> bool:
    """A character a terminal would act on or hide: controls, surrogates, bidi and format marks.

    Errors quote the user's text; an escape sequence in it must not drive the reader's terminal
    and a right-to-left override must not reorder what they read. A zero-width joiner stays, so
    emoji sequences show as one picture.
    """
    return unicodedata.category(ch) in ("Cc", "Cs", "Co", "Cf", "Zl", "Zp") and ch != "\u200d"


def visible(text: str) -> str:
    """The text with every `hidden` character but a line break shown as its escape (`\\u200f`,
    as the picture shows it), tabs as a space."""
    return "".join(
        " " if ch == "\t" else escaped(ch) if ch != "\n" and hidden(ch) else ch for ch in text
    )


def shown_path(path: str) -> str:
    """A file's name as a message prints it: `visible`, and a line break in it escaped too (a
    name holding one would print a line that reads as a message of its own)."""
    return visible(path).replace("\n", escaped("\n"))


def write_failed(
    path: str, exc: OSError, filename: str | None = None, hint: str | None = None
) -> VolleyError:
    """`cannot write PATH: why` (a full disk, a folder that may not be written), said at the
    file the user gave (`filename`, where another file failed for it) or at PATH."""
    return VolleyError(
        f"cannot write {shown_path(path)}: {exc.strerror or exc}",
        filename=filename or path,
        hint=hint,
    )


def escaped(ch: str) -> str:
    """A character written as its escape: `\\u202e`, `\\U000e0041`."""
    code = ord(ch)
    return f"\\u{code:04x}" if code <= 0xFFFF else f"\\U{code:08x}"


# The most of a line an error quotes: around the place, with "…" where it is cut (a capture
# saved on one line is megabytes long).
SHOWN_CHARACTERS = 200


class Place(TypedDict):
    """A place in a text as a VolleyError takes it: `VolleyError(message, **place)`."""

    line: int
    column: int
    source_line: str


def place_in(text: str, at: int) -> Place:
    """Where offset `at` of `text` is: its line and column (from 1) and the whole line."""
    start = text.rfind("\n", 0, at) + 1
    end = text.find("\n", at)
    return Place(
        line=text.count("\n", 0, at) + 1,
        column=at - start + 1,
        source_line=text[start : end if end >= 0 else len(text)],
    )


def display_line(line: str, column: int) -> tuple[str, int]:
    """The line as shown (tabs expanded, control characters written as escapes; a long one cut
    to the part around `column`) and the caret's offset."""
    if len(line) > SHOWN_CHARACTERS:
        # a line indented deep (a block nested a hundred times) is shown from its words
        indent = len(line) - len(line.lstrip(" \t"))
        indent = indent if column > indent else 0
        start = max(indent, min(column - 1 - SHOWN_CHARACTERS // 2, len(line) - SHOWN_CHARACTERS))
        end = start + SHOWN_CHARACTERS
        before, after = ("…" if start else ""), ("…" if end < len(line) else "")
        line, column = before + line[start:end] + after, column - start + len(before)
    shown: list[str] = []
    width = 0
    caret = 0
    for index, ch in enumerate(line):
        if index == column - 1:
            caret = width
        if ch == "\t":
            pad = TAB_WIDTH - width % TAB_WIDTH
            shown.append(" " * pad)
            width += pad
            continue
        # a character that draws nothing, and the one the caret is for (a joiner or selector
        # a message is about, which stays as it is in an emoji elsewhere), as its escape
        if hidden(ch) or (
            index == column - 1 and not char_width(ch) and not unicodedata.combining(ch)
        ):
            ch = escaped(ch)
            shown.append(ch)
            width += len(ch)
            continue
        shown.append(ch)
        width += char_width(ch)
    if column - 1 >= len(line):
        caret = width
    return "".join(shown), caret


@dataclass
class Diagnostic:
    """One message about one place in a file: an error, a warning, or a note (something the
    author may want to know that needs nothing done, such as a secret the output masks)."""

    message: str
    filename: str | None = None
    line: int = 0
    column: int = 0
    source_line: str | None = None
    hint: str | None = None
    severity: str = "error"
    # where the caret stands in `source_line` when that is not the file's line as written (a
    # secret masked in it); `column` stays the file's, for an editor to go to
    caret: int | None = None
    topic: str | None = None  # what it is about, for a front end to tell: "secret"

    def format(self, color: bool = False) -> str:
        where = shown_path(self.filename or "<input>")
        if self.line:
            where += f":{self.line}"
            if self.column:
                where += f":{self.column}"
        label = self.severity
        if color:
            code = {"error": "31", "warning": "33"}.get(self.severity, "36")
            label = f"\x1b[1;{code}m{label}\x1b[0m"
            where = f"\x1b[1m{where}\x1b[0m"
        out = [f"{where}: {label}: {visible(self.message)}"]
        if self.source_line is not None and self.line:
            shown, caret = display_line(self.source_line, max(self.caret or self.column, 1))
            mark = "^"
            if color:
                mark = "\x1b[1;32m^\x1b[0m"
            out.append(f"  {shown}")
            out.append("  " + " " * caret + mark)
        if self.hint:
            out.append(f"  {visible(self.hint)}")
        return "\n".join(out)


def json_reason(message: str) -> str:
    """The JSON parser's complaint as words that stand on their own: Python's ends some with
    the "at" its position would follow ("Unterminated string starting at"), which a message
    that gives the place another way leaves hanging."""
    return re.sub(r"(?: starting)? at$", "", message)


def counted(count: int, one: str, many: str) -> str:
    """A count in words: "1 error", "3 errors", "1,204 entries"."""
    return f"{count:,} {one if count == 1 else many}"


class VolleyError(Exception):
    """A mistake in a diagram (or a limit it breaks), pointing at the place."""

    def __init__(
        self,
        message: str,
        *,
        filename: str | None = None,
        line: int = 0,
        column: int = 0,
        source_line: str | None = None,
        hint: str | None = None,
        caret: int | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.filename = filename
        self.line = line
        self.column = column
        self.source_line = source_line
        self.hint = hint
        self.caret = caret  # as Diagnostic's: the caret's place in a masked source_line
        self.errors: list[VolleyError] = [self]  # every error raised as this one
        self.warnings: list[Diagnostic] = []  # what the reader found besides

    @property
    def diagnostic(self) -> Diagnostic:
        return Diagnostic(
            self.message,
            self.filename,
            self.line,
            self.column,
            self.source_line,
            self.hint,
            caret=self.caret,
        )

    def format(self, color: bool = False) -> str:
        return self.diagnostic.format(color)

    def __str__(self) -> str:
        return self.format()

    def _render_traceback_(self) -> list[str]:
        """How IPython and Jupyter show the error (their hook for an exception's own display):
        its words, line and caret, not the Python stack that reached it, which is the
        notebook's machinery, not the mistake."""
        first, *rest = self.format().splitlines()
        return [f"{type(self).__name__}: {first}", *rest]


class VolleyErrors(VolleyError):
    """Every error found in one diagram, in line order, raised as one.

    It is itself the first error (its `line`, `column` and `message`), so code that shows one
    place keeps working; `errors` holds all of them, `warnings` what the reader found besides
    (a line read as a note's text, a block left open), which often explains an error; and
    `format()` prints them in line order, then a count of the errors. `stopped_at` is the
    line the reader stopped at when it found as many errors as it looks for (see
    `volley.language.parser.error_budget`): the lines after it were not read.
    """

    def __init__(
        self,
        errors: list[VolleyError],
        warnings: list[Diagnostic] | None = None,
        stopped_at: int | None = None,
    ) -> None:
        first = errors[0]
        super().__init__(
            first.message,
            filename=first.filename,
            line=first.line,
            column=first.column,
            source_line=first.source_line,
            hint=first.hint,
            caret=first.caret,
        )
        self.errors = list(errors)
        self.warnings = list(warnings or [])
        self.stopped_at = stopped_at

    def format(self, color: bool = False) -> str:
        said: list[Diagnostic | VolleyError] = [*self.errors, *self.warnings]
        said.sort(key=lambda d: (d.filename or "", d.line, d.column))  # a gallery's: by file
        shown = [each.format(color) for each in said]
        count = counted(len(self.errors), "error", "errors")  # then a count
        if self.stopped_at is not None:
            count += (
                f"; volley stopped reading at line {self.stopped_at}: fix these and check "
                "again for any after it"
            )
        shown.append(count)
        return "\n".join(shown)
