"""The diagram as plain dataclasses: what the parser builds and every later stage reads.

The shape mirrors the JSON that `volley parse` prints (see `to_json`), so the model is the
contract for tools built on volley. Later stages never reach back into the parser.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal

if TYPE_CHECKING:
    from volley.errors import Diagnostic

DividerStyle = Literal["bold", "regular", "dashed", "thin", "delay"]
BlockKind = Literal["if", "group", "loop", "opt", "par"]
LineStyle = Literal["solid", "dashed", "bold"]
HeadStyle = Literal["none", "filled", "open", "cross"]


@dataclass(frozen=True, slots=True)
class ArrowStyle:
    """How an arrow operator is drawn: the line, and the head at each written end."""

    line: LineStyle
    head_from: HeadStyle  # the head at the left-hand (first written) name
    head_to: HeadStyle  # the head at the right-hand (second written) name


# Every operator the language knows, with how it is drawn. Longest first, so a scanner that
# tries them in order never takes `->` for the start of `->>`.
ARROWS: dict[str, ArrowStyle] = {
    "<-->": ArrowStyle("dashed", "filled", "filled"),
    "<->": ArrowStyle("solid", "filled", "filled"),
    "<=>": ArrowStyle("bold", "filled", "filled"),
    "-->>": ArrowStyle("dashed", "none", "open"),
    "<--": ArrowStyle("dashed", "filled", "none"),
    "-->": ArrowStyle("dashed", "none", "filled"),
    "--x": ArrowStyle("dashed", "none", "cross"),
    "->>": ArrowStyle("solid", "none", "open"),
    "=>>": ArrowStyle("bold", "none", "open"),
    "<-": ArrowStyle("solid", "filled", "none"),
    "->": ArrowStyle("solid", "none", "filled"),
    "-x": ArrowStyle("solid", "none", "cross"),
    "=>": ArrowStyle("bold", "none", "filled"),
    "<=": ArrowStyle("bold", "filled", "none"),
}


@dataclass(slots=True)
class Payload:
    """A body carried by a message: `in:` (request) or `out:` (response)."""

    label: str
    lang: str | None
    body: str
    form: Literal["fenced", "indented"]
    line: int = 0  # the line of the `in:`/`out:` keyword

    def to_json(self) -> dict:
        return {"label": self.label, "lang": self.lang, "body": self.body, "form": self.form}


@dataclass(slots=True)
class Message:
    """One arrow: `sender ARROW receiver: label`, with up to one request and one response."""

    line: int
    sender: str  # the name left of the operator, as written ("from" in JSON)
    receiver: str  # the name right of the operator, as written ("to" in JSON)
    arrow: str
    label: str = ""
    number: int | None = None
    request: Payload | None = None
    response: Payload | None = None
    # `->+` starts a bar on the receiver's lifeline, `-->-` ends the sender's bar
    activate: Literal["+", "-"] | None = None

    @property
    def style(self) -> ArrowStyle:
        return ARROWS[self.arrow]

    @property
    def is_self(self) -> bool:
        return self.sender == self.receiver

    def to_json(self) -> dict:
        return {
            "type": "message",
            "line": self.line,
            "from": self.sender,
            "to": self.receiver,
            "arrow": self.arrow,
            "label": self.label,
            "number": self.number,
            "request": self.request.to_json() if self.request else None,
            "response": self.response.to_json() if self.response else None,
            "activate": self.activate,
        }


@dataclass(slots=True)
class Note:
    """A note over one or more participants (`attached` ones follow a message)."""

    line: int
    over: list[str]  # every participant the note spans, in display order
    text: str  # continuation lines joined with "\n"; a fenced block kept with its fences
    attached: bool = False  # True for `note:` under a message

    def to_json(self) -> dict:
        return {"type": "note", "line": self.line, "over": list(self.over), "text": self.text}


@dataclass(slots=True)
class Divider:
    """A section, line, dashed line, thin line or delay across the whole diagram."""

    line: int
    style: DividerStyle
    label: str = ""

    def to_json(self) -> dict:
        return {"type": "divider", "line": self.line, "style": self.style, "label": self.label}


@dataclass(slots=True)
class Activation:
    """`activate A` / `deactivate A`: a bar on A's lifeline starts or ends here."""

    line: int
    participant: str
    on: bool  # True for `activate`, False for `deactivate`

    def to_json(self) -> dict:
        return {
            "type": "activation",
            "line": self.line,
            "participant": self.participant,
            "on": self.on,
        }


@dataclass(slots=True)
class Branch:
    """One part of a block: the first, or one after `else:`/`and:`."""

    label: str
    items: list[Item] = field(default_factory=list)
    line: int = 0

    def to_json(self) -> dict:
        return {"label": self.label, "items": [item.to_json() for item in self.items]}


@dataclass(slots=True)
class Block:
    """A frame (`if`, `loop`, `opt`, `par`, `group`) around branches of items."""

    line: int
    kind: BlockKind
    branches: list[Branch] = field(default_factory=list)
    end_line: int = 0

    def to_json(self) -> dict:
        return {
            "type": "block",
            "line": self.line,
            "kind": self.kind,
            "branches": [branch.to_json() for branch in self.branches],
        }


Item = Message | Note | Divider | Block | Activation


@dataclass(slots=True)
class Diagram:
    """A parsed `.volley` file: what `volley.parse` returns and every renderer reads."""

    title: str | None = None
    participants: list[str] = field(default_factory=list)  # display order
    items: list[Item] = field(default_factory=list)
    filename: str | None = None
    title_line: int = 0
    # What the parser read but would point out (a block left open at the end of the file);
    # not part of `to_json`, which is the model alone.
    warnings: list[Diagnostic] = field(default_factory=list)

    def to_json(self) -> dict:
        return {
            "title": self.title,
            "participants": list(self.participants),
            "items": [item.to_json() for item in self.items],
        }

    def messages(self) -> list[Message]:
        """Every message in document order (the order `data-message` numbers follow)."""
        return [item for item in walk(self.items) if isinstance(item, Message)]


def walk(items: list[Item]):
    """Yield every item in document order, descending into blocks (a block before its items)."""
    stack = [iter(items)]
    while stack:
        for item in stack[-1]:
            yield item
            if isinstance(item, Block):
                stack.append(iter([i for b in item.branches for i in b.items]))
                break
        else:
            stack.pop()
