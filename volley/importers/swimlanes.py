"""swimlanes.io share links and saved swimlanes.io text, as canonical `.volley` text.

volley reads swimlanes.io's language as it is, so a saved file only goes through the writer
(`parse`, then `write`: the same text `volley fmt` gives). A share link carries the diagram in
its fragment: `https://swimlanes.io/#<data>`, the data being the base64 of the text compressed
with raw DEFLATE (no zlib header), as the site's own editor and tools such as
@verkstedt/swimlanes make them. Links to diagrams saved on the site (`/d/…`, `/u/…`) hold no
text; reading them would need the network, so they are refused with what to do instead.
"""

from __future__ import annotations

import html
import re

from volley.errors import Diagnostic, VolleyError
from volley.importers import ON_A_PAGE, Imported, PartlyImported, gathered, part_name
from volley.swimlanes_links import decode_link, is_link, site_links
from volley.text.markdown import PageFence

# Prose, which a saved diagram never is: a Markdown ATX heading, a reStructuredText directive
# (`.. note::`), or a reStructuredText section title: a line that does not read as volley,
# underlined with at least as many of one punctuation character. (Under a line that reads, such
# as a note's text, the same line is a divider.)
_HEADING = re.compile(r"^(?:#{1,6}[ \t]+\S|\.\.[ \t]+[\w:.+-]+::)", re.MULTILINE)
_UNDERLINED = re.compile(r"^([^\n]*\S)[ \t]*\n([=\-`~^\"'+*#])\2{2,}[ \t]*$", re.MULTILINE)


def _prose(text: str, unread: set[int], read_to: int) -> bool:
    """Whether the text is a page of prose, given the lines (numbered from 1) that do not read
    as volley, and the line reading stopped at (past it, any line may be a title)."""
    return _HEADING.search(text) is not None or any(
        (line in unread or line > read_to)
        and len(found[0].splitlines()[1].rstrip()) >= len(found[1].strip())
        for found in _UNDERLINED.finditer(text)
        for line in [text.count("\n", 0, found.start()) + 1]
    )


# The fences a Markdown page holds swimlanes.io diagrams in: docsify-swimlanes-io's
# ```swimlanes-io, and the site's name as one word or two
_FENCE_LANGS = ("swimlanes-io", "swimlanes", "swimlanesio", "swimlanes.io")


# swimlanes.io's embed script (`cdn.swimlanes.io/embed.js`) draws the text of each
# `<swimlanes-io>` element of a page, as docsify-swimlanes-io's pages write them too; the text
# may start on the opening tag's line, and the closing tag may end its last line
_ELEMENT_OPEN = re.compile(r"[ \t]*<swimlanes-io(?=[\s>])[^>\n]*>", re.IGNORECASE)
_ELEMENT_CLOSE = re.compile(r"</swimlanes-io\s*>", re.IGNORECASE)
_HTML_COMMENT = re.compile(r"<!--.*?(?:-->|\Z)", re.DOTALL)


def _page_blocks(text: str) -> list[PageFence]:
    """The page's ```swimlanes-io blocks and `<swimlanes-io>` elements, in order (none where
    the word is not on it)."""
    if "swimlanes" not in text.lower():
        return []
    from volley.text.markdown import page_fences

    fences = page_fences(text)
    found = [fence for fence in fences if (fence.lang or "").lower() in _FENCE_LANGS]
    return sorted([*found, *_elements(text, fences)], key=lambda block: block.start)


def _elements(text: str, fences: list[PageFence]) -> list[PageFence]:
    """Each `<swimlanes-io>` element outside the page's code and comments (a page showing how
    to embed one, or one left out), as a block of its text, its character references decoded,
    as the embed script reads it, its indentation kept (volley reads it, and its lines are
    the page's: the tags stand as spaces). One never closed runs to the page's end."""
    if "<swimlanes-io" not in text.lower():
        return []
    from volley.text.fences import read_to_close
    from volley.text.markdown import indented_code_lines

    lines = text.split("\n")
    skipped = {n for fence in fences for n in range(fence.start, fence.end)}
    skipped |= indented_code_lines(text)
    for comment in _HTML_COMMENT.finditer(text):
        first, last = text.count("\n", 0, comment.start()), text.count("\n", 0, comment.end())
        skipped.update(range(first, last + 1))
    found = []
    index = 0
    while index < len(lines):
        opening = None if index in skipped else _ELEMENT_OPEN.match(lines[index])
        if opening is None:
            index += 1
            continue
        body, end, closed = read_to_close(lines, index, opening.end(), _ELEMENT_CLOSE)
        if not body[0].strip():  # the tag alone on its line: the text starts under it
            body, start = body[1:], index
        else:
            start = index - 1  # (a block starts on the line before its text's first)
        written = [html.unescape(line) for line in body]
        found.append(PageFence(start, end + 1, "swimlanes-io", "<swimlanes-io>", written, closed))
        index = end + 1
    return found


def diagram_lines(text: str, filename: str | None = None) -> list[int]:
    """The line each ```swimlanes-io block of a page starts on (the line after its fence), as
    its `Imported.line` gives it: a page of several tools' diagrams numbers them all."""
    return [fence.start + 2 for fence in _page_blocks(text)]


def detect(text: str) -> int:
    """100 for a swimlanes.io link; 90 for a page with ```swimlanes-io blocks; 10 for text that
    reads as a diagram (volley's own language is swimlanes.io's, so such text is a saved
    swimlanes.io diagram unless another format is surer); 5 for text with mistakes but no sign
    of being anything else, so that its errors are reported; 0 for JSON and for Markdown
    prose."""
    from volley.language.parser import error_budget, parse

    stripped = text.strip()
    if is_link(stripped):
        return 100
    if _page_blocks(text):
        return ON_A_PAGE
    if not stripped or stripped[0] in "{[":
        return 0
    try:
        parse(text)
    except VolleyError as exc:
        unread = {error.line for error in exc.errors if error.line}
        if not unread:  # refused whole, past the parser's input limit: a log, not a diagram
            return 0
        # reading stops after so many errors: the lines past the last were not read
        read_to = max(unread) if len(exc.errors) >= error_budget(text) else text.count("\n") + 1
        wrong = (
            _prose(text, unread, read_to)
            or _mostly_json(text)
            or _mostly_wrong(text, unread, read_to)
        )
        return 0 if wrong else 5
    return 10


def _mostly_wrong(text: str, unread: set[int], read_to: int) -> bool:
    """Whether most of the lines the parser read (up to line `read_to`) are mistakes: a log
    or a transcript in a format no importer knows, of which an error a line would say
    nothing, not a diagram with a few mistakes in it."""
    lines = text.split("\n")[:read_to]
    said = sum(1 for line in lines if line.strip() and not line.lstrip().startswith("//"))
    return len(unread) * 2 > said


def _mostly_json(text: str) -> bool:
    """Whether most lines hold JSON (`{"…` or `["…`): a log in a format no importer knows,
    whose lines read as swimlanes text would each be an error."""
    lines = [line for line in text.split("\n") if line.strip()]
    return sum(1 for line in lines if '{"' in line or '["' in line) * 2 > len(lines)


def convert(text: str, filename: str | None = None) -> list[Imported]:
    """The diagram a saved text or a link holds, or each ```swimlanes-io block of a page."""
    stripped = text.strip()
    name: str | None = filename
    source = text
    if not is_link(stripped):
        blocks = _page_blocks(text)
        if blocks:
            return _from_blocks(blocks, filename)
        text_out, warnings = _canonical(source, name)
        return [Imported(text_out, None, warnings=warnings)]
    source = decode_link(stripped, filename)
    name = f"{filename or 'link'} (the diagram in the link)"
    from volley.importers import mermaid

    if mermaid.detect(source) >= 100:  # Mermaid pasted into swimlanes.io's editor, and shared
        try:
            return mermaid.convert(source, name)
        except VolleyError as exc:
            # swimlanes.io drew it whatever Mermaid stopped at: read as it reads it if it can
            read = mixed(source, name, exc)
            if read is None:
                raise
            return [read]
    try:
        text_out, warnings = _canonical(source, name)
    except VolleyError as exc:
        # The text is in the link, where its writer cannot edit it: it is written out as the
        # link holds it (swimlanes.io draws what it can of it), with its mistakes to fix.
        said = Diagnostic(
            "the link's text is written as the link holds it, mistakes and all: fix the lines "
            "above, then run volley check",
            name,
            severity="note",
        )
        as_held = Imported(source, None, warnings=(*exc.warnings, said))  # with what check says
        raise PartlyImported(exc.errors, [as_held], 1) from None
    return [Imported(text_out, None, warnings=warnings)]


def _from_blocks(blocks: list[PageFence], filename: str | None) -> list[Imported]:
    """Each block's diagram, named for its place on the page (`notes-1`, `notes-2` …); its
    errors and warnings at the page's lines (the block's text read below as many blank
    lines as stand above it, which mean nothing to the reader)."""
    diagrams: list[Imported] = []
    failed: list[VolleyError] = []
    for number, fence in enumerate(blocks, start=1):
        source = "\n" * (fence.start + 1) + "\n".join(fence.body)
        try:
            written, warnings = _canonical(source, filename)
        except VolleyError as exc:  # the page's other diagrams are read all the same
            failed.append(exc)
            continue
        named = part_name(filename, number)
        diagrams.append(Imported(written.lstrip("\n"), named, fence.start + 2, warnings))
    return gathered(diagrams, failed, len(blocks))


def mixed(source: str, name: str, refused: VolleyError) -> Imported | None:
    """A text that starts as Mermaid's (`sequenceDiagram`) and goes on in swimlanes.io's
    syntax (`if:` … `end`), which swimlanes.io draws and Mermaid refuses: read as swimlanes.io
    text, the header kept as a comment and the user told; None when it does not read so
    either."""
    found = header_as_comment(source, name, refused)
    if found is None:
        return None
    commented, said = found
    try:
        text, warnings = _canonical(commented, name)
    except VolleyError:
        return None
    return Imported(text, None, warnings=(said, *warnings))


def header_as_comment(
    source: str, name: str, refused: VolleyError
) -> tuple[str, Diagnostic] | None:
    """The text of `mixed` with its Mermaid header made a comment, and the warning that says
    why (`refused`: Mermaid's error at the first line of swimlanes.io's); None without a
    header."""
    from volley.language.parser import foreign_header

    lines = source.split("\n")
    header = foreign_header(lines)
    if header is None:
        return None
    number = header[0]
    written = lines[number - 1]
    lines[number - 1] = f"// {written.strip()}"
    first = refused.errors[0]
    said = Diagnostic(
        f"this text starts with Mermaid's header but goes on in swimlanes.io's syntax, which "
        f"Mermaid does not read (line {first.line}: {(first.source_line or '').strip()}): it "
        "is read as swimlanes.io text, its header kept as a comment",
        name,
        number,
        1,
        written,
        severity="warning",
    )
    return "\n".join(lines), said


def _canonical(source: str, filename: str | None) -> tuple[str, tuple[Diagnostic, ...]]:
    """The text through the parser and the writer, and what `volley check` would point out (a
    block left open at the end, which the written text closes; a `#` line read as a lane)."""
    from volley.checks.lint import lint
    from volley.language.parser import parse
    from volley.language.writer import rewrite

    diagram = parse(source, filename=filename)
    said = (*diagram.warnings, *lint(diagram, source))
    return rewrite(site_links(diagram), source), said
