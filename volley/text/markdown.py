"""The fenced blocks of a Markdown page, as CommonMark reads it (markdown-it-py).

README mode and the Mermaid importer read pages the way GitHub's renderer does: a fence inside
an indented code block, an HTML block or another fence is text, and a fence in a quote or a
list item ends with its container. markdown-it-py already knows all of that; this module only
turns its fence tokens into the lines of the page they stand on. The fences inside volley's own
text (payload bodies, notes) follow the same rule through `volley.text.fences`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

__all__ = ["PageFence", "indented_code_lines", "page_fence", "page_fences", "parse"]


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
    and a lone `\\r`."""
    from markdown_it import MarkdownIt  # only pages need it

    return MarkdownIt("commonmark").parse(text)


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
