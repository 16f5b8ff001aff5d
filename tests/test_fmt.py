"""`volley fmt` and the source writer: canonical text that reads back as the same diagram."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

import volley
from tests.fuzz_strategies import FUZZ, diagram_text, example_texts, label, mutated_example, name
from volley.errors import VolleyError
from volley.importers.labels import is_volley_name
from volley.language.writer import Comment, fence_for, format_text, write
from volley.model import Activation, Block, Branch, Diagram, Divider, Message, Note, Payload
from volley.text.inline import parse_inline

from .conftest import volley_cli

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = sorted((ROOT / "examples").glob("*.volley"))


def without_lines(value):
    """The model's JSON with every line number left out: what formatting may change. A
    note's line break is one whichever way it is written: a line under `note:`, or `\n` on
    its one line, as the writer puts a line that would read back as an element (`activate A`
    read as the note's text where A is no lane)."""
    if isinstance(value, dict):
        if value.get("type") == "note" and isinstance(value.get("text"), str):
            value = {**value, "text": value["text"].replace("\\n", "\n")}
        return {k: without_lines(v) for k, v in value.items() if k != "line"}
    if isinstance(value, list):
        return [without_lines(v) for v in value]
    return value


def same_diagram(first: Diagram, second: Diagram) -> bool:
    return without_lines(first.to_json()) == without_lines(second.to_json())


# --- the properties --------------------------------------------------------------------------


@FUZZ
@given(diagram_text())
def test_formatted_text_reads_as_the_same_diagram(text: str) -> None:
    try:
        diagram = volley.parse(text)
    except VolleyError:
        return
    out = format_text(text)
    again = volley.parse(out)
    assert same_diagram(again, diagram)
    assert format_text(out) == out  # idempotent, comments and blank lines included


@FUZZ
@given(mutated_example())
def test_formatting_real_text_with_slips_keeps_the_diagram(text: str) -> None:
    """The examples and every diagram in the docs, with lines cut, moved and doubled."""
    test_formatted_text_reads_as_the_same_diagram.hypothesis.inner_test(text)


def test_every_diagram_in_the_docs_round_trips() -> None:
    for text in example_texts():
        diagram = volley.parse(text)
        out = format_text(text)
        assert same_diagram(volley.parse(out), diagram)
        assert format_text(out) == out


@st.composite
def habit_line(draw: st.DrawFn) -> str:
    """A line of what the second round of the language reads: declarations, activations,
    activation marks, Mermaid's block words (any of them may leave a block open)."""
    who = draw(name().filter(is_volley_name))  # declarations take any text; names do not
    return draw(
        st.sampled_from(
            [
                f"participant {who} as {draw(label(max_pieces=3))}",
                f"actor {who}",
                f"activate {who}",
                f"deactivate {who}",
                f"{who} {draw(st.sampled_from(['->', '-->>', '<->']))}"
                f"{draw(st.sampled_from('+-'))} {draw(name().filter(is_volley_name))}: "
                f"{draw(label(max_pieces=3))}",
                f"critical: {draw(label(max_pieces=2))}",
                "option",
                f"break {draw(label(max_pieces=2))}",
                "else",
                "end",
            ]
        )
    )


@st.composite
def diagram_text_with_habits(draw: st.DrawFn) -> str:
    lines = draw(diagram_text()).split("\n")
    for _ in range(draw(st.integers(1, 5))):
        lines.insert(draw(st.integers(0, len(lines))), draw(habit_line()))
    return "\n".join(lines)


@FUZZ
@given(diagram_text_with_habits())
def test_formatted_text_reads_as_the_same_diagram_with_the_second_round_constructs(text) -> None:
    test_formatted_text_reads_as_the_same_diagram.hypothesis.inner_test(text)


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_examples_round_trip_and_are_already_formatted(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    out = format_text(text)
    assert same_diagram(volley.parse(out), volley.parse(text))
    assert out == text, f"{path.name} is not in canonical form; run volley fmt on it"


# --- what canonical text looks like ----------------------------------------------------------


def test_layout_of_blocks_arrows_and_notes() -> None:
    text = (
        "Title:   Login\n"
        "if:token ok\n"
        "A->B:hello\n"
        "     note A,B: spans\n"
        "else:   expired\n"
        "B  -->  A\n"
        "end\n"
        "...:\n"
    )
    assert format_text(text) == (
        "title: Login\n"
        "\n"
        "if: token ok\n"
        "  A -> B: hello\n"
        "  note A, B: spans\n"
        "else: expired\n"
        "  B --> A\n"
        "end\n"
        "...:\n"
    )


def test_a_note_whose_first_line_reads_as_an_element_keeps_it_on_the_note_line() -> None:
    # Under `note:` the line would be a message: an element ends a note however it is indented.
    text = "A -> B\nnote: B -> A: shown as text\nand more\n"
    formatted = format_text(text)
    assert "note: B -> A: shown as text\n  and more\n" in formatted
    (note,) = [item for item in volley.parse(formatted).items if isinstance(item, Note)]
    assert note.text == "B -> A: shown as text\nand more"


@pytest.mark.parametrize(
    "text",
    [
        "Checks the token\nNote: it expires in 1h",  # Mermaid's `<br>` before `Note:` text
        "see\nA -> B: flow",
        "first\nend",
        "first\nelse: x",
        "first\nin: Request",
        "first\nA -> B: flow\n",  # and an empty last line, kept on one line
        "first\n%% not a comment here",  # a note's text, but pointed out when read
        "a | b\n--|--\n1 | 2\n- a list ends the table\nC | D -> B: z",
    ],
)
def test_a_note_built_in_code_reads_back_as_one_note_with_the_same_lines(text: str) -> None:
    """An import's note may hold a later line that would end a note written under `note:`: it
    is written on its `note:` line with `\\n` breaks, which draw the same lines."""
    diagram = Diagram(participants=["A", "B"], items=[Note(1, ["A"], text)])
    (note,) = volley.parse(write(diagram)).items
    assert isinstance(note, Note)
    assert note.text.split("\\n") == text.split("\n")


@pytest.mark.parametrize(
    "text",
    [
        "Calls\nstep | call\n--- | ---\n1 | A -> B: x\n2 | B --> A: y",
        "A -> B | what\n---|---\n1 | A -> B: x",  # the header on the `note:` line
    ],
)
def test_a_table_whose_cells_hold_arrows_is_written_under_its_note_line(text: str) -> None:
    """A table's rows are the note's text when read, arrows and all, so they need no `\\n`
    breaks: the table stays a table a reader can edit."""
    diagram = Diagram(participants=["A", "B"], items=[Note(1, ["A"], text)])
    written = write(diagram)
    assert "\\n" not in written and "\n  1 | A -> B: x\n" in written
    (note,) = volley.parse(written).items
    assert isinstance(note, Note) and note.text == text


def test_a_line_ending_in_a_backslash_keeps_it_before_the_break() -> None:
    diagram = Diagram(participants=["A", "B"], items=[Note(1, ["A"], "C:\\\nA -> B: y")])
    (note,) = volley.parse(write(diagram)).items
    assert [[s.text for s in line] for line in parse_inline(note.text)] == [["C:\\"], ["A -> B: y"]]


def test_a_note_with_a_list_after_a_blank_first_line_keeps_its_list() -> None:
    """A note whose text starts on the line after `note:`, after a blank line (which means
    nothing there), keeps its list."""
    text = "A -> B: hi\nnote:\n\n- check the token\n- refresh it\n"
    assert format_text(text) == "A -> B: hi\nnote:\n  - check the token\n  - refresh it\n"
    assert volley.parse(format_text(text)).items[1].text == "- check the token\n- refresh it"


def test_comments_and_blank_lines_stay_where_they_were() -> None:
    text = (
        "// who talks to whom\nA -> B: one\n\n\n// then\nB --> A: two\n"
        "loop: x\n  A -> B\n  // inside\nend\n// last\n"
    )
    assert format_text(text) == (
        "// who talks to whom\n"
        "A -> B: one\n"
        "\n"
        "// then\n"
        "B --> A: two\n"
        "loop: x\n"
        "  A -> B\n"
        "  // inside\n"
        "end\n"
        "// last\n"
    )


def test_a_comment_between_a_message_and_its_bodies_stays_there() -> None:
    """`volley fmt` rewrites the file in place: a comment above `in:` or `out:` was lost."""
    text = "A -> B: x\n// why\nin:\n  a: 1\n// and back\nout:\n  b: 2\n// after\nB -> A\n"
    assert format_text(text) == (
        "A -> B: x\n// why\nin: Request\n  a: 1\n// and back\nout: Response\n  b: 2\n"
        "// after\nB -> A\n"
    )
    assert format_text(format_text(text)) == format_text(text)


def test_a_comment_like_line_inside_a_body_stays_in_the_body() -> None:
    text = "A -> B\nin: Request\n  // not a comment\n  x: 1\n// a comment\n"
    out = format_text(text)
    assert out == text
    assert volley.parse(out).items[0].request.body == "// not a comment\nx: 1"


def test_fenced_body_gets_a_fence_longer_than_any_inside_and_is_kept_byte_for_byte() -> None:
    body = "```\nstill the body\n````\n  indented\n\ntrailing  "
    diagram = Diagram(
        participants=["A", "B"],
        items=[
            Message(1, "A", "B", "->", "call", request=Payload("Request", "text", body, "fenced"))
        ],
    )
    out = write(diagram)
    assert "`````text\n" in out
    assert volley.parse(out).items[0].request.body == body
    assert fence_for(["~~~", "```"], "~") == "~~~~"


@pytest.mark.parametrize("form", ["fenced", "indented"])
def test_a_body_with_cr_lf_line_breaks_is_written_as_it_reads_back(form) -> None:
    """An import's body with a capture's CR LF (a HAR's HTML) is written with LF, as every
    reader reads it, so the imported file is already formatted (`volley fmt --check`)."""
    body = "<html>\r\n<body>\r\nold mac line\rend\n</html>"
    diagram = Diagram(
        participants=["A", "B"],
        items=[Message(1, "A", "B", "->", "get", response=Payload("Page", None, body, form))],
    )
    out = write(diagram)
    assert "\r" not in out
    assert volley.parse(out).items[0].response.body == "<html>\n<body>\nold mac line\nend\n</html>"
    assert format_text(out) == out


def test_indented_body_is_reindented_two_spaces_under_its_keyword() -> None:
    text = "if: x\nA -> B\nout:\n        k: v\n\n          deeper: 1\nend\n"
    out = format_text(text)
    assert out == "if: x\n  A -> B\n  out: Response\n    k: v\n\n      deeper: 1\nend\n"
    assert volley.parse(out).items[0].branches[0].items[0].response.body == "k: v\n\n  deeper: 1"


def test_order_is_written_only_when_first_use_would_not_give_it() -> None:
    assert format_text("A -> B\n").startswith("A -> B")
    assert format_text("order: B\nA -> B\n") == "order: B, A\n\nA -> B\n"
    # an order the author wrote stays, even where first use agrees
    assert format_text("order: A, B\nA -> B\n") == "order: A, B\n\nA -> B\n"


def test_autonumber_at_the_top_or_where_numbering_starts_again() -> None:
    assert format_text("A -> B\nautonumber 5\nB -> A\n") == "A -> B\nautonumber 5\nB -> A\n"
    assert format_text("autonumber\nA -> B\nB -> A\n") == "autonumber\n\nA -> B\nB -> A\n"
    off = "autonumber\n\nA -> B\nautonumber off\nB -> A\nautonumber 3\nA -> B\n"
    assert format_text(off) == off


def test_written_from_a_model_built_in_code() -> None:
    """What an importer does: a model with comments, written as text a person edits."""
    diagram = Diagram(
        title="Made by hand",
        participants=["Client", "Server"],
        items=[
            Message(2, "Client", "Server", "->", "GET /"),
            Note(3, ["Client", "Server"], "first\n- a\n- b"),
            Block(5, "par", [Branch("one", [Divider(6, "dashed", "x")], 5), Branch("", [], 7)], 8),
        ],
    )
    out = write(diagram, [Comment(4, " from line 4"), Comment(9, " at the end")])
    assert out == (
        "title: Made by hand\n"
        "\n"
        "Client -> Server: GET /\n"
        "note Client, Server:\n"
        "  first\n"
        "  - a\n"
        "  - b\n"
        "// from line 4\n"
        "par: one\n"
        "  --: x\n"
        "and:\n"
        "end\n"
        "// at the end\n"
    )
    assert volley.parse(out).items[1].text == "first\n- a\n- b"


# --- the command -----------------------------------------------------------------------------


def test_fmt_rewrites_files_in_place_and_check_lists_what_would_change(tmp_path: Path) -> None:
    messy = tmp_path / "messy.volley"
    tidy = tmp_path / "tidy.volley"
    messy.write_text("A->B:  hi\nif:x\nB->A\nend\n", encoding="utf-8")
    tidy.write_text("A -> B: hi\n", encoding="utf-8")

    checked = volley_cli("fmt", "--check", str(messy), str(tidy))
    assert checked.returncode == 1
    assert checked.stdout == f"would reformat {messy}\n"
    assert messy.read_text(encoding="utf-8") == "A->B:  hi\nif:x\nB->A\nend\n"

    done = volley_cli("fmt", str(messy), str(tidy))
    assert done.returncode == 0, done.stderr
    assert done.stderr == f"reformatted {messy}\n"
    assert messy.read_text(encoding="utf-8") == "A -> B: hi\nif: x\n  B -> A\nend\n"
    assert volley_cli("fmt", "--check", str(messy), str(tidy)).returncode == 0
    # -q, as volley render -q: errors alone
    messy.write_text("A->B\n", encoding="utf-8")
    quiet = volley_cli("fmt", "-q", str(messy))
    assert (quiet.returncode, quiet.stderr) == (0, "")
    assert messy.read_text(encoding="utf-8") == "A -> B\n"


def test_fmt_dash_reads_stdin_and_writes_stdout() -> None:
    done = volley_cli("fmt", "-", stdin="A->B\n")
    assert (done.returncode, done.stdout) == (0, "A -> B\n")


def test_fmt_leaves_a_file_that_does_not_parse_untouched(tmp_path: Path) -> None:
    bad = tmp_path / "bad.volley"
    bad.write_text("A -> B\nin: Request\n```\nnever closed\n", encoding="utf-8")
    done = volley_cli("fmt", str(bad))
    assert done.returncode == 1
    assert f"{bad}:3:1: error:" in done.stderr
    assert bad.read_text(encoding="utf-8") == "A -> B\nin: Request\n```\nnever closed\n"


def test_a_file_with_crlf_line_ends_keeps_them(tmp_path: Path) -> None:
    path = tmp_path / "windows.volley"
    path.write_bytes(b"A->B\r\nif: x\r\nB->A\r\nend\r\n")
    assert volley_cli("fmt", str(path)).returncode == 0
    assert path.read_bytes() == b"A -> B\r\nif: x\r\n  B -> A\r\nend\r\n"
    assert volley_cli("fmt", "--check", str(path)).returncode == 0


def test_every_error_of_a_file_is_reported_and_the_file_left_alone(tmp_path: Path) -> None:
    path = tmp_path / "typos.volley"
    path.write_text("A ~> B\nC ~> D\n", encoding="utf-8")
    done = volley_cli("fmt", str(path))
    assert done.returncode == 1
    assert f"{path}:1:3: error:" in done.stderr and f"{path}:2:3: error:" in done.stderr
    assert path.read_text(encoding="utf-8") == "A ~> B\nC ~> D\n"


def test_a_mermaid_style_comment_is_kept_as_a_volley_comment() -> None:
    assert format_text("A -> B\n%% from Mermaid\nB -> A\n") == "A -> B\n// from Mermaid\nB -> A\n"


def test_a_fenced_note_and_comments_after_an_empty_note_survive_formatting():
    from volley.language.writer import rewrite

    for text in (
        "note: \n  ````\nnote: \n  ````\n",  # the note's text is a fenced block
        "order: A\nnote: \n// a comment\n// a comment\n",  # comments after an empty note
    ):
        once = rewrite(volley.parse(text), text)
        assert (
            volley.parse(once).to_json()["items"][0]["text"]
            == (volley.parse(text).to_json()["items"][0]["text"])
        )
        assert rewrite(volley.parse(once), once) == once
    assert "// a comment\n// a comment" in rewrite(
        volley.parse("order: A\nnote: \n// a comment\n// a comment\n"),
        "order: A\nnote: \n// a comment\n// a comment\n",
    )


def test_an_activation_right_after_a_note_stays_an_activation() -> None:
    """A note runs on to the next element; a bare `activate B` under it would be its text."""
    text = "A -> B: hi\nnote A: hello\nactivate: B\nB -> A: back\nnote B:\n  two\ndeactivate: B\n"
    formatted = format_text(text)
    assert "activate: B" in formatted and "deactivate: B" in formatted
    assert same_diagram(volley.parse(formatted), volley.parse(text))
    built = Diagram(
        participants=["A", "B"],
        items=[Note(1, ["A"], "hello"), Activation(2, "B", True), Message(3, "A", "B", "->", "x")],
    )
    assert volley.parse(write(built)).to_json()["items"][1]["type"] == "activation"


def test_a_blank_line_between_the_comments_a_file_starts_with_stays() -> None:
    text = "// About this diagram\n\n// Drawn from the spec\nA -> B: hi\n"
    assert format_text(text) == text
    assert format_text(format_text(text)) == text


def test_fmt_says_what_check_says_before_the_text_stops_showing_it(tmp_path) -> None:
    """Mermaid's `Client->>API`, spaced as volley writes it, reads as volley's own open head:
    the warning that it was most likely Mermaid's plain arrow is said as the file is
    rewritten, not lost with the evidence."""
    from click.testing import CliRunner

    from volley.cli import main

    path = tmp_path / "flow.volley"
    path.write_text("participant Client\nClient->>API: GET /users\nAPI-->>Client: 200 OK\n")
    done = CliRunner().invoke(main, ["fmt", str(path)])
    assert done.exit_code == 0, done.output
    assert 'flow.volley:2:7: warning: "->>" draws an open (asynchronous) head' in done.output
    assert path.read_text() == "Client ->> API: GET /users\nAPI -->> Client: 200 OK\n"


def test_a_comment_like_line_in_a_notes_code_is_the_codes_after_blank_lines_too() -> None:
    """A note whose words start after blank lines below `note:` was counted from the line under
    it, so its last lines were taken for lines of no element, and a `//` line in its fenced
    code was written a second time after the note, as a comment."""
    text = "A -> B: hi\nnote A:\n\n\none\n```\n// inside code\n```\n// a real comment\nB -> A: x\n"
    written = format_text(text)
    assert written.count("// inside code") == 1 and written.count("// a real comment") == 1
    assert written == format_text(written)


def test_a_lane_declared_on_purpose_stays_declared() -> None:
    """A participant declared and named by no message is a lane drawn on purpose; written into
    `order:` alone it read as a misspelt name, and the formatted file warned where the
    author's did not."""
    text = "participant Product\nparticipant Products\nUser -> Product: x\n"
    assert volley.check(text).warnings == []
    formatted = format_text(text)
    assert formatted.startswith("participant Products\n")
    assert volley.check(formatted).warnings == []
    assert format_text(formatted) == formatted
    # a name only `order:` lists, and no message, is still a name to look at twice
    listed = volley.check("order: Product, Products, User\nUser -> Product: x\n")
    assert [w.hint for w in listed.warnings] == ['is it "Product", misspelt?']
