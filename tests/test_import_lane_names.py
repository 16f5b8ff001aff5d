"""Lane names an importer writes: whatever a capture calls a host or service, the lane reads
back as that one participant, in a message, with activation marks and in a note."""

from __future__ import annotations

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from volley.importers.labels import lane_name, named_lane
from volley.language.parser import parse


def reads_back(name: str) -> bool:
    other = "Client" if name != "Client" else "Server"
    diagram = parse(f"{name} ->+ {other}: x\nnote {name}: x\n{other} -->- {name}: x\n")
    return diagram.participants == [name, other]


@pytest.mark.parametrize(
    ("captured", "written"),
    [
        ("api.example.com", "api.example.com"),
        # an integer service.name from a trace, printed as it came
        ("-9223372036854775808", "\u20119223372036854775808"),
        ("+1 service", "\uff0b1 service"),
        ("=cache", "\uff1dcache"),
        ("|pipe", "\u01c0pipe"),  # a first pipe would read as a table's row
        ('"end"', '\u201cend"'),  # in quotes: PlantUML's quoted name, which crashed import
        ("service-x", "service\u2011x"),
        # Mermaid's note places are words a service may be called
        ("over db", "over\u00a0db"),
        ("left of queue", "left\u00a0of\u00a0queue"),
        ("host:8080", "host 8080"),
        ("Bob;", "Bob\uff1b"),  # a `;` at a name's end is Mermaid's end of a statement
        ("", "(unnamed)"),
    ],
)
def test_a_lane_keeps_the_name_the_capture_gave_it(captured: str, written: str) -> None:
    assert lane_name(captured) == written
    assert reads_back(written)


@given(st.text(max_size=40))
def test_any_name_reads_back_as_one_lane(captured: str) -> None:
    assert reads_back(lane_name(captured))


@pytest.mark.parametrize(
    ("captured", "name", "shown"),
    [
        ("127.0.0.1:8000", "127.0.0.1 8000", "127.0.0.1:8000"),
        ("[::1]:8080", "[ 1] 8080", "[::1]:8080"),  # an IPv6 host: no part is left unnamed
        ("api.example.com", "api.example.com", None),
    ],
)
def test_a_host_with_a_port_shows_its_colon_in_its_box(captured, name, shown) -> None:
    labels: dict[str, str] = {}
    assert named_lane(captured, None, labels) == name
    assert labels.get(name) == shown
    assert named_lane(captured, "API", {}) == "API"  # a name the user chose is shown as it is


@pytest.mark.parametrize(
    ("captured", "name"),
    [
        ("service-x", "service\u2011x"),
        ("x-ray svc", "x\u2011ray svc"),
        ("=cache", "\uff1dcache"),
        ("|pipe", "\u01c0pipe"),  # a first pipe would read as a table's row
        ("queue *eu*-x", "queue *eu*\u2011x"),  # a lane's label is drawn as written: no escapes
        ('"quoted name"', '\u201cquoted name"'),
        ("note", "note_lane"),  # `note -> B: x` is a note: the box still shows "note"
        ("\u2190", "\u21fd"),  # an arrow sign would read as a second arrow written by mistake
        ("edge\u2192core", "edge\u21fecore"),
        ("a \u27f6 b", "a \u21fe b"),
        ("\u21d2 sink", "\u27f9 sink"),
    ],
)
def test_a_lane_written_with_look_alikes_shows_the_name_as_sent(captured, name) -> None:
    """Its box (and the page a reader searches) shows `service-x`, not `service‑x`."""
    labels: dict[str, str] = {}
    assert named_lane(captured, None, labels) == name
    assert labels == {name: captured}
    diagram = parse(f"participant {name} as {labels[name]}\n{name} -> Client: x\n")
    assert diagram.participants == [name, "Client"] and diagram.shown(name) == captured


@given(st.text(max_size=40))
@example("\ufeff")  # a byte-order mark first in a file is left out by the parser
@example("\u2190")  # an arrow sign, which the parser takes for a slip
def test_a_lanes_label_reads_back_as_given(captured: str) -> None:
    labels: dict[str, str] = {}
    name = named_lane(captured, None, labels)
    text = "".join(f"participant {n} as {shown}\n" for n, shown in labels.items())
    diagram = parse(f"{text}{name} -> {name}: x\n")
    assert diagram.participants == [name]
    assert diagram.shown(name) == labels.get(name, diagram.shown(name))


def test_a_lanes_line_break_stays_one_when_its_arrow_takes_look_alikes():
    """`"ZETA HSM Proxy\\n(gRPC -> HSM)"`: its `<br/>` was turned into `‹br/›` with the arrow,
    and drawn as written."""
    from volley.importers.labels import volley_label

    assert (
        volley_label("ZETA HSM Proxy<br/>(gRPC -> HSM)")
        == "ZETA HSM Proxy<br/>(gRPC \u2011\u203a HSM)"
    )
