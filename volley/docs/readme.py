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
diagram does not rename the others. A block wrapped in `<details>` gets its link after
`</details>`, so the picture shows while the source stays folded.
"""

from __future__ import annotations

import dataclasses
import posixpath
import re
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from volley.errors import Diagnostic, VolleyError
from volley.model import Diagram
from volley.options import Options
from volley.textio import decode, write_atomic

FOLDER = "diagrams"
BEGIN = "<!-- volley:begin {name} -->"
END = "<!-- volley:end -->"

_PREFIX = r"(?P<prefix>(?:[ \t]*>)*[ \t]*)"
_OPEN = re.compile(_PREFIX + r"(?P<fence>`{3,}|~{3,})[ \t]*(?P<info>[^\n]*?)[ \t]*$")
_BEGIN = re.compile(r"^(?:[ \t]*>)*[ \t]*<!--[ \t]*volley:begin\b[^\n]*-->[ \t]*$")
_END = re.compile(r"^(?:[ \t]*>)*[ \t]*<!--[ \t]*volley:end\b[^\n]*-->[ \t]*$")
_ATX = re.compile(r"^(?:[ \t]*>)*[ \t]{0,3}#{1,6}(?:[ \t]+(?P<text>.*?))?(?:[ \t]+#+)?[ \t]*$")
_SETEXT = re.compile(r"^[ \t]{0,3}(?:=+|-+)[ \t]*$")
# Lines that cannot be a setext heading's text: a comment (the markers are comments: `---`
# after `<!-- volley:end -->` is a rule, not a heading) or a code fence.
_NOT_TEXT = re.compile(r"^(?:[ \t]*>)*[ \t]*(?:<!--|`{3,}|~{3,})")
_LIST_ITEM = re.compile(r"^[ \t]*(?:[-*+]|\d{1,9}[.)])(?:[ \t]|$)")
_ATTR = re.compile(
    r"""(?P<key>[A-Za-z_][\w-]*)=(?:"(?P<dq>[^"]*)"|'(?P<sq>[^']*)'|(?P<bare>[^\s}]+))"""
)
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


@dataclass
class Scan:
    """What a Markdown file holds, for README mode."""

    lines: list[Line]
    blocks: list[Block] = field(default_factory=list)
    regions: list[tuple[int, int]] = field(default_factory=list)  # every marker region seen
    problems: list[VolleyError] = field(default_factory=list)


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


def fence_attrs(info: str) -> tuple[str, dict[str, str]]:
    """The language word of an info string and its `key=value` attributes.

    Accepts ```` ```volley name=login ```` and ```` ```volley {name="login"} ````; GitHub
    highlights by the first word only, so attributes stay invisible there.
    """
    info = info.strip()
    lang, _, rest = info.partition(" ")
    lang = lang.strip("{}").lstrip(".")
    attrs = {}
    for match in _ATTR.finditer(rest):
        value = match["dq"] if match["dq"] is not None else match["sq"]
        attrs[match["key"]] = value if value is not None else match["bare"]
    return lang, attrs


def slugify(text: str) -> str:
    """A file-name-safe slug: ASCII letters, digits and single dashes."""
    text = _LINK.sub(r"\1", text)
    text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")
    text = re.sub(r"[^A-Za-z0-9]+", "-", text.lower()).strip("-")
    return text[:60].rstrip("-")


def _strip_prefix(text: str, prefix: str) -> str:
    """A content line without its container prefix (or as much indentation as it has)."""
    if text.startswith(prefix):
        return text[len(prefix) :]
    stripped = text.lstrip(" \t")
    taken = len(text) - len(stripped)
    return text[min(taken, len(prefix)) :]


def _indented_code(lines: list[Line], index: int, prefix: str) -> bool:
    """Whether a fence indented four or more columns is really an indented code block.

    Inside a list item such a fence is a fence; elsewhere it is code showing a fence.
    """
    indent = len(prefix.expandtabs(4)) - len(prefix.expandtabs(4).lstrip(" "))
    if ">" in prefix or indent < 4:
        return False
    for back in range(index - 1, -1, -1):
        text = lines[back].text
        if not text.strip():
            continue
        own = len(text.expandtabs(4)) - len(text.expandtabs(4).lstrip(" "))
        if own < indent:
            return not _LIST_ITEM.match(text)
    return True


def _close_of(lines: list[Line], start: int, fence: str) -> int | None:
    closer = re.compile(_PREFIX + re.escape(fence[0]) + "{" + str(len(fence)) + r",}[ \t]*$")
    for index in range(start + 1, len(lines)):
        if closer.match(lines[index].text):
            return index
    return None


def _region_after(lines: list[Line], anchor: int) -> tuple[int, int] | None:
    """Marker lines after `anchor` (blank lines may sit between), if there are any."""
    index = anchor + 1
    while index < len(lines) and not lines[index].text.strip():
        index += 1
    if index >= len(lines) or not _BEGIN.match(lines[index].text):
        return None
    for end in range(index + 1, min(index + 20, len(lines))):
        if _END.match(lines[end].text):
            return index, end
        if _BEGIN.match(lines[end].text) or _OPEN.match(lines[end].text):
            break
    return None


def _link_anchor(lines: list[Line], close: int) -> int:
    """The fence's closing line, or the `</details>` that folds the block away."""
    index = close + 1
    while index < len(lines) and not lines[index].text.strip():
        index += 1
    if index < len(lines) and lines[index].text.strip().lower() == "</details>":
        return index
    return close


def scan(text: str, filename: str) -> Scan:
    """Find the ```volley blocks, their headings and marker regions; skip every other fence."""
    lines = split_lines(text)
    found = Scan(lines)
    heading: str | None = None
    index = 0
    while index < len(lines):
        text_here = lines[index].text
        opening = _OPEN.match(text_here)
        if (
            opening
            and not (opening["fence"][0] == "`" and "`" in opening["info"])
            and not _indented_code(lines, index, opening["prefix"])
        ):
            close = _close_of(lines, index, opening["fence"])
            lang, attrs = fence_attrs(opening["info"])
            if lang != "volley":
                index = len(lines) if close is None else close + 1
                continue
            if close is None:
                found.problems.append(
                    VolleyError(
                        "this ```volley block is never closed",
                        filename=filename,
                        line=index + 1,
                        column=len(opening["prefix"]) + 1,
                        source_line=text_here,
                        hint=f"close it with a line of {opening['fence']}",
                    )
                )
                break
            prefix = opening["prefix"]
            body = [_strip_prefix(lines[i].text, prefix) for i in range(index + 1, close)]
            block = Block(index, close, prefix, "\n".join(body), attrs, heading)
            block.anchor = _link_anchor(lines, close)
            block.region = _region_after(lines, block.anchor)
            found.blocks.append(block)
            index = close + 1
            continue
        if _BEGIN.match(text_here):
            region = _region_after(lines, index - 1)
            if region:
                found.regions.append(region)
                index = region[1] + 1
                continue
        atx = _ATX.match(text_here)
        if atx:
            heading = (atx["text"] or "").strip() or heading
        elif (
            _SETEXT.match(text_here)
            and index > 0
            and lines[index - 1].text.strip()
            and not _LIST_ITEM.match(lines[index - 1].text)
            and not _ATX.match(lines[index - 1].text)
            and not _NOT_TEXT.match(lines[index - 1].text)
        ):
            heading = lines[index - 1].text.strip()
        index += 1
    return found


def assign_names(blocks: list[Block], titles: list[str | None], filename: str) -> None:
    """Stable, distinct names: `name=` first, then the heading (or title), then `-2`, `-3`…

    A name depends on what the author wrote near the block, never on how many blocks come
    before it; only a second block under the same heading gets a suffix.
    """
    taken: set[str] = set()
    for block in blocks:
        if "name" not in block.attrs:
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
    if "never closed" not in diagnostic.message or not shown.startswith(("```", "~~~")):
        return diagnostic
    return dataclasses.replace(
        diagnostic,
        hint="a ```volley block ends at the first ``` line inside it; when the diagram holds "
        "fences of its own, open and close it with four backticks (````volley … ````)",
    )


def _shifted(error: Diagnostic | VolleyError, filename: str, offset: int) -> Diagnostic:
    """A diagnostic about a block's text, pointing into the Markdown file instead."""
    diagnostic = error.diagnostic if isinstance(error, VolleyError) else error
    diagnostic = with_nested_fence_hint(diagnostic)
    return Diagnostic(
        diagnostic.message,
        filename,
        diagnostic.line + offset if diagnostic.line else offset,
        diagnostic.column,
        diagnostic.source_line,
        diagnostic.hint,
        diagnostic.severity,
    )


def _alt(title: str | None, name: str) -> str:
    from volley.text.inline import plain_text

    text = plain_text(title) if title else ""
    text = text or name.replace("-", " ").capitalize()
    return re.sub(r"([\\\[\]])", r"\\\1", text)


def svg_name(markdown: Path, name: str) -> str:
    """The SVG's file name: `NAME.svg` for a README, `STEM-NAME.svg` for any other file.

    Two Markdown files in one folder share `diagrams/`; the stem keeps their pictures apart.
    """
    stem = markdown.stem.lower()
    return f"{name}.svg" if stem == "readme" else f"{slugify(markdown.stem) or stem}-{name}.svg"


def region_lines(block: Block, alt: str, link: str, lines: list[Line]) -> list[Line]:
    """The marker region for a block, indented like the block so it stays in its container."""
    anchor = lines[block.anchor]
    indent = anchor.text[: len(anchor.text) - len(anchor.text.lstrip(" \t"))]
    prefix = block.prefix if block.anchor == block.close else indent
    eol = anchor.eol or next((line.eol for line in lines if line.eol), "\n")
    texts = [BEGIN.format(name=block.name), f"![{alt}]({link})", END]
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
    found, diagrams = _checked_blocks(markdown, options, report)
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
        svg = str(api.render(diagram, options=options, format="svg", id_prefix=block.name))
        try:
            current = target.read_bytes()
        except OSError:
            current = None
        if current != svg.encode("utf-8"):
            writes.append((target, svg))
            state = "is missing" if current is None else "is out of date"
            say(f"wrote {target.as_posix()}", f"{target.as_posix()} {state}")
        link = posixpath.join(FOLDER, target.name)
        wanted = region_lines(block, _alt(diagram.title, block.name), link, lines)
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

    if not check and changes:
        for target, svg in writes:
            target.parent.mkdir(parents=True, exist_ok=True)
            write_atomic(target, svg)
        if edits:
            write_atomic(markdown, join_lines(_apply(lines, edits)).encode("utf-8"))
    failed = len(found.problems) + diagrams.count(None)
    if failed:
        raise VolleyError(
            f"{failed} diagram(s) with errors, left as they were (the others are done)",
            filename=shown,
        )
    return changes


def check_markdown(
    path: str | Path, options: Options | None = None, report: Report | None = None
) -> int:
    """Check every ```volley block of a Markdown file, reporting what is wrong (at its line
    in the file); the number of blocks that have errors. Nothing is rendered or written."""
    found, diagrams = _checked_blocks(Path(path), _options(options), report)
    return len(found.problems) + diagrams.count(None)


def _options(options: Options | dict[str, Any] | None) -> Options:
    """README mode's options: those given, theme auto unless they say otherwise."""
    if isinstance(options, Options):
        return options
    return Options.of(**{"theme": "auto", **(options or {})})


def _checked_blocks(
    markdown: Path, options: Options, report: Report | None
) -> tuple[Scan, list[Diagram | None]]:
    """The file's blocks, each parsed and checked (None where it has errors), every problem
    and warning reported at its line in the Markdown file."""
    from volley import api

    report = report or (lambda _d: None)
    if options.redact:
        report = _redacting(report)  # the scan's own errors quote lines too
    shown = str(markdown)
    try:
        data = markdown.read_bytes()
    except OSError as exc:
        raise VolleyError(f"cannot read {shown}: {exc.strerror or exc}", filename=shown) from None
    found = scan(decode(data, shown), shown)
    for problem in found.problems:
        report(problem)
    diagrams: list[Diagram | None] = []
    for block in found.blocks:
        try:
            checked = api.check(
                block.source, filename=shown, limits=options.limits, redact=options.redact
            )
        except VolleyError as exc:
            report(_shifted(exc, shown, block.open + 1))
            diagrams.append(None)
            continue
        for warning in checked.warnings:
            report(_shifted(warning, shown, block.open + 1))
        diagrams.append(checked.diagram)
    return found, diagrams


def _redacting(report: Report) -> Report:
    """`report`, masking secrets in what it prints: an error quotes the line it points at."""
    from volley.checks.redact import redact_diagnostic, redact_error

    def masked(problem: Diagnostic | VolleyError) -> None:
        if isinstance(problem, VolleyError):
            report(redact_error(problem))
        else:
            report(redact_diagnostic(problem))

    return masked


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
