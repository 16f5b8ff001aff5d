"""Every mistake gets an error that points at it: line, column, caret, and what was expected."""

from __future__ import annotations

import pytest

import volley
from volley.errors import VolleyErrors, display_line
from volley.model import Note, walk


def error_for(text: str) -> volley.VolleyError:
    with pytest.raises(volley.VolleyError) as info:
        volley.parse(text, "flow.volley")
    return info.value


CASES = [
    # (source, line, column, words the message must hold)
    # a keyword a letter off: said, and read on as meant (its block's `end` is no second error)
    ("tilte: Login\n", 1, 1, '"tilte" is not a volley keyword; did you mean "title:"?'),
    ("odrer: A, B\nA -> B\n", 1, 1, 'did you mean "order:"?'),
    ("partcipant A\n", 1, 1, 'did you mean "participant"?'),
    ("A -> B\nautonumbr\n", 2, 1, 'did you mean "autonumber"?'),
    ("lop: 3 times\nA -> B\nend\n", 1, 1, 'did you mean "loop:"?'),
    ("if: a\nA -> B\nels\nB -> A\nend\n", 3, 1, 'did you mean "else"?'),
    ("activte A\n", 1, 1, 'did you mean "activate"?'),
    ("Agent: hi\n", 1, 6, 'expected an arrow such as -> or --> after "Agent"'),
    ("activate\n", 1, 9, "the line ends too soon; expected a participant name"),
    ("A, B -> C: x\n", 1, 2, '"A, B" is not one participant: a name cannot hold ","'),
    ("A <== B: h\n", 1, 3, '"<==" is not an arrow'),
    ("A <-=> B\n", 1, 3, '"<-=>" is not an arrow'),
    ("A ->-> B: x\n", 1, 3, '"->->" is not an arrow'),
    ("A -> -> B: x\n", 1, 3, '"-> ->" is not an arrow'),
    ("order:\nA -> B\n", 1, 7, "the line ends too soon; expected a participant name"),
    ("A ~> B: hi\n", 1, 3, '"~>" is not an arrow'),
    ("A → B\n", 1, 3, '"→" is not an arrow'),
    ("A -xB\n", 1, 3, '"-x" is not an arrow'),
    ("A -) B: ping\n", 1, 3, '"-)" is not an arrow'),
    ("A -> B ++ : hello\n", 1, 8, '"++" after "B" is PlantUML\'s mark that starts an activation'),
    ("B --> A -- : done\n", 1, 9, '"--" after "A" is PlantUML\'s mark that ends an activation'),
    ("A -> B ** : new\n", 1, 8, '"**" after "B" is PlantUML\'s mark that creates'),
    ("A ->x B: lost\n", 1, 3, '"->x" is PlantUML\'s lost message, not an arrow to "x B"'),
    ("A ->>x B: lost\n", 1, 3, '"->>x" is PlantUML\'s lost message'),
    ("participant A as Client -> Server\n", 1, 1, "a display label cannot hold one"),
    ("participant A -> B: hi\n", 1, 1, "participant declares one on a line of its own"),
    ("B -> actor U: hi\n", 1, 6, '"actor U" is not a participant\'s name'),
    ("participant API Gateway -> B\n", 1, 1, '"participant API Gateway" is not a participant'),
    ("A ->o B: x\n", 1, 3, '"->o" is PlantUML\'s circle head, not an arrow to "o B"'),
    ("[-> A: in\n", 1, 1, '"[" is PlantUML\'s edge of the diagram'),
    ("A ->]: out\n", 1, 5, '"]" is PlantUML\'s edge of the diagram'),
    ('participant "Long name" as L\n', 1, 13, 'volley writes "participant L as Long name"'),
    ('participant "User" as "用户"\n', 1, 13, 'volley writes "participant User as 用户"'),
    ("actor Bob #red\n", 1, 11, '"#red" after "Bob" is PlantUML\'s colour'),
    ("activate B #FFBBBB\n", 1, 12, '"#FFBBBB" after "B" is PlantUML\'s colour'),
    ("A -> B\nnote over A #aqua: x\n", 2, 13, '"#aqua" after "A" is PlantUML\'s colour'),
    ("A -> B\nnote  left: x\n", 2, 7, '"note left:" is PlantUML\'s note left of the message'),
    ("A --) B: ping\n", 1, 3, '"--)" is not an arrow'),
    ("service-x -> B: hi\n", 1, 8, '"service-x" reads as "service" and the lost-message arrow'),
    ("  svc--x --> B\n", 1, 6, 'the lost-message arrow "--x", and then the line has a second'),
    ("A -> : hi\n", 1, 6, 'expected the name of a participant after "->"'),
    ("A ->\n", 1, 5, 'expected the name of a participant after "->"'),
    ("-> B\n", 1, 1, "unexpected"),
    ("A -> B, C\n", 1, 7, 'unexpected ","'),
    ("in: Request\n  a: 1\n", 1, 1, "in: must come right after a message"),
    ("A -> B\nnote: n\nout: R\n  a: 1\n", 3, 1, "out: must come right after a message"),
    ("A -> B\nin: R\n  a: 1\nin: S\n  b: 2\n", 4, 1, "at most one in:"),
    ("A -> B\nout: R\n  a: 1\nout: S\n  b: 2\n", 4, 1, "at most one out:"),
    ("A -> B\nin: R\nB -> A\n", 2, 6, "in: needs a body"),
    ("title: a\nA -> B\ntitle: b\n", 3, 1, "one title; it was already set on line 1"),
    ("A -> B\nend\n", 2, 1, "end without an open block"),
    ("else: x\n", 1, 1, "else: outside any block"),
    ("and:\n", 1, 1, "and: outside any block"),
    ("loop: x\nA -> B\nelse: y\nend\n", 3, 1, "innermost open block is loop: (line 1)"),
    ("if: x\nand: y\nend\n", 2, 1, "and: belongs to a par: block"),
    ("A -> B\nin: R\n```json\n{}\n", 3, 1, "fenced block is never closed"),
    ("A -> B\nin: R\n  ~~~~\n  {}\n  ~~~\n", 3, 3, "never closed; expected a closing ~~~~"),
    ("A -> B\n```json\n{}\n```\n", 2, 1, "a fenced block must follow an in:, out: or note"),
    (": hello\n", 1, 1, "expected a message such as `A -> B: label`"),
    ("order: A, , B\n", 1, 11, "expected a participant name"),
    ("A -> B\x00\n", 1, 7, "NUL byte"),
    # a head after the arrow was read as a name's first letter, a new lane ("< B")
    ("A -> B\nA <-< B: x\n", 2, 5, '"< B" starts with a piece of an arrow'),
    ("A -> B >: x\n", 1, 6, '"B >" ends with a piece of an arrow'),
    ("A -> B>: x\n", 1, 6, '"B>" ends with a piece of an arrow'),
    ("A <-<B: x\n", 1, 5, '"<B" starts with a piece of an arrow'),
    ("participant\n", 1, 12, "the line ends too soon; expected a participant name"),
    ("A <> B: z\n", 1, 3, '"<>" is not an arrow'),
    ("if: a\nA -> B\nelsif: b\nend\n", 3, 1, '"elsif" is not a volley keyword'),
]


@pytest.mark.parametrize("text,line,column,words", CASES)
def test_error_points_at_the_place(text, line, column, words):
    error = error_for(text)
    assert (error.line, error.column) == (line, column), error.format()
    assert words in error.message, error.format()
    assert error.filename == "flow.volley"
    assert error.source_line == text.replace("\r", "").split("\n")[line - 1]


@pytest.mark.parametrize(
    ("text", "hint"),
    [
        ("title: a\ntitle: b\n", "delete one; a heading inside the diagram is a divider"),
        ("A -> B\nend\n", "delete it, or write the line that opens its block above it"),
        ("A -> B\x00\n", "give a .volley file, or delete the NUL"),
    ],
)
def test_an_error_without_a_likely_meaning_says_what_to_do(text, hint):
    assert error_for(text).hint.startswith(hint)


def test_format_has_location_line_caret_and_expected():
    text = "title: T\nAgent ~> MCP Server: hi\n"
    shown = error_for(text).format()
    lines = shown.split("\n")
    assert lines[0].startswith("flow.volley:2:7: error: ")
    assert lines[1] == "  Agent ~> MCP Server: hi"
    assert lines[2] == "  " + " " * 6 + "^"
    assert 'did you mean "->"?' in shown


@pytest.mark.parametrize(
    "prefix",
    ["\t", "\t\t", "日本語 ", "🤖🤖 ", "e\u0301e\u0301 ", "\tÜber 数据 "],
)
def test_caret_placed_by_display_width(prefix):
    error = error_for(f"{prefix}Agent ~> B\n")
    shown_line, caret_line = error.format().split("\n")[1:3]
    # The caret's column in the shown line lands exactly on the "~" of the typo.
    caret = caret_line.index("^")
    width = 0
    from volley.errors import char_width

    for ch in shown_line:
        if width == caret:
            assert ch == "~", (shown_line, caret_line)
            break
        width += char_width(ch)
    else:
        pytest.fail("caret past the end of the line")


def test_the_character_a_caret_is_for_is_shown_even_if_it_draws_nothing():
    """A zero-width joiner stays as it is in an emoji, but a message about one quotes it as
    its escape, with the caret under it (it stood under a character that cannot be seen)."""
    assert display_line("a \u200d b", 3) == ("a \\u200d b", 2)
    assert display_line("👩\u200d💻 x", 5) == ("👩\u200d💻 x", 5)  # elsewhere, one picture


def test_display_line_expands_tabs_to_stops():
    assert display_line("\tx", 2) == ("    x", 4)
    assert display_line("ab\tx", 4) == ("ab  x", 4)
    assert display_line("数x", 2) == ("数x", 2)


def test_a_long_line_is_quoted_around_the_place_with_its_true_column():
    line = "x" * 3000 + "!" + "y" * 3000
    shown, caret = display_line(line, 3001)
    assert shown.startswith("…") and shown.endswith("…") and len(shown) == 202
    assert shown[caret] == "!"
    assert display_line("a" * 300, 1) == ("a" * 200 + "…", 0)
    # a block nested a hundred deep: its words, not 200 spaces before them
    assert display_line(" " * 200 + "A -> B hi ->", 211) == ("…A -> B hi ->", 11)
    assert display_line(" " * 300, 5) == (" " * 200 + "…", 4)  # the caret in the indent


def test_color_only_when_asked():
    error = error_for("A ~> B\n")
    assert "\x1b[" not in error.format()
    assert "\x1b[" in error.format(color=True)


def test_error_lines_count_crlf_and_bom_correctly():
    error = error_for("\ufeffA -> B\r\n\r\nC ~> D\r\n")
    assert (error.line, error.column) == (3, 3)


def test_invalid_utf8_names_the_byte_offset():
    with pytest.raises(volley.VolleyError) as info:
        volley.decode(b"A -> B\nB -> \xff\xfe\n", "bad.volley")
    error = info.value
    assert "offset 12" in error.message and (error.line, error.column) == (2, 6)


def test_no_other_exception_for_odd_text():
    odd = [
        "```",
        "~~~",
        "in:",
        "note",
        "note:",
        "note A",
        "end\nend",
        "=:",
        "...:",
        "if:",
        "A -> B\nin:\n```\n",
        "\u202e -> \u200d",
        "\ud800 -> B",
        "A -> B: \x01\x02",
        ":" * 50,
        "-" * 100,
        "<" * 30 + "->",
        "title:" * 20,
        "order:",
        "autonumber x",
    ]
    for text in odd:
        try:
            volley.parse(text)
        except volley.VolleyError as error:
            assert 1 <= error.line <= text.count("\n") + 1, (text, error)


@pytest.mark.parametrize(("arrow", "meant"), [("-)", "->>"), ("--)", "-->>")])
def test_mermaid_async_arrow_names_the_volley_arrow(arrow: str, meant: str) -> None:
    error = error_for(f"A {arrow} B: ping\n")
    assert error.hint == f'"{arrow}" is Mermaid\'s async arrow: volley writes "{meant}"'


MERMAID_HABITS = [
    # (a line of Mermaid, what the hint must say)
    ("A--xB: lost", 'a lost message needs a space after "--x": "A --x B"'),
    ("A -x+B: lost", 'a lost message needs a space after "-x+": "A -x+ B"'),
    ("create participant C", 'is not drawn: write "participant C"'),
    ("create actor D as Dave", 'is not drawn: write "participant D as Dave"'),
    ("destroy C", '"destroy" (a lifeline that ends) is not drawn: delete the line'),
    ('links A: {"Docs": "https://example.com"}', 'Mermaid\'s "links" (a menu) is not drawn'),
    ("link A: Docs @ https://example.com", 'Mermaid\'s "link" (a menu) is not drawn'),
    ("autonumber 10 5", 'volley counts on by one from the start: write "autonumber 10"'),
    ("autonumber of", "autonumber takes a whole number to start from (autonumber 10), or off"),
    ("autonumber x", "autonumber takes a whole number to start from (autonumber 10), or off"),
    ("autonumber -1", "autonumber takes a whole number to start from (autonumber 10), or off"),
    ("autonumber on", 'numbers are on from an "autonumber" line: write "autonumber"'),
    ("accTitle: Login flow", 'volley\'s title is drawn and heard: write "title: Login flow"'),
    ("accTitle Login flow", 'write "title: Login flow"'),
    ("accTitle", 'write "title: …"'),
    ("accDescr: How a user logs in", "volley writes that description from the diagram itself"),
    ('participant API@{ "type" : "boundary" }', 'write "participant API"'),
    ('participant Q@{ "type": "queue" } as Orders', 'write "participant Q as Orders"'),
]
PLANTUML_HABITS = [
    ("  == Setup ==", 'volley writes a section as "=: Setup"'),
    ("... 5 minutes later ...", 'volley writes a delay as "...: 5 minutes later"'),
    ("||45||", "PlantUML's spacing is not needed"),
    ("...", 'volley writes a delay as "...:"'),
    ('autonumber 10 10 "<b>[000]"', 'write "autonumber 10"'),
    ("autonumber stop", 'PlantUML\'s "autonumber stop" is written "autonumber off"'),
    ("autonumber resume", 'volley writes the number to go on from, "autonumber N"'),
    ("ref over A, B : init", 'WebSequenceDiagrams\' "ref" is written "note A, B: init"'),
    ("hnote over A : idle", 'PlantUML\'s "hnote" is written "note A: idle"'),
    ("return done", 'volley writes the answer as a message: "B --> A: done"'),
    ("skinparam monochrome true", 'PlantUML\'s "skinparam" sets nothing in volley'),
    ("hide footbox", 'PlantUML\'s "hide" sets nothing in volley'),
    ("@enduml", 'PlantUML\'s "@enduml" sets nothing in volley'),
    ("@startuml", '"@startuml" is PlantUML\'s header, which opens a PlantUML diagram on its'),
    ("sequenceDiagram", '"sequenceDiagram" is Mermaid\'s header, which opens a Mermaid diagram'),
    ("A -> B ++ : hello", 'volley writes the mark after the arrow: "A ->+ B"'),
    ("A ->x B: lost", 'a lost message has an x for its head: "A -x B"'),
    ("note left: beside it", 'write "note: TEXT" for a note under the message before it'),
    ("note right : beside it", 'write "note: TEXT" for a note under the message before it'),
    ("note across: everyone", '"note A, C: TEXT" for one over A, or spanning A to C'),
    ("Note over: nobody", '"note A: TEXT"'),
    ("note right of: beside", 'write "note: TEXT" for a note under the message before it'),
]


@pytest.mark.parametrize(("line", "hint"), MERMAID_HABITS + PLANTUML_HABITS)
def test_other_tools_statements_name_the_volley_way(line: str, hint: str) -> None:
    """A Mermaid or PlantUML statement pasted into a .volley file is an error on its own line
    that says what volley writes instead, and the lines after it are read on (the next error
    is found)."""
    with pytest.raises(VolleyErrors) as info:
        volley.parse(f"A -> B: start\n{line}\nA -> B: end\nA ~> B: next\n", "flow.volley")
    first, second = info.value.errors
    assert first.line == 2 and hint in (first.hint or "")
    assert second.line == 4 and '"~>" is not an arrow' in second.message


def test_names_like_plantumls_marks_are_still_names() -> None:
    """Only PlantUML's marks apart from a name, or an x glued to an arrow, are refused."""
    diagram = volley.parse(
        "participant X as Y ++\nparticipant Issue #123\n"
        "A -> C++: compile\nA -> x B: spaced\nA -> o B: spaced\nA -x B: lost\nA -> Issue #123\n"
        "[ -> ]: brackets apart from the arrow\n"
    )
    assert diagram.labels == {"X": "Y ++"}
    assert [(m.receiver, m.arrow) for m in diagram.messages()] == [
        ("C++", "->"),
        ("x B", "->"),
        ("o B", "->"),
        ("B", "-x"),
        ("Issue #123", "->"),
        ("]", "->"),
    ]


def test_a_participant_called_left_may_have_notes() -> None:
    """`note left:` is PlantUML's only where nothing else names a participant "left"."""
    diagram = volley.parse(
        "note Left: before its first message\nLeft -> Right: hand over\n"
        "note right: after\nright -> Left: back\nparticipant Over\nnote Over: declared\n"
    )
    notes = [item.over for item in walk(diagram.items) if isinstance(item, Note)]
    assert notes == [["Left"], ["Right"], ["Over"]]  # `right` is Right, as first written
    assert diagram.participants == ["Left", "Right", "Over"]


def test_a_line_read_as_its_likely_meaning_gets_one_error() -> None:
    """`in Request` is reported once, as the missing colon; the guess it is read on as
    (`in: Request`, which has no body) is not a second mistake of the user's."""
    with pytest.raises(VolleyErrors) as info:
        volley.parse("A -> B: hi\n  in Request\nA ~> B\n", "flow.volley")
    assert [(e.line, e.hint) for e in info.value.errors] == [
        (2, 'did you mean "in: Request"? The keyword takes a colon'),
        (3, 'did you mean "->"?'),
    ]


def test_a_labelled_declaration_before_an_arrow_is_one_error_naming_the_arrow() -> None:
    """`participant C as Client to Server -> B` was two errors for one slip, the second saying
    to write "C as Client to Server" in the message; an HTML-ish label whose `src=x ` reads as
    the lost-message arrow `=x` is named by that arrow."""
    with pytest.raises(VolleyErrors) as info:
        volley.parse("participant C as Client to Server -> B\n", "flow.volley")
    (error,) = info.value.errors
    assert 'a line that holds an arrow ("->") is a message' in error.message
    assert error.hint == (
        'declare it on a line of its own ("participant C as Client to Server") and write "C" '
        "in the message"
    )
    error = error_for("participant C as Client <img src=x onerror=alert(1)>\n")
    assert 'an arrow ("=x")' in error.message


@pytest.mark.parametrize(
    "body",
    [
        '```json\n{"a": 1}\n```\n',  # fenced
        "  status: 200\n  ok: yes\n\n  more: after a blank line\n",  # indented
    ],
)
@pytest.mark.parametrize("slip", ["in Request", "out Response", "IN  Request"])
def test_a_payload_line_without_its_colon_keeps_its_body(slip: str, body: str) -> None:
    """The body under `in Request` is read as the body of `in: Request`, as meant: its lines
    (a fence, JSON, `key: value`) are not errors of their own, and what follows is read on."""
    with pytest.raises(VolleyErrors) as info:
        volley.parse(f"A -> B: hi\n{slip}\n{body}B ~> A: ok\n", "flow.volley")
    last = 3 + body.count("\n")
    assert [e.line for e in info.value.errors] == [2, last]
    assert "The keyword takes a colon" in (info.value.errors[0].hint or "")


def test_a_body_under_a_slip_that_never_closes_its_fence_says_so() -> None:
    with pytest.raises(VolleyErrors) as info:
        volley.parse('A -> B: hi\nin Request\n```json\n{\n  "a": 1\n', "flow.volley")
    assert [e.line for e in info.value.errors] == [2, 3]  # its JSON no errors of its own
    assert "this fenced block is never closed" in info.value.errors[1].message


def test_mermaids_braced_description_is_one_error() -> None:
    """`accDescr {` … `}` is one mistake, on its first line, however many lines it holds;
    the diagram is read on after the closing brace."""
    with pytest.raises(VolleyErrors) as info:
        volley.parse(
            "title: Login\naccDescr {\n  How a user\n  logs in, then out\n}\nA ~> B\n", "f.volley"
        )
    first, second = info.value.errors
    assert first.line == 2 and 'delete it, through its closing "}"' in (first.hint or "")
    assert second.line == 6


def test_an_unclosed_braced_description_stops_at_its_own_line() -> None:
    """Without its `}`, only the `accDescr {` line is set aside: the lines after it are
    the user's to be told about."""
    with pytest.raises(VolleyErrors) as info:
        volley.parse("accDescr {\nA ~> B\n", "f.volley")
    assert [e.line for e in info.value.errors] == [1, 2]


def test_mermaids_hidden_title_beside_a_title_is_one_error() -> None:
    """`accTitle:` is not read on as a title: the diagram's own `title:` line is no mistake."""
    with pytest.raises(VolleyErrors) as info:
        volley.parse("accTitle: Hidden\ntitle: Shown\nA -> B: x\n", "flow.volley")
    assert [e.line for e in info.value.errors] == [1]


def test_a_line_after_a_one_line_mermaid_note_says_why_it_is_not_the_notes():
    """`note over A,B:` is one line, as in Mermaid (`note A, B:` runs on, swimlanes.io's way):
    the error on an unindented line after it says so, beside the usual hint."""
    with pytest.raises(VolleyErrors) as info:
        volley.parse("A -> B: hi\nNote over A,B: first\nsecond line\nB -> A: ok\n", "f.volley")
    (error,) = info.value.errors
    assert error.line == 3
    assert (error.hint or "").startswith("if this line goes on the note above: a note written")
    assert (error.hint or "").endswith("Else: a message is written `Sender -> Receiver: label`")
    assert volley.parse("A -> B: hi\nnote A, B: first\nsecond line\n").items[1].text == (
        "first\nsecond line"
    )


@pytest.mark.parametrize(
    ("text", "lines"),
    [
        # a fence no in: owns: one error, not one for each line of the JSON in it
        ('A -> B: call\n```json\n{\n  "a": 1\n}\n```\nB ~> A\n', [2, 7]),
        # PlantUML's note over several lines, to its `end note`, its colon forgotten too
        ("A -> B\nnote left of A:\n  multi\nend note\nB ~> A\n", [5]),
        ("A -> B\nnote left of A\n  multi\nend note\nB ~> A\n", [5]),
        # the fence opened on the in: line itself: its body is read as the body meant
        ('A -> B\nin: Request ```json\n{\n  "a": 1\n}\n```\nB ~> A\n', [2, 7]),
        ('A -> B\nin: Request ```json\n  {"a": 1}\n```\nB ~> A\n', [2, 5]),  # indented
        # a message whose arrow is a slip keeps its in: and out: (no "must come right after a
        # message" for them), whichever slip it is
        ("A ~> B: x\nin: Request\n  a: 1\nB ~> A\n", [1, 4]),
        ("A-xB: lost\nout: R\n  a: 1\nA ~> B\n", [1, 4]),
        ("A -) B: event\nin: R\n  a: 1\nout: S\n  b: 2\nA ~> B\n", [1, 6]),
        # a note whose colon was forgotten is read on as that note: the in: after it is
        # misplaced, not a second one of the message above
        ("A -> B: x\nin: R\n  a: 1\nnote over A\nin: S\n  b: 2\n", [4, 5]),
        # a body indented one space deeper than its out:, one error at its first line
        ("if: c\n  A -> B: 1\n  out:\n   one-space\n   more\nend\nA ~> B\n", [4, 7]),
        # … or a line of it, after lines indented enough: one error at that line
        ("A -> B\n  in:\n    a: 1\n   b: 2\n    c: 3\nA ~> B\n", [4, 6]),
        # a fence of two backticks or tildes: one error, the block read as the body meant
        ('A -> B\nin:\n``json\n{\n  "a": 1\n}\n``\nA ~> B\n', [3, 8]),
        ("A -> B\nout: R\n~~\nx\n~~\nA ~> B\n", [3, 6]),
        ("A -> B\nin:\n``json\n{}\n```\nA ~> B\n", [3, 6]),  # closed by three
    ],
)
def test_one_slip_gives_one_error_and_what_follows_is_read_on(text: str, lines: list[int]):
    with pytest.raises(VolleyErrors) as info:
        volley.parse(text, "f.volley")
    assert [e.line for e in info.value.errors] == lines


def test_the_errors_end_with_a_count_even_of_one():
    with pytest.raises(VolleyErrors) as info:
        volley.parse("A ~> B\n", "f.volley")
    assert info.value.format().endswith("\n1 error")


def test_a_fence_never_closed_leaves_the_errors_before_it_reported():
    """It takes the rest of the file, so nothing after it is read; what comes before it is,
    and its errors come with it, then the count."""
    with pytest.raises(VolleyErrors) as info:
        volley.parse("if Login\nX ~> Y\nend\nA -> B\nin:\n```\nunclosed\n", "f.volley")
    assert [(e.line, e.column) for e in info.value.errors] == [(1, 3), (2, 3), (6, 1)]
    assert "never closed" in info.value.errors[-1].message
    assert info.value.format().endswith("\n3 errors")


def test_errors_past_the_ones_looked_for_are_said_to_be_unread():
    """Reading stops after 25 errors (bounded work); the count says where, so that "25
    errors" is not taken for all of them. Errors that end the file need no such word."""
    lines = [f"A ~> B{n}" for n in range(1, 31)]
    with pytest.raises(VolleyErrors) as info:
        volley.parse("\n".join(lines) + "\n", "f.volley")
    assert len(info.value.errors) == 25
    assert info.value.format().endswith(
        "\n25 errors; volley stopped reading at line 25: fix these and check again for any after it"
    )
    with pytest.raises(VolleyErrors) as info:
        volley.parse("\n".join(lines[:25]) + "\n", "f.volley")
    assert info.value.format().endswith("\n25 errors")


def test_a_stray_end_names_every_block():
    error = error_for("A -> B\nend\n")
    assert error.message == (
        "end without an open block (if:, group:, loop:, opt:, par:, critical:, break:, rect or box)"
    )


def test_the_warnings_that_explain_an_error_come_with_it():
    """`alt ok` under a swimlanes-style note is note text (a warning says so), which is why
    the `end` after it closes nothing: the error comes with that warning, in line order."""
    with pytest.raises(VolleyErrors) as info:
        volley.parse("A -> B: call\nnote: waiting\nalt ok\nB -> A\nend\n", "f.volley")
    (warning,) = info.value.warnings
    assert warning.line == 3 and "read as text of the note on line 2" in warning.message
    said = info.value.format()
    assert said.index("f.volley:3:1: warning:") < said.index("f.volley:5:1: error:")
    assert said.endswith("\n1 error")


def test_redact_keeps_every_error():
    with pytest.raises(VolleyErrors) as info:
        volley.render(
            "A ~> B: token=ghp_0123456789abcdefghij0123456789abcdef\nC ~> D\n", redact=True
        )
    assert [e.line for e in info.value.errors] == [1, 2]
    assert "ghp_" not in info.value.format()


def test_a_line_set_aside_takes_no_more_than_its_own_block():
    """A `note over A` whose colon was forgotten is not WebSequenceDiagrams' note when a
    message comes before any `end note` (one followed by its lines and `end note` is read as
    one), and an unclosed `accDescr {` does not reach a body's `}`: the lines after them are
    read, and their own mistakes reported."""
    text = (
        "A -> B\nnote over A\nthis is text\nB -> -> A: x\nA -> B: again\n"
        "note right of A\nmore\nend note\n"
    )
    with pytest.raises(VolleyErrors) as info:
        volley.parse(text, "f.volley")
    assert [e.line for e in info.value.errors] == [2, 3, 4]
    with pytest.raises(VolleyErrors) as info:
        volley.parse("accDescr {\nA ~> B\nA -> B\nin: R\n  {\n  }\n", "f.volley")
    assert [e.line for e in info.value.errors] == [1, 2]


def test_a_table_outside_a_note_is_one_error_that_says_where_tables_go():
    """After a note written the Mermaid way (one line), a table's lines are no note's: the
    error at its header says a table goes under `note A:`, and its rows are not an error
    each. A header holding an arrow is no message from a participant named "| A"."""
    text = "A -> B: go\nnote over A: fields\n| a | b |\n|---|---|\n| 1 | 2 |\nC - D\n"
    with pytest.raises(VolleyErrors) as info:
        volley.parse(text, "f.volley")
    assert [e.line for e in info.value.errors] == [3, 6]
    assert "a table is a note's text: write it under note A:" in (info.value.errors[0].hint or "")
    assert "note over A: …) is one line" in (info.value.errors[0].hint or "")
    with pytest.raises(VolleyErrors) as info:
        volley.parse("A -> B: x\n| A -> B | x |\n|---|---|\n| 1 | 2 |\n", "f.volley")
    first = info.value.errors[0]
    assert (first.line, first.column) == (2, 1)
    assert first.message == (
        '"| A" starts with a pipe, which no name does: a line that starts with one is a table\'s'
        " row"
    )


def test_a_fence_opened_on_the_in_line_says_where_it_goes():
    error = error_for("A -> B\nout: Reply ```json\n{}\n```\n")
    assert (error.line, error.column) == (2, 12)
    assert error.message == "the fence ```json goes on a line of its own, under out:"
    assert error.hint == "write out: and its label on this line, then ```json on the next"
    tilde = error_for("A -> B\nout: Reply ~~~ yaml\na: 1\n~~~\n")
    assert tilde.hint == "write out: and its label on this line, then ~~~ yaml on the next"


@pytest.mark.parametrize(("line", "mark"), [("# Heading", "#"), ("  ' PlantUML's note", "'")])
def test_another_languages_comment_is_named_at_its_mark(line: str, mark: str):
    error = error_for(f"{line}\nA -> B\n")
    assert error.message == f'"{mark}" does not start a comment in volley'
    assert error.column == line.index(mark) + 1
    assert error.hint.startswith('a comment line starts with "//"')
    # WebSequenceDiagrams' files start with one (`# v1.0a`): the hint names that tool
    assert "WebSequenceDiagrams'" in error.hint


@pytest.mark.parametrize(
    ("text", "column", "name"),
    [
        ("' API -> DB: SELECT (disabled)\n", 1, "' API"),
        ("  'A -> B: commented out\n", 3, "'A"),
        ("A -> 'B: y\n", 6, "'B"),
    ],
)
def test_a_message_that_plantuml_comments_out_is_no_participant(text, column, name):
    """PlantUML's `'` before a message leaves the message out there; read on, it would be a
    lane called "' API" drawn in silence."""
    error = error_for(f"Browser -> API: POST /login\n{text}")
    assert (error.line, error.column) == (2, column)
    assert (
        error.message
        == f'"{name}" starts with "\'", which starts a comment in PlantUML, not in volley'
    )
    assert error.hint.startswith('a comment line starts with "//"')


BODY_NEEDS_IN = 'a body needs "in:" (what the message carries) or "out:" (what comes back)'


def test_a_body_written_without_in_says_where_a_body_goes():
    """JSON indented under a message with no `in:` over it was told to declare a participant
    called `{"jsonrpc"`."""
    error = error_for('A -> B: x\n  {"jsonrpc": "2.0",\n   "id": 1}\n')
    assert (error.line, error.column) == (2, 3) and error.message.startswith(BODY_NEEDS_IN)
    assert error.hint.startswith('write "in: Request" between the message and its body')
    flat = error_for('A -> B: x\n{"jsonrpc": "2.0"}\n')  # not under the message: no body
    assert not flat.message.startswith(BODY_NEEDS_IN)


def test_a_body_written_without_in_is_one_error_and_the_lines_after_it_are_read():
    """Each line of the body was an error of its own, each with another hint; the mistake is
    one, and a real mistake after the body is still found."""
    text = (
        "Client -> Server: POST /login\n"
        "  {\n"
        '    "user": "ada",\n'
        '    "password": "x"\n'
        "  }\n"
        "Server --> Client: 200 OK\n"
        "    <ok>\n"
        "      yes\n"
        "    </ok>\n"
        "Client - Server: GET /\n"
    )
    with pytest.raises(VolleyErrors) as info:
        volley.parse(text, "flow.volley")
    found = [(e.line, e.message[:19]) for e in info.value.errors]
    assert found == [(2, BODY_NEEDS_IN[:19]), (7, BODY_NEEDS_IN[:19]), (10, '"-" is a shaft with')]


def test_a_quoted_name_under_a_block_is_a_message_with_its_mistakes_not_a_body():
    """`"Poller" ~> Queue` under `loop:` was taken for a body (its line above no message),
    and the two mistakes after it went unsaid."""
    text = (
        'loop: every minute\n  "Poller" ~> Queue: poll\n  Queue -> Worker -> DB: job\n'
        "  Worker - Queue: ack\nend\n"
    )
    with pytest.raises(VolleyErrors) as info:
        volley.parse(text, "flow.volley")
    errors = info.value.errors
    assert [e.line for e in errors] == [2, 3, 4]
    assert not any(e.message.startswith(BODY_NEEDS_IN) for e in errors)


@pytest.mark.parametrize("text", ["A -x\n", "A --x  \n"])
def test_a_lost_message_with_no_receiver_says_a_name_is_missing(text):
    error = error_for(text)
    assert error.message == f'expected the name of a participant after "{text.split()[1]}"'
    assert error.column == len(text.rstrip()) + 1


def test_autonumber_written_with_a_colon_is_read_on_without_it():
    with pytest.raises(VolleyErrors) as info:
        volley.parse("autonumber: 3\nA ~> B\n", "f.volley")
    first, second = info.value.errors
    assert first.message == '"autonumber" takes no ":"' and first.column == 11
    assert first.hint == 'autonumber takes no colon: write "autonumber 3"'
    assert second.line == 2
    off = error_for("autonumber: off\nA -> B\n")
    assert off.hint == 'autonumber takes no colon: write "autonumber off"'


def test_a_stray_fence_never_closed_says_so_and_takes_the_rest():
    with pytest.raises(VolleyErrors) as info:
        volley.parse('X ~> Y\nA -> B\n```json\n{"a": 1}\nC ~> D\n', "f.volley")
    first, second = info.value.errors
    assert first.line == 1 and second.line == 3
    assert second.message.endswith("and this one is never closed: it takes the rest of the file")
    assert second.hint.endswith("and close it with ``` on a line of its own")


def test_a_text_past_its_limit_is_reported_with_the_syntax_errors():
    long = "w" * (volley.Limits().label_chars + 1)
    with pytest.raises(VolleyErrors) as info:
        volley.parse(f"A ~> B\nA -> B: {long}\nC ~> D\n", "f.volley")
    assert [e.line for e in info.value.errors] == [1, 2, 3]
    assert "over the limit" in info.value.errors[1].message
    assert info.value.format().endswith("\n3 errors")


def test_a_keyword_without_its_colon_is_pointed_at_where_the_colon_goes():
    error = error_for("if ok\nA -> B\nend\n")
    assert (error.line, error.column) == (1, 3)
    assert error.message == 'expected ":" after "if"'
    assert error.hint == 'did you mean "if: ok"? The keyword takes a colon'


def test_a_title_without_its_colon_is_the_title_as_mermaid_and_websequencediagrams_write_it():
    """`title Login flow` is Mermaid's title, and WebSequenceDiagrams' and sequencediagram.org's
    only way to write one: it was an error, the only one in many a file. A line that goes on
    as a message is still one; in a note, it is the note's words."""
    assert volley.parse("title Login flow\nA -> B: x\n").title == "Login flow"
    assert volley.parse("title page -> B: x\n").participants == ["title page", "B"]
    checked = volley.check("A -> B: x\nnote A:\nTitle of the book\nB -> A: y\n")
    assert checked.diagram.items[1].text == "Title of the book" and checked.warnings == []


def test_only_comments_left_unread_is_not_said_to_be_unread():
    lines = [f"A ~> B{n}" for n in range(1, 26)] + ["// the end", "%% and more"]
    with pytest.raises(VolleyErrors) as info:
        volley.parse("\n".join(lines) + "\n", "f.volley")
    assert info.value.format().endswith("\n25 errors")


def test_a_name_and_its_longer_name_after_a_colon_is_told_how_participant_names_it():
    """`FE UI: Frontend UI Application`, as generated "swimlanes.io" texts declare lanes, is no
    line of swimlanes.io's either: the error says how a longer name is given."""
    error = error_for("FE UI: Frontend UI Application\nFE UI -> API: go\n")
    assert (error.line, error.column) == (1, 6)
    assert (error.hint or "").endswith(
        "a participant shown by a longer name is written `participant FE UI as …`, the longer "
        "name after as"
    )
    # a message missing its arrow has nothing after its colon to name it by: no such hint
    assert "participant" not in (error_for("A B:\n").hint or "")
    # `alias App: Event Source` (one published swimlanes.io diagram): App is the name
    aliased = error_for("alias App: Event Source\nApp -> DB: x\n").hint or ""
    assert "`participant App as …`" in aliased


@pytest.mark.parametrize(
    ("text", "column", "said"),
    [
        ("note X\n", 7, 'expected ":" after "note X"'),
        ("note over A\n", 12, 'expected ":" after "note over A"'),
        ("autonumber -3\n", 12, 'expected a whole number or "off" after "autonumber", not "-3"'),
        ("autonumber x\n", 12, 'expected a whole number or "off" after "autonumber", not "x"'),
        ("autonumber 10 5\n", 12, 'expected one whole number after "autonumber", not "10 5"'),
        ("A - B: 25\n", 3, '"-" is a shaft with no head; expected an arrow such as -> or -->'),
        ("A -- B\n", 3, '"--" is a shaft with no head'),
        ("Alpha Beta = Gamma: x\n", 12, '"=" is a shaft with no head'),
        # not `participant A -- as …`: a name does not end in a shaft
        ("A --: y\n", 3, '"--" is a shaft with no head and no participant after it'),
        ("Service-: q\n", 8, '"-" is a shaft with no head and no participant after it'),
        ("A ==: y\n", 3, '"==" is a shaft with no head and no participant after it'),
    ],
)
def test_the_error_says_what_was_expected_where_it_was_expected(text, column, said):
    """Each said "expected an arrow" after the whole line, the caret past its end or on the
    label's colon; the hint alone told what was wrong."""
    with pytest.raises(VolleyErrors) as info:
        volley.parse(text, "f.volley")
    (error,) = info.value.errors
    assert error.column == column and error.message.startswith(said), error.format()


def test_a_shaft_with_no_head_is_read_on_as_the_arrow_meant():
    """One slip, one error: the message's in: after it is its own."""
    with pytest.raises(VolleyErrors) as info:
        volley.parse("A - B: 25\nin: R\n  a: 1\nB -> A: ok\n", "f.volley")
    assert [e.line for e in info.value.errors] == [1]


@pytest.mark.parametrize(
    ("line", "typo", "meant"),
    [("B -> A ~> C: x", "~>", "->"), ("B -> A → C: x", "→", "->"), ("A <- B ⇒ C", "⇒", "=>")],
)
def test_a_second_arrow_that_is_a_slip_is_no_part_of_a_name(line, typo, meant):
    """`B -> A ~> C` made a participant called "A ~> C" without a word."""
    with pytest.raises(VolleyErrors) as info:
        volley.parse(line + "\n", "f.volley")
    (error,) = info.value.errors
    assert error.column == line.index(typo) + 1
    assert f'holds "{typo}", which is not an arrow' in error.message
    assert (error.hint or "").startswith(f'did you mean "{meant}"?')


@pytest.mark.parametrize("line", ["Note Taker -> B: x", "  Note Taker -> B", "note taker ->> B"])
def test_a_sender_whose_name_starts_with_note_is_told_why_it_cannot_be(line: str):
    """With a label or without (adding one would turn the line into a note)."""
    with pytest.raises(VolleyErrors) as info:
        volley.parse(f"{line}\n", "f.volley")
    (error,) = info.value.errors
    name = line.split("-")[0].strip()
    assert error.message.startswith(f'"{name}" cannot be a participant')
    assert error.column == len(line) - len(line.lstrip()) + 1
    assert f'"participant N as {name}"' in (error.hint or "")
    assert volley.parse("B -> Note Taker: x\nNotes -> B\n").participants == [
        "B",
        "Note Taker",
        "Notes",
    ]


@pytest.mark.parametrize(
    ("line", "meant"),
    [("---: three", "--:"), ("==: two", "=:"), ("....: four", "...:"), ("__: thin", "_:")],
)
def test_a_dividers_mark_written_wrong_names_the_one_meant_and_is_read_on(line, meant):
    with pytest.raises(VolleyErrors) as info:
        volley.parse(f"A -> B\n{line}\nC ~> D\n", "f.volley")
    first, second = info.value.errors
    assert (first.line, first.column) == (2, 1) and first.message.endswith("is not a divider")
    assert (first.hint or "").startswith(f'did you mean "{meant}"?')
    assert second.line == 3


def test_a_name_written_with_a_comma_says_where_names_end():
    """`Map<K,V> -> B` was told that ">" is no arrow."""
    with pytest.raises(VolleyErrors) as info:
        volley.parse("Map<K,V> -> B: x\n", "f.volley")
    (error,) = info.value.errors
    assert error.column == 6 and error.message.startswith('"Map<K,V>" is not one name')
    assert '"participant P as Map<K,V>"' in (error.hint or "")
    volley.parse("participant P as Map<K,V>\nP -> B: x\n")  # the way the hint gives


@pytest.mark.parametrize(
    ("line", "column", "message", "hint"),
    [
        ("A -X B: lost", 3, '"-X" is not an arrow', 'small x: "A -x B"'),
        ("A --X B: lost", 3, '"--X" is not an arrow', 'small x: "A --x B"'),
        ("A ---> B: x", 3, '"--->" is not an arrow', 'did you mean "-->"?'),
        ("A --->> B: x", 3, '"--->>" is not an arrow', 'did you mean "-->>"?'),
        ("A--B: x", 2, '"--" is a shaft with no head', 'did you mean "-->"?'),
        ("…: later", 1, '"…" does not start a divider: volley writes it "...:"', '"..."'),
        ("–: x", 1, '"–" does not start a divider: volley writes it "-:"', 'write "-: …"'),
        ("A -< B: x", 3, '"-<" is not an arrow; expected an arrow', "a shaft (- solid"),
        ("A ~ B: x", 3, '"~" is not an arrow; expected an arrow', "a shaft (- solid"),
        ("A －＞ B: x", 3, '"－＞" is written in full-width characters', 'did you mean "->"?'),
        ("甲－－＞乙：好", 2, '"－－＞" is written in full-width', 'did you mean "-->"?'),
        ("A ＜＝ B: x", 3, '"＜＝" is written in full-width', 'did you mean "<="?'),
        ("A － B: x", 3, '"－" is written in full-width', 'did you mean "->"?'),
    ],
)
def test_another_tools_arrow_or_an_editors_typography_is_named_for_what_it_is(
    line, column, message, hint
):
    """Mermaid's `-X`, PlantUML's long dotted arrows, an unspaced shaft, an autocorrected
    `...`, arrow characters that make no arrow, an arrow an input method typed in full-width
    forms: each was "expected an arrow after" the whole line, with a hint to declare it."""
    error = error_for(f"A -> B: first\n{line}\n")
    assert (error.line, error.column) == (2, column)
    assert error.message.startswith(message) and hint in error.hint


def test_plantumls_else_in_a_par_block_says_the_branch_word_volley_uses():
    error = error_for("par x\nA -> B\nelse y\nA -> C\nend\n")
    assert error.hint == 'the next branch of a par: block starts with "and"'
    error = error_for("critical x\nA -> B\nelse y\nA -> C\nend\n")
    assert error.hint == 'the next branch of a critical: block starts with "option"'


def test_front_matter_before_a_diagram_is_one_error_that_keeps_its_title():
    """Mermaid's front matter before a volley diagram gave an "unexpected -" for each fence."""
    error = error_for("---\ntitle: Login\nconfig:\n  theme: dark\n---\nA -> B: hi\n")
    assert (error.line, error.column) == (1, 1)
    assert error.message.startswith("lines 1-5 are YAML front matter")
    assert error.hint.startswith('keep "title: Login" as a line of the diagram')
    assert len(getattr(error, "errors", [error])) == 1


def test_a_full_width_arrow_is_read_on_as_meant():
    """The message's in: is its own, not a second error of a line that was skipped."""
    text = "A －＞ B: x\nin:\n  k: v\nB -> A: ok\n"
    with pytest.raises(VolleyErrors) as info:
        volley.parse(text, "f.volley")
    assert len(info.value.errors) == 1
    volley.parse("A & B -> C: x\n")  # a name may hold other signs


@pytest.mark.parametrize(
    ("line", "hint"),
    [
        ("group#43829c #lightblue Registration", 'write "group: Registration"'),
        ("alt#2f2e7b #lightgreen success", 'write "alt success"'),
        ("loop#red retry", 'write "loop retry"'),
        ("seq#red in order", 'write "group: seq in order"'),
        ("box over A: waits", 'sequencediagram.org\'s "box" is written "note A: waits"'),
        ("rbox over A, B: shared", 'written "note A, B: shared"'),
        ("frame Login", 'volley\'s title: write "title: Login"'),
        ("destroyafter B", "not drawn: delete the line"),
        ("participantgroup #lightgreen Chain", 'a box of participants: write "box Chain"'),
        ("state over B: waiting", 'WebSequenceDiagrams\' "state" is written "note B: waiting"'),
        ("abox right of A: x", 'sequencediagram.org\'s "abox" is written "note right of A: x"'),
        ("box left of A: x", 'sequencediagram.org\'s "box" is written "note left of A: x"'),
        ("fontawesome5solid f007 User #red", 'as an icon: write "participant User"'),
        ("expandable+ Details", 'is drawn open in volley: write "group: Details"'),
    ],
)
def test_sequencediagram_orgs_habits_say_what_volley_writes(line, hint):
    """sequencediagram.org (where many a course's diagrams are drawn) colours a fragment after
    its word, draws notes as boxes, and sets its spacing: each line was "expected an arrow",
    and a coloured block's `end` a second error."""
    if line.startswith(("participantgroup", "expandable")):
        text = f"{line}\nparticipant A\nend\nA -> B: x\n"
    elif line.split()[0].split("#")[0] in ("group", "alt", "loop", "seq"):  # its end closes it
        text = f"A -> B: first\n{line}\nA -> B: inside\nend\n"
    else:
        text = f"{line}\n"
    with pytest.raises(VolleyErrors) as info:
        volley.parse(text, "f.volley")
    (error,) = info.value.errors
    assert hint in (error.hint or ""), error.format()


def test_a_mermaid_box_may_still_say_over_or_left_of_with_a_colon():
    """A box holding declarations is a box, whatever its label says (`box left of firewall:
    DMZ`); only one that holds none is taken for sequencediagram.org's note."""
    diagram = volley.parse("box over the wall\nparticipant A\nend\nA -> B: x\n")
    assert diagram.boxes[0].label == "over the wall"
    diagram = volley.parse("box left of firewall: DMZ\nparticipant A\nend\nA -> B: x\n")
    assert diagram.boxes[0].label == "left of firewall: DMZ"
    # blank lines and comments between it and its declarations, as anywhere
    diagram = volley.parse(
        "box left of firewall: DMZ\n// the edge\n\nparticipant A\nend\nA -> B: x\n"
    )
    assert diagram.boxes[0].participants == ["A"]
    error = error_for("A -> B: x\nBox Over A: boxed\nB -> A: y\n")
    assert (error.line, error.column) == (2, 1)
    assert error.message == '"Box" does not start a note in volley'
    assert error.hint == 'sequencediagram.org\'s "Box" is written "note A: boxed" in volley'


@pytest.mark.parametrize(
    ("text", "line", "said"),
    [
        # inside a block: the box took the block's `end` for its own (three mistakes, one)
        ("A -> B: x\nif: ok\n  box over A: waits\nend\n", 3, "does not start a note"),
        ("A -> B: x\nloop: retry\n  rbox over B: busy\n  B -> A: y\nend\n", 3, "rbox"),
        # a declaration under it: a box never closed, or the note
        ("box over A: waits\nparticipant A\nA -> B: x\n", 1, "this box is never closed"),
    ],
)
def test_sequencediagram_orgs_box_note_is_one_error_wherever_it_stands(text, line, said):
    with pytest.raises(VolleyErrors) as info:
        volley.parse(text, "f.volley")
    (error,) = info.value.errors
    assert error.line == line and said in error.message + (error.hint or "")
    assert 'is written "note ' in (error.hint or "")


def test_another_tools_note_under_a_note_is_its_text_with_a_warning_that_says_what_to_write():
    checked = volley.check("A -> B: x\nnote: hi\nbox over A: waits\n")
    assert checked.diagram.items[1].text == "hi\nbox over A: waits"
    (warning,) = checked.warnings
    assert warning.message.endswith('to start a note of its own here, write "note A: waits"')
    # over no lane of the diagram: prose, as a note holds it
    assert volley.check("A -> B: x\nnote: hi\nState over the wire: encrypted\n").warnings == []


def test_a_hash_that_is_no_colour_stays_in_the_label_the_hint_gives():
    assert error_for("if #1 priority\nA -> B\nend\n").hint == (
        'did you mean "if: #1 priority"? The keyword takes a colon'
    )


def test_an_arrow_after_a_colon_is_no_typo_of_one():
    """`Auth flow: client -> server` said '">" is not an arrow … did you mean "->"?', the
    user's own arrow taken for a typo; `title Auth: client -> server` gets the title's colon."""
    error = error_for("Auth flow: client -> server\n")
    assert error.message == 'expected an arrow such as -> or --> after "Auth flow"'
    assert error.hint.startswith('the colon after "Auth flow" starts a label')
    error = error_for("title Auth: client -> server\n")
    assert error.hint.startswith('did you mean "title: Auth: client -> server"?')
    assert error_for("A -->>> B: x\n").message == '"-->>>" is not an arrow'


def test_a_title_without_its_colon_that_holds_an_arrow_is_a_message_with_a_warning():
    """Mermaid's `title Login -> Logout` is a message here (a line with an arrow is one), from
    a lane "title Login": pointed out, where the line has no label."""
    checked = volley.check("title Login -> Logout\nA -> B: x\n")
    (warning,) = checked.warnings
    assert warning.message.startswith('"title Login" is read as a participant')
    assert volley.check("title page -> Endpoint: x\n").warnings == []


@pytest.mark.parametrize(
    "line", ["Space Station: docked", "Parallel workers start", "Frame grabber: ready"]
)
def test_a_line_that_starts_with_a_word_of_sequencediagram_org_is_not_taken_for_it(line):
    """Its statements have no colon and one word after them at most: these lines got "delete
    the line" or a title."""
    hint = error_for(line + "\n").hint or ""
    assert "sequencediagram.org" not in hint


def test_sequencediagram_orgs_look_settings_are_said_once_each_and_read_as_blank() -> None:
    """`linear`, `space 3`, `bottomparticipants`, `fontfamily …` set how sequencediagram.org
    draws: they were an error each (eleven for a diagram of `linear` lines), where the
    diagram reads the same without them."""
    text = (
        "linear\nA->B: x\nspace -3\nlinear off\nentryspacing 0.9\nbottomparticipants\n"
        "fontfamily Times New Roman\nnote A:\n  space\nB->A: y\n"
    )
    checked = volley.check(text)
    said = [(w.line, w.column, w.message) for w in checked.warnings]
    assert said == [
        (1, 1, 'sequencediagram.org\'s "linear" sets how its picture looks, which volley decides '
         "itself: ignored (lines 1, 4)"),
        (3, 1, 'sequencediagram.org\'s "space" sets how its picture looks, which volley decides '
         "itself: ignored"),
        (5, 1, 'sequencediagram.org\'s "entryspacing" sets how its picture looks, which volley '
         "decides itself: ignored"),
        (6, 1, 'sequencediagram.org\'s "bottomparticipants" sets how its picture looks, which '
         "volley decides itself: ignored"),
        (7, 1, 'sequencediagram.org\'s "fontfamily" sets how its picture looks, which volley '
         "decides itself: ignored"),
    ]  # fmt: skip
    assert checked.warnings[0].hint == "delete the line"
    assert [item.text for item in checked.diagram.items if isinstance(item, Note)] == ["space"]
    assert error_for("space station -> B: x\nspace 3 4\n").line == 2  # two words: no setting
    from volley.language.writer import format_text

    assert "// space -3\n// linear off\n" in format_text(text)  # fmt keeps them, as comments
    messages = volley.parse("A -> B: x\nSpace ->B\nlinear ->>C\nfontfamily -> D\n").messages()
    assert [m.sender for m in messages] == ["A", "Space", "linear", "fontfamily"]


def test_an_arrow_written_long_is_no_pair_of_activation_marks():
    assert error_for("A ->--> B: x\n").message == '"->-->" is not an arrow'


def test_sequencediagram_orgs_colours_around_a_block_label_are_left_out_of_the_hint():
    error = error_for("A -> B: x\ngroup#navy Registration #white\nA -> B: y\nend\n")
    assert error.hint.endswith('write "group: Registration"')
    checked = volley.check("A -> B: x\nalt #navy ok\nA -> B: y\nend\n")
    (warning,) = checked.warnings
    assert (warning.line, warning.column) == (2, 5)
    assert warning.message.endswith('write "ok"')
    assert volley.check("A -> B: x\nloop #1 priority\nA -> B: y\nend\n").warnings == []
    checked = volley.check("A -> B: x\ngroup #navy Registration #white\nA -> B: y\nend\n")
    (warning,) = checked.warnings  # sequencediagram.org's group, without a colon
    assert warning.message.endswith('write "Registration"')


def test_second_review_of_other_tools_habits():
    """A setting that takes words keeps its hint; a block that is only a colour is told to
    delete it; `#123` is no colour; `Title Company` is a name, `title Login` Mermaid's title."""
    (warning,) = volley.check("alt #navy\nA -> B: y\nend\n").warnings
    assert warning.message.endswith("delete them")
    assert volley.check("alt #123 merged\nA -> B: y\nend\n").warnings == []
    (branch,) = volley.check("alt ok\nA -> B: y\nelse #pink fail\nA -> B: z\nend\n").warnings
    assert (branch.line, branch.column) == (3, 6) and branch.message.endswith('write "fail"')
    assert volley.check("Title Company -> Bank\n").warnings == []
    assert volley.check("title Login -> Logout\n").warnings


@pytest.mark.parametrize("line", ["title", "title:", "Title :  "])
def test_an_empty_title_is_pointed_out(line):
    """It draws nothing; a `title` alone (Mermaid's keyword, its words forgotten) read as an
    empty title without a word."""
    (warning,) = volley.check(f"{line}\nA -> B: x\n").warnings
    assert warning.message.startswith("this title is empty") and warning.line == 1


@pytest.mark.parametrize(
    ("text", "word"),
    [
        ("if: x\n  A -> B\nelif expired\n  B -> A\nend\n", "elif"),
        ("A -> B\naccDescr {\n  words\n}\n", "accDescr"),
        ("accTitle: Login\nA -> B\n", "accTitle"),
    ],
)
def test_another_tools_word_is_named_at_its_start_not_as_a_missing_arrow(text, word):
    """Each said `expected an arrow such as -> or --> after "elif expired"`: the hint knew."""
    error = error_for(text)
    assert error.message == f'"{word}" is not a volley keyword'
    assert error.column == error.source_line.index(word) + 1 and error.hint


def test_a_mermaid_fence_pasted_into_a_volley_file_says_to_import_it() -> None:
    """A page's ```mermaid block pasted whole was told to put `in:` before the fence."""
    with pytest.raises(VolleyErrors) as info:
        volley.parse("```mermaid\nsequenceDiagram\n    A->>B: hi\n```\n", "f.volley")
    (error,) = info.value.errors
    assert error.message == "a ```mermaid block is a Mermaid diagram, not volley's text"
    assert error.hint is not None and "volley import" in error.hint


def test_mermaids_par_over_is_one_error_that_says_par() -> None:
    """Its `and` and `end` were two errors more: it is read on as the `par:` it means."""
    with pytest.raises(VolleyErrors) as info:
        volley.parse("par_over both\nA->>B: x\nand other\nB->>C: y\nend\n", "f.volley")
    (error,) = info.value.errors
    assert (error.line, error.column) == (1, 1)
    assert error.message == '"par_over" is not a volley keyword'
    assert error.hint is not None and 'write "par: both"' in error.hint


@pytest.mark.parametrize(
    "text", ["lop: 3 times\nA -> B\nend\n", "grop: x\nA -> B\nend\n", "if: a\nels\nB -> A\nend\n"]
)
def test_a_misspelt_block_word_is_one_error_its_end_none(text: str) -> None:
    error = error_for(text)
    assert len(error.errors) == 1 and "did you mean" in error.message, error.format()


def test_a_nul_byte_is_said_among_the_texts_other_errors() -> None:
    """A NUL byte hid every other error of the file; a text of UTF-16 read as UTF-8 (a NUL
    every other character) is one error that says what it is."""
    with pytest.raises(VolleyErrors) as caught:
        volley.parse("A -> B: x\x00y\nB ~> A: ok\nC -> D: \x00\n")
    places = [(error.line, error.column) for error in caught.value.errors]
    assert places == [(1, 10), (2, 3), (3, 9)]
    assert "NUL byte" in caught.value.errors[2].message
    with pytest.raises(volley.VolleyError) as caught:
        volley.parse("A -> B: hi\n".encode("utf-16-le").decode("utf-8"))
    (only,) = caught.value.errors
    assert "it reads as UTF-16 without a byte-order mark" in only.message
    assert only.hint == "save the file as UTF-8"
    with pytest.raises(volley.VolleyError) as caught:  # big-endian too
        volley.parse("A -> B: hi\n".encode("utf-16-be").decode("utf-8"))
    assert "UTF-16" in caught.value.errors[0].message
    with pytest.raises(volley.VolleyError) as caught:  # NULs on many lines: one error, no flood
        volley.parse("A -> B: x\x00\n" * 30)
    assert len(caught.value.errors) == 1


def test_plantumls_delay_is_named_as_its_divider_is() -> None:
    """`...5 minutes later...` said "expected an arrow", its caret past the line's end."""
    error = error_for("A -> B: x\n  ...5 minutes later...\n")
    assert (error.line, error.column) == (2, 3)
    assert error.message == '"...5 minutes later..." is PlantUML\'s delay'
    assert error.hint == 'volley writes a delay as "...: 5 minutes later"'


def test_a_note_written_without_its_colon_and_with_an_arrow_in_its_words_is_offered_the_colon():
    """`NOTE Info required => email, tax` (a real swimlanes.io page's) was told only to declare
    a participant "NOTE Info required": without a colon, a note is the likelier meaning."""
    with pytest.raises(VolleyErrors) as info:
        volley.parse("A -> B: x\nNOTE Info required => email, tax\n", "f.volley")
    (error,) = info.value.errors
    assert (error.hint or "").startswith(
        'for a note, write its text after a colon, "note: Info required => email, tax"; '
        "for a lane, declare the participant"
    )
