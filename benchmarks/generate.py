"""Write benchmark diagrams of N messages in volley's syntax and in each peer's own.

Every size is built once as a small neutral script (messages, notes, sections, nested blocks)
and then written out by one emitter per syntax, so the diagrams stay equivalent by
construction. What a peer cannot express is written the nearest way it can, and said here:

- payloads (`in:`/`out:` bodies, on every third message) exist only in volley; peers draw the
  message alone, so volley does strictly more work than they do;
- sections are dividers in volley, PlantUML, seqdiag and mscgen; Mermaid and D2 have none, so
  they get a note over the first participant instead;
- blocks (a `loop` holding an `if`/`else`) are frames in volley, PlantUML, Mermaid and D2
  (D2: nested groups, the `else` branch a sibling group); seqdiag and mscgen have no frames and
  get the blocks' messages inline.

Usage: python benchmarks/generate.py [--sizes 14,100,1000] [--out DIR]
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

SIZES = (14, 100, 1_000, 5_000, 10_000)
DEFAULT_OUT = Path("/tmp/volley-bench")

ACTORS = ("User", "Agent", "Model", "MCP Server", "Auth", "Cache", "Store", "Queue")

# One round of the conversation: (sender, receiver, reply?, label), indexes into ACTORS. A diagram
# with fewer participants leaves out the messages that name one it does not have.
ROUND = (
    (0, 1, False, "ask"),
    (1, 2, False, "POST /v1/messages"),
    (2, 1, True, "200 OK"),
    (1, 3, False, "POST /mcp (tools/call)"),
    (3, 4, False, "check token"),
    (4, 3, True, "token valid"),
    (3, 5, False, "GET cached result"),
    (5, 6, False, "read row"),
    (6, 5, True, "row"),
    (5, 3, True, "miss"),
    (3, 7, False, "enqueue job"),
    (3, 1, True, "200 OK"),
    (1, 1, False, "think"),
    (1, 0, True, "answer"),
)

NOTE_EVERY = 10  # a note after every tenth message
SECTION_EVERY = 100  # a new section every hundred messages
BLOCK_EVERY = 50  # a loop { if / else } every fifty messages ...
BLOCK_SIZE = 8  # ... holding this many messages


@dataclass
class Msg:
    sender: str
    receiver: str
    reply: bool
    label: str
    payload: tuple[str, str, str] | None = None  # (side, lang or "", body)


@dataclass
class NoteItem:
    text: str
    over: tuple[str, ...] = ()  # empty: under the previous message


@dataclass
class Section:
    label: str


@dataclass
class BlockItem:
    kind: str  # "loop" or "if"
    branches: list[tuple[str, list]] = field(default_factory=list)


@dataclass
class Script:
    title: str
    actors: tuple[str, ...]
    items: list


def participants_for(size: int) -> int:
    """4 participants for the small reference size, 6 at a hundred, 8 from a thousand up."""
    return 4 if size < 100 else 6 if size < 1_000 else 8


def _payload(number: int, reply: bool) -> tuple[str, str, str]:
    """A JSON or key: value body; JSON for two in three, so both table paths are exercised."""
    if number % 9 == 0:
        body = f"status: 200\nrequest-id: req-{number:05d}\ncache: miss"
        return ("out" if reply else "in", "", body)
    doc = {
        "jsonrpc": "2.0",
        "id": number,
        "method": "tools/call",
        "params": {"name": "search_issues", "arguments": {"query": f"bug {number}", "limit": 5}},
    }
    if reply:
        doc = {"jsonrpc": "2.0", "id": number, "result": {"content": [{"type": "text"}]}}
    return ("out" if reply else "in", "json", json.dumps(doc, indent=2))


def _messages(actors: tuple[str, ...]) -> Iterator[Msg]:
    """The conversation, round after round, numbered from 1."""
    number = 0
    count = len(actors)
    while True:
        for sender, receiver, reply, label in ROUND:
            if max(sender, receiver) >= count:
                continue
            number += 1
            payload = _payload(number, reply) if number % 3 == 0 else None
            yield Msg(actors[sender], actors[receiver], reply, f"{label} #{number}", payload)


def script(size: int) -> Script:
    """The neutral diagram of `size` messages."""
    actors = ACTORS[: participants_for(size)]
    messages = _messages(actors)
    items: list = []
    emitted = 0

    def take(into: list, count: int) -> None:
        nonlocal emitted
        for _ in range(count):
            message = next(messages)
            into.append(message)
            emitted += 1
            if emitted % NOTE_EVERY == 0:
                into.append(NoteItem(f"note after message {emitted}"))

    while emitted < size:
        if emitted % SECTION_EVERY == 0:
            items.append(Section(f"Section {emitted // SECTION_EVERY + 1}"))
        if emitted % BLOCK_EVERY == 4 and size - emitted >= BLOCK_SIZE:
            inner = BlockItem("if")
            half = BLOCK_SIZE // 2 - 1
            yes: list = []
            no: list = []
            outer = BlockItem("loop", [(f"retry up to 3 times #{emitted}", [])])
            take(outer.branches[0][1], 1)
            take(yes, half)
            take(no, BLOCK_SIZE - 1 - half)
            inner.branches = [("token is valid", yes), ("token expired", no)]
            outer.branches[0][1].append(inner)
            items.append(outer)
            continue
        take(items, 1)
        if emitted == 3:
            items.append(NoteItem("The agent is the MCP client", (actors[1], actors[-1])))
    return Script(f"Bench {size}", actors, items)


def _walk(items: list, enter: Callable, leave: Callable, emit: Callable) -> None:
    """Visit items in order; blocks call enter(kind, label, first) per branch, then leave."""
    for item in items:
        if isinstance(item, BlockItem):
            for index, (label, inner) in enumerate(item.branches):
                enter(item.kind, label, index == 0)
                _walk(inner, enter, leave, emit)
            leave(item.kind)
        else:
            emit(item)


class Writer:
    """Base emitter: collects lines; subclasses say how each item is written."""

    suffix = ""
    has_blocks = True

    def __init__(self, diagram: Script) -> None:
        self.diagram = diagram
        self.lines: list[str] = []
        self.depth = 0
        self.last: Msg | None = None
        self.alias = {name: f"P{index}" for index, name in enumerate(diagram.actors)}

    def text(self) -> str:
        self.header()
        _walk(self.diagram.items, self._enter, self._leave, self._emit)
        self.footer()
        return "\n".join(self.lines) + "\n"

    def add(self, line: str) -> None:
        self.lines.append("  " * self.depth + line)

    def _enter(self, kind: str, label: str, first: bool) -> None:
        if not self.has_blocks:
            return
        if not first:
            self.depth -= 1
        self.block(kind, label, first)
        self.depth += 1

    def _leave(self, kind: str) -> None:
        if not self.has_blocks:
            return
        self.depth -= 1
        self.end(kind)

    def _emit(self, item) -> None:
        if isinstance(item, Msg):
            self.message(item)
            self.last = item
        elif isinstance(item, NoteItem):
            over = item.over
            if not over:  # over the last message's two participants
                assert self.last is not None, "a note over no one follows a message"
                over = (self.last.sender, self.last.receiver)
            self.note(item.text, over, not item.over)
        else:
            self.section(item.label)

    def header(self) -> None: ...
    def footer(self) -> None: ...
    def message(self, msg: Msg) -> None: ...
    def note(self, text: str, over: tuple[str, ...], attached: bool) -> None: ...
    def section(self, label: str) -> None: ...
    def block(self, kind: str, label: str, first: bool) -> None: ...
    def end(self, kind: str) -> None: ...


class VolleyWriter(Writer):
    suffix = "volley"

    def header(self) -> None:
        self.add(f"title: {self.diagram.title}")
        self.add("order: " + ", ".join(self.diagram.actors))

    def message(self, msg: Msg) -> None:
        self.add(f"{msg.sender} {'-->' if msg.reply else '->'} {msg.receiver}: {msg.label}")
        if msg.payload:
            side, lang, body = msg.payload
            self.add(f"{side}: {'Response' if side == 'out' else 'Request'}")
            if lang:
                self.add(f"```{lang}")
                self.lines.extend("  " * self.depth + line for line in body.split("\n"))
                self.add("```")
            else:
                self.lines.extend("  " * (self.depth + 1) + line for line in body.split("\n"))

    def note(self, text: str, over: tuple[str, ...], attached: bool) -> None:
        self.add(f"note: {text}" if attached else f"note {', '.join(over)}: {text}")

    def section(self, label: str) -> None:
        self.add(f"=: {label}")

    def block(self, kind: str, label: str, first: bool) -> None:
        self.add(f"{kind if first else 'else'}: {label}")

    def end(self, kind: str) -> None:
        self.add("end")


class PlantUMLWriter(Writer):
    suffix = "puml"

    def header(self) -> None:
        self.add("@startuml")
        self.add(f"title {self.diagram.title}")
        for name, alias in self.alias.items():
            self.add(f'participant "{name}" as {alias}')

    def footer(self) -> None:
        self.add("@enduml")

    def message(self, msg: Msg) -> None:
        arrow = "-->" if msg.reply else "->"
        self.add(f"{self.alias[msg.sender]} {arrow} {self.alias[msg.receiver]} : {msg.label}")

    def note(self, text: str, over: tuple[str, ...], attached: bool) -> None:
        self.add(f"note over {', '.join(self.alias[n] for n in over)} : {text}")

    def section(self, label: str) -> None:
        self.add(f"== {label} ==")

    def block(self, kind: str, label: str, first: bool) -> None:
        self.add(f"{'alt' if kind == 'if' else kind} {label}" if first else f"else {label}")

    def end(self, kind: str) -> None:
        self.add("end")


class MermaidWriter(Writer):
    suffix = "mmd"

    def header(self) -> None:
        self.add("sequenceDiagram")
        self.depth = 1
        self.add(f"title {self.diagram.title}")
        for name, alias in self.alias.items():
            self.add(f"participant {alias} as {name}")

    def message(self, msg: Msg) -> None:
        arrow = "-->>" if msg.reply else "->>"
        label = msg.label.replace("#", "#35;")  # a bare # starts one of Mermaid's entity codes
        self.add(f"{self.alias[msg.sender]}{arrow}{self.alias[msg.receiver]}: {label}")

    def note(self, text: str, over: tuple[str, ...], attached: bool) -> None:
        self.add(f"Note over {','.join(self.alias[n] for n in dict.fromkeys(over))}: {text}")

    def section(self, label: str) -> None:
        self.add(f"Note over {self.alias[self.diagram.actors[0]]}: {label}")

    def block(self, kind: str, label: str, first: bool) -> None:
        self.add(f"{'alt' if kind == 'if' else kind} {label}" if first else f"else {label}")

    def end(self, kind: str) -> None:
        self.add("end")


def _d2_string(text: str) -> str:
    return json.dumps(text)  # a D2 double-quoted string escapes like JSON


class D2Writer(Writer):
    suffix = "d2"

    def __init__(self, diagram: Script) -> None:
        super().__init__(diagram)
        self.count = 0
        self.prefix: list[str] = []  # the group path messages are written inside

    def _next(self) -> int:
        self.count += 1
        return self.count

    def header(self) -> None:
        self.add(f"title: {_d2_string(self.diagram.title)} {{near: top-center}}")
        self.add("shape: sequence_diagram")
        for name, alias in self.alias.items():
            self.add(f"{alias}: {_d2_string(name)}")

    def message(self, msg: Msg) -> None:
        dashed = " {style.stroke-dash: 3}" if msg.reply else ""
        ends = f"{self.alias[msg.sender]} -> {self.alias[msg.receiver]}"
        self.add(f"{ends}: {_d2_string(msg.label)}{dashed}")

    def note(self, text: str, over: tuple[str, ...], attached: bool) -> None:
        # A D2 note belongs to one actor; outside groups it is written on the actor itself.
        self.add(f"{self.alias[over[0]]}.note{self._next()}: {_d2_string(text)}")

    def section(self, label: str) -> None:
        self.add(f"{self.alias[self.diagram.actors[0]]}.section{self._next()}: {_d2_string(label)}")

    def block(self, kind: str, label: str, first: bool) -> None:
        if not first:
            self.add("}")
        self.add(f"{kind}{self._next()}: {_d2_string(label)} {{")

    def end(self, kind: str) -> None:
        self.add("}")


def _quoted(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


class SeqdiagWriter(Writer):
    suffix = "diag"
    has_blocks = False

    def header(self) -> None:
        self.add("seqdiag {")
        self.depth = 1
        for name, alias in self.alias.items():
            self.add(f"{alias} [label = {_quoted(name)}];")

    def footer(self) -> None:
        self.depth = 0
        self.add("}")

    def message(self, msg: Msg) -> None:
        arrow = "-->" if msg.reply else "->"
        self.pending = f"{self.alias[msg.sender]} {arrow} {self.alias[msg.receiver]}"
        self.add(f"{self.pending} [label = {_quoted(msg.label)}];")

    def note(self, text: str, over: tuple[str, ...], attached: bool) -> None:
        # seqdiag notes hang off a message: the last line gains a note attribute.
        self.lines[-1] = self.lines[-1][:-2] + f", note = {_quoted(text)}];"

    def section(self, label: str) -> None:
        self.add(f"=== {label} ===")


class MscgenWriter(Writer):
    suffix = "msc"
    has_blocks = False

    def header(self) -> None:
        self.add("msc {")
        self.depth = 1
        names = ", ".join(f"{a} [label={_quoted(n)}]" for n, a in self.alias.items())
        self.add(f"{names};")

    def footer(self) -> None:
        self.depth = 0
        self.add("}")

    def message(self, msg: Msg) -> None:
        arrow = ">>" if msg.reply else "=>"
        ends = f"{self.alias[msg.sender]}{arrow}{self.alias[msg.receiver]}"
        self.add(f"{ends} [label={_quoted(msg.label)}];")

    def note(self, text: str, over: tuple[str, ...], attached: bool) -> None:
        ends = f"{self.alias[over[0]]} note {self.alias[over[-1]]}"
        self.add(f"{ends} [label={_quoted(text)}];")

    def section(self, label: str) -> None:
        self.add(f"--- [label={_quoted(label)}];")


WRITERS: dict[str, type[Writer]] = {
    "volley": VolleyWriter,
    "plantuml": PlantUMLWriter,
    "mermaid": MermaidWriter,
    "d2": D2Writer,
    "seqdiag": SeqdiagWriter,
    "mscgen": MscgenWriter,
}


def write(size: int, out: Path, syntaxes: tuple[str, ...] = tuple(WRITERS)) -> dict[str, Path]:
    """Write the `size` diagram in each syntax into `out`; returns the paths by syntax."""
    out.mkdir(parents=True, exist_ok=True)
    diagram = script(size)
    paths = {}
    for name in syntaxes:
        writer = WRITERS[name](diagram)
        path = out / f"bench-{size}.{writer.suffix}"
        path.write_text(writer.text(), encoding="utf-8")
        paths[name] = path
    return paths


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default=",".join(map(str, SIZES)))
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    args = parser.parse_args()
    for size in (int(s) for s in args.sizes.split(",")):
        for path in write(size, args.out).values():
            print(path)


if __name__ == "__main__":
    main()
