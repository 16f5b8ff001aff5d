"""Redaction: a diagram in, a copy with every secret-looking value masked out.

A step of the pipeline between the checks and the layout (`volley.api`): everything drawn
after it (the picture, the payload tables, the raw bodies, the ids derived from the content)
sees only the masked texts. What counts as a secret, and how a text is masked so that a JSON
body stays JSON, is `volley.checks.secrets`' business; this module only walks the model.

Errors and warnings are masked too: an error quotes the line it points at, and under
`redact` that line may be the very header the user asked to hide.
"""

from __future__ import annotations

import dataclasses

from volley.checks.secrets import redact_body, redact_label, redact_names, redact_text
from volley.errors import Diagnostic, VolleyError
from volley.model import Activation, Block, Diagram, Divider, Item, Message, Note, Payload

__all__ = ["redact_diagnostic", "redact_diagram", "redact_error"]


def redact_diagram(diagram: Diagram) -> Diagram:
    """A copy of the diagram with every secret-looking value masked; the input is not changed.

    Iterative, so it holds for any nesting the parser accepts.
    """
    names = redact_names(diagram.participants)  # a name can hold a token too
    copy = dataclasses.replace(
        diagram,
        title=redact_label(diagram.title) if diagram.title is not None else None,
        participants=[names.get(name, name) for name in diagram.participants],
        labels={names.get(k, k): redact_label(label) for k, label in diagram.labels.items()},
        items=list(diagram.items),
        warnings=[redact_diagnostic(warning) for warning in diagram.warnings],
    )
    pending: list[list[Item]] = [copy.items]
    while pending:
        items = pending.pop()
        for index, item in enumerate(items):
            items[index] = masked = _redact_item(item, names)
            if isinstance(masked, Block):
                pending.extend(branch.items for branch in masked.branches)
    return copy


def _redact_item(item: Item, names: dict[str, str]) -> Item:
    """A shallow copy of one item with its own texts, and the masked participant names it
    uses, masked (a block's branches come later)."""
    if isinstance(item, Message):
        return dataclasses.replace(
            item,
            sender=names.get(item.sender, item.sender),
            receiver=names.get(item.receiver, item.receiver),
            label=redact_label(item.label),
            request=_redact_payload(item.request),
            response=_redact_payload(item.response),
        )
    if isinstance(item, Note):
        over = [names.get(name, name) for name in item.over]
        return dataclasses.replace(item, over=over, text=_redact_note(item.text))
    if isinstance(item, Divider):
        return dataclasses.replace(item, label=redact_label(item.label))
    if isinstance(item, Block):
        return dataclasses.replace(
            item,
            branches=[
                dataclasses.replace(b, label=redact_label(b.label), items=list(b.items))
                for b in item.branches
            ],
        )
    if isinstance(item, Activation):
        return dataclasses.replace(item, participant=names.get(item.participant, item.participant))
    return item


def _redact_payload(payload: Payload | None) -> Payload | None:
    if payload is None:
        return None
    return dataclasses.replace(
        payload, label=redact_label(payload.label), body=redact_body(payload.body)
    )


def _redact_note(text: str) -> str:
    """A note's text; a fenced block inside it is pasted traffic, masked like a body."""
    if "```" not in text and "~~~" not in text:
        return redact_label(text)
    return redact_body(text)


def redact_error(error: VolleyError) -> VolleyError:
    """The error with secret-looking values masked in its message, quoted line and hint."""
    return VolleyError(
        redact_text(error.message),
        filename=error.filename,
        line=error.line,
        column=error.column,
        source_line=redact_text(error.source_line) if error.source_line is not None else None,
        hint=redact_text(error.hint) if error.hint else error.hint,
    )


def redact_diagnostic(diagnostic: Diagnostic) -> Diagnostic:
    """A warning or error about to be printed, with secret-looking values masked."""
    return dataclasses.replace(
        diagnostic,
        message=redact_text(diagnostic.message),
        source_line=None if diagnostic.source_line is None else redact_text(diagnostic.source_line),
        hint=redact_text(diagnostic.hint) if diagnostic.hint else diagnostic.hint,
    )
