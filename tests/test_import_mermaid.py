"""`volley import` of Mermaid sequence diagrams: real blocks from public docs, read as volley
reads them, with nothing Mermaid drew left out in silence."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import volley
from volley.errors import VolleyError, VolleyErrors
from volley.importers import convert, detect
from volley.model import Activation, Block, Note
from volley.text.inline import parse_inline

from .conftest import volley_cli

CASES = Path(__file__).resolve().parent / "cases" / "mermaid"


def imported(path: Path) -> list[str]:
    return [item.text for item in convert(path.read_text(encoding="utf-8"), path.name)]


def one(source: str) -> str:
    (item,) = convert(source, "test.mmd")
    return item.text


def by_type(diagram, kind):
    from volley.model import walk

    return [item for item in walk(diagram.items) if isinstance(item, kind)]


# --- real diagrams ---------------------------------------------------------------------------

# a diagram Mermaid itself refuses (see test_import_mermaid_corpus.py) imports to an error
ALL_CASES = sorted(path for path in CASES.iterdir() if "not-mermaid" not in path.name)


@pytest.mark.parametrize("path", ALL_CASES, ids=lambda p: p.name)
def test_every_imported_diagram_parses_renders_and_is_already_formatted(path: Path) -> None:
    from volley.language.writer import format_text

    for text in imported(path):
        svg = volley.render(text)
        assert svg.startswith("<svg")
        assert format_text(text) == text  # what import writes is what fmt would write


def test_the_seed_explainer_keeps_aliases_notes_and_its_loop() -> None:
    (text,) = imported(CASES / "mcp-drawio.mmd")
    diagram = volley.parse(text)
    assert diagram.participants == ["U", "H", "S"]
    assert diagram.labels == {"U": "User", "H": "MCP Host + LLM", "S": "draw.io MCP Server"}
    messages = diagram.messages()
    assert len(messages) == 12
    assert (messages[0].sender, messages[0].arrow, messages[0].receiver) == ("H", "->", "S")
    assert messages[0].label == "server/discover (or initialize, legacy)"
    assert messages[1].arrow == "-->"  # Mermaid's -->> is a dotted reply with a head
    notes = by_type(diagram, Note)
    assert [(n.over, n.text) for n in notes] == [
        (["H", "S"], "at startup"),
        (["H"], "LLM chooses create_diagram"),
    ]
    (loop,) = by_type(diagram, Block)
    assert loop.kind == "loop" and loop.branches[0].label == "one per LLM tool call"
    assert [m.label for m in loop.branches[0].items] == [
        "tools/call add_class or add_relationship",
        "added",
    ]
    assert text.startswith("// Source: the draw.io MCP explainer")  # its %% lines kept


def test_the_mcp_authorization_page_gives_two_diagrams_with_their_alt_and_line_breaks() -> None:
    page = CASES / "mcp-authorization.md"
    assert [item.line for item in convert(page.read_text(encoding="utf-8"), page.name)] == [14, 45]
    first, second = (volley.parse(t) for t in imported(page))
    assert first.labels["M"] == "MCP Server (Resource Server)"
    assert by_type(first, Note)[0].text == "Extract resource_metadata<br>from WWW-Authenticate"
    assert by_type(first, Note)[2].over == ["C", "M", "A"]  # "over C,A" spans the one between
    assert second.participants == ["B", "C", "M", "A"]
    (alt,) = by_type(second, Block)
    assert alt.kind == "if" and alt.branches[0].label == "Dynamic client registration"
    assert [m.label for m in alt.branches[0].items] == ["POST /register", "Client Credentials"]
    assert len(second.messages()) == 16


def test_mermaid_docs_page_one_diagram_per_block_with_every_construct() -> None:
    texts = imported(CASES / "mermaid-docs.md")
    assert len(texts) == 20
    d = [volley.parse(text) for text in texts]

    # arrows: ->> a head, -) async (open head), -x lost; -> and --> have no head in Mermaid
    assert [m.arrow for m in d[0].messages()] == ["->", "-->", "->>"]
    assert [m.arrow for m in d[4].messages()][4] == "-x"
    assert "line(s) 94 of mermaid-docs.md as lines without a head" in texts[9]
    # declared order, aliases, actors (as a comment: volley draws boxes)
    assert d[1].participants == ["Alice", "Bob"]
    assert d[3].labels == {"A": "Alice", "J": "John"}
    assert "// Mermaid: actor Alice (volley draws every participant as a box)" in texts[2]
    assert "// Mermaid: create participant Carl" in texts[4]
    assert "// Mermaid: destroy Carl" in texts[4]
    assert d[4].labels == {"D": "Donald"}
    (box, other) = d[5].boxes
    assert (box.tint, box.label, box.participants) == ("Purple", "Alice & John", ["A", "J"])
    assert (other.tint, other.label, other.participants) == (None, "Another Group", ["B", "C"])
    # activations, on their own lines and as marks
    assert [(a.participant, a.on) for a in by_type(d[6], Activation)] == [
        ("John", True),
        ("John", False),
    ]
    assert [m.activate for m in d[7].messages()] == ["+", "+", "-", "-"]
    # notes: the side kept, <br/> as a line break, a span over two
    (note,) = by_type(d[8], Note)
    assert (note.over, note.side, note.text) == (["John"], "right", "Text in note")
    assert "note right of John: Text in note" in texts[8]
    assert "volley puts it over" not in texts[8]
    (note,) = by_type(d[9], Note)
    assert note.over == ["Alice", "John"]
    assert note.text == "A typical interaction<br>But now in two lines"
    # blocks
    (alt, opt) = by_type(d[11], Block)
    assert (alt.kind, [b.label for b in alt.branches]) == ("if", ["is sick", "is well"])
    assert (opt.kind, opt.branches[0].label) == ("opt", "Extra response")
    outer, inner = by_type(d[12], Block)
    assert (outer.kind, [b.label for b in outer.branches]) == (
        "par",
        ["Alice to Bob", "Alice to John"],
    )
    assert inner in outer.branches[1].items
    (critical,) = by_type(d[13], Block)
    assert critical.kind == "critical"
    assert [b.label for b in critical.branches] == [
        "Establish a connection to the DB",
        "Network timeout",
        "Credentials rejected",
    ]
    (brk,) = by_type(d[14], Block)
    assert (brk.kind, brk.branches[0].label) == ("break", "when the booking process fails")
    rects = by_type(d[15], Block)
    assert [(r.kind, r.tint) for r in rects] == [
        ("rect", "rgb(191, 223, 255)"),
        ("rect", "rgb(200, 150, 255)"),
    ]
    assert "rect: rgb(191, 223, 255)\n" in texts[15] and "// Mermaid: rect" not in texts[15]
    assert volley.parse(texts[15]).warnings == []  # the written text reads back, colours and all
    # comments, entity codes, autonumber, links
    assert "// this is a comment" in texts[16]
    assert [m.label for m in d[17].messages()] == ["I ♥ you!", "I ♥ you ∞ times more!"]
    assert [m.number for m in d[18].messages()] == [1, 2, 3, 4, 5]
    assert texts[19].count("// Mermaid: link ") == 4


# --- single constructs -----------------------------------------------------------------------


def test_bidirectional_arrows_titles_and_autonumber_start() -> None:
    text = one(
        "---\ntitle: From front matter\n---\nsequenceDiagram\n"
        "autonumber 10\nA<<->>B: both\nA<<-->>B: both, dotted\nB--)A: async reply\n"
    )
    diagram = volley.parse(text)
    assert diagram.title == "From front matter"
    assert [(m.arrow, m.number) for m in diagram.messages()] == [
        ("<->", 10),
        ("<-->", 11),
        ("-->>", 12),
    ]


def test_title_line_semicolons_and_a_numbering_step() -> None:
    text = one("sequenceDiagram\ntitle Login\nautonumber 1 5\nA->>B: one;B-->>A: two #59; three\n")
    diagram = volley.parse(text)
    assert diagram.title == "Login"
    assert [(m.label, m.number) for m in diagram.messages()] == [("one", 1), ("two ; three", 6)]
    assert "// Mermaid: autonumber 1 5 (numbered in steps of 5, as Mermaid does)" in text


def test_numbers_follow_mermaids_count_which_every_message_advances() -> None:
    """Mermaid counts every message, numbered or not; a bare `autonumber` shows the count
    from where it is, and `autonumber off` only hides it."""
    text = one(
        "sequenceDiagram\nA->>B: one\nautonumber\nB->>A: two\nautonumber off\nA->>B: three\n"
        "autonumber\nB->>A: four\nautonumber 10\nA->>B: five\n"
    )
    assert [m.number for m in volley.parse(text).messages()] == [None, 2, None, 4, 10]
    assert "autonumber off\nA -> B: three" in text


@pytest.mark.parametrize(
    "head",
    [
        "---\nconfig:\n  sequence:\n    showSequenceNumbers: true\n---\nsequenceDiagram\n",
        "%%{init: {'sequence': {'showSequenceNumbers': true}}}%%\nsequenceDiagram\n",
    ],
)
def test_autonumber_off_hides_nothing_where_the_configuration_shows_every_number(head) -> None:
    """Mermaid draws a number where `autonumber` shows it or `showSequenceNumbers` is on."""
    text = one(f"{head}A->>B: one\nautonumber off\nB->>A: two\n")
    assert [m.number for m in volley.parse(text).messages()] == [1, 2]


def test_accessible_title_and_description_are_kept_whole_as_comments() -> None:
    """Their text runs to the end of the line (`;` and `#` included), an `accDescr { … }`
    over lines to its `}`; none of it is read as statements."""
    text = one(
        "sequenceDiagram\naccTitle: Login; the #1 flow\naccDescr {\n  Alice logs in;\n"
        "  and gets a token\n}\nA->>B: hi\n"
    )
    assert text == (
        "// Mermaid: accTitle: Login; the #1 flow\n// Mermaid: accDescr {\n"
        "// Alice logs in;\n// and gets a token\n// }\nA -> B: hi\n"
    )


@pytest.mark.parametrize("word", ["Loop", "Alt", "Par"])
def test_a_block_read_from_a_message_line_and_never_closed_says_why(word: str) -> None:
    """`Loop Service->>A: tick` is Mermaid's loop, labelled with the rest of the line: never
    closed, the error says the line was read as a block and what to rename."""
    with pytest.raises(VolleyError) as caught:
        convert(f"sequenceDiagram\n  participant A\n  {word} Service->>A: tick\n", "f.mmd")
    error = caught.value
    assert error.line == 3 and error.message.endswith("is never closed; expected end")
    assert f"not as a message from '{word} Service'" in (error.hint or "")
    assert f"does not start with '{word.lower()}'" in (error.hint or "")


def test_lanes_mermaid_tells_apart_by_case_stay_apart() -> None:
    """volley reads `A` and `a` as one lane, as swimlanes.io does; Mermaid draws two."""
    text = one("sequenceDiagram\n  participant A as Alice\n  A->>a: hi\n  a-->>A: back\n")
    assert text == (
        "participant A as Alice\nparticipant a (2) as a\n\nA -> a (2): hi\na (2) --> A: back\n"
    )
    assert volley.parse(text).participants == ["A", "a (2)"]


def test_a_box_inside_a_box_is_refused_as_mermaid_refuses_it() -> None:
    source = "sequenceDiagram\n  box Outer\n  participant A\n  Box Inner\n  participant B\n"
    with pytest.raises(VolleyError) as caught:
        convert(source + "  end\n  end\n  A->>B: x\n", "boxes.mmd")
    error = caught.value
    assert (error.line, error.column) == (4, 3)
    assert error.message == "a box inside the box of line 2 (Mermaid refuses it)"


def test_a_box_holding_messages_is_refused_once_as_mermaid_refuses_it() -> None:
    """A Russian bot's docs wrap each scenario's messages, a loop and an alt in a `box`: Mermaid
    refuses it (its grammar takes participant, actor and destroy lines in a box); volley drew
    two empty boxes and every message outside them, without a word."""
    source = (
        "sequenceDiagram\n  participant A\n  box Aqua Scenario 1\n  %% a comment is fine\n"
        "    A->>B: one\n    B-->>A: two\n  end\n  box Scenario 2\n    loop each minute\n"
        "      Note over A: tick\n    end\n  end\n"
    )
    with pytest.raises(VolleyErrors) as caught:
        convert(source, "bot.mmd")
    said = [(error.line, error.message) for error in caught.value.errors]
    assert said == [
        (5, "a Mermaid box holds participants only, and this is not one: 'A->>B: one' "
            "(Mermaid refuses the diagram)"),
        (9, "a Mermaid box holds participants only, and this is not one: 'loop each minute' "
            "(Mermaid refuses the diagram)"),
    ]  # fmt: skip
    assert caught.value.errors[0].hint == (
        "end the box of line 3 before it; to group steps, use rect … end"
    )
    # a line that is no statement at all is said once, as that
    with pytest.raises(VolleyErrors) as caught:
        convert("sequenceDiagram\n  box Aqua Front\n  participant A\n  Alice says hello\n"
                "  end\n  A->>B: hi\n", "front.mmd")  # fmt: skip
    assert [e.message for e in caught.value.errors] == [
        "not a Mermaid sequence statement: 'Alice says hello'"
    ]


def test_an_actor_declared_again_as_a_participant_is_a_box_as_in_mermaid() -> None:
    """The last declaration wins: Mermaid draws a box, as volley does, and the comment that
    said volley draws no stick figure claimed a difference that is not there."""
    found = convert("sequenceDiagram\n  actor U as User\n  participant U as Service\n"
                    "  U->>S: hi\n", "twice.mmd")[0]  # fmt: skip
    assert "actor" not in found.text and "participant U as Service" in found.text
    assert not [w for w in found.warnings if "drawn otherwise" in w.message]


def test_a_page_whose_only_diagram_is_shown_as_code_says_where_it_is() -> None:
    """An Azure wiki page shows its diagram in a ```text block, a hackathon's README in a
    ````markdown one: "cannot tell what format this is" named neither."""
    page = "# Flow\n\n````markdown\n```mermaid\nsequenceDiagram\n  A->>B: hi\n```\n````\n"
    with pytest.raises(VolleyError) as caught:
        convert(page, "README.md")
    assert (caught.value.line, caught.value.column) == (5, 1)
    assert caught.value.message == (
        "the Mermaid diagram here is shown as code, in the ````markdown block that opens on "
        "line 3: the page draws it as text, and import reads none"
    )
    with pytest.raises(VolleyError, match="cannot tell what format this is"):
        convert("# Notes\n\n```text\nnothing to draw\n```\n", "notes.md")
    # in a quote too, said at the diagram's own column
    quoted = "# Flow\n\n> ```text\n> sequenceDiagram\n>   A->>B: hi\n> ```\n"
    with pytest.raises(VolleyError, match="shown as code, in the ```text block") as caught:
        convert(quoted, "README.md")
    assert (caught.value.line, caught.value.column) == (4, 3)


def test_a_message_naming_another_participants_label_says_it_is_a_lane_of_its_own() -> None:
    """A Russian URL shortener's docs declare `participant Пользователь as U` and then write
    `U->>C`: Mermaid draws a second lane called U, as volley does, and nothing said why."""
    text = one("sequenceDiagram\n  participant Пользователь as U\n  U->>C: hi\n")
    assert "// Mermaid: U here is a participant of its own; Пользователь is only shown as U" in (
        text
    )
    assert "U -> C: hi" in text


def test_a_name_starting_with_a_slash_is_read_as_mermaid_reads_it() -> None:
    """A code review's diagram sends to `/models/*.py`, which Mermaid refuses (its lexer takes
    no receiver starting with '/'); a sender written so is drawn without its '/'. volley drew
    both as written, without a word."""
    with pytest.raises(VolleyError) as caught:
        convert("sequenceDiagram\n  db->>/models/x.py: hi\n", "review.mmd")
    assert (caught.value.line, caught.value.column) == (2, 8)
    assert caught.value.message == (
        "Mermaid refuses a message to a name that starts with '/': '/models/x.py'"
    )
    text = one("sequenceDiagram\n  /models->>db: hi\n")
    assert "models -> db: hi" in text
    assert "// Mermaid: /models is drawn as 'models'" in text


def test_accessible_words_start_a_statement_only_before_their_colon_or_brace() -> None:
    """`accDescr Service->>A: hello` is a message from "accDescr Service" to Mermaid, which
    reads accDescr only before `:` or `{`."""
    text = one("sequenceDiagram\naccDescr Service->>A: hello\naccDescr : one\n")
    assert text == "accDescr Service -> A: hello\n// Mermaid: accDescr : one\n"


def test_a_line_break_in_a_participant_label_breaks_its_box_as_in_mermaid() -> None:
    text = one("sequenceDiagram\nparticipant J as John<br/>Second Line #lt;br#gt;\nJ->>J: x\n")
    diagram = volley.parse(text)
    assert diagram.labels == {"J": "John<br/>Second Line \\<br>"}
    assert diagram.shown_lines("J") == ["John", "Second Line <br>"]  # the escaped one is text
    assert diagram.shown("J") == "John Second Line <br>"  # on one line: the panel, the appendix
    assert "// Mermaid" not in text


def test_two_line_breaks_in_a_participant_label_leave_an_empty_line_between() -> None:
    source = "sequenceDiagram\nparticipant P as <br>Arzt<br><br>(TI-M Pro Client)<br>\nP->>P: x\n"
    diagram = volley.parse(one(source))
    assert diagram.labels == {"P": "Arzt<br/><br/>(TI-M Pro Client)"}
    assert diagram.shown_lines("P") == ["Arzt", "", "(TI-M Pro Client)"]  # as Mermaid draws it
    assert diagram.shown("P") == "Arzt (TI-M Pro Client)"
    svg = volley.render(diagram)
    first, second = (float(y) for y in re.findall(r'y="([\d.]+)"[^>]*>(?:Arzt|\(TI-M)', svg)[:2])
    assert second - first > 30  # two lines apart, not one


def test_decimal_numbers_become_whole_numbers_with_a_comment() -> None:
    text = one("sequenceDiagram\nautonumber 10.1 .01\nA->>B: x\nB->>A: y\n")
    assert [m.number for m in volley.parse(text).messages()] == [10, 11]
    assert "(volley numbers in whole numbers: from 10 in steps of 1)" in text


def test_a_hash_that_starts_no_escape_starts_a_comment_to_the_end_of_the_line() -> None:
    """Mermaid reads `#9829;` as a character and any other `#` as the start of a comment,
    which runs over `;` to the end of the line: the text shows up to the `#`."""
    text = one("sequenceDiagram\nA->>B: fixes #42, see; B->>A: hidden\nB-->>A: I #9829; you\n")
    assert [m.label for m in volley.parse(text).messages()] == ["fixes", "I \u2665 you"]
    assert (
        "// Mermaid: #42, see; B->>A: hidden (Mermaid reads a line from # on as a comment)" in text
    )


def test_escapes_are_read_after_line_breaks_so_an_escaped_br_is_text() -> None:
    text = one("sequenceDiagram\nparticipant A as x#lt;br#gt;y\nA->>B: one<br>two #lt;br/#gt;\n")
    diagram = volley.parse(text)
    assert diagram.shown_lines("A") == ["x<br>y"]  # written `x\<br>y`
    label = diagram.messages()[0].label
    assert label == "one\\ntwo \\<br/>"  # escaped: volley reads `<br/>` as a line break too
    shown = [["".join(span.text for span in line)] for line in parse_inline(label)]
    assert shown == [["one"], ["two <br/>"]]


def test_wrap_marks_leave_notes_labels_and_aliases() -> None:
    text = one(
        "sequenceDiagram\nparticipant A as wrap:Alice\nloop:wrap: every minute\n"
        "A->>B:nowrap: ping\nNote over A,B:wrap: a long note\nend\n"
    )
    diagram = volley.parse(text)
    assert diagram.labels == {"A": "Alice"}
    (loop,) = by_type(diagram, Block)
    assert loop.branches[0].label == "every minute"
    assert [m.label for m in diagram.messages()] == ["ping"]
    assert by_type(diagram, Note)[0].text == "a long note"


def test_a_comment_after_end_is_kept() -> None:
    text = one("sequenceDiagram\nloop every minute\nA->>B: ping\nend %% of the loop\n")
    assert text == "loop: every minute\n  A -> B: ping\nend\n// of the loop\n"


def test_a_comment_of_one_percent_is_a_comment_as_mermaid_reads_it() -> None:
    """Mermaid's lexer starts a comment at one `%` where a statement may start (and after
    `end`), but not at `%{`; a `%` inside a text is text."""
    source = "sequenceDiagram\n  % the start\n  loop retry\n    A->>B: 50% done\n  end % loop\n"
    (item,) = convert(source, "flow.mmd")
    assert item.text == ("// the start\nloop: retry\n  A -> B: 50% done\nend\n// loop\n"), item.text
    assert not item.warnings


def test_a_comment_after_a_participants_name_is_kept_as_a_comment() -> None:
    """Mermaid makes `participant API %% the gateway` a lane of that name beside the API the
    messages use; the import keeps the name and says what Mermaid does with the rest."""
    text = one("sequenceDiagram\nparticipant API %% the gateway\nB->>API: hi\nactivate API // x\n")
    diagram = volley.parse(text)
    assert diagram.participants == ["API", "B"]
    assert '// Mermaid: "%% the gateway" after API is kept as a comment' in text
    assert '// Mermaid: "// x" after API is kept as a comment' in text


def test_a_comment_after_the_header_autonumber_or_a_semicolon_is_a_comment() -> None:
    """Mermaid skips `%%` to the end of the line after a word it reads as a keyword (the
    header, autonumber and its numbers, end) and where a statement would start (after `;`),
    so a `;` inside that comment starts no statement."""
    text = one(
        "sequenceDiagram %% the header\n"
        "autonumber 10 5 %% counts in fives\n"
        "A->>B: ping; %% a comment; B->>A: not a message\n"
        "loop every minute\nB->>A: pong\nend%% of the loop\n"
    )
    diagram = volley.parse(text)
    assert [(m.sender, m.receiver, m.label, m.number) for m in diagram.messages()] == [
        ("A", "B", "ping", 10),
        ("B", "A", "pong", 15),
    ]
    for comment in ("the header", "counts in fives", "a comment; B->>A: not a message"):
        assert f"// {comment}\n" in text
    assert "end\n// of the loop\n" in text


def test_block_keywords_with_a_colon_as_volley_writes_them() -> None:
    text = one("sequenceDiagram\nalt: cached\nA->>B: hit\nelse: missed\nA->>C: miss\nend\n")
    (alt,) = by_type(volley.parse(text), Block)
    assert [b.label for b in alt.branches] == ["cached", "missed"]


def test_a_directive_over_several_lines_is_one_comment_block_not_statements() -> None:
    source = '%%{init: {\n  "theme": "dark",\n  "sequence": {"mirrorActors": true}\n}}%%\n'
    text = one(source + "sequenceDiagram\n%%{wrap}%%\nA->>B: x\n")
    assert text.startswith('// Mermaid: %%{init: {\n// "theme": "dark",\n')
    assert "// Mermaid: %%{wrap}%%" in text
    assert [m.label for m in volley.parse(text).messages()] == ["x"]


def test_half_arrowheads_keep_their_end_and_say_volley_draws_a_whole_head() -> None:
    source = "sequenceDiagram\n" + "".join(
        f"A{arrow}B: m{n}\n"
        for n, arrow in enumerate(["-|\\", "--|/", "/|-", "\\|--", "-\\\\", "--//", "//-"])
    )
    text = one(source)
    messages = volley.parse(text).messages()
    assert [(m.sender, m.arrow, m.receiver, m.label) for m in messages] == [
        ("A", "->", "B", "m0"),
        ("A", "-->", "B", "m1"),
        ("A", "<-", "B", "m2"),
        ("A", "<--", "B", "m3"),
        ("A", "->>", "B", "m4"),
        ("A", "-->>", "B", "m5"),
        ("A", "<<-", "B", "m6"),
    ]
    assert text.count("a half arrowhead (volley draws a whole one)") == 7


def test_an_activation_after_a_note_is_not_read_as_the_notes_text() -> None:
    text = one(
        "sequenceDiagram\nA->>+B: x\nNote over B: busy\ndeactivate B\nactivate A\nA->>B: y\n"
        "deactivate A\n"
    )
    diagram = volley.parse(text)
    assert [n.text for n in by_type(diagram, Note)] == ["busy"]
    assert [(a.participant, a.on) for a in by_type(diagram, Activation)] == [
        ("B", False),
        ("A", True),
        ("A", False),
    ]
    assert "note B: busy\ndeactivate: B\n" in text  # the colon ends the note


def test_a_cross_written_with_a_capital_x_is_a_cross_as_in_mermaid() -> None:
    """Mermaid reads its arrows in any case (a real handbook's `Node5-XZK: Heartbeat fails`)."""
    text = one("sequenceDiagram\n  Node5-XZK: Heartbeat fails\n  A--XB: t\n  A--X+B: u\n")
    assert text == (
        "Node5 -x ZK: Heartbeat fails\nA --x B: t\n"
        "// Mermaid: the activation of B started here is never ended, so Mermaid draws no bar "
        "for it (nor does volley); any later bar of B Mermaid draws one step aside, as if this "
        "one were open\nA --x B: u\n"
    )


def test_an_activation_mermaid_never_ends_draws_no_bar_as_in_mermaid() -> None:
    """Mermaid draws a bar when its activation ends: a `+` or `activate` never ended draws
    none (a real KEP puts `+` on almost every message). It is left out, with a comment, so the
    diagram shows what Mermaid showed; the bars that do end stay."""
    text = one(
        "sequenceDiagram\n  A->>+B: call\n  B->>+C: deeper\n  C-->>-B: back\n  activate A\n"
        "  B->>A: hi\n"
    )
    diagram = volley.parse(text)
    assert [m.activate for m in diagram.messages()] == [None, "+", "-", None]
    assert by_type(diagram, Activation) == []
    assert text.count("is never ended, so Mermaid draws no bar for it (nor does volley)") == 2
    assert "// Mermaid: the activation of B started here is never ended" in text


def test_central_connections_are_arrows_with_a_comment_not_names() -> None:
    text = one("sequenceDiagram\nA->>()B: in\nA()-->>B: out\nA()->>()B: both\n")
    diagram = volley.parse(text)
    assert diagram.participants == ["A", "B"]
    assert [m.activate for m in diagram.messages()] == [None, None, None]
    assert text.count("joins the middle of the lifeline of") == 3


def test_a_function_named_as_a_receiver_or_declared_is_one_lane_as_a_sender_too() -> None:
    """`receive()->>send()`: where a diagram names a participant `X()` as a receiver or in a
    declaration, its `()` before an arrow is the name's, not a central connection (which made
    two lanes of each, `receive` and `receive()`)."""
    text = one(
        "sequenceDiagram\nparticipant main()\nmain()->>parse(): args\n"
        "parse()-->>main(): ok\nf() ->>+ f(): self\nA()->>B: central\n"
    )
    diagram = volley.parse(text)
    assert diagram.participants == ["main()", "parse()", "f()", "A", "B"]
    assert text.count("joins the middle of the lifeline of") == 1  # A's, named A elsewhere
    assert [(m.sender, m.receiver) for m in diagram.messages()][:3] == [
        ("main()", "parse()"),
        ("parse()", "main()"),
        ("f()", "f()"),
    ]


def test_an_alias_in_the_participant_config_is_its_label_unless_as_gives_one() -> None:
    text = one(
        "sequenceDiagram\nparticipant A@{ 'type': 'queue', 'alias': 'Jobs' }\n"
        'participant B@{ "alias": "Inner" } as Outer\nA->>B: x\n'
    )
    assert volley.parse(text).labels == {"A": "Jobs", "B": "Outer"}
    assert "// Mermaid: A@{ 'type': 'queue', 'alias': 'Jobs' }" in text
    # a # or ; in the braces belongs to them, not to a comment or a new statement
    text = one('sequenceDiagram\nparticipant Q@{ "alias": "Jobs #x-1; main" }\nQ->>Q: y\n')
    assert volley.parse(text).labels == {"Q": "Jobs #x-1; main"}


@pytest.mark.parametrize(
    ("statement", "said"),
    [
        ("A->>B: $$\\frac{1}{2}$$", "$$\\frac{1}{2}$$ (Mermaid typesets it as math"),
        ("A->>B: <b>bold</b> words", "<b>bold</b> (Mermaid shows the tags as text; volley"),
        ("loop: every minute\nA->>B: x\nend", "loop: every minute (Mermaid's label starts"),
    ],
)
def test_what_mermaid_draws_otherwise_is_said_in_a_comment_and_a_note(statement, said):
    """A formula, formatting tags and a colon after a block's keyword are drawn otherwise
    than Mermaid 11 draws them: each is said, never changed in silence."""
    found = convert(f"sequenceDiagram\n{statement}\n", "f.mmd")[0]
    assert f"// Mermaid: {said}" in found.text
    assert any("drawn otherwise than Mermaid" in w.message for w in found.warnings)


def test_a_hash_inside_a_name_is_a_letter_and_a_comment_in_text_or_where_a_word_starts():
    """Mermaid's lexer reads a name on over `#` (Mermaid 10 and 11 draw a lane
    "C# Social client"); in text, or where a word would start, `#` begins a comment."""
    text = one(
        "sequenceDiagram\nRenderer->>+C# Social client: Get friends #1\n"
        "C# Social client-->>-Renderer: list\nNote over C# Social client: cache\n"
        "loop every #2\nRenderer->>B #x: hi\nend\n"
    )
    diagram = volley.parse(text)
    assert diagram.participants == ["Renderer", "C# Social client", "B #x"]
    assert [m.label for m in diagram.messages()] == ["Get friends", "list", "hi"]
    assert "// Mermaid: #1 (Mermaid reads a line from # on as a comment)" in text
    with pytest.raises(VolleyError) as refused:
        convert("sequenceDiagram\nA->> #B: x\n", "f.mmd")
    assert "reads a line from a '#' on as a comment" in (refused.value.hint or "")


def test_an_alias_mermaid_reads_as_a_comment_leaves_the_participant_unlabelled() -> None:
    """`participant CH as #reddit` (a Slack or Discord channel): Mermaid reads from `#` on as
    a comment, so CH has no label. volley made a lane "CH as" of it beside CH, and refused the
    same under `create` with a wrong reason."""
    text = one(
        "sequenceDiagram\nparticipant U as Discord user\nparticipant CH as #reddit\n"
        "participant B as   \nU->>CH: Reply text\nU->>B: x\ncreate participant N as #new\n"
        "U->>N: hi\n"
    )
    diagram = volley.parse(text)
    assert diagram.participants == ["U", "CH", "B", "N"]
    assert diagram.labels == {"U": "Discord user"}
    assert "// Mermaid: #reddit (Mermaid reads a line from # on as a comment)" in text


def test_an_alias_volley_would_read_as_a_message_is_drawn_with_look_alikes() -> None:
    """`participant A as Client -> Server` is an alias to Mermaid; written as volley's
    `participant A as …` it would read as a message from 'participant A as Client': its
    arrow is drawn with look-alikes that are none (the lane showed only A)."""
    text = one(
        "sequenceDiagram\nparticipant A as Client -> Server\nparticipant B as Bob => Eve\n"
        "participant C as Carol\nA->>B: x\nB->>C: y\n"
    )
    diagram = volley.parse(text)
    assert diagram.participants == ["A", "B", "C"]
    assert diagram.labels == {
        "A": "Client \u2011\u203a Server",
        "B": "Bob \uff1d\u203a Eve",
        "C": "Carol",
    }
    assert [(m.sender, m.receiver, m.label) for m in diagram.messages()] == [
        ("A", "B", "x"),
        ("B", "C", "y"),
    ]
    for alias in ("A as Client -> Server", "B as Bob => Eve"):
        assert f"// Mermaid: {alias} (its arrow drawn with look-alikes)" in text


def test_mermaid_text_that_is_markup_in_volley_stays_as_written() -> None:
    text = one("sequenceDiagram\nA->>B: call *args and **kwargs**\nB-->>A: [x](y) {fas-plug}\n")
    assert [m.label for m in volley.parse(text).messages()] == [
        "call \\*args and \\*\\*kwargs\\*\\*",
        "\\[x\\](y) \\{fas-plug\\}",
    ]
    from volley.text.inline import plain_text

    assert plain_text(volley.parse(text).messages()[0].label) == "call *args and **kwargs**"
    assert "snake_case_name" in one("sequenceDiagram\nA->>B: snake_case_name\n")


def test_markup_that_would_span_a_line_break_of_a_label_stays_as_written() -> None:
    """Each line alone reads as plain text, but a label's lines are one text in volley (joined
    by its `\\n` break), where three backticks on one line and three on another are a code
    span: the label's lines are escaped together."""
    text = one(
        "sequenceDiagram\nA->>B: ```json<br>{}<br>```\nloop _every<br>minute_\nB->>A: x\nend\n"
    )
    diagram = volley.parse(text)
    (message, _) = diagram.messages()
    shown = ["".join(span.text for span in line) for line in parse_inline(message.label)]
    assert shown == ["```json", "{}", "```"]
    (loop,) = by_type(diagram, Block)
    label = parse_inline(loop.branches[0].label)
    assert ["".join(span.text for span in line) for line in label] == ["_every", "minute_"]
    assert not any(span.italic for line in label for span in line)


def test_a_note_line_that_would_be_a_list_or_a_code_fence_in_volley_shows_as_written() -> None:
    """Mermaid draws `- item` in a note as written; volley's note would draw a bullet "•"
    for it (and a code block from a ``` line), so the importer escapes that first character."""
    from volley.text.inline import Paragraph, parse_note

    text = one(
        "sequenceDiagram\n"
        "Note over A: Checks:<br>- the signature<br>* the expiry<br>1. first<br>2) second<br>"
        "```json<br>plain - text\n"
    )
    (note,) = by_type(volley.parse(text), Note)
    blocks = parse_note(note.text)
    assert all(isinstance(block, Paragraph) for block in blocks)
    shown = ["".join(span.text for span in line) for block in blocks for line in block.lines]
    assert shown == [
        "Checks:",
        "- the signature",
        "* the expiry",
        "1. first",
        "2) second",
        "```json",
        "plain - text",
    ]


def test_nothing_is_dropped_in_silence() -> None:
    source = (
        "%%{init: {'theme': 'dark'}}%%\nsequenceDiagram\naccTitle: Checkout\n"
        'participant DB@{ "type" : "database" }\nlinks DB: {"Docs": "https://x.y"}\n'
        "autonumber off\nA->>DB: query\n"
    )
    text = one(source)
    for kept in ("{init: {'theme': 'dark'}}%%", "accTitle: Checkout", '"type" : "database"',
                 'links DB: {"Docs": "https://x.y"}'):  # fmt: skip
        assert kept in text
    assert volley.parse(text).participants == ["DB", "A"]
    assert volley.parse(text).messages()[0].number is None  # `autonumber off`: none to hide


# --- errors ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("source", "line", "column", "words"),
    [
        (
            "sequenceDiagram\n  A->>B: hi\n  what is this\n",
            3,
            3,
            "not a Mermaid sequence statement",
        ),
        (  # a flowchart's line copied into a sequence diagram (Mermaid refuses it too)
            "sequenceDiagram\n  A->>B: hi\n  classDef client fill:#FFE4B5\n",
            3,
            3,
            "classDef is a statement of Mermaid's flowcharts and class diagrams",
        ),
        (  # an arrow pointing left, which Mermaid has not: the hint turns it round
            "sequenceDiagram\n  srv->>mb: x\n  mb <-- srv: Response\n",
            3,
            3,
            "not a Mermaid sequence statement",
        ),
        ("sequenceDiagram\n  loop every day\n  A->>B: hi\n", 2, 3, "this loop is never closed"),
        ("sequenceDiagram\n  A->>B: hi\n  end\n", 3, 3, "end without a block"),
        ("sequenceDiagram\n  else oops\n  end\n", 2, 3, "else outside alt"),
        ("sequenceDiagram\n  participant A <br> B\n", 2, 15, "cannot hold < or >"),
        ('sequenceDiagram\n  participant E@{ "type": "entity"\n', 2, 16, "expected } to close"),
        ("sequenceDiagram\n  A->>B: x\n  B-->>A\n", 3, 3, "expected ':' and the message's text"),
        ("sequenceDiagram\n  A->>+B: x\n  B-->>-A: y\n  B-->>-A: z\n", 4, 3, "B has no activation"),
        (  # a real page declared `participant DTO as DatosEntrada`, later created DTO
            "sequenceDiagram\n  participant D as Datos\n  create participant D\n  A->>D: x\n",
            3,
            3,
            "already in the diagram",
        ),
        (  # Mermaid: the message after a create goes to the participant it creates
            "sequenceDiagram\n  create participant C\n  note over A: n\n  C->>A: x\n",
            4,
            3,
            'after "create participant C" (line 2) must go to C',
        ),
        (  # and the one after a destroy comes from it or goes to it
            "sequenceDiagram\n  A->>B: x\n  destroy B\n  A->>C: y\n",
            4,
            3,
            'after "destroy B" (line 3) must come from B or go to it',
        ),
    ],
)
def test_mistakes_in_the_mermaid_source_are_errors_with_a_place(source, line, column, words):
    with pytest.raises(VolleyError) as caught:
        convert(source, "bad.mmd")
    error = caught.value
    assert words in error.message
    assert (error.filename, error.line) == ("bad.mmd", line)
    assert error.source_line == source.split("\n")[line - 1]
    if column:
        assert error.column == column
    if "mb <-- srv" in source:
        assert error.hint == "Mermaid's arrows point right: write srv-->>mb: Response"


def test_created_and_destroyed_participants_keep_their_messages() -> None:
    """What Mermaid draws: the message after `create` goes to the new participant, the one
    after `destroy` leaves or reaches it; a note between them changes nothing."""
    source = (
        "sequenceDiagram\n  A->>B: hi\n  create actor C as Carl\n  note over A: n\n"
        "  A->>C: make\n  destroy C\n  C-->>A: bye\n  destroy B\n  A->>B: stop\n"
    )
    (imported_one,) = convert(source)
    diagram = volley.parse(imported_one.text)
    assert [(m.sender, m.receiver) for m in diagram.messages()] == [
        ("A", "B"),
        ("A", "C"),
        ("C", "A"),
        ("A", "B"),
    ]
    assert diagram.labels == {"C": "Carl"}
    assert "// Mermaid: destroy C" in imported_one.text


def test_an_arrow_mermaid_does_not_have_is_pointed_to_the_ones_it_has() -> None:
    """`UA<-->UB` (a real dating app's docs): Mermaid has no `<-->`; its two-headed arrows are
    `<<->>` and `<<-->>`, which the hint names rather than line breaks in labels."""
    with pytest.raises(VolleyError) as caught:
        convert("sequenceDiagram\n  UA<-->UB: Video\n", "bad.mmd")
    assert "cannot hold < or >: 'UA<'" in caught.value.message
    assert "<<-->>" in caught.value.hint
    assert convert("sequenceDiagram\n  UA<<-->>UB: Video\n")[0].text == "UA <--> UB: Video\n"


def test_the_blank_line_after_a_note_of_several_lines_is_kept() -> None:
    """A Mermaid note with a `<br/>` is one line of the source: the blank line under it is the
    author's, kept as after any other statement."""
    (item,) = convert(
        "sequenceDiagram\n  A->>B: one\n  Note over A: first<br/>second\n\n  A->>B: two\n"
        "  Note over B: a<br/>b\n  A->>B: three\n",
        "gap.mmd",
    )
    assert item.text == (
        "A -> B: one\nnote A: first<br>second\n\nA -> B: two\nnote B: a<br>b\nA -> B: three\n"
    )


def test_a_message_with_no_receiver_says_so() -> None:
    """`A->>: x` is a message whose receiver was left out, not a receiver named `>`."""
    with pytest.raises(VolleyError) as caught:
        convert("sequenceDiagram\n  A->>: x\n", "bad.mmd")
    assert (caught.value.line, caught.value.column) == (2, 7)
    assert caught.value.message == 'expected the name of a participant after "->>"'


def test_an_error_in_a_markdown_block_names_the_line_of_the_page() -> None:
    page = "# Title\n\ntext\n\n```mermaid\nsequenceDiagram\n  A->>B: ok\n  nonsense here\n```\n"
    with pytest.raises(VolleyError) as caught:
        convert(page, "doc.md")
    assert caught.value.line == 8


def test_markdown_blocks_are_found_as_commonmark_reads_the_page() -> None:
    """In a quote and in a list item a fence is a diagram, and an error points at the page's
    line and column; an indented code block, or a fence shown inside another, is text."""
    page = (
        "> ```mermaid\n> sequenceDiagram\n>   A->>B: quoted\n> ```\n\n"
        "- item\n\n  ```mermaid\n  sequenceDiagram\n    A->>B: listed\n  ```\n\n"
        "````md\n```mermaid\nsequenceDiagram\nA->>B: shown\n```\n````\n"
    )
    assert [item.text for item in convert(page, "doc.md")] == [
        "A -> B: quoted\n",
        "A -> B: listed\n",
    ]
    with pytest.raises(VolleyError) as caught:
        convert(page.replace("A->>B: listed", "what is this"), "doc.md")
    assert (caught.value.line, caught.value.column) == (10, 5)
    indented = "# Doc\n\n    ```mermaid\n    sequenceDiagram\n    A->>B: x\n    ```\n"
    assert detect(indented) is None


def test_markdown_blocks_in_mkdocs_admonitions_and_tabs_are_found() -> None:
    """Python-Markdown's admonitions (`!!! note`, `??? tip`) and content tabs (`=== "Tab"`)
    hold their content four columns in, which CommonMark reads as code: their diagrams were
    left out in silence (an Anoma specification page gave one of its two). One shown inside a
    fence is text; an error points at the page's line and column."""
    page = (
        '!!! note "Admonition"\n    ```mermaid\n    sequenceDiagram\n      A->>B: admonition\n'
        "    ```\n\n??? tip\n\n    ```mermaid\n    sequenceDiagram\n      A->>B: details\n    ```\n"
        '\n=== "Tab"\n\n    !!! example\n        ```mermaid\n        sequenceDiagram\n'
        "          A->>B: nested\n        ```\n\n"
        "````md\n!!! note\n    ```mermaid\n    sequenceDiagram\n      A->>B: shown\n    ```\n````\n"
    )
    assert [item.text for item in convert(page, "doc.md")] == [
        "A -> B: admonition\n",
        "A -> B: details\n",
        "A -> B: nested\n",
    ]
    with pytest.raises(VolleyError) as caught:
        convert(page.replace("A->>B: nested", "what is this"), "doc.md")
    assert (caught.value.line, caught.value.column) == (19, 11)
    shown = "Write it so:\n\n    !!! note\n        ```mermaid\n        sequenceDiagram\n"
    shown += "          A->>B: shown\n        ```\n"
    assert detect("# How to\n\n" + shown) is None  # in an indented code block: text


def test_a_myst_or_quarto_mermaid_directive_block_is_a_diagram() -> None:
    """Sphinx (MyST) and Quarto pages write the block as ```{mermaid}; MyST puts the
    directive's options at its top, Quarto its `%%|` cell options: both stay as comments."""
    page = (
        "# Flow\n\n```{mermaid}\n:align: center\n:caption: The handshake\n"
        "sequenceDiagram\n  A->>B: hello\n```\n\n"
        "```{mermaid}\n%%| label: fig-call\nsequenceDiagram\n  B->>A: back\n```\n"
    )
    assert detect(page).name == "mermaid"
    assert [item.text for item in convert(page, "flow.md")] == [
        "// :align: center (an option of the mermaid directive)\n"
        "// :caption: The handshake (an option of the mermaid directive)\n"
        "A -> B: hello\n",
        "// | label: fig-call\nB -> A: back\n",
    ]


@pytest.mark.parametrize("info", ['{.mermaid caption="runas"}', "{#fig .mermaid}", "{ .mermaid }"])
def test_a_pandoc_fence_names_mermaid_as_a_class(info: str) -> None:
    """Pandoc's filters (and pages written for them) mark the block with a class and
    attributes, ```{.mermaid caption="…"}: a Japanese README's diagram was read as
    swimlanes text with an error on every line."""
    page = f"# 例\n\n```{info}\nsequenceDiagram\n  P->>C: runas\n```\n"
    assert detect(page).name == "mermaid"
    (imported,) = convert(page, "README.md")
    assert imported.text == "P -> C: runas\n"


def test_a_plain_mermaid_fence_read_as_the_directive_may_open_with_its_options() -> None:
    """A MyST site with `myst_fence_as_directive = ["mermaid"]` (Pulumi's docs) writes the
    options in a plain ```mermaid fence: the diagram after them was left out as "not a
    sequenceDiagram", and a page of only such blocks was no diagram at all."""
    page = "# Flow\n\n```mermaid\n:zoom:\n\nsequenceDiagram\n  A->>B: hi\n```\n"
    assert detect(page).name == "mermaid"
    (imported,) = convert(page, "flow.md")
    assert imported.text == "// :zoom: (an option of the mermaid directive)\nA -> B: hi\n"
    assert imported.warnings == ()


def test_detection_from_content_not_from_the_file_name() -> None:
    assert detect("%% a diagram\nsequenceDiagram\nA->>B: x\n").name == "mermaid"
    assert detect("# Doc\n\n```mermaid\nsequenceDiagram\nA->>B: x\n```\n").name == "mermaid"
    assert detect("A -> B: x\n").name == "swimlanes"
    # a Markdown page whose only mermaid block is a flowchart has no sequence diagram
    with pytest.raises(VolleyError, match="no ```mermaid block holds a sequenceDiagram"):
        convert("```mermaid\nflowchart LR\nA-->B\n```\n", "doc.md", "mermaid")


# --- the command -----------------------------------------------------------------------------


def test_import_markdown_writes_one_file_per_block_into_a_folder(tmp_path: Path) -> None:
    done = volley_cli("import", str(CASES / "mcp-authorization.md"), "-o", f"{tmp_path}/out/")
    assert done.returncode == 0, done.stderr
    written = sorted(p.name for p in (tmp_path / "out").iterdir())
    assert written == ["mcp-authorization-1.volley", "mcp-authorization-2.volley"]
    text = (tmp_path / "out" / "mcp-authorization-2.volley").read_text(encoding="utf-8")
    assert "participant B as User-Agent (Browser)" in text


def test_a_page_with_a_broken_diagram_still_gives_the_others(tmp_path: Path) -> None:
    """One block Mermaid itself refuses (a label run onto a second line, as a published page
    has it) is reported with its page line; the page's other diagrams are written, exit 1."""
    page = tmp_path / "page.md"
    page.write_text(
        "# Flows\n\n```mermaid\nsequenceDiagram\nA->>B: hi\n```\n\n"
        "```mermaid\nsequenceDiagram\nA->>B: (payload,\nwithdrawals, metadata)\n```\n\n"
        "```mermaid\nsequenceDiagram\nC->>D: yo\nD->>C: bad\n%%%\nC-->D:\n, and\n```\n",
        encoding="utf-8",
    )
    done = volley_cli("import", str(page), "-o", f"{tmp_path}/out/")
    assert done.returncode == 1
    assert f"{page}:11:1: error: not a Mermaid sequence statement" in done.stderr
    assert f"{page}:20:1: error" in done.stderr  # every mistake, in every block
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == ["page-1.volley"]
    assert (tmp_path / "out" / "page-1.volley").read_text(encoding="utf-8") == "A -> B: hi\n"


def test_several_blocks_to_one_place_is_a_usage_error_that_says_what_to_do(tmp_path) -> None:
    for args in ([], ["-o", str(tmp_path / "one.volley")]):
        done = volley_cli("import", str(CASES / "mcp-authorization.md"), *args)
        assert done.returncode == 2
        assert "holds 2 diagrams" in done.stderr and "-o DIR" in done.stderr
    assert not (tmp_path / "one.volley").exists()


def test_one_place_for_a_page_of_several_is_refused_when_only_one_reads(tmp_path) -> None:
    """Which diagram was meant cannot be told: the one that read is not written alone."""
    page = tmp_path / "page.md"
    page.write_text(
        "```mermaid\nsequenceDiagram\nA->>B: hi\n```\n\n"
        "```mermaid\nsequenceDiagram\nA->>B hi\n```\n",
        encoding="utf-8",
    )
    for args in ([], ["-o", str(tmp_path / "one.volley")]):
        done = volley_cli("import", str(page), *args)
        assert done.returncode == 2, done.stderr
        assert f"{page}:8:1: error" in done.stderr  # the broken one is named
        assert "holds 2 diagrams" in done.stderr and "-o DIR" in done.stderr
        assert done.stdout == ""
    assert not (tmp_path / "one.volley").exists()


def test_import_one_diagram_to_stdout_or_a_file(tmp_path: Path) -> None:
    done = volley_cli("import", "-", stdin="sequenceDiagram\nA->>B: hi\n")
    assert (done.returncode, done.stdout) == (0, "A -> B: hi\n")
    target = tmp_path / "x.volley"
    done = volley_cli("import", str(CASES / "mcp-drawio.mmd"), "-o", str(target))
    assert done.returncode == 0, done.stderr
    assert "participant H as MCP Host + LLM" in target.read_text(encoding="utf-8")


def test_import_reports_an_error_with_file_line_and_caret(tmp_path: Path) -> None:
    bad = tmp_path / "bad.mmd"
    bad.write_text("sequenceDiagram\n  A->>B: hi\n  what is this\n", encoding="utf-8")
    done = volley_cli("import", str(bad))
    assert done.returncode == 1
    assert f"{bad}:3:3: error: not a Mermaid sequence statement" in done.stderr
    assert "  what is this\n" in done.stderr and "^" in done.stderr


def test_a_markdown_block_of_another_mermaid_diagram_is_left_out_with_a_warning() -> None:
    page = "```mermaid\ngraph TB\n  A --> B\n```\n\n```mermaid\nsequenceDiagram\nA->>B: x\n```\n"
    (item,) = convert(page, "doc.md")
    assert item.text == "A -> B: x\n"
    (warning,) = item.warnings
    assert (warning.severity, warning.line, warning.source_line) == ("warning", 2, "graph TB")
    assert "not a sequenceDiagram" in warning.message


def test_the_left_out_warning_points_past_front_matter_at_the_diagram_type() -> None:
    page = (
        "```mermaid\n---\ntitle: Overview\n---\n%% the flow\n  flowchart LR\n  A --> B\n```\n\n"
        "```mermaid\nsequenceDiagram\nA->>B: x\n```\n"
    )
    (item,) = convert(page, "doc.md")
    (warning,) = item.warnings
    assert (warning.line, warning.column, warning.source_line) == (6, 3, "  flowchart LR")


def test_naming_mermaid_for_a_source_that_is_not_says_so() -> None:
    with pytest.raises(VolleyError, match="does not start with sequenceDiagram"):
        convert("A -> B: hi\n", "flow.txt", "mermaid")


def test_traffic_options_on_a_diagram_format_are_a_usage_error(tmp_path):
    from click.testing import CliRunner

    from volley.cli import main

    source = tmp_path / "flow.mmd"
    source.write_text("sequenceDiagram\nA->>B: hi\n")
    result = CliRunner().invoke(main, ["import", str(source), "--all", "--max-body", "10"])
    assert result.exit_code == 2
    assert "--all, --max-body only apply to traffic" in result.output
    assert "not to a mermaid diagram" in result.output
    assert CliRunner().invoke(main, ["import", str(source)]).exit_code == 0


@pytest.mark.parametrize(
    ("declared", "meant"),
    [
        ('participant "Internet User" as IU', "participant IU as Internet User"),
        ('actor "User" as "用户"', "participant User as 用户"),
    ],
)
def test_a_quoted_name_before_as_is_read_as_meant(declared: str, meant: str) -> None:
    """`participant "Internet User" as IU` is PlantUML's order, common in generated design
    docs: imported as the lane its messages use, shown with the quoted words (Mermaid would
    draw a second lane called "Internet User", quotes and all), with a comment saying so."""
    name = meant.split()[1]
    text = one(f"sequenceDiagram\n    {declared}\n    {name}->>GLB: HTTPS request\n")
    assert text.startswith(f"{meant}\n")
    assert f"// Mermaid: {declared} (read as: {meant})" in text
    diagram = volley.parse(text)
    assert diagram.participants == [name, "GLB"]


@pytest.mark.parametrize("word", ["Create", "destroy", "Links", "link", "Actor", "Activate"])
def test_a_sender_starting_with_a_mermaid_keyword_is_an_error_not_a_lost_message(word: str):
    """Mermaid reads `Create Order Service-->>Shop: …` as its `create` statement: the line is
    refused with words that say why, never dropped as a comment."""
    source = "sequenceDiagram\n    participant Shop\n"
    source += f"    {word} Order Service-->>Shop: 201 Created\n"
    with pytest.raises(VolleyError) as caught:
        convert(source, "test.mmd")
    error = caught.value
    assert error.line == 3 and f'"{word}" starts Mermaid\'s {word.lower()} statement' in str(error)
    assert "rename the participant" in (error.hint or "")


@pytest.mark.parametrize(
    ("line", "role", "name"),
    [
        ("DOM->>Link Card : Wrap each card in Link", "receiver", "Link Card"),
        ("Properties Panel->>DOM : done", "sender", "Properties Panel"),
        ("CDN->>End User: Serve optimized content", "receiver", "End User"),
        ("end-user->>App: login", "sender", "end-user"),
        ("Loop->>A: x", "sender", "Loop"),
        ("End User->>App: login", "sender", "End User"),
        ("Note over Box,RT: annotate", "note's participant", "Box"),
        ("Over Service->>API: get", "sender", "Over Service"),
        ("A->>Title Service: set the title", "receiver", "Title Service"),
    ],
)
def test_a_name_mermaid_reads_as_its_keyword_is_refused_as_mermaid_refuses_it(
    line: str, role: str, name: str
) -> None:
    """Mermaid's lexer reads a keyword, in any case and ended by a hyphen or an arrow too, where
    a message's or a note's participant starts, and refuses the line (`got 'link'`): such
    lines were drawn as messages without a word, or refused as "expected nothing after end"."""
    source = f"sequenceDiagram\n    participant Link as Next Link\n    {line}\n"
    with pytest.raises(VolleyError) as caught:
        convert(source, "test.mmd")
    error = caught.value
    assert error.line == 3 and f"at the start of the {role} {name!r}" in str(error)
    assert "Mermaid refuses it" in str(error) and "rename the participant" in (error.hint or "")


def test_link_and_its_kin_are_names_where_mermaid_12_reads_no_statement() -> None:
    """Since Mermaid 12 (mermaid-js/mermaid#8280), `link`, `links`, `properties` and
    `details` start a statement only before a space and a name: `DOM->>Link : wrap` and
    `Link-->>DOM` draw a lane called Link."""
    text = one(
        "sequenceDiagram\n    participant Link as Next Link\n    DOM->>Link : Wrap each card\n"
        "    Link-->>DOM : done\n    DOM->>Details: open\n"
    )
    assert "DOM -> Link: Wrap each card\nLink --> DOM: done\nDOM -> Details: open\n" in text


def test_a_message_from_a_title_word_is_the_title_as_mermaid_reads_it_and_says_so() -> None:
    """`Title Service->>A: hello` is Mermaid's `title` statement: the diagram's title, with a
    comment that says the message is not drawn and why; `Titles->>A` is a name."""
    text = one("sequenceDiagram\n    Title Service->>A: hello\n    Titles->>A: x\n")
    assert text.startswith("title: Service->>A: hello\n")
    assert "// Mermaid reads this line as the diagram's title, not as a message from" in text
    assert "Titles -> A: x" in text


def test_a_name_that_only_begins_with_a_keywords_letters_is_a_name() -> None:
    """`Endpoint`, `Noted`, `Boxer`, `Options_2` are names: a keyword is a whole word."""
    text = one("sequenceDiagram\n    Endpoint->>Noted: a\n    Boxer->>Options_2: b\n")
    assert text == "Endpoint -> Noted: a\nBoxer -> Options_2: b\n"


def test_the_header_is_read_in_any_case() -> None:
    """The parser sends a `sequencediagram` file to the importer, which reads it."""
    assert one("sequencediagram\n  A->>B: hi\n") == "A -> B: hi\n"


def test_azure_devops_wiki_colon_blocks_are_read_and_one_shown_as_code_is_not() -> None:
    """An Azure DevOps wiki writes `::: mermaid` … `:::` (Dev-Dir720/TEST's WorkFlow.md has
    three, one a flowchart); one inside a code block is the syntax shown, not a diagram."""
    page = (
        "# Flow\n\n::: mermaid\ngraph LR;\n    A-->B;\n:::\n"
        "::: mermaid\nsequenceDiagram\n    Alice->>John: Hello John\n"
        "    John-->>Alice: Great!\n:::\n\n"
        "```\n::: mermaid\nsequenceDiagram\n  X->>Y: the syntax, shown\n:::\n```\n"
    )
    (item,) = convert(page, "wiki.md")
    assert item.text == "Alice -> John: Hello John\nJohn --> Alice: Great!\n"
    assert [w.line for w in item.warnings] == [4]  # the flowchart, left out with a warning


@pytest.mark.parametrize(
    ("opening", "closing"),
    [
        ("{{< mermaid >}}", "{{< /mermaid >}}"),  # Hugo's shortcode (Relearn, Learn, geekdoc)
        ('{{% mermaid align="left" %}}', "{{% /mermaid %}}"),
        ('<div class="mermaid">', "</div>"),  # a page that loads mermaid.js itself
        ('<pre class="mermaid">', "</pre>"),
    ],
)
def test_hugo_shortcodes_and_html_elements_holding_mermaid_are_read(opening, closing) -> None:
    page = (
        f"# Flow\n\nText.\n\n{opening}\nsequenceDiagram\n    A->>B: hello & bye\n{closing}\n"
        f"\n```\n{opening}\nsequenceDiagram\n  X->>Y: the syntax, shown\n{closing}\n```\n"
    )
    assert detect(page) is not None and detect(page).name == "mermaid"
    (item,) = convert(page, "page.md")
    assert item.text == "A -> B: hello & bye\n"


def test_an_mdx_components_template_literal_holding_mermaid_is_read() -> None:
    """Starlight and Docusaurus pages pass the diagram to a component as a template literal
    (interledger/rafiki's docs: `<Mermaid graph={`sequenceDiagram` … `} />`); one inside a code
    block is the syntax shown; errors name the page's lines."""
    page = (
        "import { Mermaid } from '@site/components'\n\n# Events\n\n<details>\n  <Mermaid\n"
        "    graph={`sequenceDiagram\n      participant R as Rafiki\n      R->>B: fired\n\n`}\n"
        "  />\n</details>\n\n<Mermaid chart={`sequenceDiagram\n  C->>D: one`} />\n\n"
        "```jsx\n<Mermaid graph={`sequenceDiagram\n  X->>Y: the syntax, shown\n`} />\n```\n"
    )
    assert detect(page) is not None and detect(page).name == "mermaid"
    first, second = convert(page, "events.mdx")
    assert first.text == "participant R as Rafiki\n\nR -> B: fired\n"
    assert (first.line, second.line) == (7, 15)
    assert second.text == "C -> D: one\n"
    with pytest.raises(VolleyError) as caught:
        convert("<Mermaid\n  graph={`sequenceDiagram\n    A-x>B: hi\n`} />\n", "bad.mdx")
    assert caught.value.line == 3
    # the header on the line after the backtick; a backtick escaped in the diagram is its text
    (item,) = convert(
        "<Mermaid graph={`\n  sequenceDiagram\n  A->>B: say \\`hi\\`\n`} />\n", "p.mdx"
    )
    assert item.text == "A -> B: say \\`hi\\`\n"


def test_a_fence_right_under_an_html_element_is_read_as_superfences_reads_it() -> None:
    """MkDocs sites (aws-powertools' docs) put a diagram under `<center>` or `<details>` with
    no blank line between: CommonMark reads it as the element's HTML, Python-Markdown's
    superfences as a fence, which MkDocs draws; a blank line in its body does not end it."""
    page = (
        "# Flow\n\n<center>\n```mermaid\nsequenceDiagram\n    A->>B: first\n\n"
        "    B-->>A: back\n```\n<i>Manual flush</i>\n</center>\n\n"
        "<details>\n<summary>Flow</summary>\n```mermaid\nsequenceDiagram\n    C->>D: second\n"
        "```\n</details>\n\n```mermaid\nsequenceDiagram\n    E->>F: third\n```\n"
    )
    items = convert(page, "logger.md")
    assert [item.text for item in items] == [
        "A -> B: first\n\nB --> A: back\n",
        "C -> D: second\n",
        "E -> F: third\n",
    ]
    assert [item.line for item in items] == [5, 16, 22]


def test_a_restructuredtext_page_of_sphinx_directives_is_read() -> None:
    """The ROS 2 documentation writes its diagrams as sphinxcontrib-mermaid's `.. mermaid::`
    directive: a flowchart, left out with a warning at its line, and two sequence diagrams."""
    services, actions = convert((CASES / "ros2-interfaces.rst").read_text(), "page.rst")
    assert services.text == (
        "Service client -> Service server: Request\nService server --> Service client: Response\n"
    )
    drawn = volley.parse(actions.text)
    assert drawn.participants == [
        "Action client",
        "Action server",
        "Client",  # Mermaid draws the two it was never told of too
        "Action Server (2)",  # Mermaid tells it apart from "Action server" by case
    ]
    assert drawn.labels == {"Action Server (2)": "Action Server"}
    (flowchart,) = services.warnings
    assert (flowchart.line, flowchart.source_line) == (55, "   flowchart LR")


def test_a_directive_takes_its_options_and_the_lines_indented_under_it() -> None:
    page = (
        "Flow\n====\n\n.. tab:: Sequence\n\n   .. mermaid::\n      :alt: the flow\n"
        "      :zoom:\n\n\tsequenceDiagram\n\t  A->>B: hi\n\n\t  B-->>A: ok\n\n"
        "   Text of the tab.\n\nAfter.\n"
    )
    (item,) = convert(page, "page.rst")
    assert item.text.endswith("A -> B: hi\n\nB --> A: ok\n")
    assert "// :alt: the flow (an option of the mermaid directive)" in item.text
    with pytest.raises(VolleyError) as caught:  # an error names the page's line
        convert(page.replace("B-->>A: ok", "B-->>A ok"), "page.rst")
    assert (caught.value.line, caught.value.source_line) == (13, "\t  B-->>A ok")


@pytest.mark.parametrize(
    "shown",
    [
        "The directive::\n\n   .. mermaid::\n\n      sequenceDiagram\n        X->>Y: shown\n",
        ".. code-block:: rst\n\n   .. mermaid::\n\n      sequenceDiagram\n        X->>Y: shown\n",
        "```rst\n.. mermaid::\n\n   sequenceDiagram\n     X->>Y: shown\n```\n",  # MyST page
    ],
)
def test_a_directive_shown_as_code_is_not_a_diagram(shown: str) -> None:
    page = f"{shown}\n.. mermaid::\n\n   sequenceDiagram\n     A->>B: drawn\n"
    (item,) = convert(page, "page.rst")
    assert item.text == "A -> B: drawn\n"


@pytest.mark.parametrize("name", ["page.md", None])
def test_a_markdown_page_shows_a_directive_in_an_indented_code_block(name: str | None) -> None:
    """Indented four columns under a paragraph, a directive is code on a Markdown page (by its
    name, or by its headings and fences), and quoted, so run, on a reStructuredText page."""
    shown = (
        "To draw one in Sphinx:\n\n    .. mermaid::\n\n       sequenceDiagram\n"
        "         X->>Y: shown\n"
    )
    page = f"# Diagrams\n\n{shown}\n```mermaid\nsequenceDiagram\n  A->>B: drawn\n```\n"
    (item,) = convert(page, name)
    assert item.text == "A -> B: drawn\n"
    (quoted,) = convert(shown, "page.rst")
    assert quoted.text == "X -> Y: shown\n"


def test_an_indented_directive_under_another_directive_is_run() -> None:
    """Indented four columns under a directive that holds it (an admonition), a directive is
    the page's diagram, though Markdown would read those lines as an indented code block."""
    page = ".. note:: The flow\n\n    .. mermaid::\n\n       sequenceDiagram\n         A->>B: hi\n"
    (item,) = convert(page, "page.rst")
    assert item.text == "A -> B: hi\n"


def test_a_directive_that_names_a_file_holds_no_diagram_of_the_page() -> None:
    """Its diagram is the file, imported on its own, which volley says: the page alone was
    "not a Mermaid sequence diagram … holds no .. mermaid:: directive" (with --from) or of a
    format nobody could tell; beside the page's own diagrams it was left out unsaid."""
    page = "Login\n=====\n\n.. mermaid:: flows/login.mmd\n   :caption: Login\n\nText.\n"
    assert detect(page) is not None and detect(page).name == "mermaid"
    with pytest.raises(VolleyError) as caught:
        convert(page, "docs/page.rst")
    error = caught.value.errors[0]
    assert error.message.endswith("files of their own, which its directives name: flows/login.mmd")
    assert (error.line, error.column) == (4, 1)
    assert error.hint == "import each on its own: volley import docs/flows/login.mmd"
    myst = "# Login\n\n```{mermaid} flows/login.mmd\n```\n\n"
    myst += "```mermaid\nsequenceDiagram\nA->>B: hi\n```\n"
    [item] = convert(myst, "page.md")
    assert item.text == "A -> B: hi\n"
    [warning] = [w for w in item.warnings if "a file of its own" in w.message]
    assert (warning.line, warning.severity) == (3, "warning")


def test_only_an_element_of_class_mermaid_holds_a_diagram() -> None:
    """`mermaid-wrapper` is another class; a closing tag may end the diagram's last line."""
    page = (
        '<div class="mermaid-wrapper">\n<pre class="mermaid">\nsequenceDiagram\n  A->>B: hi\n'
        '</pre>\n</div>\n\n<div class="diagram mermaid">\nsequenceDiagram\n  C->>D: yo</div>\n'
        "\nSome prose.\n"
    )
    first, second = convert(page, "page.md")
    assert (first.text, second.text) == ("A -> B: hi\n", "C -> D: yo\n")


def test_html_holding_mermaid_is_read_with_its_character_references_decoded() -> None:
    page = '<div class="mermaid">\nsequenceDiagram\n  A-&gt;&gt;B: a &amp; b\n</div>\n'
    (item,) = convert(page, "page.md")
    assert item.text == "A -> B: a & b\n"


@pytest.mark.parametrize(
    "config",
    [
        '%%{init: {"sequence": {"showSequenceNumbers": true}}}%%\n',
        "---\nconfig:\n  sequence:\n    showSequenceNumbers: true\n---\n",
    ],
)
def test_numbers_turned_on_by_mermaids_configuration_are_autonumber(config: str) -> None:
    """Mermaid numbers every message when its configuration says so, as `autonumber` does."""
    text = one(config + "sequenceDiagram\n    A->>B: first\n    B-->>A: second\n")
    assert "\nautonumber\n" in text
    assert [m.number for m in volley.parse(text).messages()] == [1, 2]
    off = one(config.replace("true", "false") + "sequenceDiagram\n    A->>B: first\n")
    assert "autonumber" not in off


def test_a_mermaid_note_that_reads_as_a_table_keeps_its_pipes() -> None:
    """Mermaid shows a note's text as written: lines of pipes and dashes stay text, escaped
    where volley would read a table, and shown with their pipes."""
    from volley.text.inline import Paragraph, parse_note

    text = one("sequenceDiagram\n  Note over A: a | b<br>--|--<br>1 | 2\n  A->>B: x\n")
    [note] = by_type(volley.parse(text), Note)
    [block] = parse_note(note.text)
    assert isinstance(block, Paragraph)
    assert ["".join(span.text for span in line) for line in block.lines] == [
        "a | b",
        "--|--",
        "1 | 2",
    ]


def test_mermaids_boxes_are_drawn_around_their_participants() -> None:
    """Real diagrams box a provider's and a consumer's "Control Plane" (a dataspace
    connector's docs): each box is read with its colour and label, as Mermaid reads them, and
    holds the participants declared in it; the lanes stay told apart by their boxes."""
    source = (
        "sequenceDiagram\n"
        "  box Provider\n    participant PD as Data Plane\n    participant P as Control Plane\n"
        "  end\n"
        "  box rgb(253,250,246) Consumer\n    participant C as Control Plane\n  end\n"
        "  box transparent Aqua\n    actor X\n  end\n"
        "  participant CD as Data Plane\n"
        "  C->>P: negotiate\n"
    )
    (item,) = convert(source, "edc.mmd")
    assert not [w for w in item.warnings if w.severity == "warning"]
    diagram = volley.parse(item.text)
    assert [(b.tint, b.label, b.participants) for b in diagram.boxes] == [
        (None, "Provider", ["PD", "P"]),
        ("rgb(253,250,246)", "Consumer", ["C"]),
        (None, "Aqua", ["X"]),
    ]
    assert diagram.participants == ["PD", "P", "C", "X", "CD"]
    assert "box: transparent Aqua\n  participant X\nend" in item.text


def test_a_box_colour_before_a_label_with_brackets_says_mermaid_draws_it_uncoloured() -> None:
    """Mermaid's box colour runs to the last ")" of the line (`rgb(66, 133, 244) Netty I/O
    (async)`), which is no colour: it draws the box uncoloured, all of the text its label.
    volley reads the colour and label the writer meant, and a comment says how they differ."""
    source = (
        "sequenceDiagram\n"
        "  box rgb(66, 133, 244) Netty I/O (async)\n    participant A\n  end\n"
        "  box rgb(1,2,3) Team\n    participant C\n  end\n"
        "  A->>C: hi\n"
    )
    (item,) = convert(source, "netty.mmd")
    diagram = volley.parse(item.text)
    assert [(b.tint, b.label) for b in diagram.boxes] == [
        ("rgb(66, 133, 244)", "Netty I/O (async)"),
        ("rgb(1,2,3)", "Team"),
    ]
    (comment,) = [line for line in item.text.split("\n") if line.startswith("//")]
    assert comment.startswith("// Mermaid: box rgb(66, 133, 244) Netty I/O (async) (Mermaid takes")
    assert 'labelled "Netty I/O (async)"' in comment
    assert any("line (2)" in note.message for note in item.warnings)


def test_a_participant_in_two_mermaid_boxes_is_an_error_as_in_mermaid() -> None:
    """Mermaid refuses a participant declared in two boxes; one declared twice in the same box
    stands there once."""
    source = (
        "sequenceDiagram\n  box One\n  participant A\n  end\n  box Two\n  participant A\n  end\n"
    )
    with pytest.raises(VolleyError) as caught:
        convert(source, "two.mmd")
    assert (caught.value.line, caught.value.message) == (
        6,
        "A is in the box on line 2 already; a participant stands in one box",
    )
    (item,) = convert(
        "sequenceDiagram\n  box One\n  participant A\n  participant A\n  end\n", "x.mmd"
    )
    assert item.text.count("participant A") == 1
    assert [b.participants for b in volley.parse(item.text).boxes] == [["A"]]
    with pytest.raises(VolleyError, match="A is in the box on line 2 already"):  # on one line
        convert("sequenceDiagram\n  box One; participant A; end; box Two; participant A; end\n")


def test_one_note_points_at_every_line_drawn_otherwise() -> None:
    """Each statement volley draws otherwise than Mermaid (an actor, an arrow without a head)
    is a comment in the written text; one note on the terminal says which lines, so the user
    knows to read them. A note right of a lane is drawn there, as Mermaid draws it."""
    source = (
        "sequenceDiagram\n  actor A\n  A->B: headless\n  Note right of A: aside\n  A->>B: plain\n"
    )
    (item,) = convert(source, "flow.mmd")
    (note,) = item.warnings
    assert (note.severity, note.line) == ("note", 2)
    assert note.message == (
        "2 lines (2, 3) are drawn otherwise than Mermaid draws them, or not at all; a // "
        "comment in the written text says how"
    )
    done = volley_cli("import", "-", stdin=source)
    assert done.returncode == 0 and "<stdin>:2: note: 2 lines (2, 3)" in done.stderr
    (plain,) = convert("sequenceDiagram\n  A->>B: hi\n  Note over A: x\n", "flow.mmd")
    assert plain.warnings == ()


def test_formatting_tags_become_volleys_markup() -> None:
    """`<b>PHASE 1</b>` (a real README's note) is bold, not text with tags in it; each piece
    of text around the tags keeps showing as written, and a tag volley cannot draw, or one
    never closed, stays text."""
    page = (
        "sequenceDiagram\n"
        "note right of App: <b>PHASE 1: SENDING</b>\n"
        "App->>Net: send <i>chunk</i> <code>seq=`n`</code> and <B>bold <em>both</em></B>\n"
        "note over App,Net: <strong> padded </strong>x<br/>*stars* <u>u</u> <b>open\n"
        "alt <del>retry</del> now\n"
        "Net-->>App: ack\n"
        "end\n"
    )
    (item,) = convert(page, "flow.mmd")
    diagram = volley.parse(item.text)
    note, message, second, block = diagram.items
    assert note.text == "**PHASE 1: SENDING**"
    assert message.label == "send *chunk* `` seq=`n` `` and **bold *both***"
    assert second.text == "**padded** x<br>\\*stars\\* \\<u>u\\</u> \\<b>open"
    assert block.branches[0].label == "~~retry~~ now"
    (spans,) = parse_inline(message.label)
    shown = [(s.text, s.bold, s.italic, s.code) for s in spans]
    assert shown == [
        ("send ", False, False, False), ("chunk", False, True, False), (" ", False, False, False),
        ("seq=`n`", False, False, True), (" and ", False, False, False),
        ("bold ", True, False, False), ("both", True, True, False),
    ]  # fmt: skip


@pytest.mark.parametrize(
    ("text", "label"),
    [
        ("#lt;b#gt;literal#lt;/b#gt;", "<b>literal</b>"),  # escaped tags are text
        ("<b>x</b><b>y</b>", "xy"),  # markup that would not read back: the words alone
        ("<b>Note:</b>text", "Note:text"),
        ("a<b>(x)</b>", "a(x)"),
        ("<b>ok</b> #amp; <code>a#lt;b</code>", "**ok** & `a<b`"),
    ],
)
def test_formatting_tags_only_become_markup_that_reads_back(text: str, label: str) -> None:
    (item,) = convert(f"sequenceDiagram\nA->>B: {text}\n", "flow.mmd")
    (message,) = volley.parse(item.text).messages()
    assert message.label == label


def test_a_name_volley_writes_otherwise_gets_a_lane_that_shows_it_as_written() -> None:
    """Mermaid draws `=C` and `B←C` as names; volley reads a leading `=` and an arrow sign as
    operators, so their lanes are written with look-alikes and their boxes show the names."""
    diagram = volley.parse(
        one(
            "sequenceDiagram\n  A->>B←C: hi\n  B←C->>+=C: x\n  Note over =C: n\n"
            "  =C-->>-A: y\n  B⇽C->>A: z\n"
        )
    )
    assert diagram.participants == ["A", "B\u21fdC", "\uff1dC", "B\u21fdC 2"]
    assert [diagram.shown(name) for name in diagram.participants] == ["A", "B←C", "=C", "B⇽C"]
    assert [(m.sender, m.receiver) for m in diagram.messages()] == [
        ("A", "B\u21fdC"),
        ("B\u21fdC", "\uff1dC"),
        ("\uff1dC", "A"),
        ("B\u21fdC 2", "A"),
    ]


def test_a_no_break_or_ideographic_space_between_words_is_a_space_as_mermaid_reads_it() -> None:
    """Text pasted from a web page, or typed in a CJK input method, holds U+00A0 or U+3000
    where a space was meant; Mermaid's lexer skips them as it skips spaces. The words after a
    colon keep them."""
    diagram = volley.parse(
        one(
            "sequenceDiagram\n  participant\u00a0A\n  participant B as\u3000Bob\n"
            "  loop\u00a0every minute\n  A->>B: a\u00a0b\n  end\n  activate\u00a0B\n"
            "  Note over\u00a0B: n\n  deactivate B\n"
        )
    )
    assert diagram.participants == ["A", "B"]
    assert diagram.labels == {"B": "Bob"}
    [message] = diagram.messages()
    assert message.label == "a\u00a0b"
    assert [b.kind for b in by_type(diagram, Block)] == ["loop"]


def test_autonumber_with_a_start_or_step_of_0_keeps_the_count_or_the_step() -> None:
    """Mermaid draws `start || count` and `step || step`."""
    text = one(
        "sequenceDiagram\n  autonumber\n  A->>B: one\n  autonumber 0 5\n  A->>B: two\n"
        "  A->>B: three\n  autonumber 10 0\n  A->>B: four\n  A->>B: five\n"
    )
    assert [m.number for m in volley.parse(text).messages()] == [1, 2, 7, 10, 15]
    assert "steps of 0" not in text


def test_a_hyphen_before_x_in_a_name_is_said_to_be_mermaids_lost_arrow() -> None:
    """`my-xylo->>B`: Mermaid's name stops before `-x` (its lost message's arrow), so the line
    is `my -x ylo->>B`, which it refuses; the error says so, not that a name holds `>`."""
    with pytest.raises(VolleyError) as caught:
        convert("sequenceDiagram\n    my-xylo->>B: hi\n", "test.mmd")
    error = caught.value
    assert "Mermaid reads '-x' in 'my-xylo->>B' as its arrow" in str(error)
    assert "cannot come before x or )" in (error.hint or "")
    assert one("sequenceDiagram\n    A-xB: lost\n") == "A -x B: lost\n"


@pytest.mark.parametrize(
    ("line", "said", "column"),
    [
        ("gw->>auth-xyz: validate", "Mermaid reads '-x' in 'auth-xyz' as an arrow", 14),
        ("gw->>svc-)x: publish", "Mermaid reads '-)' in 'svc-)x' as an arrow", 13),
        ("John-->>-xAlice: Hi", "Mermaid reads '-x' after '-->>' as a second arrow", 13),
        ("B-->>-)A: back", "Mermaid reads '-)' after '-->>' as a second arrow", 10),
        ("B->>-- A: back", "Mermaid reads '--' after '->>' as a second arrow", 9),
        ("John-->> -xAlice: Hi", "Mermaid reads '-x' after '-->>' as a second arrow", 14),
        ("A->>B->>C: x", "Mermaid reads '->>' in 'B->>C' as an arrow", 10),
        ("A->>B--x C: x", "Mermaid reads '--x' in 'B--x C' as an arrow", 10),
        ("Client--->>Server: GET /", "'--->>' is not one of Mermaid's arrows", 11),
        ("Client ---> Server: x", "'--->' is not one of Mermaid's arrows", 12),
        ("A->>>B: msg", "'->>>' is not one of Mermaid's arrows", 6),
        ("Alice -->>> Bob: msg", "'-->>>' is not one of Mermaid's arrows", 11),
        ("A->>B++: call", "Mermaid refuses a '+' in a name ('B++')", 10),
        ("B-->>John--: done", "'--' after 'John' is no part of a Mermaid name, but PlantUML's", 14),
        ("B-->>John-: done", "'-' after 'John' is no part of a Mermaid name", 14),
        ("A->>++B: x", "Mermaid reads one activation mark after '->>'", 10),
        ("A->>+-B: x", "Mermaid reads one activation mark after '->>'", 10),
        ("A->>B：text", "a full-width colon '：' does not start a message's text", 10),
        ("A,B->>C: x", "Mermaid refuses a ',' in a name ('A,B')", 6),
    ],
)
def test_lines_mermaid_refuses_for_a_second_arrow_are_refused(
    line: str, said: str, column: int
) -> None:
    """A receiver holding `-x` or `-)`, or such a piece glued to a `-` mark, is an arrow to
    Mermaid's lexer, which refuses the line: volley does not make a lane of what is left. So
    are an arrow with a dash too many, PlantUML's `++` and `--` after a name, and a second
    activation mark (each made a lane "Client-", "B++" or "+B" in silence)."""
    with pytest.raises(VolleyError) as caught:
        convert(f"sequenceDiagram\n    A->>+John: x\n    {line}\n", "test.mmd")
    assert said in caught.value.message
    assert (caught.value.line, caught.value.column) == (3, column)
    assert one("sequenceDiagram\n    A->>+John: x\n    John-->>- xavier: y\n").endswith(
        "John -->- xavier: y\n"
    )
    for line, hint in (("A->>node-x: v", "rename"), ("A->>B--x C: v", "one a line")):
        with pytest.raises(VolleyError) as caught:
            convert(f"sequenceDiagram\n    {line}\n", "test.mmd")
        assert hint in (caught.value.hint or "")
    # a half arrow's pieces in a name are no arrow to Mermaid's lexer
    assert one("sequenceDiagram\n    A->>api//-v2: v\n") == "A -> api//-v2: v\n"


def test_lanes_stand_where_mermaid_declares_them() -> None:
    """An `activate` or `destroy` line declares no participant in Mermaid's grammar; `links`,
    `link`, `properties` and `details` do."""
    diagram = volley.parse(
        one(
            "sequenceDiagram\n"
            "activate B\n"
            'links C: {"Docs": "https://example.com"}\n'
            "A->>B: call\n"
            "B-->>C: tell\n"
            "deactivate B\n"
        )
    )
    assert diagram.participants == ["C", "A", "B"]
    bars = [(a.participant, a.on) for a in by_type(diagram, Activation)]
    assert bars == [("B", True), ("B", False)]


def test_a_reversed_half_arrow_starts_and_ends_the_bars_mermaid_does() -> None:
    """Mermaid's `+` starts a bar on the name right of the arrow and `-` ends the one left of
    it, whichever way a half arrow points; `A/|-+B` is B answering A, so the bar is B's."""
    diagram = volley.parse(one("sequenceDiagram\nA/|-+B: x\nB-->>-A: y\nA->>+B: z\nB/|---A: w\n"))
    bars = [(a.participant, a.on) for a in by_type(diagram, Activation)]
    assert bars == [("B", True), ("B", False)]
    assert [m.activate for m in diagram.messages()] == [None, "-", "+", None]


def test_front_matter_is_read_as_yaml_and_the_last_title_is_shown() -> None:
    """Mermaid reads its front matter with a YAML parser (a ` #` starts a comment, quotes are
    YAML's, a `title:` under `config:` is no title) and shows the title set last."""
    text = one(
        "---\ntitle: Order #1 flow\nconfig:\n  title: nested\n  sequence:\n"
        "    showSequenceNumbers: true\n---\nsequenceDiagram\nA->>B: x\n"
    )
    diagram = volley.parse(text)
    assert diagram.title == "Order"
    assert [m.number for m in diagram.messages()] == [1]
    assert "// Mermaid: title: Order #1 flow (YAML reads from ' #' on as a comment)" in text
    assert "//      title: nested" in text
    quoted = volley.parse(one("---\ntitle: 'It''s \"#1\"'\n---\nsequenceDiagram\nA->>B: x\n"))
    assert quoted.title == 'It\'s "#1"'
    last = volley.parse(one("sequenceDiagram\ntitle First\nA->>B: x\ntitle: Last\n"))
    assert last.title == "Last"


def test_front_matter_that_is_not_yaml_is_an_error_at_its_line() -> None:
    with pytest.raises(VolleyError) as caught:
        one("---\ntitle: ok\nconfig: [open\n---\nsequenceDiagram\nA->>B: x\n")
    error = caught.value
    assert error.line == 3 and "the front matter is not YAML that Mermaid reads" in error.message


def test_a_participants_config_is_yaml_on_one_line_or_several() -> None:
    """Mermaid reads `@{ … }` with a YAML parser: unquoted values, and a block over several
    lines up to the first `}`."""
    text = one(
        "sequenceDiagram\n"
        "participant API@{ type: boundary, alias: Public API }\n"
        "participant DB@{\n"
        '  "type": "database"\n'
        "  alias: Orders store\n"
        "}\n"
        "API->>DB: query\n"
    )
    diagram = volley.parse(text)
    assert diagram.labels == {"API": "Public API", "DB": "Orders store"}
    assert [(m.sender, m.receiver) for m in diagram.messages()] == [("API", "DB")]
    with pytest.raises(VolleyError) as caught:
        one("sequenceDiagram\nparticipant API@{ type: [x }\nA->>API: x\n")
    assert "this participant's @{…} is not YAML that Mermaid reads" in caught.value.message


def test_accdescr_with_its_brace_on_the_next_line_is_kept_as_comments() -> None:
    text = one("sequenceDiagram\naccDescr\n{\nWhat the diagram shows\n}\nA->>B: x\n")
    assert "// What the diagram shows" in text
    assert [m.label for m in volley.parse(text).messages()] == ["x"]


def test_a_box_naming_participants_messages_put_apart_says_what_mermaid_draws() -> None:
    text = one(
        "sequenceDiagram\nA->>B: x\nC->>A: y\nbox Blue Back\nparticipant A\nparticipant C\nend\n"
    )
    diagram = volley.parse(text)
    assert [b.participants for b in diagram.boxes] == [["A", "C"]]
    assert "its band lies over B too" in text


def test_an_open_brace_in_a_messages_text_is_text() -> None:
    text = one("sequenceDiagram\nA->>B: uses @{var\nB->>A: ok }\n")
    assert [m.label for m in volley.parse(text).messages()] == ["uses @{var", "ok }"]


def test_a_note_beside_two_participants_is_refused_as_mermaid_refuses_it() -> None:
    """`Note left of A,B:` was written as a note spanning both, under a comment placing it
    over A."""
    with pytest.raises(VolleyError) as caught:
        convert("sequenceDiagram\n    A->>B: x\n    Note left of A,B: hi\n", "n.mmd")
    assert "a note left of stands beside one participant" in caught.value.message
    assert caught.value.hint == "write note over A, B: to span them"


def test_a_spaced_name_before_as_is_read_as_meant_and_the_newer_mermaid_reading_said() -> None:
    """`participant API Gateway as GW`: Mermaid 11.13 and later take the whole line as the
    name (real READMEs then draw their lanes twice); volley reads it as meant, and says so."""
    text = one("sequenceDiagram\n    participant API Gateway as GW\n    A->>API Gateway: x\n")
    assert "participant API Gateway as GW\n" in text and "A -> API Gateway: x\n" in text
    assert "Mermaid 11.13 and later take all of it as the name" in text
    assert "11.13" not in one("sequenceDiagram\n    participant GW as API Gateway\n    A->>GW: x\n")


def test_a_rect_with_words_after_its_colour_says_so_in_a_comment() -> None:
    """`rect rgb(200, 200, 200) Phase 1`: Mermaid reads it all as the colour (and fills the
    rect black); it was imported without a word."""
    [item] = convert("sequenceDiagram\nrect rgb(200, 200, 200) Phase 1\nA->>B: hi\nend\n")
    assert "// Mermaid: rect rgb(200, 200, 200) Phase 1 (a rect takes no label" in item.text
    [plain] = convert("sequenceDiagram\nrect rgb(200, 200, 200)\nA->>B: hi\nend\n")
    assert "//" not in plain.text


@pytest.mark.parametrize(
    ("source", "line", "message"),
    [
        ("sequenceDiagram\nA->>B: hi\x00there\n", 2, "the text holds a NUL byte"),
        ("@startuml\nA -> B: x\x00y\n@enduml\n", 2, "the text holds a NUL byte"),
        ("sequenceDiagram\nautonumber 1000000000\nA->>B: hi\n", 3, "volley numbers messages up"),
        ("@startuml\nautonumber 999999999\nA -> B: one\nA -> B: two\n@enduml\n", 4, "volley nu"),
        (
            "sequenceDiagram\n" + "loop x\n" * 151 + "A->>B: y\n" + "end\n" * 151,
            152,
            "blocks nested more than 150 deep",
        ),
        (
            "@startuml\n" + "loop x\n" * 151 + "A -> B: y\n" + "end\n" * 151 + "@enduml\n",
            152,
            "blocks nested more than 150 deep",
        ),
    ],
)
def test_what_volley_could_not_read_again_is_an_error_at_its_line_not_a_file(
    source: str, line: int, message: str
) -> None:
    """An import writes text the user keeps: a NUL byte, a number past nine digits or blocks
    deeper than any limit allows would be written into a file that volley then refuses."""
    with pytest.raises(VolleyError) as caught:
        convert(source, "flow.txt")
    assert (caught.value.line, caught.value.message[: len(message)]) == (line, message)


def test_every_statement_mermaid_would_refuse_is_reported_at_once() -> None:
    with pytest.raises(VolleyError) as caught:
        convert("sequenceDiagram\nA->>B: x\nfoo\nbar baz\nA=>B: y\nB-->>A: ok\n", "flow.mmd")
    assert [(e.line, e.message) for e in caught.value.errors] == [
        (3, "not a Mermaid sequence statement: 'foo'"),
        (4, "not a Mermaid sequence statement: 'bar baz'"),
        (5, "not a Mermaid sequence statement: 'A=>B: y'"),
    ]


@pytest.mark.parametrize(
    "source",
    [
        "sequenceDiagram\n" + "loop x\n" * 155 + "A->>B: y\n" + "end\n" * 155,
        "@startuml\n" + "loop x\n" * 155 + "A -> B: y\n" + "end\n" * 155 + "@enduml\n",
    ],
)
def test_blocks_nested_too_deep_are_one_error_their_ends_none(source: str) -> None:
    with pytest.raises(VolleyError) as caught:
        convert(source, "flow.txt")
    assert [e.line for e in caught.value.errors] == [152]


def test_a_colon_in_a_declared_name_is_an_error_not_a_second_lane():
    """`participant Server: valid user?` (a label where Mermaid's `as` goes), which Mermaid
    refuses, declared a lane "Server valid user?" that stayed empty beside the messages'
    Server, with nothing said."""
    source = "sequenceDiagram\n    participant Server: valid user?\n    Client->>Server: hi\n"
    with pytest.raises(VolleyError) as caught:
        convert(source, "test.mmd")
    error = caught.value
    assert (error.line, error.column) == (2, 23)
    assert "a Mermaid participant name cannot hold a colon" in str(error)
    assert error.hint == 'for a label, write "participant Server as valid user?"'
    labelled = one("sequenceDiagram\n    participant A as Alice: the user\n    A->>B: hi\n")
    assert volley.parse(labelled).participants == ["A", "B"]
    # a colon in a comment after the name is the comment's (kept as one, as `%%` after a name is)
    commented = one("sequenceDiagram\n    participant A %% the gateway: main\n    A->>B: hi\n")
    assert '"%% the gateway: main" after A is kept as a comment' in commented


@pytest.mark.parametrize(
    ("declared", "lanes"),
    [
        ("participant A #the user", ["A", "B"]),
        ("participant A #the user: admin", ["A", "B"]),
        ("participant A as Alice #admin", ["A", "B"]),
        ("participant C# client", ["C", "A", "B"]),  # Mermaid's C, another lane than "C# …"
    ],
)
def test_a_hash_in_a_declaration_starts_mermaids_comment(declared: str, lanes: list[str]):
    """Mermaid ends a declared name (and its `as` text) at a `#`, whose rest of the line is a
    comment: `participant A #the user` declared a lane "A #the user" beside the messages' A,
    in silence."""
    text = one(f"sequenceDiagram\n    {declared}\n    A->>B: hi\n")
    assert "(Mermaid reads a line from # on as a comment)" in text
    assert volley.parse(text).participants == lanes


def test_a_participant_declared_and_never_sent_to_is_drawn_without_a_word() -> None:
    """Mermaid's `participant Products`, which no message names, was written into `order:`
    alone, and the import then warned that it was "Product" misspelt (Mermaid's cypress
    "various participant types")."""
    text = one("sequenceDiagram\nparticipant Product\nparticipant Products\nUser->>Product: x\n")
    assert "participant Products\n" in text
    assert volley.check(text).warnings == []


def test_settings_above_the_header_are_counted_among_the_lines_drawn_otherwise() -> None:
    """A `%%{init}%%` directive or front matter's config above `sequenceDiagram` (which hides
    unused lanes, forces menus) was kept as a comment but left out of the import's note,
    which counted the same directive written under the header."""
    (directive,) = convert(
        '%%{init: { "sequence": {"hideUnusedParticipants": true }}}%%\nsequenceDiagram\n'
        "participant a\nA->>B: x\n",
        "d.mmd",
    )
    assert "(1)" in directive.warnings[-1].message
    (front,) = convert(
        "---\ntitle: T\nconfig:\n  sequence:\n    forceMenus: true\n---\nsequenceDiagram\n"
        "A->>B: x\n",
        "d.mmd",
    )
    assert "3 lines (3, 4, 5)" in front.warnings[-1].message
    (plain,) = convert("---\ntitle: T\n---\nsequenceDiagram\nA->>B: x\n", "d.mmd")
    assert plain.warnings == ()  # a title is drawn as Mermaid draws it


def test_a_line_of_several_headless_arrows_is_named_once() -> None:
    text = one("sequenceDiagram;Alice->Bob: Hi;Note right of Bob: thinks;Bob-->Alice: ok;\n")
    assert "arrows of line(s) 1 of test.mmd as lines" in text


def test_a_numbering_start_with_three_decimals_is_refused_as_mermaid_refuses_it() -> None:
    with pytest.raises(VolleyError) as caught:
        one("sequenceDiagram\nautonumber 10.001\nAlice->Bob:Hello\n")
    assert caught.value.hint == (
        "Mermaid reads a number with at most two decimals (10.25) and refuses this too"
    )
    assert "autonumber 10\n" in one("sequenceDiagram\nautonumber 10.25\nA->>B:Hello\n")


def test_hints_for_a_glued_as_and_a_metadata_without_colons_use_the_authors_words() -> None:
    with pytest.raises(VolleyError) as caught:
        one(
            "sequenceDiagram\nparticipant X_AutoPublishable asAAAA:BBBB\nX_AutoPublishable->>A: x\n"
        )
    assert caught.value.hint == 'put a space after "as": "participant X_AutoPublishable as AAAA"'
    with pytest.raises(VolleyError) as caught:
        one('sequenceDiagram\nparticipant C@{ "type" "control" }\nC->>A: x\n')
    assert caught.value.hint == 'Mermaid refuses it too; write it as @{ "type": "control" }'
    with pytest.raises(VolleyError) as caught:
        one("sequenceDiagram\nparticipant A@{ type: database, alias: a: b }\nA->>B: x\n")
    assert caught.value.hint == (
        'Mermaid refuses it too; write it as @{ "type": "database", "alias": "a" }'
    )
    # a word that starts with "as" is no glued alias: `participant AI assistant: Claude`
    with pytest.raises(VolleyError) as caught:
        one("sequenceDiagram\nparticipant AI assistant: Claude\nA->>B: x\n")
    assert caught.value.hint == 'for a label, write "participant AI assistant as Claude"'
