"""A diagram in, a copy with its texts rewritten: the walk that redaction, revealing hidden
characters, the importers' lane names and swimlanes.io's links share (a step on the model, no
stage of its own: any stage may take it).

Each changes what is drawn or written, never what was parsed: the copy gets its own items,
branches and payloads, and the input is left as it was. Iterative, so it holds for any nesting the
parser accepts.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass

from volley.model import Activation, Block, Box, Diagram, Divider, Item, Message, Note, Payload

Rewrite = Callable[[str], str]


def _same(text: str) -> str:
    return text


@dataclass(frozen=True)
class Rewrites:
    """How each kind of text is rewritten; `names` maps a participant's name to its new one."""

    label: Rewrite = _same  # titles, labels, dividers, block and box labels, display labels
    note: Rewrite = _same  # a note's whole text
    body: Rewrite = _same  # a payload's body
    names: dict[str, str] = dataclasses.field(default_factory=dict)

    def name(self, name: str) -> str:
        return self.names.get(name, name)


def rewrite_diagram(diagram: Diagram, rewrites: Rewrites) -> Diagram:
    """A copy of the diagram with every text passed through `rewrites`."""
    copy = dataclasses.replace(
        diagram,
        title=rewrites.label(diagram.title) if diagram.title is not None else None,
        participants=[rewrites.name(name) for name in diagram.participants],
        labels={rewrites.name(k): rewrites.label(v) for k, v in diagram.labels.items()},
        declared_lines={rewrites.name(k): v for k, v in diagram.declared_lines.items()},
        listed_lines={rewrites.name(k): v for k, v in diagram.listed_lines.items()},
        boxes=[_rewrite_box(box, rewrites) for box in diagram.boxes],
        items=list(diagram.items),
        warnings=list(diagram.warnings),
    )
    pending: list[list[Item]] = [copy.items]
    while pending:
        items = pending.pop()
        for index, item in enumerate(items):
            items[index] = changed = _rewrite_item(item, rewrites)
            if isinstance(changed, Block):
                pending.extend(branch.items for branch in changed.branches)
    return copy


def _rewrite_item(item: Item, rewrites: Rewrites) -> Item:
    """A shallow copy of one item with its own texts rewritten (a block's branches' items come
    later, from the caller's loop)."""
    if isinstance(item, Message):
        return dataclasses.replace(
            item,
            sender=rewrites.name(item.sender),
            receiver=rewrites.name(item.receiver),
            label=rewrites.label(item.label),
            request=_rewrite_payload(item.request, rewrites),
            response=_rewrite_payload(item.response, rewrites),
        )
    if isinstance(item, Note):
        over = [rewrites.name(name) for name in item.over]
        return dataclasses.replace(item, over=over, text=rewrites.note(item.text))
    if isinstance(item, Block):
        branches = [
            dataclasses.replace(b, label=rewrites.label(b.label), items=list(b.items))
            for b in item.branches
        ]
        return dataclasses.replace(item, branches=branches)
    if isinstance(item, Activation):
        return dataclasses.replace(item, participant=rewrites.name(item.participant))
    if isinstance(item, Divider):
        return dataclasses.replace(item, label=rewrites.label(item.label))
    return item


def _rewrite_box(box: Box, rewrites: Rewrites) -> Box:
    participants = [rewrites.name(name) for name in box.participants]
    return dataclasses.replace(box, label=rewrites.label(box.label), participants=participants)


def _rewrite_payload(payload: Payload | None, rewrites: Rewrites) -> Payload | None:
    if payload is None:
        return None
    return dataclasses.replace(
        payload, label=rewrites.label(payload.label), body=rewrites.body(payload.body)
    )
