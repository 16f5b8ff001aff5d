"""`volley import` of the PlantUML forms found in published diagrams that an importer reading
PlantUML's manual alone misses: arrows from the diagram's edge with no mark, `end` with any
words, titles with Creole in them, lines across a note, images, and the preprocessor's
variables and `!if` (the reading PlantUML's own command classes and Creole parser give)."""

from __future__ import annotations

from pathlib import Path

import pytest

from volley.errors import VolleyError, VolleyErrors
from volley.importers import convert
from volley.language.parser import parse
from volley.language.writer import format_text
from volley.model import Activation, Block, Box, Message, Note, walk

CASES = Path(__file__).resolve().parent / "cases" / "plantuml"


def uml(*lines: str) -> str:
    return "\n".join(["@startuml", *lines, "@enduml"]) + "\n"


def imported(source: str) -> str:
    [diagram] = convert(source, "flow.puml")
    assert format_text(diagram.text) == diagram.text
    return diagram.text


def messages(source: str) -> list[tuple[str, str, str, str, int | None]]:
    diagram = parse(imported(source))
    return [(m.sender, m.receiver, m.arrow, m.label, m.number) for m in diagram.messages()]


def notes(source: str) -> list[str]:
    return [item.text for item in walk(parse(imported(source)).items) if isinstance(item, Note)]


def errors(source: str) -> list[tuple[int | None, str]]:
    with pytest.raises(VolleyErrors) as caught:
        convert(source, "flow.puml")
    return [(error.line, error.message) for error in caught.value.errors]


# --- messages -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "edge",
    [
        "-> A : reset",
        "A -> : done",
        "A ->",
        "<- A : out",
        "A <-- : back",
        "[-> A : in",
        "A ->] : x",
    ],
)
def test_an_arrow_with_no_name_at_one_end_comes_from_or_goes_to_the_edge(edge: str) -> None:
    source = uml("participant Z", edge, "A -> Z : then")
    assert messages(source) == [("A", "Z", "->", "then", None)]
    text = imported(source)
    assert f"// PlantUML: {edge} (an arrow from or to the diagram's edge" in text
    assert parse(text).participants == ["Z", "A"]  # its lane is drawn where PlantUML has it


def test_an_arrow_from_the_edge_takes_its_number_as_plantuml_numbers_it() -> None:
    source = uml("autonumber", "-> A : start", "A -> B : one", "B ->] : out", "B -> A : two")
    assert [m[4] for m in messages(source)] == [2, 4]
    text = imported(source)
    assert (
        "(an arrow from or to the diagram's edge, which volley does not draw: a note left of A "
        "says it; it takes number 1)" in text
    )
    assert "note left of A: → **1** start\n" in text and "note right of B: **3** out →\n" in text


def test_a_cross_or_circle_at_an_end_may_be_written_in_capitals() -> None:
    source = uml("Client <-[#red]-X Server : failed", "A -X B : lost", "A O-> B : o")
    assert [m[:3] for m in messages(source)] == [
        ("Client", "Server", "<--x"),  # a head at Client, the cross at Server, as PlantUML
        ("A", "B", "-x"),
        ("A", "B", "->"),
    ]


# --- blocks and boxes ---------------------------------------------------------------------


def test_end_with_any_words_closes_the_block_and_partition_is_a_group() -> None:
    source = uml(
        "group outer",
        "  alt ok",
        "    A -> B : x",
        "  end regular",
        "  partition Checks",
        "    B -> A : y",
        "  end  opt",
        "end group",
    )
    [outer] = parse(imported(source)).items
    assert isinstance(outer, Block) and outer.kind == "group"
    inner = outer.branches[0].items
    assert [(b.kind, b.branches[0].label) for b in inner if isinstance(b, Block)] == [
        ("if", "ok"),
        ("group", "Checks"),
    ]


def test_an_unquoted_box_title_may_hold_creole_and_a_break_at_its_end() -> None:
    source = uml(
        "box <size:18>Messenger-Service\\n #WhiteSmoke",
        "participant A",
        "end box",
        "box <size:19>Endgerät</size> <<device>> #LightBlue",
        "participant B",
        "end box",
        "A -> B : x",
    )
    diagram = parse(imported(source))
    assert [(b.label, b.tint, b.participants) for b in diagram.boxes] == [
        ("Messenger-Service", "WhiteSmoke", ["A"]),
        ("Endgerät", "LightBlue", ["B"]),
    ]
    assert "// PlantUML: <<device>> (a stereotype)" in imported(source)


def test_a_box_around_boxes_is_said_as_such_not_as_an_empty_box() -> None:
    source = uml(
        "!pragma teoz true",
        'box "outside"',
        'box "inner" #LightBlue',
        "participant A",
        "end box",
        "end box",
        "A -> A : x",
    )
    text = imported(source)
    assert "// PlantUML: a box around boxes (outside), which volley draws without it" in text
    assert "no participant" not in text
    assert [b.label for b in parse(text).boxes] == ["inner"]


@pytest.mark.parametrize(
    ("written", "reason"),
    [
        ("||25|||", "extra space: volley spaces its rows itself"),
        ("||45||", "extra space: volley spaces its rows itself"),
        ("newpage Part two", "a new page: volley draws the diagram as one picture"),
        ("!pragma teoz true", "a setting of PlantUML's own layout"),
        ("skinparam BoxPadding 10", "volley's themes decide how a diagram looks"),
        ("sprite $bug [8x8/16] AB3C", "an image, which volley leaves out"),
    ],
)
def test_statements_about_the_page_are_comments_that_say_why(written: str, reason: str) -> None:
    text = imported(uml("A -> B : x", written, "B -> A : y"))
    assert f"// PlantUML: {written} ({reason}" in text


def test_a_sprite_over_several_lines_and_its_use_in_a_name_are_comments() -> None:
    source = uml(
        "sprite $actor [4x4/16] {",
        "0000",
        "0FF0",
        "}",
        'actor "<$actor>\\nPayee" as P',
        "A -> P : pay",
    )
    text = imported(source)
    assert "// PlantUML: sprite $actor [4x4/16] {" in text
    assert "// 0FF0" in text
    assert "// PlantUML: <$actor> (an image, which volley leaves out)" in text
    assert parse(text).labels["P"] == "Payee"


# --- text ---------------------------------------------------------------------------------


def test_r_and_l_break_a_line_t_is_a_space_and_an_open_style_runs_to_the_end() -> None:
    source = uml(
        "A -> B : right\\rleft\\lend",
        "A -> B : a\\tb",
        "A -> B : <b>bold to the end",
        "A -> B : <i>one</i> and <b>two",
    )
    assert [m[3] for m in messages(source)] == [
        "right\\nleft\\nend",
        "a b",
        "**bold to the end**",
        "*one* and **two**",
    ]


def test_lines_across_a_note_and_items_without_a_space_read_as_plantuml_draws_them() -> None:
    source = uml(
        "A -> B : x",
        "note over A",
        "first",
        "----",
        "second",
        "== Part two ==",
        "*one",
        "**two",
        "**bold** is no item",
        "#numbered",
        "end note",
    )
    [text] = notes(source)
    lines = text.split("\n")
    assert lines[:6] == ["first", "", "second", "", "**Part two**", ""]
    assert lines[6:8] == ["- one", "  - two"]
    assert lines[-1] == "1. numbered"
    assert "**bold** is no item" in lines[8]
    assert "// PlantUML: ---- (a line across the note, which volley leaves out)" in imported(source)


def test_a_link_in_a_participants_name_is_a_comment() -> None:
    source = uml('actor "[[@component/dochub.user User]]" as user', "user -> B : hi")
    text = imported(source)
    assert parse(text).labels["user"] == "User"
    assert "// PlantUML: [[@component/dochub.user User]] (a link on user" in text


# --- the preprocessor ---------------------------------------------------------------------


def test_variables_are_written_where_they_are_used() -> None:
    source = uml(
        '!$name = "John"',
        "!$amount = 300",
        '!$name ?= "not this"',
        'actor "$name" as A',
        "A -> B : pay $amount to $name, $unknown stays",
    )
    text = imported(source)
    assert messages(source) == [("A", "B", "->", "pay 300 to John, $unknown stays", None)]
    assert parse(text).labels["A"] == "John"
    assert '// !$name = "John"' in text


def test_if_else_draws_the_branch_plantuml_draws_and_keeps_the_other_as_comments() -> None:
    source = uml(
        "!$simplified = false",
        "!$level = 2",
        "!if ($simplified != true)",
        "A -> B : detailed",
        "  !if $level >= 3",
        "A -> B : deepest",
        "  !elseif ($level == 2) && !%false()",
        "A -> B : level two",
        "  !else",
        "A -> B : shallow",
        "  !endif",
        "!else",
        "A -> B : simple",
        "!endif",
        "!ifdef $level",
        "A -> B : defined",
        "!endif",
        "!ifndef SOMETHING",
        "A -> B : not defined",
        "!endif",
    )
    assert [m[3] for m in messages(source)] == [
        "detailed",
        "level two",
        "defined",
        "not defined",
    ]
    text = imported(source)
    assert "// A -> B : simple" in text and "// A -> B : deepest" in text


def test_a_define_stands_for_its_text_and_an_include_is_said_to_be_unread() -> None:
    source = uml(
        "!define HOST api.example.com",
        "!include common.puml",
        "!function $twice($a)",
        "!return $a + $a",
        "!endfunction",
        "A -> B : GET https://HOST/x",
        "!undef HOST",
        "A -> B : HOST",
    )
    assert [m[3] for m in messages(source)] == ["GET https://api.example.com/x", "HOST"]
    text = imported(source)
    assert (
        "// PlantUML: !include common.puml (a file volley reads only when it imports a diagram "
        "from a file)"
    ) in text
    assert "// PlantUML: !function $twice($a) (a function, which volley does not run)" in text
    assert "// !return $a + $a" in text


def test_a_procedure_stands_for_its_lines_with_its_arguments() -> None:
    source = uml(
        '!$greeting = "hi"',
        '!procedure $msg($source, $destination, $text="ping")',
        '  !local $seen = "once"',
        "  $source -> $destination : $text $seen",
        '  !if ($text == "ping")',
        "  $destination --> $source : pong",
        "  !endif",
        "!endprocedure",
        "!unquoted procedure $say($a, $b)",
        "$a -> $b : unquoted $greeting",
        "!endprocedure",
        '$msg("Alice", "Bob")',
        '$msg("Bob", "Carol", "hello world")',
        '$msg($destination="Alice", $source="Dave")',
        "$say(Eve, Bob)",
        "Alice -> Bob : $seen",
    )
    assert [m[:4] for m in messages(source)] == [
        ("Alice", "Bob", "->", "ping once"),
        ("Bob", "Alice", "-->", "pong"),
        ("Bob", "Carol", "->", "hello world once"),
        ("Dave", "Alice", "->", "ping once"),
        ("Alice", "Dave", "-->", "pong"),
        ("Eve", "Bob", "->", "unquoted hi"),
        ("Alice", "Bob", "->", "$seen"),  # a procedure's `!local` variable is its own
    ]
    text = imported(source)
    assert '// !procedure $msg($source, $destination, $text="ping")' in text
    assert '// $msg("Alice", "Bob")' in text


def test_a_procedure_called_wrongly_or_calling_itself_is_an_error_at_the_call() -> None:
    found = errors(
        uml(
            "!procedure $two($a, $b)",
            "$a -> $b : x",
            "!endprocedure",
            '$two("A")',
            '$two("A", "B", "C")',
            "!procedure $loop()",
            "A -> B : again",
            "$loop()",
            "!endprocedure",
            "$loop()",
        )
    )
    assert found == [
        (5, "cannot call $two: no value given for $b"),
        (6, "cannot call $two: too many arguments: it takes 2"),
        (11, "too many procedure calls (one that calls itself?)"),
    ]


def test_a_procedure_calling_itself_before_any_message_is_said_at_its_call() -> None:
    """Its lines hold the diagram's only message: the error, not "no sequence diagram here"."""
    found = errors(
        uml("!procedure $loop()", "A -> B : again", "$loop()", "!endprocedure", "$loop()")
    )
    assert found == [(6, "too many procedure calls (one that calls itself?)")]


def test_an_if_never_closed_ends_with_the_diagram_as_plantuml_reads_it() -> None:
    source = uml("!$short = false", "A -> B : before", "!if ($short != true)", "A -> B : inside")
    [diagram] = convert(source, "flow.puml")
    assert [m.label for m in parse(diagram.text).messages()] == ["before", "inside"]
    assert [(w.line, w.severity, w.message) for w in diagram.warnings] == [
        (4, "warning", "this !if is never closed; it ends at the end of the diagram")
    ]


def test_an_include_not_read_is_a_warning_that_stays_beside_the_errors_it_explains(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "layout.txt").write_text("!define GUARD_COLOR #FFF3E5\n")
    (tmp_path / "flows").mkdir()
    diagram = tmp_path / "flows" / "flow.puml"
    diagram.write_text(uml("!include ../layout.txt", 'participant S as "Svc" GUARD_COLOR'))
    monkeypatch.chdir(tmp_path / "flows")
    with pytest.raises(VolleyErrors) as caught:
        convert(diagram.read_text(), "flow.puml")
    [warning] = caught.value.warnings
    assert (warning.line, warning.severity) == (2, "warning")
    assert warning.message.startswith("this file is not read: volley reads only the diagram's own")
    [error] = caught.value.errors
    assert error.message == "cannot read 'GUARD_COLOR' after participant S as \"Svc\""
    assert "GUARD_COLOR" in caught.value.format()
    monkeypatch.chdir(tmp_path)  # run from a folder that holds both, it reads
    [read] = convert(diagram.read_text(), "flows/flow.puml")
    assert "participant S as Svc" in read.text


def test_a_note_inside_an_if_is_kept_whole() -> None:
    source = uml(
        "A -> B : x",
        "!if 1",
        "note over A",
        "  !$shown = 2",
        "  value $shown",
        "end note",
        "!endif",
    )
    assert notes(source) == ["value 2"]


def test_preprocessor_mistakes_are_errors_at_their_lines() -> None:
    found = errors(uml("!if ($level == ", "A -> B", "!endif", "!endif", "!if 1", "A -> B"))
    assert found == [
        (2, "the expression ends too soon"),
        (5, "!endif without an !if to end"),
    ]


def test_truth_in_the_preprocessor_is_plantumls_only_0_and_empty_text_are_false() -> None:
    source = uml(
        '!$flag = "false"',
        '!$zero = "0"',
        "!$none = 0",
        '!$empty = ""',
        "!if $flag",
        "A -> B : the text false is true",
        "!endif",
        "!if (false)",
        "A -> B : the word false too",
        "!endif",
        "!if $zero",
        "A -> B : the text 0 too",
        "!endif",
        "!if $none || $empty",
        "A -> B : not drawn",
        "!endif",
        "!if $UNSET",
        "A -> B : a variable with no value is its name, which is true",
        "!endif",
        '!if %variable_exists("$flag") && !%variable_exists("$UNSET") && %strlen($flag) == 5',
        "A -> B : built-in functions",
        "!endif",
        '!if %upper("a") == "A" && %not(%boolval(0)) && %intval("7") > 6',
        "A -> B : more of them",
        "!endif",
    )
    assert [m[3] for m in messages(source)] == [
        "the text false is true",
        "the word false too",
        "the text 0 too",
        "a variable with no value is its name, which is true",
        "built-in functions",
        "more of them",
    ]


def test_an_if_calling_a_function_volley_does_not_run_is_read_as_true_with_a_comment() -> None:
    source = uml('!if %function_exists("$f")', "A -> B : read", "!else", "A -> B : not", "!endif")
    assert [m[3] for m in messages(source)] == ["read"]
    assert (
        '// PlantUML: !if %function_exists("$f") (volley does not run %function_exists(…): the '
        "lines under it are read)"
    ) in imported(source)


def test_pasting_bare_variables_and_comment_lines() -> None:
    source = uml(
        '!$svc = "Order"',
        '!host = "api.local"',
        "' $svc stays as written in a comment",
        "$svc##Service -> B : GET https://host/x",
    )
    assert [m[:2] for m in messages(source)] == [("OrderService", "B")]
    assert messages(source)[0][3] == "GET https://api.local/x"
    assert "// $svc stays as written in a comment" in imported(source)


def test_a_real_diagram_built_by_the_preprocessor() -> None:
    path = CASES / "mojaloop-fx-discovery-preprocessor.puml"
    [result] = convert(path.read_text(encoding="utf-8"), path.name)
    diagram = parse(result.text)
    labels = [m.label for m in diagram.messages()]
    assert labels[0] == "I'd like to pay Yaro\\n300 BWP, please"
    assert (
        "I want to send to MSISDN 2551234567890\\n**GET /parties/MSISDN/2551234567890**" in labels
    )
    assert not any("$" in label for label in labels)  # every variable used had a value
    # `!$advancedCoreConnectorFlow = false`, so the `!else` branch's message is not drawn
    assert not any(label.startswith("**GET /parties") for label in labels)
    assert "// PayerCC->D1: **GET /parties/MSISDN/$payeeMSISDN**" in result.text
    assert isinstance(diagram.boxes[0], Box)
    assert all(isinstance(m, Message) for m in diagram.messages())


def test_a_row_of_empty_cells_in_a_note_is_space_not_a_table() -> None:
    source = uml("A -> B : x", "ref over A, B", "  the flow", "  |||", "  more", "  |||", "end ref")
    assert notes(source) == ["**ref:** the flow\n\nmore"]


def test_creole_underlines_colours_on_tags_and_emoji_by_code_read_as_plantuml_draws_them() -> None:
    source = uml(
        "title __Simple__ **communication** example",
        "A -> B : ~~waved~~ and <s:red>gone</s> and <w:#FF33FF>waved</w>",
        "A -> B : sun <:2600:> <#green:1f600:> <:ffffff:>",
    )
    diagram = parse(imported(source))
    assert diagram.title == "Simple **communication** example"
    assert [m.label for m in diagram.messages()] == [
        "waved and ~~gone~~ and waved",
        "sun \u2600 \U0001f600 \\<:ffffff:>",
    ]


def test_return_answers_the_message_that_started_the_activation_as_plantuml_does() -> None:
    source = uml(
        "activate Client",  # before any message: no message to answer later
        "Client ->> Server : request",
        "activate Server",
        "return response",  # Server's reply, in the request's head, ending Server's bar
        "return again",  # nothing left to answer: the message before it, turned around
        "B <- A : call",
        "activate B",
        "return done",
    )
    found = [(m.sender, m.receiver, m.arrow, m.label, m.activate) for m in
             parse(imported(source)).messages()]  # fmt: skip
    assert found == [
        ("Client", "Server", "->>", "request", None),
        ("Server", "Client", "-->>", "response", "-"),
        ("Client", "Server", "-->>", "again", None),
        ("B", "A", "<-", "call", None),
        ("B", "A", "-->", "done", "-"),
    ]


def test_named_by_from_a_diagram_without_startuml_is_read_whole(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from volley.cli import main

    path = tmp_path / "sequence.puml"
    path.write_text('hide footbox\nparticipant "<img:gh.png>" as GitHub\nGitHub ->> B : push\n')
    done = CliRunner().invoke(main, ["import", str(path), "--from", "plantuml"])
    assert done.exit_code == 0, done.output
    assert "GitHub ->> B: push" in done.output
    assert "// PlantUML: <img:gh.png> (an image, which volley leaves out)" in done.output
    prose = CliRunner().invoke(main, ["import", "-", "--from", "plantuml"], input="hello world\n")
    assert prose.exit_code == 1
    assert "not a PlantUML diagram" in prose.output


def test_a_notes_sql_keeps_its_subquerys_indent() -> None:
    """Mojaloop's timeout handler (seq-bulk-3.1.1) writes SQL in its notes, a subquery's
    lines indented under its JOIN, which PlantUML draws indented: they started at the left."""
    source = uml(
        "A -> B : q",
        "hnote over B",
        "SELECT *",
        "FROM (SELECT id",
        "      FROM **t**",
        "      WHERE x > 1) s",
        "WHERE s.id = 2",
        "end note",
    )
    six = "&nbsp;" * 6
    assert notes(source) == [
        f"SELECT \\*<br>FROM (SELECT id<br>{six}FROM **t**<br>{six}WHERE x > 1) s<br>WHERE s.id = 2"
    ]
    # a tab is one column, as PlantUML strips the columns a note's lines share
    mixed = uml("A -> B : q", "note over B", "\tfirst", "  second", "end note")
    assert notes(mixed) == ["first<br>&nbsp;second"]


def test_indented_json_in_a_note_keeps_its_indentation_in_a_code_block() -> None:
    source = uml(
        "A -> B : POST /transfers",
        "note left",
        "    PUT /parties",
        "    {",
        '        "party": {',
        '            "id": "42"',
        "        }",
        "    }",
        "end note",
        "note over A",
        "  flat words",
        "    indented words",
        "end note",
        "note over B",
        "Steps:",
        "  the client sends its token",
        "end note",
        "note over B",
        "return {",
        "    hasDuplicateId: Boolean,",
        "    count = 1",
        "}",
        "end note",
        "note over A",
        "header",
        "  source: payerDFSP",
        "file dir:",
        "\t/tmp/agent/files",
        "end note",
        "note over B",
        "{",
        '  "state": "**WAITING**",',
        '  "id": 1,',
        "}",
        "end note",
        "note over A",
        "Condition:",
        "    isActive = 1",
        "    [endpointTypeId = <type>]",
        "end note",
    )
    found = notes(source)
    assert found[0] == (
        'PUT /parties\n```json\n{\n    "party": {\n        "id": "42"\n    }\n}\n```'
    )
    # prose: its lines, broken and indented as drawn (PlantUML keeps a line's leading blanks)
    assert found[1] == "flat words<br>&nbsp;&nbsp;indented words"
    assert found[2] == "Steps:<br>&nbsp;&nbsp;the client sends its token"  # under a heading too
    # data with bare keys, and lines laid out as data, keep their indentation too
    assert found[3] == "```\nreturn {\n    hasDuplicateId: Boolean,\n    count = 1\n}\n```"
    assert found[4] == "```\nheader\n  source: payerDFSP\nfile dir:\n    /tmp/agent/files\n```"
    # a star in a string is the string's: the data, not quite JSON, is still data
    assert found[5] == '```\n{\n  "state": "**WAITING**",\n  "id": 1,\n}\n```'
    # a row in brackets is a row of data (Mojaloop's `[endpointTypeId = <type>]`)
    assert found[6] == "```\nCondition:\n    isActive = 1\n    [endpointTypeId = <type>]\n```"
    assert (
        "// PlantUML: indented data in a note (volley keeps its indentation in a code "
        "block)" in imported(source)
    )


def test_data_in_a_note_among_words_keeps_its_indentation_each_piece_in_its_block() -> None:
    """JSON followed by words was flattened to escaped text, without a comment; data opened
    after a word (`job {`) split into text and a block marked json that was not JSON."""
    source = uml(
        "A -> B : respond",
        "note over B",
        "Returns a message",
        "{",
        '  "@type": "Msg",',
        '  "list": ["x"]',
        "}",
        "the list may hold more",
        "end note",
        "note left",
        "    job {",
        '       "jobId": "b5"',
        "    }",
        "    submodels: [",
        "        {",
        '            "impacted": "YES"',
        "        }",
        "    ]",
        "end note",
    )
    first, second = notes(source)
    assert first == (
        'Returns a message\n```json\n{\n  "@type": "Msg",\n  "list": ["x"]\n}\n```\n'
        "the list may hold more"
    )
    assert second == (
        '```\njob {\n   "jobId": "b5"\n}\n```\n```\nsubmodels: [\n    {\n'
        '        "impacted": "YES"\n    }\n]\n```'
    )


def test_a_letter_after_an_arrow_is_a_name_unless_a_name_follows_it() -> None:
    source = uml("A->X", "A->X : hi", "A ->x B : lost", "X<- A : back", "A ->o]")
    assert [m[:4] for m in messages(source)] == [
        ("A", "X", "->", ""),
        ("A", "X", "->", "hi"),
        ("A", "B", "-x", "lost"),
        ("X", "A", "<-", "back"),
    ]


def test_a_return_to_an_arrow_from_the_edge_goes_back_to_the_edge() -> None:
    source = uml(
        "Alice -> Bob : hello",
        "[-> Bob ++ : request",
        "Bob -> Carol : work",
        "return done",
        "-> Carol : again",
        "activate Carol",
        "return",
    )
    text = imported(source)
    diagram = parse(text)
    assert [(m.sender, m.receiver) for m in diagram.messages()] == [
        ("Alice", "Bob"),
        ("Bob", "Carol"),
    ]
    assert [(a.participant, a.on) for a in walk(diagram.items) if isinstance(a, Activation)] == [
        ("Bob", True),
        ("Bob", False),
        ("Carol", True),
        ("Carol", False),
    ]
    assert "// PlantUML: return done (an arrow from or to the diagram's edge" in text
    assert "note left of Bob: ← done\n" in text


@pytest.mark.parametrize(
    ("arrow", "side"), [("]-> Bob ++", "right"), ("Bob ->] ++", "right"), ("[<- Bob ++", "left")]
)
def test_a_return_to_an_arrow_from_the_edge_is_noted_on_that_edge_side(arrow: str, side: str):
    """A `return` answering an arrow from the right edge goes back to the right edge."""
    text = imported(uml("Alice -> Bob : hello", f"{arrow} : request", "return done"))
    glyph = "← done" if side == "left" else "done →"
    assert f"note {side} of Bob: {glyph}\n" in text
    assert text.count(f"note {side} of Bob:") == 2


def test_an_escaped_backslash_is_no_line_break() -> None:
    source = uml("A -> B : path C:\\\\logs\\\\run.txt", "A -> B : one\\ntwo")
    assert [m[3] for m in messages(source)] == ["path C:\\\\logs\\\\run.txt", "one\\ntwo"]


def test_only_the_preprocessors_own_words_are_its_lines() -> None:
    source = uml(
        "!function $double($a) !return $a + $a",
        "Alice -> Bob : hi",
        "note over Alice",
        "!!! Important: keep this line",
        "end note",
    )
    assert notes(source) == ["!!! Important: keep this line"]
    assert "(a function, which volley does not run)" in imported(source)


def test_marks_on_a_reversed_arrow_act_on_the_participant_it_points_to() -> None:
    source = uml(
        "Bob <- Alice ++ : call",
        "return ok",
        "X -> A : one",
        "activate A",
        "A -> B",
        "activate C",
        "return r",
    )
    found = [
        (m.sender, m.receiver, m.arrow, m.activate) for m in parse(imported(source)).messages()
    ]
    assert found[:2] == [("Bob", "Alice", "<-", "+"), ("Bob", "Alice", "-->", "-")]
    # `activate C` after a message that does not name C answers nothing: the return goes to X
    assert found[-1] == ("A", "X", "-->", "-")


def test_creole_in_a_note_is_never_taken_for_json() -> None:
    source = uml(
        "A -> B : x",
        "note over A",
        "<b>Steps</b>",
        "    * first",
        "    * second",
        "<i>then reply</i>",
        "end note",
        "note over B",
        "[[https://example.com docs]]",
        "  indented",
        "[[https://example.com more]]",
        "end note",
    )
    first, second = notes(source)
    assert first.startswith("**Steps**\n- first\n- second")
    assert "```" not in first + second


def test_a_skin_in_ipml_is_read(tmp_path: Path) -> None:
    """W3C's payment flows include `PaymentFlows/skin.ipml`, whose first line numbers the
    steps; `.ipml`, `.pml` and `.skin` files are PlantUML's too (it was refused, and every
    number lost)."""
    (tmp_path / "skin.ipml").write_text("autonumber\nskinparam monochrome true\n")
    diagram = tmp_path / "flow.puml"
    diagram.write_text(uml("!include skin.ipml", "A -> B : one", "B -> A : two"))
    [result] = convert(diagram.read_text(), str(diagram))
    assert [m.number for m in parse(result.text).messages()] == [1, 2]
    assert [w.severity for w in result.warnings] == ["note"]  # the skinparam, a comment


def test_a_style_file_included_is_one_comment_not_dozens(tmp_path: Path) -> None:
    """A style file of skinparams, variables and comments (EDC's, DCP's) was copied into each
    diagram as 60-70 comment lines: one counts them. A file holding what volley draws
    otherwise than PlantUML keeps its comments, as the diagram's own lines do."""
    (tmp_path / "style.puml").write_text(
        "' the project's colours\n!$blue = \"#066DFA\"\nskinparam sequence {\nArrowColor Black\n}\n"
        + "".join(f"skinparam Color{n} $blue\n" for n in range(10))
        + "hide footbox\n"
    )
    (tmp_path / "actors.puml").write_text(
        "participant API #red\n" + "".join(f"skinparam Color{n} red\n" for n in range(10))
    )
    diagram = tmp_path / "flow.puml"
    diagram.write_text(uml("!include style.puml", "!include actors.puml", "A -> API : go"))
    [result] = convert(diagram.read_text(), str(diagram))
    said = "// PlantUML: 16 lines of what it includes set how the diagram looks, or are comments"
    assert said in result.text and result.text.count("// PlantUML: skinparam Color") == 10
    assert "// PlantUML: #red on API" in result.text
    assert [m.label for m in parse(result.text).messages()] == ["go"]


def test_an_include_a_style_file_names_and_volley_cannot_read_is_said_whole(
    tmp_path: Path,
) -> None:
    """A style file's missing include and its procedure were counted among its settings: the
    output no longer named the file missing, and the warning spoke of the style file."""
    (tmp_path / "style.puml").write_text(
        "!include missing_helpers.iuml\n!procedure $bold($x)\n<b>$x</b>\n!endprocedure\n"
        + "".join(f"skinparam Color{n} red\n" for n in range(6))
    )
    diagram = tmp_path / "flow.puml"
    diagram.write_text(uml("!include style.puml", "A -> B : go"))
    [result] = convert(diagram.read_text(), str(diagram))
    assert "!include missing_helpers.iuml (volley cannot read it" in result.text
    assert "lines of what it includes" not in result.text
    (warning,) = [w for w in result.warnings if "not read" in w.message]
    assert warning.message.startswith("!include missing_helpers.iuml, in the file this includes")


def test_an_include_is_read_from_the_file_beside_the_diagram(tmp_path: Path) -> None:
    (tmp_path / "common").mkdir()
    (tmp_path / "common" / "actors.iuml").write_text(
        "@startuml\n"
        'participant "Payer FSP" as P\n'
        "!include style.iuml\n"  # beside actors.iuml, the file that names it
        '!$amount = "100"\n'
        "@enduml\n"
    )
    (tmp_path / "common" / "style.iuml").write_text("skinparam monochrome true\n")
    (tmp_path / "once.iuml").write_text("S -> P : once\n")
    diagram = tmp_path / "flow.puml"
    diagram.write_text(
        uml(
            "!include common/actors.iuml",
            "!include common/actors.iuml",  # a second time: nothing (PlantUML's !include)
            "!include_many once.iuml",
            "!include_many once.iuml",
            "!include missing.iuml",
            "!include <C4/C4_Sequence>",
            "P -> S : pay $amount",
        )
    )
    [result] = convert(diagram.read_text(), str(diagram))
    parsed = parse(result.text)
    assert parsed.labels == {"P": "Payer FSP"}
    assert [m.label for m in parsed.messages()] == ["once", "once", "pay 100"]
    assert "// PlantUML: skinparam monochrome true" in result.text
    said = "// PlantUML: !include missing.iuml (volley cannot read it: there is no such file)"
    assert said in result.text
    assert (
        "// PlantUML: !include <C4/C4_Sequence> (PlantUML's standard library, which volley "
        "does not have)"
    ) in result.text
    # the same text from standard input (or sent to the server) reads no file
    [piped] = convert(diagram.read_text(), None)
    assert "(a file volley reads only when it imports a diagram from a file)" in piped.text


def test_an_include_reads_only_the_diagrams_own_plantuml_files(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Importing a .puml someone else wrote (a pull request, a CI job) read any file: an
    include in a note copied a `.env` into the written text, and an error quoted
    `/proc/self/environ` whole."""
    project, outside = tmp_path / "project", tmp_path / "outside"
    (project / "docs").mkdir(parents=True)
    outside.mkdir()
    (outside / "dot.env").write_text("MYSECRET=Z9LEAKEDzz\n")
    (project / ".env").write_text("MYSECRET=Z9LEAKEDzz\n")
    (project / "docs" / "ok.iuml").write_text("A -> B : included\n")
    diagram = project / "docs" / "flow.puml"
    diagram.write_text(
        uml(
            "note over A",
            "!include ../../outside/dot.env",
            "!include ../.env",
            "!include /proc/self/environ",
            "end note",
            "!include ok.iuml",
        )
    )
    monkeypatch.chdir(project)
    [result] = convert(diagram.read_text(), str(diagram))
    assert "Z9LEAKED" not in result.text and "PATH=" not in result.text
    assert [m.label for m in parse(result.text).messages()] == ["included"]
    assert result.text.count("(volley reads only") == 3


def test_a_file_included_once_may_not_be_included_again(tmp_path: Path) -> None:
    (tmp_path / "a.iuml").write_text("!include_once a.iuml\nA -> B : x\n")
    diagram = tmp_path / "flow.puml"
    diagram.write_text(uml("A -> B : first", "!include_once a.iuml"))
    with pytest.raises(VolleyErrors) as caught:
        convert(diagram.read_text(), str(diagram))
    assert [e.message for e in caught.value.errors] == ["a.iuml is included a second time"]


def test_destroy_ends_the_bars_open_on_its_participant_and_a_title_keeps_its_lines() -> None:
    source = uml(
        "title",
        " **Access**",
        " second line",
        "end title",
        "A -> B ++ : go",
        "B -> C ++ : x",
        "destroy C",
        "B -> D ++ : y",
        "B -> D !! : kill",
    )
    diagram = parse(imported(source))
    assert diagram.title == "**Access**\\nsecond line"
    bars = [(a.participant, a.on) for a in walk(diagram.items) if isinstance(a, Activation)]
    assert bars == [("C", False), ("D", False)]  # after each's message marked +


def test_json_after_a_line_that_would_end_a_note_stays_in_the_notes_lines() -> None:
    """A note with a fenced block is written over lines; a line of it that reads as a message
    would end it there, so such a note keeps its lines as text (on one line, with breaks)."""
    source = uml(
        "A -> B : x", "note over A", "first", "A -> B : hi", "{", '  "a": 1', "}", "end note"
    )
    [note] = notes(source)
    assert note.split("<br>")[:2] == ["first", "A -> B : hi"]  # its lines, by hard breaks
    assert "```" not in note


def test_a_second_return_to_the_edge_ends_no_bar() -> None:
    source = uml("[-> A : in", "activate A", "return out", "return again")
    text = imported(source)
    assert [
        (a.participant, a.on) for a in walk(parse(text).items) if isinstance(a, Activation)
    ] == [
        ("A", True),
        ("A", False),
    ]
    assert text.count("(an arrow from or to the diagram's edge") == 3


def test_openiconic_icons_are_drawn_as_font_awesomes_like_them() -> None:
    source = uml(
        "A -> B : <&check> done",
        "note over A: <&star> starred <&no-such-icon>",
        "A -> B : <&lock-locked{scale=2}>",
    )
    assert [m[3] for m in messages(source)] == ["{fas-check} done", "{fas-lock}"]
    assert notes(source) == ["{fas-star} starred"]
    assert "// PlantUML: <&no-such-icon> (an icon volley has no match for, left out)" in imported(
        source
    )


def test_every_openiconic_match_is_an_icon_volley_draws() -> None:
    from volley.importers.openiconic import FONT_AWESOME
    from volley.text.icons import resolve_icon
    from volley.text.inline import IconRef

    missing = [name for name in FONT_AWESOME.values() if resolve_icon(IconRef("fas", name)) is None]
    assert missing == []


def test_includes_from_the_late_review(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "body.iuml").write_text("A -> B : from the include\n")
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "more.iuml").write_text("B -> A : by a variable's path\n")
    diagram = tmp_path / "flow.puml"
    diagram.write_text(
        uml(
            "!include body.iuml",  # a diagram all in its includes is one
            '!$dir = "sub"',
            "!include $dir/more.iuml",
            "!include https://example.com/x.iuml",
        )
    )
    [result] = convert(diagram.read_text(), str(diagram))
    assert [m.label for m in parse(result.text).messages()] == [
        "from the include",
        "by a variable's path",
    ]
    assert "(a file on the web, which volley does not fetch)" in result.text
    [web] = [w for w in result.warnings if "on the web" in w.message]  # what may be missing
    assert web.message.endswith("a participant, a procedure) is missing from the diagram")
    # a name standing for standard input reads no file, even one that has the name
    monkeypatch.chdir(tmp_path)
    (tmp_path / "<stdin>").write_text(diagram.read_text())
    with pytest.raises(VolleyError, match="no PlantUML sequence diagram here"):
        convert(diagram.read_text(), "<stdin>")


def test_return_after_destroy_and_to_the_edge_from_the_late_review() -> None:
    source = uml("A -> B ++ : call", "B -> C : work", "destroy B", "return done")
    found = [
        (m.sender, m.receiver, m.arrow, m.activate) for m in parse(imported(source)).messages()
    ]
    assert found[-1] == ("B", "A", "-->", None)  # the call answered; B's bar ended at destroy
    source = uml("A ->] ++ : out", "return back")
    bars = [
        (a.participant, a.on)
        for a in walk(parse(imported(source)).items)
        if isinstance(a, Activation)
    ]
    assert bars == [("A", True), ("A", False)]


def test_notes_from_the_late_review() -> None:
    source = uml(
        "A -> B : x",
        "note over A",
        "first",
        "__end__",  # `end` once its underline is gone: no fenced note, or it would end it
        "{",
        '  "a": 1',
        "}",
        "end note",
        "note over B",
        "Steps:",
        "[",
        '  "login": **first**',
        "  * then <color:red>pay</color>",
        "]",
        "end note",
        "A -> B : <&check*2> <&x,color=red>",
    )
    first, second = notes(source)
    assert "```" not in first + second
    assert messages(source)[-1][3] == "{fas-check} {fas-xmark}"


def test_icons_inside_styles_and_links_are_drawn_too() -> None:
    source = uml("A -> B : **<&check> ok** and [[http://x <&star> docs]]")
    assert messages(source)[0][3] == "**{fas-check} ok** and [{fas-star} docs](http://x)"


def test_a_comment_left_open_in_an_included_file_ends_with_that_file(tmp_path: Path) -> None:
    """PlantUML reads each file on its own: an unclosed `/'` takes the rest of its file only."""
    (tmp_path / "lib.iuml").write_text("participant Lib\n/' this comment\nnever ends\n")
    diagram = tmp_path / "flow.puml"
    diagram.write_text(uml("!include lib.iuml", "A -> B : after the include", "/' open"))
    [result] = convert(diagram.read_text(), str(diagram))
    assert [m.label for m in parse(result.text).messages()] == ["after the include"]
    assert "// never ends" in result.text


def test_a_bar_ended_after_a_left_arrow_keeps_its_arrow_solid() -> None:
    """`Alice <- Bob --` ends Bob's bar: written `Alice <- - Bob` (glued, `<--` would read as
    a dashed arrow with no mark, and the bar would never end)."""
    source = uml("Alice -> Bob ++ : call", "Alice <- Bob -- : answer", "Alice -> Bob : next")
    answer = parse(imported(source)).messages()[1]
    assert (answer.arrow, answer.activate) == ("<-", "-")
    assert "Alice <- - Bob: answer" in imported(source)


def test_a_colour_right_after_a_left_head_is_part_of_the_arrow() -> None:
    """PlantUML's arrow body is dashes, a style, dashes, either side optional but one
    (CommandArrow): `A <[#red]- B` and `[<[#red]- B` are arrows, as `A -[#red]> B` is."""
    source = uml("Alice <[#red]- Bob : hello", "[<[#red]- Bob : leaves", "[-[#red]> Alice : in")
    assert [m[:3] for m in messages(source)] == [("Alice", "Bob", "<-")]
    assert imported(source).count("(an arrow from or to the diagram's edge") == 2


def test_a_frame_parallel_to_the_message_before_is_drawn_below_it() -> None:
    """teoz's `& opt …` (CommandGrouping's PARALLEL): a frame beside the message before."""
    source = uml("Alice -> Bob : hello", "& opt in parallel", "  Bob -> Carol : hi", "end")
    (block,) = [item for item in parse(imported(source)).items if isinstance(item, Block)]
    assert (block.kind, block.branches[0].label) == ("opt", "in parallel")
    assert "& (volley draws this frame below the message before it)" in imported(source)


def test_creoles_strike_tags_close_one_another_and_characters_by_code_are_read() -> None:
    """`<s:red>x</strike>` (plantuml.com's own example), `<del>`…; `<U+0025>` and `&#37;` are
    a per cent sign."""
    source = uml(
        "A -> B : a <s:red>struck</strike> word",
        "A -> B : <del>gone</del> and <U+0025> &#37; &#x25; &#99999999;",
    )
    assert [m[3] for m in messages(source)] == [
        "a ~~struck~~ word",
        "~~gone~~ and % % % \\&#99999999;",
    ]
    # a character by its code is text, never markup, a line break or a hidden control
    source = uml(
        "Alice -> Bob : hi&#10;Mallory -> Bob : injected",
        "Alice -> Bob : &#60;b&#62;x&#60;/b&#62; &#42;&#42;y&#42;&#42; &#8238;z",
    )
    diagram = parse(imported(source))
    assert diagram.participants == ["Alice", "Bob"]
    assert [m.label for m in diagram.messages()][1] == "\\<b>x\\</b> \\*\\*y\\*\\* \\&#8238;z"


def test_hide_unlinked_keeps_lanes_an_edge_arrow_or_a_bar_links() -> None:
    source = uml(
        "hide unlinked", "participant A", "participant B", "participant C", "participant D",
        "[-> A : in", "activate B", "C -> C : self",
    )  # fmt: skip
    assert parse(imported(source)).participants == ["A", "B", "C"]


def test_autoactivate_takes_a_cross_at_the_senders_end_for_no_lost_message() -> None:
    source = uml("autoactivate on", "A x-> B : sent", "B x- A : lost", "== [<-] ==")
    found = [
        (m.sender, m.receiver, m.arrow, m.activate) for m in parse(imported(source)).messages()
    ]
    assert found == [("A", "B", "x->", "+"), ("B", "A", "x-", None)]
    last = parse(imported(source)).items[-1]  # a divider holding an arrow's brackets stays one
    assert type(last).__name__ == "Divider" and last.label == "\\[\\<-\\]"


def test_hide_unlinked_leaves_out_the_lanes_no_message_links() -> None:
    source = uml(
        "hide unlinked",
        "box Team",
        "participant Alice",
        'participant "Carol C" as Carol',
        "end box",
        "participant Bob",
        "Alice -> Bob : hello",
    )
    diagram = parse(imported(source))
    assert diagram.participants == ["Alice", "Bob"] and "Carol" not in diagram.labels
    assert [box.participants for box in diagram.boxes] == [["Alice"]]


def test_a_style_inside_another_is_drawn_as_written() -> None:
    """plantuml.com's own example: `**bold <s:red>Alice</strike> Bob**` (the inner tags were
    shown as text)."""
    source = uml(
        "Alice -> Bob : This is **bold <s:red>Alice</strike> Bob** text",
        "Alice -> Bob : <b>a <i>b</i> c</b>",
    )
    assert [m[3] for m in messages(source)] == [
        "This is **bold ~~Alice~~ Bob** text",
        "**a *b* c**",
    ]
