"""The one fence rule (volley.text.fences): CommonMark's, for payload bodies and notes; and
Markdown pages' fences as markdown-it-py reads them (volley.text.markdown)."""

from __future__ import annotations

import pytest
from markdown_it import MarkdownIt

import volley
from volley.text.fences import Opening, closes, dedent, fence_open, read_block
from volley.text.inline import CodeBlock, parse_note
from volley.text.markdown import page_fences


def block(text: str, max_indent: int | None = None):
    """The block the first line of `text` opens."""
    lines = text.split("\n")
    opening = fence_open(lines[0], max_indent=max_indent)
    assert opening is not None
    return read_block(lines, 0, opening, max_indent=max_indent)


@pytest.mark.parametrize("line", ["```", "~~~", "````", "~~~~~~", "```json", "~~~ json"])
def test_three_or_more_backticks_or_tildes_open_a_fence(line: str) -> None:
    assert fence_open(line) is not None


@pytest.mark.parametrize("line", ["``", "~~", "`~`", "-- ```", "text ```", "``~", ""])
def test_fewer_than_three_or_mixed_characters_do_not(line: str) -> None:
    assert fence_open(line) is None


def test_the_info_string_is_trimmed_and_its_first_word_is_the_language() -> None:
    assert fence_open("```  json title=x  ") == Opening("", "```", "json title=x")
    assert fence_open("```json title=x").lang == "json"
    assert fence_open("~~~").lang is None


def test_a_backtick_fence_info_string_holds_no_backtick_a_tilde_fence_may() -> None:
    assert fence_open("```a`b") is None  # inline code, as CommonMark reads it
    assert fence_open("``` x ```") is None
    assert fence_open("~~~ a`b").info == "a`b"


def test_a_block_closes_at_a_fence_of_the_same_character_at_least_as_long() -> None:
    assert closes("```", "```")
    assert closes("`````", "```")
    assert closes("  ````  \t", "````")  # white space around it
    assert not closes("``", "```")  # shorter
    assert not closes("```", "````")
    assert not closes("~~~", "```")  # the other character
    assert not closes("``` json", "```")  # a closing fence has no info string
    assert not closes("```~", "```")


def test_a_shorter_or_other_fence_inside_is_part_of_the_body() -> None:
    found = block("````md\n```json\n{}\n```\n~~~~\n````\nafter")
    assert found.closed and found.end == 5
    assert found.body == ["```json", "{}", "```", "~~~~"]


def test_the_openings_indentation_is_removed_from_the_body() -> None:
    found = block("    ```\n      indented\n    level\n  less\n\n    ```")
    assert found.body == ["  indented", "level", "less", ""]
    opening = fence_open("  ~~~")
    assert opening is not None and opening.column == 3
    # other white space than the opening's: as many columns removed, the rest kept
    assert dedent("\tx", opening) == "  x"  # a tab is four columns: two remain
    assert dedent("\t\tbar", opening) == "  \tbar"
    assert dedent(" y", opening) == "y"  # indented less: all of it removed


def test_a_block_never_closed_runs_to_the_end() -> None:
    found = block("```\none\n``\ntwo")
    assert not found.closed and found.end == 4
    assert found.body == ["one", "``", "two"]


def test_markdown_allows_three_columns_of_indentation_volley_any() -> None:
    assert fence_open("   ```", max_indent=3) is not None
    assert fence_open("    ```", max_indent=3) is None  # an indented code block in Markdown
    assert fence_open("\t```", max_indent=3) is None  # a tab is four columns
    assert fence_open("        ```") is not None  # under a deep `in:` line in .volley
    assert not closes("    ```", "```", max_indent=3)
    assert closes("   ```", "```", max_indent=3)
    assert block("```\n    ```\nx\n```", max_indent=3).body == ["    ```", "x"]


MARKDOWN = [
    "```\ncode\n```\n",
    "~~~~ python  extra\n~~~\nx\n~~~~~\n",
    "  ```js\n    a\n  b\nc\n  ```\n",
    "   ```\n   x\n    ```\n   ```\n",
    "```\nnever closed\n\n",
    "````\n```\ninner\n```\n````\n",
    "~~~ a`b\ntext\n~~~\n",
    "``` ```\nnot a fence\n",
    "    ```\n    indented code\n    ```\n",
    "```\n``` trailing\n```\n",
]


@pytest.mark.parametrize("page", MARKDOWN)
def test_with_markdowns_limit_the_rule_reads_pages_as_commonmark_does(page: str) -> None:
    """The same blocks markdown-it-py finds: where they start and end, info string, body."""
    lines = page.split("\n")
    expected = [
        (token.map[0], token.info.strip(), token.content)
        for token in MarkdownIt("commonmark").parse(page)
        if token.type == "fence"
    ]
    found, index = [], 0
    while index < len(lines):
        opening = fence_open(lines[index], max_indent=3)
        if opening is None:
            index += 1
            continue
        fenced = read_block(lines, index, opening, max_indent=3)
        body = fenced.body if fenced.closed else fenced.body[:-1]  # the page's final newline
        content = "".join(line + "\n" for line in body)
        found.append((index, opening.info, content))
        index = fenced.end + 1
    assert found == expected


def test_a_payload_fence_and_a_fence_in_a_note_are_read_by_the_same_rule() -> None:
    source = (
        "A -> B: call\n"
        "  in: Request\n"
        "  ````json\n"
        "  ```\n"
        "  {}\n"
        "  ````\n"
        "note over A:\n"
        "  ~~~~ http\n"
        "  GET /\n"
        "  ~~~\n"
        "  ~~~~\n"
    )
    diagram = volley.parse(source)
    payload = diagram.items[0].request
    assert payload.body == "```\n{}" and payload.lang == "json" and payload.form == "fenced"
    note = diagram.items[1].text
    assert parse_note(note) == [CodeBlock(["GET /", "~~~"], "http")]


@pytest.mark.parametrize(
    ("page", "closed", "body"),
    [
        ("```\na\n```\n", True, ["a"]),
        ("```\na\n```", True, ["a"]),  # no newline at the end of the page
        ("```\na\n", False, ["a"]),
        ("```\na", False, ["a"]),
        ("```\n```", True, []),
        ("```\n", False, []),
        ("> ```js\n> a\n>  b\n> ```\n", True, ["a", " b"]),
        ("> ```\n> a\n\nafter\n", False, ["a"]),  # ends with its quote
        ("- item\n\n  ~~~\n    a\n  ~~~\n", True, ["  a"]),
    ],
)
def test_a_pages_fences_as_markdown_it_reads_them(page: str, closed: bool, body: list[str]) -> None:
    (fence,) = page_fences(page)
    assert (fence.closed, fence.body) == (closed, body)
    assert fence.end - fence.start == len(body) + 1 + closed
