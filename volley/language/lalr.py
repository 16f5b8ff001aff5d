"""A lean LALR(1) runtime for the tables Lark builds from `grammar/volley.lark`.

Lark reads the grammar and builds the parse tables; `build_tables` writes down what it built
(each parser state's actions and lexer, each rule's callback and which children it keeps) as
plain data, which `volley.language.parser` caches as JSON. `TableParser` then runs those tables with
Lark's semantics: the contextual lexer's scanner for the current state (the same patterns, in
the same order), the same reductions in the same order, and the same children handed to the
same callbacks (filtered tokens dropped, `_rule`s inlined into their parent, an absent `[x]`
as None).

Why not Lark's own runtime: importing Lark costs about 30 ms, a third of a cold `volley
render`, and its general loop about 3 µs a token. Input this runtime cannot take raises
`Rejected`; the caller then lets Lark parse it again, so a syntax error is found and worded by
Lark exactly as before.

One liberty with the lexer, for a fresh process's sake (compiling a scanner of a dozen terminals
costs about 0.2 ms, and a parse used to compile seventeen): a state whose scanner has more than a
few terminals, all of them in a larger scanner, scans with that one first. Lark orders every
scanner's terminals by one key, so the larger scanner's alternatives before the terminal it
finds include the state's own, which did not match either (a regex alternation takes the first
alternative that matches): when the terminal it finds is one the state's scanner has, that
scanner would have found the same. Only when it is not is the state's own scanner compiled
and run. A terminal that refers to a group by number (`\\1`) would mean another group in
another scanner: no scanner with one is shared.
"""

from __future__ import annotations

import re
from typing import Any

TABLE_FORMAT = 2


class Token(str):
    """A lexed terminal: the text, its terminal's name and where it starts (1-based)."""

    type: str
    value: str
    line: int
    column: int

    def __new__(cls, type: str, value: str, line: int = 0, column: int = 0) -> Token:
        token = super().__new__(cls, value)
        token.type, token.value, token.line, token.column = type, value, line, column
        return token

    def __repr__(self) -> str:
        return f"Token({self.type!r}, {self.value!r})"


_new_str = str.__new__


def _token(kind: str, value: str, line: int, column: int) -> Token:
    """`Token(kind, value, line, column)` at half the cost, for the parse loop."""
    token = _new_str(Token, value)
    token.type = kind
    token.value = value
    token.line = line
    token.column = column
    return token


class Rejected(Exception):
    """The text is not in the language (or not at this point); Lark will say why."""


def build_tables(lark: Any, callbacks: object) -> dict:
    """Write down the parser Lark built (a `Lark` object, LALR with the contextual lexer).

    `callbacks` is the object whose methods the rules call, as Lark's `transformer` option.
    Only a checkout or a first run builds tables; this reads Lark's internals, which the
    tests pin by comparing both runtimes on the same inputs.
    """
    from lark.parse_tree_builder import maybe_create_child_filter

    table = lark.parser.parser.parser.parse_table
    rules = list(lark.rules)
    rule_index = {rule: index for index, rule in enumerate(rules)}
    contextual = lark.parser.lexer
    scanners: list[dict] = []
    scanner_of: dict[int, int] = {}
    for basic in contextual.lexers.values():
        if id(basic) in scanner_of:
            continue
        scanner = basic.scanner  # builds Lark's scanner: the patterns in Lark's order
        scanner_of[id(basic)] = len(scanners)
        scanners.append(
            {
                "patterns": [compiled.pattern for compiled in scanner._mres],
                "terminals": [
                    name
                    for compiled in scanner._mres
                    for name, _ in sorted(compiled.groupindex.items(), key=lambda g: g[1])
                ],
                "ignore": sorted(basic.ignore_types),
                "unless": {
                    name: [compiled.pattern for compiled in unless.scanner._mres]
                    for name, unless in basic.callback.items()
                },
            }
        )
    # A pattern that refers to a group by number means another thing in another scanner.
    numbered = {
        t.name for t in lark.terminals if re.search(r"\\[1-9]|\(\?\(", t.pattern.to_regexp())
    }
    for index, spec in enumerate(scanners):
        spec["first"] = _first_scanner(index, scanners, numbered)
    kept_terminals: set[str] = set()
    rule_rows = []
    for rule in rules:
        expansion = rule.expansion
        child_filter = maybe_create_child_filter(
            expansion, rule.options.keep_all_tokens, False, rule.options.empty_indices
        )
        if child_filter is None:
            plan = [[i, False, 0] for i in range(len(expansion))]
            trailing = 0
        elif len(child_filter.args) == 2:  # kept children, and Nones for absent [x]
            plan = [[i, expand, nones] for i, expand, nones in child_filter.args[0]]
            trailing = child_filter.args[1]
        else:
            plan = [[i, expand, 0] for i, expand in child_filter.args[0]]
            trailing = 0
        kept_terminals.update(expansion[i].name for i, _, _ in plan if expansion[i].is_term)
        name = rule.alias or rule.origin.name
        method = name if callable(getattr(callbacks, name, None)) else None
        if method is None and not name.startswith("_"):
            raise ValueError(f"rule {name} has no callback")
        rule_rows.append([rule.origin.name, len(expansion), method, plan, trailing])
    states = {}
    for state, actions in table.states.items():
        row = {}
        for symbol, (action, argument) in actions.items():
            shift = action.name == "Shift"
            row[symbol] = argument if shift else -1 - rule_index[argument]
        states[str(state)] = row
    return {
        "format": TABLE_FORMAT,
        "start": table.start_states["start"],
        "end": table.end_states["start"],
        "states": states,
        "lexer_of_state": {
            str(state): scanner_of[id(basic)] for state, basic in contextual.lexers.items()
        },
        "scanners": scanners,
        "rules": rule_rows,
        "kept_terminals": sorted(kept_terminals),
        "terminals": {t.name: t.pattern.to_regexp() for t in lark.terminals},
    }


# A scanner of this many terminals or fewer compiles in a few hundredths of a millisecond and
# matches faster than a larger one: it is used as it is.
_SMALL = 4


def _first_scanner(own_index: int, scanners: list[dict], numbered: set[str]) -> int:
    """The scanner to scan with before scanner `own_index` (see the module's docstring): the
    largest whose terminals include all of its own, in the same order, with the same ignored
    terminals and keyword rules, and none that refers to a group by number; `own_index` when
    there is none larger, or its own has `_SMALL` terminals or fewer."""
    spec = scanners[own_index]
    own = spec["terminals"]
    best = own_index
    for index, other in enumerate(scanners):
        theirs = other["terminals"]
        if (
            len(own) > _SMALL
            and len(theirs) > len(scanners[best]["terminals"])
            and not numbered.intersection(theirs)
            and other["ignore"] == spec["ignore"]
            and other["unless"] == spec["unless"]
            and set(own) <= set(theirs)
            and [name for name in theirs if name in set(own)] == own
        ):
            best = index
    return best


class _Scanner:
    """One scanner of the tables, compiled the first time a parse needs it."""

    __slots__ = ("match", "ignore", "unless")

    def __init__(self, spec: dict) -> None:
        matches = [re.compile(pattern).match for pattern in spec["patterns"]]
        self.match = matches[0] if len(matches) == 1 else _first_of(matches)
        self.ignore = frozenset(spec["ignore"])
        self.unless = {
            name: [re.compile(pattern).fullmatch for pattern in patterns]
            for name, patterns in spec["unless"].items()
        }


def _first_of(matches: list):
    """A scanner Lark split into several patterns (when `re` could not compile it as one):
    the first that matches, as Lark's own scanner tries them."""

    def match(text: str, pos: int):
        for each in matches:
            found = each(text, pos)
            if found is not None:
                return found
        return None

    return match


class _Lexer:
    """A state's lexer: the scanner it scans with first and, when that is not its own, the
    terminals its own scanner has (`own`; None when it is its own)."""

    __slots__ = ("match", "ignore", "unless", "own")

    def __init__(self, first: _Scanner, own: frozenset[str] | None) -> None:
        self.match, self.ignore, self.unless = first.match, first.ignore, first.unless
        self.own = own


class TableParser:
    """Runs the tables; the rule callbacks are methods of `callbacks` (as in `build_tables`)."""

    def __init__(self, tables: dict, callbacks: object) -> None:
        if tables.get("format") != TABLE_FORMAT:
            raise ValueError("tables of another format")
        self.start, self.end = tables["start"], tables["end"]
        count = len(tables["states"])
        self.states: list[dict[str, int]] = [tables["states"][str(i)] for i in range(count)]
        self._specs = tables["scanners"]
        self._scanners: list[_Scanner | None] = [None] * len(self._specs)
        self._lexer_of = [tables["lexer_of_state"][str(i)] for i in range(count)]
        self._by_state: list[_Lexer | None] = [None] * count
        self._own_by_state: list[_Lexer | None] = [None] * count
        self.kept = frozenset(tables["kept_terminals"])
        self.terminals: dict[str, str] = tables["terminals"]
        self.rules = [
            (
                origin,
                size,
                getattr(callbacks, method) if method else None,
                _reducer(plan, trailing, size),
            )
            for origin, size, method, plan, trailing in tables["rules"]
        ]

    def _compiled(self, index: int) -> _Scanner:
        """A scanner, compiled on first use (one serves many states)."""
        scanner = self._scanners[index]
        if scanner is None:
            scanner = self._scanners[index] = _Scanner(self._specs[index])
        return scanner

    def _lexer(self, state: int) -> _Lexer:
        """The state's lexer: the scanner it scans with first (see the module's docstring)."""
        index = self._lexer_of[state]
        first = self._specs[index]["first"]
        own = None if first == index else frozenset(self._specs[index]["terminals"])
        lexer = self._by_state[state] = _Lexer(self._compiled(first), own)
        return lexer

    def _own_lexer(self, state: int) -> _Lexer:
        """The state's own scanner, for text its first scanner reads as a terminal the state's
        own does not have."""
        lexer = self._own_by_state[state]
        if lexer is None:
            index = self._lexer_of[state]
            lexer = self._own_by_state[state] = _Lexer(self._compiled(index), None)
        return lexer

    def parse(self, text: str) -> Any:
        """The start rule's callback result, or `Rejected`."""
        actions = [row.get for row in self.states]
        rules, kept, by_state, lexer_for = self.rules, self.kept, self._by_state, self._lexer
        stack = [self.start]
        values: list = []
        pos, line, line_start, end = 0, 1, 0, len(text)
        state = self.start
        while True:
            if pos < end:
                scanner = by_state[state] or lexer_for(state)
                found = scanner.match(text, pos)
                if found is None:  # the first scanner has all the state's terminals
                    raise Rejected
                kind = found.lastgroup
                if scanner.own is not None and kind not in scanner.own:
                    scanner = self._own_lexer(state)
                    found = scanner.match(text, pos)
                    if found is None:
                        raise Rejected
                    kind = found.lastgroup
                value = found.group()
                if kind in scanner.ignore:
                    pos += len(value)
                    if "\n" in value:
                        line += value.count("\n")
                        line_start = pos - len(value) + value.rindex("\n") + 1
                    continue
                if scanner.unless and kind in scanner.unless:
                    kind = _retype(scanner.unless[kind], kind, value)
                token = _token(kind, value, line, pos - line_start + 1) if kind in kept else None
                pos += len(value)
                if "\n" in value:
                    line += value.count("\n")
                    line_start = pos - len(value) + value.rindex("\n") + 1
            else:
                kind, token = "$END", None
            while True:
                action = actions[state](kind)
                if action is None:
                    raise Rejected
                if action >= 0:  # shift
                    if kind == "$END":
                        raise Rejected
                    stack.append(action)
                    values.append(token)
                    state = action
                    break
                origin, size, callback, reduce = rules[-1 - action]
                if size:
                    children = reduce(values[-size:])
                    del values[-size:]
                    del stack[-size:]
                else:
                    children = reduce([])
                value = callback(children) if callback is not None else children
                state = actions[stack[-1]](origin)
                stack.append(state)
                values.append(value)
                if kind == "$END" and state == self.end:
                    return value


def _retype(fullmatches: list, kind: str, value: str) -> str:
    """Lark's rule for a string terminal that a pattern terminal also matches: the string's."""
    for fullmatch in fullmatches:
        whole = fullmatch(value)
        if whole is not None:
            return whole.lastgroup
    return kind


def _reducer(plan: list, trailing: int, size: int):
    """The children a rule's callback gets, from the values its symbols left on the stack."""
    if not trailing and len(plan) == size and not any(e or n for _, e, n in plan):
        return _as_is
    steps = [(index, bool(expand), nones) for index, expand, nones in plan]

    def reduce(children: list) -> list:
        kept: list = []
        for index, expand, nones in steps:
            if nones:
                kept += [None] * nones
            if expand:
                if kept:
                    kept += children[index]
                else:
                    kept = children[index]  # reuse the inlined rule's list (left recursion)
            else:
                kept.append(children[index])
        if trailing:
            kept += [None] * trailing
        return kept

    return reduce


def _as_is(children: list) -> list:
    return children
