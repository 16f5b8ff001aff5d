"""Lua values as Neovim writes them in its LSP log (`vim.inspect`), read back as JSON values.

Neovim logs each JSON-RPC message after decoding it, so the log holds Lua tables, not JSON:
`{ id = 1, jsonrpc = "2.0", method = "initialize", params = { ... } }`, keys in sorted order,
`["end"] = …` for a key that is a Lua keyword, `{ "a", "b" }` for an array, `vim.NIL` for JSON's
null and `vim.empty_dict()` for an empty object (an empty `{}` was an empty array). Strings are
quoted with `"` or, when they hold a `"`, with `'`, and escape `\\`, `\\n`, `\\t`, … and other
control characters as `\\ddd`. Older versions wrote a table over several indented lines.
"""

from __future__ import annotations

import json
import re
from typing import Any

__all__ = ["LuaValueError", "read_lua_value"]


class LuaValueError(ValueError):
    """Text that is not a value as `vim.inspect` writes one; `pos` is where reading stopped."""

    def __init__(self, reason: str, pos: int) -> None:
        super().__init__(f"{reason} (at character {pos + 1})")
        self.reason, self.pos = reason, pos


_SPACE = re.compile(r"\s*")
_NUMBER = re.compile(r"-?(?:0[xX][0-9a-fA-F]+|(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)")
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_KEY = re.compile(r"([A-Za-z_][A-Za-z0-9_]*)\s*=(?!=)")
_WORDS: dict[str, Any] = {"true": True, "false": False, "nil": None, "vim.NIL": None}
_SPECIAL = re.compile(r"vim\.NIL|vim\.empty_dict\(\)|true|false|nil|-?inf|-?nan")
# `<1>` before a table that appears more than once; `<table 1>`, `<function 1>` for what has
# no JSON form (a table seen before, a callback).
_REFERENCE = re.compile(r"<(?:[a-z]+ )?\d+>")
_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "a": "\a", "b": "\b", "f": "\f", "v": "\v"}
_ESCAPE = re.compile(r"\\(?:(\d{1,3})|(.)|\n)", re.S)


def read_lua_value(text: str, start: int = 0) -> tuple[Any, int]:
    """The value written at `text[start:]` (white space before it skipped), and where it ends."""
    return _Reader(text).value(start)


class _Reader:
    def __init__(self, text: str) -> None:
        self.text = text

    def skip(self, at: int) -> int:
        match = _SPACE.match(self.text, at)
        return match.end() if match else at

    def value(self, at: int) -> tuple[Any, int]:
        at = self.skip(at)
        text = self.text
        if text.startswith("<", at):
            reference = _REFERENCE.match(text, at)
            if reference is None:
                raise LuaValueError("expected a value", at)
            if reference.group().count(" "):  # `<table 1>`: shown as written
                return reference.group(), reference.end()
            at = self.skip(reference.end())  # `<1>{ … }`: the table itself follows
        char = text[at : at + 1]
        if char == "{":
            return self.table(at + 1)
        if char in ("'", '"'):
            return self.string(at)
        special = _SPECIAL.match(text, at)
        if special and not _NAME.match(text, special.end()):
            word = special.group()
            if word == "vim.empty_dict()":
                return {}, special.end()
            if word in _WORDS:
                return _WORDS[word], special.end()
            return word, special.end()  # inf, nan: no JSON number says them
        number = _NUMBER.match(text, at)
        if number:
            written = number.group()
            if re.fullmatch(r"-?0[xX][0-9a-fA-F]+", written):
                return int(written, 16), number.end()
            if re.fullmatch(r"-?\d+", written):
                return int(written), number.end()
            return float(written), number.end()
        raise LuaValueError("expected a value", at)

    def string(self, at: int) -> tuple[str, int]:
        text, quote = self.text, self.text[at]
        end = at + 1
        while True:
            end = text.find(quote, end)
            if end < 0:
                raise LuaValueError("a string that is never closed", at)
            before = end
            while text[before - 1] == "\\":
                before -= 1
            if (end - before) % 2 == 0:  # not an escaped quote
                break
            end += 1
        return _unescaped(text[at + 1 : end]), end + 1

    def table(self, at: int) -> tuple[Any, int]:
        items: list[Any] = []
        keyed: dict[Any, Any] = {}
        text = self.text
        while True:
            at = self.skip(at)
            if text.startswith("}", at):
                return _as_json(items, keyed), at + 1
            if text.startswith("<metatable>", at):  # how the table behaves: not its data
                at = self.skip(at + len("<metatable>"))
                if not text.startswith("=", at):
                    raise LuaValueError("expected = after <metatable>", at)
                _, at = self.value(at + 1)
            elif text.startswith("[", at):  # ["end"] = …, [3] = …
                key, after = self.value(at + 1)
                if isinstance(key, (list, dict)):
                    raise LuaValueError("a key that is a table", at + 1)
                at = self.skip(after)
                if not text.startswith("]", at):
                    raise LuaValueError("expected ] after a key", at)
                at = self.skip(at + 1)
                if not text.startswith("=", at):
                    raise LuaValueError("expected = after a key", at)
                keyed[key], at = self.value(at + 1)
            elif (named := _KEY.match(text, at)) and named.group(1) not in _WORDS:
                keyed[named.group(1)], at = self.value(named.end())
            else:
                value, at = self.value(at)
                items.append(value)
            at = self.skip(at)
            if text.startswith((",", ";"), at):
                at += 1
            elif not text.startswith("}", at):
                raise LuaValueError("expected , or } in a table", at)


def _as_json(items: list[Any], keyed: dict[Any, Any]) -> Any:
    """A Lua table as JSON has it: an array when it has only positions (`[1]`, `[2]` … count as
    positions), else an object, its keys as strings."""
    if not keyed:
        return items
    positions = list(range(1, len(keyed) + 1))
    if not items and all(type(key) is int for key in keyed) and sorted(keyed) == positions:
        return [keyed[key] for key in positions]
    out = {str(index): value for index, value in enumerate(items, 1)}
    out.update({key if isinstance(key, str) else json.dumps(key): v for key, v in keyed.items()})
    return out


def _unescaped(written: str) -> str:
    """A string's text from how it is written. Lua strings are bytes: `\\226\\128\\153` is one
    character (’) in UTF-8, so escaped bytes are decoded together with the text around them."""
    if "\\" not in written:
        return written
    out = bytearray()
    at = 0
    for match in _ESCAPE.finditer(written):
        out += written[at : match.start()].encode("utf-8", "surrogatepass")
        digits, char = match.group(1), match.group(2)
        if digits is not None and int(digits) < 256:
            out.append(int(digits))
        elif digits is not None:
            out += match.group().encode("utf-8")  # not a byte: kept as written
        elif char is None:
            out += b"\n"  # a backslash before a line break: the line break
        else:
            out += _ESCAPES.get(char, char).encode("utf-8", "surrogatepass")
        at = match.end()
    out += written[at:].encode("utf-8", "surrogatepass")
    return out.decode("utf-8", "replace")
