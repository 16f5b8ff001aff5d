"""A Pygments lexer for `.volley` source, so docs sites and terminals colour diagrams.

Registered under the `pygments.lexers` entry point, so once volley is installed
`python -m pygments -l volley flow.volley`, MkDocs' ```` ```volley ```` code blocks shown as
code, and Sphinx's `.. code-block:: volley` all find it by name.

The language is line-based (one element a line), so each rule matches one whole line and
names its parts: keywords, participants, the arrow, the label with its inline markup. Payload
bodies are kept apart from the diagram as the parser keeps them: a fenced body is coloured by
the lexer of its fence language (`json`, `http` …), an indented body as `key: value` lines.
This is colouring, not checking: a line the parser would refuse is shown as plain text.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any, ClassVar

from pygments.lexer import (  # type: ignore[attr-defined]  # the stubs lack do_insertions
    RegexLexer,
    bygroups,
    default,
    do_insertions,
    include,
    this,
    using,
)
from pygments.token import (
    Comment,
    Generic,
    Keyword,
    Name,
    Number,
    Operator,
    Punctuation,
    String,
    Text,
    Whitespace,
    _TokenType,
)
from pygments.util import ClassNotFound, get_bool_opt

from volley.text.inline import BLOCK_START, TABLE_LINE

__all__ = ["VolleyLexer"]

# An arrow: an optional left head, a shaft (- solid, -- dashed, = bold), an optional right
# head, at least one head; then an optional activation mark. A lost
# message's `x` needs a space after it (or an activation mark and a space), as in the grammar,
# and a left one a head or a space after its shaft, so `x-ray` and `Set x=5` stay names.
_LEFT_HEAD = r"(?:<<|<|(?<=\s)x(?=(?:--?|=)(?:>|x|[ \t\n])))"
_RIGHT_HEAD = r"(?:>>|>|x(?=[+-]?[ \t]))"
_SHAFT = r"(?:--|-|=)"
ARROW = rf"(?:{_LEFT_HEAD}{_SHAFT}{_RIGHT_HEAD}?|{_SHAFT}{_RIGHT_HEAD})"

_LINE_END = r"(\n|\Z)"
# Seen from the end of a line: the next line is a table's delimiter row (`|:--|--:|`, `--|--`),
# so the line is its header and a table starts there.
_BEFORE_DELIMITER_ROW = (
    r"(?=\n[ \t]*\|?[ \t]*:?-+:?[ \t]*(?:\|[ \t]*:?-+:?[ \t]*)*\|?[ \t]*(?:\n|\Z))"
)
_TABLE_HEADER = r"(?=[^\n]*\|)[^\n]+" + _BEFORE_DELIMITER_ROW
_INDENT = r"^([ \t]*)"
_LABEL = r"([^\n]*)"
# The rest of the line holds no arrow, as the grammar's keyword without a colon wants it
_NO_ARROW = r"(?![^\n]*(?:[-=](?:>|x[+-]?[ \t]+\S)|<[-=]|[ \t]x[-=]+[> \t]))"
# The words that open a block with or without their colon (`if` takes one)
_BLOCK_WORDS = "group|loop|opt|par|critical|break|alt"
# `note A, B:` and its text, to the line's end
_NOTE = _INDENT + r"(note)((?:[ \t]+[^:\n]*?)?)([ \t]*:)"
_NOTE_PARTS = bygroups(
    Whitespace,
    Keyword,
    using(this, state="names"),
    Punctuation,
    using(this, state="inline"),
    Whitespace,
)


class VolleyLexer(RegexLexer):
    """Lexer for the volley sequence-diagram language (swimlanes.io's, with payloads)."""

    name = "volley"
    aliases: ClassVar[list[str]] = ["volley"]
    filenames: ClassVar[list[str]] = ["*.volley"]
    mimetypes: ClassVar[list[str]] = ["text/x-volley"]
    flags = re.MULTILINE | re.IGNORECASE

    def __init__(self, **options: Any) -> None:
        # Colour fenced payload bodies with the lexer their fence names (on by default).
        self.handlecodeblocks = get_bool_opt(options, "handlecodeblocks", True)
        super().__init__(**options)

    def _fenced_body(self, match: re.Match[str]) -> Iterator[tuple[int, _TokenType, str]]:
        """A fenced payload body: the fences as strings, the body by its language's lexer."""
        yield match.start("indent"), Whitespace, match.group("indent")
        yield match.start("open"), String.Backtick, match.group("open")
        yield match.start("lang"), Name.Label, match.group("lang")
        yield match.start("nl"), Whitespace, match.group("nl")
        start, code = match.start("code"), match.group("code")
        lexer = None
        language = match.group("lang").strip().split(" ")[0]
        if self.handlecodeblocks and language:
            try:
                from pygments.lexers import get_lexer_by_name

                lexer = get_lexer_by_name(language)
            except ClassNotFound:
                lexer = None
        if lexer is None:
            yield start, String, code
            yield from self._closing(match)
            return
        # The fence's indentation is not part of the body (the parser removes it): the body's
        # lexer sees the lines without it, and the indentation goes back in as whitespace.
        indent, insertions, lines = match.group("indent"), [], []
        dedented = 0
        for line in re.findall(r"[^\n]*\n", code):
            cut = indent if line.startswith(indent) else ""
            if cut:
                insertions.append((dedented, [(0, Whitespace, cut)]))
            lines.append(line[len(cut) :])
            dedented += len(line) - len(cut)
        tokens = lexer.get_tokens_unprocessed("".join(lines))
        for index, token, value in do_insertions(insertions, tokens):
            yield start + index, token, value
        yield from self._closing(match)

    @staticmethod
    def _closing(match: re.Match[str]) -> Iterator[tuple[int, _TokenType, str]]:
        yield match.start("close"), String.Backtick, match.group("close")
        yield match.start("end"), Whitespace, match.group("end")

    tokens: ClassVar[dict[str, Any]] = {
        "root": [
            (r"^[ \t]*\n", Whitespace),
            (_INDENT + r"(//[^\n]*)" + _LINE_END, bygroups(Whitespace, Comment.Single, Whitespace)),
            include("fences"),
            # in: / out: and an indented body (lines at least two spaces or a tab deeper,
            # blank lines among them; a fence there is left to the fence rule).
            (
                _INDENT
                + r"(in|out)([ \t]*:)"
                + _LABEL
                + _LINE_END
                + r"((?:[ \t]*\n|\1(?:  |\t)(?![ \t]*(?:```|~~~))[^\n]*(?:\n|\Z))*)",
                bygroups(
                    Whitespace,
                    Keyword,
                    Punctuation,
                    using(this, state="inline"),
                    Whitespace,
                    using(this, state="body"),
                ),
            ),
            (
                # Mermaid's `title Login` too, on a line that holds no arrow
                _INDENT + r"(title)([ \t]*:|[ \t]+" + _NO_ARROW + ")" + _LABEL + _LINE_END,
                bygroups(Whitespace, Keyword.Declaration, Punctuation, Generic.Heading, Whitespace),
            ),
            (
                _INDENT + r"(order)([ \t]*:)" + _LABEL + _LINE_END,
                bygroups(
                    Whitespace,
                    Keyword.Declaration,
                    Punctuation,
                    using(this, state="names"),
                    Whitespace,
                ),
            ),
            (
                _INDENT + r"(autonumber)(?:([ \t]+)(\d+))?([ \t]*)" + _LINE_END,
                bygroups(
                    Whitespace, Keyword.Declaration, Whitespace, Number, Whitespace, Whitespace
                ),
            ),
            (
                _INDENT + r"(autonumber)([ \t]+)(off)([ \t]*)" + _LINE_END,
                bygroups(
                    Whitespace,
                    Keyword.Declaration,
                    Whitespace,
                    Keyword.Constant,
                    Whitespace,
                    Whitespace,
                ),
            ),
            # A note whose `note:` line holds a table's header: its rows follow.
            (_NOTE + r"(?=" + _TABLE_HEADER + r")" + _LABEL + r"(\n)", _NOTE_PARTS, "table"),
            (_NOTE + _LABEL + _LINE_END, _NOTE_PARTS),
            (
                _INDENT + rf"(if|{_BLOCK_WORDS})([ \t]*:)" + _LABEL + _LINE_END,
                bygroups(Whitespace, Keyword, Punctuation, using(this, state="inline"), Whitespace),
            ),
            # A block's word without its colon (`loop every 30 s`, `group Login`), on a line
            # with no arrow (`Loop back -> B` is a message): `if` always takes its colon
            (
                _INDENT
                + rf"({_BLOCK_WORDS})((?:[ \t]+"
                + _NO_ARROW
                + r")|(?=\n|\Z))"
                + _LABEL
                + _LINE_END,
                bygroups(Whitespace, Keyword, Whitespace, using(this, state="inline"), Whitespace),
            ),
            # Mermaid's highlight and its colour, and its box (a colour, then a label), on a
            # line with no arrow (`rect -> B` is a message from "rect").
            (
                _INDENT
                + r"(rect|box)\b(?![^\n]*(?:[-=]>|<[-=]))([ \t]*)(:?)([ \t]*)"
                + _LABEL
                + _LINE_END,
                bygroups(
                    Whitespace, Keyword, Whitespace, Punctuation, Whitespace, String, Whitespace
                ),
            ),
            (
                _INDENT + r"(else|and)(?:([ \t]*:)" + _LABEL + r")?([ \t]*)" + _LINE_END,
                bygroups(
                    Whitespace,
                    Keyword,
                    Punctuation,
                    using(this, state="inline"),
                    Whitespace,
                    Whitespace,
                ),
            ),
            (
                _INDENT + r"(end)([ \t]*)" + _LINE_END,
                bygroups(Whitespace, Keyword, Whitespace, Whitespace),
            ),
            # A table's header: its rows follow, the note's text even where a cell holds an arrow.
            (r"^" + _TABLE_HEADER + r"\n", using(this, state="inline"), "table"),
            # A table's row or delimiter row in a note, never a message or a divider.
            (r"^(?=" + TABLE_LINE.pattern + r")[^\n]+" + _LINE_END, using(this, state="inline")),
            (
                _INDENT + r"(\.\.\.|--|[=_-])([ \t]*:)" + _LABEL + _LINE_END,
                bygroups(
                    Whitespace, Operator, Punctuation, using(this, state="inline"), Whitespace
                ),
            ),
            (
                _INDENT + r"(activate|deactivate)([ \t]+)([^\n]*?)([ \t]*)" + _LINE_END,
                bygroups(Whitespace, Keyword, Whitespace, Name.Class, Whitespace, Whitespace),
            ),
            # A message: sender, arrow (and activation mark), receiver, then an optional label.
            (
                _INDENT
                + r"([^:\n]*?[^:\s])([ \t]*)("
                + ARROW
                + r")((?:[ \t]*[+-])?)([ \t]*)([^:\n]*[^:\s])([ \t]*)(?:(:)"  # `<- -`: apart
                + _LABEL
                + r")?"
                + _LINE_END,
                bygroups(
                    Whitespace,
                    Name.Class,
                    Whitespace,
                    Operator,
                    Operator,
                    Whitespace,
                    Name.Class,
                    Whitespace,
                    Punctuation,
                    using(this, state="inline"),
                    Whitespace,
                ),
            ),
            # Anything else: a note's continuation line, or text the parser will refuse.
            (r"[^\n]+" + _LINE_END, using(this, state="inline")),
            (r"\n", Whitespace),
        ],
        "fences": [
            (
                r"^(?P<indent>[ \t]*)(?P<open>(?P<tick>`{3,}))(?P<lang>[^\n]*)(?P<nl>\n)"
                r"(?P<code>(?:[^\n]*\n)*?)(?P<close>[ \t]*(?P=tick)`*)(?P<end>[ \t]*(?:\n|\Z))",
                _fenced_body,
            ),
            (
                r"^(?P<indent>[ \t]*)(?P<open>(?P<tilde>~{3,}))(?P<lang>[^\n]*)(?P<nl>\n)"
                r"(?P<code>(?:[^\n]*\n)*?)(?P<close>[ \t]*(?P=tilde)~*)(?P<end>[ \t]*(?:\n|\Z))",
                _fenced_body,
            ),
            # A fence never closed: the parser refuses it, and it swallows the rest.
            (r"^[ \t]*(?:```|~~~)[\s\S]*", Generic.Error),
        ],
        # A table's rows: each line with a pipe, to one that ends the table (a blank line, a
        # fence, another block) or the note (a `//` comment), as the parser reads them.
        "table": [
            (
                r"^(?![ \t]*(?:```|~~~|//))(?!"
                + BLOCK_START.pattern
                + r")(?=[^\n]*\|)[^\n]+(?:\n|\Z)",
                using(this, state="inline"),
            ),
            default("#pop"),
        ],
        # Labels, titles and note text: the inline markup of the language.
        "inline": [
            (r"\\.", String.Escape),
            (r"\*\*[^*\n]+\*\*", Generic.Strong),
            (r"~~[^~\n]+~~", Generic.Deleted),
            (r"\*[^*\n]+\*", Generic.Emph),
            (r"(?<![\w])_[^_\n]+_(?![\w])", Generic.Emph),
            (r"`[^`\n]+`", String.Backtick),
            (
                r"(\[)([^\]\n]*)(\]\()([^)\n]*)(\))",
                bygroups(Punctuation, Text, Punctuation, Name.Tag, Punctuation),
            ),
            (r"\{fa[srb]?-[a-z0-9-]+(?:[ \t]+fa-[a-z0-9-]+)*\}", Name.Builtin),
            (r"[^\\*_~`\[{\n]+", Text),
            (r"\n", Whitespace),
            (r".", Text),
        ],
        # Participant names after `order:` or `note`, separated by commas.
        "names": [
            (r"[ \t]+", Whitespace),
            (r",", Punctuation),
            (r"[^,\n]*[^,\s]", Name.Class),
        ],
        # An indented body: `key: value` lines become rows of its table.
        "body": [
            (
                r"^([ \t]*)([^:\n]*[^:\s])(:)([^\n]*)(\n|\Z)",
                bygroups(Whitespace, Name.Attribute, Punctuation, String, Whitespace),
            ),
            (r"[^\n]+\n?|\n", String),
        ],
    }
