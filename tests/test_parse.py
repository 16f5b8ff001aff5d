"""Every construct of the language, parsed into the model the contract describes."""

from __future__ import annotations

import re

import pytest

import volley
from volley.model import ARROWS, Block, Divider, Message, Note


def only(text: str):
    """The single item of a one-element diagram."""
    diagram = volley.parse(text)
    assert len(diagram.items) == 1, diagram.items
    return diagram.items[0]


def test_title_order_and_participants_by_first_use():
    diagram = volley.parse("title: Login **flow**\norder: C, A\nA -> B: x\nB -> C\nD -> A\n")
    assert diagram.title == "Login **flow**"
    assert diagram.participants == ["C", "A", "B", "D"]


def test_no_title_is_null_and_empty_input_is_an_empty_diagram():
    empty = {"title": None, "participants": [], "items": [], "labels": {}}
    assert volley.parse("").to_json() == empty
    assert volley.parse("\n\n// only a comment\n").items == []


@pytest.mark.parametrize("arrow", sorted(ARROWS))
def test_every_arrow_operator(arrow):
    message = only(f"Client {arrow} Server: call\n")
    assert isinstance(message, Message)
    assert (message.sender, message.arrow, message.receiver) == ("Client", arrow, "Server")
    assert message.label == "call"


def test_contract_operators_are_all_known():
    contract = ["->", "-->", "->>", "-->>", "=>", "-x", "--x", "<-", "<--", "<->", "<-->"]
    assert set(contract) <= set(ARROWS)
    assert len(ARROWS) >= 13


def test_arrows_without_spaces_and_reverse_arrows_keep_names_as_written():
    message = only("B <-- A\n")
    assert (message.sender, message.receiver, message.arrow) == ("B", "A", "<--")
    message = only("Agent->MCP Server:POST /mcp\n")
    assert (message.sender, message.receiver, message.label) == ("Agent", "MCP Server", "POST /mcp")


def test_lost_message_needs_a_space_so_names_may_hold_x():
    message = only("x-xray -x Sink: dropped\n")
    assert (message.sender, message.arrow, message.receiver) == ("x-xray", "-x", "Sink")
    assert only("A --x B\n").arrow == "--x"


def test_lost_message_takes_an_activation_mark_as_other_arrows_do():
    """Mermaid's `A-x+B` and `B--x-A`: the mark comes between the cross and its space."""
    message = only("A -x+ B: close\n")
    written = (message.sender, message.arrow, message.activate, message.receiver)
    assert written == ("A", "-x", "+", "B")
    assert only("Pre-x-ray --x- Sink\n").sender == "Pre-x-ray"
    for keyword in ("Loop", "Par", "Activate"):  # a keyword's name, as with any other arrow
        assert only(f"{keyword} -x+ B: lost\n").sender == keyword


def test_label_optional_and_colons_inside_label_kept():
    assert only("A -> B\n").label == ""
    assert only("A -> B:\n").label == ""
    assert only("A -> B: at 10:30: retry\n").label == "at 10:30: retry"


def test_self_message():
    message = only("A -> A: think\n")
    assert message.is_self and message.sender == message.receiver == "A"


def test_names_keep_inner_spaces_trim_outer_and_differ_in_case_as_one_participant():
    """swimlanes.io draws `agent` and `Agent` as one lane, shown as first written (its
    exported pictures show it: arrows to `EU Team` end on the lane of `EU team`)."""
    diagram = volley.parse("  MCP  Server   ->  agent  : hi\nAgent -> MCP  SERVER\n")
    assert diagram.participants == ["MCP  Server", "agent"]
    assert [(m.sender, m.receiver) for m in diagram.messages()] == [
        ("MCP  Server", "agent"),
        ("agent", "MCP  Server"),
    ]
    listed = volley.parse("order: client, api\nClient -> API: x\nnote Api: y\n")
    assert listed.participants == ["client", "api"] and listed.items[-1].over == ["api"]
    assert volley.check("Candidate -> EU Team: x\nEU team -> Eu Team: y\n").warnings == []


def test_participant_named_like_a_keyword_prefix():
    diagram = volley.parse("title page -> Endpoint: x\nend user -> order service\n")
    assert diagram.participants == ["title page", "Endpoint", "end user", "order service"]


def test_a_note_right_after_a_divider_spans_every_participant():
    """swimlanes.io draws a `note:` under a section's divider across the whole diagram (its
    picture of acronyms.io's session), not under the message before the divider."""
    diagram = volley.parse("A -> B: x\nB -> C: y\n-: Next\nnote: the section's words\n")
    assert diagram.items[-1].over == ["A", "B", "C"]
    assert volley.parse("A -> B: x\nB -> C: y\nnote: under y\n").items[-1].over == ["B", "C"]


def test_autonumber_from_one_and_from_n():
    diagram = volley.parse("A -> B\nautonumber\nA -> B\nB -> A\nautonumber 10\nA -> B\n")
    assert [m.number for m in diagram.messages()] == [None, 1, 2, 10]


def test_autonumber_counts_through_blocks_in_document_order():
    diagram = volley.parse("autonumber\nif: a\nA -> B\nelse: b\nB -> A\nend\nA -> A\n")
    assert [m.number for m in diagram.messages()] == [1, 2, 3]


def test_autonumber_off_numbers_the_messages_after_it_no_more_until_numbering_starts_again():
    """Mermaid's `autonumber off` (and PlantUML's `autonumber stop`, as imported)."""
    diagram = volley.parse(
        "autonumber\nA -> B\nif: a\n  Autonumber OFF\n  B -> A\nend\nA -> A\nautonumber 7\nB -> B\n"
    )
    assert [m.number for m in diagram.messages()] == [1, None, None, 7]


@pytest.mark.parametrize("after", ["", "=: later\n", "note: the end\n", "autonumber off\n"])
def test_an_autonumber_under_the_last_message_warns_that_it_numbers_nothing(after):
    """swimlanes.io's gallery says to uncomment `autonumber` under its messages: numbering
    runs from where it stands, so such a line numbers nothing, and says so."""
    (said,) = volley.check(f"A -> B: one\nB --> A: two\n{after}autonumber\n").warnings
    assert said.message.startswith("autonumber numbers the messages after it, and none follows")
    assert (said.line, said.column) == (3 + after.count("\n"), 1)
    assert volley.check("A -> B: one\nautonumber 5\nB --> A: two\n").warnings == []
    assert volley.check("autonumber\n").warnings[0].message.startswith("the diagram is empty")


def test_comments_are_ignored_only_on_their_own_line():
    diagram = volley.parse("// first\nA -> B: see http://x.test // not a comment\n  // indented\n")
    assert diagram.items[0].label == "see http://x.test // not a comment"
    assert len(diagram.items) == 1


def test_fenced_payload_with_language():
    message = only('A -> B: call\nin: Request\n```json\n{"a": 1}\n```\n')
    assert message.request.to_json() == {
        "label": "Request",
        "lang": "json",
        "body": '{"a": 1}',
        "form": "fenced",
    }
    assert message.response is None


def test_payload_labels_default():
    message = only("A -> B\nin:\n  a: 1\nout:\n  b: 2\n")
    assert message.request.label == "Request" and message.response.label == "Response"
    assert message.response.body == "b: 2" and message.response.form == "indented"


def test_out_before_in_is_allowed():
    message = only("A -> B\nout: R\n  r: 1\nin: Q\n  q: 1\n")
    assert (message.request.label, message.response.label) == ("Q", "R")


@pytest.mark.parametrize("fence", ["```", "````", "~~~", "~~~~~"])
def test_fence_kinds_and_lengths(fence):
    message = only(f"A -> B\nin:\n{fence}\nline\n{fence}\n")
    assert message.request.body == "line" and message.request.lang is None


def test_longer_closing_fence_closes_and_shorter_does_not():
    message = only("A -> B\nin:\n````\n```\ninside\n```\n`````\n")
    assert message.request.body == "```\ninside\n```"


def test_indented_fence_has_its_indentation_removed():
    message = only(
        "if: x\n  A -> B\n  in: R\n    ```http\n    GET / HTTP/1.1\n      deeper\n    ```\nend\n"
    )
    payload = message.branches[0].items[0].request
    assert payload.body == "GET / HTTP/1.1\n  deeper" and payload.lang == "http"


def test_indented_body_common_indent_removed_blank_lines_kept_trailing_dropped():
    diagram = volley.parse("A -> B\nin: Q\n    a: 1\n\n      b: 2\n\nB -> A\n")
    assert diagram.items[0].request.body == "a: 1\n\n  b: 2"
    assert len(diagram.items) == 2


def test_indented_body_needs_two_columns_more_than_its_owner():
    diagram = volley.parse("  A -> B\n  in: Q\n    a: 1\n   B -> A\n")
    assert diagram.items[0].request.body == "a: 1"
    assert len(diagram.items) == 2


def test_tab_counts_as_indentation():
    message = only("A -> B\nin: Q\n\tkey: value\n\tother: 2\n")
    assert message.request.body == "key: value\nother: 2"


def test_a_tab_deeper_than_its_owner_is_deep_enough_whatever_column_it_ends_on():
    """Three spaces then a tab ends on column four, one deeper than the `in:` line's three: it
    is still the owner's indentation and a tab, as "two spaces (or a tab) deeper" allows."""
    diagram = volley.parse("if: x\n   A -> B\n   in:\n   \tkey: v\nend\n")
    assert diagram.messages()[0].request.body == "key: v"
    note = volley.parse("loop: x\n   A -> B\n   note over A: hi\n   \tmore\nend\n")
    assert note.items[0].branches[0].items[1].text == "hi\nmore"


def test_an_indented_body_keeps_its_own_tabs_and_spaces_byte_for_byte():
    """Past the indentation every line shares as written, the body is what was written: a
    tab stays a tab, a line of spaces keeps its spaces."""
    message = only("A -> B\nin: Q\n\tx:\t1\n\t\tdeep\n\t   \n\t}\n")
    assert message.request.body == "x:\t1\n\tdeep\n   \n}"


def test_body_survives_byte_for_byte():
    body = (
        "A -> B: not a message\nnote: not a note\nend\n```inner```\n"
        "</script><script>alert(1)</script>\ntrailing   \n\n\tTabbed\n  {fas-plug} *x*"
    )
    message = only(f"A -> B\nin: Q\n~~~text\n{body}\n~~~\n")
    assert message.request.body == body
    assert message.request.lang == "text"


def test_crlf_bom_and_lone_cr_are_normalised():
    text = "\ufefftitle: T\r\nA -> B\r\nin:\r\n```\r\nx\r\n\r\ny\r\n```\r\n"
    diagram = volley.parse(text)
    assert diagram.title == "T"
    assert diagram.items[0].request.body == "x\n\ny"
    assert volley.parse("A -> B\rB -> A\r").participants == ["A", "B"]
    # two marks, as a tool that adds one to a file that has one leaves them: no name holds one
    assert volley.parse("\ufeff\ufeffA -> B\n").participants == ["A", "B"]


def test_note_under_previous_message_spans_sender_to_receiver():
    diagram = volley.parse("order: A, B, C, D\nD -> B: x\nnote: under it\n")
    note = diagram.items[1]
    assert isinstance(note, Note)
    assert note.over == ["B", "C", "D"] and note.text == "under it"


def test_note_before_any_message_spans_everyone():
    diagram = volley.parse("note: hello\nA -> B\nB -> C\n")
    assert diagram.items[0].over == ["A", "B", "C"]


def test_note_over_one_and_spanning_two_in_either_order():
    diagram = volley.parse("A -> B\nB -> C\nnote B: one\nnote C, A: two\n")
    assert diagram.items[2].over == ["B"]
    assert diagram.items[3].over == ["A", "B", "C"]


def test_note_continuation_lines_and_fenced_block():
    diagram = volley.parse(
        'A -> B\nnote A: first\n  - one\n  - two\n```json\n{"k": 1}\n```\nB -> A\n'
    )
    note = diagram.items[1]
    assert note.text == 'first\n- one\n- two\n```json\n{"k": 1}\n```'
    assert len(diagram.items) == 3


def test_note_creates_participants_by_use():
    assert volley.parse("note Z: hi\n").participants == ["Z"]


@pytest.mark.parametrize(
    "mark,style",
    [("=", "bold"), ("-", "regular"), ("--", "dashed"), ("_", "thin"), ("...", "delay")],
)
def test_dividers(mark, style):
    divider = only(f"{mark}: {{fas-plug}} Connecting\n")
    assert isinstance(divider, Divider)
    assert (divider.style, divider.label) == (style, "{fas-plug} Connecting")
    assert only(f"{mark}:\n").label == ""


@pytest.mark.parametrize("kind", ["group", "loop", "opt"])
def test_simple_blocks(kind):
    block = only(f"{kind}: the label\n  A -> B\nend\n")
    assert isinstance(block, Block) and block.kind == kind
    assert [b.label for b in block.branches] == ["the label"]
    assert block.branches[0].items[0].arrow == "->"


def test_if_else_and_par_and_branches():
    block = only("if: valid\nA -> B\nelse: expired\nB -> A\nelse:\nA -> A\nend\n")
    assert [b.label for b in block.branches] == ["valid", "expired", ""]
    assert [len(b.items) for b in block.branches] == [1, 1, 1]
    block = only("par: one\nA -> B\nand: two\nA -> C\nend\n")
    assert block.kind == "par" and [b.label for b in block.branches] == ["one", "two"]


def test_blocks_nest_to_depth_with_indentation_meaning_nothing():
    text = "".join("  " * i + f"loop: {i}\n" for i in range(30)) + "A -> B\n" + "end\n" * 30
    block = only(text)
    depth = 0
    while isinstance(block, Block):
        depth += 1
        block = block.branches[0].items[0]
    assert depth == 30 and isinstance(block, Message)


def test_empty_block_and_labels_optional():
    block = only("opt:\nend\n")
    assert block.branches[0].label == "" and block.branches[0].items == []


def test_keywords_are_case_insensitive():
    diagram = volley.parse("Title: T\nIF: x\nA -> B\nEnd\n")
    assert diagram.title == "T" and diagram.items[0].kind == "if"


def test_inline_markup_is_kept_as_written():
    label = r"**b** *i* _i_ ~~s~~ `c` [t](https://x.test) {fas-plug fa-lg} \* \n"
    assert only(f"A -> B: {label}\n").label == label.strip()


def test_lines_are_one_based_and_true_after_bodies():
    diagram = volley.parse("// c\n\nA -> B\nin:\n```\n\n\n```\nnote: n\n=: d\n")
    assert [item.line for item in diagram.items] == [3, 9, 10]
    assert diagram.items[0].request.line == 4


def test_tabs_cjk_and_emoji_in_names():
    diagram = volley.parse("\t用户 -> 🤖 Bot: 你好\n")
    assert diagram.participants == ["用户", "🤖 Bot"]


def test_reference_diagram_essentials(reference_text):
    diagram = volley.parse(reference_text, "mcp-tool-call.volley")
    messages = diagram.messages()
    assert diagram.title == "MCP tool call over Streamable HTTP"
    assert diagram.participants == ["User", "Agent", "Model", "MCP Server"]
    assert len(messages) == 14
    arrows = " ".join(m.arrow for m in messages)
    assert arrows == "-> --> -> --> -> --> -> -> --> -> --> -> --> -->"
    notes = [i for i in diagram.items if isinstance(i, Note)]
    assert len(notes) == 4
    assert notes[0].over == ["Agent", "Model", "MCP Server"]
    assert notes[3].over == ["Agent", "Model"]
    assert notes[3].text.startswith("The model only asks for the call.")
    dividers = [i for i in diagram.items if isinstance(i, Divider)]
    assert [(d.style, d.label) for d in dividers] == [
        ("bold", "{fas-plug} Connecting"),
        ("bold", "{fas-robot} The model picks a tool"),
    ]
    payloads = [(m.request, m.response) for m in messages]
    first = payloads[0][0]
    assert (first.label, first.lang, first.form) == ("Request", "http", "fenced")
    assert first.body.startswith("POST /mcp HTTP/1.1\nContent-Type: application/json\n")
    assert first.body.endswith('"version": "1.4.0" }\n  }\n}')
    assert payloads[5][1].label == "Tools" and payloads[5][1].lang == "json"
    tools_offered = payloads[7][0]
    assert (tools_offered.label, tools_offered.form, tools_offered.lang) == (
        "Tools offered",
        "indented",
        None,
    )
    assert tools_offered.body == "search_issues: Search issues by text and state"
    assert payloads[8][1].label == "Tool call"
    assert payloads[10][1].label == "Result"
    assert payloads[3] == (None, None)
    assert sum(p is not None for pair in payloads for p in pair) == 9


def test_reference_json_snapshot(reference_text, snapshot):
    assert volley.parse(reference_text).to_json() == snapshot


def test_a_payload_keyword_in_any_case_keeps_its_side():
    """`İn:` matches the keyword case-insensitively, as `IN:` does; it stays a request."""
    message = volley.parse("A -> B\nİn:\n  {}\nOUT:\n  {}\n").messages()[0]
    assert message.request is not None and message.response is not None


def test_an_autonumber_too_large_to_count_is_an_error_not_a_crash():
    with pytest.raises(volley.VolleyError, match="autonumber starts at most at 999999999"):
        volley.parse("autonumber " + "9" * 5000 + "\nA -> B\n")
    assert volley.parse("autonumber 999999999\nA -> B\n").messages()[0].number == 999999999


def test_a_participant_declared_again_with_another_label_is_said():
    """One lane shows one label, the last declared: the first is not lost in silence, as when
    two spellings of one name (`Client`, `client`) are declared with labels of their own."""
    text = "participant Client as The Client\nparticipant client as Other\nClient -> API: a\n"
    (said,) = volley.check(text).warnings
    assert (said.line, said.column) == (2, 13)
    assert said.message == (
        'Client is declared again with another label, "Other" ("The Client" on line 1): its '
        "lane shows the last declared"
    )
    assert volley.parse(text).labels == {"Client": "Other"}
    assert volley.check("participant A as X\nparticipant A as X\nA -> B\n").warnings == []


def _lines_that_may_start_a_keyword() -> set[str]:
    """Every line of the examples and the cases, and each keyword word (and its letters that
    match another's case-insensitively: ı, İ, ſ, K) in the forms a line starts it."""
    from pathlib import Path

    from volley.language.keywords import VOLLEY_WORDS
    from volley.resources import read_text, resource_path

    root = Path(__file__).parent
    lines = {
        line
        for path in [*root.parent.glob("examples/*.volley"), *root.glob("cases/**/*.volley")]
        for line in path.read_text(encoding="utf-8").splitlines()
    }
    grammar = read_text(resource_path("grammar", "volley.lark"))
    words = set(VOLLEY_WORDS) | {w for found in re.findall(r"\(\?i:([a-z|]+)\)", grammar)
                                 for w in found.split("|")}  # fmt: skip
    words |= {w.replace(a, b) for w in words for a, b in ("iı", "iİ", "sſ", "kK") if a in w}
    ends = ["", ":", " :", " x", ": x", "\tx", " A -> B: x", "10", " 10", " off", "-x", "s", "é"]
    for word in words:
        for written in (word, word.upper(), word.title()):
            lines |= {f"{lead}{written}{end}" for lead in ("", "  ", "\t") for end in ends}
    return lines | {"...:", "--: x", "=:", "_:", "-: x", "==:", "...", "- x", "", "  "}


def test_a_lines_keyword_is_found_by_its_first_word_as_by_all_keywords_at_once():
    """`keyword_at` tries only the terminal a line's first word starts: it finds what the
    pattern of every keyword finds, on every line."""
    from volley.language.parser import _KEYWORDS, keyword_at, keyword_matcher

    every = keyword_matcher(*_KEYWORDS)
    kinds = set()
    for line in sorted(_lines_that_may_start_a_keyword()):
        found, expected = keyword_at(line), every.match(line + "\n")
        assert (found and (found.lastgroup, found.span())) == (
            expected and (expected.lastgroup, expected.span())
        ), line
        kinds.add(expected and expected.lastgroup)
    assert kinds >= {*_KEYWORDS, None}  # every keyword was met


def test_code_indented_under_a_notes_fence_stays_code():
    """Each stretch of a note's lines between its fences was stripped of its own indentation:
    code indented four columns under a fence at the note's edge lost them, and `# comment`
    became a heading. The note's edge is its first line's; lines deeper keep the rest."""
    text = "A -> B: hi\nnote B:\n```\nfenced\n```\n\n    # not a heading\n    x = 1\n"
    note = volley.parse(text).items[1]
    assert note.text == "```\nfenced\n```\n\n    # not a heading\n    x = 1"
    indented = "A -> B: hi\nnote B:\n  para\n  ```\n  fenced\n  ```\n\n      # code\n      x = 1\n"
    assert volley.parse(indented).items[1].text == (
        "para\n```\nfenced\n```\n\n    # code\n    x = 1"
    )
