"""`volley import` of PlantUML sequence diagrams: what each statement becomes, what is kept as
a comment, what is refused and how, and the real diagrams of tests/cases/plantuml/ (each file
naming its source and licence), every message of which arrives with its ends and its words."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from volley.api import check
from volley.cli import main
from volley.errors import VolleyError, VolleyErrors
from volley.importers import PartlyImported, convert, detect, recognise
from volley.language.parser import parse
from volley.language.writer import format_text
from volley.model import Activation, Block, Box, Divider, Message, Note, walk
from volley.text.inline import plain_text

CASES = Path(__file__).resolve().parent / "cases" / "plantuml"


def imported(source: str) -> str:
    """The import's text, which is already as `volley fmt` writes it."""
    [diagram] = convert(source, "flow.puml")
    assert format_text(diagram.text) == diagram.text
    return diagram.text


def read(source: str):
    """The diagram volley reads from the imported text (which must parse)."""
    return parse(imported(source))


def messages(source: str) -> list[tuple[str, str, str, str]]:
    return [(m.sender, m.receiver, m.arrow, m.label) for m in read(source).messages()]


def ends(diagram) -> list[tuple[str, str]]:
    """Each message's sender and receiver, in order."""
    return [(m.sender, m.receiver) for m in diagram.messages()]


def uml(*lines: str) -> str:
    return "\n".join(["@startuml", *lines, "@enduml"]) + "\n"


def test_a_plantuml_file_is_told_from_its_first_statement() -> None:
    assert detect(uml("A -> B : hi")).name == "plantuml"
    assert detect("' a comment first\n" + uml("A -> B")).name == "plantuml"
    page = "# Design\n\n```plantuml\n@startuml\nA -> B : hi\n@enduml\n```\n"
    assert detect(page).name == "plantuml"


@pytest.mark.parametrize(
    ("arrow", "volley_arrow"),
    [
        ("->", "->"),
        ("-->", "-->"),
        ("->>", "->>"),
        ("-->>", "-->>"),
        ("<-", "<-"),
        ("<--", "<--"),
        ("<<--", "<<--"),
        ("<->", "<->"),
        ("<-->", "<-->"),
        ("->x", "-x"),
        ("-->x", "--x"),
        ("-[#red]>", "->"),
        ("-[#blue,dashed]>", "-->"),
        ("-[bold]>", "->"),  # PlantUML draws bold no bolder
        ("-\\", "->"),
        ("-\\\\", "->>"),
        ("->o", "->"),
    ],
)
def test_every_arrow_becomes_the_volley_arrow_drawn_the_same_way(
    arrow: str, volley_arrow: str
) -> None:
    assert messages(uml(f"Alice {arrow} Bob : hello")) == [("Alice", "Bob", volley_arrow, "hello")]


def test_what_an_arrow_carries_that_volley_draws_otherwise_is_said_in_a_comment() -> None:
    text = imported(uml("Alice -[#red]> Bob : a", "Alice ->o Bob : b", "Alice -\\ Bob : c"))
    assert "// PlantUML: [#red] on the arrow" in text
    assert "// PlantUML: a circle at the arrow's end" in text
    assert "// PlantUML: a half arrowhead" in text


def test_names_are_written_without_spaces_or_quoted_and_a_display_name_is_the_lanes_label() -> None:
    source = uml(
        'participant "Web App" as W',
        'participant DB as "The Database"',
        "actor User",
        "User -> W : login",
        "W -> DB",
        '"Web App" -> "API Gateway" : forward',
    )
    diagram = read(source)
    assert diagram.labels == {"W": "Web App", "DB": "The Database"}
    assert ends(diagram) == [
        ("User", "W"),
        ("W", "DB"),
        ("Web App", "API Gateway"),
    ]
    assert diagram.participants[:3] == ["W", "DB", "User"]  # declared order
    assert "// PlantUML: actor User (volley draws every participant as a box)" in imported(source)


def test_a_quoted_name_volley_writes_otherwise_gets_a_lane_that_shows_it_as_written() -> None:
    """`A -> "api:8080"` draws a participant named api:8080; a colon ends a volley name."""
    source = uml(
        'A -> "api:8080" : call',
        '"api:8080" -> "a, b" : fan out',
        'participant "x:y"',
        "box Edge",
        'participant "edge:1"',
        "end box",
        'A -> "x y" : a name like one made',
    )
    diagram = read(source)
    assert diagram.participants == ["A", "api 8080", "a b", "x y", "edge 1", "x y 2"]
    assert diagram.labels == {
        "api 8080": "api:8080",
        "a b": "a, b",
        "x y": "x:y",
        "edge 1": "edge:1",
        "x y 2": "x y",  # the lane of the name written as it is, still shown as written
    }
    assert ends(diagram) == [("A", "api 8080"), ("api 8080", "a b"), ("A", "x y 2")]
    assert diagram.boxes[0].participants == ["edge 1"]


def test_a_display_name_with_line_breaks_keeps_them() -> None:
    diagram = read(uml('participant "Management Cluster\\nController" as C', "C -> C : go"))
    assert diagram.labels == {"C": "Management Cluster<br/>Controller"}


def test_message_text_keeps_its_line_breaks_and_creole_becomes_volley_markup() -> None:
    source = uml(
        "A -> B : first\\nsecond",
        'A -> B : **bold** //italic// ""code"" --gone-- <b>tag</b>',
        "A -> B : see https://example.com//path and a_b*c",
    )
    labels = [m.label for m in read(source).messages()]
    assert labels[0] == "first\\nsecond"
    assert labels[1] == "**bold** *italic* `code` ~~gone~~ **tag**"
    assert plain_text(labels[2]) == "see https://example.com//path and a_b*c"


def test_creole_links_become_volley_links_one_before_an_arrows_words_too() -> None:
    """PlantUML 1.2025 shows `[[url]]` before a message's words as the address, a link (it
    was left out, said to be a link on the arrow)."""
    source = uml(
        "actor Alice [[https://example.com/alice]]",
        "Alice -> B : [[https://example.com/call{a tooltip}]] call",
        "Alice -> B : see [[https://plantuml.com/sequence-diagram the docs]] or [[http://a.b/c]]",
        "note over B : [[https://example.com/n{tip} the spec]]",
    )
    diagram = read(source)
    assert diagram.participants == ["Alice", "B"]
    assert [m.label for m in diagram.messages()] == [
        "[https://example.com/call](https://example.com/call) call",
        "see [the docs](https://plantuml.com/sequence-diagram) or [http://a.b/c](http://a.b/c)",
    ]
    [note] = [item for item in diagram.items if isinstance(item, Note)]
    assert note.text == "[the spec](https://example.com/n)"
    text = imported(source)
    assert "// PlantUML: [[https://example.com/alice]] on Alice" in text
    assert "a link on the arrow" not in text


def test_a_link_or_stereotype_before_the_text_and_decorations_without_a_space_are_comments() -> (
    None
):
    source = uml(
        "participant Bob<<Service>>",
        "participant Alice#lightblue;line:red;line.bold",
        'box "Internal" <<cluster>> #LightBlue',
        "participant C",
        "end box",
        "Bob -> Alice [[https://example.com/call]] : hello",
        "Alice -> C <<async>> : later",
        "note over Alice #pink;line:red [[https://example.com/n]] : see",
        "ref over Bob, C [[https://example.com/r]] : other",
    )
    diagram = read(source)
    assert diagram.participants == ["Bob", "Alice", "C"]
    assert [(m.sender, m.receiver, m.label) for m in diagram.messages()] == [
        ("Bob", "Alice", "hello"),
        ("Alice", "C", "later"),
    ]
    assert [(n.over, plain_text(n.text)) for n in diagram.items if isinstance(n, Note)] == [
        (["Alice"], "see"),
        (["Bob", "Alice", "C"], "ref: other"),
    ]
    assert diagram.boxes[0].label == "Internal"
    text = imported(source)
    for said in (
        "// PlantUML: <<Service>> on Bob",
        "// PlantUML: #lightblue;line:red;line.bold on Alice",
        "// PlantUML: [[https://example.com/call]] (a link, which volley leaves out here)",
        "// PlantUML: <<async>> (a stereotype)",
        "// PlantUML: #pink;line:red (volley draws notes in the theme's colours)",
    ):
        assert said in text


def test_notes_over_beside_after_and_across_with_their_text() -> None:
    source = uml(
        "A -> B : call",
        "note left : after the call",
        "note over A : one",
        "note over A, C : spans",
        "note right of B",
        "  first line",
        "  second line",
        "end note",
        "hnote across : everyone",
        "B -> C",
    )
    notes = [item for item in read(source).items if isinstance(item, Note)]
    assert [(n.over, n.side, n.text) for n in notes] == [
        (["A", "B"], "over", "after the call"),
        (["A"], "over", "one"),
        (["A", "B", "C"], "over", "spans"),
        (["B"], "right", "first line<br>second line"),  # its hard break
        (["A", "B", "C"], "over", "everyone"),
    ]
    text = imported(source)
    assert "note right of B: first line<br>second line" in text
    assert "// PlantUML: hnote (volley draws every note the same)" in text


def test_a_note_top_or_bottom_is_on_the_message_before_it() -> None:
    source = uml(
        "A -> B : call",
        "note bottom",
        "  under the call",
        "end note",
        "B --> A : done",
        "note top : above the reply",
    )
    notes = [item for item in read(source).items if isinstance(item, Note)]
    assert [(n.over, n.text) for n in notes] == [
        (["A", "B"], "under the call"),
        (["A", "B"], "above the reply"),
    ]
    assert "// PlantUML: note top (volley puts it under the message)" in imported(source)


def test_a_note_on_the_last_message_of_a_frame_stays_in_the_frame() -> None:
    """PlantUML draws `note right` written after `end` beside the frame's last message, in the
    frame's last row (the W3C's PayPal flow), not under the frame."""
    source = uml(
        "opt paid",
        "  Payee -> Payer : notification",
        "else",
        "  alt email",
        "    Payee -> Payer : by email",
        "  end",
        "end",
        "note right : out of band",
        "Payer -> Payee : thanks",
        "note left : after a message",
    )
    [block] = [item for item in read(source).items if isinstance(item, Block)]
    [inner] = [item for item in block.branches[1].items if isinstance(item, Block)]
    on, note = inner.branches[0].items
    assert isinstance(note, Note) and note.text == "out of band"
    assert isinstance(on, Message) and on.label == "by email"
    assert [n.text for n in read(source).items if isinstance(n, Note)] == ["after a message"]


def test_notes_after_a_frames_end_on_its_last_message_all_stay_in_the_frame() -> None:
    """Two notes on the frame's last message, and a bar started after it, written before the
    `end`: PlantUML 1.2020 draws both notes beside the message, in the frame."""
    source = uml(
        "opt paid", "A -> B : n", "activate B", "end", "note left : one", "note right : two"
    )
    [block] = [item for item in read(source).items if isinstance(item, Block)]
    notes = [item.text for item in block.branches[0].items if isinstance(item, Note)]
    assert notes == ["one", "two"]


def test_plantuml_1_2020s_plus_and_minus_after_a_name_activate_and_end() -> None:
    """`A -> B+ : call` and `B --> A- : done` (Eclipse Hono's diagrams, drawn by PlantUML
    1.2019) are `++` and `--`; PlantUML 1.2026 refuses them, so they mean nothing else."""
    source = uml('Device -> "HTTP Adapter"+: 1.0 PUT', '"HTTP Adapter" --> Device-: 2.0 ok')
    assert (
        imported(source) == "Device ->+ HTTP Adapter: 1.0 PUT\nHTTP Adapter -->- Device: 2.0 ok\n"
    )
    assert messages(uml("A -> B+ : x", "B -> A- : y")) == [
        ("A", "B", "->", "x"),
        ("B", "A", "->", "y"),
    ]
    # a space before the mark, as 1.2020 took it too
    assert imported(uml("A -> B +: y", "B --> A - : z")) == "A ->+ B: y\nB -->- A: z\n"


def test_a_note_that_cannot_be_read_is_one_error_not_one_per_line_of_its_text() -> None:
    with pytest.raises(VolleyErrors) as caught:
        convert(
            uml(
                "A -> B : x",
                "note top of B",  # a class diagram's note
                "  words that are no statements",
                "end note",
                "note over",
                "  more words",
                "end note",
                "A -> B : y",
            ),
            "flow.puml",
        )
    assert [(e.line, e.message) for e in caught.value.errors] == [
        (3, "a note top of a participant is not a sequence diagram's (PlantUML refuses it too)"),
        (6, "expected the participant the note is over"),
    ]


def test_a_note_never_ended_is_an_error_at_its_line() -> None:
    with pytest.raises(VolleyError) as caught:
        convert(uml("A -> B", "note over A", "  never closed", "B -> A"), "flow.puml")
    (error,) = caught.value.errors  # the rest is its text: no errors of its own
    assert (error.line, error.column) == (3, 1)
    assert "never closed; expected end note" in error.message


def test_blocks_and_their_branches_nest_as_written() -> None:
    source = uml(
        "alt if the token is valid",
        "  A -> B : ok",
        "else expired",
        "  loop three times",
        "    A -> B : retry",
        "  end loop",
        "end",
        "par",
        "  A -> B : one",
        "else",
        "  A -> C : two",
        "end",
        "group Retries [in the background]",
        "  opt cached",
        "    A -> A : read",
        "  end",
        "end group",
        "critical login",
        "  A -> B",
        "else offline",
        "  A -> A",
        "end",
        "break failure",
        "  A -> C",
        "end",
    )
    blocks = [item for item in read(source).items if isinstance(item, Block)]
    assert [(b.kind, [plain_text(br.label) for br in b.branches]) for b in blocks] == [
        ("if", ["the token is valid", "expired"]),
        ("par", ["", ""]),
        ("group", ["Retries [in the background]"]),  # the second label, drawn beside the tab
        ("critical", ["login", "offline"]),
        ("break", ["failure"]),
    ]
    loop = blocks[0].branches[1].items[0]
    assert (
        isinstance(loop, Block) and loop.kind == "loop" and loop.branches[0].label == "three times"
    )


def test_else_in_a_frame_of_one_part_and_a_frame_left_open_read_as_plantuml_draws_them() -> None:
    """PlantUML parts any frame with else, and draws a diagram whose frame is never closed."""
    source = uml("opt if a key is set", "A -> B", "else", "A -> C", "end", "loop x", "A -> B")
    [result] = convert(source, "f.puml")
    diagram = parse(result.text)
    first, second = [item for item in diagram.items if isinstance(item, Block)]
    assert (first.kind, [b.label for b in first.branches]) == ("if", ["a key is set", ""])
    assert (second.kind, second.end_line > 0) == ("loop", True)
    assert "// PlantUML: opt with an else (volley draws it as an if frame" in result.text
    [warning] = [w for w in result.warnings if w.severity == "warning"]
    assert (warning.line, warning.message) == (
        7,
        "this loop is never closed; it ends at the end of the diagram (PlantUML draws its "
        "messages, no frame)",
    )


def test_sections_delays_and_spacing() -> None:
    source = uml(
        "A -> B", "== Verification ==", "...", "... 5 minutes later ...", "|||", "====", "B -> A"
    )  # fmt: skip
    dividers = [(d.style, d.label) for d in read(source).items if isinstance(d, Divider)]
    assert dividers == [
        ("bold", "Verification"),
        ("delay", ""),
        ("delay", "5 minutes later"),
        ("regular", ""),
    ]
    assert "// PlantUML: ||| (extra space" in imported(source)


def test_activations_marks_and_return_answer_the_caller() -> None:
    source = uml(
        "Client -> Server ++ : request",
        "Server -> DB : query",
        "activate DB",
        "DB --> Server : rows",
        "deactivate DB",
        "return done",
        "Client -> Worker : job",
        "activate Worker",
        "return",
    )
    diagram = read(source)
    found = [(m.sender, m.receiver, m.arrow, m.label, m.activate) for m in diagram.messages()]
    assert found == [
        ("Client", "Server", "->", "request", "+"),
        ("Server", "DB", "->", "query", None),
        ("DB", "Server", "-->", "rows", None),
        ("Server", "Client", "-->", "done", "-"),
        ("Client", "Worker", "->", "job", None),
        ("Worker", "Client", "-->", "", "-"),
    ]
    activations = [(a.participant, a.on) for a in walk(diagram.items) if isinstance(a, Activation)]
    assert activations == [("DB", True), ("DB", False), ("Worker", True)]


def test_return_with_nothing_open_answers_the_message_before_it() -> None:
    """PlantUML's CommandReturn turns the last message around when nothing is activated."""
    assert messages(uml("A -> B : x", "return y")) == [
        ("A", "B", "->", "x"),
        ("B", "A", "-->", "y"),
    ]
    with pytest.raises(VolleyError) as caught:
        convert(uml("participant A", "return y"), "flow.puml")
    assert caught.value.errors[0].line == 3
    assert "return with no message before it to answer" in caught.value.errors[0].message


def test_hidden_arrows_circles_at_the_start_return_colours_and_resumed_steps() -> None:
    source = uml(
        "autonumber",
        "A -[hidden]> B : never drawn",
        "A o-> B : a circle, no head, at the start",
        "A -> B ++ : call",
        "return #red done",
        "autonumber resume 5",
        "A -> B : four",
        "A -> B : nine",
    )
    diagram = read(source)
    assert [(m.arrow, plain_text(m.label), m.number) for m in diagram.messages()] == [
        ("->", "a circle, no head, at the start", 1),
        ("->", "call", 2),
        ("-->", "done", 3),
        ("->", "four", 4),
        ("->", "nine", 9),
    ]
    text = imported(source)
    for said in (
        "// PlantUML: A -[hidden]> B : never drawn (a hidden arrow, which PlantUML leaves undrawn)",
        "// PlantUML: a circle at the arrow's left end (volley draws none)",
        "// PlantUML: #red (volley draws its arrows in the theme's colours)",
    ):
        assert said in text


def test_text_blocks_and_style_sheets_are_no_statements() -> None:
    """A title's, a legend's or a lane's lines may hold any words (`Node service`); a style
    sheet is kept as comments, as skinparam is."""
    source = uml(
        "<style>",
        "sequenceDiagram { LineColor blue }",
        "</style>",
        "title",
        "Class loading sequence",
        "end title",
        "legend",
        "Component colours:",
        "endlegend",
        "participant P [",
        "Node service",
        "]",
        "P ---> P : dotted, three dashes",
    )
    assert messages(source) == [("P", "P", "-->", "dotted, three dashes")]
    text = imported(source)
    assert "// PlantUML: <style>" in text and "// sequenceDiagram { LineColor blue }" in text


def test_boxes_keep_their_participants_label_and_colour() -> None:
    source = uml(
        'box "Back end" #LightBlue',
        "participant API",
        "participant DB",
        "end box",
        "box #FFAAAA",
        "participant Cache",
        "end box",
        "Client -> API",
    )
    boxes = read(source).boxes
    assert [(b.label, b.tint, b.participants) for b in boxes] == [
        ("Back end", "LightBlue", ["API", "DB"]),
        ("", "#FFAAAA", ["Cache"]),
    ]
    assert isinstance(boxes[0], Box)


def test_autonumber_numbers_from_where_it_stands() -> None:
    source = uml(
        "A -> B : one", "autonumber 10 5", "A -> B : two", "B -> A : three", "autonumber stop",
        "A -> B",
    )  # fmt: skip
    assert [m.number for m in read(source).messages()] == [None, 10, 15, None]
    assert "autonumber off\nA -> B" in imported(source)


def test_autonumber_stop_and_resume_number_as_plantuml_does() -> None:
    """plantuml.com's example: the messages between `stop` and `resume` have no number, and
    the count goes on from where it stood (the next number, as counted before the stop), in a
    new step where `resume` gives one (PlantUML's AutoNumber), each in its format."""
    source = uml(
        'autonumber 10 10 "<b>[000]"', "Bob -> Alice : request", "Bob <- Alice : response",
        "autonumber stop", "Bob -> Alice : dummy",
        'autonumber resume "<font color=red><b>Message 0  "', "Bob -> Alice : again",
        "Bob <- Alice : answer", "autonumber stop", "Bob -> Alice : dummy",
        'autonumber resume 1 "<font color=blue><b>Message 0  "', "Bob -> Alice : once more",
        "Bob <- Alice : last", "autonumber 7", "Bob -> Alice : plain",
    )  # fmt: skip
    numbers = [m.number for m in read(source).messages()]
    assert [m.number for m in parse(imported(source)).messages()] == numbers
    # a format's words, brackets and zeros are written as PlantUML draws them, before the
    # message's words; a plain `autonumber` is volley's numbers again
    assert numbers == [None] * 8 + [7]
    assert [m.label for m in parse(imported(source)).messages()] == [
        "**\\[010\\]** request", "**\\[020\\]** response", "dummy",
        "**Message 30** again", "**Message 40** answer", "dummy",
        "**Message 50** once more", "**Message 51** last", "plain",
    ]  # fmt: skip


def test_an_autonumber_formats_colour_is_no_place_for_a_digit() -> None:
    """`<font color=#FF0000>[000]`: the colour's `#` was read as the number's place."""
    source = uml(
        'autonumber "<font color=#FF0000>[000]"', "A -> B : hello",
        'autonumber 1000 "<color:#00aa00><b>Step #,##0"', "A -> B : again",
        'autonumber "#,##0"', "A -> B : plain",
    )  # fmt: skip
    labels = [m.label for m in parse(imported(source)).messages()]
    assert labels == ["\\[001\\] hello", "**Step 1,000** again", "1 plain"]
    assert [m.number for m in parse(imported(source)).messages()] == [None, None, None]


def test_an_autonumber_formats_point_is_written_after_the_number_as_java_writes_it() -> None:
    """A real template's `"<b><color:DarkSlateBlue>.</color></b> "` drew `**.** 1 Business
    action` where PlantUML draws **1.** (Java's DecimalFormat: `.` is the number's point)."""
    source = uml(
        'autonumber "<b><color:DarkSlateBlue>.</color></b> "', "User -> Browser : action",
        'autonumber "<b>.</b>"', "A -> B : hello",
        'autonumber 7 "0.00"', "A -> B : cents",
        'autonumber 7 "#.#"', "A -> B : whole",
    )  # fmt: skip
    labels = [m.label for m in parse(imported(source)).messages()]
    assert labels == ["**1.** action", "**1.** hello", "7.00 cents", "7 whole"]


def test_autonumber_in_a_note_and_bold_with_spaces_inside_read_as_plantuml_draws_them():
    """plantuml.com's example: `** %autonumber% **` in a note is the number, in bold."""
    source = uml(
        "autonumber 10", "Alice -> Bob", "note right", "  Here, its value is ** %autonumber% **",
        "end note", "Bob --> Alice: response %autonumber%", "A -> B: value ** 42 **",
    )  # fmt: skip
    diagram = parse(imported(source))
    note = next(item for item in diagram.items if isinstance(item, Note))
    assert note.text == "Here, its value is  **10**"
    assert [m.label for m in diagram.messages()][1:] == ["response 11", "value  **42**"]


def test_activate_after_the_notes_on_a_message_starts_the_bar_at_that_message() -> None:
    """PlantUML's bar starts at the message before `activate B`, notes on it or not (gematik's
    and TF-A's diagrams): volley started it after the notes, so the message did not lead in."""
    source = uml(
        "A -> B: call", "note left: a note", "note right: another", "activate B",
        "B -> C: inner", "return done",
    )  # fmt: skip
    items = parse(imported(source)).items
    assert [type(item).__name__ for item in items] == [
        "Message", "Activation", "Note", "Note", "Message", "Message",
    ]  # fmt: skip
    assert all(isinstance(note, Note) and note.over == ["A", "B"] for note in items[2:4])


def test_startuml_again_inside_a_diagram_is_read_past_as_plantuml_reads_it() -> None:
    """plantuml.com's own example (web-42) writes @startuml and @enduml twice."""
    source = "@startuml\n@startuml\nalice -> bob: hello\nbob -> alice: you too\n@enduml\n@enduml\n"
    assert [m.label for m in parse(imported(source)).messages()] == ["hello", "you too"]


def test_an_image_in_a_title_is_said_to_be_left_out() -> None:
    source = uml("title", " Hosted by <img:logo.png>", "end title", "A -> B: hi")
    assert "// PlantUML: <img:logo.png> (an image, which volley leaves out)" in imported(source)


def test_creoles_tilde_shows_the_character_after_it_and_a_style_may_hold_spaces() -> None:
    source = uml("A -> B: ~**not bold~**", "B -> A: a -- b -- c", "A -> B: ~d and ~//x")
    labels = [m.label for m in parse(imported(source)).messages()]
    assert labels == ["\\*\\*not bold\\*\\*", "a  ~~b~~  c", "\\~d and //x"]
    assert [plain_text(label) for label in labels] == ["**not bold**", "a b c", "~d and //x"]


def test_a_tilde_in_a_links_address_and_private_use_characters_are_kept_as_written() -> None:
    source = uml(
        "A -> B : priv \ue0000\ue001 y", "A -> B : [[http://x.com/~_me/a~-b]] u1",
        "A -> B : [[http://x.com/~/x label]] u2",
    )  # fmt: skip
    labels = [m.label for m in parse(imported(source)).messages()]
    assert labels[0] == "priv \ue0000\ue001 y"
    assert labels[1].endswith("(http://x.com/~_me/a~-b) u1")
    assert labels[2] == "[label](http://x.com/~/x) u2"


def test_activations_after_the_notes_on_a_message_start_and_end_bars_at_that_message() -> None:
    """notes, then `deactivate B` and `activate A`: PlantUML ends B's bar and starts A's at
    the message before the notes; the comment on a note stays above it."""
    source = uml(
        "A -> B : call", "activate B", "B -> A : reply", "note left : n", "deactivate B",
        "activate A", "A -> C : next",
    )  # fmt: skip
    text = imported(source)
    assert "B -> A: reply\ndeactivate B\nactivate A\n// PlantUML: note left" in text


def test_startuml_again_after_statements_is_said_and_an_image_in_a_title_said_once() -> None:
    source = (
        "@startuml\ntitle My <img:logo.png> title\nA -> B : hi\n@startuml\nB -> C : two\n@enduml\n"
    )
    text = imported(source)
    assert text.count("<img:logo.png> (an image, which volley leaves out)") == 1
    assert "// PlantUML: @startuml (PlantUML draws only what follows; volley, all)" in text


def test_a_participants_words_are_shown_as_written_with_no_escapes() -> None:
    """A lane's label is drawn as written in volley (it has no markup): `user_service` and
    `<<task>>` showed their escapes' backslashes (`user\\_service`), as in Ankaios's diagram."""
    source = uml(
        'participant "user_service" as U', 'participant "<<task>>\\nWorkloadLoop" as L',
        'participant "a*b* [c] ~d" as X', "U -> L: start", "L -> X: go",
    )  # fmt: skip
    diagram = parse(imported(source))
    assert [diagram.shown_lines(name) for name in ("U", "L", "X")] == [
        ["user_service"],
        ["«task»", "WorkloadLoop"],
        ["a*b* [c] ~d"],
    ]


def test_autonumber_again_starts_a_new_count_from_one_in_steps_of_one() -> None:
    """PlantUML's `autonumber` sets the start and the step, 1 where not given; `resume 3`
    goes on with the count, in steps of 3."""
    source = uml(
        "autonumber 10 10", "A -> B : ten", "B -> A : twenty", "autonumber", "A -> B : one",
        "B -> A : two", "autonumber 3", "A -> B : three", "autonumber stop",
        "A -> B : unnumbered", "autonumber resume 3", "A -> B : four", "B -> A : seven",
    )  # fmt: skip
    numbers = [m.number for m in read(source).messages()]
    assert numbers == [10, 20, 1, 2, 3, None, 4, 7]
    assert parse(imported(source)).messages()[-1].number == 7


def test_the_look_of_the_page_is_kept_as_comments() -> None:
    source = uml(
        "skinparam monochrome true",
        "skinparam sequence {",
        "  ArrowColor DeepSkyBlue",
        "}",
        "hide footbox",
        "!theme plain",
        "title Login flow",
        "header",
        "  <font color=red>Draft</font>",
        "endheader",
        "legend right",
        "  Key",
        "end legend",
        "' a remark",
        "/' a block",
        "   remark '/",
        "A -> B",
    )
    text = imported(source)
    assert read(source).title == "Login flow"
    for kept in (
        "skinparam monochrome true",
        "ArrowColor DeepSkyBlue",
        "hide footbox",
        "!theme plain",
        "<font color=red>Draft</font>",
        "endheader",
        "Key",
    ):
        assert kept in text
    assert "// a remark" in text and "// a block" in text


def test_a_startuml_left_open_in_a_block_ends_with_the_block() -> None:
    """valkey's docs: a ```plantuml block without `@enduml` read on to the next diagram's
    `@enduml`, the page's heading and fences between as statements (three errors, and the
    next diagram lost)."""
    page = (
        "# Doc\n\n```plantuml\n@startuml\nA -> B : hi\n```\n\n### Next\n\n"
        "```plantuml\n@startuml\nA -> C : x\n@enduml\n```\n"
    )
    found = convert(page, "doc.md")
    assert [item.text for item in found] == ["A -> B: hi\n", "A -> C: x\n"]
    plain = page.replace("```plantuml", "```")  # as valkey writes them: blocks of no language
    assert [item.text for item in convert(plain, "doc.md")] == ["A -> B: hi\n", "A -> C: x\n"]


def test_an_empty_note_is_a_comment_not_an_empty_note_that_warns() -> None:
    """`note over X` then `end note` (hyperledger FPC): PlantUML draws an empty box; written
    as `note X:` it warned on every check of the imported file."""
    source = uml("A -> B : hi", "note over C", "end note", "B -> A : ok")
    diagram = read(source)
    assert not [item for item in diagram.items if isinstance(item, Note)]
    assert diagram.participants == ["A", "B", "C"]  # its lane, as PlantUML draws it
    assert "// PlantUML: note over C (an empty note, which volley leaves out)" in imported(source)
    assert check(imported(source)).warnings == []


def test_a_uml_directive_naming_a_file_says_to_import_that_file() -> None:
    """sphinxcontrib-plantuml's `.. uml:: flow.puml` draws a file of its own: a page of only
    those was "cannot tell what format this is"; beside inline diagrams, it was passed over
    in silence."""
    page = "Design\n======\n\n.. uml:: flows/login.puml\n   :caption: Login\n"
    with pytest.raises(VolleyError) as caught:
        convert(page, "docs/design.rst")
    assert caught.value.message == (
        "this page's PlantUML diagrams are files of their own, which its directives name: "
        "flows/login.puml"
    )
    assert (caught.value.line, caught.value.column) == (4, 1)
    assert caught.value.hint == "import each on its own: volley import docs/flows/login.puml"
    assert detect(page).name == "plantuml"
    mixed = convert(page + "\n.. uml::\n\n   A -> B : hi\n", "docs/design.rst")
    (warning,) = [w for item in mixed for w in item.warnings]
    assert warning.message.startswith("this directive draws flows/login.puml, a file of its own")


def test_create_with_a_declarations_words_declares_the_participant() -> None:
    """`create` is one more participant kind to PlantUML: with `as`, `order`, a colour or a
    stereotype after its name (hyperledger's FPC diagrams) it was refused."""
    source = uml(
        "A -> B : hi",
        'create "FPC_stub_enclave" as Enclave1 order 30 #99FF99',
        "B -> Enclave1 : new",
        "create E <<S>>",
        "create F",
        'create D as "Store"',  # (the last create's lane is the one the next message goes to)
        "B -> D : put",
    )
    diagram = read(source)
    assert diagram.labels == {"Enclave1": "FPC_stub_enclave", "D": "Store"}
    assert [(m.sender, m.receiver) for m in diagram.messages()] == [
        ("A", "B"),
        ("B", "Enclave1"),
        ("B", "D"),
    ]
    assert {"E", "F"} <= set(diagram.participants)


@pytest.mark.parametrize(
    "between",
    [[], ["note over A : first", "== later =="], ["alt ok"]],
    ids=["next", "after a note and a section", "inside a block"],
)
def test_the_message_after_a_create_goes_to_the_created_lane(between: list[str]) -> None:
    """PlantUML draws only an error for a `create X` whose next message does not go to X from
    another lane (a note, a section or a block may come between; an arrow at the edge on X's
    lane counts, either way): the import says so at that message, as the Mermaid importer
    does."""
    ends = ["end"] if between == ["alt ok"] else []
    for fine in ("A -> PG : x", "[-> PG : x", "PG <- A : x", "PG ->] : x"):
        assert read(uml("A -> B : 0", "create control PG", *between, fine, *ends))
    for refused in ("PG -> A : x", "PG -> PG : itself", "A ->] : x"):
        with pytest.raises(VolleyErrors) as caught:
            convert(uml("A -> B : 0", "create PG", *between, refused, *ends), "flow.puml")
        [error] = caught.value.errors
        assert error.line == 4 + len(between)
        assert str(error.message) == (
            "the message after create PG (line 3) must go to PG from another participant: it "
            "is the one that creates it (PlantUML refuses this too)"
        )


def test_a_block_comment_inside_a_statements_line_is_a_comment_not_its_words() -> None:
    """PlantUML removes a `/' … '/` that ends a line (from its last `/'`) or opens it: the
    words were drawn in the label, a declaration with one (PlantUML's own example) was
    refused, and a message after a leading one was lost."""
    source = uml(
        'participant "Long" as L #99FF99 /\' You can also declare: participant L as "Long" \'/',
        "A -> L : hi /' trailing '/",
        "return /'Admin2 -> Peer2_CLI'/",
        "/' lead '/ L -> A : kept",
    )
    assert [(m.sender, m.receiver, m.label) for m in read(source).messages()] == [
        ("A", "L", "hi"),
        ("L", "A", ""),
        ("L", "A", "kept"),
    ]
    text = imported(source)
    for said in ("// trailing", "// Admin2 -> Peer2_CLI", "// lead", "// You can also declare"):
        assert said in text


def test_a_statement_plantuml_sequence_diagrams_do_not_have_is_an_error_with_a_caret(
    tmp_path: Path,
) -> None:
    path = tmp_path / "flow.puml"
    path.write_text(uml("A -> B : hi", "A ~~> B : wavy"), encoding="utf-8")
    result = CliRunner().invoke(main, ["import", str(path)])
    assert result.exit_code == 1
    said = f"{path}:3:1: error: not a PlantUML sequence statement: 'A ~~> B : wavy'"
    assert said in result.output
    assert "  A ~~> B : wavy\n  ^" in result.output


def test_a_plantuml_file_refused_by_the_parser_imports_as_its_hint_says(tmp_path: Path) -> None:
    """`volley check` names `volley import` for a PlantUML file, and the import works."""
    path = tmp_path / "flow.volley"
    path.write_text(uml("actor User", "User -> API : login", "API --> User : token"), "utf-8")
    runner = CliRunner()
    checked = runner.invoke(main, ["check", str(path)])
    assert checked.exit_code == 1 and "this is PlantUML, not volley; volley import converts it" in (
        checked.output
    )
    out = tmp_path / "out.volley"
    done = runner.invoke(main, ["import", str(path), "-o", str(out)])
    assert done.exit_code == 0, done.output
    rendered = runner.invoke(main, ["render", str(out), "-o", str(tmp_path / "out.svg")])
    assert rendered.exit_code == 0, rendered.output
    assert "token" in (tmp_path / "out.svg").read_text(encoding="utf-8")


def test_every_diagram_of_a_markdown_page_imports_and_other_diagrams_are_left_out() -> None:
    page = "\n".join(
        [
            "# Design",
            "```plantuml",
            "@startuml",
            "A -> B : first",
            "@enduml",
            "```",
            "```plantuml",
            "@startuml",
            "start",
            ":an activity;",
            "stop",
            "@enduml",
            "```",
            "````puml",
            "@startuml",
            "B -> C : second",
            "@enduml",
            "````",
            "A block some renderers draw without @startuml:",
            "```plantuml",
            "C -> A : third",
            "```",
            "and one that ends with @enduml all the same:",
            "```plantuml",
            "A -> C : fourth",
            "@enduml",
            "```",
        ]
    )
    found = convert(page, "design.md")
    assert [(d.name, d.line) for d in found] == [
        ("design-1", 4),
        ("design-2", 16),
        ("design-3", 21),
        ("design-4", 25),
    ]
    assert [[m.label for m in parse(d.text).messages()] for d in found] == [
        ["first"],
        ["second"],
        ["third"],
        ["fourth"],
    ]


def test_a_page_with_no_sequence_diagram_is_refused_in_words() -> None:
    with pytest.raises(VolleyError) as caught:
        convert((CASES / "capi-bootstrap-activity-not-sequence.puml").read_text("utf-8"), "x.puml")
    assert "no PlantUML sequence diagram here" in str(caught.value)


# --- the real diagrams -----------------------------------------------------------------------

# A message as PlantUML writes it, read here on its own: a name (quoted or a word), an arrow
# of dashes with heads, a name, and the text after the first colon.
_NAME = r'"[^"]+"|[\w.]+'
# A style may stand before the arrow (`[#gray]--x`), a cross end it before a space; a line
# that ends in a backslash goes on on the next.
_WRITTEN_MESSAGE = re.compile(
    rf"[ \t]*(?P<a>{_NAME})[ \t]*(?:\[[^\]]*\])?"
    r"(?P<arrow>[<ox/\\]*-(?:\[[^\]]*\])?[^\s\w\"]*(?:x(?= ))?)[ \t]*"
    rf"(?P<b>{_NAME})[ \t]*(?:\+\+|--)*[ \t]*(?::(?P<text>.*))?$"
)


def words(text: str) -> str:
    """A message's words, without what marks a style or a sub- or superscript (`""`, `**`,
    `_{…}`)."""
    return " ".join(re.sub(r'""|\*\*|[_^{}]', "", text).split())


def written_messages(source: str) -> list[tuple[str, str, str]]:
    found = []
    for line in re.sub(r"\\\n", "", source).splitlines():
        match = _WRITTEN_MESSAGE.match(line)
        arrow = match["arrow"] if match else ""
        if not ("<" in arrow or ">" in arrow or arrow.endswith("x")):
            continue
        a, b = (match[side].strip('"') for side in ("a", "b"))
        if match["arrow"].startswith("<"):
            a, b = b, a  # the same two lanes; which way it goes is the arrow's
        text = (match["text"] or "").strip()
        text = re.sub(r"(?<!<)</?[A-Za-z][^<>]*>(?!>)", "", text.replace("\\n", " "))  # tags
        text = re.sub(r"<<(.+?)>>", r"«\1»", text)  # a stereotype, drawn in guillemets
        found.append((a, b, words(text)))
    return found


# (a diagram built by PlantUML's preprocessor has words this reading cannot know: its own test)
SEQUENCES = sorted(
    p for p in CASES.glob("*.puml") if "not-sequence" not in p.name and "preprocessor" not in p.name
)


@pytest.mark.parametrize("path", SEQUENCES, ids=lambda p: p.name)
def test_every_message_of_a_real_diagram_arrives_with_its_lanes_and_words(path: Path) -> None:
    source = path.read_text(encoding="utf-8")
    [result] = convert(source, path.name)
    assert format_text(result.text) == result.text
    diagram = parse(result.text)
    got = []
    # a format's number (`autonumber "(00)"` writes (01), `"<b>[000]"` **[001]**) is written
    # ahead of the words
    formatted = re.search(r'^[ \t]*autonumber\b.*"', source, re.M) is not None
    levels = re.compile(r"\d+(?:\.\d+)+ ")  # numbers in levels (`autonumber 6.3.1`) too
    for message in diagram.messages():
        a, b = message.sender, message.receiver
        if message.arrow.startswith("<"):
            a, b = b, a
        label = plain_text(message.label.replace("\\n", " "))
        if levels.match(label):
            label = levels.sub("", label, count=1)
        elif formatted:
            number, _, label = label.partition(" ")
            assert re.fullmatch(r"\(\d\d\)|\[\d{3}\]", number), message.label
        got.append((a, b, words(label)))
    written = written_messages(source)
    if re.search(r"^[ \t]*return\b", source, re.M):  # its replies are messages too, in order
        replies = iter(got)
        assert all(message in replies for message in written)
    else:
        assert got == written
    for item in walk(diagram.items):
        if isinstance(item, Note):
            assert item.text.strip()
    assert any(isinstance(item, Message) for item in walk(diagram.items))


def test_autoactivate_activates_each_call_and_return_answers_it() -> None:
    source = uml(
        "autoactivate on",
        "alice -> bob : hello",
        "bob -> bob : self call",
        "bill -> bob #005500 : hello from thread 2",
        "return done",
        "return rc",
        "bob --> alice : a dashed reply ends the bar (CommandArrow: dotted deactivates p1)",
        "alice ->x carol : a lost message activates nothing",
        "alice --> carol : no bar to end: said nothing",
    )
    found = [(m.sender, m.receiver, m.arrow, m.activate) for m in read(source).messages()]
    assert found == [
        ("alice", "bob", "->", "+"),
        ("bob", "bob", "->", "+"),
        ("bill", "bob", "->", "+"),
        ("bob", "bill", "-->", "-"),
        ("bob", "bob", "-->", "-"),
        ("bob", "alice", "-->", "-"),
        ("alice", "carol", "-x", None),
        ("alice", "carol", "-->", None),
    ]
    assert "no activation of" not in imported(source)
    assert "// PlantUML: #005500 (volley draws its arrows in the theme's colours)" in imported(
        source
    )


def test_return_ends_the_bar_of_the_participant_it_answers_for_and_edge_arrows_activate() -> None:
    """PlantUML keeps one stack of activating messages: `activate A` pushes the message before
    it, every deactivation pops the top whoever it names, and `return` answers the top and
    ends its receiver's bar (eclipse-edc's IdentityHub: B's bar ran on, `deactivate A` was
    said to find no bar). Under autoactivate an arrow from the edge activates its participant
    too, so a `return` after it goes back to the edge (SCALE-MS: replies were invented)."""
    caller = read(
        uml(
            "A -> B ++ : req",
            "activate A",
            "B -> B : work",
            "return resp",
            "deactivate A",
            "A -> B : next",
        )
    )
    assert [(m.sender, m.receiver, m.activate) for m in caller.messages()] == [
        ("A", "B", "+"),
        ("B", "B", None),
        ("B", "A", "-"),
        ("A", "B", None),
    ]
    bars = [(a.participant, a.on) for a in caller.items if isinstance(a, Activation)]
    assert bars == [("A", True), ("A", False)]
    edge = uml("autoactivate on", "[-> A : in", "A -> B : call", "return", "return out")
    assert [(m.sender, m.receiver, m.activate) for m in read(edge).messages()] == [
        ("A", "B", "+"),
        ("B", "A", "-"),
    ]
    text = imported(edge)
    assert re.search(r"\nactivate:? A\n", text) and re.search(r"\ndeactivate:? A\n", text)
    assert "return out (an arrow from or to the diagram's edge" in text
    assert "note left of A: → in\n" in text and "note left of A: ← out\n" in text


def test_a_participant_declared_over_several_lines_or_where_a_message_first_uses_it() -> None:
    source = uml(
        "participant Participant [",
        "    =Title",
        "    ----",
        '    ""SubTitle""',
        "]",
        "Participant -> Bob",
        'Bob -> "This is very\\nlong" as Long',
        "Long --> Bob : ok",
    )
    diagram = read(source)
    assert diagram.labels == {"Participant": "Title<br/>SubTitle", "Long": "This is very<br/>long"}
    assert ends(diagram) == [
        ("Participant", "Bob"),
        ("Bob", "Long"),
        ("Long", "Bob"),
    ]


def test_teoz_anchors_slants_and_notes_beside_notes_are_read_with_comments() -> None:
    source = uml(
        "!pragma teoz true",
        "{start} Alice -> Bob : start",
        "Bob ->(10) Alice : slanted",
        "{end} Bob -> Alice : finish",
        "{start} <-> {end} : some time",
        "note over Alice : one",
        "/ note over Bob : beside it",
        "Alice -> Bob : then",
        "& note right Bob : and this",
    )
    diagram = read(source)
    assert [m.label for m in diagram.messages()] == ["start", "slanted", "finish", "then"]
    assert [n.text for n in diagram.items if isinstance(n, Note)] == [
        "one",
        "beside it",
        "and this",
    ]
    text = imported(source)
    assert "{start} <-> {end} : some time (a teoz duration" in text
    assert "// PlantUML: / (a note beside the one before it" in text


def test_a_box_inside_a_box_is_drawn_as_a_box_of_its_own() -> None:
    source = uml(
        'box "Internal Service" #LightBlue',
        "participant Bob",
        'box "Subteam"',
        "participant Alice",
        "end box",
        "end box",
        "Bob -> Alice",
    )
    boxes = [(b.label, b.participants) for b in read(source).boxes]
    assert boxes == [("Internal Service", ["Bob"]), ("Subteam", ["Alice"])]
    assert "a box inside a box (volley draws it as a box of its own)" in imported(source)


def test_numbers_in_levels_are_written_into_the_words_as_plantuml_counts_them() -> None:
    """`autonumber 6.3.1` restarted at 1 (Aries' coprotocol RFC, whose prose names step 6.3):
    the numbers lead the words, and `inc A`/`inc B` go on at the next of that level."""
    source = uml(
        "autonumber 1.1.1", "A -> B", "B -> A : back", "autonumber inc A", "A -> B",
        "autonumber inc B", "B -> A", "autonumber stop", "A -> B : off", "autonumber resume",
        "B -> A", "autonumber 5", "A -> B : whole", "autonumber inc A", "B -> A",
    )  # fmt: skip
    messages = read(source).messages()
    assert [m.label for m in messages[:7]] == [
        "**1.1.1**", "**1.1.2** back", "**2.1.1**", "**2.2.1**", "off", "**2.2.2**", "whole",
    ]  # fmt: skip
    assert [m.number for m in messages] == [None] * 4 + [None, None, 5, 6]
    text = imported(source)
    assert "autonumber 1.1.1 (each number is written into its message's words)" in text
    assert "autonumber inc A (volley numbers its messages 1, 2, 3" in text  # whole ones
    formatted = imported(uml('autonumber 2.1 "<b>[000]"', "A -> B : one"))
    assert "**2.1** one" in formatted and 'without the format "<b>[000]"' in formatted


def test_a_lane_or_a_note_whose_words_start_like_another_diagram_is_still_a_sequence() -> None:
    source = uml(
        "Node -> State : class names",
        "note over Node",
        "start",
        "class Foo",
        ":an activity;",
        "end note",
    )
    diagram = read(source)
    assert ends(diagram) == [("Node", "State")]
    assert [n.text for n in diagram.items if isinstance(n, Note)] == [
        "start<br>class Foo<br>:an activity;"
    ]


def test_a_sphinx_uml_directive_is_a_diagram_and_its_options_are_comments() -> None:
    page = "\n".join(
        [
            "Login",
            "=====",
            "",
            ".. uml::",
            "   :caption: Login",
            "",
            "   Alice -> Bob : hi",
            "   Bob --> Alice : ok",
            "",
            "Prose after it, not indented.",
        ]
    )
    assert detect(page).name == "plantuml"
    [found] = convert(page, "login.rst")
    assert [m.label for m in parse(found.text).messages()] == ["hi", "ok"]
    assert "// PlantUML: :caption: Login (an option of the uml directive)" in found.text


def test_plantuml_without_its_start_line_is_read_as_plantuml_and_said_so() -> None:
    """A `.. uml::` body copied out of a docstring (SCALE-MS's runtime.py) has no @startuml,
    which Sphinx adds: read as a volley diagram it was 28 errors naming PlantUML's habits."""
    text = (
        "title run time\nautoactivate on\nparticipant Client\nClient -> Server : start\n"
        "note right\n  waits\nend note\nreturn started\n"
    )
    [found] = convert(text, "runtime.puml")
    assert [m.label for m in parse(found.text).messages()] == ["start", "started"]
    assert any("read as PlantUML: it has no @startuml line" in w.message for w in found.warnings)
    assert "(as one, line 2: " in found.warnings[0].message  # what volley made of it
    # text that reads as neither is still this language's, with its errors
    with pytest.raises(VolleyError, match="expected an arrow"):
        convert("A -> B: x\nfoo bar\n", "flow.txt")
    # and so is one with a mistake of its own, which PlantUML would read otherwise (a message
    # to the diagram's edge): its errors name no habit of PlantUML's
    with pytest.raises(VolleyError, match="expected the name of a participant"):
        convert("Client -> API: login\nAPI -> : audit log\nAPI --> Client: token\n", "t.txt")
    # and so is text named as this language's with --from
    with pytest.raises(VolleyError, match='"autoactivate" is not a volley keyword'):
        convert(text, "runtime.puml", "swimlanes")
    # text none of whose lines read as volley (SCALE-MS's invocation.py) is PlantUML too
    body = (
        'participant "workflow script" as script\nbox "SCALE-MS framework" #honeydew\n'
        "participant WorkflowManager as manager\nend box\nautoactivate on\n"
        "-> manager: python -m scalems.radical ...\nmanager -> script: run()\nreturn\n"
    )
    [found] = convert(body, "invocation.puml")
    assert "run()" in [m.label for m in parse(found.text).messages()]
    assert any("read as PlantUML" in w.message for w in found.warnings)
    # nor is a PlantUML title alone a diagram to import
    with pytest.raises(VolleyError, match="cannot tell what format this is"):
        convert("skinparam monochrome true\nhide footbox\n", "style.txt")


def test_a_uml_directives_option_goes_on_over_its_deeper_lines() -> None:
    """OP-TEE's docs (architecture/core.rst) write a caption over two lines, the second
    indented under the first, as docutils reads a field's value: the diagram was refused
    ("not a PlantUML sequence statement: 'normal world'")."""
    page = (
        "Title\n=====\n\n.. uml::\n    :align: center\n"
        "    :caption: Foreign interrupt received in secure world and forwarded to\n"
        "              normal world\n\n"
        '    participant "Normal World" as nwd\n    nwd -> nwd : process IRQ\n'
    )
    [found] = convert(page, "core.rst")
    assert (
        "// PlantUML: :caption: Foreign interrupt received in secure world and forwarded to "
        "normal world (an option of the uml directive)"
    ) in found.text
    assert [m.label for m in parse(found.text).messages()] == ["process IRQ"]


def test_a_plantuml_file_with_a_licence_comment_above_its_header_gets_the_one_error() -> None:
    path = CASES / "capi-developer-flow.puml"
    result = CliRunner().invoke(main, ["check", str(path)])
    assert result.exit_code == 1
    assert f"{path}:3:1: error: this is PlantUML, not volley; volley import converts it" in (
        result.output
    )
    assert "1 error" in result.output


def test_a_page_with_mermaid_and_plantuml_diagrams_imports_both_in_page_order(
    tmp_path: Path,
) -> None:
    page = tmp_path / "design.md"
    page.write_text(
        "\n".join(
            [
                "# Design",
                "```plantuml",
                "@startuml",
                "A -> B : from plantuml",
                "@enduml",
                "```",
                "```mermaid",
                "sequenceDiagram",
                "    A->>B: from mermaid",
                "```",
                "```plantuml",
                "@startuml",
                "start",
                ":an activity;",
                "@enduml",
                "```",
            ]
        ),
        encoding="utf-8",
    )
    recognised = recognise(page.read_text("utf-8"))
    assert [importer.name for importer in recognised.on_page] == ["mermaid", "plantuml"]
    assert recognise(uml("A -> B")).on_page == ()  # a PlantUML file holds one format
    found = convert(page.read_text("utf-8"), str(page))
    assert [(d.name, d.line) for d in found] == [("design-1", 4), ("design-2", 8)]
    assert [parse(d.text).messages()[0].label for d in found] == ["from plantuml", "from mermaid"]
    [left_out] = [w for d in found for w in d.warnings if w.severity == "warning"]
    assert (left_out.line, left_out.message) == (
        12,
        "this PlantUML diagram is not a sequence diagram; it was left out",
    )
    result = CliRunner().invoke(main, ["import", str(page), "-o", str(tmp_path / "out") + "/"])
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == [
        "design-1.volley",
        "design-2.volley",
    ]
    # a diagram that does not read keeps its number, so the others' names do not move when
    # it is mended (importing.md: design-1, design-3)
    broken = page.read_text("utf-8").replace(
        "```mermaid", "```mermaid\nsequenceDiagram\nA => B\n```\n```mermaid", 1
    )
    with pytest.raises(PartlyImported) as partly:
        convert(broken, str(page))
    assert [(d.name, parse(d.text).messages()[0].label) for d in partly.value.imported] == [
        ("design-1", "from plantuml"),
        ("design-3", "from mermaid"),
    ]
    assert partly.value.total == 3


def test_colours_on_notes_branches_and_bars_are_said_in_comments() -> None:
    source = uml(
        "alt #LightBlue ok",
        "  A -> B",
        "else #Pink failed",
        "  A -> C",
        "end",
        "activate B #FFBBBB",
        "note over A #aqua : n",
        "ref over A, B #yellow : r",
        "loop#Gold #LightGreen/Pink three times",  # a border colour, then a background
        "  A -> B",
        "end",
    )
    text = imported(source)
    for said in (
        "// PlantUML: #Gold #LightGreen/Pink (volley draws frames in the theme's colours)",
        "// PlantUML: #LightBlue (volley draws frames in the theme's colours)",
        "// PlantUML: #Pink (volley draws frames in the theme's colours)",
        "// PlantUML: #FFBBBB (volley draws activation bars in the theme's colours)",
        "// PlantUML: #aqua (volley draws notes in the theme's colours)",
        "// PlantUML: #yellow (volley draws notes in the theme's colours)",
    ):
        assert said in text
    blocks = [item for item in read(source).items if isinstance(item, Block)]
    assert [[b.label for b in block.branches] for block in blocks] == [
        ["ok", "failed"],
        ["three times"],
    ]


def test_a_diagram_of_notes_alone_is_a_sequence_and_a_use_case_diagram_is_not() -> None:
    assert read(uml("note over Alice : a lone note")).items[0].over == ["Alice"]
    with pytest.raises(VolleyError, match="no PlantUML sequence diagram here"):
        convert(uml("actor User", "User --> (Login)", "User -> (Logout) : does"), "uc.puml")
    # a state diagram with no `state` word: its `[*]` says so (it was an error a line)
    state = uml(
        "[*] --> Running : start", "Running --> Done", "Running : doing work", "Done --> [*]"
    )
    with pytest.raises(VolleyError, match="no PlantUML sequence diagram here"):
        convert(state, "reconcile.plantuml")


def test_arrows_written_without_spaces_end_where_plantuml_ends_them() -> None:
    source = uml(
        "aca-[#blue]>oca: a",
        "org->org: b",
        "Tokyo->Paris: c",
        "A->xavier: d",
        "payer [#gray]-x payee: e",
        "A ->o B: f",
    )
    assert messages(source) == [
        ("aca", "oca", "->", "a"),
        ("org", "org", "->", "b"),
        ("Tokyo", "Paris", "->", "c"),
        ("A", "xavier", "->", "d"),
        ("payer", "payee", "-x", "e"),
        ("A", "B", "->", "f"),
    ]


def test_a_line_ending_in_a_backslash_goes_on_and_scripts_are_written_as_tex_does() -> None:
    source = uml("A -> B : first\\n\\", "second A<sub>O</sub><sup>1-vk</sup>", "B -> A : next")
    diagram = read(source)
    assert [plain_text(m.label) for m in diagram.messages()] == [
        "first second A_O^{1-vk}",
        "next",
    ]
    # a script of blanks is room, which PlantUML draws as blanks (aries-rfcs' 0051-dkms
    # diagrams write `<sub> </sub><sup> </sup>`): not a `_` and a `^`
    spaced = read(uml("A -> B : <sub> </sub><sup> </sup>", "A -> B : x<sub> </sub>y"))
    assert [plain_text(m.label) for m in spaced.messages()] == ["", "x y"]


def test_par2_messages_need_no_end_and_are_drawn_one_under_another() -> None:
    source = uml("par2", "A -> B : one", "else", "B -> C : two", "C -> D : after", "par2", "D -> A")
    diagram = read(source)
    assert [m.label for m in diagram.messages()] == ["one", "two", "after", ""]
    assert not any(isinstance(item, Block) for item in diagram.items)
    assert "// PlantUML: par2 (parallel messages, which volley draws one under another)" in (
        imported(source)
    )


def test_lanes_stand_in_the_order_plantuml_gives_them() -> None:
    """PlantUML sorts the lanes by `order N` (0 where none is given), and a participant
    declared again moves after the others of its order, keeping its first words."""
    source = uml(
        "participant First order 10",
        'participant "Long name" as L',
        "participant Early order -1",
        "A -> L : x",
        "participant A",
        'participant L as "Other words"',
    )
    diagram = read(source)
    assert diagram.participants == ["Early", "A", "L", "First"]
    assert diagram.labels == {"L": "Long name"}
    assert "order" not in " ".join(c for c in imported(source).splitlines() if c.startswith("//"))


def test_a_message_may_name_a_participant_with_the_words_it_shows() -> None:
    """`"Long" as L` and `L as "Long"` on either end of a message, as PlantUML's CommandArrow
    reads them: the words are shown where the message is the first to name L."""
    source = uml(
        '"Web browser" as W -> S as "The server" : get',
        'S -> "Other words" as W : page',
        'create participant "Store" as D',
        "S -> D : keep",
    )
    diagram = read(source)
    assert ends(diagram) == [("W", "S"), ("S", "W"), ("S", "D")]
    assert diagram.labels == {"W": "Web browser", "S": "The server", "D": "Store"}
    assert "// PlantUML: create participant" in imported(source)


def test_short_activations_deactivate_alone_and_two_colours_on_a_bar() -> None:
    source = uml(
        "A -> B : call",
        "B++ #gold",
        "B -> C : on",
        "activate C #red #blue",
        "C --> B : back",
        "deactivate",
        "B--",
    )
    diagram = read(source)
    bars = [(a.participant, a.on) for a in walk(diagram.items) if isinstance(a, Activation)]
    assert bars == [("B", True), ("C", True), ("C", False), ("B", False)]
    text = imported(source)
    assert "// PlantUML: #gold (volley draws activation bars" in text
    assert "// PlantUML: #red #blue (volley draws activation bars" in text
    with pytest.raises(VolleyError) as caught:
        convert(uml("A -> B", "deactivate"), "flow.puml")
    assert "deactivate with no activation open to end" in caught.value.errors[0].message


def test_a_message_to_several_participants_is_one_message_to_each_under_one_number() -> None:
    source = uml("autonumber", "A -> B & C & D : tell", "B --> A : ok")
    diagram = read(source)
    found = [(m.sender, m.receiver, m.label, m.number) for m in diagram.messages()]
    assert found == [
        ("A", "B", "tell", 1),
        ("A", "C", "tell", 1),
        ("A", "D", "tell", 1),
        ("B", "A", "ok", 2),
    ]
    assert "& C & D (one message sent to each" in imported(source)


def test_references_delays_branches_and_links_written_the_other_ways_plantuml_reads() -> None:
    source = uml(
        "]-> B : from the right edge",
        "A -> B : x",
        "ref#pink over A, B #blue",
        "  see the login diagram",
        "end",
        "…",
        "… a while later …",
        "par",
        "A -> B : one",
        "also",
        "A -> C : two",
        "end",
        "url of C is [[https://example.com/c]]",
        "A -> B ++ : call",
        "note left : on the call",
    )
    diagram = read(source)
    assert diagram.participants == ["B", "A", "C"]  # the edge arrow's lane is drawn first
    notes = [n.text for n in walk(diagram.items) if isinstance(n, Note)]
    # the arrow from the right edge, said beside its lane on that side
    assert notes == ["from the right edge ←", "**ref:** see the login diagram", "on the call"]
    delays = [d.label for d in diagram.items if isinstance(d, Divider) and d.style == "delay"]
    assert delays == ["", "a while later"]
    [par] = [b for b in diagram.items if isinstance(b, Block)]
    assert [branch.label for branch in par.branches] == ["", ""] and par.kind == "par"
    text = imported(source)
    for said in (
        "// PlantUML: #pink (volley draws notes",
        "// PlantUML: #blue (volley draws notes",
        "(a link on C, which volley leaves out)",
    ):
        assert said in text


def test_a_link_whose_words_break_a_line_is_a_link_on_each_line() -> None:
    """`[[url readsb or\\nfeeder]]`: PlantUML draws each line of the words as the link; cut in
    two by the break, neither half was read as a link, and its brackets and address were
    shown (a lane's label said so while its comment said the link was left out)."""
    source = uml(
        'participant "[[https://example.com readsb or\\nfeeder]]" as R',
        "title See [[https://example.com the\\ndocs]]",
        "A -> R : go to [[https://example.com{tip} the<br>site]] now",
        "note over A : a [[https://example.com long\\n]] link",
    )
    diagram = read(source)
    assert diagram.labels["R"] == "readsb or<br/>feeder"
    assert diagram.title == "See [the](https://example.com)\\n[docs](https://example.com)"
    assert diagram.messages()[0].label == (
        "go to [the](https://example.com)\\n[site](https://example.com) now"
    )
    [note] = [n for n in walk(diagram.items) if isinstance(n, Note)]
    assert note.text == "a [long](https://example.com)<br>link"


def test_styles_volley_has_not_are_said_where_their_words_are_kept() -> None:
    """Red words (`<color:red>SMC</color>`) carry meaning in a diagram: what volley draws
    without colour, size or underline is said in a comment and counted, as a coloured arrow
    is; the styles volley has are not."""
    source = uml(
        "A -> B : <color:red>refused</color> by <font color=red>SMC</font>",
        "A -> B : <u>under</u>, __also__, ~~wave~~, <b:red>bold red</b>",
        'A -> B : <b>fine</b> and **fine** and --struck-- and ""__init__"" in code',
        "note over A",
        "  <back:yellow>marked</back>",
        "end note",
    )
    [diagram] = convert(source, "flow.puml")
    said = [line for line in diagram.text.splitlines() if line.startswith("//")]
    assert said == [
        "// PlantUML: <color:red>, <font color=red> (volley draws the words without colour,"
        " size or underline)",
        "// PlantUML: <u>, __also__, ~~wave~~, <b:red> (volley draws the words without colour,"
        " size or underline)",
        "// PlantUML: <back:yellow> (volley draws the words without colour, size or underline)",
    ]
    labels = [m.label for m in parse(diagram.text).messages()]
    assert labels == [
        "refused by SMC",
        "under, also, wave, **bold red**",
        "**fine** and **fine** and ~~struck~~ and `__init__` in code",
    ]


def test_a_note_on_no_message_is_left_out_as_plantuml_leaves_it() -> None:
    source = uml("note left : before anything", "A -> B : x", "note <<warn>> over B : after")
    diagram = read(source)
    assert [(n.text, n.over) for n in walk(diagram.items) if isinstance(n, Note)] == [
        ("after", ["B"])
    ]
    text = imported(source)
    assert "note left : before anything (a note on no message, which PlantUML leaves out)" in text
    assert "// PlantUML: <<warn>> (a stereotype)" in text


def test_a_note_on_an_arrow_from_the_edge_is_drawn_over_its_lane() -> None:
    """PlantUML draws a note beside an arrow from the diagram's edge (a `MessageExo` is a
    message): after one that opened the diagram, the note's lines were lost, said to be left
    out by PlantUML; after one that came later, it was put under the message before."""
    source = uml(
        "-> cs : issue credentials",
        "note right",
        "Catalog of provider has offer with restriction:",
        "- access policy BPNL",
        "end note",
        "cs -> con : query",
        "[-> con : reset",
        "note left : which message?",
    )
    notes = [(n.text, n.over, n.attached) for n in walk(read(source).items) if isinstance(n, Note)]
    assert notes == [
        ("→ issue credentials", ["cs"], False),  # the arrow's words, beside its lane
        (
            "Catalog of provider has offer with restriction:<br>\\- access policy BPNL",
            ["cs"],
            False,
        ),
        ("→ reset", ["con"], False),
        ("which message?", ["con"], False),
    ]
    assert "(on the arrow from the diagram's edge: volley puts it over cs)" in imported(source)


def test_a_lane_label_with_an_arrow_is_drawn_with_look_alikes() -> None:
    """`participant DS as "DiscoveryService (BPN -> EDC_Url)"`: the lane showed DS alone."""
    source = uml('participant DS as "DiscoveryService (BPN -> EDC_Url)"', "A -> DS : lookup")
    assert read(source).labels == {"DS": "DiscoveryService (BPN \u2011\u203a EDC_Url)"}


def test_a_reference_never_closed_says_what_closes_it() -> None:
    with pytest.raises(VolleyError) as caught:
        convert(uml("A -> B", "ref over A", "text"), "flow.puml")
    assert "this reference is never closed; expected end ref" in caught.value.errors[0].message


def test_a_participant_declared_again_in_a_box_moves_into_it() -> None:
    source = uml("A -> B : x", 'box "Back end"', "participant A", "end box")
    diagram = read(source)
    assert diagram.participants == ["B", "A"]
    assert [(b.label, b.participants) for b in diagram.boxes] == [("Back end", ["A"])]
    emptied = uml('box "X"', "participant A", "end box", "A -> B : x", "participant A")
    assert read(emptied).boxes == []
    assert "// PlantUML: a box with no participant in it" in imported(emptied)


def test_creole_lists_and_tables_in_a_note_are_volleys_lists_and_tables() -> None:
    """PlantUML draws `* item` as a bullet, `#` as a numbered item, a doubled mark one level
    in, and `|= head |` over `| cell |` rows as a table (its cells' colours left out)."""
    from volley.text.inline import ListItem, Paragraph, Table, parse_note

    source = uml(
        "A -> B : x",
        "note over A, B",
        "= Steps",
        "* first **bold**",
        "** nested",
        "# one",
        "|= Name |= Value |",
        "| <#red> token | abc |",
        "plain | pipe",
        "end note",
        "note over A : * a\\n* b",
        "note over B",
        "| no | head |",
        "| x | y |",
        "end note",
    )
    notes = [n.text for n in read(source).items if isinstance(n, Note)]
    blocks = parse_note(notes[0])
    assert [type(b) for b in blocks] == [Paragraph, ListItem, ListItem, ListItem, Table, Paragraph]
    assert [(b.level, b.marker) for b in blocks if isinstance(b, ListItem)] == [
        (0, "•"),
        (1, "•"),
        (0, "1."),
    ]
    table = blocks[4]
    assert isinstance(table, Table) and len(table.rows) == 1
    assert plain_text(notes[0].split("\n")[-1]) == "plain | pipe"
    assert [type(b) for b in parse_note(notes[1])] == [ListItem, ListItem]
    assert isinstance(parse_note(notes[2])[0], Table)
    assert "a table without a head row (volley draws its first row as one)" in imported(source)
    assert notes[0].startswith("**Steps**\n")  # a Creole heading, drawn larger and bold


@pytest.mark.parametrize("arrow", ["?->?", "]->]", "[->?"])
def test_an_arrow_from_edge_to_edge_is_an_error_not_a_crash(arrow: str) -> None:
    with pytest.raises(VolleyError) as caught:
        convert(uml("A -> B : x", f"{arrow} : hi"), "flow.puml")
    assert "not a PlantUML sequence statement" in caught.value.errors[0].message


def test_autonumber_variable_in_a_label_is_the_messages_number() -> None:
    source = uml("autonumber 10", "A -> B : step %autonumber% of 3", "B -> A : step %autonumber%")
    assert [m.label for m in read(source).messages()] == ["step 10 of 3", "step 11"]


def test_a_notes_line_breaks_are_drawn_where_plantuml_draws_them():
    """A note's lines run on in volley, as Markdown's do: `\\n` in a note, and each line of
    one written to `end note`, were written as lines of their own and drawn as one line
    ("first line second line")."""
    one_line = imported(uml("A -> B : hi", "note over A : first line\\nsecond line"))
    assert "note A: first line<br>second line" in one_line
    source = uml(
        "A -> B : hi", "note over A", "first", "second", "* item one", "* item two", "end note"
    )
    (note,) = [item for item in read(source).items if isinstance(item, Note)]
    assert note.text == "first<br>second\n- item one\n- item two"  # a list stays a list
    from volley.language.parser import parse
    from volley.layout.engine import layout_diagram

    drawn = layout_diagram(parse(imported(uml("A -> B : hi", "note over A : one\\ntwo"))))
    (paragraph,) = drawn.notes[0].texts
    assert ["".join(run.text for run in line.runs) for line in paragraph.lines] == ["one", "two"]


def test_a_colour_after_the_shafts_dashes_is_a_dashed_arrow_of_that_colour():
    """`A --[#red]> B` refused the whole diagram ("not a PlantUML sequence statement"), where
    `A -[#red]-> B` was read; PlantUML draws both as a red dashed arrow."""
    text = imported(uml("A --[#red]> B : dashed red", "A -[#red]-> B : also"))
    assert "A --> B: dashed red" in text and "A --> B: also" in text
    assert text.count("// PlantUML: [#red] on the arrow") == 2


def test_a_stereotype_in_any_text_is_drawn_in_guillemets():
    """`<<create>>` in a message, a note or a delay showed its angle brackets; PlantUML draws
    «create», as it does in a participant's words."""
    text = imported(uml("A -> B : <<create>> a session", "note over A : made <<create>>"))
    assert "A -> B: «create» a session" in text and "note A: made «create»" in text


def test_a_word_processors_dash_and_quotes_are_read_as_plantuml_reads_them() -> None:
    """A diagram pasted from a document (W3C's payment flows): `–>` is an arrow, `“…”` quote a
    name; a label keeps its own curled quotes."""
    text = imported(
        "@startuml\nA –> B : en dash\nparticipant C as “Long\\nname”\nB -> C : “PING”\n@enduml\n"
    )
    assert "A -> B: en dash" in text and "B -> C: “PING”" in text
    assert "participant C as Long<br/>name" in text
    # a title's, a divider's and a block's words keep theirs; two dashes are a dashed arrow
    kept = imported("@startuml\ntitle “Q” – t\n== A – B ==\nalt “ok”\nA ––> B : x\nend\n@enduml\n")
    assert "title: “Q” – t" in kept and "=: A – B" in kept and "if: “ok”" in kept
    assert "A --> B: x" in kept


def test_the_last_title_is_the_diagrams_as_plantuml_shows_it() -> None:
    text = imported("@startuml\ntitle Draft\nA -> B : hi\ntitle Final title\n@enduml\n")
    assert "title: Final title" in text
    assert "// title Draft (PlantUML shows the last title only)" in text


def test_an_er_diagrams_entity_with_a_body_is_no_sequence_diagram() -> None:
    """`entity Order { … }` is an ER diagram's table (`entity A` alone is a participant): a
    page's ER diagram is left out with a warning, its sequence diagrams imported."""
    page = (
        "# Model\n\n```plantuml\n@startuml\nentity Order {\n  id : int\n}\n@enduml\n```\n\n"
        "```plantuml\n@startuml\nentity Store\nA -> Store : hi\n@enduml\n```\n"
    )
    [diagram] = convert(page, "model.md")
    assert "A -> Store: hi" in diagram.text
    assert [w.line for w in diagram.warnings if "not a sequence diagram" in w.message] == [4]


def test_a_note_written_first_in_a_frame_is_on_the_message_before_it() -> None:
    """PlantUML draws `opt …` then `note left` beside the message before the frame (and
    `else` then `note right` beside the previous branch's last message): the note was drawn
    inside the frame, as if about the branch (Tractus-X IRS's top-down sequence)."""
    text = imported(
        uml(
            "A -> B: before",
            "alt yes",
            "  note left: about the message before",
            "  B -> A: inside",
            "else no",
            "  note right: about inside",
            "  B -> A: other",
            "end",
        )
    )
    lines = [line for line in text.splitlines() if not line.lstrip().startswith("//")]
    assert lines == [
        "A -> B: before",
        "note: about the message before",
        "if: yes",
        "  B -> A: inside",
        "  note: about inside",
        "else: no",
        "  B -> A: other",
        "end",
    ]
    irs = (CASES / "tractusx-irs-ess-top-down.puml").read_text(encoding="utf-8")
    (item,) = convert(irs, "irs.puml")
    at = item.text.index("note: semanticId")
    assert item.text.rindex("opt: aas is asPlanned") > at  # the note comes before the frame


def test_a_backslash_space_in_a_note_is_left_out_as_plantuml_does() -> None:
    """`Rnote over RSE: BL1_2 measurement\\n\\ saved …` (TF-A's measured boot, 15 notes):
    PlantUML draws no backslash there; a message's label keeps it, as PlantUML does."""
    text = imported(
        uml("A -> B: first\\n\\ second", "note over A: one\\n\\ two", "rnote over B: three\\ four")
    )
    assert "A -> B: first\\n\\\\ second" in text  # (a backslash of its own, in volley)
    assert "note A: one<br>two" in text
    assert "note B: threefour" in text


def test_a_participant_declared_and_never_sent_to_is_drawn_without_a_word() -> None:
    text = imported(
        "@startuml\nparticipant Product\nparticipant Products\nUser -> Product: x\n@enduml\n"
    )
    assert "participant Products\n" in text
    assert check(text).warnings == []
