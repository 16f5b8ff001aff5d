"""The fenced blocks of a Markdown page, as CommonMark reads it (markdown-it-py).

README mode and the Mermaid importer read pages the way GitHub's renderer does: a fence inside
an indented code block, an HTML block or another fence is text, and a fence in a quote or a
list item ends with its container. markdown-it-py already knows all of that; this module only
turns its fence tokens into the lines of the page they stand on. The fences inside volley's own
text (payload bodies, notes) follow the same rule through `volley.text.fences`.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, replace
from typing import Any

from volley.text.fences import Opening, fence_open, read_block

__all__ = [
    "PageFence", "container_fences", "indented_code_lines", "page_fence", "page_fences", "parse",
    "superfences",
]  # fmt: skip

# The containers MkDocs sites write with Python-Markdown's extensions: an admonition (`!!!
# note`), a collapsible one (`??? tip`, `???+ tip`) and a content tab (`=== "Tab"`). Their
# content is indented four columns, which CommonMark reads as an indented code block.
_CONTAINER = re.compile(r"([ \t]*)(?:!!!|\?\?\?\+?|===)[ \t]+\S")
_TAB_STOP = 4


@dataclass(frozen=True, slots=True)
class PageFence:
    """A fenced block of a page: its lines are `start` (the opening fence) to `end - 1`."""

    start: int
    end: int  # after the closing fence, or after the block's last line when never closed
    info: str
    markup: str  # the opening fence (```` ``` ````, `~~~~`), as a closing fence must repeat it
    body: list[str]  # one per line, without the containers' prefixes and the fence's indent
    closed: bool

    @property
    def lang(self) -> str | None:
        """The info string's first word, if any."""
        words = self.info.split()
        return words[0] if words else None


def parse(text: str) -> list[Any]:
    """The page's CommonMark block tokens; their `map` counts lines split at `\\n`, `\\r\\n`
    and a lone `\\r`.

    YAML front matter at the top (`---`, its keys, `---`), which Jekyll, Hugo, Docusaurus,
    MkDocs and Quarto pages open with and GitHub shows as a table, is one token of its own:
    read as Markdown, its closing `---` would make its last line a heading. What stands
    between two rules and reads as no YAML keys is Markdown (a page that opens with a rule)."""
    from markdown_it import MarkdownIt  # only pages need it
    from mdit_py_plugins.front_matter import front_matter_plugin

    tokens = MarkdownIt("commonmark").use(front_matter_plugin).parse(text)
    if tokens and tokens[0].type == "front_matter" and not _keys(tokens[0].content):
        return MarkdownIt("commonmark").parse(text)
    return tokens


def _keys(text: str) -> bool:
    """Whether front matter's text is YAML keys and their values (a mapping)."""
    import yaml  # only a page with front matter needs it

    try:
        return isinstance(yaml.safe_load(text), dict)
    except yaml.YAMLError:
        return False


def page_fence(token: Any) -> PageFence:
    """A `fence` token as the page lines it covers.

    markdown-it-py ends each body line with `\\n` (the page's last line only if the page
    does), and the token's lines run through the closing fence: a block is closed when its
    lines are two more than its body's.
    """
    start, end = token.map
    body = token.content.split("\n")
    if body[-1] == "":
        body.pop()
    return PageFence(start, end, token.info, token.markup, body, end - start == len(body) + 2)


def page_fences(text: str) -> list[PageFence]:
    """Every fenced block of the page, in order (those nested in quotes and lists too)."""
    return [page_fence(token) for token in parse(text) if token.type == "fence" and token.map]


def indented_code_lines(text: str) -> set[int]:
    """The lines of the page's indented code blocks (indented four columns, after a blank
    line), where a page shows text rather than says it."""
    blocks = (token.map for token in parse(text) if token.type == "code_block" and token.map)
    return {line for start, end in blocks for line in range(start, end)}


def container_fences(lines: list[str]) -> Iterator[tuple[int, PageFence]]:
    """The fenced blocks in the admonitions and content tabs of a page written for MkDocs
    (those nested in one too), each with the page line its container's content starts on:
    where Python-Markdown's superfences finds fences that CommonMark reads as code. A
    container written inside a fence or an indented code block (a page that shows how to
    write one) holds none."""
    if not any(_CONTAINER.match(line) for line in lines):
        return  # most pages: no container, and no second parse of the page
    shown = (
        token.map
        for token in parse("\n".join(lines))
        if token.type in ("fence", "code_block") and token.map
    )
    fenced = {n for start, end in shown for n in range(start, end)}
    index = 0
    while index < len(lines):
        found = _CONTAINER.match(lines[index])
        if found is None or index in fenced:
            index += 1
            continue
        width = _columns(found[1]) + _TAB_STOP
        end = index + 1
        while end < len(lines) and (not lines[end].strip() or _columns(lines[end]) >= width):
            end += 1
        body = [_less_deep(line, width) for line in lines[index + 1 : end]]
        for fence in page_fences("\n".join(body)):
            yield index + 1, fence
        for start, fence in container_fences(body):
            yield index + 1 + start, fence
        index = end


def superfences(text: str) -> list[PageFence]:
    """The page's fenced blocks outside containers as superfences finds them: CommonMark's,
    and those that open inside an HTML block. A fence right under `<details>` or `<div
    align="center">`, with no blank line between, is the element's HTML to CommonMark (GitHub
    shows it as text), while Python-Markdown's superfences, which MkDocs sites use, finds it
    as a fence: it is read to its closing fence, past a blank line of its body, and the page
    after it read afresh (CommonMark could take its closing fence for an opening one)."""
    lines = text.split("\n")
    if not any(line.lstrip().startswith("<") for line in lines):
        return page_fences(text)  # most pages: no HTML
    found: list[PageFence] = []
    offset = 0
    while True:
        tokens = parse("\n".join(lines[offset:]))
        fences = [page_fence(token) for token in tokens if token.type == "fence" and token.map]
        inside = _fence_in_html(lines, offset, tokens)
        if inside is None:
            return found + [_moved(fence, offset) for fence in fences]
        index, opening = inside
        block = read_block(lines, index, opening, max_indent=3)
        end = block.end + 1 if block.closed else block.end
        found += [_moved(fence, offset) for fence in fences if offset + fence.end <= index]
        found.append(PageFence(index, end, opening.info, opening.fence, block.body, block.closed))
        offset = end


def _fence_in_html(lines: list[str], offset: int, tokens: list[Any]) -> tuple[int, Opening] | None:
    """The first fence that opens inside a top-level HTML block of `lines[offset:]`, whose
    tokens these are: its page line and its opening."""
    for token in tokens:
        if token.type != "html_block" or not token.map or token.level:
            continue
        for index in range(offset + token.map[0], offset + token.map[1]):
            opening = fence_open(lines[index], max_indent=3)
            if opening is not None:
                return index, opening
    return None


def _moved(fence: PageFence, offset: int) -> PageFence:
    return replace(fence, start=fence.start + offset, end=fence.end + offset)


def _columns(text: str) -> int:
    """Columns of a line's leading white space, a tab advancing to the next multiple of four."""
    leading = text[: len(text) - len(text.lstrip(" \t"))]
    return len(leading.expandtabs(_TAB_STOP))


def _less_deep(line: str, width: int) -> str:
    """The line without `width` columns of its leading white space (a blank line: empty)."""
    if not line.strip():
        return ""
    leading = line[: len(line) - len(line.lstrip(" \t"))].expandtabs(_TAB_STOP)
    return leading[width:] + line.lstrip(" \t")
