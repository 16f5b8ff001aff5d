"""Reading what people already wrote: swimlanes.io's own rules, and Mermaid's and PlantUML's
habits, each read with its meaning or refused with an error that says how volley writes it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import volley
from volley.errors import VolleyError, VolleyErrors
from volley.language.writer import format_text
from volley.model import ARROWS, Activation, Block, Divider, Message, Note

CASES = Path(__file__).parent / "cases" / "swimlanes"


def parse(text: str) -> volley.Diagram:
    return volley.parse(text, "flow.volley")


def errors_of(text: str) -> list[volley.VolleyError]:
    with pytest.raises(volley.VolleyError) as info:
        volley.parse(text, "flow.volley")
    return getattr(info.value, "errors", [info.value])


def only_error(text: str) -> volley.VolleyError:
    errors = errors_of(text)
    assert len(errors) == 1, [e.format() for e in errors]
    return errors[0]


# --- a note runs until the next element --------------------------------------------------------


def test_note_lines_need_no_indentation_and_text_may_start_on_the_next_line():
    diagram = parse("A -> B: hi\nnote:\nfirst line\nsecond line\nB -> A: ok\n")
    note = diagram.items[1]
    assert isinstance(note, Note) and note.text == "first line\nsecond line"
    assert note.over == ["A", "B"]
    assert isinstance(diagram.items[2], Message) and diagram.items[2].line == 5


def test_blank_lines_in_a_note_are_paragraph_breaks_and_trailing_ones_are_dropped():
    diagram = parse("note A: one\n\ntwo\n\n\nthree\n\n\nA -> B\n")
    assert diagram.items[0].text == "one\n\ntwo\n\n\nthree"
    assert len(diagram.items) == 2


def test_a_fenced_block_anywhere_in_a_note_belongs_to_it():
    diagram = parse('note:\nsee:\n\n```json\n{"a": -> 1}\n```\nafter\nA -> B\n')
    assert diagram.items[0].text == 'see:\n\n```json\n{"a": -> 1}\n```\nafter'


def test_a_fence_that_opens_on_the_note_line_holds_the_lines_below_it():
    """swimlanes.io reads a note's Markdown from its colon on: `note App,MQ:```` opens a code
    block there, closed below, which held an arrow that would otherwise end the note."""
    text = (
        "note App,MQ:```yaml\nhandler: (cmd) => {\n  emit()\n}\n```\nthen\n"
        "App -> MQ: go\nnote MQ:```\nx\n```\n"
    )
    diagram = parse(text)
    assert [item.text for item in diagram.items if isinstance(item, Note)] == [
        "```yaml\nhandler: (cmd) => {\n  emit()\n}\n```\nthen",
        "```\nx\n```",
    ]
    assert isinstance(diagram.items[1], Message) and diagram.items[1].line == 7
    with pytest.raises(VolleyError) as caught:  # never closed: said where it opens
        parse("A -> B: x\nnote A,B:  ```\nk: v\nB -> A: y\n")
    assert (caught.value.line, caught.value.column) == (2, 12)
    assert "this fenced block is never closed" in caught.value.message


@pytest.mark.parametrize(
    "element",
    [
        "A -> B",
        "note B: next",
        "Note: next",
        "=: section",
        "_: thin",
        "...: later",
        "if: x\nend",
        "loop: x\nend",
        "title: T",
        "order: B, A",
        "autonumber",
        "// a comment",
    ],
)
def test_a_note_ends_at_the_next_element(element):
    diagram = parse(f"note A: text\nmore text\n{element}\n")
    assert diagram.items[0].text == "text\nmore text"


def test_spaces_at_the_end_of_a_notes_lines_mean_nothing_wherever_it_starts():
    """`volley fmt` moves a one-line note onto its `note:` line: it must read the same."""
    under = parse("A -> B: x\nnote:\nends with a space \nand a tab\t\n").items[1]
    on_line = parse("A -> B: x\nnote: ends with a space \nand a tab\t\n").items[1]
    assert under.text == on_line.text == "ends with a space\nand a tab"


def test_a_percent_line_in_a_swimlanes_note_is_its_text_with_a_warning():
    """swimlanes.io has no `%%` comment: such a line goes on the note (ps's `%CPU` columns),
    and, as Mermaid's comment, it is pointed out. After a note written the Mermaid way, which
    takes no more lines, it stays a comment."""
    checked = volley.check("A -> B: x\nnote: Load at peak\n%%CPU and %%MEM from ps\nB -> A: y\n")
    assert checked.diagram.items[1].text == "Load at peak\n%%CPU and %%MEM from ps"
    (warning,) = checked.warnings
    assert warning.line == 3 and '("%%" starts no comment there)' in warning.message
    assert 'write "//" instead' in warning.message
    mermaid = volley.check("A -> B: x\nnote over A: a note\n%% a comment\nB -> A: y\n")
    assert mermaid.diagram.items[1].text == "a note" and mermaid.warnings == []


def test_a_note_ends_at_end_and_bare_else_inside_a_block():
    diagram = parse("if: x\nA -> B\nnote: n\nmore\nelse\nB -> A\nnote: m\nend\n")
    block = diagram.items[0]
    assert [b.items[-1].text for b in block.branches] == ["n\nmore", "m"]


def test_prose_with_a_plural_or_a_comparison_stays_in_the_note_unremarked():
    text = "A -> B: call\nnote: waiting\nNotes: see below\nLatency > 200ms: alert\n"
    text += "The partcipant list is long\nB --> A: done\n"
    assert volley.check(text).warnings == []


def test_prose_that_starts_with_a_mermaid_word_stays_in_the_note():
    text = "note A:\nloop over the pages\nIf it fails, participants retry.\nAnd then stop.\n"
    text += "Loop detection is handled by the proxy.\nAlt text is required!\nOrder matters.\n"
    diagram = parse(text + "A -> B\n")
    assert diagram.items[0].text == text.split(":", 1)[1].strip()
    assert len(diagram.items) == 2
    # The line that starts with Mermaid's `loop` is pointed out, in case the keyword was meant;
    # a sentence (three words or more, and its full stop) is prose, as swimlanes.io's notes are.
    assert [(w.line, w.severity) for w in diagram.warnings] == [(2, "warning")]
    assert "read as text of the note on line 1" in diagram.warnings[0].message


def test_a_mermaid_branch_in_a_note_inside_its_block_is_pointed_out():
    """`else failure` after a note in an if block (`and …` in a par) stays the note's text, as
    swimlanes.io reads it, but is pointed out: without a colon it was most likely meant as
    Mermaid's branch. Prose that starts so elsewhere, or in another block, is not."""
    text = (
        "note: Else the client retries.\nA -> B: go\n"
        "alt ok\n  A ->> B: x\n  note: n\nelse failure\n  B ->> A: y\nend\n"
        "par: fan out\n  A -> C: q\n  note: first\n  and at the same time\n"
        "  Else nothing\nend\n"
        "loop: tries\n  A -> B: z\n  note: m\n  else later\nend\n"
    )
    checked = volley.check(text)
    alt, par = checked.diagram.items[2], checked.diagram.items[3]
    assert [len(block.branches) for block in (alt, par)] == [1, 1]
    assert alt.branches[0].items[1].text == "n\nelse failure"
    said = [(w.line, w.column, w.message) for w in checked.warnings]
    assert [(line, column) for line, column, _ in said] == [(6, 1), (12, 3)]
    assert 'write "else: failure"' in said[0][2] and "note on line 5" in said[0][2]
    assert 'write "and: at the same time"' in said[1][2]
    colon = volley.parse(text.replace("else failure", "else: failure"))
    assert colon.items[2].branches[1].label == "failure"


def test_an_activation_line_of_a_lane_ends_a_note_and_prose_stays_in_it():
    """`deactivate Server` under a note is the element where Server is a lane of the messages
    (its bar ran to the end of the diagram, the line drawn in the note); "Activate the
    account" stays the note's text, pointed out."""
    checked = volley.check(
        "Client ->+ Server: call\nnote Server: working on it\ndeactivate Server\n"
        "Server --> Client: done\nnote Client: then\nActivate the account\n"
    )
    kinds = [type(item).__name__ for item in checked.diagram.items]
    assert kinds == ["Message", "Note", "Activation", "Message", "Note"]
    assert checked.diagram.items[1].text == "working on it"
    assert checked.diagram.items[4].text == "then\nActivate the account"
    (warning,) = checked.warnings
    assert warning.line == 6 and "deactivate: A" in warning.message


def test_fmt_keeps_a_notes_activation_like_line_in_the_note():
    """A note that holds such a line (an import's, from a <br>) is written so that it reads
    back as the note it is, whatever lanes the diagram has."""
    from volley.language.writer import write

    diagram = parse("A -> B: x\nnote A: first\\ndeactivate B\nB -> A: y\n")
    diagram.items[1].text = "first\ndeactivate B"
    again = parse(write(diagram))
    assert [type(item).__name__ for item in again.items] == ["Message", "Note", "Message"]


def test_a_comment_line_ends_a_note_before_a_mermaid_statement():
    diagram = parse("note A: hi\n//\nactivate A\nA -> B\n")
    assert diagram.items[0].text == "hi" and isinstance(diagram.items[1], Activation)
    assert not diagram.warnings


def test_an_element_ends_a_note_however_deep_it_is_indented():
    # swimlanes.io, where indentation means nothing, draws that line as a message: so does volley
    diagram = parse("note A: text\n  B -> C: a message\nA -> B\n")
    assert diagram.items[0].text == "text"
    assert [m.label for m in diagram.messages()] == ["a message", ""]
    assert not diagram.warnings


def test_an_arrow_with_nothing_after_it_does_not_end_a_note():
    # Not a message (no name it points at), in swimlanes.io either: text of the note.
    diagram = parse("A -> B\nnote: first\n<!-- a comment -->\nB ->\nB -> A\n")
    (note,) = [item for item in diagram.items if isinstance(item, Note)]
    assert note.text == "first\n<!-- a comment -->\nB ->"
    assert len(diagram.messages()) == 2


def test_a_message_indented_under_a_note_in_a_block_is_a_message():
    # The shape of a published swimlanes.io diagram (tabs, one level too deep after the note):
    # swimlanes.io draws both lines as messages.
    text = (
        "if: instant\n"
        "\tUser -> App: click\n"
        "else: event\n"
        "\tnote User,App: only shown when registered.\n"
        "\t\tUser -> App: click start\n"
        "\t\tApp -> App: `POST /start`\n"
        "    App <-> Store: check\n"
        "end\n"
    )
    diagram = parse(text)
    note = diagram.items[0].branches[1].items[0]
    assert note.text == "only shown when registered."
    assert [m.label for m in diagram.messages()] == [
        "click",
        "click start",
        "`POST /start`",
        "check",
    ]
    assert not diagram.warnings


def test_messages_indented_under_a_mermaid_note_are_messages():
    # A published Mermaid diagram indents its lines by activation depth; Mermaid ignores that.
    text = (
        "participant Startup\n"
        "  Note right of Startup: loaded on startup\n"
        "    Startup ->>+ ArgParse: configure\n"
        "    ArgParse -->>- Startup: done\n"
    )
    diagram = parse(text)
    assert [m.label for m in diagram.messages()] == ["configure", "done"]
    notes = [item for item in diagram.items if isinstance(item, Note)]
    assert [note.text for note in notes] == ["loaded on startup"]


def test_deeper_text_lines_of_a_note_are_not_pointed_out():
    diagram = parse("A -> B\nnote: one\n  two\n  - three\n\n  four: five\nB -> A\n")
    assert diagram.items[1].text == "one\ntwo\n- three\n\nfour: five"
    assert diagram.warnings == []


def test_text_after_a_comment_that_ended_a_note_is_an_error_that_says_so():
    # A published copy of swimlanes.io's syntax overview writes "//" where blank lines were.
    errors = errors_of("A -> B\nnote:\nSome text\n//\n1. Ordered\n2. list\n")
    assert [e.line for e in errors] == [5, 6]
    assert "the note on line 2 ended at the comment on line 4" in errors[0].hint
    assert "leave a blank line instead of the comment" in errors[0].hint
    assert "note" not in (errors[1].hint or "")  # only the first line after the comment
    assert parse("A -> B\nnote:\nSome text\n\n1. Ordered\n2. list\n").items[1].text == (
        "Some text\n\n1. Ordered\n2. list"
    )


def test_a_directive_under_a_notes_words_is_read_with_a_warning_that_says_how_to_keep_it():
    """`Order: 1234` in a note's words ends the note, as swimlanes.io reads it, and made a lane
    called 1234 without a word."""
    diagram = parse("A -> B: buy\nnote A:\nThe customer placed\nOrder: 1234\nB --> A: ok\n")
    assert diagram.participants[0] == "1234" and diagram.items[1].text == "The customer placed"
    (warning,) = diagram.warnings
    assert (warning.line, warning.column) == (4, 1)
    assert warning.message == '"Order:" ends the note on line 2 and sets the lanes\' order'
    assert warning.hint == "if it is the note's words, escape its colon: Order\\:"
    (title,) = parse("note: Intro\n  more\nTitle: Checkout\nA -> B\n").warnings
    assert title.message == '"Title:" ends the note on line 1 and retitles the diagram'
    kept = parse("A -> B: buy\nnote A:\nThe customer placed\nOrder\\: 1234\nB --> A: ok\n")
    assert kept.warnings == [] and kept.items[1].text == "The customer placed\nOrder\\: 1234"
    # right after a note's own line (a one-line note), a directive is no note's words
    assert parse("A -> B\nnote A: placed\norder: B, A\n").warnings == []
    assert parse("A -> B\nnote A: placed\n\norder: B, A\n").warnings == []


def test_a_block_opened_under_a_notes_words_and_never_closed_says_how_to_keep_it():
    """`If: the token is stale, we refresh.` as a note's prose opens a block around the rest
    of the diagram, as swimlanes.io reads it: its never-closed warning names the note."""
    text = "C -> S: request\nnote:\nthe server checks it.\nIf: the token is stale.\nS --> C: ok\n"
    (warning,) = parse(text).warnings
    assert (warning.line, warning.message.split(";")[0]) == (4, "this if: block is never closed")
    assert warning.hint == (
        "it opens right under the words of the note on line 2; if it is the note's words, "
        "escape its colon: If\\:"
    )
    assert parse(text.replace("If:", "If\\:")).warnings == []
    one_line = parse("A -> B\nnote A: We fetch the token.\nIf: it is stale, we refresh.\n")
    assert one_line.warnings[0].hint.endswith("escape its colon: If\\:")
    # a block after a note that is closed, or one not under a note, says nothing of notes
    assert parse("A -> B\nnote:\nwords\nif: ok\nA -> B\nend\n").warnings == []
    (plain,) = parse("A -> B\nnote:\nwords\n\nA -> B\nloop: forever\nA -> B\n").warnings
    assert plain.hint is None


def test_note_words_that_start_as_a_payload_are_errors_that_say_how_to_keep_them():
    """swimlanes.io has no in:/out:, so a note's line `In: query` is its text there; in volley
    it ends the note and is a payload with no message: the error says how to keep it."""
    errors = errors_of("C -> S: GET\nnote:\nIn: the query\nOut: the list\nS --> C: 200\n")
    assert [e.line for e in errors] == [3, 4]
    assert all("if it is the words of the note on line 2 (which" in e.hint for e in errors)
    assert errors[0].hint.endswith("escape its colon: In\\:")
    assert errors[1].hint.endswith("escape its colon: Out\\:")
    kept = parse("C -> S: GET\nnote:\nIn\\: the query\nOut\\: the list\nS --> C: 200\n")
    assert kept.items[1].text == "In\\: the query\nOut\\: the list"
    # a payload detached by a note: the hint says both what it may have meant
    (detached,) = errors_of("C -> S: GET\nnote: words\nS -> C: x\nnote: more\n\nin: body\n")
    assert detached.hint.startswith("payloads belong to the message line above them")
    assert "the note on line 4" in detached.hint
    (after_a_message,) = errors_of("C -> S: GET\nS -> C: x\n\n//\nB -> A\nout: y\n")
    assert "note" not in after_a_message.message + (after_a_message.hint or "")


def test_a_note_written_the_mermaid_way_is_one_line():
    errors = errors_of("note over A: text\nmore text\n")
    assert [e.line for e in errors] == [2]


def test_a_mermaid_note_whose_words_start_below_it_runs_to_its_end_note():
    """WebSequenceDiagrams writes a note of several lines `note over B:`, its lines, `end
    note`: its words were an error each (a line starting "and": "and outside any block"), and
    the note empty. Read as WebSequenceDiagrams reads it: to the `end note`, whatever follows
    (a Mermaid block after it is that block)."""
    checked = volley.check(
        "A->B: hi\nnote over B:\nfirst line\nand the second line\nend note\n"
        "loop every minute\n  A -> B: x\nend\nB-->A: ok\n"
    )
    note = checked.diagram.items[1]
    assert note.over == ["B"] and note.text == "first line\nand the second line"
    assert [type(item).__name__ for item in checked.diagram.items[2:]] == ["Block", "Message"]
    assert checked.warnings == []
    errors = errors_of("A->B: hi\nnote over B: title\nfirst line\nend note\n")
    assert "delete the line" in (errors[-1].hint or "") and '"end note"' in errors[-1].hint
    for end in ("end  note", "end hnote", "endnote"):
        errors = errors_of(f"A->B: hi\nnote over B: title\nfirst line\n{end}\n")
        assert '"end note" ends a note of several lines' in (errors[-1].hint or ""), end


def test_an_end_note_indented_under_a_note_is_pointed_out():
    """Indenting a Mermaid note's lines, as its hint says, took an indented `end note` into
    the note without a word."""
    checked = volley.check("A->B: hi\nnote over B: title\n  first line\n  end note\nB-->A: ok\n")
    (warning,) = checked.warnings
    assert (warning.line, warning.column) == (4, 3) and "delete this line" in warning.message


def test_an_empty_mermaid_note_runs_on_only_to_an_end_note():
    """Without an `end note` below it, `note over B:` is the empty one line Mermaid reads, and
    a Mermaid statement after it is that statement, not the note's words."""
    checked = volley.check("A->B: x\nnote over B:\nloop every minute\n  A -> B: y\nend\n")
    assert [type(item).__name__ for item in checked.diagram.items] == ["Message", "Note", "Block"]
    assert [w.line for w in checked.warnings] == [2]  # the empty note


# --- else and and ------------------------------------------------------------------------------


@pytest.mark.parametrize("word", ["else", "else:", "else: no", "ELSE", "Else no"])
def test_else_needs_no_colon_nor_label(word):
    block = parse(f"if: yes\nA -> B\n{word}\nB -> A\nend\n").items[0]
    assert isinstance(block, Block) and len(block.branches) == 2
    label = word[4:].lstrip(":").strip()
    assert block.branches[1].label == label
    assert block.branches[1].items[0].sender == "B"


def test_several_else_branches_and_bare_and():
    block = parse("if: a\nA -> B\nelse\nB -> A\nelse: c\nA -> A\nend\n").items[0]
    assert [b.label for b in block.branches] == ["a", "", "c"]
    block = parse("par\nA -> B\nand\nA -> C\nand Bob\nA -> D\nend\n").items[0]
    assert block.kind == "par" and [b.label for b in block.branches] == ["", "", "Bob"]


# --- arrows compose ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "arrow,line,head_from,head_to",
    [
        ("<-->>", "dashed", "filled", "open"),
        ("<->>", "solid", "filled", "open"),
        ("<=>", "bold", "filled", "filled"),
        ("<<-", "solid", "open", "none"),
        ("<<-->>", "dashed", "open", "open"),
        ("x-", "solid", "cross", "none"),
        ("x--x", "dashed", "cross", "cross"),
        ("=>>", "bold", "none", "open"),
    ],
)
def test_arrows_compose_from_heads_and_a_shaft(arrow, line, head_from, head_to):
    message = parse(f"Cache (local) {arrow} Store: sync\n").items[0]
    assert (message.sender, message.arrow, message.receiver) == ("Cache (local)", arrow, "Store")
    style = message.style
    assert (style.line, style.head_from, style.head_to) == (line, head_from, head_to)


def test_every_composed_arrow_is_known_and_none_is_headless():
    assert len(ARROWS) == 4 * 3 * 4 - 3
    assert not {"-", "--", "="} & set(ARROWS)


def test_an_x_head_stands_apart_so_names_keep_their_x():
    message = parse("x-ray -> Fox-x: hi\n").items[0]
    assert (message.sender, message.arrow, message.receiver) == ("x-ray", "->", "Fox-x")
    message = parse("Box x-> Fox\n").items[0]
    assert (message.sender, message.arrow, message.receiver) == ("Box", "x->", "Fox")


@pytest.mark.parametrize(
    ("line", "sender", "arrow", "receiver"),
    [
        ("A -> AWS x-ray: trace", "A", "->", "AWS x-ray"),  # an inner word starting x-
        ("Jean x-Men --> B", "Jean x-Men", "-->", "B"),
        ("Set x=5 -> B: go", "Set x=5", "->", "B"),
        ("A -> Node x-1", "A", "->", "Node x-1"),
        ("A -> service-x", "A", "->", "service-x"),  # nothing after the x: no lost message
        ("A -> service-x : hi", "A", "->", "service-x"),  # a space before the colon
        ("A x- B", "A", "x-", "B"),
        ("A x--x B: both", "A", "x--x", "B"),
        ("A -x+ B: lost", "A", "-x", "B"),
    ],
)
def test_an_x_is_a_head_only_where_a_name_follows_it(line, sender, arrow, receiver):
    diagram = parse(f"participant AWS x-ray\norder: Set x=5\n{line}\n")
    message = diagram.messages()[0]
    assert (message.sender, message.arrow, message.receiver) == (sender, arrow, receiver)
    assert {"AWS x-ray", "Set x=5"} <= set(diagram.participants)


@pytest.mark.parametrize("text", ["A >> B", "A <~ B", "A -> >B", "A - > B", "A =>> -> B"])
def test_arrow_fragments_never_become_part_of_a_name(text):
    error = only_error(text + "\n")
    assert error.line == 1


# --- a block left open at the end of the file ---------------------------------------------------


def test_blocks_open_at_the_end_are_closed_there_with_a_warning_at_their_line():
    diagram = parse("A -> B\nif: x\n  loop: y\n    A -> B\n")
    block = diagram.items[1]
    assert block.kind == "if" and block.branches[0].items[0].kind == "loop"
    assert block.branches[0].items[0].branches[0].items[0].sender == "A"
    warnings = sorted((w.line, w.column, w.severity) for w in diagram.warnings)
    assert warnings == [(2, 1, "warning"), (3, 3, "warning")]
    assert all("never closed" in w.message for w in diagram.warnings)


def test_an_unclosed_fence_is_still_an_error():
    error = only_error("A -> B\nin: R\n```json\n{}\n")
    assert error.line == 3 and "never closed" in error.message


# --- keywords, colons, order --------------------------------------------------------------------


def test_keywords_in_any_case_and_spaces_before_colons():
    diagram = parse("TITLE : T\nNote : hi\nA -> B : label\nOrder : B\nIf : x\nA -> B\nEND\n")
    assert diagram.title == "T" and diagram.participants == ["B", "A"]
    assert diagram.items[1].label == "label" and diagram.items[1].receiver == "B"
    assert diagram.items[2].kind == "if"


def test_order_anywhere_naming_only_some_participants():
    diagram = parse("A -> B\nB -> C\nC -> D\norder: D, B\n")
    assert diagram.participants == ["D", "B", "A", "C"]


def test_an_icon_without_a_style_letter_is_solid():
    from volley.text.inline import parse_lines

    (span,) = [s for line in parse_lines("{fa-plug}") for s in line if s.icon]
    assert (span.icon.prefix, span.icon.name) == ("fas", "plug")


# --- Mermaid and PlantUML habits -----------------------------------------------------------------


@pytest.mark.parametrize(
    "line,over,side",
    [
        ("note over A: x", ["A"], "over"),
        ("note over A, C: x", ["A", "B", "C"], "over"),
        ("Note left of B: x", ["B"], "left"),
        ("note RIGHT  of C : x", ["C"], "right"),
    ],
)
def test_mermaid_notes_stand_over_or_beside_their_participants(line, over, side):
    diagram = parse(f"A -> B\nB -> C\n{line}\n")
    note = diagram.items[2]
    assert isinstance(note, Note) and (note.over, note.side, note.text) == (over, side, "x")
    assert diagram.participants == ["A", "B", "C"]
    written = note.to_json()
    assert written.get("side", "over") == side and written["over"] == over
    # as `volley fmt` writes it, and back
    written_text = format_text(f"A -> B\nB -> C\n{line}\n")
    (again,) = [i for i in parse(written_text).items if isinstance(i, Note)]
    assert (again.over, again.side) == (note.over, note.side)


def test_a_note_beside_a_lane_names_one_participant():
    """Mermaid refuses `note left of A, B`: a note beside a lane stands by one lifeline."""
    with pytest.raises(VolleyError) as caught:
        parse("A -> B\nnote left of A, B: x\nnote over A, B: fine\n")
    (error,) = caught.value.errors
    assert (error.line, error.column) == (2, 6)
    assert error.message == "a note left of stands beside one participant, not 2"
    assert error.hint == "write note over A, B: to span them"


def test_participant_and_actor_declare_in_order_with_display_labels():
    diagram = parse(
        "participant H as MCP Host + LLM\nactor U\nparticipant S\nU ->> H: ask\nH -> S: call\n"
    )
    assert diagram.participants == ["H", "U", "S"]
    assert diagram.labels == {"H": "MCP Host + LLM"}
    assert diagram.to_json()["labels"] == {"H": "MCP Host + LLM"}
    assert (diagram.items[0].sender, diagram.items[0].receiver) == ("U", "H")


def test_participants_named_like_mermaid_words_stay_names():
    diagram = parse("Actor -> Participant: x\nLoop back -> Activate: y\n")
    assert diagram.participants == ["Actor", "Participant", "Loop back", "Activate"]


@pytest.mark.parametrize(
    "opener,kind",
    [
        ("alt ok", "if"),
        ("alt: ok", "if"),
        ("loop every 30 s", "loop"),
        ("opt ok", "opt"),
        ("par ok", "par"),
        ("critical ok", "critical"),
        ("critical: ok", "critical"),
        ("break ok", "break"),
        ("break: ok", "break"),
    ],
)
def test_mermaid_blocks_with_or_without_a_colon(opener, kind):
    block = parse(f"{opener}\nA -> B\nend\n").items[0]
    assert isinstance(block, Block) and block.kind == kind
    assert block.branches[0].label == "ok" or kind == "loop"
    assert block.to_json()["kind"] == kind


def test_alt_else_and_critical_option_branches():
    block = parse("alt is valid\nA -> B\nelse is not\nB -> A\nend\n").items[0]
    assert (block.kind, [b.label for b in block.branches]) == ("if", ["is valid", "is not"])
    block = parse("critical connect\nA -> B\noption timeout\nB -> A\nend\n").items[0]
    assert (block.kind, [b.label for b in block.branches]) == ("critical", ["connect", "timeout"])


@pytest.mark.parametrize(
    ("opener", "word", "kind"),
    [
        ("alt cache hit", "else", "if"),
        ("par fan out", "and", "par"),
        ("critical c", "option", "critical"),
    ],
)
def test_a_branch_whose_label_holds_an_arrow_is_the_branch_inside_its_block(opener, word, kind):
    """Mermaid reads `else cache miss -> db` as the else branch; the line holds an arrow, so it
    read as a message from "else cache miss" and the branch was lost, silently."""
    diagram = parse(f"{opener}\nA ->> B: read\n{word} cache miss -> db\nA ->> C: query\nend\n")
    (block,) = diagram.items
    assert isinstance(block, Block) and block.kind == kind
    assert [b.label for b in block.branches][1] == "cache miss -> db"
    assert [[m.receiver for m in b.items] for b in block.branches] == [["B"], ["C"]]
    assert diagram.participants == ["A", "B", "C"]
    assert f"{word}: cache miss -> db" in format_text(
        f"{opener}\nA -> B\n{word} cache miss -> db\nend\n"
    )
    # outside its block, and with a payload after it, the line is a message as before
    assert parse(f"A -> B\n{word} x -> y\nin: x\n  a: 1\n").messages()[1].sender == f"{word} x"


def test_a_block_opened_on_a_line_with_an_arrow_is_pointed_at_by_the_end_it_leaves_alone():
    error = only_error("A -> B: x\nloop retry -> 3 times\n  A -> B: again\nend\n")
    assert error.line == 4 and error.message.startswith("end without an open block")
    assert error.hint == (
        'line 2 is a message from "loop retry" (a line that holds an arrow is a message); to open '
        'the block there, write "loop: retry -> 3 times"'
    )


@pytest.mark.parametrize("arrow", ["→", "~>", "—>", "- >"])
def test_a_lane_named_group_with_an_arrow_typed_wrong_is_a_message_written_wrong(arrow) -> None:
    """`Group → Client: welcome` opened a group block labelled "→ Client: welcome" once `group`
    needed no colon, and the arrow's mistake went unsaid."""
    error = only_error(
        f"loop: every minute\n  Client -> Group: join\n  Group {arrow} Client: hi\nend\n"
    )
    assert error.line == 3 and "is not an arrow" in error.message


def test_a_block_word_without_its_colon_after_a_one_line_note_is_told_no_colon_to_escape():
    """`group discussion happens here` under a Mermaid note of one line was told to escape a
    colon it does not have: without one, a block's line ends no note."""
    (warning,) = volley.check("A -> B: hi\nnote over A: Notes\ngroup talk\nB -> A: ok\n").warnings
    assert warning.message.startswith("this group: block is never closed") and not warning.hint


def test_a_block_whose_label_holds_a_comparison_is_told_its_colon() -> None:
    """`alt balance <= 0` reads as a message from "alt balance" (`<=` is an arrow): the
    `else` it leaves outside a block says which line meant to open it, as its `end` does;
    `if count goes to >0` was told `did you mean "->"?`, which made it a message. (`group` and
    `loop` need no colon: with no arrow in it, the line opens the block.)"""
    errors = errors_of("alt balance <= 0\nA -> B: x\nelse\nA -> B: y\nend\n")
    meant = (
        'line 1 is a message from "alt balance" (a line that holds an arrow is a message); to '
        'open the block there, write "alt: balance <= 0"'
    )
    assert [(e.line, e.hint) for e in errors] == [(3, meant), (5, meant)]
    error = errors_of("if count goes to >0\nA -> B: x\nend\n")[0]
    assert error.hint == (
        'to open a block here, write "if: count goes to >0" (its word takes a colon)'
    )
    for line, meant in (("Group Service ---> DB: query", "-->"), ("Break Glass ==> Vault", "=>")):
        assert only_error(f"A -> B: hi\n{line}\n").hint == f'did you mean "{meant}"?', line
    [group] = parse("group Publish [count goes to >0]\nA -> B: x\nend\n").items
    assert isinstance(group, Block) and group.branches[0].label == "Publish [count goes to >0]"


def test_rect_is_a_highlight_in_the_colour_written():
    diagram = parse("rect rgb(191, 223, 255)\nA -> B\nend\n")
    block = diagram.items[0]
    assert (block.kind, block.tint, block.branches[0].label) == ("rect", "rgb(191, 223, 255)", "")
    assert diagram.warnings == []
    assert diagram.to_json()["items"][0]["tint"] == "rgb(191, 223, 255)"


def test_activation_marks_on_arrows():
    diagram = parse("Alice ->>+ John: Hello\nJohn -->>- Alice: Great!\nA -> B\n")
    assert [m.activate for m in diagram.messages()] == ["+", "-", None]
    assert diagram.participants == ["Alice", "John", "A", "B"]
    assert diagram.to_json()["items"][0]["activate"] == "+"
    assert diagram.to_json()["items"][2]["activate"] is None


def test_activate_and_deactivate_lines():
    diagram = parse("A -> B\nactivate B\nDeactivate B\nactivate C\n")
    bars = [item for item in diagram.items if isinstance(item, Activation)]
    assert [(a.line, a.participant, a.on) for a in bars] == [
        (2, "B", True),
        (3, "B", False),
        (4, "C", True),
    ]
    assert diagram.to_json()["items"][1] == {
        "type": "activation",
        "line": 2,
        "participant": "B",
        "on": True,
    }
    assert diagram.participants == ["A", "B", "C"]


@pytest.mark.parametrize(
    "text,what",
    [
        ("sequenceDiagram\n  A->>B: hi\n  B-->>A: ok\n", "Mermaid"),
        ("%% a comment\nsequenceDiagram\nA->>B: hi\n", "Mermaid"),
        ("@startuml\nA -> B\n@enduml\n", "PlantUML"),
        ("---\ntitle: Login\n---\nsequenceDiagram\nA->>B: hi\n", "Mermaid"),
        ("%%{init: {\n    'theme': 'base'\n}}%%\nsequenceDiagram\nA->>B: hi\n", "Mermaid"),
        ("sequencediagram\nA->>B: hi\n", "Mermaid"),
        # Mermaid ends a statement at a `;` as at a line's end (a published one-liner)
        ("sequenceDiagram;A->>B: hi;B-->>A: ok\n", "Mermaid"),
        ("sequenceDiagram;\n    A->>B: hi\n", "Mermaid"),
    ],
)
def test_a_mermaid_or_plantuml_file_gets_one_error_naming_the_importer(text, what):
    error = only_error(text)
    assert what in error.message and "volley import" in (error.hint or "")
    lines = [line.lower().split(";")[0] for line in text.split("\n")]
    header = lines.index("sequencediagram" if what == "Mermaid" else "@startuml") + 1
    assert error.line == header


def test_mermaid_comment_lines_are_comments_and_plantuml_quotes_are_refused():
    assert parse("%% setup\nA -> B\n  %% more\n").participants == ["A", "B"]
    error = only_error("' a PlantUML comment\nA -> B\n")
    assert error.line == 1 and '"//"' in error.hint


@pytest.mark.parametrize(
    "text,column",
    [
        ("A -> over B: x", 6),
        ("left of A -> B", 1),
        ("activate over A", 10),
    ],
)
def test_note_places_never_become_participant_names(text, column):
    error = only_error(text + "\n")
    assert (error.line, error.column) == (1, column)
    assert "note" in error.message + (error.hint or "")


def test_names_never_start_with_an_activation_mark():
    message = parse("A -> +B\n").items[0]
    assert (message.receiver, message.activate) == ("B", "+")
    only_error("+A -> B\n")
    only_error("-A -> B\n")


def test_a_mermaid_directive_is_said_not_read_as_a_comment():
    """`%%{init: …}%%` is Mermaid's settings, not a comment: pasted into a .volley file it was
    dropped in silence, its messages unnumbered where Mermaid numbers them, and one written
    over several lines was four errors about quotes and arrows."""
    numbered = only_error('%%{init: {"sequence": {"showSequenceNumbers": true}}}%%\nA->>B: one\n')
    assert numbered.line == 1 and "Mermaid directive" in numbered.message
    assert "autonumber" in (numbered.hint or "")
    text = "%%{init: { 'theme': 'forest',\n  'themeVariables': {\n    'actorBkg': 'lavender'\n"
    text += "  }\n} }%%\nA ->> B: hi\n%% a comment\n"
    diagram = parse(text)
    (warning,) = diagram.warnings
    assert (warning.line, warning.severity) == (1, "warning")
    assert warning.message.startswith("lines 1-5 are a Mermaid directive, which volley does not")
    assert [m.label for m in diagram.messages()] == ["hi"]
    # fmt keeps every line of it, as comments, which it is to volley from then on
    written = format_text(text)
    assert written.splitlines()[:5] == ["//" + line[2:] if line.startswith("%%") else "//" + line
                                        for line in text.splitlines()[:5]]  # fmt: skip
    assert parse(written).warnings == []
    # in a payload's code sample it is the sample's
    sample = "A -> B: x\nin:\n```mermaid\n%%{init: {\n'theme': 'dark'}}%%\n```\n"
    assert parse(sample).warnings == []


def test_mermaids_semicolon_after_a_block_line_is_named():
    """Mermaid ends a statement at `;`: `end;` was "expected an arrow" with a hint that `end`
    goes on a line of its own, and a warning that the block above it was never closed."""
    error = only_error("rect rgb(60, 60, 0);\nA ->> B : hi\nend;\n")
    assert error.line == 3 and 'at ";"' in (error.hint or "") and 'write "end"' in error.hint
    with pytest.raises(VolleyErrors) as raised:
        parse("rect rgb(60, 60, 0);\nA ->> B : hi\nend;\n")
    warnings = raised.value.warnings
    assert [w.line for w in warnings] == [1] and "delete it" in warnings[0].message
    create = only_error("create participant T as Token Registry;\nA ->> T: hi\n")
    assert create.hint is not None and 'write "participant T as Token Registry"' in create.hint


# --- every error, with hints for likely slips ----------------------------------------------------


def test_every_error_of_a_file_is_reported_with_its_line():
    text = (
        "title: errors\n"  # 1
        "A ~> B: typo\n"  # 2
        "if ok\n"  # 3
        "  A -> B\n"  # 4
        "else if: no\n"  # 5
        "  B -> A\n"  # 6
        "end\n"  # 7
        "B -> \n"  # 8
        "end\n"  # 9
        "C -> D\n"  # 10
        "in: R\n"  # 11
        "title: again\n"  # 12
    )
    errors = errors_of(text)
    assert [e.line for e in errors] == [2, 3, 5, 8, 9, 11, 12]
    assert all(e.filename == "flow.volley" and e.source_line for e in errors)
    shown = VolleyErrors(errors).format()
    assert shown.endswith("7 errors")
    assert 'did you mean "if: ok"?' in shown


@pytest.mark.parametrize(
    "text,hint",
    [
        ("if ok\nA -> B\nend\n", 'did you mean "if: ok"?'),
        ("if retries\nA -> B\nend\n", 'did you mean "if: retries"?'),
        ("if: a\nA -> B\nelse if: b\nB -> A\nend\n", 'write "else: b"'),
        ("note over A\n", "with a colon"),
        ("if: a\nA -> B\nelif b\nB -> A\nend\n", 'no "else if"'),
    ],
)
def test_hints_for_likely_slips(text, hint):
    error = only_error(text)
    assert hint in (error.hint or ""), error.format()


@pytest.mark.parametrize(
    "word", ["database", "Queue", "boundary", "control", "entity", "collections"]
)
def test_plantuml_participant_kinds_declare_a_participant(word):
    """A published diagram written for swimlanes.io with PlantUML's `database` among Mermaid's
    `actor` and `participant` declarations, and sequencediagram.org's (a course's diagrams
    declare their store so), were refused for it; each declares its lane, drawn as a box."""
    text = f"actor User\nparticipant Bot\n  {word} Store\nUser -> Bot: ask\nBot -> Store: look up\n"
    checked = volley.check(text)
    assert checked.diagram.participants == ["User", "Bot", "Store"] and checked.warnings == []
    # the words as the start of a name in a message, or before a colon, are no declaration
    assert parse("Database -> Queue worker: job\n").participants == ["Database", "Queue worker"]
    from volley.language.keywords import PLANTUML_PARTICIPANTS  # the grammar's list, the same

    assert {kind: parse(f"{kind} X\n").participants for kind in PLANTUML_PARTICIPANTS} == {
        kind: ["X"] for kind in PLANTUML_PARTICIPANTS
    }
    labelled = parse(f"{word} DB as Postgres 16: primary\nA -> DB: q\n")  # a colon in the label
    assert labelled.labels == {"DB": "Postgres 16: primary"}
    noted = volley.check(f"A -> B: x\nnote A:\n{word} is locked\n{word}: Postgres\nB -> A: y\n")
    assert noted.diagram.items[1].text == f"{word} is locked\n{word}: Postgres"
    assert noted.warnings == []


def test_a_mermaid_box_is_read_as_a_box():
    # Seen in published Mermaid diagrams pasted as .volley: `box` groups participants.
    text = "box Aqua Node\nparticipant RPC as JSON-RPC Interface\nparticipant DB\nend\nRPC -> DB\n"
    diagram = parse(text)
    (box,) = diagram.boxes
    assert (box.tint, box.label, box.participants, box.end_line) == (
        "Aqua",
        "Node",
        ["RPC", "DB"],
        4,
    )
    assert diagram.labels == {"RPC": "JSON-RPC Interface"}
    # `box` as a participant's name is still a name
    assert parse("box -> shelf: put\n").participants == ["box", "shelf"]


def test_the_count_of_errors_is_bounded():
    errors = errors_of("A ~> B\n" * 100)
    assert 1 < len(errors) <= 25


# --- swimlanes.io's published diagrams, end to end ------------------------------------------------


@pytest.mark.parametrize("path", sorted(CASES.glob("*.volley")), ids=lambda p: p.name)
def test_every_published_swimlanes_diagram_parses_and_renders(path):
    text = path.read_text(encoding="utf-8")
    assert text.startswith("// ") and "Source: http" in text and "Licence:" in text
    diagram = volley.parse(text, path.name)
    assert diagram.messages() and not diagram.warnings
    svg = volley.render(diagram)
    assert svg.startswith("<svg")


def test_the_full_syntax_overview_reads_as_swimlanes_io_draws_it():
    diagram = volley.parse((CASES / "full-syntax.volley").read_text(encoding="utf-8"))
    assert diagram.title == "Swimlanes.io full syntax overview"
    assert diagram.participants == ["One", "Two", "Three", "Four"]
    notes = [item for item in diagram.items if isinstance(item, Note)]
    assert notes[1].text.startswith("Simple text formatting;")
    assert "\n\n1. Ordered\n2. list\n\n\n* Unordered\n* list\n\n[link]" in notes[1].text
    assert notes[1].text.endswith("```\n{\n  code block..\n}\n```")
    assert notes[3].over == ["One", "Two", "Three"]
    assert notes[3].text.endswith("```\nnote [start[,end]]: text\n```")
    assert notes[4].text.startswith("{far-bolt fa-lg} Font Awesome icons are supported using:")
    assert "- **d** for duotone\n\nSee [Font Awesome overview]" in notes[4].text
    sections = [item for item in diagram.items if isinstance(item, Block)]
    assert [b.kind for b in sections] == ["if", "group"]
    assert [b.label for b in sections[0].branches][1:] == [
        "Optional alternative flow with _**else**_",
        "",
    ]
    nested = sections[0].branches[2].items
    assert nested[1].kind == "if" and isinstance(nested[2], Note)
    dividers = [item.style for item in diagram.items if isinstance(item, Divider)]
    assert dividers.count("delay") == 1 and "dashed" in dividers


def test_the_early_overview_with_capitalised_keywords():
    diagram = volley.parse((CASES / "full-syntax-early.volley").read_text(encoding="utf-8"))
    assert diagram.title == "Swimlanes.io full syntax overview"
    assert any(m.arrow == "<=>" for m in diagram.messages())
    notes = [item for item in diagram.items if isinstance(item, Note)]
    assert notes[0].text.startswith("Simple text formatting;") and notes[0].text.endswith(
        "[link](http://www.swimlanes.io)"
    )
    assert notes[2].over == ["One", "Two", "Three"]


def test_the_welcome_diagram_note_runs_over_paragraphs_and_the_icon_is_solid():
    diagram = volley.parse((CASES / "welcome.volley").read_text(encoding="utf-8"))
    note = diagram.items[1]
    assert note.text.startswith("**swimlanes.io** is a simple online tool")
    assert note.text.count("\n\n") == 3 and note.text.endswith("collect all of your diagrams.")
    from volley.checks.lint import lint

    assert lint(diagram, "") == []  # {fa-sign-in-alt} is a known solid icon


# Statements from Mermaid's sequence diagram documentation (https://mermaid.js.org/syntax/
# sequenceDiagram.html, MIT licence), pasted without their `sequenceDiagram` header.
MERMAID_DOCS_BODY = """\
    participant Alice
    participant John
    rect rgb(191, 223, 255)
    note right of Alice: Alice calls John.
    Alice->>+John: Hello John, how are you?
    rect rgb(200, 150, 255)
    Alice->>+John: John, can you hear me?
    John-->>-Alice: Hi Alice, I can hear you!
    end
    John-->>-Alice: I feel great!
    end
    Alice ->>+ John: Did you want to go to the game tonight?
    John -->>- Alice: Yeah! See you there.
    critical Establish a connection to the DB
        Alice-->John: connect
    option Network timeout
        Alice-->Alice: Log error
    end
"""


def test_statements_from_mermaids_own_docs_read_with_their_meaning():
    diagram = parse(MERMAID_DOCS_BODY)
    assert diagram.participants == ["Alice", "John"]
    outer = diagram.items[0]
    assert (outer.kind, outer.tint, outer.branches[0].label) == ("rect", "rgb(191, 223, 255)", "")
    note, first, inner, last = outer.branches[0].items
    assert (inner.kind, inner.tint) == ("rect", "rgb(200, 150, 255)")
    assert isinstance(note, Note) and note.over == ["Alice"] and note.text == "Alice calls John."
    assert (first.arrow, first.activate, first.receiver) == ("->>", "+", "John")
    assert [m.activate for m in inner.branches[0].items] == ["+", "-"]
    assert last.activate == "-"
    assert [m.activate for m in diagram.items[1:3]] == ["+", "-"]
    critical = diagram.items[3]
    assert critical.kind == "critical"
    assert [b.label for b in critical.branches] == [
        "Establish a connection to the DB",
        "Network timeout",
    ]
    assert diagram.warnings == []  # both rects are drawn in their colours


# --- more published diagrams: what swimlanes.io shows for each -----------------------------------


def published(name: str) -> volley.Diagram:
    return volley.parse((CASES / name).read_text(encoding="utf-8"), name)


def test_the_oauth2_sample_has_a_delay_and_an_if_else_with_a_lost_message():
    diagram = published("oauth2-token-refresh.volley")
    assert diagram.title == "OAuth2 Login with Token Refresh"
    assert diagram.participants == ["User", "App", "Google", "Database"]
    first = diagram.messages()[0]
    assert (first.sender, first.receiver, first.label) == (
        "User",
        "App",
        'click "Sign in with Google"',
    )
    delay = diagram.items[9]
    assert isinstance(delay, Divider) and delay.style == "delay"
    assert delay.label == "Later - access token expires"
    block = diagram.items[-1]
    assert block.kind == "if"
    assert [b.label for b in block.branches] == ["Refresh succeeds", "Refresh fails"]
    lost = block.branches[1].items[0]
    assert (lost.sender, lost.arrow, lost.receiver, lost.label) == (
        "Google",
        "-x",
        "App",
        "401 invalid_grant",
    )


def test_the_order_pipeline_numbers_every_message_through_its_groups():
    diagram = published("order-processing-pipeline.volley")
    messages = diagram.messages()
    assert [m.number for m in messages] == list(range(1, len(messages) + 1))
    assert len(messages) == 17
    payment, fulfilment = (item for item in diagram.items if isinstance(item, Block))
    assert (payment.kind, payment.branches[0].label) == ("group", "Payment")
    assert (fulfilment.kind, fulfilment.branches[0].label) == ("group", "Fulfillment")
    stock = fulfilment.branches[0].items[1]
    assert stock.kind == "if" and [b.label for b in stock.branches] == [
        "Items available",
        "Out of stock",
    ]
    assert diagram.participants[:3] == ["Client", "API Gateway", "Order Service"]
    assert messages[2].label == "save order (status: pending)"  # a colon inside the label


def test_order_before_title_and_a_closing_note_under_the_last_message():
    diagram = published("vscode-sample-simple.volley")
    assert diagram.title == "Simple Authentication Flow"
    assert diagram.participants == ["User", "Database", "System"]
    note = diagram.items[-1]
    assert isinstance(note, Note) and note.attached
    assert note.over == ["User", "Database", "System"]  # under System -> User, across Database
    assert note.text == "Basic sequence diagram using swimlanes.io syntax"


def test_a_diagram_indented_as_a_whole_reads_as_if_it_were_not():
    indented = published("embed-indented.volley")
    plain = published("embed-light-icon.volley")
    assert indented.title == "{fal-box} Embedded 3" and plain.title == "{fal-box} Embedded"
    for diagram in (indented, plain):
        assert diagram.participants == ["A", "B"]
        assert [(m.arrow, m.label) for m in diagram.messages()] == [("->", "Ping"), ("-->", "Pong")]


def test_a_message_with_a_colon_and_no_label():
    diagram = published("verkstedt-example.volley")
    (message,) = diagram.messages()
    assert (message.sender, message.receiver, message.label) == ("You", "Success", "")


def test_a_line_commented_out_with_a_hash_is_drawn_and_pointed_out():
    # A published diagram commented a line out the YAML way; it is a message, as written.
    text = "A -> B: hi\n  # Search API <--> Cache: refresh\n"
    checked = volley.check(text)
    assert checked.diagram.messages()[1].sender == "# Search API"
    (warning,) = checked.warnings
    assert (warning.line, warning.column, warning.severity) == (2, 3, "warning")
    assert '"# Search API"' in warning.message and "// comment" in (warning.hint or "")


def test_an_address_with_a_port_or_a_scheme_is_one_name_only_when_declared():
    # `host:port` and `scheme://` are common lane names; a name ends at its first colon.
    with pytest.raises(volley.VolleyError) as info:
        volley.parse("localhost:8080 -> api: GET /\n")
    (error,) = info.value.errors
    assert (error.line, error.column) == (1, 10)
    assert '"localhost:8080" is not one name' in error.message
    assert '"participant P as localhost:8080"' in (error.hint or "")
    checked = volley.check(
        "A -> localhost:8080: GET /\nA -> http://api: x\nServer --> Client:200: OK\n"
        "A -> localhost: 8080 is open\n"
    )
    assert checked.diagram.messages()[0].receiver == "localhost"  # as written, and said
    assert [(w.line, w.column) for w in checked.warnings] == [(1, 15), (2, 10)]
    assert '"participant P as localhost:8080"' in (checked.warnings[0].hint or "")
    declared = volley.parse("participant P as localhost:8080\nA -> P: GET /\n")
    assert declared.shown("P") == "localhost:8080"


def test_a_note_line_of_inline_code_holding_an_arrow_is_the_notes_text():
    # The docs' way to show a message in a note; a participant named in backticks stays one.
    kept = volley.parse("A -> B: hi\nnote A, B:\nFirst:\n`A -> B: call`\n")
    assert kept.items[1].text == "First:\n`A -> B: call`"
    text = "`kubectl` -> API: apply\nnote API:\nchecks the manifest\n`kubectl` -> API: get pods\n"
    assert [m.label for m in volley.parse(text).messages()] == ["apply", "get pods"]
    # Prose quoting a message in inline code, anywhere in the line (a swimlanes.io note).
    quoted = volley.parse("A -> B: x\nnote:\nThe token flows `Client -> Server` then on.\n")
    assert quoted.participants == ["A", "B"]
    assert quoted.items[1].text == "The token flows `Client -> Server` then on."
    # a message whose label holds code with an arrow in it still ends the note
    for label in ("run `items.map(x => x.id)`", "`a <- b`", "run `ls -x /tmp`", "see `a->b`"):
        diagram = volley.parse(f"A -> B: hi\nnote B: checks\nB -> C: {label}\nC --> B: ok\n")
        assert [m.label for m in diagram.messages()] == ["hi", label, "ok"], label
        assert diagram.items[1].text == "checks"


def test_a_message_that_ends_a_note_and_does_not_read_says_so():
    """Prose with a bare arrow ends the note, as in swimlanes.io: the error says it did, and
    how to keep the line in the note."""
    with pytest.raises(volley.VolleyError) as info:
        volley.parse("A -> B: hi\nnote:\nThe token flows Client -> Server -> DB here.\n")
    (error,) = info.value.errors
    assert error.line == 3
    assert error.hint == (
        "this line ended the note on line 2, as a message does; if it is the note's words, "
        "write its arrows in inline code (`Client -> Server`), or the line in a fenced block"
    )


def test_a_table_in_a_note_keeps_its_rows_even_those_holding_arrows():
    """A row that starts with a pipe is the note's (no name starts with one), and so is a
    delimiter row written without pipes at its ends, whose `--:` is not a divider there."""
    text = (
        "A -> B: hi\nnote A, B:\n| from | to |\n|---|---|\n| Client -> API | request |\n"
        "a | b\n--:|:-:\n1 | 2\nB -> A: done\n"
    )
    diagram = volley.parse(text)
    assert diagram.participants == ["A", "B"]
    assert diagram.items[1].text.split("\n")[2:5] == [
        "| Client -> API | request |",
        "a | b",
        "--:|:-:",
    ]
    assert [m.label for m in diagram.messages()] == ["hi", "done"]


def test_a_tables_rows_without_end_pipes_stay_in_the_note_even_holding_arrows():
    """Once a header and its delimiter row open a table, a line with a pipe is one of its rows
    (`1 | A -> B: call` was a message from a participant named "1 | A"); a header holding an
    arrow is the table's too. A line without a pipe still ends the note when it is a message."""
    text = (
        "A -> B: go\nnote:\nA -> B | what\n--- | ---\n1 | A -> B: x\n2 | B --> A: y\n"
        "B --> A: done\n"
    )
    diagram = volley.parse(text)
    assert diagram.participants == ["A", "B"]
    assert diagram.items[1].text == "A -> B | what\n--- | ---\n1 | A -> B: x\n2 | B --> A: y"
    assert [m.label for m in diagram.messages()] == ["go", "done"]
    # after a blank line the table is over: a line with a pipe and an arrow is a message again
    after = volley.parse("A -> B: go\nnote:\na | b\n--|--\n1 | 2\n\nC | D -> B: z\n")
    assert after.participants == ["A", "B", "C | D"]
    # a line without a pipe that is no element is one more row: the table goes on after it
    kept = volley.parse("A -> B: go\nnote:\na | b\n--|--\n1 | 2\nplain\n3 | A -> B: x\n")
    assert kept.participants == ["A", "B"] and kept.items[1].text.endswith("plain\n3 | A -> B: x")
    # a `//` comment ends the note as anywhere, pipes or not
    ended = volley.parse("A -> B: go\nnote:\na | b\n--|--\n1 | 2\n// x | y\nB -> A: z\n")
    assert ended.items[1].text == "a | b\n--|--\n1 | 2" and len(ended.items) == 3
    # and so does a fence: after the code block, a line with a pipe and an arrow is a message
    fenced = volley.parse("A -> B: go\nnote:\na | b\n--|--\n```\ncode\n```\nC | D -> B: z\n")
    assert fenced.participants == ["A", "B", "C | D"]


def test_a_list_after_a_tables_rows_ends_the_table_but_not_the_note():
    """A list item starts another block, as on GitHub: the note goes on, but a line after it
    holding a pipe and an arrow is no row of the table, so it is the message it reads as."""
    text = "A -> B: go\nnote:\na | b\n--|--\n1 | 2\n- item\nC | D -> B: z\n"
    diagram = volley.parse(text)
    assert diagram.items[1].text == "a | b\n--|--\n1 | 2\n- item"
    assert diagram.participants == ["A", "B", "C | D"]
    # `volley fmt` keeps such a note as it reads
    assert volley.parse(format_text(text)) == diagram


def test_an_alt_whose_label_starts_with_if_does_not_read_if_twice():
    # Mermaid's habit (`alt if …`): the frame's tag already says "if".
    block = parse("A -> B\nalt if a setup method is provided\n  B -> A\nend\n").items[1]
    assert block.kind == "if" and block.branches[0].label == "a setup method is provided"
    # a word that only starts with the letters stays whole
    block = parse("A -> B\nalt If-Match present\n  B -> A\nend\n").items[1]
    assert block.branches[0].label == "If-Match present"


def test_labels_after_if_and_else_with_their_colon_are_kept_as_written():
    """swimlanes.io draws the text after `if:` and `else:` as written, whatever its first
    word (real diagrams write `if: If success`, `else: else`, `else: if the token expired`)."""
    text = (
        "A -> B: x\n"
        "if: If success\n  B -> A: ok\n"
        "else: if the token expired\n  B -> A: 401\n"
        "else: Else\n  B -> A: 500\n"
        "end\n"
    )
    (block,) = [item for item in parse(text).items if isinstance(item, Block)]
    assert [b.label for b in block.branches] == ["If success", "if the token expired", "Else"]
    assert volley.render(text).count(">If success<") == 1


def test_a_name_typed_composed_or_with_a_combining_accent_is_one_participant():
    # "é" as one character and as "e" + U+0301 look alike: one lane, not two.
    diagram = parse("Café -> API: one\nCafe\u0301 -> API: two\nnote Cafe\u0301: x\n")
    assert diagram.participants == ["Café", "API"]


def test_ending_an_activation_that_is_not_open_is_a_warning():
    """`deactivate Z` for a Z never activated (a misspelt name), or a second `-->-`: it draws
    nothing, which a warning says (Mermaid refuses both); balanced bars say nothing."""
    text = (
        "A ->+ B: call\nB -->- A: done\nB -->- A: again\nactivate A\ndeactivate A\ndeactivate Zed\n"
    )
    said = [(w.line, w.message, w.hint) for w in volley.check(text).warnings]
    assert said == [
        (
            3,
            '"-" after the arrow ends an activation of B, which has no activation open; it '
            "draws nothing",
            "delete it, or end the bar that is open",
        ),
        (
            6,
            "deactivate Zed, which has no activation open; it draws nothing",
            "Zed takes part in no message, so its lane stands empty: is the name misspelt?",
        ),
    ]
    assert volley.check("A ->+ B: call\nB -->- A: done\n").warnings == []


def test_a_bar_opened_in_one_branch_may_end_in_a_later_one():
    """The picture draws branches one under another, and draws such a bar (as Mermaid does):
    the warning that it drew nothing contradicted it (a WeChat Pay diagram). A reply in both
    branches still ends the bar open before the block, once in each."""
    opened = "A -> B: x\nalt one\n  B ->+ C: hi\nelse two\n  C --> B: back\n  deactivate C\nend\n"
    assert volley.check(opened).warnings == []
    both = "A ->+ B: x\nif: ok\n  B -->- A: yes\nelse: no\n  B -->- A: no\nend\n"
    assert volley.check(both).warnings == []
    (twice,) = volley.check(both + "B -->- A: again\n").warnings
    assert twice.line == 7
    ended = "A -> B: x\nalt: one\n  A ->+ B: on\nelse: two\n  B -->- A: off\nend\nB -->- A: again\n"
    (again,) = volley.check(ended).warnings  # the else ended it: this one draws nothing
    assert again.line == 7


@pytest.mark.parametrize(
    ("text", "line", "column", "hint"),
    [
        (
            "Client -> Server: x\nactivate Srever\nServer --> Client: y\ndeactivate Srever\n",
            2,
            10,
            'is it "Server", misspelt?',
        ),
        ("order: Browser API\nBrowser -> API: GET /\n", 1, 8, 'parted by commas: "Browser, API"'),
        ("Browser -> API: GET /\nnote Browser API: hi\n", 2, 6, 'commas: "Browser, API"'),
        ("A -> B: x\nactivate C\ndeactivate C\n", 2, 10, "is the name misspelt?"),
        (  # listed in order: is "API Gateway", not "Gate"
            "order: API Gateway, B\nAPI Gateway -> B: x\nactivate Gate\ndeactivate Gate\n",
            3,
            10,
            "is the name misspelt?",
        ),
        ("order: Browser; API\nBrowser -> API: GET /\n", 1, 8, 'commas: "Browser, API"'),
        ("Browser -> API: GET /\nnote Browser | API: hi\n", 2, 6, 'commas: "Browser, API"'),
        (  # a line of a body that reads like an order: line lists nothing
            "A -> B: x\n  in:\n    order: C\nactivate C\ndeactivate C\n",
            4,
            10,
            "is the name misspelt?",
        ),
        # a note's place without its "of": a lane "left A" was drawn without a word
        ("A -> B: x\nnote left A: y\n", 2, 6, 'is written "note left of A: …"'),
        ("A -> B: x\nnote Right B: y\n", 2, 6, 'is written "note right of B: …"'),
        ("A -> B: x\nnote overB: y\n", 2, 6, 'a note over "B" is written "note over B: …"'),
    ],
)
def test_a_lane_no_message_touches_is_pointed_out_where_it_is_most_likely_a_slip(
    text, line, column, hint
):
    """A misspelt name in an activation line, or two names without their comma, made a lane
    of its own without a word."""
    (warning,) = volley.check(text).warnings
    assert "takes part in no message" in warning.message
    assert (warning.line, warning.column) == (line, column) and warning.hint.endswith(hint)


@pytest.mark.parametrize(
    "text",
    [
        "order: A, B, Slack\nA -> B: x\n",  # a lane listed on purpose, like no other
        "A -> B: x\nnote Database: offline\n",
        "participant Srever\nServer -> A: x\n",  # declared: meant
        "note A: only notes\nnote B: here\n",
        # a bar on a lane listed or noted on purpose (a notes page's Alice, thinking)
        "order: Alice, B, C\nB -> C: hi\nactivate Alice\nB -> C: x\ndeactivate Alice\n",
        "B -> C: hi\nactivate Alice\nB -> C: x\ndeactivate Alice\nnote Alice: thought\n",
    ],
)
def test_a_lane_listed_noted_or_declared_on_purpose_is_not_pointed_out(text):
    assert volley.check(text).warnings == []


@pytest.mark.parametrize(
    "line",
    [
        "B -) A: event",
        "A-xB: lost",
        "A ~> B: x",
        "== Setup ==",
        "... 5 minutes later ...",
        "B -> -> A: a volley message written wrong",
        "note over B",  # Mermaid's and PlantUML's note, opened without volley's colon
        "note left of A",
        "end note",  # PlantUML's end of a note of several lines
        "endnote",
        "end rnote",
        # a volley arrow or keyword mistyped, which is an error anywhere else
        "A >> B: x",
        "A ..> B: x",
        "A - > B: x",
        "endif",
        "' a PlantUML comment",
        "tilte: Login",
        "odrer: A, B",
        "partcipant C",
        "autonumbr",
        "activte A",
    ],  # fmt: skip
)
def test_another_tools_element_under_a_note_is_its_text_with_a_warning(line: str):
    """swimlanes.io's rule keeps a line that is not a volley element in the note above it;
    one that reads as another tool's message, divider or delay was most likely meant as an
    element, which a warning says (habits are never misread in silence)."""
    checked = volley.check(f"A -> B: call\nnote: waiting\n{line}\nB --> A: done\n")
    assert checked.diagram.items[1].text == f"waiting\n{line}"
    (warning,) = checked.warnings
    assert warning.line == 3 and "read as text of the note on line 2" in warning.message


@pytest.mark.parametrize(
    "below", ["Title: Mr", "Order: first the token, then the call", "Note: hi"]
)
def test_a_note_whose_next_line_is_an_element_is_empty_with_a_warning(below: str):
    """swimlanes.io's rule makes `Title: Mr` under `note A:` the diagram's title: the note was
    drawn empty, and nothing said why."""
    checked = volley.check(f"A -> B: x\nnote A:\n{below}\n")
    assert checked.diagram.items[1].text == ""
    warning = checked.warnings[0]
    assert (warning.line, warning.column) == (2, 1)
    assert warning.message.startswith("this note is empty")
    assert volley.check("A -> B: x\nnote A:\nSteps to follow.\n").warnings == []


def test_prose_with_dashes_and_dots_in_a_note_gets_no_warning():
    checked = volley.check("A -> B\nnote: then\nwait... and see\nx-ray results - all fine\n")
    assert checked.warnings == []


@pytest.mark.parametrize(
    "line",
    ["The service needs version ~> 2.0 of the gem", "the pre-xenon node restarts", "a → b"],
)
def test_prose_with_arrows_in_a_note_is_no_other_tools_element(line: str):
    assert volley.check(f"A -> B\nnote A: then\n{line}\n").warnings == []


def test_a_bar_ended_in_each_branch_of_a_block_gets_no_warning():
    """`if:` and `else:` each ending the same bar is the usual way to write a reply in both."""
    text = (
        "A ->+ B: call\nif: ok\n  B -->- A: fine\nelse: no\n  B -->- A: error\nend\n"
        "A ->+ B: again\nB -->- A: done\nB -->- A: twice\n"
    )
    assert [w.line for w in volley.check(text).warnings] == [9]


def test_a_later_order_that_contradicts_an_earlier_one_is_pointed_out():
    """Two order: lines may build one order (the second adds names after the first's); one
    that would turn two names round is not followed, and says so."""
    diagram = volley.parse("order: A, B\nA -> B\nC -> A\norder: C, A\n", "f.volley")
    assert diagram.participants == ["A", "B", "C"]
    (warning,) = diagram.warnings
    assert (warning.line, warning.column) == (4, 11)
    assert warning.message == (
        "this order: puts C before A, but A was placed by an order: above, so C goes after it"
    )
    (turned,) = volley.parse("order: A, B\norder: B, A\nA -> B\n").warnings
    assert turned.message == (
        "this order: puts A after B, but an order: above put it before, and that stands"
    )
    for quiet in ("order: C, D", "order: C, D, C", "order: B, C", "order: A, B, C"):
        assert volley.parse(f"order: A, B\n{quiet}\nA -> D\n").warnings == [], quiet
    assert volley.parse("order: B\norder: B, A\nA -> B\n").participants == ["B", "A"]


@pytest.mark.parametrize(
    ("line", "column", "said"),
    [
        ("participant API %% the gateway", 17, "%% the gateway"),
        ("activate API %% busy", 14, "%% busy"),
        ("X -> Y // db", 8, "// db"),
        ("note Y // n: hi", 8, "// n"),
    ],
)
def test_a_comment_after_a_name_is_an_error_not_part_of_the_name(line, column, said):
    """Mermaid makes `participant API %% the gateway` a lane named so, beside the API its
    messages use; volley points at the comment instead."""
    with pytest.raises(VolleyErrors) as raised:
        volley.parse(line + "\n")
    (error,) = raised.value.errors
    assert (error.line, error.column) == (1, column)
    assert error.message.startswith(f'"{said}" after') and "line of its own" in error.message


def test_a_comment_in_a_label_stays_the_labels_text():
    (message,) = volley.parse("A -> B: GET / %% cached\n").messages()
    assert message.label == "GET / %% cached"  # as Mermaid draws it


def test_a_name_ending_with_mermaids_statement_end_is_pointed_out():
    """swimlanes.io reads `Bob;` as a name, and so does volley; a warning at the `;` says that
    Mermaid ends a statement there, so that `Alice->>Bob;` beside `Alice->>Bob` is no surprise."""
    diagram = volley.parse("participant Alice;\nAlice->>Bob;\nAlice->>Bob: hi; there\n")
    assert diagram.participants == ["Alice;", "Alice", "Bob;", "Bob"]
    assert [(w.line, w.column) for w in diagram.warnings] == [(1, 18), (2, 12)]
    assert 'delete the ";"' in diagram.warnings[1].message
    assert volley.parse("A -> B: set x = 1;\n").messages()[0].label == "set x = 1;"


def test_a_participant_named_as_another_tools_header_sends_messages():
    """`SequenceDiagram -> B: x` is a message (an arrow follows the word); the word alone, or
    with a `;` after it, is Mermaid's header and refused so."""
    assert volley.parse("SEQUENCEDIAGRAM -> SEQUENCEDIAGRAM: x\n").participants == [
        "SEQUENCEDIAGRAM"
    ]
    for text in ("sequenceDiagram\n  A->>B: hi\n", "sequenceDiagram; A->>B: hi\n"):
        with pytest.raises(VolleyErrors, match="volley import converts it"):
            volley.parse(text)


@pytest.mark.parametrize("written", ["end:", "End :", "endif", "end if"])
def test_an_end_written_otherwise_is_one_error_and_closes_its_block(written: str):
    """`end:` (as `if:` is written) or `endif`: one error that says to write `end`, and the
    block read as closed there, so no warning that it was never closed follows."""
    with pytest.raises(VolleyErrors) as raised:
        parse(f"if: token valid\n  A -> B: x\n{written}\nB -> A: y\n")
    (error,) = raised.value.errors
    assert error.line == 3
    assert error.hint == f'write "end": it closes any block, with no colon (not "{written}")'
    with pytest.raises(VolleyErrors) as alone:  # with no block open, `end` would not do either
        parse(f"A -> B: x\n{written}  \n")
    assert alone.value.errors[0].hint == '"end" closes a block, and none is open here'


@pytest.mark.parametrize(
    ("text", "line", "column", "said"),
    [
        (
            "Client -> API: x\nClient -> API GET /users\n",
            2,
            15,
            '"API GET /users" is another participant than "API": is a colon missing after "API"?',
        ),
        (  # the other way round: the one it answers
            "A -> B: hi\nB -> A hello world\n",
            2,
            8,
            '"A hello world" is another participant than "A": is a colon missing after "A"?',
        ),
        ('"Web App" -> API: call\n', 1, 1, 'the quotes are part of the name "Web App"'),
        ("'Web App' -> API: call\n", 1, 1, "the quotes are part of the name 'Web App'"),
        ("participant W as Web\nW -> “Long name”: x\n", 2, 6, "the quotes are part of the name"),
        ("A -> B: x\nnote A，B: hi\n", 2, 7, 'the name "A，B" holds a full-width comma "，"'),
        (
            "Client -> Server: x\nServer --> Client: y\nClient -> Srever: z\n",
            3,
            11,
            '"Srever" is another participant than "Server", and is named only here',
        ),
        (
            "participant Frontend External\nBrowser -> Frontend External: GET /\n"
            "Browser -> Frontend Externall: GET /\n",
            3,
            12,
            '"Frontend Externall" is another participant than "Frontend External"',
        ),
        ("A -> Gateway: x\nGateway -> A: y\nGatewya -> A: z\n", 3, 1, '"Gatewya" is another'),
        ("A -> Server: x\nServer --> A: y\nSrever -> Srever: z\n", 3, 1, '"Srever" is another'),
        (  # a note under its one message names nobody: it spans the message's lanes
            "Frontend Externall -> Netuno App\nnote: hi\nFrontend External -> Netuno App: x\n"
            "Frontend External <<-- Netuno App: y\n",
            1,
            1,
            '"Frontend Externall" is another participant than "Frontend External"',
        ),
    ],
)
def test_a_name_that_is_most_likely_a_slip_is_pointed_out(text, line, column, said):
    """A case slip, a letter mistyped, a label's colon left out, quotes from PlantUML or D2, a
    full-width comma: each made a lane of its own, silently."""
    (warning,) = volley.check(text).warnings
    assert warning.message.startswith(said)
    assert (warning.line, warning.column) == (line, column)


@pytest.mark.parametrize(
    "text",
    [
        "Client -> API: x\nClient -> API Gateway: y\n",  # labelled: a lane of its own
        "Client -> API: x\nClient -> API Gateway\nAPI Gateway --> Client\n",  # it answers
        "participant API Gateway\nClient -> API: x\nClient -> API Gateway\n",  # declared
        # names one letter apart, drawn apart on purpose: a digit, a one-letter word, a
        # plural, a letter changed, added or left out, each named once, or listed in order:
        "A -> Worker1: x\nA -> Worker1: y\nA -> Worker2: z\n",
        "A -> Bank A: x\nA -> Bank A: y\nA -> Bank B: z\n",
        "A -> Service: x\nA -> Service: y\nA -> Services: z\n",
        "A -> AuthN: x\nA -> AuthN: y\nA -> AuthZ: z\n",
        "A -> Reader: x\nA -> Reader: y\nA -> Render: z\n",
        "A -> Miner: x\nA -> Miner: y\nA -> Minter: z\n",
        "A -> mysql: x\nA -> mysql: y\nA -> mysqld: z\n",
        "A -> Kunde: x\nA -> Kunde: y\nA -> Kunden: z\n",
        "A -> AuthNService: x\nA -> AuthNService: y\nA -> AuthZService: z\n",
        "A -> 認証サーバー: x\nA -> 認証サーバー: y\nA -> 認可サーバー: z\n",
        "A -> Server: x\nA -> Srever: y\n",
        "order: A, Server, Srever\nA -> Server: x\nA -> Server: y\nA -> Srever: z\n",
    ],
)
def test_a_longer_name_that_is_a_lane_of_its_own_is_no_slip(text):
    assert volley.check(text).warnings == []


@pytest.mark.parametrize(
    ("line", "column", "said"),
    [
        ("participant A <<Service>>", 15, '"<<Service>>" after "A" is PlantUML\'s stereotype'),
        ("actor User <<human>>", 12, '"<<human>>" after "User" is PlantUML\'s stereotype'),
        ("A->*B: new", 4, '"*" before "B" is WebSequenceDiagrams\' mark that creates'),
        ("A ->* B: make", 5, '"*" before "B" is WebSequenceDiagrams\' mark that creates'),
        ("A->+*B: make", 5, '"*" before "B" is WebSequenceDiagrams\' mark that creates'),
        ("A->(2)B: later", 4, '"(2)" before "B" is sequencediagram.org\'s delay'),
    ],
)
def test_another_tools_decoration_of_a_name_is_refused(line, column, said):
    """Each made a lane named with the decoration beside the lane of the name, silently."""
    error = only_error(f"{line}\nA -> B: x\n")
    assert error.message.startswith(said)
    assert (error.line, error.column) == (1, column)


def test_a_name_in_emphasis_is_no_create_mark():
    assert parse("*em* -> A\n").participants == ["*em*", "A"]


def test_a_create_mark_apart_from_the_arrow_is_pointed_out_where_the_name_is_used_bare():
    """`A -> *B` (a space after the arrow) reads as a name, as `*em*` does; beside B, which
    the diagram uses without the mark, it is pointed out (Open OnDemand's `Proxy->+ *hook`)."""
    (warning,) = volley.check("A -> *B: make\nB --> A: ok\n").warnings
    assert warning.message.startswith('"*B" is another participant than "B"')
    assert (warning.line, warning.column) == (1, 6)
    assert volley.check("A -> *B: make\n").warnings == []


def test_mermaids_semicolon_after_a_label_is_pointed_at():
    (warning,) = volley.check("participant A as Alice;\nA -> B: x\n").warnings
    assert warning.message.startswith('"Alice;" ends with ";", which is part of the label here')
    assert (warning.line, warning.column) == (1, 23)


def test_review_of_the_slip_warnings():
    """Deliberate names get no slip warning; the ones that remain point at the name and keep
    the message's arrow."""
    quiet = [
        "App -> DB: write\nDB -> DB Replica\n",  # DB never sends to DB
        "participant Purchase Order 42\nPurchase Order 42 -> B: x\n",  # a name
        "participant Work order 7 as WO\nWork order 7 -> B: x\n",
    ]
    for text in quiet:
        assert volley.check(text).warnings == [], text
    (colon,) = volley.check("Client ->> API: x\nClient ->> API GET /users\n").warnings
    assert colon.hint.endswith('write "Client ->> API: GET /users"')
    (order,) = volley.check("participant A order 10\nA -> B: x\n").warnings
    assert order.message.endswith('"order 10" is PlantUML\'s place in the order')
    assert (order.line, order.column) == (1, 15)


def test_a_line_read_as_a_branch_gets_no_name_checks_and_a_guess_no_warning():
    text = "if: a\nA -> B\nelse cache miss ->* db\nA -> C\nelse x -> db;\nend\n"
    assert volley.check(text).warnings == []
    assert volley.check("A -> B: call\nnote over B\n  waiting\nend note\n").warnings == []
    checked = volley.check("A -> B: call\nnote: waiting\nend note\n")
    assert checked.warnings[0].message.endswith(
        "ends at the next element by itself; delete this line"
    )


def test_websequencediagrams_note_of_several_lines_needs_no_colon():
    """`note over A` (no colon), its lines, `end note`: WebSequenceDiagrams' own way to write
    a note of several lines was an error, though volley read its lines as the note's."""
    text = (
        "A->B: hi\nNote over A, B\nline one\nline two\nend note\nB-->A: ok\n"
        "note right of A\n  more\nendnote\n"
    )
    notes = [(n.over, n.side, n.text) for n in parse(text).items if isinstance(n, Note)]
    assert notes == [(["A", "B"], "over", "line one\nline two"), (["A"], "right", "more")]
    assert volley.check(text).warnings == []
    error = only_error("A->B: hi\nnote over A\nB-->A: ok\n")  # no end note: no such note
    assert (error.line, error.message) == (2, 'expected ":" after "note over A"')
    # such lines in a body, in a note's code or in a note's words are theirs, as written
    shown = "note over A\nhello\nend note"
    body = "A -> B: hi\n  in:\n    ```text\n    note over A\n    hello\n    end note\n    ```\n"
    assert parse(body).messages()[0].request.body == shown
    fenced = (
        "A -> B: hi\nnote A:\n  PlantUML writes:\n  ```\n  note over A\n  hello\n  end note\n"
        "  ```\n"
    )
    assert parse(fenced).items[1].text == f"PlantUML writes:\n```\n{shown}\n```"
    words = "A -> B: hi\nnote A:\nIn PlantUML you write\nnote over A\nhello\nend note\nB -> A: x\n"
    checked = volley.check(words)
    assert [type(item).__name__ for item in checked.diagram.items] == ["Message", "Note", "Message"]
    assert checked.diagram.items[1].text == f"In PlantUML you write\n{shown}"


def test_a_note_ended_by_end_note_keeps_each_of_its_lines():
    """WebSequenceDiagrams and PlantUML draw each line of a note they end with `end note` as a
    line; read as a Markdown paragraph, its lines ran on as one ("Retry after 30 s" "up to 3
    times" read "Retry after 30 s up to 3 times"). Other notes' lines still run on, and
    `volley fmt` writes such a note as it was written, so that it reads back the same."""
    text = "A->B: hi\nnote over A\nRetry after 30 s\nup to 3 times\nend note\nB-->A: ok\n"
    diagram = parse(text)
    note = diagram.items[1]
    assert note.lines_kept and note.text == "Retry after 30 s\nup to 3 times"
    assert note.to_json()["lines"] == "kept"
    svg = volley.render(text)
    drawn = re.findall(r"<text[^>]*>([^<]*)</text>", svg)
    shown = [line for line in drawn if line.startswith(("Retry", "up"))]
    assert shown == ["Retry after 30 s", "up to 3 times"]
    assert "Note over A: Retry after 30 s up to 3 times." in svg  # what a screen reader says
    swimlanes = parse("A->B: hi\nnote A:\nRetry after 30 s\nup to 3 times\nB-->A: ok\n")
    assert not swimlanes.items[1].lines_kept and "lines" not in swimlanes.items[1].to_json()
    assert "Retry after 30 s up to 3 times" in volley.render(swimlanes)
    written = format_text(text)
    assert "note over A:\n  Retry after 30 s\n  up to 3 times\nend note\n" in written
    assert parse(written).items[1].to_json() == note.to_json()
    # what a fenced block holds is its own: an `end note` there ends no note, nor does an
    # arrow or a `//` line there end one
    fenced_end = "A -> B: hi\nnote over A\nIn PlantUML:\n```\nend note\n```\nB -> A: x\n"
    assert errors_of(fenced_end)[0].message == 'expected ":" after "note over A"'
    code = "```\nA -> B: in code\n// not a comment\n```"
    fenced = parse(f"A -> B: hi\nnote over A\nIn PlantUML:\n{code}\nend note\nB -> A: x\n")
    assert fenced.items[1].text == f"In PlantUML:\n{code}" and fenced.items[1].lines_kept
    # a blank line above `end note` is the note's: it stays there, not under the note
    blank = format_text(text.replace("end note", "\nend note"))
    assert "up to 3 times\nend note\nB --> A: ok\n" in blank
    one_line = format_text("A->B: hi\nnote over A\nRetry\n\nend note\nB-->A: ok\n")
    assert "note A: Retry\nB --> A: ok\n" in one_line  # a note of one line: on its line
    one = parse("A->B: hi\nnote over A\nRetry\nend note\n").items[1]  # one line: nothing kept
    assert not one.lines_kept and format_text("A->B: hi\nnote over A\nRetry\nend note\n").endswith(
        "note A: Retry\n"
    )


def test_a_colour_glued_to_a_name_is_pointed_out_where_the_name_is_used_bare():
    """sequencediagram.org's `note over A#pink:` made a lane "A#pink" beside A; "C#" is a
    name, and so is "A#pink" where no A is used."""
    (warning,) = volley.check("A -> B: x\nnote over A#pink: y\n").warnings
    assert warning.message.startswith('"A#pink" is another participant than "A": "#pink"')
    assert (warning.line, warning.column) == (2, 12)
    assert volley.check("A -> B: x\nnote over A#FFBBBB: y\n").warnings
    assert volley.check("A -> B: x\nnote over A#f00: y\n").warnings
    assert volley.check("A -> B: x\nnote over A#123: y\n").warnings == []  # an issue's number
    assert volley.check("Cart -> Cart#add: x\nCart -> B: y\n").warnings == []  # a method
    block = volley.check("A -> B: x\nif: #add an item\n  A -> B: y\nend\n")
    assert block.warnings == [] and block.diagram.items[1].branches[0].label == "#add an item"
    # after a space, PlantUML's way: a colour is an error; a word that names none, a name's
    for colour in ("#f00", "#fff", "#aqua"):
        error = only_error(f"participant Bob {colour}\nA -> Bob: x\n")
        assert error.message == f'"{colour}" after "Bob" is PlantUML\'s colour, not part of a name'
    named = parse("participant Slack #general\nA -> Slack #general: x\n")
    assert named.participants == ["Slack #general", "A"]
    for quiet in ("C# -> B: x\nnote over C#: y\n", "A#pink -> B: x\n", "A -> A#team: x\n"):
        assert volley.check(quiet).warnings == [], quiet


def test_sequencediagram_orgs_colour_before_a_name_is_pointed_out_where_the_name_is_used():
    """`participant #lightblue Alice` made an empty lane "#lightblue Alice" beside the Alice
    the messages use, in silence; with its opacity (`#green:0.5`) it is no name at all. A name
    that starts with `#` and no colour, or one the messages use whole, stays a name."""
    for line in (
        "participant #lightblue Alice",
        "participant #FF0000 Alice as Al",
        "participant #fff Alice",
    ):
        (warning,) = volley.check(f"{line}\nAlice -> B: hi\n").warnings
        colour = line.split()[1]
        assert warning.message == (
            f'"{colour} Alice" is another participant than "Alice": "{colour}" is a colour (as '
            "sequencediagram.org writes one before a name)"
        )
        assert (warning.line, warning.column) == (1, 13)
    error = only_error("actor #green:0.5 Alice\nAlice -> B: hi\n")
    assert error.message == (
        '"#green:0.5" before "Alice" is sequencediagram.org\'s colour, not part of a name'
    )
    assert (error.column, error.hint) == (
        7,
        'volley does not colour participants: write "actor Alice"',
    )
    for own in ("participant #general chat\n", "participant #red team\n"):
        name = own.split(" ", 1)[1].strip()
        checked = volley.check(f"{own}{name} -> B: x\n")
        assert checked.diagram.participants[0] == name
        assert not [w for w in checked.warnings if "colour" in w.message]


def test_plantumls_mark_glued_to_a_name_is_pointed_out_where_the_name_is_used_bare():
    """`A->>B++`, then `B-->>A--` (PlantUML's activation after the name, unspaced) made lanes
    "B++" and "A--" in silence; "C++" alone is a name."""
    checked = volley.check("A->>B++: call\nB-->>A--: done\n")
    said = [(w.line, w.column, w.message.split(":")[0]) for w in checked.warnings]
    assert said == [
        (1, 6, '"B++" is another participant than "B"'),
        (2, 7, '"A--" is another participant than "A"'),
    ]
    assert volley.check("A -> C++: x\n").warnings == []
    assert checked.warnings[0].hint == 'volley writes the mark after the arrow: "A ->>+ B"'
    assert checked.warnings[1].hint == 'volley writes the mark after the arrow: "B -->>- A"'
    (left,) = volley.check("A <<- B--: x\nA -> B: y\n").warnings  # an arrow pointing left:
    assert left.hint == 'volley writes the mark after the arrow: "B -->- A"'  # the general one
    for names in (  # a name of its own: it sends, or is declared, or has a space before the #
        "A -> C++: x\nC -> A: y\nC++ -> A: z\n",
        "participant C++\nA -> C++: x\nC -> A: y\n",
        "participant Issue #123\nIssue -> Issue #123: x\n",
        "Slack -> Slack #feed: x\n",
        "Issue -> Issue#123: x\n",
    ):
        assert volley.check(names).warnings == [], names


@pytest.mark.parametrize(
    ("line", "column", "marks"), [("A->>++B: x", 5, "++"), ("A -->>-+ B: x", 7, "-+")]
)
def test_two_activation_marks_are_named_as_such(line, column, marks):
    """They were '"->>" is not an arrow', which it is."""
    error = only_error(line + "\n")
    assert error.message == f'"{marks}" is two activation marks; an arrow takes one'
    assert error.column == column


@pytest.mark.parametrize("text", ["", "\n\n", "// only a comment\n", "%% Mermaid's comment\n"])
def test_an_empty_diagram_is_pointed_out(text):
    """An empty ```volley block in a README was drawn as an empty picture without a word."""
    (warning,) = volley.check(text).warnings
    assert warning.message == "the diagram is empty: nothing is drawn" and warning.line == 1
    assert volley.check("title: Only a title\n").warnings == []


def test_mermaids_lines_pasted_without_their_header_are_told_what_volleys_arrow_is() -> None:
    """Mermaid's `->>` is its plain arrow; volley's, as swimlanes.io's, has an open head. The
    lines pasted without `sequenceDiagram` read, arrow for arrow, and a warning says so once."""
    from volley.checks.lint import lint

    pasted = "participant Client\nClient->>API: POST /orders\nAPI-->>Client: 201 Created\n"
    [warning] = lint(parse(pasted), pasted)
    assert (warning.severity, warning.line, warning.column) == ("warning", 2, 7)
    assert warning.message.startswith('"->>" draws an open (asynchronous) head in volley')
    assert "volley import" in (warning.hint or "")
    for own in (  # volley's own ways: spaced arrows, or no line only Mermaid writes
        "participant Client\nClient ->> API: POST\n",
        "Client->>API: POST\nAPI-->>Client: ok\n",
        "%% a note\nClient->API: POST\n",
        # saved from swimlanes.io under Mermaid's header: swimlanes.io's ->> is volley's
        "// sequenceDiagram\nparticipant A\nA->>B: hi\nif: webhook\n  B -> A: event\nend\n",
        # WebSequenceDiagrams' and sequencediagram.org's: `->` a call, `->>` an asynchronous one
        "A->B: sync\nNote right of B: thinks\nA->>B: async\n",
        "participant A\nA->>B: post\nB<--A: ok\n",
    ):
        assert lint(parse(own), own) == [], own


@pytest.mark.parametrize(
    ("text", "said", "column"),
    [
        ("A -> B: I #9829; you\n", '"#9829;" is Mermaid\'s way to write "♥"', 11),
        ("A -> B: x\nnote A: #quot;hi#quot;\n", "\"#quot;\" is Mermaid's way to write '\"'", 9),
        ("A -> B: wrap: a long label\n", '"wrap:" is Mermaid\'s setting', 9),
        ("A -> B: x\nnote A: nowrap: short\n", '"nowrap:" is Mermaid\'s setting', 9),
    ],
)
def test_mermaids_ways_of_writing_text_are_warned_where_volley_draws_them_as_written(
    text: str, said: str, column: int
) -> None:
    from volley.checks.lint import lint

    [warning] = lint(parse(text), text)
    assert warning.message.startswith(said) and warning.column == column, warning.format()
    for own in ("A -> B: issue #35 fixed; see `#35;`\n", "A -> B: &#35; and #notaname;\n"):
        assert lint(parse(own), own) == [], own


def test_words_a_letter_from_a_keyword_in_a_note_are_its_words_unremarked():
    """`Active:`, `Border:`, `Optional:` are words of their own, not `activate`, `order`,
    `option` mistyped: only a slip of one letter that keeps the keyword's first is said."""
    lines = "Active: yes\nBorder: none\nFactor: 2\nOptional: x\nBreaker: on\nOrdered: yes\n"
    assert volley.check(f"A -> B: hi\nnote: settings\n{lines}B -> A: ok\n").warnings == []
