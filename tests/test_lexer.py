"""The Pygments lexer colours .volley source the way the parser reads it.

The parser is the oracle: on every example, each element it reports starts, in the lexer's
tokens, with the token its kind should have (a participant name for a message, a keyword for a
note or a block, an operator for a divider), and each payload body is coloured by its fence
language's lexer rather than read as volley.
"""

from __future__ import annotations

import subprocess
import sys

import pytest
from pygments.lexers import get_lexer_by_name, get_lexer_for_filename
from pygments.token import Keyword, Name, Operator, Punctuation, String

import volley
from volley.docs.pygments_lexer import VolleyLexer

from .conftest import EXAMPLES, parsed_items

EXAMPLE_FILES = sorted(EXAMPLES.glob("*.volley"))
FIRST_TOKEN = {"message": Name.Class, "note": Keyword, "block": Keyword, "divider": Operator}


def tokens(source: str) -> list[tuple[int, object, str]]:
    return list(VolleyLexer().get_tokens_unprocessed(source))


def first_token_of_each_line(source: str) -> dict[int, object]:
    """Line number (1-based) -> the first token on it that is not whitespace."""
    found: dict[int, object] = {}
    line_starts = [0]
    for index, char in enumerate(source):
        if char == "\n":
            line_starts.append(index + 1)
    for start, token, value in tokens(source):
        if not value.strip():
            continue
        offset = start + len(value) - len(value.lstrip())
        line = sum(1 for begin in line_starts if begin <= offset)
        found.setdefault(line, token)
    return found


@pytest.mark.parametrize("path", EXAMPLE_FILES, ids=lambda p: p.name)
def test_every_example_lexes_to_its_exact_text(path):
    source = path.read_text(encoding="utf-8")
    assert "".join(value for _start, _token, value in tokens(source)) == source


@pytest.mark.parametrize("path", EXAMPLE_FILES, ids=lambda p: p.name)
def test_every_element_the_parser_reads_starts_with_its_token(path):
    source = path.read_text(encoding="utf-8")
    parsed = volley.parse(source).to_json()
    first = first_token_of_each_line(source)
    checked = 0
    for item in parsed_items(parsed):
        expected = FIRST_TOKEN.get(item["type"])
        if expected is None:
            continue
        assert first[item["line"]] in expected, (item["type"], item["line"], first[item["line"]])
        checked += 1
    assert checked >= 3


def visible(pairs) -> list[tuple[object, str]]:
    return [(token, value.strip()) for token, value in pairs if value.strip()]


def contains_run(haystack: list, needle: list) -> bool:
    return any(haystack[i : i + len(needle)] == needle for i in range(len(haystack)))


@pytest.mark.parametrize("path", EXAMPLE_FILES, ids=lambda p: p.name)
def test_payload_bodies_are_coloured_as_their_language_not_as_volley(path):
    """A fenced body gets exactly the tokens its language's lexer gives it; an indented one
    is key/value rows: nothing in a body (an arrow in JSON, `note:` in a log) reads as volley."""
    source = path.read_text(encoding="utf-8")
    lexed = visible((token, value) for _start, token, value in tokens(source))
    payloads = [
        payload
        for item in parsed_items(volley.parse(source).to_json())
        for payload in (item.get("request"), item.get("response"))
        if payload and payload["body"]
    ]
    assert payloads
    for payload in payloads:
        if payload["lang"]:
            lexer = get_lexer_by_name(payload["lang"])
            expected = visible(lexer.get_tokens(payload["body"] + "\n"))
        else:
            expected = visible(
                (token, value)
                for _start, token, value in VolleyLexer().get_tokens_unprocessed(
                    payload["body"], ("root", "body")
                )
            )
            assert {token for token, _value in expected} <= {Name.Attribute, String, Punctuation}
        assert contains_run(lexed, expected), payload["body"][:80]


def test_a_fenced_body_is_coloured_by_its_language():
    source = 'A -> B: call\nin: Args\n  ```json\n  {"query": "a -> b"}\n  ```\nB --> A: ok\n'
    found = tokens(source)
    values = {value: token for _start, token, value in found}
    assert values['"query"'] in Name.Tag  # the JSON lexer's key token
    assert values['"a -> b"'] in String.Double
    assert values["B"] is Name.Class  # the diagram goes on after the fence


def test_an_indented_body_is_key_value_rows():
    found = tokens("A -> B: login\nin: Request\n  user: ada\n  password: <redacted>\nB --> A\n")
    values = {value: token for _start, token, value in found}
    assert values["user"] is Name.Attribute
    assert values[" ada"] in String
    assert values["-->"] is Operator


@pytest.mark.parametrize(
    ("line", "arrow"),
    [
        ("A <-->> B: both", "<-->>"),
        ("A -x B: lost", "-x"),
        ("A --x- B: lost", "--x"),
        ("A ->+ B: call", "->"),
        ("A => B", "=>"),
        ("x-ray -> B", "->"),
    ],
)
def test_arrows_are_one_operator_between_two_names(line, arrow):
    found = [(token, value) for _start, token, value in tokens(line + "\n") if value.strip()]
    assert (Operator, arrow) in found
    names = [value for token, value in found if token is Name.Class]
    assert len(names) == 2, found


def test_inline_markup_in_labels():
    found = {value: token for _s, token, value in tokens("title: **Bold** {fas-plug} `code`\n")}
    assert "**Bold**" not in found  # the title is one heading token
    found = {value: token for _s, token, value in tokens("A -> B: **Bold** {fas-plug} `x`\n")}
    assert found["{fas-plug}"] is Name.Builtin
    assert found["`x`"] in String


def test_a_tables_rows_in_a_note_are_its_text_not_messages_or_dividers():
    """As the parser reads them: a row that starts with a pipe holds no participant, and a
    delimiter row (`--:|:-:`) is no divider; a cell's inline code is still coloured."""
    source = "A -> B: go\nnote:\n| Client -> API | `call` |\n--:|:-:\n| 1 | x |\nB -> A: ok\n"
    first = first_token_of_each_line(source)
    assert first[1] is Name.Class and first[6] is Name.Class  # the messages around it
    for line in (3, 4, 5):
        assert first[line] not in (Name.Class, Operator), (line, first[line])
    found = {value: token for _s, token, value in tokens(source)}
    assert found["`call`"] in String and "Client" not in found


def test_text_without_a_final_newline_and_an_unclosed_fence_end():
    for source in ("A -> B", "A -> B: x\nin: Request\n```json\n{", "note: a\nmore text"):
        assert "".join(value for _s, _t, value in tokens(source)) == source


def test_pygments_finds_the_lexer_by_name_and_filename():
    assert isinstance(get_lexer_by_name("volley"), VolleyLexer)
    assert isinstance(get_lexer_for_filename("flow.volley"), VolleyLexer)


def test_python_m_pygments_highlights_a_volley_file():
    result = subprocess.run(
        [sys.executable, "-m", "pygments", "-l", "volley", "-f", "html"],
        input="A -> B: hello\n",
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    assert '<span class="nc">A</span>' in result.stdout
    assert '<span class="o">-&gt;</span>' in result.stdout


def test_a_tables_rows_without_end_pipes_are_text_until_the_table_ends():
    """Once a header and its delimiter row open a table (the header may be on the `note:`
    line), a line with a pipe is a row even when a cell holds an arrow, as the parser reads
    it; after a list item or a blank line the table is over, and such a line is a message."""
    source = (
        "A -> B: go\nnote:\nA -> B | what\n--- | ---\n1 | A -> B: x\n- list\n"
        "C | D -> B: z\nnote A: a | b\n--|--\n1 | A -> B: q\n\nE | F -> A: ok\n"
    )
    first = first_token_of_each_line(source)
    for line in (3, 4, 5, 6, 9, 10):
        assert first[line] not in (Name.Class, Operator), (line, first[line])
    assert first[7] is Name.Class and first[12] is Name.Class


def test_autonumber_with_its_start_or_off_is_a_directive():
    found = [(token, value) for _start, token, value in tokens("autonumber 10\nautonumber off\n")]
    assert (Keyword.Declaration, "autonumber") in found
    assert ("10" in dict((v, t) for t, v in found)) and (Keyword.Constant, "off") in found


def test_a_blocks_word_without_its_colon_is_a_keyword_where_the_parser_reads_one():
    """`group Login`, `loop every 30 s`, `alt ok` open blocks as the parser reads them; a line
    with an arrow after such a word is a message, and `looping` is a name."""
    source = "group Login\nloop\nalt ok\nLoop back -> B: x\nlooping -> B\ncritical: y\n"
    first = first_token_of_each_line(source)
    assert [first[line] for line in range(1, 7)] == [
        Keyword,
        Keyword,
        Keyword,
        Name.Class,
        Name.Class,
        Keyword,
    ]
    kinds = [item["type"] for item in parsed_items(volley.parse(source + "end\n" * 4).to_json())]
    assert kinds[:3] == ["block"] * 3
