"""Warnings about a valid diagram: things that render, but probably not as meant.

An unknown or Pro-only icon is drawn as a placeholder; a warning names it so the author can fix
it. Warnings never fail a command.
"""

from __future__ import annotations

from collections.abc import Iterator

from volley.errors import Diagnostic
from volley.model import Block, Diagram, Divider, Message, Note, walk


def marked_up_texts(diagram: Diagram) -> Iterator[tuple[int, str]]:
    """Every text that carries inline markup, with the line it was written on."""
    if diagram.title:
        yield diagram.title_line, diagram.title
    for item in walk(diagram.items):
        if isinstance(item, (Message, Divider)):
            yield item.line, item.label
        elif isinstance(item, Note):
            for offset, text in enumerate(item.text.split("\n")):
                yield item.line + offset, text
        elif isinstance(item, Block):
            for branch in item.branches:
                yield branch.line, branch.label


def lint(diagram: Diagram, source: str) -> list[Diagnostic]:
    """Warnings for the diagram; `source` is its text, for showing the line."""
    from volley.icons import check_icon
    from volley.inline import icon_refs

    lines = source.lstrip("\ufeff").replace("\r\n", "\n").replace("\r", "\n").split("\n")
    found: list[Diagnostic] = []
    for line, text in marked_up_texts(diagram):
        if "{" not in text:
            continue
        for ref in icon_refs(text):
            problem = check_icon(ref)
            if problem is None:
                continue
            source_line = lines[line - 1] if 0 < line <= len(lines) else None
            column = source_line.find(ref.source) + 1 if source_line else 0
            found.append(
                Diagnostic(
                    problem,
                    diagram.filename,
                    line,
                    max(column, 1),
                    source_line,
                    severity="warning",
                )
            )
    return found
