"""README mode: keep every ```volley block of a Markdown file rendered to an SVG beside it.

GitHub shows no script, so a README cannot run volley; instead `volley render README.md` writes
each block's picture to `diagrams/NAME.svg` next to the file and keeps an image link right after
the block, between two marker comments:

    ```volley name=login
    Browser -> API: POST /login
    ```
    <!-- volley:begin login -->
    ![Login](diagrams/login.svg)
    <!-- volley:end -->

The source stays in the README, editable. Everything outside the markers is left byte for byte
(line endings, other code blocks, the block itself): the file is handled as a list of lines with
their own endings, and only whole marker regions are replaced. Names come from `name=` on the
fence or from the nearest heading above it, never from the block's position, so adding a
diagram does not rename the others. Other options on the fence line (`theme=dark`,
`bodies=appendix` …, read as the MkDocs plugin reads them) shape that block's picture. A block
wrapped in `<details>` gets its link after `</details>`, so the picture shows while the source
stays folded.

The file is read as CommonMark reads it (markdown-it-py, as GitHub's renderer would): a fence
shown inside an indented code block, an HTML block or another fence is not a diagram, and
marker comments shown there are not regions. A region holds only what README mode writes, so
replacing or removing it loses nothing a person wrote. Pictures and the file are written only
inside the Markdown file's folder, never through a symbolic link.
"""

from __future__ import annotations

import dataclasses
import errno
import posixpath
import re
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

from volley.docs.fence_options import (
    file_and_diagram,
    looks_like_a_path,
    myst_options,
    named_file,
    typed_options,
)
from volley.errors import Diagnostic, VolleyError, counted, shown_path, write_failed
from volley.model import Diagram
from volley.options import Options
from volley.text.fences import TWICE_HINT, fence_attrs, fence_open, twice_said, written_twice
from volley.text.markdown import PageFence, page_fence, parse
from volley.textio import VOLLEY_SUFFIX, decode, encoded_as, in_project, past_bytes, write_atomic

FOLDER = "diagrams"


@dataclass(frozen=True)
class Comments:
    """How a kind of page writes the comments that mark a region: HTML's, or, in MDX (whose
    pages do not compile with an HTML comment in them), JavaScript's within braces."""

    opens: str
    closes: str
    in_paragraphs: bool = False  # CommonMark reads them as a paragraph's text, not HTML

    def begin(self, name: str) -> str:
        return f"{self.opens} volley:begin {name} {self.closes}"

    @property
    def end(self) -> str:
        return f"{self.opens} volley:end {self.closes}"

    def _line(self, word: str) -> re.Pattern[str]:
        """A line holding only that marker, inside a quote's `>` too."""
        opens, closes = re.escape(self.opens), re.escape(self.closes)
        return re.compile(rf"^(?:[ \t]*>)*[ \t]*{opens}[ \t]*volley:{word}\b[^\n]*{closes}[ \t]*$")

    @cached_property
    def begin_line(self) -> re.Pattern[str]:
        return self._line("begin")

    @cached_property
    def end_line(self) -> re.Pattern[str]:
        return self._line("end")


HTML_COMMENTS = Comments("<!--", "-->")
MDX_COMMENTS = Comments("{/*", "*/}", in_paragraphs=True)


def comments_of(filename: str) -> Comments:
    """The comments a page of that name writes its regions with (an `.mdx` page: MDX's)."""
    return MDX_COMMENTS if filename.lower().endswith(".mdx") else HTML_COMMENTS


def _read(comments: Comments) -> tuple[Comments, ...]:
    """The comments a page's regions are read in: its own, and on an MDX page also HTML's, of
    a region written while it was a `.md` page (replaced by one in MDX's, which compiles)."""
    return (comments, HTML_COMMENTS) if comments is not HTML_COMMENTS else (comments,)


_LINK = re.compile(r"!?\[([^\]]*)\]\([^)]*\)")

Report = Callable[[Diagnostic | VolleyError], None]


@dataclass
class Line:
    """One line of the file: its text without the ending, and the ending (`\\r\\n`, `\\n`, '')."""

    text: str
    eol: str


@dataclass
class Block:
    """A ```volley block and where its generated link lives."""

    open: int  # index of the opening fence line
    close: int  # index of the closing fence line
    prefix: str  # container prefix of the fence (indentation, `>` of a quote)
    source: str
    attrs: dict[str, str]
    heading: str | None
    anchor: int = 0  # the line the link region follows (the fence, or a `</details>`)
    region: tuple[int, int] | None = None  # existing marker lines, first and last
    name: str = ""
    options: Options | None = None  # the file's options with the fence's own applied
    skipped: int = 0  # lines of MyST options (`:theme: dark`) before the diagram's first
    file: str | None = None  # a MyST block's file argument (```{volley} flows/login.volley)

    @property
    def offset(self) -> int:
        """The Markdown file's line just before the diagram's first line."""
        return self.open + 1 + self.skipped


@dataclass
class Scan:
    """What a Markdown file holds, for README mode."""

    lines: list[Line]
    blocks: list[Block] = field(default_factory=list)
    regions: list[tuple[int, int]] = field(default_factory=list)  # every marker region seen
    problems: list[VolleyError] = field(default_factory=list)
    warnings: list[Diagnostic] = field(default_factory=list)
    read: bytes = b""  # the file as read: it is written back in its own encoding
    comments: Comments = HTML_COMMENTS  # how its regions are marked
    undecoded: bool = False  # some of its bytes are not UTF-8: it is not written back


def split_lines(text: str) -> list[Line]:
    """Lines with their own endings, so that joining them gives back the text exactly."""
    parts = text.split("\n")
    lines = []
    for index, part in enumerate(parts):
        last = index == len(parts) - 1
        if last and part == "":
            break
        body, cr = (part[:-1], "\r") if part.endswith("\r") else (part, "")
        lines.append(Line(body, "" if last else cr + "\n"))
    return lines


def join_lines(lines: list[Line]) -> str:
    return "".join(line.text + line.eol for line in lines)


def slugify(text: str) -> str:
    """A file-name-safe slug: letters, digits and single dashes. Latin letters are written
    without their accents (`Café` gives `cafe`); the letters of other scripts are kept
    (`## Вход` gives `вход`, `## 国際化 🚀` gives `国際化`), so that a picture under such a
    heading is named by it, as any other is, not by its place on the page."""
    kept: list[str] = []
    for ch in unicodedata.normalize("NFKD", _LINK.sub(r"\1", text).lower()):
        category = unicodedata.category(ch)
        if ch.isascii():
            kept.append(ch if ch.isalnum() else "-")
        elif category[0] == "M":  # a mark: kept on another script's letter, not as an accent
            if kept and not kept[-1].isascii():
                kept.append(ch)
        elif category[0] in "LN" and not unicodedata.name(ch, "").startswith("LATIN"):
            kept.append(ch)  # any other sign is left out, as an accent is
    slug = unicodedata.normalize("NFC", re.sub("-+", "-", "".join(kept)).strip("-"))
    return slug[:60].rstrip("-")


def _continuation(prefix: str) -> str:
    """The prefix that keeps a line inside the containers of a fence opened after `prefix`:
    a quote's `>` stays, a list item's marker (`- `, `1. `) becomes spaces."""
    return re.sub(r"[^>\s]", " ", prefix)


def _opens_volley(line: str) -> bool:
    """Whether a line of another block's text (a quote's `>` and all) opens a ```volley block."""
    opening = fence_open(line.lstrip(" \t>"))
    return opening is not None and fence_attrs(opening.info)[0] == "volley"


# Lines that may sit in a marker region besides the markers: the image link, blank lines.
_REGION_BODY = re.compile(r"^[ \t>]*(?:!\[[^\]\n]*\]\([^)\n]*\))?[ \t]*$")


def _region_after(
    lines: list[Line], anchor: int, markers: set[int], comments: Comments
) -> tuple[int, int] | None:
    """The region after `anchor` (`_region_in`), in the page's comments or those it reads."""
    for style in _read(comments):
        found = _region_in(lines, anchor, markers, style)
        if found is not None:
            return found
    return None


def _region_in(
    lines: list[Line], anchor: int, markers: set[int], comments: Comments
) -> tuple[int, int] | None:
    """Marker lines after `anchor` (blank lines may sit between), if there are any.

    Only markers that are comments of their own (`markers`: not text inside a code block or a
    `<pre>`) count, and only around what README mode writes between them (an image link): a
    region is replaced or removed whole, so it must hold nothing a person wrote.
    """
    index = anchor + 1
    while index < len(lines) and not lines[index].text.strip():
        index += 1
    if index >= len(lines) or index not in markers:
        return None
    if not comments.begin_line.match(lines[index].text):
        return None
    for end in range(index + 1, min(index + 20, len(lines))):
        if end in markers and comments.end_line.match(lines[end].text):
            return index, end
        if not _REGION_BODY.match(lines[end].text):
            break
    return None


def _unended(
    lines: list[Line], anchor: int, markers: set[int], filename: str, comments: Comments
) -> VolleyError | None:
    """A begin marker after `anchor` with no end marker after its image: README mode would
    write a region of its own above it, and the README would show the picture twice."""
    index = anchor + 1
    while index < len(lines) and not lines[index].text.strip():
        index += 1
    if index >= len(lines) or index not in markers:
        return None
    text = lines[index].text
    written = next((c for c in _read(comments) if c.begin_line.match(text)), None)
    if written is None:
        return None
    return VolleyError(
        "this volley:begin marker has no volley:end after its image",
        filename=filename,
        line=index + 1,
        column=text.find(written.opens) + 1,
        source_line=text,
        hint=f"add a line {written.end} after the image line (or delete it)",
    )


def _link_anchor(lines: list[Line], close: int, comments: Comments) -> int:
    """The fence's closing line, or the `</details>` that folds the block away.

    `</details>` opens an HTML block that runs on to the next blank line; the link goes after
    it (with a blank line first) only when a blank line or the end of the file follows it
    already, so that the link changes how nothing after it is read.
    """
    index = close + 1
    while index < len(lines) and not lines[index].text.strip():
        index += 1
    if index < len(lines) and lines[index].text.strip().lower() == "</details>":
        after = index + 1
        if (
            after >= len(lines)
            or not lines[after].text.strip()
            or any(c.begin_line.match(lines[after].text) for c in _read(comments))
        ):
            return index
    return close


def _parse(lines: list[Line]) -> list[Any]:
    """The file's CommonMark block tokens, their line numbers those of `lines`.

    markdown-it reads a lone carriage return as a line end; inside a line it is turned into a
    space for the parse so that its line numbers stay those of `split_lines`. A byte-order
    mark that starts the file is no text of its first line (a heading there is a heading, as
    GitHub shows it); the file keeps it.
    """
    text = "\n".join(line.text.replace("\r", " ") for line in lines)
    return parse(text.removeprefix("\ufeff"))


def scan(text: str, filename: str) -> Scan:
    """Find the ```volley blocks, their headings and marker regions, as CommonMark reads the
    file: a fence inside an indented code block, an HTML block (`<pre>`, `<div>`) or another
    fence is text, not a diagram; a fence in a quote or a list item ends with its container;
    markers shown inside code are text, not regions."""
    lines = split_lines(text)
    comments = comments_of(filename)
    found = Scan(lines, comments=comments)
    tokens = _parse(lines)
    markers: set[int] = set()  # lines where a marker comment of its own may stand
    for token in tokens:
        if not token.map:
            continue
        first, after = token.map
        if token.type == "html_block":
            markers.add(first)
            if lines[first].text.strip().lower() == "</details>":
                markers.update(range(first, after))  # a link README mode wrote after it
        elif token.type == "paragraph_open" and comments.in_paragraphs:
            markers.update(range(first, after))
    heading: str | None = None
    for position, token in enumerate(tokens):
        if token.type == "heading_open":
            heading = tokens[position + 1].content.strip() or heading
        elif token.type == "fence" and token.map:
            block = _block(page_fence(token), lines, heading, filename, found)
            if block is not None:
                block.anchor = _link_anchor(lines, block.close, comments)
                block.region = _region_after(lines, block.anchor, markers, comments)
                if block.region is None and (
                    unended := _unended(lines, block.anchor, markers, filename, comments)
                ):
                    found.problems.append(unended)
                    continue
                found.blocks.append(block)
    attached = {block.region for block in found.blocks}
    for first in sorted(markers):
        region = _region_after(lines, first - 1, markers, comments)
        if region and region not in attached and region[0] == first:
            found.regions.append(region)
    return found


def _block(
    fence: PageFence, lines: list[Line], heading: str | None, filename: str, found: Scan
) -> Block | None:
    """A fenced block as a ```volley Block; None for another language or a broken block
    (reported in the scan's `problems`)."""
    lang, attrs = fence_attrs(fence.info)
    first, after = fence.start, fence.end
    last = after - 1
    problems = found.problems
    opening = lines[first].text
    column = opening.find(fence.markup) + 1
    where: dict[str, Any] = {
        "filename": filename,
        "line": first + 1,
        "column": column,
        "source_line": opening,
    }
    if lang != "volley":
        if not fence.closed and any(map(_opens_volley, fence.body)):
            problems.append(_unclosed_other(fence, lines, filename))
        elif lang.lower() == "volley":  # ```Volley: GitHub's colouring reads any case
            said = f"this ```{lang} block is not drawn: volley draws ```volley blocks"
            hint = "write ```volley, in small letters, to draw it (or ```text to show it as text)"
            found.warnings.append(Diagnostic(said, severity="warning", hint=hint, **where))
        return None
    if not fence.closed:
        problems.append(
            VolleyError(
                "this ```volley block is never closed",
                hint=f"close it with a line of {fence.markup}",
                **where,
            )
        )
        return None
    twice = written_twice(fence.info)
    if twice:
        again = opening.rfind(twice[0])  # its second writing, where the caret goes
        problems.append(
            VolleyError(
                twice_said(twice[0], "this ```volley fence line"),
                hint=TWICE_HINT,
                **{**where, "column": again + 1},
            )
        )
        return None
    if any("\x00" in line.text for line in lines[first:after]):
        problems.append(VolleyError("the block holds a NUL byte; is this a binary file?", **where))
        return None
    prefix = _continuation(opening[: column - 1].removeprefix("\ufeff"))  # a file's BOM
    myst, skipped = myst_options(fence.body)
    body = fence.body[skipped:]
    file, _ = named_file(fence.info.strip().partition(" ")[2])
    file = attrs.pop("file", None) or file  # `file="a b.volley"`, as MkDocs reads it too
    if file is not None and any(line.strip() for line in body):
        if looks_like_a_path(file):
            said, hint = file_and_diagram(file)
            problems.append(VolleyError(said, hint=hint, **where))
            return None
        file = None  # a word before a diagram's text: an option written wrong, said as one
    if file is not None:  # ```{volley} flows/login.volley, options after it too
        words = file.split()
        attrs = {key: value for key, value in attrs.items() if key.strip("\"'") not in words}
    return Block(
        first, last, prefix, "\n".join(body), {**attrs, **myst}, heading, skipped=skipped, file=file
    )


def _unclosed_other(fence: PageFence, lines: list[Line], filename: str) -> VolleyError:
    """A fence of another language left open swallows a ```volley block after it: say so,
    since the diagram would otherwise be skipped without a word."""
    first = fence.start
    return VolleyError(
        f"this {fence.markup} block is never closed, so the ```volley block after it is read "
        "as part of it",
        filename=filename,
        line=first + 1,
        column=lines[first].text.find(fence.markup) + 1,
        source_line=lines[first].text,
        hint=f"close it with a line of {fence.markup}",
    )


def assign_names(blocks: list[Block], titles: list[str | None], filename: str) -> None:
    """Stable, distinct names: `name=` first, then the heading (or title), then `-2`, `-3`…

    A name depends on what the author wrote near the block, never on how many blocks come
    before it; only a second block under the same heading gets a suffix.
    """
    taken: set[str] = set()
    for block in blocks:
        if not block.attrs.get("name"):  # none, or `name` alone: its fence's options say so
            continue
        name = slugify(block.attrs["name"])
        if not name or name in taken:
            why = "is used twice" if name else "has no letters or digits"
            raise VolleyError(
                f'the diagram name "{block.attrs["name"]}" {why}',
                filename=filename,
                line=block.open + 1,
                hint="give each ```volley block its own name=…",
            )
        block.name = name
        taken.add(name)
    for block, title in zip(blocks, titles, strict=True):
        if block.name:
            continue
        base = slugify(block.heading or "") or slugify(title or "") or "diagram"
        name, number = base, 2
        while name in taken:
            name, number = f"{base}-{number}", number + 1
        block.name = name
        taken.add(name)


def with_nested_fence_hint(diagnostic: Diagnostic) -> Diagnostic:
    """The diagnostic, with the likely cause when a fence inside a diagram is never closed.

    A ```volley block ends at the first ``` line, which is the end of a payload's own
    ```json fence inside it: the diagram is cut there and that fence stays open.
    """
    shown = (diagnostic.source_line or "").lstrip(" \t>")
    if "never closed" not in diagnostic.message or fence_open(shown) is None:
        return diagnostic
    return dataclasses.replace(
        diagnostic,
        hint="a ```volley block ends at the first ``` line inside it; when the diagram holds "
        "fences of its own, open and close it with four backticks (````volley … ````)",
    )


def _shifted(error: Diagnostic | VolleyError, filename: str, offset: int) -> Diagnostic:
    """A diagnostic about a block's text, pointing into the Markdown file instead."""
    diagnostic = error.diagnostic if isinstance(error, VolleyError) else error
    from volley.api import in_link, in_link_named

    if in_link(diagnostic):  # a block holding a swimlanes.io link: the link's own lines
        return dataclasses.replace(diagnostic, filename=in_link_named(filename, offset + 1))
    diagnostic = with_nested_fence_hint(diagnostic)
    line = diagnostic.line + offset if diagnostic.line else offset
    return dataclasses.replace(diagnostic, filename=filename, line=line)


def _alt(title: str | None, block: Block) -> str:
    """The picture's alternative text: the fence's `alt=`, else the diagram's title, else the
    name its author gave it (in words), else the heading above it as written (`HTTP API`,
    `Überblick: Café & API`), else its name in words."""
    from volley.text.inline import plain_text

    text = block.attrs.get("alt") or (plain_text(title) if title else "")
    if not text and "name" not in block.attrs and block.heading:
        text = plain_text(block.heading)
    text = text or block.name.replace("-", " ").capitalize()
    return re.sub(r"([\\\[\]])", r"\\\1", text)


def svg_name(markdown: Path, name: str) -> str:
    """The SVG's file name: `NAME.svg` for a README, `STEM-NAME.svg` for any other file.

    Two Markdown files in one folder share `diagrams/`; the stem keeps their pictures apart.
    """
    stem = markdown.stem.lower()
    return f"{name}.svg" if stem == "readme" else f"{slugify(markdown.stem) or stem}-{name}.svg"


def region_lines(
    block: Block, alt: str, link: str, lines: list[Line], comments: Comments = HTML_COMMENTS
) -> list[Line]:
    """The marker region for a block, indented like the block so it stays in its container."""
    anchor = lines[block.anchor]
    indent = anchor.text[: len(anchor.text) - len(anchor.text.lstrip(" \t"))]
    prefix = block.prefix if block.anchor == block.close else indent
    eol = anchor.eol or next((line.eol for line in lines if line.eol), "\n")
    texts = [comments.begin(block.name), f"![{alt}]({link})", comments.end]
    return [Line(prefix + text, eol) for text in texts]


def render_markdown(
    path: str | Path,
    check: bool = False,
    options: Options | dict[str, Any] | None = None,
    report: Report | None = None,
) -> list[str]:
    """Bring a Markdown file's diagrams up to date; return one line per change made or needed.

    With `check`, nothing is written and each line names what is out of date. A broken
    diagram is reported (pointing at its line in the Markdown file) and left as it was; the
    others are still rendered, and a VolleyError at the end says how many failed. `options`
    are those of the SVG files (theme auto unless it says otherwise); each picture's id prefix
    is its name.
    """
    from volley import api

    options = _options(options)
    markdown = Path(path)
    shown = str(markdown)
    found, diagrams, failed = _checked_blocks(markdown, options, report)
    assign_names(found.blocks, [d.title if d else None for d in diagrams], shown)

    folder = markdown.parent / FOLDER
    changes: list[str] = []
    writes: list[tuple[Path, str]] = []
    edits: dict[int, tuple[int, list[Line]]] = {}  # first line -> (last line, replacement)
    lines = found.lines
    say = _Sayer(shown, check, changes)
    for block, diagram in zip(found.blocks, diagrams, strict=True):
        if diagram is None:
            continue
        target = folder / svg_name(markdown, block.name)
        shown_with = block.options or options  # the fence's own options, over the file's
        svg = str(api.render(diagram, options=shown_with, format="svg", id_prefix=block.name))
        try:
            current = None if target.is_symlink() else target.read_bytes()
        except OSError:
            current = None
        if current != svg.encode("utf-8"):
            writes.append((target, svg))
            state = "is missing" if current is None else "is out of date"
            picture = shown_path(target.as_posix())
            say(f"wrote {picture}", f"{picture} {state}")
        link = posixpath.join(FOLDER, target.name)
        wanted = region_lines(block, _alt(diagram.title, block), link, lines, found.comments)
        where = f"diagram {block.name} (line {block.open + 1})"
        if block.region:
            first, last = block.region
            wanted[-1].eol = lines[last].eol  # keep the file's last line as it ends
            if lines[first : last + 1] != wanted:
                edits[first] = (last, wanted)
                say(f"updated the image link after {where}", f"image link after {where} is stale")
            continue
        anchor = lines[block.anchor]
        if block.anchor != block.close:  # `</details>` opens an HTML block; a blank line ends it
            wanted.insert(0, Line("", wanted[0].eol))
        if anchor.eol:
            edits[block.anchor + 1] = (block.anchor, wanted)
        else:  # the block ends the file: give it an ending, keep "no final newline"
            wanted[-1].eol = ""
            edits[block.anchor] = (block.anchor, [Line(anchor.text, wanted[0].eol), *wanted])
        say(f"added an image link after {where}", f"no image link after {where}")
    attached = {block.region for block in found.blocks if block.region}
    for first, last in found.regions:
        if (first, last) not in attached:
            edits[first] = (last, [])
            where = f"the image link at line {first + 1} (its block is gone)"
            say(f"removed {where}", f"stale: {where}")

    if found.undecoded:  # written back, its bytes would be lost to U+FFFD
        written = "" if check else ": nothing is written"
        raise PartlyRendered(f"the file is not valid UTF-8{written} (save it as UTF-8)", [], shown)
    if not check and changes:
        text = encoded_as(found.read, join_lines(_apply(lines, edits))) if edits else None
        _write(markdown, writes, text)
    if failed:
        what = counted(failed, "diagram has", "diagrams have") + " errors"
        left = "it is left as it was" if failed == 1 else "they are left as they were"
        if not any(diagram is not None for diagram in diagrams):
            rest = "there are no others" if check else left  # none drawn: no "others" to be
        else:
            rest = "the others were checked" if check else f"{left}, the others are drawn"
        raise PartlyRendered(f"{what}; {rest}", changes, filename=shown)
    return changes


class PartlyRendered(VolleyError):
    """Some of a Markdown file's diagrams have errors: what was made of the others (`changes`,
    as `render_markdown` returns them) is still to be said."""

    def __init__(self, message: str, changes: list[str], filename: str) -> None:
        super().__init__(message, filename=filename)
        self.changes = changes


def _write(markdown: Path, pictures: list[tuple[Path, str]], text: bytes | None) -> None:
    """Write the pictures, then the Markdown file, never through a symbolic link and never
    outside the Markdown file's folder: a checkout can hold links (a `diagrams/NAME.svg`
    pointing at a file elsewhere), and README mode runs on strangers' checkouts as a hook."""
    tree = markdown.parent
    try:
        for target, svg in pictures:
            target.parent.mkdir(exist_ok=True)
            write_atomic(target, svg, follow_symlinks=False, within=tree)
        if text is not None:
            write_atomic(markdown, text, follow_symlinks=False, within=tree)
    except OSError as exc:
        hint = _WRITE_HINTS.get(exc.errno or 0)
        raise write_failed(exc.filename or str(markdown), exc, str(markdown), hint) from None


# What to do when README mode cannot write where it writes, by the reason (no hint for the
# others, such as a folder that may not be written, which its message says)
_WRITE_HINTS = dict.fromkeys(
    (errno.ELOOP, errno.EPERM),  # a symbolic link, or one leading out of the folder
    "README mode writes only regular files inside the Markdown file's folder; "
    "replace the link with a file, or render the file it points to",
) | {errno.EISDIR: "README mode writes the picture under that name: move the folder aside"}


def check_markdown(
    path: str | Path, options: Options | None = None, report: Report | None = None
) -> int:
    """Check every ```volley block of a Markdown file, reporting what is wrong (at its line
    in the file); the number of blocks that have errors. Nothing is rendered or written."""
    return _checked_blocks(Path(path), _options(options), report)[2]


def _point_to_the_importer(text: str, shown: str, report: Report) -> None:
    """A page with no ```volley block given to volley was likely meant to hold some: say so,
    and, where it has swimlanes.io's blocks or Mermaid sequence diagrams, how to make blocks
    of those."""
    from volley.importers.mermaid import is_sequence, markdown_blocks
    from volley.importers.swimlanes import diagram_lines

    swimlanes = diagram_lines(text)
    if swimlanes:  # docsify-swimlanes-io's blocks, swimlanes.io's embeds: volley's text already
        count = counted(len(swimlanes), "swimlanes.io diagram", "swimlanes.io diagrams")
        fence = swimlanes[0] - 1
        report(
            Diagnostic(
                f"no ```volley block here, only {count}; volley draws ```volley blocks",
                shown,
                fence,
                1,
                text.split("\n")[fence - 1].rstrip("\r"),
                severity="note",
                hint="volley reads swimlanes.io's text as it is: put it in a ```volley block "
                "to draw it here (a ```swimlanes-io block: write ```volley on its first line)",
            )
        )
        return
    mermaid = [block for block in markdown_blocks(text) if is_sequence(block)]
    if not mermaid:  # named on the command line, it was meant to hold some
        report(
            Diagnostic(
                "no ```volley block here: nothing to draw",
                shown,
                severity="note",
                hint="a diagram goes in a fenced block: a ```volley line, its lines, a ``` line",
            )
        )
        return
    count = counted(len(mermaid), "```mermaid sequence diagram", "```mermaid sequence diagrams")
    first = max(mermaid[0].start - 1, 0)  # its opening fence
    report(
        Diagnostic(
            f"no ```volley block here, only {count}; volley draws ```volley blocks",
            shown,
            first + 1,
            1,
            text.split("\n")[first].rstrip("\r"),
            severity="note",
            hint=f"volley import {shown} -o flows/ writes each as a .volley file, to paste "
            "into a ```volley block or to render",
        )
    )


def _options(options: Options | dict[str, Any] | None) -> Options:
    """README mode's options: those given, theme auto unless they say otherwise."""
    if isinstance(options, Options):
        return options
    return Options.of(**{"theme": "auto", **(options or {})})


def _checked_blocks(
    markdown: Path, options: Options, report: Report | None
) -> tuple[Scan, list[Diagram | None], int]:
    """The file's blocks, each parsed and checked (None where it has errors, or where its lines
    are a file pymdownx.snippets puts in), and how many failed, every problem and warning
    reported at its line in the Markdown file, in the page's order (a file a block names
    after the page's own lines)."""
    said: list[Diagnostic | VolleyError] = []
    shown = str(markdown)
    try:
        return _read_blocks(markdown, options, said.append)
    finally:
        if report is not None:
            for problem in sorted(
                said, key=lambda p: (p.filename != shown, p.filename or "", p.line)
            ):
                report(problem)


def _read_blocks(
    markdown: Path, options: Options, report: Report
) -> tuple[Scan, list[Diagram | None], int]:
    """`_checked_blocks`, each problem reported as it is found."""
    from volley import api

    shown = str(markdown)
    try:
        data = markdown.read_bytes()
    except OSError as exc:
        raise VolleyError(
            f"cannot read {shown_path(shown)}: {exc.strerror or exc}", filename=shown
        ) from None
    unread: list[VolleyError] = []  # lines not UTF-8
    try:
        text = decode(data, shown)
    except VolleyError as exc:
        if not exc.line or b"\x00" in data:  # a binary file, or one misnamed by its mark
            raise
        text, unread = past_bytes(data, shown)  # its blocks are checked all the same
    if options.redact:
        report = _redacting(report, text)  # the scan's own errors quote lines too
    found = scan(text, shown)
    found.read = data
    found.problems[:0] = unread
    found.undecoded = bool(unread)
    for problem in [*(error.diagnostic for error in found.problems), *found.warnings]:
        report(problem)
    if not (found.blocks or found.problems or found.warnings):  # a broken block is one
        _point_to_the_importer(text, shown, report)
    diagrams: list[Diagram | None] = []
    included = 0
    told: set[tuple[str | None, int, int, str]] = set()  # a file's warnings, said once
    for block in found.blocks:
        at_fence = _at_fence(shown, block, found.lines)
        try:
            typed = typed_options(block.attrs)
            typed.pop("interactive", None)  # a README's picture is an image either way
            block.options = options.updated(**typed)
        except VolleyError as exc:  # OptionError included, which names the option
            report(at_fence(exc.diagnostic, getattr(exc, "option", None)))
            diagrams.append(None)
            continue
        source, filename, offset = block.source, shown, block.offset
        refused = block.file is not None and _refused(markdown.parent / block.file, markdown)
        if refused:
            said = f"this ```volley fence names {block.file}, {refused}"
            hint = "name a .volley file of the project, its path relative to the page"
            report(at_fence(Diagnostic(said, hint=hint), block.file))
            diagrams.append(None)
            continue
        if block.file is not None:  # a MyST block naming a file: its lines are the file's
            filename, offset = str(markdown.parent / block.file), 0
            try:
                source = api.read(filename, options.limits)
            except VolleyError as exc:  # missing, a folder, too large: said at the fence
                report(at_fence(exc.diagnostic, block.file))
                diagrams.append(None)
                continue
        if _SNIPPET_LINES.fullmatch(written := source.strip()):  # pymdownx.snippets' lines
            named = ", ".join(line or block for line, block in _SNIPPET_FILE.findall(written))
            report(
                at_fence(
                    Diagnostic(
                        f"this ```volley block's lines are {named}, which pymdownx.snippets "
                        "puts in when the site is built: not checked or drawn here",
                        severity="note",
                        hint="check the file itself: volley check " + named.split(", ")[0],
                    ),
                    None,
                )
            )
            diagrams.append(None)
            included += 1
            continue
        try:
            checked = api.check(
                source, filename=filename, limits=options.limits, redact=block.options.redact
            )
        except VolleyError as exc:  # every error of the block, as for a .volley file
            problems: list[Diagnostic | VolleyError] = [*exc.errors, *exc.warnings]
            for each in sorted(problems, key=lambda p: (p.line or 0, p.column or 0)):
                report(_shifted(each, filename, offset))
            stopped = getattr(exc, "stopped_at", None)
            if stopped is not None:  # so many errors: the lines after it were not read
                report(
                    Diagnostic(
                        f"volley stopped reading this diagram at line {stopped + offset}: fix "
                        "these and check again for any after it",
                        filename,
                        stopped + offset,
                        severity="note",
                    )
                )
            diagrams.append(None)
            continue
        for warning in checked.warnings:  # once, however many fences draw its file
            shifted = _shifted(warning, filename, offset)
            warned = (shifted.filename, shifted.line, shifted.column, shifted.message)
            if warned not in told:
                told.add(warned)
                report(shifted)
        # as drawn: its title names the picture's file and ids, and is the image's alt text
        diagrams.append(api.masked(checked, redact=block.options.redact))
    return found, diagrams, len(found.problems) + diagrams.count(None) - included


# A block made of pymdownx.snippets' lines, which put a file's lines in its place when MkDocs
# builds the page: the line form (`--8<-- "flow.volley"`) or the block form (`--8<--`, file
# names, `--8<--`), a file's name perhaps with the lines taken from it (`flow.volley:3:8`)
_SNIPPET_MARK = r"[ \t]*-+8<-+"
_SNIPPET_FILE = re.compile(
    rf'^{_SNIPPET_MARK}[ \t]+["\']([^"\'\n:]+)[^"\'\n]*["\']'  # `--8<-- "flow.volley"`
    r'|^[ \t]*([^\s"\'-][^:\n]*?)(?::[-\d:]*)?[ \t]*$',
    re.M,
)
_SNIPPET_LINES = re.compile(
    rf'(?:{_SNIPPET_MARK}[ \t]+["\'][^"\'\n]+["\'][ \t]*(?:\n|$))+'
    rf"|{_SNIPPET_MARK}[ \t]*\n(?:[ \t]*[^\s-][^\n]*\n)+{_SNIPPET_MARK}[ \t]*"
)


def _refused(path: Path, page: Path) -> str | None:
    """Why a file a fence names is not read, if it is not: a README's pictures are drawn from
    its own project's .volley files, and a hook or a CI job draws those of pages it did not
    write, into files it commits, and quotes a broken one's lines in its log (`.env`,
    `/etc/passwd`)."""
    if path.suffix != VOLLEY_SUFFIX:
        return "which is not a .volley file"
    try:
        found = path.resolve(strict=True)
    except FileNotFoundError:  # said when it is read, as any file missing
        found = path.resolve()
    except (OSError, RuntimeError):  # a loop of links (which Python 3.13 resolves to itself)
        return "which cannot be followed to a file"
    if not in_project(found, page):
        return "outside the folder volley runs in and the page's own"
    return None if found.suffix == VOLLEY_SUFFIX else "which is not a .volley file"  # a link to one


# A word of a fence line: `key`, `key=value`, `key="a quoted value"`
_FENCE_WORD = re.compile(r"""(?P<key>[^\s="']+)(?:=(?:"[^"]*"|'[^']*'|\S*))?""")


def _at_fence(
    shown: str, block: Block, lines: list[Line]
) -> Callable[[Diagnostic, str | None], Diagnostic]:
    """A problem with a fence's options, pointing at the fence line: at the option it is
    about, where it names one written there (`theme="drak"`), else at the line's start."""
    text = lines[block.open].text

    def placed(problem: Diagnostic, option: str | None = None) -> Diagnostic:
        # the option as a word of the line, not inside another's quoted value
        found = next((o for o in _FENCE_WORD.finditer(text) if o["key"] == option), None)
        return dataclasses.replace(
            problem,
            filename=shown,
            line=block.open + 1,
            column=found.start() + 1 if found else 1,
            source_line=text,
        )

    return placed


def _redacting(report: Report, text: str) -> Report:
    """`report`, masking secrets in what it prints: an error quotes the line it points at,
    which may repeat a credential the page names elsewhere (`text`)."""
    from volley.checks.redact import SaidAbout

    said_about = SaidAbout(text)
    return lambda problem: report(said_about(problem))


def _apply(lines: list[Line], edits: dict[int, tuple[int, list[Line]]]) -> list[Line]:
    """Replace whole line ranges; an edit whose last line is before its first is an insertion."""
    out: list[Line] = []
    index = 0
    for first in sorted(edits):
        last, replacement = edits[first]
        out.extend(lines[index:first])
        out.extend(replacement)
        index = max(index, last + 1, first)
    out.extend(lines[index:])
    return out


class _Sayer:
    """One change line, worded for what was done or, under --check, for what is out of date."""

    def __init__(self, filename: str, check: bool, into: list[str]) -> None:
        self.filename, self.check, self.into = filename, check, into

    def __call__(self, done: str, stale: str) -> None:
        self.into.append(f"{self.filename}: {stale if self.check else done}")
