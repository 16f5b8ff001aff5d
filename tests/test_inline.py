"""Inline markup: every construct, the edge cases that bite, and linear time on hostile input."""

from __future__ import annotations

import pytest

from volley.text.inline import (
    CodeBlock,
    IconRef,
    ListItem,
    Paragraph,
    Rule,
    Span,
    Table,
    escape_markup,
    icon_refs,
    note_link_targets,
    parse_inline,
    parse_note,
    plain_text,
    safe_href,
)


def one_line(text: str) -> list[Span]:
    lines = parse_inline(text)
    assert len(lines) == 1, lines
    return lines[0]


def styled(text: str) -> list[tuple[str, str]]:
    """Each span as (text, flags): b bold, i italic, s strike, c code."""
    flags = ("bold", "italic", "strike", "code")
    return [
        (span.text, "".join(name[0] for name in flags if getattr(span, name)))
        for span in one_line(text)
    ]


def test_plain_text_is_one_span() -> None:
    assert parse_inline("Agent -> Server") == [[Span("Agent -> Server")]]
    assert parse_inline("") == [[]]


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("**bold**", [("bold", "b")]),
        ("*italic*", [("italic", "i")]),
        ("_italic_", [("italic", "i")]),
        ("~~gone~~", [("gone", "s")]),
        ("`code`", [("code", "c")]),
        ("a **b** c", [("a ", ""), ("b", "b"), (" c", "")]),
        ("***both***", [("both", "bi")]),
        ("**bold *both* bold**", [("bold ", "b"), ("both", "bi"), (" bold", "b")]),
        ("*it **both** it*", [("it ", "i"), ("both", "bi"), (" it", "i")]),
        ("_it **both**_", [("it ", "i"), ("both", "bi")]),
        ("~~**x**~~", [("x", "bs")]),
        ("**`code`**", [("code", "bc")]),
    ],
)
def test_emphasis_and_code(source: str, expected: list[tuple[str, str]]) -> None:
    assert styled(source) == expected


def test_code_takes_no_markup() -> None:
    assert styled("`a*b*c **d** _e_ {fas-plug} [x](http://y) \\n`") == [
        ("a*b*c **d** _e_ {fas-plug} [x](http://y) \\n", "c")
    ]
    assert styled("x `*` y") == [("x ", ""), ("*", "c"), (" y", "")]


def test_code_with_backticks_inside() -> None:
    assert styled("`` a`b ``") == [("a`b", "c")]
    assert styled("` `` `") == [("``", "c")]
    assert styled("``one` ``") == [("one` ", "c")]


def test_intraword_underscore_is_not_italic() -> None:
    assert styled("snake_case_name") == [("snake_case_name", "")]
    assert styled("call get_user_by_id now") == [("call get_user_by_id now", "")]
    assert styled("__init__") == [("init", "b")]  # whole-word double underscore is bold
    assert styled("a_b_ _c_") == [("a_b_ ", ""), ("c", "i")]


def test_underscore_emphasis_starts_a_line_after_a_break() -> None:
    """`first line\\n_second line_` (a real swimlanes.io label): the line after a break starts
    as after a space, whichever way the break is written; an escaped backslash is no break."""
    for text in ("first\\n_second_", "first<br>_second_", "first\n_second_"):
        [_, second] = parse_inline(text)
        assert [(s.text, s.italic) for s in second] == [("second", True)], text
    assert styled("x\\\\n_y_") == [("x\\n_y_", "")]


def test_intraword_asterisk_is_emphasis() -> None:
    assert styled("un*frigging*believable") == [
        ("un", ""),
        ("frigging", "i"),
        ("believable", ""),
    ]


@pytest.mark.parametrize(
    "source",
    [
        "**unclosed",
        "*unclosed",
        "_unclosed",
        "~~unclosed",
        "`unclosed",
        "a * b * c",
        "2 * 3 = 6",
        "~5 ms~",
        "~~~three~~~",
        "[text](",
        "[text]",
        "{fas-plug",
        "}{",
        "** not bold **",
    ],
)
def test_unclosed_or_unmatched_markers_are_literal(source: str) -> None:
    assert one_line(source) == [Span(source)]


def test_backslash_escapes() -> None:
    assert one_line(r"\*not italic\*") == [Span("*not italic*")]
    assert one_line(r"\{fas-plug}") == [Span("{fas-plug}")]
    assert one_line(r"a \\ b") == [Span("a \\ b")]
    assert one_line(r"\_x\_") == [Span("_x_")]
    assert one_line(r"\`x\`") == [Span("`x`")]
    assert one_line(r"\[x](http://y)") == [Span("[x](http://y)")]
    assert one_line(r"\~~x~~") == [Span("~~x~~")]
    assert one_line(r"C:\path") == [Span("C:\\path")]  # not an escape: kept
    assert one_line("trailing\\") == [Span("trailing\\")]
    assert styled(r"**a\*b**") == [("a*b", "b")]


def test_line_breaks() -> None:
    assert parse_inline(r"one\ntwo") == [[Span("one")], [Span("two")]]
    assert parse_inline(r"a\n\nb") == [[Span("a")], [], [Span("b")]]
    assert parse_inline(r"end\n") == [[Span("end")], []]
    assert parse_inline("real\nnewline") == [[Span("real")], [Span("newline")]]
    assert parse_inline(r"\\n") == [[Span("\\n")]]  # an escaped backslash, then "n"
    # Emphasis may span a break; each line keeps the style.
    assert parse_inline(r"**a\nb**") == [[Span("a", bold=True)], [Span("b", bold=True)]]


def test_a_br_tag_is_a_line_break_as_in_mermaid() -> None:
    assert parse_inline("one<br>two<br/>three<BR />four") == [
        [Span("one")],
        [Span("two")],
        [Span("three")],
        [Span("four")],
    ]
    assert parse_inline(r"\<br>") == [[Span("<br>")]]  # escaped: the text itself
    assert parse_inline("`a<br>b`") == [[Span("a<br>b", code=True)]]  # code takes no markup
    assert parse_inline("a < b <bold>") == [[Span("a < b <bold>")]]  # any other `<` is text


def test_escaped_markup_reads_back_as_the_text() -> None:
    for text in ("a*b_c~~d`e`[f](g){fas-h}", "x<br>y", "back\\slash", "<b>"):
        assert [
            "".join(span.text for span in line) for line in parse_inline(escape_markup(text))
        ] == [text]


def test_links() -> None:
    assert one_line("[docs](https://example.com/a?b=1&c=2)") == [
        Span("docs", href="https://example.com/a?b=1&c=2")
    ]
    assert one_line("see [**the spec**](http://x.org/spec) now") == [
        Span("see "),
        Span("the spec", bold=True, href="http://x.org/spec"),
        Span(" now"),
    ]
    assert one_line("[Wiki](https://en.wikipedia.org/wiki/Foo_(bar))")[0].href == (
        "https://en.wikipedia.org/wiki/Foo_(bar)"
    )
    assert one_line("[a [b] c](http://z)") == [Span("a [b] c", href="http://z")]
    assert one_line("[{fas-book} docs](http://d)")[0].icon == IconRef(
        "fas", "book", 1.0, "{fas-book}"
    )


@pytest.mark.parametrize(
    "url",
    [
        "http://example.com",
        "https://example.com/x",
        "HTTPS://EXAMPLE.COM",
        "mailto:team@example.com",
        "#section-2",
        "/docs/intro.html",
        "./relative/path",
        "../up.html",
        "page.html?x=1&y=2",
        "?query=1",
    ],
)
def test_allowed_links(url: str) -> None:
    assert safe_href(url) == url
    assert one_line(f"[go]({url})") == [Span("go", href=url)]


@pytest.mark.parametrize(
    "url",
    [
        "javascript:alert(1)",
        "JaVaScRiPt:alert(1)",
        "java\tscript:alert(1)",
        "java\nscript:alert(1)",
        "java\x00script:alert(1)",
        "\x01javascript:alert(1)",
        "java\u200bscript:alert(1)",
        "data:text/html;base64,PHNjcmlwdD4=",
        "DATA:text/html,x",
        "vbscript:msgbox(1)",
        "file:///etc/passwd",
        "&#106;avascript:alert(1)",
        "&#x6A;avascript&#58;alert(1)",
        "javascript&colon;alert(1)",
        "\\\\evil\\share",
        "//evil.example/share",
        "///evil.example",
        "",
    ],
)
def test_refused_links_are_shown_as_written(url: str) -> None:
    assert safe_href(url) is None
    source = f"[click]({url})"
    lines = parse_inline(source)
    assert all(span.href is None for line in lines for span in line)
    assert "\n".join("".join(span.text for span in line) for line in lines) == source


def test_refused_link_with_surrounding_spaces() -> None:
    assert safe_href("  javascript:alert(1)  ") is None
    assert one_line("[a]( javascript:alert(1) )") == [Span("[a]( javascript:alert(1) )")]
    assert one_line("[a]( https://ok.example )") == [Span("a", href="https://ok.example")]


def test_refused_link_keeps_text_markup_but_not_url_markup() -> None:
    assert one_line("[**x**](javascript:*y*)") == [
        Span("["),
        Span("x", bold=True),
        Span("](javascript:*y*)"),
    ]


def test_icons() -> None:
    assert one_line("{fas-plug}") == [Span("", icon=IconRef("fas", "plug", 1.0, "{fas-plug}"))]
    spans = one_line("{far-bolt} fast {fab-github fa-lg}")
    assert [span.icon and (span.icon.prefix, span.icon.name) for span in spans] == [
        ("far", "bolt"),
        None,
        ("fab", "github"),
    ]
    assert spans[1].text == " fast "
    assert spans[2].icon.scale == 1.25
    assert spans[2].icon.source == "{fab-github fa-lg}"


@pytest.mark.parametrize(
    ("words", "scale"),
    [
        ("", 1.0),
        (" fa-xs", 0.75),
        (" fa-sm", 0.875),
        (" fa-lg", 1.25),
        (" fa-xl", 1.5),
        (" fa-2xl", 2.0),
        (" fa-1x", 1.0),
        (" fa-2x", 2.0),
        (" fa-10x", 10.0),
        (" fa-fw", 1.0),
        (" fa-fw fa-3x", 3.0),
    ],
)
def test_icon_sizes(words: str, scale: float) -> None:
    [ref] = icon_refs(f"{{fas-plug{words}}}")
    assert ref.scale == scale


def test_icon_forms() -> None:
    assert icon_refs("{fa-solid fa-robot}") == [IconRef("fas", "robot", 1.0, "{fa-solid fa-robot}")]
    assert icon_refs("{fal-plug}") == [IconRef("fal", "plug", 1.0, "{fal-plug}")]
    assert icon_refs("{fas-arrow-right-to-bracket}")[0].name == "arrow-right-to-bracket"
    # Not icon syntax: left as text.
    for text in ("{id}", "{foo-bar}", "{fas-}", "{fas-Plug}", "{fas-plug big}", "{ }", "{}"):
        assert one_line(text) == [Span(text)], text
    assert icon_refs("`{fas-plug}` {fas-x}") == [IconRef("fas", "x", 1.0, "{fas-x}")]


def test_icons_keep_the_surrounding_style() -> None:
    [icon, text] = one_line("**{fas-plug} Connecting**")
    assert icon.bold and icon.icon is not None and text == Span(" Connecting", bold=True)


def test_plain_text() -> None:
    assert plain_text("{fas-plug} Connecting") == "Connecting"
    assert plain_text("**Agent** _calls_ `tools/list`") == "Agent calls tools/list"
    assert plain_text(r"two\nlines") == "two lines"
    assert plain_text("[docs](https://x.y) and \\*stars\\*") == "docs and *stars*"
    assert plain_text("") == ""


def test_adjacent_spans_of_one_style_merge() -> None:
    assert one_line(r"a\*b") == [Span("a*b")]
    assert one_line("**a**b") == [Span("a", bold=True), Span("b")]
    assert one_line("**a** **b**") == [Span("a", bold=True), Span(" "), Span("b", bold=True)]


@pytest.mark.parametrize(
    "source",
    [
        "*" * 50_000,
        "{fas-" * 20_000,
        "*a" * 25_000,
        "a*" * 25_000,
        "_a " * 20_000,
        "**a*" * 12_000,
        "*_" * 25_000,
        "~~a" * 15_000,
        "[" * 30_000,
        "](" * 30_000,
        "[a](" * 15_000,
        "`" * 50_000,
        "".join("`" * k + "x" for k in range(1, 300)),
        "\\" * 50_000,
        "{" * 50_000,
        "[x](http://a)" * 4_000,
    ],
)
def test_hostile_input_parses(source: str) -> None:
    lines = parse_inline(source)
    assert lines and plain_text(source) is not None


# --- notes -----------------------------------------------------------------------------------


def test_note_lines_run_on_as_markdown_and_swimlanes_io_run_them() -> None:
    """swimlanes.io draws `place/nearbysearch`, `type restaurant` and `radius 3000`, written
    on three lines, as one paragraph (its picture of a real diagram); two spaces at the end of
    a line, `<br>` or `\\n` break it."""
    assert parse_note("first **line**\nsecond line") == [
        Paragraph([[Span("first "), Span("line", bold=True), Span(" "), Span("second line")]])
    ]
    for broken in ("first  \nsecond", "first<br>\nsecond", "first\\n\nsecond", "first<br>second"):
        assert parse_note(broken) == [Paragraph([[Span("first")], [Span("second")]])], broken
    # Markdown's other line break, a backslash at the line's end, is taken by the break; an
    # escaped one, `\\\\`, is a backslash, and one ending the paragraph stays
    assert parse_note("first\\\nsecond") == [Paragraph([[Span("first")], [Span("second")]])]
    assert parse_note("a \\\\\nb") == [Paragraph([[Span("a \\"), Span(" "), Span("b")]])]
    assert parse_note("C:\\") == [Paragraph([[Span("C:\\")]])]
    # one in a code span the line leaves open is the span's: no break, nothing lost
    assert parse_note("`a\\\nb`") == [Paragraph([[Span("`a\\"), Span(" "), Span("b`")]])]


def test_a_notes_line_ending_in_two_spaces_keeps_them_and_breaks_there() -> None:
    """The parser trimmed every note line's end, so that Markdown's two-space line break,
    which swimlanes.io draws, never reached the note."""
    import volley

    text = "A -> B: x\nnote:\n  line one  \n  line two \n  line three  \n"
    note = volley.parse(text).items[1]
    assert note.text == "line one  \nline two\nline three"  # the last line's mean nothing
    # nor do a fenced block's: its code keeps no trailing spaces, its tint no room for them
    fenced = "A -> B: x\nnote:\n  ```\n  code();     \n  x\n  ```\n"
    assert volley.parse(fenced).items[1].text == "```\ncode();\nx\n```"
    assert parse_note(note.text) == [
        Paragraph([[Span("line one")], [Span("line two"), Span(" "), Span("line three")]])
    ]


def test_note_headings_and_quotes_are_lines_of_their_own() -> None:
    """swimlanes.io's notes are Markdown: `# Heading` was drawn with its hashes and run into
    the words after it, `> quote` too. A heading is a line of its own (drawn bold), a quote's
    lines a paragraph of their own (in italics), their marks left out; `#tag` is text."""
    blocks = parse_note("# Heading one\n## Two ##\n> a quote\n> goes on\nwords\n\n#tag x")
    assert blocks == [
        Paragraph([[Span("Heading one")]], "heading"),
        Paragraph([[Span("Two")]], "heading"),
        Paragraph(
            [[Span("a quote"), Span(" "), Span("goes on"), Span(" "), Span("words")]], "quote"
        ),
        Paragraph([[Span("#tag x")]]),
    ]
    assert parse_note("- item\n  # in the item") == [
        ListItem("•", [[Span("item"), Span(" "), Span("# in the item")]])
    ]


def test_note_blank_line_separates_paragraphs() -> None:
    blocks = parse_note("one\n\ntwo")
    assert blocks == [Paragraph([[Span("one")]]), Paragraph([[Span("two")]])]


def test_note_lists() -> None:
    blocks = parse_note(
        "Steps:\n- open `session`\n  still the first item\n* second\n  - nested\n1. one\n12) twelve"
    )
    assert blocks[0] == Paragraph([[Span("Steps:")]])
    assert blocks[1] == ListItem(
        "•",
        [[Span("open "), Span("session", code=True), Span(" "), Span("still the first item")]],
        0,
    )
    assert blocks[2] == ListItem("•", [[Span("second")]], 0)
    assert blocks[3] == ListItem("•", [[Span("nested")]], 1)
    assert blocks[4] == ListItem("1.", [[Span("one")]], 0, 1)
    assert blocks[5] == ListItem("12)", [[Span("twelve")]], 0, 12)


def test_a_list_item_nests_where_commonmark_nests_it() -> None:
    """In the one above when its marker stands at or past where that item's text starts: a
    marker one space in is a second item (a real note wrote `- Watch` then ` - Role`)."""

    def levels(text: str) -> list[int]:
        return [block.level for block in parse_note(text) if isinstance(block, ListItem)]

    assert levels("- Watch\n - Role") == [0, 0]
    assert levels("- Watch\n  - Role") == [0, 1]
    assert levels("1. one\n  - not in it\n    - in it") == [0, 0, 1]
    assert levels("-   wide\n  - not in it\n    - in it") == [0, 0, 1]
    assert levels("- a\n  - b\n    - c\n  - d\n- e") == [0, 1, 2, 1, 0]


def test_an_address_in_angle_brackets_is_a_link_showing_it() -> None:
    # Markdown's autolink; a scheme that could run script stays text, and so does a tag.
    assert parse_inline("see <https://example.com/a_b*c>") == [
        [Span("see "), Span("https://example.com/a_b*c", href="https://example.com/a_b*c")]
    ]
    assert parse_inline("<javascript:alert(1)> <b>x</b>") == [
        [Span("<javascript:alert(1)> <b>x</b>")]
    ]


def test_a_plus_marks_a_bullet_as_in_commonmark() -> None:
    assert parse_note("+ first\n+ second") == [
        ListItem("•", [[Span("first")]], 0),
        ListItem("•", [[Span("second")]], 0),
    ]
    assert parse_note("+1 for this") == [Paragraph([[Span("+1 for this")]])]


def test_note_text_after_a_list_is_a_paragraph() -> None:
    blocks = parse_note("- item\nafter")
    assert blocks == [ListItem("•", [[Span("item")]], 0), Paragraph([[Span("after")]])]


def test_note_emphasis_at_line_start_is_not_a_list() -> None:
    assert parse_note("*important*") == [Paragraph([[Span("important", italic=True)]])]
    assert parse_note("**bold** start") == [Paragraph([[Span("bold", bold=True), Span(" start")]])]


def test_note_code_block() -> None:
    text = 'Body:\n```json\n{"a": "**not bold**"}\n\n  [1, 2]\n```\nafter'
    assert parse_note(text) == [
        Paragraph([[Span("Body:")]]),
        CodeBlock(['{"a": "**not bold**"}', "", "  [1, 2]"], "json"),
        Paragraph([[Span("after")]]),
    ]


def test_note_indented_code_block_as_markdown_reads_one() -> None:
    """Four columns in after a blank line is Markdown's code block: drawn as written, its
    inner indentation kept (a JSON body in a note, as a swimlanes.io user wrote one); a
    tab counts as four; blank lines inside it stay, those after it do not."""
    text = 'Send:\n\n    {"user": "dev",\n        "n": 1}\n\n\tmore **x**\n\n\nafter'
    assert parse_note(text) == [
        Paragraph([[Span("Send:")]]),
        CodeBlock(['{"user": "dev",', '    "n": 1}', "", "more **x**"]),
        Paragraph([[Span("after")]]),
    ]


@pytest.mark.parametrize(
    "text",
    [
        "a paragraph\n    goes on indented",  # no blank line: the paragraph's text
        "- item\n\n    more of it",  # after a list: the item's (as before)
    ],
)
def test_an_indented_line_that_continues_text_is_no_code_block(text: str) -> None:
    assert not [block for block in parse_note(text) if isinstance(block, CodeBlock)]


def test_a_link_in_an_indented_code_block_is_no_link() -> None:
    assert note_link_targets("see\n\n    [x](https://example.com)") == []


def test_note_table_as_github_reads_one() -> None:
    """A header row, a delimiter row of as many cells (colons align), then rows; `\\|` is a
    pipe in a cell, `<br>` a line break in it; a row's extra cells are dropped and missing
    ones empty; a line without pipes is still a row (GitHub's rule) until a blank line."""
    text = (
        "Fields:\n| Name | Type | Note |\n|:--|:-:|--:|\n| `id` | int | **key** |\n"
        "| a \\| b | x<br>y |\n| 1 | 2 | 3 | 4 |\nno pipes\n\nafter"
    )
    plain = [[Span("Name")]], [[Span("Type")]], [[Span("Note")]]
    assert parse_note(text) == [
        Paragraph([[Span("Fields:")]]),
        Table(
            list(plain),
            ["left", "center", "right"],
            [
                [[[Span("id", code=True)]], [[Span("int")]], [[Span("key", bold=True)]]],
                [[[Span("a | b")]], [[Span("x")], [Span("y")]], [[]]],
                [[[Span("1")]], [[Span("2")]], [[Span("3")]]],
                [[[Span("no pipes")]], [[]], [[]]],
            ],
        ),
        Paragraph([[Span("after")]]),
    ]


@pytest.mark.parametrize(
    "text",
    [
        "a | b\nplain text",  # no delimiter row
        "a | b\n--- | --- | ---",  # cells not matching the header's
        "a | b\n-- | x --",  # not all hyphens
        "just --- text\n---",  # no pipe in either
    ],
)
def test_note_lines_with_pipes_are_text_without_a_delimiter_row(text: str) -> None:
    assert not [block for block in parse_note(text) if isinstance(block, Table)]


def test_a_note_table_ends_at_a_fence_and_one_column_tables_need_their_pipes() -> None:
    blocks = parse_note("| one |\n|---|\n| 1 |\n```\ncode\n```")
    assert blocks == [
        Table([[[Span("one", bold=False)]]], ["left"], [[[[Span("1")]]]]),
        CodeBlock(["code"], None),
    ]


def test_a_pipe_after_an_escaped_backslash_parts_cells() -> None:
    """GitHub splits a row at each pipe no backslash escapes: in `\\\\|` the backslash is the
    escaped one, so the pipe parts two cells (and the cell shows one backslash)."""
    (table,) = parse_note("a | b\n---|---\nx \\\\| y")
    assert isinstance(table, Table)
    assert table.rows == [[[[Span("x \\")]], [[Span("y")]]]]


@pytest.mark.parametrize(
    ("after", "block"),
    [
        ("- next", ListItem("•", [[Span("next")]])),
        ("2. next | x", ListItem("2.", [[Span("next | x")]], number=2)),
        ("> quoted | x", Paragraph([[Span("quoted | x")]], "quote")),
        ("# heading | x", Paragraph([[Span("heading | x")]], "heading")),
    ],
)
def test_a_note_table_ends_where_another_block_starts(after: str, block: object) -> None:
    """GitHub ends a table at a blank line or at the start of another block: a list item, a
    quote, a heading. Such a line is not one more row drawn with its `- `."""
    blocks = parse_note(f"| one |\n|---|\n| 1 |\n{after}")
    assert blocks == [Table([[[Span("one")]]], ["left"], [[[[Span("1")]]]]), block]


def test_note_code_block_forms() -> None:
    assert parse_note("  ~~~~\n  a\n   b\n  ~~~~~") == [CodeBlock(["a", " b"], None)]
    assert parse_note("```\nno end\n\n") == [CodeBlock(["no end"], None)]
    assert parse_note("```\n```") == [CodeBlock([], None)]
    # A closing fence must be as long as the opening one.
    assert parse_note("````\n```\n````") == [CodeBlock(["```"], None)]
    # Backticks in the info string mean inline code, not a fence.
    assert parse_note("```x``` y") == [Paragraph([[Span("x", code=True), Span(" y")]])]


def test_spans_copy_and_pickle_as_values() -> None:
    import copy
    import pickle

    from volley.text.inline import parse_inline

    spans = parse_inline("**bold** [link](https://example.com) {fas-plug fa-lg}")
    for span in (s for line in spans for s in line):
        assert copy.copy(span) == span
        assert copy.deepcopy(span) == span
        assert pickle.loads(pickle.dumps(span)) == span


def test_caches_of_user_named_icons_stay_bounded() -> None:
    """A server meets endless icon names; what is kept about them has a ceiling."""
    import volley
    from volley.layout.textwrap import _icon_ratio
    from volley.text.icons import _has

    caches = (_has, _icon_ratio)
    names = 200 + max(cache.cache_info().maxsize or 0 for cache in caches)
    text = "".join(f"A -> B: {{fas-nosuch{n}}}\n" for n in range(names))
    volley.render(text)
    for cache in caches:  # more names were met than any cache keeps
        assert cache.cache_info().currsize < names
        assert cache.cache_info().currsize <= 4096


@pytest.mark.parametrize(
    ("text", "spans"),
    [
        (
            "see ![logo](https://e.com/l.png) here",
            [("see ", None), ("logo", "https://e.com/l.png"), (" here", None)],
        ),
        ("![](https://e.com/l.png)", [("https://e.com/l.png", "https://e.com/l.png")]),
        ("![a [b] c](https://x.y)", [("a [b] c", "https://x.y")]),
        ("hey! [x](https://a.b)", [("hey! ", None), ("x", "https://a.b")]),
        ("a \\![x](https://a.b)", [("a !", None), ("x", "https://a.b")]),
        ("![x](javascript:alert(1))", [("![x](javascript:alert(1))", None)]),
        ("![ ](https://e.com/l.png)", [("https://e.com/l.png", "https://e.com/l.png")]),
        ("a \\\\![x](https://a.b)", [("a \\", None), ("x", "https://a.b")]),
        ("[![build](https://ci.org/b.svg)](https://ci.org/)", [("build", "https://ci.org/")]),
        ("![a ![b](https://c.org)](https://d.org)", [("a b", "https://d.org")]),
    ],
)
def test_an_image_is_a_link_showing_its_alt_text(text: str, spans: list) -> None:
    """Markdown's `![alt](url)` is drawn as a link to the picture, never loaded, without the
    `!` (it read as "!" and a link); a refused address is shown as written."""
    (line,) = parse_inline(text)
    assert [(span.text, span.href) for span in line] == spans


@pytest.mark.parametrize(
    ("source", "shown"),
    [
        ("R&amp;D &rarr; QA", "R&D → QA"),  # as Markdown and swimlanes.io show them
        ("&#9829; and &#x2665;", "♥ and ♥"),
        ("&lt;script&gt;", "<script>"),  # text, escaped where it is drawn
        ("R&D, &bogus; and &amp", "R&D, &bogus; and &amp"),  # no reference: as written
        ("\\&amp; is escaped", "&amp; is escaped"),
        ("`&amp;` in code", "&amp; in code"),
        ("&#x202E;txt", "&#x202E;txt"),  # a hidden character would reorder what is drawn
        ("&#0; &#10;", "\ufffd &#10;"),  # NUL is U+FFFD, as in CommonMark; a line feed hides
    ],
)
def test_character_references_show_their_character(source: str, shown: str) -> None:
    assert "".join(span.text for span in one_line(source)) == shown


def test_escaped_markup_shows_a_reference_as_written() -> None:
    """Importers write a capture's plain text as markup: `&amp;` there is what was sent."""
    assert plain_text(escape_markup("a &amp; b & c &#9829;")) == "a &amp; b & c &#9829;"


@pytest.mark.parametrize("text", ["**1. Launch  **", "call **now **", "**Note ** text"])
def test_bold_closed_after_a_space_is_bold_as_swimlanes_io_draws_it(text) -> None:
    """`_: **1. Launch  **` is a bold section header in swimlanes.io's pictures (DIGIT's
    diagram): a closing `**` after a space closes bold where it could open nothing."""
    from volley.api import check

    assert check(f"A -> B: {text}\n").warnings == []
    spans = one_line(text)
    assert "**" not in "".join(span.text for span in spans)
    assert spans[0].bold or spans[1].bold


def test_a_closing_bold_run_glued_to_the_next_word_is_pointed_out() -> None:
    """`**call **now`: the second run opens bold as much as it closes it, so both are drawn
    as written; the author most likely meant bold."""
    from volley.api import check

    (warning,) = check("A -> B: **call **now\n", filename="f.volley").warnings
    assert (warning.line, warning.column, warning.severity) == (1, 9, "warning")
    assert "does not close bold" in warning.message and warning.hint.endswith("**call**")


@pytest.mark.parametrize(
    "text",
    ["`a **b **`", "**ok** and **a **b** c**", "2 ** 3 is 8", "**bold**", "a ** b"],
)
def test_bold_that_closes_or_is_code_is_not_pointed_out(text) -> None:
    from volley.api import check

    assert check(f"A -> B: {text}\n").warnings == []


@pytest.mark.parametrize("text", ["9️⃣*️⃣0️⃣ and 9️⃣*️⃣0️⃣", "code 1️⃣*️⃣2️⃣*️⃣3️⃣", "*️⃣ key *️⃣"])
def test_the_keycap_emoji_asterisk_is_no_emphasis_mark(text: str):
    """Two `*️⃣` on a line opened and closed italics, leaving keycaps without their star."""
    assert parse_inline(text) == [[Span(text)]]
    assert parse_inline(f"*{text}*") == [[Span(text, italic=True)]]


def test_markdowns_thematic_break_and_underlined_heading_in_a_note() -> None:
    """swimlanes.io's notes are Markdown: `---` between paragraphs, drawn as the text "---",
    is a line across; under a paragraph's line (or `===`) it makes the line a heading."""
    text = "above\n\n---\n\nbelow\n\n* * *\nSteps\n===\n- item\n___\nafter"
    assert parse_note(text) == [
        Paragraph([[Span("above")]]),
        Rule(),
        Paragraph([[Span("below")]]),
        Rule(),
        Paragraph([[Span("Steps")]], "heading"),
        ListItem("•", [[Span("item")]]),
        Rule(),
        Paragraph([[Span("after")]]),
    ]
    assert parse_note("Title\n---\nbody") == [
        Paragraph([[Span("Title")]], "heading"),
        Paragraph([[Span("body")]]),
    ]
    # a note whose lines are kept (ended by `end note`) has no underlines; `=` under no
    # paragraph is text
    assert parse_note("Title\n---", lines_kept=True) == [Paragraph([[Span("Title")]]), Rule()]
    assert parse_note("- a\n\n==") == [ListItem("•", [[Span("a")]]), Paragraph([[Span("==")]])]


def test_emphasis_closes_after_full_width_punctuation_before_a_cjk_word() -> None:
    """Chinese and Japanese put no space after `：` or `」`: by CommonMark's rule alone the `**`
    after them closes nothing, and `**注意：**系统` was drawn with its asterisks (as GitHub
    shows it). A CJK character beside a run stands where a space would, as
    markdown-cjk-friendly reads it; text written with spaces reads as before."""
    assert parse_inline("**注意：**系统") == [[Span("注意：", bold=True), Span("系统")]]
    assert parse_inline("**「重要」**です") == [[Span("「重要」", bold=True), Span("です")]]
    assert parse_inline("**bold.**x") == [[Span("**bold.**x")]]
    assert parse_inline("**ｶﾀｶﾅ｢**ｶ") == [[Span("ｶﾀｶﾅ｢", bold=True), Span("ｶ")]]
