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
