"""Text to model: the Lark grammar, rule callbacks into dataclasses, and a resolving pass.

`parse()` is the only way in. Lark builds the LALR tables from `grammar/volley.lark`;
`volley.language.lalr` runs them (no Lark import on the way), and text it rejects is parsed again by
Lark, whose failure becomes a `VolleyError` that points at the place, worded in
`volley.language.syntax_errors`.
"""

from __future__ import annotations

import contextlib
import json
import re
import threading
from dataclasses import dataclass, field
from functools import cache
from typing import TYPE_CHECKING

import volley.language.lalr as lalr_module
from volley.language.prepass import Body, lift_bodies
from volley.errors import VolleyError
from volley.language.lalr import TABLE_FORMAT, Rejected, TableParser, Token
from volley.limits import DEFAULT_LIMITS, MAX_DEPTH, Limits, check_input, limit_error
from volley.model import Block, Branch, Diagram, Divider, Item, Message, Note, Payload, walk
from volley.resources import (
    grammar_cache,
    grammar_tables_file,
    package_source,
    read_text,
    resource_path,
)
from volley.textio import write_atomic

if TYPE_CHECKING:
    from lark import Lark

DIVIDER_STYLES = {"=": "bold", "-": "regular", "--": "dashed", "_": "thin", "...": "delay"}
DEFAULT_PAYLOAD_LABELS = {"in": "Request", "out": "Response"}


@cache
def _grammar() -> str:
    return read_text(resource_path("grammar", "volley.lark"))


@cache
def grammar_parser() -> Lark:
    """Lark's LALR parser for the grammar, built once per process (and kept on disk between
    runs, see `volley.resources.grammar_cache`).

    It builds the tables `table_parser` runs, and parses again any text that runtime
    rejects, so that a syntax error is Lark's to find and word. The model is built by
    `_ToModel` as each rule is reduced, so no parse tree is made and walked a second time.
    """
    from lark import Lark

    return Lark(
        _grammar(),
        parser="lalr",
        lexer="contextual",
        propagate_positions=False,
        cache=grammar_cache(_grammar()),
        transformer=CALLBACKS,
    )


@cache
def table_parser() -> TableParser:
    """The parser every parse starts with: Lark's tables, run by `volley.language.lalr` (no Lark import).

    The tables are kept as JSON in the private cache folder, under a name made from the
    grammar and the callbacks' names; a checkout or a first run builds them with Lark.
    """
    path = grammar_tables_file(
        _grammar(), TABLE_FORMAT, _callback_names(), _lark_release(), _runtime_source()
    )
    if path is not None:
        with contextlib.suppress(OSError, ValueError, KeyError, TypeError, AttributeError):
            return TableParser(json.loads(read_text(path)), CALLBACKS)
    from volley.language.lalr import build_tables

    tables = build_tables(grammar_parser(), CALLBACKS)
    if path is not None:
        with contextlib.suppress(OSError):
            write_atomic(path, json.dumps(tables, sort_keys=True))
    return TableParser(tables, CALLBACKS)


def _callback_names() -> str:
    return ",".join(name for name in sorted(vars(_ToModel)) if not name.startswith("__"))


def _runtime_source() -> str:
    """`volley/lalr.py` itself: tables are rebuilt when the code that builds and runs them
    changes (another volley sharing the cache folder, or a fix), format number or not."""
    return read_text(lalr_module.__file__)


def _lark_release() -> str:
    """Lark's `__init__.py`: tables built by one release are never run beside another's error
    reporting."""
    return package_source("lark")


@cache
def keyword_matcher(*names: str) -> re.Pattern[str]:
    """A pattern for lines that start with one of the grammar's keyword terminals."""
    terminals = table_parser().terminals
    alternatives = "|".join(terminals[name] for name in names)
    return re.compile(rf"[ \t]*(?:{alternatives})")


def normalise(text: str) -> str:
    """Drop a BOM and make every line end in a single LF."""
    if text.startswith("\ufeff"):
        text = text[1:]
    return text.replace("\r\n", "\n").replace("\r", "\n")


class _Directive:
    """A title/order/autonumber line, kept until the resolving pass."""

    def __init__(self, kind: str, line: int, value: object) -> None:
        self.kind, self.line, self.value = kind, line, value


def _text(token: Token | None) -> str:
    return str(token).strip() if token is not None else ""


def _line(token: Token) -> int:
    """The token's line in the user's text (the parser adds one line at the top)."""
    return token.line - 1


def _shifted(token: Token) -> Token:
    return Token(token.type, token.value, line=_line(token), column=token.column)


@dataclass
class _ParseRun:
    """What one parse() call hands the callbacks: the lifted bodies and how to fail."""

    bodies: dict[int, Body]
    error: object
    keywords: dict[int, Token] = field(default_factory=dict)  # id(block) -> its keyword


class _ToModel:
    """The rule callbacks: model objects as rules are reduced; bodies joined by line.

    One instance (`CALLBACKS`) serves both parsers, so the state of the parse in progress is
    per thread (`run`), which keeps concurrent parses in different threads apart.
    """

    def __init__(self) -> None:
        self._local = threading.local()

    @property
    def run(self) -> _ParseRun:
        return self._local.run

    @run.setter
    def run(self, value: _ParseRun | None) -> None:
        self._local.run = value

    @property
    def bodies(self) -> dict[int, Body]:
        return self._local.run.bodies

    def error(self, message: str, token: Token, at_end: bool = False) -> None:
        self._local.run.error(message, token, at_end)

    def start(self, items):
        return list(items)

    def title(self, children):
        keyword, text = children
        return _Directive("title", _line(keyword), (_text(text), _shifted(keyword)))

    def order(self, children):
        keyword, *names = children
        return _Directive("order", _line(keyword), [(_text(n), _shifted(n)) for n in names])

    def autonumber(self, children):
        keyword, number = children
        if number is not None and len(number) > 9:
            self.error("autonumber starts at most at 999999999", _shifted(number))
        return _Directive("autonumber", _line(keyword), int(number) if number else 1)

    def payload(self, children):
        keyword, label = children
        side = "in" if keyword.type == "IN" else "out"
        body = self.bodies.get(_line(keyword))
        if body is None:
            self.error(
                f"{side}: needs a body on the next line: a fenced block (```) or lines "
                f"indented two spaces deeper than {side}:",
                _shifted(keyword),
                at_end=True,
            )
        payload = Payload(
            label=_text(label) or DEFAULT_PAYLOAD_LABELS[side],
            lang=body.lang,
            body=body.text,
            form=body.form,
            line=_line(keyword),
        )
        return side, payload, _shifted(keyword)

    def message(self, children):
        sender, arrow, receiver, label, *payloads = children
        message = Message(
            line=_line(sender),
            sender=_text(sender),
            receiver=_text(receiver),
            arrow=str(arrow),
            label=_text(label),
        )
        for side, payload, keyword in payloads:
            attr = "request" if side == "in" else "response"
            previous = getattr(message, attr)
            if previous is not None:
                self.error(
                    f"a message carries at most one {side}:; this message (line "
                    f"{message.line}) already has one on line {previous.line}",
                    keyword,
                )
            setattr(message, attr, payload)
        return message

    def note(self, children):
        keyword, *rest = children
        text_token = rest.pop()
        names = [_text(n) for n in rest if n is not None]
        text = _text(text_token)
        body = self.bodies.get(_line(keyword))
        if body is not None:
            text = f"{text}\n{body.text}" if text else body.text
        note = Note(line=_line(keyword), over=names, text=text)
        note.attached = not names
        return note

    def divider(self, children):
        keyword, label = children
        mark = str(keyword).rstrip(" \t:")
        return Divider(line=_line(keyword), style=DIVIDER_STYLES[mark], label=_text(label))

    def _frame(self, kind: str, children) -> Block:
        keyword, label, *rest = children
        block = Block(line=_line(keyword), kind=kind)
        self._local.run.keywords[id(block)] = keyword
        branch = Branch(label=_text(label), line=_line(keyword))
        block.branches.append(branch)
        for child in rest:
            if isinstance(child, Branch):
                block.branches.append(child)
                branch = child
            elif isinstance(child, str):  # the END token (of either parser)
                block.end_line = _line(child)
            else:
                branch.items.append(child)
        return block

    def _branch(self, children) -> Branch:
        keyword, label, *items = children
        return Branch(label=_text(label), items=list(items), line=_line(keyword))

    def if_block(self, children):
        return self._frame("if", children)

    def group_block(self, children):
        return self._frame("group", children)

    def loop_block(self, children):
        return self._frame("loop", children)

    def opt_block(self, children):
        return self._frame("opt", children)

    def par_block(self, children):
        return self._frame("par", children)

    else_branch = and_branch = _branch


CALLBACKS = _ToModel()


def _nested_items(items: list) -> list[Item]:
    """Model items only (directives removed), recursively inside blocks."""
    kept: list[Item] = []
    for item in items:
        if isinstance(item, _Directive):
            continue
        if isinstance(item, Block):
            for branch in item.branches:
                branch.items = _nested_items(branch.items)
        kept.append(item)
    return kept


class _Resolver:
    """The pass that needs the whole document: title, order, numbering, note spans."""

    def __init__(self, error) -> None:
        self.error = error

    def run(self, raw: list) -> Diagram:
        diagram = Diagram()
        order: list[str] = []
        first_use: dict[str, None] = {}
        number: int | None = None
        previous: Message | None = None
        notes: list[tuple[Note, Message | None]] = []
        for item in walk(raw):  # directives included, in document order
            if isinstance(item, _Directive):
                if item.kind == "title":
                    text, keyword = item.value
                    if diagram.title is not None:
                        self.error(
                            f"a diagram has one title; it was already set on line "
                            f"{diagram.title_line}",
                            keyword,
                        )
                    diagram.title, diagram.title_line = text, item.line
                elif item.kind == "order":
                    for name, token in item.value:
                        if not name:
                            self.error("expected a participant name in order:", token)
                        if name not in order:
                            order.append(name)
                else:
                    number = item.value
            elif isinstance(item, Message):
                first_use.setdefault(item.sender)
                first_use.setdefault(item.receiver)
                if number is not None:
                    item.number = number
                    number += 1
                previous = item
            elif isinstance(item, Note):
                for name in item.over:
                    first_use.setdefault(name)
                notes.append((item, previous))
        participants = order + [name for name in first_use if name not in order]
        position = {name: index for index, name in enumerate(participants)}
        for note, message in notes:
            if note.over:
                ends = sorted(position[name] for name in note.over)
            elif message is not None:
                ends = sorted((position[message.sender], position[message.receiver]))
            else:
                ends = [0, len(participants) - 1] if participants else []
            note.over = participants[ends[0] : ends[-1] + 1] if ends else []
        diagram.participants = participants
        diagram.items = _nested_items(raw)
        return diagram


def parse(text: str, filename: str | None = None, limits: Limits | None = None) -> Diagram:
    """Parse `.volley` source into a Diagram, or raise VolleyError pointing at the mistake."""
    if not isinstance(text, str):
        raise TypeError("volley.parse takes text (str); decode bytes with volley.decode first")
    return _parse(text, filename, limits)


def _parse(text: str, filename: str | None, limits: Limits | None) -> Diagram:
    text = normalise(text)
    check_input(text, filename, limits)
    lines = text.split("\n")

    def error(message: str, token: Token, at_end: bool = False) -> None:
        line = lines[token.line - 1] if 0 < token.line <= len(lines) else ""
        column = len(line.rstrip()) + 1 if at_end else token.column
        raise VolleyError(
            message, filename=filename, line=token.line, column=column, source_line=line
        )

    blanked, bodies = lift_bodies(
        text, keyword_matcher("IN", "OUT"), keyword_matcher("NOTE"), filename
    )
    # The grammar wants a newline after every line; a leading one lets _NL swallow comment
    # lines at the very top. Lark then counts lines from 2, which the line offset undoes.
    source = "\n" + blanked + "\n"
    run = _ParseRun(bodies, error)
    CALLBACKS.run = run
    try:
        raw = table_parser().parse(source)
    except Rejected:
        run = _ParseRun(bodies, error)
        raw = _parse_with_lark(source, run, lines, filename)
    finally:
        CALLBACKS.run = None
    _check_depth(raw, limits or DEFAULT_LIMITS, run.keywords, error)
    diagram = _Resolver(error).run(raw)
    diagram.filename = filename
    _check_sizes(diagram, limits or DEFAULT_LIMITS, lines)
    return diagram


def _parse_with_lark(source: str, run: _ParseRun, lines: list[str], filename: str | None) -> list:
    """Lark's parse of text the table runtime rejected: its error, worded for people."""
    from lark.exceptions import UnexpectedInput

    CALLBACKS.run = run
    try:
        return grammar_parser().parse(source)
    except UnexpectedInput as exc:
        from volley.language.syntax_errors import describe  # only a failed parse needs the wording

        raise describe(exc, lines, filename, keyword_matcher) from None


def _check_depth(items: list, limits: Limits, keywords: dict[int, Token], error) -> None:
    """Refuse blocks nested deeper than the limit, before anything recurses over the items."""
    stack = [(item, 0) for item in items]
    while stack:
        node, depth = stack.pop()
        if not isinstance(node, Block):
            continue
        depth += 1
        if depth > min(limits.depth, MAX_DEPTH):
            how = (
                "(raise it with --max-depth)"
                if limits.depth < MAX_DEPTH
                else "(no option goes higher; move the innermost blocks out)"
            )
            error(
                f"blocks nested {depth} deep; the limit is {min(limits.depth, MAX_DEPTH)} {how}",
                _shifted(keywords[id(node)]),
            )
        stack.extend((child, depth) for branch in node.branches for child in branch.items)


def _check_sizes(diagram: Diagram, limits: Limits, lines: list[str]) -> None:
    """The limits that need the model: message and participant counts, label lengths."""
    from volley.checks.lint import marked_up_texts

    def fail(what: str, limit: int, option: str, line: int = 0) -> None:
        raise limit_error(
            what,
            limit,
            option,
            filename=diagram.filename,
            line=line,
            column=1 if line else 0,
            source_line=lines[line - 1] if 0 < line <= len(lines) else None,
        )

    messages = diagram.messages()
    if len(messages) > limits.messages:
        fail(
            f"{len(messages):,} messages",
            limits.messages,
            "--max-messages",
            messages[limits.messages].line,
        )
    if len(diagram.participants) > limits.participants:
        fail(
            f"{len(diagram.participants):,} participants", limits.participants, "--max-participants"
        )
    for line, text in marked_up_texts(diagram):
        if len(text) > limits.label_chars:
            fail(
                f"a text of {len(text):,} characters", limits.label_chars, "--max-label-chars", line
            )
    for name in diagram.participants:
        if len(name) > limits.label_chars:
            fail(
                f"a participant name of {len(name):,} characters",
                limits.label_chars,
                "--max-label-chars",
            )
