"""Lua values as Neovim's `vim.inspect` writes them, read back as the JSON they were."""

from __future__ import annotations

import pytest

from volley.importers.lua_values import LuaValueError, read_lua_value


@pytest.mark.parametrize(
    ("written", "value"),
    [
        ('{ id = 1, method = "x" }', {"id": 1, "method": "x"}),
        ('{ "utf-8", "utf-16" }', ["utf-8", "utf-16"]),
        ("{}", []),  # Neovim decodes JSON's [] as an empty table
        ("vim.empty_dict()", {}),  # and JSON's {} as this
        ("{ result = vim.NIL }", {"result": None}),
        ('{ ["end"] = { line = 3 } }', {"end": {"line": 3}}),  # a Lua keyword as a key
        ('{ [1] = "a", [2] = "b" }', ["a", "b"]),
        ('{ [1] = "a", [3] = "b" }', {"1": "a", "3": "b"}),  # a hole: an object
        ('{ "a", x = 1 }', {"1": "a", "x": 1}),
        (
            "{ a = -1.5e3, b = 0x1F, c = true, d = false }",
            {"a": -1500.0, "b": 31, "c": True, "d": False},
        ),
        ("'say \"hi\"'", 'say "hi"'),  # '-quoted when the text holds a "
        ('"a\\\\b\\"c\\n\\t"', 'a\\b"c\n\t'),
        ('"\\27[0m"', "\x1b[0m"),  # a control character as \ddd
        ('"a\\226\\128\\153b"', "a\u2019b"),  # UTF-8 bytes as \ddd: one character
        ("{ a = 1, <metatable> = { __index = <function 1> } }", {"a": 1}),
        ("{ [true] = 1 }", {"true": 1}),
        ("<1>{ a = 1, b = <table 1> }", {"a": 1, "b": "<table 1>"}),  # a table seen twice
        ("{ f = <function 1> }", {"f": "<function 1>"}),
        ("{ n = inf, m = -nan }", {"n": "inf", "m": "-nan"}),  # no JSON number says them
        (
            '{\n  jsonrpc = "2.0",\n  params = { {\n      a = 1\n    } }\n}',
            {"jsonrpc": "2.0", "params": [{"a": 1}]},
        ),
    ],
)
def test_values_read_back(written: str, value: object) -> None:
    read, end = read_lua_value(written)
    assert read == value
    assert end == len(written)


def test_a_value_ends_where_its_table_closes() -> None:
    assert read_lua_value("  { a = 1 } trailing", 0) == ({"a": 1}, 11)


@pytest.mark.parametrize(
    ("written", "message"),
    [
        ("{ a = 1", "expected , or } in a table (at character 8)"),
        ('{ a = "x }', "a string that is never closed (at character 7)"),
        ("{ capabilities = ... }", "expected a value (at character 18)"),
        ("{ [1 = 2 }", "expected ] after a key (at character 6)"),
        ("{ [{}] = 2 }", "a key that is a table (at character 4)"),
    ],
)
def test_what_is_not_a_value_says_where(written: str, message: str) -> None:
    with pytest.raises(LuaValueError) as caught:
        read_lua_value(written)
    assert str(caught.value) == message
