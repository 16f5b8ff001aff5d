"""`participant A as Long name`: messages keep writing A, every picture shows the long name."""

from __future__ import annotations

import volley
from volley.layout.engine import layout_diagram

SOURCE = "participant H as MCP Host + LLM\nparticipant S\nH -> S: initialize\nin: R\n  a: b\n"


def test_the_boxes_show_the_label_and_keep_the_name():
    diagram = volley.parse(SOURCE)
    layout = layout_diagram(diagram)
    box = layout.participants[0]
    assert box.name == "H"
    assert "".join(run.text for line in box.top_text.lines for run in line.runs) == (
        "MCP Host + LLM"
    )
    svg = volley.render(diagram)
    assert "MCP Host + LLM" in svg and ">H<" not in svg


def test_the_panel_names_the_sender_by_its_label():
    from volley.output.html import message_views

    (view,) = message_views(volley.parse(SOURCE))
    assert (view.sender, view.receiver) == ("MCP Host + LLM", "S")


def test_a_critical_blocks_later_branches_are_options():
    svg = volley.render("critical: lock\n  A -> B: x\noption: timeout\n  A -> B: y\nend\n")
    assert ">option<" in svg and ">else<" not in svg


def test_a_line_break_in_a_label_breaks_the_box_and_is_a_space_in_words():
    """`participant GW as Gateway<br/>(ssh)`: two lines in the box (as Mermaid draws it); the
    panel, the appendix and the description say it on one line; `\\<br>` is text."""
    diagram = volley.parse("participant GW as Gateway<br/>(ssh) \\<br>\nGW -> B: hi\n")
    assert diagram.shown_lines("GW") == ["Gateway", "(ssh) <br>"]
    assert diagram.shown("GW") == "Gateway (ssh) <br>"
    svg = volley.render(diagram, format="svg")
    box = svg[svg.index('data-name="GW"') :]
    box = box[: box.index("</g>")]
    assert box.count(">Gateway</text>") == 2 and box.count(">(ssh) &lt;br&gt;</text>") == 2
    assert "Sequence diagram between Gateway (ssh) &lt;br&gt;, B." in svg


def test_a_label_of_line_breaks_alone_shows_the_name():
    diagram = volley.parse("participant X as <br>\nX -> Y: hi\n")
    assert diagram.shown_lines("X") == ["X"] and diagram.shown("X") == "X"


def test_as_is_read_in_any_case_and_never_joins_the_name():
    """Mermaid reads `As` and `AS` as `as`: a declaration written so gave a lane named
    "API As Gateway" beside the API the messages use."""
    diagram = volley.parse(
        "participant API As Gateway\nactor E AS Eve\nparticipant D as\tDB\nBrowser -> API: GET /\n"
    )
    assert diagram.participants == ["API", "E", "D", "Browser"]
    assert [diagram.shown(n) for n in ("API", "E", "D")] == ["Gateway", "Eve", "DB"]


def test_an_as_with_no_label_is_an_error_at_its_end():
    import pytest

    with pytest.raises(volley.VolleyError) as raised:
        volley.parse("participant C as\nC -> B: x\n")
    error = raised.value
    assert (error.line, error.column) == (1, 17)
    assert 'expected the name to show after "as"' in error.message
