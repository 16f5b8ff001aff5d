"""Every text a diagram holds, with the line it was written on: the one walk the checks share.

The linter looks for icons in the texts that carry inline markup; the secret detection looks
through all of them, bodies included. Both read the diagram through `texts`, so a text a new
kind of item brings is seen by every check once it is listed here.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Literal

from volley.model import Block, Diagram, Divider, Message, Note, walk

# title, label (a message's, a divider's or a block branch's), note, payload (an `in:`/`out:`
# label), body (the payload itself: pasted traffic, never inline markup).
TextKind = Literal["title", "label", "note", "payload", "body"]


@dataclass(frozen=True, slots=True)
class Text:
    """One text of the diagram: the source line it starts on, the text, and what it is."""

    line: int
    text: str
    kind: TextKind

    @property
    def marked_up(self) -> bool:
        """Whether inline markup (bold, code, icons) is read in it."""
        return self.kind in ("title", "label", "note")

    @property
    def pasted(self) -> bool:
        """Whether it is pasted traffic rather than prose: a body, or a note holding a fence."""
        if self.kind == "note":
            return "```" in self.text or "~~~" in self.text
        return self.kind == "body"


def texts(diagram: Diagram) -> Iterator[Text]:
    """Every text in document order.

    Lines are counted the way the source is written: a fenced body starts two lines under its
    `in:`/`out:` line, an indented one a line under it.
    """
    if diagram.title:
        yield Text(diagram.title_line, diagram.title, "title")
    for item in walk(diagram.items):
        if isinstance(item, Message):
            yield Text(item.line, item.label, "label")
            for payload in (item.request, item.response):
                if payload is not None:
                    yield Text(payload.line, payload.label, "payload")
                    skip = 2 if payload.form == "fenced" else 1
                    yield Text(payload.line + skip, payload.body, "body")
        elif isinstance(item, Note):
            yield Text(item.line, item.text, "note")
        elif isinstance(item, Divider):
            yield Text(item.line, item.label, "label")
        elif isinstance(item, Block):
            for branch in item.branches:
                yield Text(branch.line, branch.label, "label")
