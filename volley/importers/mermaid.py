r"""Mermaid `sequenceDiagram` to `.volley`: a `.mmd` file, or every ```mermaid block of Markdown
(```{mermaid} too, as MyST and Quarto pages write it).

Mermaid's statements map onto volley's one for one where volley has the same thing:
participants and their aliases (`participant H as MCP Host + LLM`, or `"alias"` in `@{…}`),
messages with every arrow kind, activation marks and `activate`/`deactivate`, notes,
`loop`/`alt`/`opt`/`par`/`critical`/`break`/`rect` blocks, boxes around participants,
`autonumber` and `autonumber off` (numbers as Mermaid counts them), `title` and `%%` comments;
a rect and a box keep their colours. What volley cannot show (an actor's stick figure, a
participant's type, a note's side, menu links, a headless line, a half arrowhead, a central
connection, front matter and directives) is written as a `//` comment at its place, so nothing
is dropped in silence.

Text is read by Mermaid's lexical rules: a statement ends at a newline or `;`; `#59;` and
`#quot;` are escapes, decoded once a text's `<br>` line breaks are found (so `#lt;br#gt;` is
text); any other `#` in text (after a colon, a block's keyword, `as`) or where a word starts
begins a comment to the end of the line, and one inside a name is a letter of it
(`C# client->>B: x`, as Mermaid's lexer reads a name); `wrap:`/`nowrap:` before a
text is a layout mark. Mermaid's text is plain, so characters that are markup in volley are
escaped.

Arrows, by what Mermaid draws:

    Mermaid     drawn as                          volley
    ->>  -->>   solid / dotted, arrowhead         ->   -->
    -)   --)    solid / dotted, open head (async) ->>  -->>
    -x   --x    solid / dotted, cross             -x   --x
    <<->> <<-->> heads at both ends               <->  <-->
    ->   -->    solid / dotted, no head           ->   -->  (and a comment: volley draws a head)
    -|\ -|/ …   half arrowheads (11.12)           ->  <-  ->> <<- …  (and a comment)
"""

from __future__ import annotations

import html
import json
import os
import re
from dataclasses import dataclass, field
from functools import cached_property
from typing import NoReturn

import yaml

from volley.errors import Diagnostic, VolleyError, VolleyErrors
from volley.importers import (
    ON_A_PAGE,
    Imported,
    drawn_differently,
    file_of_its_own,
    files_of_their_own,
    gathered,
    part_name,
)
from volley.importers.labels import (
    Lanes,
    apart_by_case,
    create_not_followed,
    is_volley_label,
    note_text,
    volley_label,
)
from volley.language.parser import (
    COMMENT_AFTER_NAME,
    LARGEST_NUMBER,
    if_label,
    normalise,
    note_side,
)
from volley.language.prepass import SHOWS_NUMBERS, mermaid_directive
from volley.language.writer import Comment, write
from volley.limits import MAX_DEPTH
from volley.model import (
    Activation,
    Block,
    Box,
    Branch,
    Diagram,
    Item,
    Message,
    Note,
    display_label,
    trimmed,
)
from volley.text.colours import colour_and_label
from volley.text.fences import fence_attrs, read_to_close
from volley.text.markdown import container_fences, indented_code_lines, page_fences, superfences
from volley.textio import MARKDOWN_SUFFIXES

ARROWS = {
    "<<-->>": "<-->",
    "<<->>": "<->",
    "-->>": "-->",
    "->>": "->",
    "--)": "-->>",
    "-)": "->>",
    "--x": "--x",
    "-x": "-x",
    "-->": "-->",
    "->": "->",
}
# Half arrowheads (Mermaid 11.12): volley draws the whole head, at the same end. A "reverse"
# one has its head at the sender's end of the line.
HALF_ARROWS = {
    "-|\\": "->",
    "--|\\": "-->",
    "-|/": "->",
    "--|/": "-->",
    "/|-": "<-",
    "/|--": "<--",
    "\\|-": "<-",
    "\\|--": "<--",
    "-\\\\": "->>",
    "--\\\\": "-->>",
    "-//": "->>",
    "--//": "-->>",
    "//-": "<<-",
    "//--": "<<--",
    "\\\\-": "<<-",
    "\\\\--": "<<--",
}
HEADLESS = ("->", "-->")
BLOCKS = {
    "loop": "loop",
    "alt": "if",
    "opt": "opt",
    "par": "par",
    "par_over": "par",
    "critical": "critical",
    "break": "break",
    "rect": "rect",
}
BRANCHES = {"else": "if", "and": "par", "option": "critical"}

# Mermaid itself wants this spelling; any case is read (the keywords after it are Mermaid's
# own in any case), so that `sequencediagram` is not refused as "not Mermaid" after the parser
# has sent its writer here
_HEADER = re.compile(r"(?i:sequenceDiagram)\b(.*)")
# A line of swimlanes.io's own that Mermaid has no statement like: `if:`, `group:`, `note A:`
# (Mermaid's notes say over, left of or right of), a divider (`=:`, `...:`), `title:`, `order:`.
_SWIMLANES_LINE = re.compile(
    r"\s*(?:(?:if|else|group|title|order)\s*:|note(?![ \t]+(?:over|left|right)\b)[^:]*:"
    r"|(?:\.\.\.|--|[=_-])\s*:)",
    re.IGNORECASE,
)
# the longest first, so that `--|\\` is not read as `-` and a name
# Mermaid reads its arrows in any case: `A--XB` is `A--xB`.
_ARROW = "|".join(
    re.escape(arrow).replace("x", "[xX]")
    for arrow in sorted({**ARROWS, **HALF_ARROWS}, key=len)[::-1]
)
# `()` at either end of the arrow: a "central connection", to the middle of the lifeline
_MESSAGE_FORM = (
    rf"(?P<sender>[^:]+?)[ \t]*(?P<from_centre>{{centre}})?[ \t]*(?P<arrow>{_ARROW})[ \t]*"
    rf"(?P<mark>[+-]|\(\))?[ \t]*(?P<receiver>[^:]+?)[ \t]*(?::(?P<text>.*))?"
)
_MESSAGE = re.compile(_MESSAGE_FORM.format(centre=r"\(\)"))
# ... and where the sender is a function's name (`receive()->>send()`, as the diagram names it
# elsewhere), its `()` is the name's: `(?!)` never matches
_NAMED_MESSAGE = re.compile(_MESSAGE_FORM.format(centre="(?!)"))
# A name that ends in `()` as a declaration or a message's receiver writes it
_DECLARED_CALL = re.compile(
    r"(?i:participant|actor)[ \t]+(?P<name>[^:]*?\(\))(?:[ \t]+(?i:as)\b.*)?"
)
_WORD = re.compile(r"(?P<word>[A-Za-z_]+)(?:(?:[ \t]+|(?=:))(?P<rest>.*))?")
_NOTE = re.compile(
    r"(?i:note)[ \t]+(?P<place>(?i:over|left[ \t]+of|right[ \t]+of))[ \t]+"
    r"(?P<names>[^:]+?)[ \t]*:(?P<text>.*)"
)
# `participant CH as` with nothing after `as` (`as #reddit`, whose `#` starts a comment) is CH
# with no label, as Mermaid reads it.
_PARTICIPANT = re.compile(
    r"(?P<name>.+?)(?:@\{(?P<config>.*)\})?(?:[ \t]+(?i:as)(?:[ \t]+(?P<alias>.*?))?)?[ \t]*"
)
# Other diagrams' statements, which a sequence diagram copied from a flowchart may hold.
_OTHER_DIAGRAMS = frozenset(
    {"classdef", "class", "style", "linkstyle", "click", "subgraph", "direction"}
)
# A message written with its arrow pointing left (`B <-- A: done`), which Mermaid has not.
_BACKWARDS = re.compile(
    r"(?P<receiver>[^<>:\n-][^<>:\n]*?)[ \t]*<(?P<shaft>--?|==?)[ \t]*"
    r"(?P<sender>[^<>:\n-][^<>:\n]*?)[ \t]*:(?P<text>.*)"
)
# Statements whose words hold no arrow: a line of one of them that reads as a message
# (`Create Order Service->>Shop: …`) is a sender named after the keyword, which Mermaid reads
# as the keyword's statement.
_NO_ARROWS = frozenset(
    {"create", "destroy", "link", "links", "properties", "details", "activate", "deactivate"}
)
# Mermaid's keywords as its lexer finds them where a message's or a note's participant starts:
# whole words in any case, which a hyphen or an arrow after them ends (`end-user->>A` is `end`,
# then `-user`). Only after participant, actor, create, destroy and activate is a name read as
# written. `title` is one before a space (`title Service`); `link`, `links`, `properties` and
# `details` are since Mermaid 12 only before a space and a name's character (`Shop->>Link: x`
# and `Link-->>Shop` draw a lane called Link, as a declared one is drawn).
_KEYWORD_AT_NAME = re.compile(
    r"(?i:participant|actor|create|destroy|box|loop|rect|opt|alt|else|par_over|par|and"
    r"|critical|option|break|end|over|note|activate|deactivate|autonumber|off)(?![A-Za-z0-9_])"
    r"|(?i:title)(?=[ \t])|(?i:links|link|properties|details)(?=[ \t]+[^/\\+()<>:\n,;\s-])"
)
# What follows a lost or async arrow read inside a name: the message's own arrow after it.
_ARROW_IN_NAME = re.compile(rf"(?:{_ARROW})")
# What Mermaid's lexer reads as an arrow inside a name (a half arrow's pieces it does not),
# the longest first
_WHOLE_ARROW = re.compile(
    "|".join(re.escape(a).replace("x", "[xX]") for a in sorted(ARROWS, key=len, reverse=True))
)
_OTHER_SPACE = re.compile(r"[^\S\n \t]")  # whitespace but a newline, a space or a tab
_QUOTED = re.compile(r'"(?P<text>[^"]+)"')
# The words of a participant's `@{ … }` that is not YAML (`"type" "control"`), quoted or not
_CONFIG_WORD = re.compile(r'"([^"\n]+)"|([\w-]+)')
# `as` written glued to the alias after it, in a participant declaration: an alias that starts
# with a capital or a digit (`asAPI`), as no word that starts with "as" does (`assistant`)
_GLUED_AS = re.compile(r"(.*\S)[ \t]+as([A-Z0-9_]\S*)")
_NUMBER = re.compile(r"\d+(?:\.\d{1,2})?|\.\d{1,2}")  # Mermaid's lexer's: two decimals at most
# Mermaid's `#9829;`/`#quot;` escapes, a `#` that starts a comment, a `;` that ends a statement
_ENTITY = re.compile(r"#(\w+);")
# (a participant's `@{ … }` is read whole: a `#` or `;` in it is its own)
_ENTITY_COMMENT_OR_END = re.compile(r"@\{[^}]*\}|#\w+;|#|;")
# Mermaid skips `%%` to the end of the line where a statement would start, and after the
# words it reads as keywords and numbers (autonumber 10 5, end); in a text, `%%` is text. Its
# lexer's rule for it matches a single `%` too (`% Bootstrap …`, OpenBMC's designs), but for
# `%{` and a `%%{init}%%` directive.
_COMMENT_MARK = r"(?!%%\{)%%?(?!\{)"
_LINE_COMMENT = re.compile(rf"[ \t]*{_COMMENT_MARK}")
_KEYWORD_REMARK = re.compile(
    rf"(?P<code>(?i:autonumber|end)\b[^%]*?)[ \t]*{_COMMENT_MARK}(?P<remark>.*)"
)
_BREAK = re.compile(r"<br[ \t]*/?>", re.I)
# A statement whose colon is not a message's or a note's (`title: …`, `accTitle: …`)
_KEYWORD_TEXT = re.compile(r"[ \t]*(?i:title|acctitle|accdescr)\b")
_MATH = re.compile(r"\$\$.+?\$\$")  # a formula Mermaid typesets with KaTeX
_WRAP = re.compile(r":?(?:no)?wrap:")
_MERMAID = re.compile("mermaid", re.IGNORECASE)
_DIRECTIVE_OPTION = re.compile(r"[ \t]*:[\w-]+:(?:[ \t].*)?")
_ACCESSIBLE = re.compile(r"(?i)acc(?:title|descr)[ \t]*[:{]")
# A participant's `@{` whose `}` is on a line below (Mermaid reads `@{` there alone)
_CONFIG_OPENED = re.compile(
    r"(?i)[ \t]*(?:create[ \t]+)?(?:participant|actor)[ \t]+[^:;]*?@\{(?=[^}]*$)"
)
# The top-level title of a diagram's YAML front matter
_TOP_TITLE = re.compile(r"title[ \t]*:")


def detect(text: str) -> int:
    """100 for a Mermaid sequence diagram, 90 for a page holding one, 10 for a page whose
    directives name their diagrams' files, else 0."""
    text = normalise(text)
    lines = text.split("\n")
    start = _first_statement(lines, 0)
    if start < len(lines) and _HEADER.match(lines[start].strip()):
        return 100
    blocks = markdown_blocks(text)
    if any(is_sequence(block) for block in blocks):
        return ON_A_PAGE
    # a page whose directives name their diagrams' files: Mermaid's, when nothing else holds
    # a diagram there (the error says to import the files)
    return 10 if any(block.file for block in blocks) else 0


def _saved_from_swimlanes(text: str, filename: str | None, refused: VolleyError) -> Imported | None:
    """Text saved from swimlanes.io's editor, which starts as Mermaid's (`sequenceDiagram`)
    and goes on in swimlanes.io's syntax where Mermaid stops reading it (`if:` … `end`):
    read as swimlanes.io text, as its link would be. None when Mermaid stops at a line of
    its own syntax (a mistake in a Mermaid file is Mermaid's error), or the text does not
    read either way."""
    first = refused.errors[0]
    if not _SWIMLANES_LINE.match(first.source_line or ""):
        return None
    from volley.importers.swimlanes import mixed

    return mixed(text, filename or "<input>", refused)


def read_as_swimlanes(text: str, filename: str) -> tuple[str, Diagnostic] | None:
    """A swimlanes.io text under Mermaid's header (see `_saved_from_swimlanes`), with the
    header made a comment, and the warning that says so; None when Mermaid reads it whole or
    stops at a line of its own syntax."""
    try:
        _Reader(normalise(text).split("\n"), 0, filename).read()
    except VolleyError as exc:
        if _SWIMLANES_LINE.match(exc.errors[0].source_line or ""):
            from volley.importers.swimlanes import header_as_comment

            return header_as_comment(text, filename, exc)
    return None


def diagram_lines(text: str, filename: str | None = None) -> list[int]:
    """The line each ```mermaid sequence diagram of a page starts on, as its `Imported.line`
    gives it, whether it reads or not: a page of several tools' diagrams numbers them all."""
    blocks = markdown_blocks(normalise(text), filename)
    return [block.start + 1 for block in blocks if is_sequence(block)]


def convert(text: str, filename: str | None = None) -> list[Imported]:
    """Every sequence diagram in `text`: the file itself, or each ```mermaid block in it."""
    text = normalise(text)
    lines = text.split("\n")
    start = _first_statement(lines, 0)
    if start < len(lines) and _HEADER.match(lines[start].strip()):
        try:
            return [_Reader(lines, 0, filename).read()]
        except VolleyError as exc:
            mixed = _saved_from_swimlanes(text, filename, exc)
            if mixed is None:
                raise
            return [mixed]
    blocks = markdown_blocks(text, filename)
    found = [block for block in blocks if is_sequence(block)]  # as diagram_lines finds them
    files = [block for block in blocks if block.file]
    if not found and files:
        named = [(block.start, str(block.file)) for block in files]
        raise files_of_their_own("Mermaid", named, lines, filename)
    if not found:
        what = (
            "no ```mermaid block holds a sequenceDiagram"
            if blocks
            else "not a Mermaid sequence diagram: it does not start with sequenceDiagram and "
            "holds no ```mermaid block (nor .. mermaid:: directive)"
        )
        raise VolleyError(
            what,
            filename=filename,
            hint="a Mermaid file starts with sequenceDiagram; in Markdown, each diagram is a "
            "```mermaid block, in reStructuredText a .. mermaid:: directive",
        )
    diagrams: list[Imported] = []
    failed: list[VolleyError] = []
    for n, block in enumerate(found, start=1):
        page = [*lines[: block.start], *block.lines]  # the page's lines: errors name them
        reader = _Reader(page, block.start, filename, part_name(filename, n), block.directive)
        try:
            diagrams.append(reader.read())
        except VolleyError as exc:  # the page's other diagrams are read all the same
            failed.append(exc)
    skipped = tuple(
        file_of_its_own(block.start, str(block.file), lines, filename)
        if block.file
        else _left_out(block, lines, filename)
        for block in blocks
        if block not in found
    )
    return gathered(diagrams, failed, len(found), skipped)


# --- Markdown --------------------------------------------------------------------------------


@dataclass(frozen=True)
class FencedBlock:
    """A ```mermaid block: its body starts at line `start` (0-based) of the page, and `lines`
    are its lines as CommonMark reads them, each at its column in the page (a quote's `>`
    read as a space). A fenced block is a `directive`, whose first lines may be its MyST
    options (```{mermaid}, or ```mermaid read as that directive). A directive that names a
    `file` (`.. mermaid:: flow.mmd`, ```{mermaid} flow.mmd) draws that file, not its lines."""

    start: int
    lines: tuple[str, ...]
    directive: bool = False
    file: str | None = None


def markdown_blocks(text: str, filename: str | None = None) -> list[FencedBlock]:
    """Every fenced block whose info string is `mermaid`, in page order, as CommonMark reads
    the page (an unclosed one runs to the end of its container). Sphinx (MyST) and Quarto
    pages write ```{mermaid}, pandoc's ```{.mermaid caption="…"}; MyST puts the directive's
    options (`:align: center`, `:caption: …`) at its top, before the diagram, and so does a
    plain ```mermaid fence on a site that reads it as that directive."""
    text = normalise(text)
    if not _MERMAID.search(text):  # not a page with a diagram (a HAR capture, a trace)
        return []
    page = text.split("\n")
    markdown = _is_markdown(page, filename)
    fences = superfences(text) if markdown else page_fences(text)
    # each fence with the page line its container's content starts on (0: the page's own);
    # in MkDocs' admonitions and tabs too, as superfences reads them
    placed = [(0, fence) for fence in fences] + (list(container_fences(page)) if markdown else [])
    fenced = [
        FencedBlock(
            start + fence.start + 1,
            tuple(map(_in_place, page[start + fence.start + 1 :], fence.body)),
            directive=True,  # no diagram starts with `:zoom:`: it is an option wherever it is
            file=_myst_file(fence.info),
        )
        for start, fence in placed
        if fence_attrs(fence.info)[0].lower() == "mermaid"
    ]
    inside = {line for fence in fences for line in range(fence.start, fence.end)}
    directives = _directive_blocks(page, inside, markdown)
    return sorted(
        [*fenced, *_delimited_blocks(page, inside), *_template_blocks(page, inside), *directives],
        key=lambda block: block.start,
    )


# Other ways pages hold a diagram, each an opening line and a closing one: Azure DevOps wikis'
# `::: mermaid` … `:::`; Hugo's shortcode (Relearn, Learn, geekdoc, Docsy) `{{< mermaid >}}` …
# `{{< /mermaid >}}`, or with `%`; and HTML, `<div class="mermaid">` or `<pre class="mermaid">`
# … `</div>`/`</pre>`, whose text mermaid.js reads with its character references decoded.
_DELIMITED = (
    (re.compile(r"[ \t]*:::[ \t]*mermaid[ \t]*$", re.I), re.compile(r"[ \t]*:::[ \t]*$"), False),
    (
        re.compile(
            r"[ \t]*\{\{(?:<[ \t]*mermaid\b[^\n]*?>|%[ \t]*mermaid\b[^\n]*?%)\}\}[ \t]*$", re.I
        ),
        re.compile(r"[ \t]*\{\{[<%][ \t]*/mermaid[ \t]*[>%]\}\}[ \t]*$", re.I),
        False,
    ),
    (
        # `mermaid` one of its classes (not `mermaid-wrapper`); the closing tag may end the
        # diagram's last line
        re.compile(
            r"""[ \t]*<(?:div|pre)\b[^>\n]*\bclass=(?:"(?:[^"\n]*[ \t])?mermaid(?=[ \t"])"""
            r"""|'(?:[^'\n]*[ \t])?mermaid(?=[ \t'])|mermaid(?=[ \t>]))[^>\n]*>[ \t]*$""",
            re.I,
        ),
        re.compile(r".*</(?:div|pre)>[ \t]*$", re.I),
        True,
    ),
)


def _delimited_blocks(page: list[str], inside: set[int]) -> list[FencedBlock]:
    """Each diagram a page holds between an opening and a closing line (`_DELIMITED`) that is
    not inside a code block (a page showing the syntax); one never closed runs to the end of
    the page."""
    blocks = []
    index = 0
    while index < len(page):
        found = (
            None
            if index in inside
            else next((each for each in _DELIMITED if each[0].match(page[index])), None)
        )
        if found is None:
            index += 1
            continue
        _, closing, markup = found
        end = next((j for j in range(index + 1, len(page)) if closing.match(page[j])), len(page))
        lines = page[index + 1 : end]
        if markup:
            last = page[end] if end < len(page) else ""
            before = last[: last.lower().rfind("</")]
            lines = [
                html.unescape(line) for line in [*lines, *([before] if before.strip() else [])]
            ]
        blocks.append(FencedBlock(index + 1, tuple(lines)))
        index = end + 1
    return blocks


# An MDX page's component given the diagram as a JavaScript template literal: `<Mermaid
# graph={`sequenceDiagram` … `}/>`, as Starlight's and Docusaurus' sites write it (the
# attribute's name is the component's own: graph, chart, code …)
_TEMPLATE_OPENING = re.compile(r"=[ \t]*\{[ \t]*`")  # `_opens_with_a_sequence` says whose
_TEMPLATE_END = re.compile(r"(?<!\\)`")  # a backtick not escaped


def _template_blocks(page: list[str], inside: set[int]) -> list[FencedBlock]:
    """Each sequence diagram a page holds in a JSX attribute's template literal, outside the
    page's code blocks: from after its opening backtick to before its closing one, each line
    at its column in the page; one never closed runs to the end of the page."""
    blocks = []
    index = 0
    while index < len(page):
        found = None if index in inside else _TEMPLATE_OPENING.search(page[index])
        if found is None or not _opens_with_a_sequence(page, index, found.end()):
            index += 1
            continue
        lines, end, _ = read_to_close(page, index, found.end(), _TEMPLATE_END)
        # JavaScript's escapes of a backtick and a backslash, as the component receives them
        text = (line.replace("\\`", "`").replace("\\\\", "\\") for line in lines)
        blocks.append(FencedBlock(index, tuple(text)))
        index = end + 1
    return blocks


def _opens_with_a_sequence(page: list[str], index: int, after: int) -> bool:
    """Whether the template literal opened at `after` on line `index` starts with a sequence
    diagram's header, on its line or the next that holds anything."""
    rest = page[index][after:].strip()
    if rest:
        return rest.startswith("sequenceDiagram")
    following = (line.strip() for line in page[index + 1 :] if line.strip())
    return next(following, "").startswith("sequenceDiagram")


# reStructuredText's directive (sphinxcontrib-mermaid): `.. mermaid::`, its options (`:alt:`,
# `:zoom:`) on the lines after it, then the diagram, indented under it. With a file named after
# the `::` the diagram is that file, which is imported on its own.
_RST_DIRECTIVE = re.compile(
    r"(?P<indent>[ \t]*)\.\.[ \t]+mermaid::[ \t]*(?P<file>\S(?:.*\S)?)?[ \t]*$", re.I
)
# MyST's directive naming its file: ```{mermaid} flow.mmd
_MYST_FILE = re.compile(r"\{mermaid\}[ \t]+(?P<file>\S(?:.*\S)?)", re.I)


def _myst_file(info: str) -> str | None:
    """The file a MyST fence's directive draws (```{mermaid} flow.mmd), if it names one."""
    found = _MYST_FILE.match(info.strip())
    return found["file"] if found else None


# Where a directive is shown rather than run: a literal block (a paragraph ending `::`, not a
# directive's own `::`) or a directive that shows code.
_RST_ANY_DIRECTIVE = re.compile(r"[ \t]*\.\.[ \t]+[\w:.+-]+::")
_RST_CODE = re.compile(r"[ \t]*\.\.[ \t]+(?:code-block|code|sourcecode|parsed-literal)::", re.I)


# What only Markdown writes: a heading (`## Setup`), a fence, a link (`[docs](url)`).
_MARKDOWN_SIGN = re.compile(r"#{1,6}[ \t]|```|~~~|.*\]\(")


def _is_markdown(page: list[str], filename: str | None) -> bool:
    """Whether the page is Markdown rather than reStructuredText: by its file's name, else by
    its text (Markdown's headings, fences or links, and no directive at the left edge)."""
    suffix = os.path.splitext(filename or "")[1].lower()
    if suffix in (".rst", ".rest", ".txt"):
        return False
    if suffix in MARKDOWN_SUFFIXES:
        return True
    if any(_RST_ANY_DIRECTIVE.match(line) and not line[:1].isspace() for line in page):
        return False
    return any(_MARKDOWN_SIGN.match(line) for line in page)


def _directive_blocks(page: list[str], inside: set[int], markdown: bool) -> list[FencedBlock]:
    """Each `.. mermaid::` directive of a reStructuredText page: its body is every line after
    it that is blank or indented deeper than the directive, as docutils reads it. One shown as
    code (a page showing the syntax) is text, not a diagram."""
    blocks = []
    shown = _ShownAsCode(page, markdown)
    for index, line in enumerate(page):
        found = _RST_DIRECTIVE.match(line)
        if found is None or index in inside or shown(index):
            continue
        indent = _indentation(found["indent"])
        end = index + 1
        while end < len(page) and (not page[end].strip() or _indentation(page[end]) > indent):
            end += 1
        while end > index + 1 and not page[end - 1].strip():
            end -= 1
        blocks.append(
            FencedBlock(index + 1, tuple(page[index + 1 : end]), directive=True, file=found["file"])
        )
    return blocks


def _indentation(line: str) -> int:
    """The column a line's text starts at, tabs to the next multiple of 8 (as docutils)."""
    return len(line.expandtabs(8)) - len(line.expandtabs(8).lstrip())


class _ShownAsCode:
    """Whether an indented directive is shown rather than run. The nearest line above it that
    is indented less says so: a code directive or a literal block (a paragraph ending `::`)
    shows it, another directive (a tab, an admonition) holds it to be run. Under a plain
    paragraph, reStructuredText quotes it and runs it, while a Markdown page indents a block
    four columns to show it as code: on a Markdown page it is code if Markdown reads an
    indented code block there."""

    def __init__(self, page: list[str], markdown: bool) -> None:
        self.page = page
        self.markdown = markdown
        self._markdown_code: set[int] | None = None

    def __call__(self, index: int) -> bool:
        indent = _indentation(self.page[index])
        for above in reversed(self.page[:index]):
            if above.strip() and _indentation(above) < indent:
                if _RST_CODE.match(above):
                    return True
                if _RST_ANY_DIRECTIVE.match(above):
                    return False
                if above.rstrip().endswith("::"):
                    return True
                return self.markdown and index in self._markdown()
        return False

    def _markdown(self) -> set[int]:
        if self._markdown_code is None:
            self._markdown_code = indented_code_lines("\n".join(self.page))
        return self._markdown_code


def _in_place(written: str, content: str) -> str:
    """A body line where the page has it: what its containers took off (a quote's `>`, a list
    item's indentation) as spaces, so that an error's column is the page's."""
    if not written.endswith(content):
        return content  # a tab the containers split: the line as CommonMark reads it
    return " " * (len(written) - len(content)) + content


def is_sequence(block: FencedBlock) -> bool:
    """Whether a ```mermaid block holds a sequence diagram (not a flowchart, a class diagram…)."""
    start = _first_statement(list(block.lines), 0, block.directive)
    return start < len(block.lines) and bool(_HEADER.match(block.lines[start].strip()))


def _first_column(line: str) -> int:
    """Where a line's text starts, for a caret under its first word."""
    return len(line) - len(line.lstrip()) + 1


def _left_out(block: FencedBlock, page: list[str], filename: str | None) -> Diagnostic:
    """The warning for a block that holds another kind of diagram, at the line that says which
    kind (`flowchart LR`), past its front matter and comments."""
    first = _first_statement(list(block.lines), 0, block.directive)
    at = block.start + (first if first < len(block.lines) else 0)
    shown = page[at] if at < len(page) else ""
    return Diagnostic(
        "this Mermaid diagram is not a sequenceDiagram; it was left out",
        filename=filename,
        line=at + 1,
        column=_first_column(shown),
        source_line=shown,
        severity="warning",
    )


def _first_statement(lines: list[str], start: int, directive: bool = False) -> int:
    """The index of the first line that is not blank, a comment, a directive or front matter
    (nor, in a ```{mermaid} block, one of the directive's options)."""
    index = start
    while directive and index < len(lines) and _DIRECTIVE_OPTION.fullmatch(lines[index]):
        index += 1
    if index < len(lines) and lines[index].strip() == "---":
        index += 1
        while index < len(lines) and lines[index].strip() != "---":
            index += 1
        index += 1
    while index < len(lines) and (not lines[index].strip() or _commented(lines[index])):
        index = _comment_end(lines, index)
    return index


def _commented(line: str) -> bool:
    """Whether a line is a comment (`%%`, or one `%`) or a `%%{init: …}%%` directive."""
    return line.lstrip().startswith("%%") or _LINE_COMMENT.match(line) is not None


def _comment_end(lines: list[str], index: int) -> int:
    """The index after the `%%` comment at `index`: one line, or a `%%{init: …}%%` directive."""
    return mermaid_directive(lines, index) or index + 1


# --- reading one diagram ---------------------------------------------------------------------


# A box's colour as Mermaid reads it: a colour function runs to the last ")" of the line.
_GREEDY_COLOUR = re.compile(r"[ \t]*((?:rgba?|hsla?)[ \t]*\(.*\))")


@dataclass
class _Open:
    """A block, or a box (which holds participants, not items), waiting for its `end`."""

    keyword: str
    line: int
    block: Block | None = None
    text: str = ""  # a box's colour and label, as written
    members: list[str] = field(default_factory=list)  # the participants declared in a box
    refused: bool = False  # a box that held something else, said once


@dataclass
class _Reader:
    lines: list[str]  # the page, up to the diagram's end
    start: int  # index of the diagram's first line
    filename: str | None
    name: str | None = None
    directive: bool = False  # a ```{mermaid} block: MyST options may come first
    diagram: Diagram = field(default_factory=Diagram)
    comments: list[Comment] = field(default_factory=list)
    stack: list[_Open] = field(default_factory=list)
    deeper: int = 0  # blocks open past the deepest volley reads (their lines read as around them)
    lanes: Lanes = field(default_factory=Lanes)
    # the lanes in Mermaid's order: where a statement that declares one first names it (an
    # `activate` does not declare its participant)
    declared: dict[str, None] = field(default_factory=dict)
    notes: list[tuple[Note, list[str]]] = field(default_factory=list)
    boxed: dict[str, _Open] = field(default_factory=dict)  # a participant -> its box
    # Mermaid counts every message from 1, shown or not; `autonumber` shows the count
    count: int = 1
    step: int = 1
    numbered: bool = False
    # `showSequenceNumbers` in the configuration: every number is drawn, `autonumber off` or not
    always_numbered: bool = False
    # the activations each participant has open, in the order of the source: the message that
    # started each (`->>+`), or its `activate` line and the items it stands among
    active: dict[str, list[Message | tuple[Activation, list[Item]]]] = field(default_factory=dict)
    headless: list[int] = field(default_factory=list)
    approximated: set[int] = field(default_factory=set)  # lines drawn otherwise, commented
    warnings: list[Diagnostic] = field(default_factory=list)  # what Mermaid itself refuses
    # a participant just created or destroyed, with its line and statement: Mermaid wants the
    # next message to be the one that creates (goes to) or destroys (comes from or goes to) it
    created: tuple[str, int, str] | None = None
    destroyed: tuple[str, int, str] | None = None
    # an actor's stick figure, said in a comment, until a later `participant` line makes it
    # a box (its line, the comment)
    figures: dict[str, tuple[int, Comment]] = field(default_factory=dict)
    # errors said while the statement goes on being read (so that its block still opens and
    # its `end` closes that, not the box around it)
    told: list[VolleyError] = field(default_factory=list)

    def read(self) -> Imported:
        index = self.start
        while self.directive and index < len(self.lines):
            option = self.lines[index]
            if not _DIRECTIVE_OPTION.fullmatch(option):
                break
            self.comment(0, f"{option.strip()} (an option of the mermaid directive)", raw=True)
            index += 1
        index = self._front_matter(index)
        header_seen = False
        errors: list[VolleyError] = []  # every statement's, as Mermaid's editor lists them
        while index < len(self.lines):
            raw = self.lines[index]
            index += 1
            stripped = raw.strip()
            if not stripped:
                continue
            one_percent = _LINE_COMMENT.match(stripped) and stripped[:2] != "%%"
            if one_percent and not header_seen and not self.warnings:  # (the first one only)
                # Mermaid finds a diagram's kind past `%%` lines only
                self.warnings.append(
                    Diagnostic(
                        "Mermaid draws nothing of this diagram: a comment of one % before "
                        "sequenceDiagram keeps it from telling what kind of diagram this is "
                        "(volley reads it as a comment)",
                        filename=self.filename,
                        line=index,
                        column=_first_column(raw),
                        source_line=raw,
                        severity="warning",
                        hint="write %% to start a comment there",
                    )
                )
            if _commented(stripped):  # above the header: about the whole diagram
                end = _comment_end(self.lines, index - 1)
                directive = stripped.startswith("%%{")  # `%%{init: …}%%`: kept whole, as Mermaid's
                for line in range(index - 1, end):
                    text = self.lines[line].strip()
                    if directive and SHOWS_NUMBERS.search(text):
                        self.numbered = self.always_numbered = True  # for the whole diagram
                    first = line == index - 1
                    if first and not directive:
                        text = _LINE_COMMENT.sub("", text, count=1).strip()  # its words
                    self.comment(index if header_seen else 0, text, raw=not (first and directive))
                if directive:  # (written at the top, but Mermaid's setting is not volley's)
                    self.approximated.add(index)
                index = end
                continue
            if not header_seen:
                header = _HEADER.match(stripped)
                if header is None:
                    self.fail(index, raw, "expected sequenceDiagram as the first line")
                header_seen = True
                if header.group(1).strip():
                    self.statements(index, raw, header.group(1))
                continue
            accessible = _ACCESSIBLE.match(stripped)
            # Mermaid skips any space before accDescr's `{`, a line's end too
            braced = (accessible is not None and accessible[0].endswith("{")) or (
                stripped.lower() == "accdescr"
                and self.lines[index : index + 1] != []
                and self.lines[index].strip()[:1] == "{"
            )
            if accessible or braced:  # its text runs to the end of the line, or to `}`
                end = index
                if braced and "}" not in stripped:
                    while end < len(self.lines) and "}" not in self.lines[end - 1]:
                        end += 1
                for line in range(index, end + 1):
                    self.comment(index, self.lines[line - 1].strip(), raw=line > index)
                index = end
                continue
            try:
                config = _CONFIG_OPENED.match(raw)
                if config is not None:  # `participant API@{` and its config on the lines below
                    index = self.config_lines(index, raw, config.end() - 2)
                    continue
                self.statements(index, raw, raw)
            except VolleyError as exc:
                errors.append(exc)
        failed = {error.line for error in errors}  # a line's own error says enough of it
        told = [error for error in self.told if error.line not in failed]
        if errors or told:
            raise VolleyErrors(sorted([*errors, *told], key=lambda e: (e.line, e.column)))
        if self.stack:
            opened = self.stack[-1]
            written = self.lines[opened.line - 1]
            message = _MESSAGE.fullmatch(written.strip())
            hint = None
            if message is not None and message["text"] is not None:  # `Loop Service->>A: x`
                article = "an" if opened.keyword[0] in "aeiou" else "a"
                hint = (
                    f"Mermaid reads this line as {article} {opened.keyword}, not as a message from "
                    f"{message['sender'].strip()!r}: rename the participant so that its name does "
                    f"not start with {opened.keyword!r}"
                )
            self.fail(
                opened.line,
                written,
                f"this {opened.keyword} is never closed; expected end",
                hint=hint,
            )
        self.finish()
        warnings = (*self.warnings, *self.drawn_differently())
        return Imported(self.text(), self.name, self.start + 1, warnings=warnings)

    def config_lines(self, index: int, raw: str, opened: int) -> int:
        """A participant whose `@{ … }` runs over several lines (YAML, up to the first `}`),
        read as the one line it stands for; the index of the line after it."""
        end = index
        while end < len(self.lines) and "}" not in self.lines[end]:
            end += 1
        if end == len(self.lines):
            self.fail(index, raw, "expected } to close this participant's @{", opened + 1)
        closer = self.lines[end].index("}")
        block = [raw[opened + 2 :], *self.lines[index:end], self.lines[end][:closer]]
        inner = json.dumps(self.metadata(index, raw, "\n".join(block)), ensure_ascii=False)
        one_line = f"{raw[:opened]}@{{ {inner[1:-1]} }}{self.lines[end][closer + 1 :]}"
        self.statements(index, raw, one_line)
        return end + 1

    def metadata(self, line: int, raw: str, config: str) -> dict:
        """A participant's `@{ … }`, read as Mermaid reads it: YAML, the braces' content as a
        mapping when it is on one line."""
        try:
            return _mapping(config + "\n" if "\n" in config else "{\n" + config + "\n}")
        except yaml.YAMLError as exc:
            words = [quoted or bare for quoted, bare in _CONFIG_WORD.findall(config)]
            # each key with the word after it (a last word alone has no value to pair)
            pairs = list(zip(words[::2], words[1::2], strict=False)) or [("type", "database")]
            written = ", ".join(f'"{key}": "{value}"' for key, value in pairs)
            self.fail(
                line,
                raw,
                f"this participant's @{{…}} is not YAML that Mermaid reads: {_problem(exc)}",
                raw.find("@{") + 1,
                f"Mermaid refuses it too; write it as @{{ {written} }}",
            )

    def drawn_differently(self) -> tuple[Diagnostic, ...]:
        """The note on statements volley draws otherwise than Mermaid (a box, an arrow
        without a head), or not at all."""
        lines = sorted(line for line in self.approximated | set(self.headless) if line > 0)
        return drawn_differently("Mermaid", lines, self.filename)

    def _front_matter(self, index: int) -> int:
        """YAML front matter (`---` … `---`), read as YAML, as Mermaid reads it: its top-level
        `title:` is the diagram's title, `config: sequence: showSequenceNumbers: true` numbers
        the messages, and every other line is kept as a comment."""
        if index >= len(self.lines) or self.lines[index].strip() != "---":
            return index
        indent = len(self.lines[index]) - len(self.lines[index].lstrip())
        end = index + 1
        while end < len(self.lines) and self.lines[end].strip() != "---":
            end += 1
        block = [line[indent:] for line in self.lines[index + 1 : end]]
        try:
            data = _mapping("\n".join(block))
        except yaml.YAMLError as exc:
            mark = getattr(exc, "problem_mark", None)
            at = min(index + 1 + (mark.line if mark is not None else 0), end - 1)
            self.fail(
                at + 1,
                self.lines[at],
                f"the front matter is not YAML that Mermaid reads: {_problem(exc)}",
                hint="Mermaid refuses the diagram too; fix the YAML, or take the front matter away",
            )
        title = data.get("title")
        if isinstance(title, (str, int, float)) and str(title).strip():
            self.diagram.title = _plain(str(title).strip())
        config = data.get("config")
        sequence = config.get("sequence") if isinstance(config, dict) else None
        if isinstance(sequence, dict) and sequence.get("showSequenceNumbers") is True:
            self.numbered = self.always_numbered = True  # for the whole diagram
        kept = False
        for at in range(index + 1, end):
            line = self.lines[at]
            if self.diagram.title is not None and _TOP_TITLE.match(line[indent:]):
                self.diagram.title_line = at + 1
                if " #" in line and "#" not in self.diagram.title:  # `title: Order #1`
                    said = f"Mermaid: {line.strip()} (YAML reads from ' #' on as a comment)"
                    self.comment(at + 1, said, raw=True)  # as Mermaid shows it
            elif line.strip():
                if not kept:  # the YAML as written, its nesting kept
                    self.comment(0, "front matter:")
                    kept = True
                self.comment(0, f"   {line.rstrip()[indent:]}", raw=True)
                self.approximated.add(at + 1)  # a setting volley does not read
        return end + 1

    # --- errors and comments ---

    def fail(
        self, line: int, raw: str, message: str, column: int = 0, hint: str | None = None
    ) -> NoReturn:
        raise self.located(line, raw, message, column, hint)

    def located(
        self, line: int, raw: str, message: str, column: int = 0, hint: str | None = None
    ) -> VolleyError:
        """An error at `line` of the page (`raw`), at `column` or where its text starts."""
        return VolleyError(
            message,
            filename=self.filename,
            line=line,
            column=column or _first_column(raw),
            source_line=raw,
            hint=hint,
        )

    def comment(self, line: int, text: str, raw: bool = False) -> None:
        """A `//` comment before whatever comes from `line` on."""
        if not raw:
            text = f"Mermaid: {text}"
            self.approximated.add(line)
        self.comments.append(Comment(line, f" {text}" if text else ""))

    # --- statements ---

    def statements(self, line: int, raw: str, text: str) -> None:
        """One source line; Mermaid also ends a statement at `;` (`#59;` is a semicolon), and
        reads the rest of a line from a `#` that starts no escape as a comment."""
        parts, comment, remark = _statements(text)
        if comment is not None:
            self.comment(line, f"{comment} (Mermaid reads a line from # on as a comment)")
        if remark is not None:
            self.comment(line, remark, raw=True)
        for index, part in enumerate(parts):
            cut = "#" if comment is not None and index == len(parts) - 1 else ""
            if part.strip():
                self.statement(line, raw, part.strip(), ";" if index else cut)

    def statement(self, line: int, raw: str, text: str, cut: str = "") -> None:
        """One statement; `cut` is ";" for one that follows a `;` on its line, "#" for one
        that a comment cut short (which a mistake in it may owe to that)."""
        # Mermaid's lexer skips any whitespace between words (JavaScript's `\s`: a no-break
        # space pasted from a web page, an ideographic space typed in a CJK input method); the
        # text after a colon is the message's or note's, kept as written
        head, colon, words = text.partition(":")
        text = _OTHER_SPACE.sub(" ", head) + colon + words
        for formula in _MATH.findall(text):  # KaTeX, since Mermaid 10.9
            self.comment(
                line, f"{formula} (Mermaid typesets it as math; volley shows it as written)"
            )
        # a message's or note's words, where volley reads formatting tags (see _styled)
        if colon and not _KEYWORD_TEXT.match(head) and (tag := _FORMAT_TAG.search(words)):
            self.comment(line, f"{tag.group()} (Mermaid shows the tags as text; volley does not)")
        remark = _KEYWORD_REMARK.fullmatch(text)
        if remark is not None:  # `autonumber 10 %% …`, `end %% …`: the rest is a comment
            self.comment(line, remark["remark"].strip(), raw=True)
            text = remark["code"]
        if self.stack and self.stack[-1].keyword == "box":
            self.in_box(line, raw, text)
        note = _NOTE.fullmatch(text)
        if note is not None:
            self.note(line, raw, note)
            return
        word = _WORD.fullmatch(text)
        keyword = word["word"].lower() if word else ""
        rest = (word["rest"] or "").strip() if word else ""
        if word is not None:  # Mermaid reads its keywords first, whatever follows them
            handler = {
                "participant": self.participant,
                "actor": self.participant,
                "create": self.create,
                "destroy": self.destroy,
                "activate": self.activation,
                "deactivate": self.activation,
                "autonumber": self.autonumber,
                "title": self.title,
                "end": self.end,
                "box": self.box,
                "link": self.menu,
                "links": self.menu,
                "properties": self.menu,
                "details": self.menu,
            }.get(keyword)
            if handler is not None:
                message = _MESSAGE.fullmatch(text)
                if keyword in _NO_ARROWS and message is not None and not _declares(rest):
                    self.keyword_name(line, raw, message["sender"].strip(), "sender")
                handler(line, raw, keyword, rest, text)
                return
            if keyword in BLOCKS:
                self.open_block(line, raw, keyword, rest)
                return
            if keyword in BRANCHES:
                self.branch(line, raw, keyword, rest)
                return
        if text.lower().startswith("title:") or _ACCESSIBLE.match(text):
            if text.lower().startswith("title:"):
                self.title(line, raw, "title", text[6:].strip(), text)
            else:
                self.unsupported(line, raw, keyword, rest, text)
            return
        message = _MESSAGE.fullmatch(text)
        if message is not None and message["text"] is not None:
            self.message(line, raw, message)
            return
        column = raw.find(text) + 1 if text in raw else 0
        what = f"not a Mermaid sequence statement: {text!r}"
        hint = None
        if message is not None:  # Mermaid wants the colon, even before no text (`A->>B:`)
            what = f"expected ':' and the message's text after {text!r}"
            if "\uff1a" in text:  # `A->>B：text`, as a Chinese or Japanese keyboard types it
                column = raw.find("\uff1a") + 1
                what = "a full-width colon '：' does not start a message's text"
                hint = "write a plain ':' before the text"
        elif word is not None and word["word"].lower() in _OTHER_DIAGRAMS:
            what = (
                f"{word['word']} is a statement of Mermaid's flowcharts and class diagrams, not "
                "of a sequence diagram (Mermaid refuses it here too)"
            )
            hint = "leave the line out"
        elif (backwards := _BACKWARDS.fullmatch(text)) is not None:
            shaft = "-->>" if backwards["shaft"].startswith("--") else "->>"
            turned = f"{backwards['sender'].strip()}{shaft}{backwards['receiver'].strip()}"
            hint = f"Mermaid's arrows point right: write {turned}:{backwards['text']}"
        hint = hint or {
            ";": "Mermaid ends a statement at ';', so this text after one is read as a "
            "statement of its own; write #59; for a semicolon inside text",
            "#": "Mermaid reads a line from a '#' on as a comment, so this statement ends "
            "there; write #35; for a # inside a name or text",
        }.get(
            cut,
            "expected a message (A->>B: text), a note, participant, activate, "
            "loop/alt/opt/par/critical/break/rect … end, autonumber, title or a %% comment",
        )
        self.fail(line, raw, what, column, hint)

    def keyword_name(self, line: int, raw: str, name: str, role: str) -> None:
        """A participant whose name starts with one of Mermaid's keywords, where Mermaid's
        lexer reads the keyword (`Create Order Service->>Shop`, `Link-->>DOM`,
        `CDN->>End User`, `Note over Box: …`): Mermaid reads the keyword's statement there and
        refuses the line, so no message or note is drawn from it here either."""
        word = _KEYWORD_AT_NAME.match(name)[0]  # type: ignore[index]
        self.fail(
            line,
            raw,
            f'"{word}" starts Mermaid\'s {word.lower()} statement at the start of the {role} '
            f"{name!r}, as Mermaid reads this line (Mermaid refuses it)",
            raw.find(name) + 1 if name in raw else 0,
            f"rename the participant so that its name does not start with {word.lower()!r} "
            f"(participant X as {name} keeps the words shown)",
        )

    def add(self, item: Item) -> None:
        self.items().append(item)

    def items(self) -> list[Item]:
        """Where the next item goes: the open block's last branch (a box holds participants,
        and leaves any other item in it to whatever holds the box), else the diagram."""
        for opened in reversed(self.stack):
            if opened.block is not None:
                return opened.block.branches[-1].items
        return self.diagram.items

    def use(self, line: int, raw: str, name: str, declares: bool = True) -> str:
        """The lane of the participant `name`; one that `declares` stands where Mermaid
        puts a participant first named there."""
        if "<" in name or ">" in name:  # Mermaid refuses these too
            where = raw.find(name.strip()) + 1 if name.strip() in raw else 0
            self.fail(
                line,
                raw,
                f"a Mermaid participant name cannot hold < or >: {name.strip()!r}",
                where,
                # `A<-->B`: the `<` of an arrow Mermaid does not have
                "Mermaid's arrows with a head at both ends are <<->> and <<-->>"
                if name.strip().endswith("<")
                else "for a label with a line break, write participant A as First line<br/>Second",
            )
        name = _decode(name).strip()
        cut = COMMENT_AFTER_NAME.search(name)
        if cut is not None:  # `participant API %% the gateway`: what its author meant
            self.comment(
                line,
                f'"{name[cut.start(1) :]}" after {name[: cut.start()]} is kept as a comment; '
                "Mermaid makes it part of the name",
            )
            name = name[: cut.start()]
        if not name:
            self.fail(line, raw, "expected a participant name")
        lane, new = self.lanes.name(name)
        shown_so = [other for other, label in self.diagram.labels.items() if label == name]
        if new and shown_so:  # `participant Пользователь as U`, then `U->>C`: another lane
            self.comment(
                line,
                f"Mermaid: {name} here is a participant of its own; {shown_so[0]} is only "
                f"shown as {name} (a message to it names {shown_so[0]})",
                raw=True,
            )
        if new and lane != name:  # `B←C`, `-x`: a name volley writes otherwise, shown as it is
            if is_volley_label(name):
                self.diagram.labels[lane] = name
            else:
                self.comment(line, f"{lane} is {name} in Mermaid")
        if declares:
            self.declared.setdefault(lane)
            self.diagram.declared_lines.setdefault(lane, line)
        return lane

    def participant(self, line: int, raw: str, keyword: str, rest: str, text: str) -> str:
        """Declare a participant (its label, its place in a box); the name it goes by."""
        found = _PARTICIPANT.fullmatch(rest)
        if not rest or found is None:
            self.fail(line, raw, f"expected a name after {keyword}")
        if "@{" in rest and not found["config"]:
            self.fail(line, raw, "expected } to close this participant's @{", raw.find("@{") + 1)
        written, alias = found["name"], found["alias"]
        message = _MESSAGE.fullmatch(text)
        if not alias and message is not None:  # `Actor Service->>B: …` (a label may hold an
            self.keyword_name(line, raw, message["sender"].strip(), "sender")  # `as A -> B`)
        quoted = _QUOTED.fullmatch(written.strip())
        commented = COMMENT_AFTER_NAME.search(written)  # `participant A %% a: b`, kept below
        if ":" in written[: commented.start() if commented else None] and not quoted:
            before, _, after = written.partition(":")  # Mermaid refuses it too
            glued = _GLUED_AS.fullmatch(before.strip())  # `participant A asAlias: …`
            self.fail(
                line,
                raw,
                f"a Mermaid participant name cannot hold a colon: {written.strip()!r}",
                raw.find(":") + 1,
                f'put a space after "as": "{keyword} {glued[1]} as {glued[2]}"'
                if glued
                else f'for a label, write "{keyword} {before.strip()} as {after.strip()}"',
            )
        if quoted and alias:
            # `participant "Internet User" as IU` is PlantUML's order (Mermaid would draw a lane
            # called "Internet User", with its quotes, beside the IU of the messages), and
            # `"User" as "用户"` quotes both: read as what was meant
            alias_quoted = _QUOTED.fullmatch(alias.strip())
            written, alias = (
                (quoted["text"], alias_quoted["text"])
                if alias_quoted
                else (alias.strip(), quoted["text"])
            )
            self.comment(line, f"{text} (read as: participant {written} as {alias})")
        if alias and not quoted and " " in written.strip():
            self.comment(  # Mermaid's pull request 7055, in 11.13
                line,
                f"{text} (Mermaid 11.13 and later take all of it as the name, and draw the "
                f"messages' {written.strip()} as a lane of its own; volley reads it as "
                "Mermaid did before)",
            )
        name = self.use(line, raw, written)
        if self.stack and self.stack[-1].keyword == "box":
            box = self.stack[-1]
            other = self.boxed.setdefault(name, box)
            if other is not box:  # Mermaid refuses it too
                self.fail(
                    line,
                    raw,
                    f"{name} is in the box on line {other.line} already; a participant stands "
                    "in one box",
                )
            if name not in box.members:  # declared twice in one box: it stands there once
                box.members.append(name)
        if found["config"]:  # `@{ "alias": "Public API" }`; an `as` comes first
            said = self.metadata(line, raw, found["config"]).get("alias")
            alias = alias or (str(said) if isinstance(said, (str, int, float)) else None)
        if alias:
            # a participant's label is plain text in volley too: nothing to escape
            alias = _WRAP.sub("", alias.strip(), count=1)
            parts = [_decode(part).strip() for part in _BREAK.split(alias)]
            # a lane's lines, as in Mermaid; a `<br>` written `#lt;br#gt;` is text
            # (`<br><br>` an empty line between two, none at either end)
            label = display_label(trimmed(parts))
            written = volley_label(label)  # an arrow in it would start a message
            if written is None:
                self.comment(
                    line,
                    f"{name} as {alias} (volley would not read this label back as written; "
                    f"the lane shows {name})",
                )
            else:
                self.diagram.labels[name] = written
                if written != label:
                    self.comment(line, f"{name} as {alias} (its arrow drawn with look-alikes)")
        if keyword == "actor" and not text.startswith(("create", "Create")):
            self.comment(line, f"actor {name} (volley draws every participant as a box)")
            self.figures[name] = (line, self.comments[-1])
        elif keyword == "participant" and name in self.figures:  # the last declaration wins:
            drawn, said = self.figures.pop(name)  # Mermaid draws a box too, as volley does
            self.comments.remove(said)
            if all(comment.line != drawn for comment in self.comments):  # nothing else on it
                self.approximated.discard(drawn)
        if found["config"]:
            self.comment(line, f"{name}@{{{found['config']}}}")
        return name

    def create(self, line: int, raw: str, keyword: str, rest: str, text: str) -> None:
        self.comment(line, text)
        inner = _WORD.fullmatch(rest)
        if inner and inner["word"].lower() in ("participant", "actor"):
            word, named = inner["word"].lower(), (inner["rest"] or "").strip()
            known = len(self.lanes.names)
            name = self.participant(line, raw, word, named, text)
            if len(self.lanes.names) == known:  # the name took part before
                self.fail(
                    line,
                    raw,
                    "this creates a participant that is already in the diagram (Mermaid "
                    "refuses this too: no two participants may have the same name)",
                    hint="give the created one a name of its own, or take the create away",
                )
            self.created = (name, line, text)

    def destroy(self, line: int, raw: str, keyword: str, rest: str, text: str) -> None:
        self.comment(line, text)
        if rest:
            self.destroyed = (self.use(line, raw, rest, declares=False), line, text)

    def lifecycle(self, line: int, raw: str, sender: str, receiver: str) -> None:
        """Mermaid's rule for `create` and `destroy`: the message after `create participant X`
        goes to X, and the one after `destroy X` comes from X or goes to it. Mermaid refuses a
        diagram that breaks it, so this is an error too, not a picture Mermaid never drew."""
        if self.created is not None:
            name, at, statement = self.created
            self.created = None
            if receiver != name:
                meant = f"… ->> {name}: …"
                said, hint = create_not_followed("Mermaid", f'"{statement}"', at, name, meant)
                self.fail(line, raw, said, hint=hint)
        elif self.destroyed is not None:
            name, at, statement = self.destroyed
            self.destroyed = None
            if name not in (sender, receiver):
                self.fail(
                    line,
                    raw,
                    f'the message after "{statement}" (line {at}) must come from {name} '
                    f"or go to it: it is the one that destroys it (Mermaid refuses this too)",
                    hint=f"write the message that destroys {name} right after the destroy, or "
                    "take the destroy away",
                )

    def unsupported(self, line: int, raw: str, keyword: str, rest: str, text: str) -> None:
        self.comment(line, text)

    def menu(self, line: int, raw: str, keyword: str, rest: str, text: str) -> None:
        """`links A: {…}`, `link A: Docs @ https://…`, `properties`, `details`: a comment, and
        the participant declared there, as Mermaid declares it."""
        self.comment(line, text)
        name = rest.partition(":")[0].strip()
        if name:
            self.use(line, raw, name)

    def activation(self, line: int, raw: str, keyword: str, rest: str, text: str) -> None:
        self.bar(line, raw, self.use(line, raw, rest, declares=False), keyword == "activate")

    def bar(self, line: int, raw: str, name: str, on: bool) -> None:
        """An `activate` (`on`) or `deactivate` line for the lane `name`."""
        item = Activation(line, name, on)
        self.activate(line, raw, name, (item, self.items()) if on else None)
        self.add(item)

    def activate(
        self,
        line: int,
        raw: str,
        name: str,
        opener: Message | tuple[Activation, list[Item]] | None,
    ) -> None:
        """Open an activation on `name` (`opener`: what starts it), or end its last one (None);
        Mermaid refuses to end one that is not open."""
        started = self.active.setdefault(name, [])
        if opener is not None:
            started.append(opener)
        elif not started:
            self.fail(
                line,
                raw,
                f"{name} has no activation open here to end (Mermaid refuses this too)",
                hint=f"activate {name} before this line, or take the deactivation (or the - "
                "after the arrow) away",
            )
        else:
            started.pop()

    def never_ended(self) -> None:
        """Mermaid draws an activation's bar once it ends: one never ended draws none. It is
        left out, so the diagram shows what Mermaid showed, with a comment that says so."""
        for name, started in self.active.items():
            for opener in started:
                if isinstance(opener, Message):
                    opener.activate = None
                    line = opener.line
                else:
                    item, among = opener
                    del among[next(at for at, other in enumerate(among) if other is item)]
                    line = item.line
                self.comment(
                    line,
                    f"the activation of {name} started here is never ended, so Mermaid draws "
                    f"no bar for it (nor does volley); any later bar of {name} Mermaid draws one "
                    "step aside, as if this one were open",
                )

    def autonumber(self, line: int, raw: str, keyword: str, rest: str, text: str) -> None:
        parts = rest.split()
        if parts and parts[0].lower() == "off":  # the count goes on, hidden
            self.numbered = self.always_numbered
            return
        if not all(_NUMBER.fullmatch(part) for part in parts) or len(parts) > 2:
            decimals = any(re.fullmatch(r"\d*\.\d*", part) for part in parts)
            hint = "Mermaid reads a number with at most two decimals (10.25) and refuses this too"
            self.fail(
                line,
                raw,
                "expected autonumber, autonumber START or autonumber START STEP",
                hint=hint if decimals else None,
            )
        numbers = [float(part) for part in parts]
        if any(not number.is_integer() for number in numbers):  # Mermaid counts 10.1, 10.11, …
            numbers = [float(int(numbers[0])), float(max(1, round(numbers[-1])))][: len(numbers)]
            whole = " in steps of ".join(str(int(number)) for number in numbers)
            self.comment(line, f"{text} (volley numbers in whole numbers: from {whole})")
        elif len(parts) == 2 and numbers[1] not in (0, 1):
            self.comment(line, f"{text} (numbered in steps of {parts[1]}, as Mermaid does)")
        # As Mermaid draws them (`start || count`, `step || step`): a start sets the step too
        # (1 unless given); a bare autonumber, or a start of 0, keeps the count; a step of 0
        # keeps the step
        start = int(numbers[0]) if numbers else 0
        step = int(numbers[1]) if len(numbers) == 2 else (1 if start else 0)
        if start:
            self.count = start
        if step:
            self.step = step
        self.numbered = True

    def title(self, line: int, raw: str, keyword: str, rest: str, text: str) -> None:
        message = None if text.lower().startswith("title:") else _MESSAGE.fullmatch(text)
        if message is not None and message["text"] is not None:  # `Title Service->>A: hi`
            self.comment(
                line,
                f"Mermaid reads this line as the diagram's title, not as a message from "
                f"{message['sender'].strip()!r}; to draw the message, rename the participant "
                "so that its name does not start with 'title'",
                raw=True,  # drawn as Mermaid draws it
            )
        if rest.startswith(":"):
            rest = rest[1:].strip()
        if self.diagram.title is not None:  # Mermaid shows the title set last
            self.comment(
                self.diagram.title_line or 0,
                f"Mermaid: title {self.diagram.title} (a later title replaces it, as in Mermaid)",
                raw=True,  # what Mermaid shows
            )
        self.diagram.title = _plain(_decode(rest))
        self.diagram.title_line = line

    def in_box(self, line: int, raw: str, text: str) -> None:
        """A box holds participant, actor and destroy lines, and its end: Mermaid refuses a
        message, a note or a block in one (a box written to group a scenario's steps)."""
        word = _WORD.fullmatch(text)
        box = self.stack[-1]
        if box.refused or (word is not None and word["word"].lower() in _IN_A_BOX):
            return
        box.refused = True  # said once; the statement is read on, as if the box ended
        said = f"a Mermaid box holds participants only, and this is not one: {text!r}"
        created = word is not None and word["word"].lower() == "create"  # (no step to group)
        steps = "" if created else "; to group steps, use rect … end"
        hint = f"end the box of line {box.line} before it{steps}"
        self.told.append(self.located(line, raw, f"{said} (Mermaid refuses the diagram)", 0, hint))

    def box(self, line: int, raw: str, keyword: str, rest: str, text: str) -> None:
        outer = next((opened for opened in self.stack if opened.keyword == "box"), None)
        if outer is not None:
            self.fail(
                line,
                raw,
                f"a box inside the box of line {outer.line} (Mermaid refuses it)",
                raw.lower().find(keyword) + 1,
                "end the outer box before this one: boxes stand side by side",
            )
        self.stack.append(_Open("box", line, text=rest))

    def open_block(self, line: int, raw: str, keyword: str, rest: str) -> None:
        if self.deeper or sum(o.block is not None for o in self.stack) >= MAX_DEPTH:
            self.deeper += 1  # its `end` closes nothing: one error for the first alone
            if self.deeper == 1:
                said = f"blocks nested more than {MAX_DEPTH} deep; volley reads no more"
                self.fail(line, raw, said)
            return
        kind = BLOCKS[keyword]
        label = "" if keyword == "rect" else self.block_label(line, keyword, rest)
        if kind == "if":
            label = if_label(label)  # `alt if …`: the frame's tag says "if"
        if keyword == "par_over":
            self.comment(line, f"par_over {rest}".strip())
        block = Block(line, kind, [Branch(label, [], line)])  # type: ignore[arg-type]
        if keyword == "rect":  # the colour as Mermaid reads it: the rest of the line
            block.tint = _decode(rest).strip() or None
            colour, words = colour_and_label(block.tint or "")
            if colour is not None and words:  # `rect rgb(…) Phase 1`: no colour Mermaid reads
                self.comment(
                    line,
                    f"rect {rest} (a rect takes no label: Mermaid reads the whole line as its "
                    "colour and fills the rect black; volley draws it in the theme's tint)",
                )
        self.add(block)
        self.stack.append(_Open(keyword, line, block))

    def branch(self, line: int, raw: str, keyword: str, rest: str) -> None:
        wanted = BRANCHES[keyword]
        top = self.stack[-1] if self.stack else None
        if top is None or top.block is None or top.block.kind != wanted:
            opener = {"if": "alt", "par": "par", "critical": "critical"}[wanted]
            self.fail(line, raw, f"{keyword} outside {opener}; it belongs between {opener} and end")
            return
        label = self.block_label(line, keyword, rest)  # `else if it expired`: as Mermaid does
        top.block.branches.append(Branch(label, [], line))

    def block_label(self, line: int, keyword: str, rest: str) -> str:
        """A block's or branch's label; a colon before it (`loop: every minute`, written the
        swimlanes.io way) is left out, where Mermaid shows it, which a comment says."""
        if rest.startswith(":"):
            said = f"{keyword}{rest} (Mermaid's label starts with the colon; volley's does not)"
            self.comment(line, said)
        return _label(rest.removeprefix(":"))

    def end(self, line: int, raw: str, keyword: str, rest: str, text: str) -> None:
        if rest:
            found = _MESSAGE.fullmatch(text)
            if found is not None and found["text"] is not None:  # `End User->>App: login`
                self.keyword_name(line, raw, found["sender"].strip(), "sender")
            self.fail(line, raw, "expected nothing after end")
        if self.deeper:  # a block past the deepest, closed
            self.deeper -= 1
            return
        if not self.stack:
            self.fail(line, raw, "end without a block to close")
        opened = self.stack.pop()
        if opened.block is not None:
            opened.block.end_line = line
        else:  # a box: its colour and label as Mermaid reads them, its participants
            tint, label = colour_and_label(opened.text)
            greedy = _GREEDY_COLOUR.match(opened.text)
            if tint is not None and greedy and greedy[1].strip() != tint:
                self.comment(
                    opened.line,
                    f'box {opened.text} (Mermaid takes its colour to the last ")", which is no '
                    "colour, and draws the box uncoloured with all of it as the label; volley "
                    f'draws it {tint}, labelled "{label}")',
                )
            box = Box(opened.line, _label(label) if label else "", tint, opened.members, line)
            self.diagram.boxes.append(box)

    def note(self, line: int, raw: str, found: re.Match[str]) -> None:
        place = " ".join(found["place"].lower().split())
        for name in found["names"].split(","):
            if _KEYWORD_AT_NAME.match(name.strip()):
                self.keyword_name(line, raw, name.strip(), "note's participant")
        names = [self.use(line, raw, name) for name in found["names"].split(",")]
        if len(names) > 2:
            self.fail(line, raw, "a note spans at most two participants")
        if place != "over" and len(names) > 1:
            self.fail(
                line,
                raw,
                f"a note {place} stands beside one participant (Mermaid refuses this too)",
                hint=f"write note over {', '.join(names)}: to span them",
            )
        note = Note(line, names, note_text(_lines(found["text"])), side=note_side(place))
        self.notes.append((note, names))
        self.add(note)

    @cached_property
    def called_names(self) -> set[str]:
        """The names written with `()` where `()` can only be part of the name: declared
        (`participant main()`) or a message's receiver (`->>parse()`)."""
        names = set()
        for raw in self.lines[self.start :]:
            text = raw.strip()
            if (declared := _DECLARED_CALL.fullmatch(text)) is not None:
                names.add(declared["name"].strip())
            elif (found := _MESSAGE.fullmatch(text)) and found["receiver"].endswith("()"):
                names.add(found["receiver"].strip())
        return names

    def message(self, line: int, raw: str, found: re.Match[str]) -> None:
        if found["from_centre"] and f"{found['sender'].strip()}()" in self.called_names:
            found = _NAMED_MESSAGE.fullmatch(found.string) or found
        arrow, mark = found["arrow"].lower(), found["mark"]
        for role in ("sender", "receiver"):
            if _KEYWORD_AT_NAME.match(found[role].strip()):  # `Link-->>DOM`, `CDN->>End User`
                self.keyword_name(line, raw, found[role].strip(), role)
        self.refused_arrow(line, raw, found)
        if arrow.endswith(("x", ")")) and _ARROW_IN_NAME.search(found["receiver"]):
            # `my-xylo->>B`: Mermaid's name ends before `-x` or `-)`, its lost or async arrow
            glued = found["sender"].strip() + found["arrow"]
            self.fail(
                line,
                raw,
                f"Mermaid reads {found['arrow']!r} in {glued + found['receiver'].strip()!r} as "
                f"its arrow, so the name ends at {found['sender'].strip()!r}",
                raw.find(glued) + 1 if glued in raw else 0,
                "a hyphen in a Mermaid name cannot come before x or ): rename the participant "
                "(participant X as … keeps the words shown)",
            )
        elif (inside := _WHOLE_ARROW.search(found["receiver"])) is not None:
            # `B->>auth-xyz`: Mermaid's lexer reads `-x` (or `-)`) there as an arrow;
            # `A->>B->>C`: a second message on one line
            after = found["receiver"][inside.end() : inside.end() + 1]
            # a name's hyphen (`auth-xyz`, `node-x`, `job-)`), not an arrow before a name
            glued = inside.group()[-1] in "xX)" and not after.isspace()
            self.fail(
                line,
                raw,
                f"Mermaid reads {inside.group()!r} in {found['receiver'].strip()!r} as an arrow, "
                "so it refuses this line",
                raw.find(found["receiver"], raw.find(found["arrow"])) + inside.start() + 1,
                "a hyphen in a Mermaid name cannot come before x or ): rename the participant "
                "(participant X as … keeps the words shown)"
                if glued
                else "a message goes from one participant to one: write one a line",
            )
        elif (
            mark == "-"
            and found.end("mark") == found.start("receiver")
            and (found["receiver"][:1] in ("x", "X", ")", "-"))
        ):  # `John-->>-xAlice`: `-x` read as a second arrow, not the mark and a name
            piece = "-" + found["receiver"][:1]
            self.fail(
                line,
                raw,
                f"Mermaid reads {piece!r} after {found['arrow']!r} as a second arrow, so it "
                "refuses this line",
                raw.find(piece, raw.find(found["arrow"]) + len(found["arrow"])) + 1,
                f"for a name that starts with x, put a space after the mark: {found['arrow']}- "
                f"{found['receiver'].strip()}"
                if piece in ("-x", "-X")
                else f"write one arrow, its mark and the name: {found['arrow']}-"
                f"{found['receiver'].lstrip(')-').strip()}",
            )
        written = found["receiver"].strip()
        if not written.strip("<>-"):  # `A->>: x`: the arrow's own head read as a receiver
            head = found["arrow"] + written
            column = raw.find(head) + len(head) + 1 if head in raw else 0
            self.fail(line, raw, f'expected the name of a participant after "{head}"', column)
        if written.startswith("/"):  # Mermaid's lexer takes no receiver that starts so
            self.fail(
                line,
                raw,
                f"Mermaid refuses a message to a name that starts with '/': {written!r}",
                raw.find(written, raw.find(found["arrow"])) + 1,
                f"declare it under another name and show it so: participant models as {written}",
            )
        said_sender = found["sender"]
        if said_sender.strip().startswith("/"):  # Mermaid draws `/models->>db` from "models"
            said_sender = said_sender.replace("/", "", 1)
            self.comment(
                line,
                f"Mermaid: {found['sender'].strip()} is drawn as {said_sender.strip()!r}, "
                "as Mermaid drops a '/' at a line's start",
                raw=True,
            )
        sender = self.use(line, raw, said_sender)
        receiver = self.use(line, raw, found["receiver"])
        self.lifecycle(line, raw, sender, receiver)
        if arrow in HEADLESS:
            self.headless.append(line)
        if arrow in HALF_ARROWS:
            self.comment(
                line, f"{sender} {arrow} {receiver}: a half arrowhead (volley draws a whole one)"
            )
        if found["from_centre"] or mark == "()":
            ends = " and ".join(
                name
                for name, centre in ((sender, found["from_centre"]), (receiver, mark == "()"))
                if centre
            )
            self.comment(
                line,
                f"{sender} {arrow} {receiver}: joins the middle of the lifeline of {ends} "
                "(volley draws it to the lifeline)",
            )
        text = _label(found["text"] or "")
        message = Message(line, sender, receiver, {**ARROWS, **HALF_ARROWS}[arrow], text)
        if self.numbered:
            if self.count > LARGEST_NUMBER:
                self.fail(line, raw, f"volley numbers messages up to {LARGEST_NUMBER:,}")
            message.number = self.count
        self.count += self.step
        self.add(message)
        if mark in ("+", "-"):
            # Mermaid's `+` starts a bar on the name written right of the arrow and `-` ends
            # the one left of it; volley's follow the arrow's direction, which a reversed half
            # arrow (`A/|-+B`, B to A) turns around: there, a line of its own says it
            named = receiver if mark == "+" else sender
            if message.flow[1 if mark == "+" else 0] == named:
                message.activate = mark  # type: ignore[assignment]
                self.activate(line, raw, named, message if mark == "+" else None)
            else:
                self.bar(line, raw, named, mark == "+")

    def refused_arrow(self, line: int, raw: str, found: re.Match[str]) -> None:
        """What Mermaid refuses around an arrow, which the message pattern would read as part
        of a name (a lane "Client-", "B++" or "+B" that Mermaid never drew): a dash too many
        (`A--->>B`), PlantUML's activation after a name (`A->>B++`), a second activation
        mark (`A->>++B`)."""
        sender, receiver, mark = found["sender"].rstrip(), found["receiver"].strip(), found["mark"]
        indent = len(raw) - len(raw.lstrip())
        after_arrow = raw.find(found["arrow"], indent + len(sender))
        if sender.endswith("-"):
            name = sender.rstrip("- \t")
            written = sender[len(name) :].replace(" ", "").replace("\t", "") + found["arrow"]
            self.fail(
                line,
                raw,
                f"{written!r} is not one of Mermaid's arrows, so it refuses this line",
                raw.find("-", indent + len(name)) + 1,
                f"write {found['arrow']} (its shaft is one or two dashes)",
            )
        head = found["arrow"] + ">" * (len(receiver) - len(receiver.lstrip(">")))
        if not mark and head != found["arrow"] and head.lower() not in ARROWS:  # `A->>>B`
            self.fail(
                line,
                raw,
                f"{head!r} is not one of Mermaid's arrows, so it refuses this line",
                after_arrow + 1,
                f"write {found['arrow']} (its head is > or >>)",
            )
        if (mark, receiver[:1]) in (("+", "+"), ("+", "-"), ("-", "+")):  # `A->>++B`
            self.fail(
                line,
                raw,
                f"Mermaid reads one activation mark after {found['arrow']!r}, so it refuses "
                "this line",
                raw.find(mark + receiver[:1], after_arrow) + 2,
                f"write {found['arrow']}{mark}{receiver.lstrip('+-').strip()}",
            )
        for name in (sender.strip(), receiver):
            if "," in name:  # `A,B->>C`: one message goes from one participant to one
                self.fail(
                    line,
                    raw,
                    f"Mermaid refuses a ',' in a name ({name!r}), so it refuses this line",
                    raw.find(name) + name.find(",") + 1,
                    "a message goes from one participant to one: write one message a line",
                )
            plus = name.find("+")
            if plus >= 0:  # Mermaid's names hold no +
                suffix = name is receiver and name.endswith(("++", "--"))
                self.fail(
                    line,
                    raw,
                    f"Mermaid refuses a '+' in a name ({name!r}), so it refuses this line",
                    raw.find(name) + plus + 1,
                    "PlantUML starts a bar with ++ after the name; Mermaid with + after the arrow:"
                    f" {found['arrow']}+{name.rstrip('+- ')}"
                    if suffix
                    else "rename the participant (participant X as … keeps the words shown)",
                )
        if receiver.endswith("-"):  # `B-->>A--`: PlantUML's end of a bar after the name
            dashes = receiver[len(receiver.rstrip("- ")) :].strip()
            self.fail(
                line,
                raw,
                f"{dashes!r} after {receiver.rstrip('- ')!r} is no part of a Mermaid name"
                + (", but PlantUML's end of a bar" if dashes == "--" else "")
                + " (Mermaid refuses this line)",
                raw.rfind(dashes, 0, raw.find(":") if ":" in raw else len(raw)) + 1,
                f"Mermaid ends the sender's bar with - after the arrow: {found['arrow']}-"
                f"{receiver.rstrip('- ')}",
            )

    # --- the diagram ---

    def finish(self) -> None:
        self.never_ended()
        diagram = self.diagram
        diagram.participants = [
            *self.declared,
            *(n for n in self.lanes.order() if n not in self.declared),
        ]
        position = {name: index for index, name in enumerate(diagram.participants)}
        for note, names in self.notes:
            ends = sorted(position[name] for name in names)
            note.over = diagram.participants[ends[0] : ends[-1] + 1]
        for box in diagram.boxes:  # one naming participants that messages put apart
            at = sorted(position[name] for name in box.participants if name in position)
            span = diagram.participants[at[0] : at[-1] + 1] if at else []
            between = ", ".join(name for name in span if name not in box.participants)
            if between:
                written = " ".join(filter(None, (box.tint, box.label)))
                self.comment(
                    box.line,
                    f"box {written}: its band lies over {between} too, standing between its "
                    "participants (volley keeps a box's participants side by side)",
                )
        if self.headless:
            lines = ", ".join(str(line) for line in dict.fromkeys(self.headless))
            if self.filename:  # the lines are the source's, not this file's
                lines += f" of {os.path.basename(self.filename)}"
            self.comments.insert(
                0,
                Comment(
                    0,
                    f" Mermaid drew the arrows of line(s) {lines} as lines without a head; "
                    "volley draws a head",
                ),
            )

    def text(self) -> str:
        diagram = apart_by_case(self.diagram)
        return write(diagram, self.comments, "\n".join(self.lines), one_line_each=True)


# What a Mermaid box holds: its participants (and their end), and its own end
_IN_A_BOX = frozenset({"participant", "actor", "destroy", "end"})


def _declares(rest: str) -> bool:
    """Whether what follows `create` is the participant it makes (`create participant B`)."""
    word = _WORD.fullmatch(rest)
    return word is not None and word["word"].lower() in ("participant", "actor")


def _mapping(text: str) -> dict:
    """YAML text as Mermaid's js-yaml reads it, as a mapping ({} for any other value)."""
    data = yaml.safe_load(text)
    return data if isinstance(data, dict) else {}


def _problem(exc: yaml.YAMLError) -> str:
    """What a YAML error says is wrong, in its parser's words."""
    return getattr(exc, "problem", None) or "not YAML"


def _statements(text: str) -> tuple[list[str], str | None, str | None]:
    """A line's statements, split at `;`, and what ends the line early: the comment from a `#`
    on, or a `%%` comment where a statement would start (Mermaid skips it to the end of the
    line, `;` and all). Escapes such as `#59;` stay as written, to be decoded in each text once
    its `<br>` are found, and a participant's `@{ … }` stays whole."""
    parts: list[str] = []
    start = 0
    if found := _LINE_COMMENT.match(text):
        return parts, None, text[found.end() :].strip()
    for found in _ENTITY_COMMENT_OR_END.finditer(text):
        if found.group() == ";":
            parts.append(text[start : found.start()])
            start = found.end()
            if remark := _LINE_COMMENT.match(text, start):
                return parts, None, text[remark.end() :].strip()
        elif found.group() == "#" and _starts_comment(text[start : found.start()]):
            parts.append(text[start : found.start()])
            return parts, text[found.start() :].strip(), None
    parts.append(text[start:])
    return parts, None, None


def _starts_comment(before: str) -> bool:
    """Whether a `#` after `before` (its statement so far) starts Mermaid's comment: in text
    (a message's or note's after its colon, a block's label, an `as` alias, a title), and
    where a word would start; inside a name it is a letter of it (`C# client->>B: x`), as
    Mermaid's lexer reads a name on over it."""
    if ":" in before or _TEXT_AFTER_KEYWORD.match(before):
        return True
    written = before.rstrip()
    return not written or written[-1] in _WORD_BREAKS


# What Mermaid reads as the rest of the line's text: after a block's or a branch's keyword, a
# box's and a title's; and a declaration, whose name (as its `as` text) ends at a `#`
_TEXT_KEYWORDS = sorted({*BLOCKS, *BRANCHES, "box", "title"}, key=lambda word: (-len(word), word))
_TEXT_AFTER_KEYWORD = re.compile(
    rf"[ \t]*(?:(?i:{'|'.join(_TEXT_KEYWORDS)})(?![\w-])"
    r"|(?i:(?:create[ \t]+)?(?:participant|actor)|destroy)[ \t])"
)
# Characters no name holds, after which a word starts: arrows' pieces, activation marks, the
# comma between a note's participants, and `(`, `)` of Mermaid's central connections
_WORD_BREAKS = frozenset("/\\+()<->:,;")


def _decode(text: str) -> str:
    """Mermaid's `#9829;` (a code point) and `#infin;` (an HTML entity name) escapes."""
    return _ENTITY.sub(
        lambda found: html.unescape(f"&#{found[1]};" if found[1].isdigit() else f"&{found[1]};"),
        text,
    )


def _reads_as(markup: str, lines: list[str]) -> bool:
    """Whether volley shows `markup` as exactly these lines of plain text, with no style."""
    from volley.text.inline import parse_inline

    shown = parse_inline(markup)
    styles = ("bold", "italic", "strike", "code", "href", "icon")
    return ["".join(span.text for span in line) for line in shown] == lines and not any(
        getattr(span, style) for line in shown for span in line for style in styles
    )


def _plain(text: str) -> str:
    """Mermaid's text shown as it reads: where volley would read markup in it (`*`, `_`, a
    backtick, `[..](..)`, `{fas-..}`), those characters are escaped."""
    from volley.text.inline import escape_markup

    return text if _reads_as(text, [text]) else escape_markup(text)


def _written_lines(text: str) -> list[str]:
    """Mermaid's text as its lines as written: without its `wrap:`/`nowrap:` mark, split at
    each `<br>`, its escapes (`#lt;`) not yet decoded."""
    text = _WRAP.sub("", text.strip(), count=1) if _WRAP.match(text.strip()) else text
    return [part.strip() for part in _BREAK.split(text.strip())]


def _lines(text: str) -> list[str]:
    """Mermaid's text as its lines, each with its volley markup escaped and its formatting
    tags (`<b>…</b>`) written as volley's markup."""
    return [_styled(line) or _plain(_decode(line).strip()) for line in _written_lines(text)]


# The HTML tags people write for formatting in Mermaid's text, and volley's markup for each.
_FORMAT_TAG = re.compile(r"<(b|strong|i|em|s|del|strike|code|tt|kbd)>(.*?)</\1[ \t]*>", re.I)
_FORMAT_MARK = {
    "b": "**", "strong": "**", "i": "*", "em": "*", "s": "~~", "del": "~~", "strike": "~~"
}  # fmt: skip


def _styled(line: str) -> str | None:
    """A line that holds formatting tags as volley markup: `<b>x</b>` (and `<strong>`) bold,
    `<i>`/`<em>` italic, `<s>`/`<del>`/`<strike>` struck, `<code>`/`<tt>`/`<kbd>` code, the
    rest of the line escaped; None when it holds none. Such tags are what people write for
    bold in Mermaid, which drew them in its early versions; an unpaired tag, or one written
    with escapes (`#lt;b#gt;`), stays text. `line` is as written, its escapes not decoded.
    Where volley's emphasis rules would not read the markup back as meant (`<b>Note:</b>x`
    needs a space after it), the line keeps its words without the formatting."""
    from volley.text.inline import escape_markup, plain_text

    marked, shown = _marked(line)
    if marked is None:
        return None
    return marked if plain_text(marked) == " ".join(shown.split()) else escape_markup(shown)


def _marked(line: str) -> tuple[str | None, str]:
    """`_styled`'s markup (None if the line holds no tags), and the text it should show."""
    from volley.text.inline import escape_markup

    pieces: list[str] = []
    shown: list[str] = []
    done = 0
    for found in _FORMAT_TAG.finditer(line):
        before, inner = _decode(line[done : found.start()]), found[2]
        core = inner.strip()
        pieces.append(escape_markup(before))
        shown.append(before)
        done = found.end()
        if not core:
            pieces.append(inner)
            shown.append(inner)
            continue
        tag = found[1].lower()
        if tag in _FORMAT_MARK:
            styled, words = _marked(core)
            text = styled or escape_markup(words)
            mark = _FORMAT_MARK[tag]
        else:  # code: taken literally, in a run of backticks longer than any inside it
            words = _decode(core)
            mark = "`" * (max(map(len, re.findall("`+", words)), default=0) + 1)
            text = f" {words} " if words.startswith("`") or words.endswith("`") else words
        lead, trail = inner[: len(inner) - len(inner.lstrip())], inner[len(inner.rstrip()) :]
        pieces += [lead, mark, text, mark, trail]
        shown += [lead, words, trail]
    after = _decode(line[done:])
    if not pieces:
        return None, after
    return ("".join(pieces) + escape_markup(after)).strip(), ("".join(shown) + after).strip()


def _label(text: str) -> str:
    """A one-line volley label from Mermaid text: `<br/>` becomes volley's `\\n` line break.
    Volley reads markup across those breaks (a backtick on one line and one on the next are
    a code span), so if the lines would not show as written together, all are escaped."""
    from volley.text.inline import escape_markup

    written = _written_lines(text)
    lines = [_decode(line).strip() for line in written]
    styled = [_styled(line) for line in written]
    if any(styled):  # every piece of text escaped: nothing can read as markup across lines
        pairs = zip(styled, lines, strict=True)
        return "\\n".join(shown or escape_markup(line) for shown, line in pairs)
    label = "\\n".join(map(_plain, lines))
    return label if _reads_as(label, lines) else "\\n".join(map(escape_markup, lines))
