"""Mermaid's `box`: participants that belong together, drawn side by side on one band with its
label. Read as Mermaid reads it, written back by `volley fmt`, laid out so that no label leaves
its band or meets another, and painted in its colour on either page."""

from __future__ import annotations

import json
import re

import pytest

import volley
from volley.checks.redact import redact_diagram
from volley.importers import convert
from volley.language.writer import write
from volley.layout.engine import layout_diagram
from volley.layout.geometry import Rect
from volley.model import Note, walk
from volley.output.themes import LIGHT
from volley.output.tints import dark_tint, legible
from volley.text.colours import colour_and_label

from .conftest import volley_cli
from .test_highlights import contrast

TWO_BOXES = """\
title: Boxes
box Aqua Front end
  participant A as Alice
  participant J as John
end
box: Back end
  participant B
  participant C
end
participant D
A -> J: Hello John
J --> A: Great
A -> B: Hello Bob, a label long enough to cross the band's edge
B -> C: Hello Charly
C -> D: out of the boxes
"""


def boxes_of(source: str) -> list[tuple[str | None, str, list[str]]]:
    return [(b.tint, b.label, b.participants) for b in volley.parse(source).boxes]


# --- reading ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("written", "tint", "label"),
    [  # Mermaid's own examples, and volley's colon
        ("Aqua Group Description", "Aqua", "Group Description"),
        ("Group without description", None, "Group without description"),
        ("rgb(33,66,99)", "rgb(33,66,99)", ""),
        ("rgba(66, 133, 244, 0.1) Outside", "rgba(66, 133, 244, 0.1)", "Outside"),
        ("transparent Aqua", None, "Aqua"),  # a box named after a colour
        ("#e3f2fd Team", "#e3f2fd", "Team"),
        ("rgb(1, 2, 3) (the API)", "rgb(1, 2, 3)", "(the API)"),
        ("Purple Alice & John", "Purple", "Alice & John"),
        ("", None, ""),
        # Mermaid finds a colour's function in lower case only (a Django README's box)
        ("RGB(32, 35, 42), Client-Side Matrix", None, "RGB(32, 35, 42), Client-Side Matrix"),
    ],
)  # fmt: skip
def test_a_box_reads_a_colour_then_a_label_as_mermaid_does(written, tint, label):
    assert colour_and_label(written) == (tint, label)
    for line in (f"box {written}", f"box: {written}"):
        source = f"{line.rstrip()}\n  participant A\nend\nA -> B: hi\n"
        assert boxes_of(source) == [(tint, label, ["A"])]


def test_parse_json_lists_boxes_only_when_there_are_some():
    done = volley_cli("parse", "-", stdin=TWO_BOXES)
    data = json.loads(done.stdout)
    assert data["boxes"] == [
        {"line": 2, "label": "Front end", "tint": "Aqua", "participants": ["A", "J"]},
        {"line": 6, "label": "Back end", "tint": None, "participants": ["B", "C"]},
    ]
    assert data["labels"] == {"A": "Alice", "J": "John"}
    assert "boxes" not in json.loads(volley_cli("parse", "-", stdin="A -> B\n").stdout)


def test_a_boxs_participants_stand_side_by_side_where_the_first_stands():
    # C is used before the box that holds it: the box's participants join it there
    source = "A -> C: first\nbox: pair\n  participant C\n  participant B\nend\nB -> D: x\n"
    diagram = volley.parse(source)
    assert diagram.participants == ["A", "C", "B", "D"]
    assert not diagram.warnings


def test_an_order_a_box_overrules_is_pointed_out():
    source = "order: A, D, B\nbox: pair\n  participant A\n  participant B\nend\nA -> D: x\n"
    diagram = volley.parse(source)
    assert diagram.participants == ["A", "B", "D"]
    (warning,) = diagram.warnings
    assert (warning.line, warning.column) == (2, 1)
    assert (
        warning.message
        == "this box keeps A, B side by side, which moves B from where order: puts it"
    )


@pytest.mark.parametrize(
    ("source", "line", "column", "said"),
    [
        (
            "box: x\n  participant A\n  A -> B: hi\nend\n",
            3, 3,
            "a box holds the declarations of its participants (participant A, actor B) and "
            "nothing else; this message goes after its end",
        ),
        ("box: x\n  note A: hi\nend\n", 2, 3, "this note goes after its end"),
        ("box: x\n  loop: y\n  end\nend\n", 2, 3, "this block goes after its end"),
        ("box: x\n  box: y\n  end\nend\n", 2, 3, "a box cannot hold another box"),
        (
            "loop: y\n  box: x\n    participant A\n  end\nend\n",
            2, 3,
            "a box groups participants for the whole diagram; it cannot stand inside the loop: "
            "block",
        ),
        (
            "if: y\n  A -> B: x\nelse:\n  box: x\n    participant A\n  end\nend\n",
            4, 3,
            "a box groups participants for the whole diagram; it cannot stand inside the else: "
            "branch",
        ),
        (
            "box: x\n  participant A\nend\nbox: y\n  participant A\nend\n",
            5, 15,
            "A is in the box on line 1 already; a participant stands in one box",
        ),
    ],
)  # fmt: skip
def test_what_a_box_cannot_hold_is_an_error_at_its_place(source, line, column, said):
    with pytest.raises(volley.VolleyError) as caught:
        volley.parse(source)
    errors = getattr(caught.value, "errors", [caught.value])
    assert [(e.line, e.column) for e in errors if said in e.message] == [(line, column)]


def test_an_empty_box_and_one_never_closed_are_warnings():
    diagram = volley.parse("box: empty\nend\nbox: open\n  participant A\n")
    assert [(w.line, w.message) for w in diagram.warnings] == [
        (1, "this box declares no participant, so nothing is drawn for it"),
        (
            3,
            'this box is never closed; it ends at the end of the file (write "end" on a line of '
            "its own after its last line)",
        ),
    ]
    assert [b.participants for b in diagram.boxes] == [["A"], []]  # left to right, empty last


def test_a_box_never_closed_before_the_diagram_goes_on_is_one_error():
    """The `end` left out after the declarations is one mistake, said once at the box, not
    once for every message after it."""
    source = "box: Front\n  participant A\nA -> B: hi\nB -> A: back\nactivate A\n-: later\n"
    with pytest.raises(volley.VolleyError) as caught:
        volley.parse(source)
    errors = getattr(caught.value, "errors", [caught.value])
    assert [(e.line, e.column, e.message) for e in errors] == [
        (
            1,
            1,
            'this box is never closed; expected "end" after its declarations, before the '
            "message on line 3",
        )
    ]
    with pytest.raises(volley.VolleyError) as caught:
        volley.parse("box: Aqua\nA -> B: x\n")
    assert caught.value.message == (
        'this box is never closed; expected its declarations and "end", before the message on '
        "line 2"
    )


def test_a_box_with_a_mistake_in_it_is_not_also_called_empty():
    with pytest.raises(volley.VolleyError) as caught:
        volley.parse("box: x\n  box: y\n  end\nend\nA -> B: x\n")
    assert [e.message for e in caught.value.errors] == ["a box cannot hold another box"]
    assert not [w for w in caught.value.warnings if "declares no participant" in w.message]


@pytest.mark.parametrize("line", ["Box: 3 items", "box", "Box Aqua and more"])
def test_a_box_line_in_a_note_with_no_declaration_after_it_is_the_notes_text(line):
    """Mermaid's box holds declarations: a note's line "Box: 3 items" is its text (pointed out,
    as a Mermaid keyword at the start of a note's line is), not a box that takes the rest."""
    for indent, pointed_out in (("  ", []), ("", [2])):
        diagram = volley.parse(f"note A:\n{indent}{line}\n{indent}more\n\nA -> B: x\n")
        (note,) = [item for item in diagram.items if isinstance(item, Note)]
        assert note.text == f"{line}\nmore"
        assert diagram.boxes == []
        assert [w.line for w in diagram.warnings] == pointed_out
    ended = volley.parse(
        "note A:\n  told\nbox: Front\n  // the browser side\n  participant A\nend\nA -> B: x\n"
    )
    assert [b.participants for b in ended.boxes] == [["A"]]
    assert ended.warnings == []


def test_a_box_line_last_in_a_note_inside_a_block_is_the_notes_text():
    """Above a block's `end`, "Box: 3 items" is still the note's text (a box there would hold
    nothing, and a box stands at the top level); a Mermaid note ending so imports to text that
    reads back."""
    diagram = volley.parse("A -> B: hi\nloop: x\n  note: Inventory\n  Box: 3 items\nend\n")
    (note,) = [item for item in walk(diagram.items) if isinstance(item, Note)]
    assert note.text == "Inventory\nBox: 3 items"
    (warning,) = diagram.warnings
    assert "a box starts only where its participants' declarations follow it" in warning.message
    (item,) = convert(
        "sequenceDiagram\n  A->>B: hi\n  loop every minute\n    Note over A: Stock<br/>Box: 3 "
        "items\n  end\n  B->>A: ok\n",
        "stock.mmd",
    )
    assert volley.parse(item.text).boxes == []


def test_box_is_still_a_name_where_a_line_holds_an_arrow():
    assert volley.parse("box -> shelf: put\n").participants == ["box", "shelf"]
    assert volley.parse("Box office --> Fan: ticket\n").participants == ["Box office", "Fan"]


# --- writing ----------------------------------------------------------------------------------


def test_fmt_writes_each_box_with_its_declarations_and_reads_back_the_same():
    source = (
        "box Purple Alice & John\nparticipant A\nparticipant J as John\nend\n"
        "box transparent Aqua\nactor E\nend\nbox\nparticipant F\nend\n"
        "A -> J: hi\nJ -> E: there\nE -> F: x\n"
    )
    diagram = volley.parse(source)
    written = write(diagram)
    assert written.startswith(
        "box: Purple Alice & John\n  participant A\n  participant J as John\nend\n"
        "box: transparent Aqua\n  participant E\nend\nbox\n  participant F\nend\n\n"
    )
    again = volley.parse(written)
    assert again.boxes == [
        type(b)(b2.line, b.label, b.tint, b.participants, b2.end_line)
        for b, b2 in zip(diagram.boxes, again.boxes, strict=True)
    ]
    assert again.participants == diagram.participants
    assert write(again) == written  # idempotent


@pytest.mark.parametrize(
    "label", ["Red team", "transparent proxies", "Transparent Transparent", "rgb(1, 2, 3) set"]
)
def test_a_label_that_starts_with_a_colour_is_written_so_that_it_reads_back(label):
    diagram = volley.parse(f"box: transparent {label}\n  participant A\nend\n")
    assert boxes_of(write(diagram)) == [(None, label, ["A"])]
    assert f"box: transparent {label}" in write(diagram)


# --- layout -----------------------------------------------------------------------------------


def inside(outer: Rect, inner: Rect) -> bool:
    return outer.contains(inner, slack=0.01)


def test_a_band_holds_its_participants_boxes_and_its_label_above_them():
    layout = layout_diagram(volley.parse(TWO_BOXES))
    front, back = layout.bands
    heads = {p.name: p for p in layout.participants}
    for band, names in ((front, "AJ"), (back, "BC")):
        for name in names:
            assert inside(band.box, heads[name].top) and inside(band.box, heads[name].bottom)
        assert band.label is not None and inside(band.box, band.label.box)
        assert band.label.box.bottom < min(heads[n].top.y for n in names)
    assert front.box.right < back.box.x  # apart
    assert not back.box.x <= heads["D"].x <= back.box.right  # D stands outside
    assert back.box.right < heads["D"].top.x
    # every text stays apart and inside the picture
    texts = [t.box for t in layout.text_blocks()]
    for k, a in enumerate(texts):
        assert a.x >= 0 and a.right <= layout.width
        for b in texts[k + 1 :]:
            assert not (a.x < b.right and b.x < a.right and a.y < b.bottom and b.y < a.bottom)


def test_a_band_of_one_lane_is_as_wide_as_its_label_and_its_neighbours_clear_it():
    source = (
        "participant A\nbox: A label much wider than one participant box\n  participant B\nend\n"
        "participant C\nA -> B: x\nB -> C: y\n"
    )
    layout = layout_diagram(volley.parse(source))
    (band,) = layout.bands
    assert band.label is not None and inside(band.box, band.label.box)
    a, b, c = layout.participants
    assert a.top.right < band.box.x and band.box.right < c.top.x
    assert abs((band.box.x + band.box.right) / 2 - b.x) < 0.01  # centred on its lane


def test_a_band_takes_in_the_notes_frames_and_loops_of_its_own_lanes():
    """Mermaid widens a box to hold a note beside its last participant and a frame around its
    messages; a neighbouring band moves aside. What involves a lane outside a band crosses it."""
    source = (
        "box Auth\n  participant A\n  participant B\nend\nbox: Other\n  participant C\nend\n"
        "opt: x\n  A -> B: hi\n  note B: a long note that reaches well to the right of B\nend\n"
        "C -> C: a loop with a long label\nB -> C: across\nnote B, C: over both bands\n"
    )
    layout = layout_diagram(volley.parse(source))
    auth, other = layout.bands
    (frame,) = layout.frames
    first_note, across = layout.notes
    assert inside(auth.box, frame.box) and inside(auth.box, first_note.box)
    assert auth.box.right < other.box.x  # still apart
    (loop,) = [m for m in layout.messages if m.number == 2]
    assert inside(other.box, loop.label.box)
    assert across.box.x < auth.box.right and other.box.x < across.box.right  # crosses both


def test_a_diagram_without_boxes_is_laid_out_as_before():
    plain = "A -> B: x\nB -> C: y\n"
    boxed = "box: x\n  participant A\nend\n" + plain
    without, inside_box = layout_diagram(volley.parse(plain)), layout_diagram(volley.parse(boxed))
    assert not without.bands and without.participants[0].top.y < inside_box.participants[0].top.y


# --- painting ---------------------------------------------------------------------------------


def test_the_svg_paints_bands_first_in_their_colours():
    svg = volley.render(TWO_BOXES, format="svg")
    groups = re.findall(r'<g class="([a-z]+)">', svg)
    assert groups[0] == "boxes"
    bands = re.findall(r'<rect class="band[^"]*"[^>]*>', svg)
    assert len(bands) == 2
    assert 'fill="#00ffff"' in bands[0] and "tint-1" in bands[0]
    assert 'fill="none"' in bands[1]
    assert '<text class="box-label' in svg and ">Front end</text>" in svg


def test_a_label_across_a_bands_edge_has_a_patch_of_each_colour():
    svg = volley.render(TWO_BOXES, format="svg")
    message = re.search(r'<g class="message" data-message="3".*?</g>', svg, re.S)
    assert message is not None
    fills = re.findall(r'<rect class="halo ([^"]*)"[^>]*fill="([^"]*)"', message.group())
    assert fills == [("vf-bg", "#ffffff"), ("tint-1", "#00ffff")] or fills[::-1] == [
        ("vf-bg", "#ffffff"),
        ("tint-1", "#00ffff"),
    ]


@pytest.mark.parametrize("colour", ["#800080", "#283c78", "#808080", "#ff0000", "#008000"])
def test_a_dark_colour_is_washed_until_every_text_on_it_reads(colour):
    """Purple (Mermaid's own example) and mid-tones such as a slate blue: washed until the
    theme's text and its muted text (a block's labels) keep 4.5:1, which keeps the grey
    lifelines and frame lines on the band in sight too."""
    washed = legible(colour)
    assert washed != colour
    assert contrast(LIGHT["text"], washed) >= 4.5 and contrast(LIGHT["muted"], washed) >= 4.5
    assert contrast(LIGHT["lifeline"], washed) >= 2 and contrast(LIGHT["frame"], washed) >= 2


def test_a_dark_colour_is_washed_as_little_as_the_text_needs():
    washed = legible("#800080")  # CSS's purple
    assert legible("#c8dcff") == "#c8dcff"  # a pastel stays as chosen
    svg = volley.render("box Purple Team\n  participant A\nend\nA -> B\n", format="svg")
    assert f'fill="{washed}"' in svg


@pytest.mark.parametrize(("mark", "outlined"), [("_:", False), ("-:", True), ("--:", True)])
def test_a_dividers_pill_across_a_bands_edge_has_a_patch_of_each_colour(mark, outlined):
    """The patch behind a divider's label is cut at the band's edge as a label's is, so no
    page-coloured box shows on the band; an outlined pill keeps its outline over the pieces."""
    source = f"box Aqua Team\n  participant A\nend\nA -> B: x\n{mark} a label across the edge\n"
    svg = volley.render(source, format="svg")
    divider = re.search(r'<g class="divider[^"]*".*?</g>', svg, re.S)
    assert divider is not None
    fills = re.findall(r'<rect class="halo ([^"]*)"[^>]*fill="([^"]*)"', divider.group())
    assert sorted(fills) == [("tint-1", "#00ffff"), ("vf-bg", "#ffffff")]
    pills = re.findall(r'<rect class="pill[^"]*"[^>]*>', divider.group())
    assert len(pills) == (1 if outlined else 0)
    assert all('fill="none"' in pill and "stroke=" in pill for pill in pills)


def test_dark_pages_get_the_bands_dark_colour():
    auto = volley.render(TWO_BOXES, format="svg", theme="auto")
    assert f".tint-1{{fill:{dark_tint('#00ffff')}}}" in auto
    dark = volley.render(TWO_BOXES, format="svg", theme="dark")
    assert f'fill="{dark_tint("#00ffff")}"' in dark


def test_a_boxs_label_is_text_and_its_secrets_are_masked():
    source = "box: <script>alert(1)</script> token=ghp_abcdefghijklmnopqrstuvwxyz0123456789\n"
    source += "  participant A\nend\nA -> B\n"
    svg = volley.render(source, format="svg")
    assert "<script>" not in svg and "&lt;script&gt;" in svg
    redacted = redact_diagram(volley.parse(source))
    assert "ghp_abcdefghijklmnopqrstuvwxyz0123456789" not in redacted.boxes[0].label
    assert "ghp_abcdefghijklmnopqrstuvwxyz0123456789" not in volley.render(
        source, format="svg", redact=True
    )


@pytest.mark.parametrize("fmt", ["png", "pdf", "html"])
def test_every_format_draws_boxes(fmt):
    out = volley.render(TWO_BOXES, format=fmt)
    assert out
    if fmt == "html":
        assert 'class="boxes"' in str(out)


@pytest.mark.parametrize(
    "source",
    [  # what fuzzing found: an empty box before another; boxes declared right to left
        "order: A\nautonumber\nbox\nend\nbox\n  participant A\nend",
        "participant S as Long\norder: A\nbox\n  participant S\nend\nbox\n  participant A\nend",
    ],
)
def test_boxes_are_listed_left_to_right_and_fmt_keeps_them(source):
    diagram = volley.parse(source)
    firsts = [b.participants[0] for b in diagram.boxes if b.participants]
    assert firsts == [p for p in diagram.participants if p in firsts]
    again = volley.parse(write(diagram))
    assert again.to_json()["boxes"] == [
        {**box, "line": mine["line"]}
        for box, mine in zip(diagram.to_json()["boxes"], again.to_json()["boxes"], strict=True)
    ]


def test_fmt_keeps_a_participant_before_a_box_in_its_place_by_declaring_it():
    source = "participant A\nbox: Pair\n  participant B\n  actor C\nend\nA -> C: x\nD -> A: y\n"
    written = write(volley.parse(source))
    assert written.startswith("participant A\nbox: Pair\n") and "order:" not in written
    assert volley.parse(written).participants == ["A", "B", "C", "D"]


def test_a_badge_or_marker_does_not_sit_across_a_bands_edge() -> None:
    """A band's edge between two lanes ran into message 2's badge from above and out of it
    below, pinning it; the row moves over to clear it, as far as it must."""
    source = "autonumber\nbox: Team\n  participant A\n  participant B\nend\n"
    source += "A -> B: hi\nB -> C: ok\n"
    lay = layout_diagram(volley.parse(source))
    [band] = lay.bands
    edge = band.box.right
    badge = lay.messages[1].badge.box
    assert not badge.x - 3 < edge < badge.right + 3
    source += "in: Request\n  a: 1\nC -> B: back\nin: Request\n  b: 2\n"
    lay = layout_diagram(volley.parse(source))
    for message in lay.messages:
        for mark in (m for m in (message.badge, message.marker) if m is not None):
            assert not mark.box.x - 2.9 < edge < mark.box.right + 2.9, message


def test_a_mark_moved_off_a_bands_edge_is_not_moved_onto_a_lane_it_crosses() -> None:
    """`D -->- B` across C, whose bar is open: the move off the band's edge put the label on
    C's bar (a fuzzed diagram found it); the row goes the other way, clear of both."""
    source = (
        "autonumber\nparticipant A\nparticipant B\nbox: G2\n  participant C\n"
        "  participant D\nend\nB -> C:\nB ->> B: token words token with\n"
        "A -> A: with fetch words with longer\nin: Request\n  a: 1\n"
        "A -> B: label words hi token hi\nin: Request\n  a: 1\n"
        "C ->+ C: zz token x\\nsecond line\nD -->- B: label\nin: Request\n  a: 1\n"
    )
    lay = layout_diagram(volley.parse(source))
    [band] = lay.bands
    c = next(p for p in lay.participants if p.name == "C")
    message = lay.messages[5]
    assert message.label is not None and message.badge is not None and message.marker is not None
    for box in (message.badge.box, message.marker.box):
        assert not box.x - 2.9 < band.box.x < box.right + 2.9, box
    for box in (message.badge.box, message.marker.box, message.label.box):
        assert box.right < c.x - 5 or box.x > c.x + 5, box  # (a label crosses an edge: halo)


@pytest.mark.parametrize(
    "about_c",
    [
        "C -> C: validate the signature and the timestamp",
        "note C: the receiver validates the signature and the timestamp first",
    ],
)
def test_what_is_drawn_about_a_lane_outside_a_box_stays_out_of_its_band(about_c: str) -> None:
    layout = layout_diagram(
        volley.parse(
            f"box: Team\n  participant A\n  participant B\nend\nB -> C: notify\n{about_c}\n"
        )
    )
    [band] = layout.bands
    boxes = [m.label.box for m in layout.messages if m.label] + [n.box for n in layout.notes]
    drawn = boxes[-1]  # the self-message's label, or the note
    assert drawn.x >= band.box.x + band.box.w + 8 - 0.01
