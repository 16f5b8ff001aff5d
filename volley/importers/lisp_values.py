"""Emacs Lisp values as Eglot's first versions wrote JSON-RPC messages, read back as JSON values.

Eglot's events buffer (before jsonrpc.el wrote JSON) holds each message as the Lisp value it
was decoded to: `(:jsonrpc "2.0" :id 1 :method "initialize" :params (:processId 42))`. An
object is a property list (keywords and their values), an array a vector (`[…]`), `nil` is
null (and an empty object), `t` true and `:json-false` false; strings are in double quotes,
with `\\` before a quote, a backslash or an escape letter (`\\n`).
"""

from __future__ import annotations

import re
from typing import Any

__all__ = ["read_lisp_value"]

_TOKEN = re.compile(
    r'\s*(?:(?P<open>[(\[])|(?P<close>[)\]])|"(?P<string>(?:[^"\\]|\\.)*)"'
    r'|(?P<atom>[^\s()\[\]";]+))',
    re.S,
)
_NUMBER = re.compile(r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")
_ESCAPE = re.compile(r"\\(.)", re.S)
_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "f": "\f", "e": "\x1b", "a": "\a", "\n": ""}
_WORDS: dict[str, Any] = {"nil": None, "t": True, ":json-false": False, ":null": None}
_CLOSES = {"(": ")", "[": "]"}


class _Keyword(str):
    """A `:name` in a property list: the key of the value after it."""


def read_lisp_value(text: str) -> Any:
    """The JSON value of the Lisp value that `text` starts with (white space before it
    skipped); ValueError when it is not one."""
    stack: list[tuple[str, list[Any]]] = []
    at = 0
    while True:
        token = _TOKEN.match(text, at)
        if token is None:
            raise ValueError(f"expected a value at character {at + 1}")
        at = token.end()
        if token["open"]:
            stack.append((token["open"], []))
            continue
        if token["close"]:
            if not stack or _CLOSES[stack[-1][0]] != token["close"]:
                raise ValueError(f"unexpected {token['close']!r} at character {at}")
            opened, items = stack.pop()
            value = items if opened == "[" else _list(items)
        elif token["string"] is not None:
            value = _ESCAPE.sub(lambda found: _ESCAPES.get(found[1], found[1]), token["string"])
        else:
            value = _atom(token["atom"])
        if not stack:
            return value
        stack[-1][1].append(value)


def _atom(word: str) -> Any:
    if word in _WORDS:
        return _WORDS[word]
    if _NUMBER.fullmatch(word):
        number = float(word)
        return (
            int(word)
            if number.is_integer() and "." not in word and "e" not in word.lower()
            else number
        )
    return _Keyword(word) if word.startswith(":") else word


def _list(items: list[Any]) -> Any:
    """A property list as the object it stands for; `()` is nil; any other list an array."""
    if not items:
        return None
    keys = items[::2]
    if len(items) % 2 == 0 and all(isinstance(key, _Keyword) for key in keys):
        return {str(key)[1:]: value for key, value in zip(keys, items[1::2], strict=True)}
    return items
