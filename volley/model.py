"""The diagram as plain dataclasses: what the parser builds and every later stage reads.

The shape mirrors the JSON that `volley parse` prints (see `to_json`), so the model is the
contract for tools built on volley. Later stages never reach back into the parser.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal

# Mermaid's and HTML's line break, which a lane's display label may hold; after a backslash it
# is text (`\<br>`), as in a message's label
_LINE_BREAK = re.compile(r"(?<!\\)<br[ \t]*/?>", re.IGNORECASE)
_ESCAPED_BREAK = re.compile(r"\\(<br[ \t]*/?>)", re.IGNORECASE)
_ANY_BREAK = r"(?i)(<br[ \t]*/?>)"


def display_label(lines: Iterable[str]) -> str:
    """A lane's display label that shows these lines, as `Diagram.shown_lines` reads it back:
    joined by `<br/>`, a `<br>` written in a line kept as text (`\\<br>`). The rest is drawn
    as written: a label has no other markup."""
    return "<br/>".join(re.compile(_ANY_BREAK).sub(r"\\\1", line) for line in lines)


if TYPE_CHECKING:
    from volley.errors import Diagnostic

DividerStyle = Literal["bold", "regular", "dashed", "thin", "delay"]
BlockKind = Literal["if", "group", "loop", "opt", "par", "critical", "break", "rect"]
# The word that starts a further branch of a block, by the block's kind.
BRANCH_WORDS: dict[str, str] = {"if": "else", "par": "and", "critical": "option"}
LineStyle = Literal["solid", "dashed", "bold"]
HeadStyle = Literal["none", "filled", "open", "cross"]
# Where a note over one lane stands: on its lifeline, or beside it (Mermaid's and PlantUML's
# `note left of A`, `note right of A`).
NoteSide = Literal["over", "left", "right"]


@dataclass(frozen=True, slots=True)
class ArrowStyle:
    """How an arrow operator is drawn: the line, and the head at each written end."""

    line: LineStyle
    head_from: HeadStyle  # the head at the left-hand (first written) name
    head_to: HeadStyle  # the head at the right-hand (second written) name


# An arrow is an optional left head, a shaft and an optional right head, at least one head:
# `->`, `<-->>`, `<=>`, `x-`, `--x`. Every operator the language knows, with how it is drawn,
# longest first, so a scanner that tries them in order never takes `->` for the start of `->>`.
LEFT_HEADS: dict[str, HeadStyle] = {"": "none", "<": "filled", "<<": "open", "x": "cross"}
SHAFTS: dict[str, LineStyle] = {"-": "solid", "--": "dashed", "=": "bold"}
RIGHT_HEADS: dict[str, HeadStyle] = {"": "none", ">": "filled", ">>": "open", "x": "cross"}
ARROWS: dict[str, ArrowStyle] = dict(
    sorted(
        (
            (left + shaft + right, ArrowStyle(line, head_from, head_to))
            for left, head_from in LEFT_HEADS.items()
            for shaft, line in SHAFTS.items()
            for right, head_to in RIGHT_HEADS.items()
            if left or right
        ),
        key=lambda pair: -len(pair[0]),
    )
)


@dataclass(slots=True)
class Payload:
    """A body carried by a message: `in:` (request) or `out:` (response)."""

    label: str
    lang: str | None
    body: str
    form: Literal["fenced", "indented"]
    line: int = 0  # the line of the `in:`/`out:` keyword
    body_line: int = 0  # the line its body's text starts on (0: as its form puts it)

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

    @property
    def flow(self) -> tuple[str, str, bool]:
        """(from, to, two-way) as the arrow is drawn, by its heads: `B <-- A` is A answering
        B; an arrow with a head at each end goes both ways, unless one of them is a cross and
        the other points (`A x-> B` goes from A to B, `A <-x B` from B to A): a cross marks
        where a message was lost, not a way it went."""
        style = self.style
        left, right = style.head_from != "none", style.head_to != "none"
        if left and right and (style.head_from == "cross") != (style.head_to == "cross"):
            left, right = style.head_to == "cross", style.head_from == "cross"
        if left and not right:
            return self.receiver, self.sender, False
        return self.sender, self.receiver, left and right

    @property
    def bar_change(self) -> tuple[str, bool] | None:
        """The participant whose activation bar the message starts (`+`: the one it goes to)
        or ends (`-`: the one it comes from), as the arrow is drawn (`flow`): `B <-+ A` starts
        B's bar, `B <-- - A` ends A's. None without a mark."""
        if self.activate is None:
            return None
        sender, receiver, _ = self.flow
        return (receiver, True) if self.activate == "+" else (sender, False)

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
    """A note over one or more participants or beside one (`attached` ones follow a
    message)."""

    line: int
    over: list[str]  # every participant the note spans, in display order
    text: str  # continuation lines joined with "\n"; a fenced block kept with its fences
    attached: bool = False  # True for `note:` under a message
    text_line: int = 0  # the source line its text starts on, when not `line` (`note:` alone)
    side: NoteSide = "over"  # beside its one participant's lifeline, or over it
    # each line of its text a line of its own (a note ended by `end note`, as
    # WebSequenceDiagrams and PlantUML draw one); else a paragraph's lines run on
    lines_kept: bool = False

    def to_json(self) -> dict:
        found = {"type": "note", "line": self.line, "over": list(self.over), "text": self.text}
        if self.side != "over":
            found["side"] = self.side
        if self.lines_kept:
            found["lines"] = "kept"
        return found


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
    """One part of a block: the first, or one after `else`/`and`/`option`."""

    label: str
    items: list[Item] = field(default_factory=list)
    line: int = 0

    def to_json(self) -> dict:
        return {"label": self.label, "items": [item.to_json() for item in self.items]}


@dataclass(slots=True)
class Block:
    """A frame (`if`, `loop`, `opt`, `par`, `group`, `critical`, `break`) around branches, or
    a highlight behind them (`rect`, Mermaid's: no frame, no label, a tint)."""

    line: int
    kind: BlockKind
    branches: list[Branch] = field(default_factory=list)
    end_line: int = 0
    # A rect's colour as written (`rgb(200, 220, 255)`, read by `volley.text.colours`); drawn
    # in the theme's own tint when None or no colour.
    tint: str | None = None

    def to_json(self) -> dict:
        out = {
            "type": "block",
            "line": self.line,
            "kind": self.kind,
            "branches": [branch.to_json() for branch in self.branches],
        }
        if self.kind == "rect":
            out["tint"] = self.tint
        return out


Item = Message | Note | Divider | Block | Activation


@dataclass(slots=True)
class Box:
    """Mermaid's `box`: participants that belong together, drawn side by side on one band under
    its label. `tint` is its colour as written (`Aqua`, `rgb(33, 66, 99)`, read by
    `volley.text.colours`); None: a band with no fill."""

    line: int
    label: str
    tint: str | None = None
    participants: list[str] = field(default_factory=list)  # in the order the box declares them
    end_line: int = 0

    def to_json(self) -> dict:
        return {
            "line": self.line,
            "label": self.label,
            "tint": self.tint,
            "participants": list(self.participants),
        }


TextKind = Literal[
    "title",
    "participant",  # a name as written in the source
    "display label",  # `participant A as Long Name`: the name the picture shows
    "label",  # a message's
    "payload label",  # `in: Request`
    "body",  # a payload's body
    "note",  # a note's whole text, a fenced block inside it kept with its fences
    "divider",
    "block label",  # the label of a block's branch (`if`, `else` …)
    "box label",  # a box's, over the participants it holds
]
# The texts read as inline markup (the rest are names, payload labels and bodies).
MARKED_UP: frozenset[TextKind] = frozenset(
    {"title", "label", "note", "divider", "block label", "box label"}
)


@dataclass(slots=True)
class Text:
    """One text of a diagram: what it is, the source line it starts on, and the text."""

    kind: TextKind
    line: int
    text: str

    def lines(self) -> list[tuple[int, str]]:
        """Each line of the text with its source line (a note spans several)."""
        return [(self.line + offset, text) for offset, text in enumerate(self.text.split("\n"))]


@dataclass(slots=True)
class Diagram:
    """A parsed `.volley` file: what `volley.parse` returns and every renderer reads."""

    title: str | None = None
    participants: list[str] = field(default_factory=list)  # display order
    items: list[Item] = field(default_factory=list)
    filename: str | None = None
    title_line: int = 0
    # Display labels of participants declared `participant A as Long name`: messages keep
    # the name as written ("A"), the picture shows the label.
    labels: dict[str, str] = field(default_factory=dict)
    # where each participant was declared (`participant A`): the declaration that gives its
    # display label, if one does
    declared_lines: dict[str, int] = field(default_factory=dict)
    # where each participant an `order:` line lists was first listed
    listed_lines: dict[str, int] = field(default_factory=dict)
    # Mermaid's boxes, each around participants that stand side by side, left to right (one
    # that holds no participant last)
    boxes: list[Box] = field(default_factory=list)
    # What the parser read but would point out (a block left open at the end of the file);
    # not part of `to_json`, which is the model alone.
    warnings: list[Diagnostic] = field(default_factory=list)

    def to_json(self) -> dict:
        out = {
            "title": self.title,
            "participants": list(self.participants),
            "items": [item.to_json() for item in self.items],
            "labels": dict(self.labels),
        }
        if self.boxes:  # a diagram without boxes reads as before they were known
            out["boxes"] = [box.to_json() for box in self.boxes]
        return out

    def shown(self, name: str) -> str:
        """A participant as a line of text names it (the page's panel, a screen reader, the
        appendix): its display label where one is declared, each `<br>` in it a space."""
        label = self.labels.get(name)
        return name if label is None else " ".join(filter(None, self.shown_lines(name)))

    def shown_lines(self, name: str) -> list[str]:
        """A participant's name as its box shows it: its display label, broken into lines at
        each `<br>` (`participant GW as Gateway<br/>(ssh)`, as Mermaid draws it)."""
        label = self.labels.get(name)
        if label is None:
            return [name]
        parts = [_ESCAPED_BREAK.sub(r"\1", part).strip() for part in _LINE_BREAK.split(label)]
        lines = trimmed(parts)  # `<br><br>` inside: an empty line, as Mermaid draws it
        return [name] if lines == [""] else lines  # a label of breaks alone: the name

    def messages(self) -> list[Message]:
        """Every message in document order (the order `data-message` numbers follow)."""
        return [item for item in walk(self.items) if isinstance(item, Message)]

    def all_texts(self) -> Iterator[Text]:
        """Every text of the diagram, what it is and the source line it starts on, in the order
        a reader meets them: the one walk the checks (markup, hidden characters, secrets,
        limits) read.

        Boxes' labels come after the title, over the participants' boxes as they are drawn.
        A participant's name, and its display label, come at the first message or note that
        names it (the label with the line that declares it); a participant no message or note
        names comes last, at the line that declares it, or else the `order:` line that lists
        it. A body starts where its text does (a fenced one two lines under its `in:`/`out:`
        line, an indented one a line under it, unless blank lines come first).
        """
        if self.title:
            yield Text("title", self.title_line, self.title)
        for box in self.boxes:  # over the participants' boxes, under the title
            yield Text("box label", box.line, box.label)
        named: set[str] = set()

        def first_use(participants: Iterable[str], line: int) -> Iterator[Text]:
            for participant in participants:
                if participant not in named:
                    named.add(participant)
                    yield Text("participant", line, participant)
                    if participant in self.labels:  # `participant A as Long Name`
                        declared = self.declared_lines.get(participant, line)
                        yield Text("display label", declared, self.labels[participant])

        for item in walk(self.items):
            if isinstance(item, Message):
                if item.sender not in named or item.receiver not in named:
                    yield from first_use((item.sender, item.receiver), item.line)
                yield Text("label", item.line, item.label)
                for payload in (item.request, item.response):
                    if payload is not None:
                        yield Text("payload label", payload.line, payload.label)
                        skip = 2 if payload.form == "fenced" else 1
                        start = payload.body_line or payload.line + skip
                        yield Text("body", start, payload.body)
            elif isinstance(item, Note):
                yield from first_use(item.over, item.line)
                yield Text("note", item.text_line or item.line, item.text)
            elif isinstance(item, Divider):
                yield Text("divider", item.line, item.label)
            elif isinstance(item, Block):
                for branch in item.branches:
                    yield Text("block label", branch.line, branch.label)
        for participant in [*self.participants, *self.labels]:  # named nowhere else
            line = self.declared_lines.get(participant) or self.listed_lines.get(participant, 0)
            yield from first_use([participant], line)

    def texts(self) -> Iterator[tuple[int, str]]:
        """Every text that carries inline markup, with the line it was written on: the title,
        labels, each line of a note, dividers and block labels."""
        for text in self.all_texts():
            if text.kind in MARKED_UP:
                if text.kind == "note":
                    yield from text.lines()
                else:
                    yield text.line, text.text


def walk(items: list[Item]) -> Iterator[Item]:
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


def trimmed(lines: list[str]) -> list[str]:
    """A text's lines without empty ones at either end (a break at the end of a title, `<br>`
    before a name), which draw nothing worth a line; the empty lines between stay."""
    start = next((k for k, line in enumerate(lines) if line), len(lines))
    end = max((k + 1 for k, line in enumerate(lines) if line), default=start)
    return lines[start:end] or [""]


# The diagram as the id prefix reads it: what `json.dumps(..., sort_keys=True)` writes, by one
# encoder for every call (the model's data is fresh plain values, never one inside itself).
_CANONICAL_JSON = json.JSONEncoder(sort_keys=True, ensure_ascii=True, check_circular=False)


def default_id_prefix(source_or_diagram: str | Diagram) -> str:
    """A stable prefix from the diagram's content, so ids never clash between two diagrams.

    `render` derives it from the parsed diagram, so source text and its Diagram give the same
    bytes (what `volley render FILE` writes is what `volley.render(text)` returns).
    """
    if isinstance(source_or_diagram, Diagram):
        text = _CANONICAL_JSON.encode(source_or_diagram.to_json())
    else:
        text = source_or_diagram
    digest = hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()
    return "v" + digest[:10]
