"""Every Mermaid sequence diagram of the corpus (tests/cases/mermaid/, real diagrams from public
docs, each file naming its source and licence) imports into `.volley` that parses, with every
message of the Mermaid source in it (its sender, its receiver and its text), every note's text,
every block and branch label, every alias and every activation; a diagram Mermaid refuses is a
clear error instead.

These are read from the Mermaid source here by Mermaid's own lexical rules, written out
small and separately from the importer: a statement ends at a newline or `;`, `#name;` and
`#123;` are escapes, a `#` that starts none begins a comment running to the end of the line,
`%%` lines and `%%{…}%%` directives are comments, and a message's text follows its first `:`
(after an optional `wrap:`/`nowrap:`), with `<br>` a line break.
"""

from __future__ import annotations

import html
import re
from pathlib import Path

import pytest

import volley
from volley.errors import VolleyError
from volley.importers import convert
from volley.importers.mermaid import markdown_blocks
from volley.model import Activation, Block, Note, walk
from volley.text.inline import CodeBlock, ListItem, parse_inline, parse_note

CASES = Path(__file__).resolve().parent / "cases" / "mermaid"

# Diagrams that Mermaid itself refuses: the page line and column of the statement it cannot
# read, what the error says, and why (in words of its hint).
SEMICOLON = "Mermaid ends a statement at ';'"
NOT_MERMAID = {
    "kubernetes-kep-5823-not-mermaid.md": (32, 42, "not a Mermaid sequence statement", SEMICOLON),
    "decentraland-adr-38-not-mermaid.md": (17, 53, "not a Mermaid sequence statement", SEMICOLON),
}


def diagrams() -> list[tuple[str, int, str]]:
    """(file name, first line of the diagram on its page, Mermaid source) of each diagram."""
    found = []
    for path in sorted(CASES.iterdir()):
        if path.name in NOT_MERMAID:
            continue
        text = path.read_text(encoding="utf-8")
        if path.suffix == ".mmd":
            found.append((path.name, 1, text))
            continue
        for block in markdown_blocks(text):
            if any(line.strip() == "sequenceDiagram" for line in block.lines):
                # MyST's options (`:zoom:`) open a fence, not the diagram
                lines = list(block.lines)
                while lines and re.fullmatch(r"[ \t]*:[\w-]+:.*", lines[0]):
                    lines.pop(0)
                skipped = len(block.lines) - len(lines)
                found.append((path.name, block.start + 1 + skipped, "\n".join(lines)))
    return found


DIAGRAMS = diagrams()


def test_the_corpus_is_wide() -> None:
    sources = {
        found[1]
        for path in CASES.iterdir()
        if (found := re.search(r"github\.com/([^/\s]+/[^/\s]+)", path.read_text(encoding="utf-8")))
    }
    assert len(DIAGRAMS) >= 90 and len(sources) >= 5


# --- Mermaid's messages, read by Mermaid's rules ---------------------------------------------

_ARROWS = sorted(
    ["->>", "-->>", "->", "-->", "-x", "--x", "-)", "--)", "<<->>", "<<-->>"]
    + ["-|\\", "--|\\", "-|/", "--|/", "/|-", "/|--", "\\|-", "\\|--"]
    + ["-\\\\", "--\\\\", "-//", "--//", "//-", "//--", "\\\\-", "\\\\--"],
    key=len,
    reverse=True,
)
_SIGNAL = re.compile(
    r"(?P<sender>[^:]+?)\s*(?:\(\))?\s*(?:" + "|".join(map(re.escape, _ARROWS)) + r")"
    r"\s*(?:[+-]|\(\))?\s*(?P<receiver>[^:]+?)\s*:(?P<text>.*)"
)
_KEYWORD = re.compile(
    r"(?i)(note|participant|actor|create|destroy|loop|alt|else|opt|par|par_over|and|critical|"
    r"option|break|rect|box|links?|properties|details|title|accTitle|accDescr|activate|"
    r"deactivate)\b"
)


def _unescape(text: str) -> str:
    return re.sub(
        r"#(\w+);",
        lambda m: html.unescape(f"&#{m[1]};" if m[1].isdigit() else f"&{m[1]};"),
        text,
    )


def mermaid_statements(source: str) -> list[str]:
    lines = source.split("\n")
    if lines and lines[0].strip() == "---":  # front matter
        lines = lines[lines.index("---", 1) + 1 :] if "---" in lines[1:] else lines
    statements = []
    in_directive = False
    for line in lines:
        if in_directive or line.strip().startswith("%%{"):
            in_directive = "}%%" not in line
            continue
        if line.strip().startswith("%%"):
            continue
        code = re.sub(r"#\w+;", lambda m: m[0].replace("#", "\0").replace(";", "\1"), line)
        code = code[: _comment_start(code)]
        for statement in code.split(";"):
            statements.append(statement.replace("\0", "#").replace("\1", ";").strip())
    return statements


def _comment_start(code: str) -> int:
    """Where Mermaid's lexer starts a comment on a line: at a `#` in text (after a colon, a
    block's keyword or `as`) or where a word starts; a `#` inside a name is a letter."""
    for at in (m.start() for m in re.finditer("#", code)):
        before = code[:at].split(";")[-1]
        written = before.rstrip()
        in_text = ":" in before or re.match(
            r"\s*(?i:loop|alt|else|opt|par|and|critical|option|"
            r"break|rect|box|title)\b|.*\sas\s",
            before,
        )
        if in_text or not written or written[-1] in "/\\+()<->:,;":
            return at
    return len(code)


def mermaid_text(text: str) -> str:
    """Text as Mermaid shows it: without `wrap:`, a line at each `<br>`, escapes decoded."""
    text = re.sub(r"^:?(?:no)?wrap:", "", text.strip())
    return "\n".join(_unescape(part).strip() for part in re.split(r"(?i)<br\s*/?>", text.strip()))


def mermaid_messages(source: str) -> list[tuple[str, str, str]]:
    messages = []
    for statement in mermaid_statements(source):
        found = _SIGNAL.fullmatch(statement)
        if found is not None and not _KEYWORD.match(statement):
            sender, receiver = _unescape(found["sender"]).strip(), _unescape(found["receiver"])
            messages.append((sender, receiver.strip(), mermaid_text(found["text"])))
    return messages


_NOTE = re.compile(r"(?i)note\s+(?:over|left\s+of|right\s+of)\s+(?P<names>[^:]+?)\s*:(?P<text>.*)")
_BLOCK = re.compile(
    r"(?i)(?P<word>loop|alt|else|opt|par_over|par|and|critical|option|break)\b:?(?P<rest>.*)"
)
_ALIAS = re.compile(
    r"(?i)(?:create\s+)?(?:participant|actor)\s+(?P<name>[^@]+?)(?:@\{.*\})?\s+as\s+(?P<alias>.+)"
)


def mermaid_notes(source: str) -> list[tuple[set[str], str]]:
    return [
        ({name.strip() for name in found["names"].split(",")}, mermaid_text(found["text"]))
        for statement in mermaid_statements(source)
        if (found := _NOTE.fullmatch(statement))
    ]


def mermaid_block_labels(source: str) -> list[str]:
    """The labels of blocks and their branches, as Mermaid draws them (an `alt if …` block's
    tag says "if" already, so its label leaves that word out)."""
    labels = []
    for statement in mermaid_statements(source):
        found = _BLOCK.fullmatch(statement)
        if found:
            label = mermaid_text(found["rest"])
            if found["word"].lower() == "alt":  # the frame's tag says "if" already
                label = re.sub(r"(?i)^if[ \t]+(?=\S)", "", label)
            labels.append(label)
    return sorted(labels)


def mermaid_aliases(source: str) -> dict[str, list[str]]:
    """Each participant's alias as Mermaid draws it: its lines."""
    return {
        found["name"].strip(): [line for line in mermaid_text(found["alias"]).split("\n") if line]
        for statement in mermaid_statements(source)
        if (found := _ALIAS.fullmatch(statement))
    }


def shown_note(text: str) -> str:
    """A note as the picture shows it: its paragraphs with a blank line between, a list item
    with the marker drawn for it, a code block as its lines under a fence."""
    parts = []
    for block in parse_note(text):
        if isinstance(block, CodeBlock):
            parts.append("\n".join(["```", *block.lines]))
            continue
        lines = ["".join(span.text for span in line) for line in block.lines]
        if isinstance(block, ListItem):
            lines[0] = f"{block.marker} {lines[0]}"
        parts.append("\n".join(lines))
    return "\n\n".join(parts)


def shown(label: str) -> str:
    """A volley label as the picture shows it: markup and escapes read, lines joined by \\n."""
    return "\n".join("".join(span.text for span in line) for line in parse_inline(label))


@pytest.mark.parametrize(
    ("name", "line", "source"), DIAGRAMS, ids=[f"{n}:{line}" for n, line, _ in DIAGRAMS]
)
def test_each_diagram_imports_to_volley_that_parses_with_every_message(name, line, source):
    (item,) = convert(source, name)
    diagram = volley.parse(item.text)

    def named(lane: str) -> str:  # a lane Mermaid tells apart by case only: `X (2)` shown as X
        return (
            diagram.labels[lane]
            if lane.endswith(")") and lane.rsplit(" (", 1)[0] == (diagram.labels.get(lane))
            else lane
        )

    got = [(named(m.sender), named(m.receiver), shown(m.label)) for m in diagram.messages()]
    assert got == mermaid_messages(source)
    notes = [(set(n.over), shown_note(n.text)) for n in items(diagram, Note)]
    # a note starting or ending in <br> (an empty first or last line in Mermaid) comes back
    # without that line: the reader of a note leaves out empty lines around its text (the
    # text's words are all there)
    expected = [(names, text.strip("\n")) for names, text in mermaid_notes(source)]
    assert [text.strip("\n") for _, text in notes] == [text for _, text in expected]
    assert all(names <= over for (over, _), (names, _) in zip(notes, expected, strict=True))
    labels = [
        b.label for block in items(diagram, Block) if block.kind != "rect" for b in block.branches
    ]
    assert sorted(shown(label) for label in labels) == mermaid_block_labels(source)
    aliases = mermaid_aliases(source)
    assert {name: diagram.shown_lines(name) for name in aliases} == aliases
    # and each `activate X` / `deactivate X` line is an activation, never a note's text; an
    # activation never ended is left out, as Mermaid draws no bar for it, with a comment
    written = re.findall(r"(?im)^[ \t]*(activate|deactivate)[ \t]+(\S.*?)[ \t]*$", source)
    bars = [(a.participant, a.on) for a in items(diagram, Activation)]
    ends = [(name, False) for word, name in written if word.lower() == "deactivate"]
    assert [bar for bar in bars if not bar[1]] == ends
    starts = sum(1 for word, _ in written if word.lower() == "activate")
    left_out = item.text.count("is never ended, so Mermaid draws no bar for it")
    assert len(bars) - len(ends) <= starts <= len(bars) - len(ends) + left_out


def test_a_diagram_mermaid_refuses_is_an_error_naming_the_file_line_and_why() -> None:
    for name, (line, column, what, why) in NOT_MERMAID.items():
        page = (CASES / name).read_text(encoding="utf-8")
        with pytest.raises(VolleyError) as caught:
            convert(page, name)
        error = caught.value
        assert (error.filename, error.line, error.column) == (name, line, column)
        assert error.source_line == page.split("\n")[line - 1]
        assert what in error.message
        assert why in (error.hint or "")


# --- spot checks, written out by hand ---------------------------------------------------------


def page(name: str) -> list[str]:
    return [item.text for item in convert((CASES / name).read_text(encoding="utf-8"), name)]


def items(diagram, kind):
    return [item for item in walk(diagram.items) if isinstance(item, kind)]


def test_kep_directive_over_several_lines_is_kept_and_a_note_spans_its_two_ends() -> None:
    text = page("kubernetes-keps.md")[0]
    assert text.startswith(
        '// Mermaid: %%{init:{"sequence": {"mirrorActors":true},\n// "themeVariables": {'
    )
    diagram = volley.parse(text)
    assert diagram.participants == [
        "user",
        "kube_api_server",
        "kms_plugin",
        "external_kms",
        "etcd",
    ]
    (alt,) = items(diagram, Block)
    assert (alt.kind, alt.branches[0].label) == ("if", "Generate DEK seed at startup")
    (note,) = alt.branches[0].items
    assert note.over == ["kube_api_server", "kms_plugin", "external_kms"]


def test_kep_message_whose_text_is_only_a_comment_has_an_empty_label() -> None:
    """`KAS-->>AAS: #%20;` — Mermaid reads `#%20;` as a comment, so the arrow has no text."""
    text = page("kubernetes-keps.md")[9]
    reply = volley.parse(text).messages()[2:4]
    assert [(m.sender, m.receiver, m.arrow, m.label) for m in reply] == [
        ("AAS", "KAS", "->", "List webhooks"),
        ("KAS", "AAS", "-->", ""),
    ]
    assert "// Mermaid: #%20; (Mermaid reads a line from # on as a comment)" in text


def test_gateway_api_activations_aliases_and_a_note_beside_a_lane() -> None:
    text = page("gateway-api-geps.md")[0]
    diagram = volley.parse(text)
    assert diagram.labels == {"C": "Client", "G": "Gateway", "B": "Backend"}
    assert "// Mermaid: actor C (volley draws every participant as a box)" in text
    first = diagram.messages()[:3]
    # `C->>+G` and then `activate G`: the `-` after them ends the later, so the bar `C->>+G`
    # starts is never ended, and Mermaid draws none for it
    assert [(m.sender, m.receiver, m.activate) for m in first] == [
        ("C", "G", None),
        ("G", "B", "+"),
        ("B", "G", "-"),
    ]
    assert [(a.participant, a.on) for a in items(diagram, Activation)] == [("G", True)]
    assert "// Mermaid: the activation of G started here is never ended" in text
    notes = items(diagram, Note)
    assert (notes[0].over, notes[0].side) == (["G"], "right")
    assert notes[0].text.split("<br>")[:2] == [
        "[set-cookie] indicates a response",
        "with a set-cookie header.",
    ]
    assert "\nnote right of G: [set-cookie] indicates" in text
    assert "volley puts it over" not in text


def test_mcp_cancellation_else_if_keeps_its_words() -> None:
    """`else If not completed` is a branch labelled as Mermaid draws it: "If not completed"."""
    text = page("mcp-specification.md")[4]
    (alt,) = items(volley.parse(text), Block)
    assert [b.label for b in alt.branches] == ["", "If not completed"]
    assert "else: If not completed" in text and "// Mermaid: else" not in text


def test_mcp_loops_alt_else_and_numbered_steps() -> None:
    diagram = volley.parse(page("mcp-guides-and-seps.md")[10])
    kinds = [block.kind for block in items(diagram, Block)]
    assert "if" in kinds or "loop" in kinds
    alt = next(b for b in items(volley.parse(page("mcp-specification.md")[1]), Block))
    assert alt.kind == "if" and len(alt.branches) == 2


def test_mermaid_demo_steps_escapes_and_wrap_marks() -> None:
    texts = page("mermaid-demos.md")
    first = volley.parse(texts[0])
    # autonumber 10 10 counts in tens, off hides two (the count goes on), a bare autonumber
    # shows the count again, autonumber 200 starts again in ones
    numbers = [m.number for m in first.messages()]
    assert numbers == [10, 20, 30, 40, 50, 60, 70, None, None, 100, 110, 200, 201]
    notes = [n.text for n in items(first, Note)]
    assert "John looks like he's still thinking, so Bob prods him a bit." in notes  # no wrap:
    escapes = volley.parse(texts[3])
    assert escapes.shown_lines("1") == ["multiline", "using <br>"]  # #lt;br#gt; is text
    assert shown(escapes.messages()[0].label) == "multiline\nusing <br>"


def test_mermaid_v11_inline_alias_as_alias_first_and_central_connections() -> None:
    texts = page("mermaid-docs-v11.md")
    assert volley.parse(texts[2]).labels == {
        "API": "Public API",
        "Auth": "Auth Service",
        "DB": "User Database",
    }
    assert volley.parse(texts[3]).labels == {"API": "External Name", "DB": "External DB"}
    central = volley.parse(texts[4])
    assert central.participants == ["Alice", "John"]
    assert "joins the middle of the lifeline of John and Alice" in texts[4]


def test_mermaid_api_front_matter_is_kept_with_its_nesting() -> None:
    (text,) = page("mermaid-api-sequence.md")
    assert text.startswith(
        '// Mermaid: front matter:\n//    references:\n//      - "File: /packages/mermaid'
    )
    diagram = volley.parse(text)
    assert diagram.labels["Mermaid"] == "mermaid.ts"
    assert {block.kind for block in items(diagram, Block)} >= {"if", "opt"}


def test_kueue_preemption_draws_no_bar_that_mermaid_never_ends() -> None:
    """KEP-8303 puts `+` on nearly every message and ends none: Mermaid draws a bar only when
    its activation ends, so it shows none, and neither does volley; each left out is said."""
    from volley.layout.engine import layout_diagram

    text = page("kueue-8303-preemption.md")[0]
    diagram = volley.parse(text)
    assert layout_diagram(diagram).activations == []
    assert text.count("is never ended, so Mermaid draws no bar for it") == 12


def test_openbmc_code_update_reads_a_comment_of_one_percent_as_mermaid_does() -> None:
    """`% Bootstrap Action for CodeUpdater`: Mermaid's lexer skips a line from one `%` as from
    `%%`; the import refused the whole diagram, so nothing of it was drawn."""
    (text,) = page("openbmc-code-update.md")
    assert "// Bootstrap Action for CodeUpdater" in text
    diagram = volley.parse(text)
    assert [block.kind for block in items(diagram, Block)][:1] == ["loop"]
    assert len(diagram.participants) == 3


def test_sonic_blocks_with_a_percent_line_before_their_header_say_mermaid_draws_nothing() -> None:
    """Each block starts `%Deploy flow`, then `sequenceDiagram`: Mermaid cannot tell what
    kind of diagram it is ("Syntax error in text"), and volley took the page for swimlanes.io
    text and said to run the import that was running. Each is imported, with a warning that
    Mermaid draws nothing of it."""
    name = "sonic-reclaim-buffer.md"
    found = convert((CASES / name).read_text(encoding="utf-8"), name)
    assert len(found) == 7
    first = found[0]
    (warning, *_) = first.warnings
    assert warning.severity == "warning" and warning.source_line.startswith("%Scripts can be")
    assert warning.message.startswith("Mermaid draws nothing of this diagram: a comment of one %")
    assert warning.hint == "write %% to start a comment there"
    assert first.text.startswith("// Scripts can be rendered online by")
    assert "User -> minigraph: set device type" in first.text
