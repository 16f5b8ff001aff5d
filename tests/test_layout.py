"""The layout model: geometry that must hold for every diagram, checked on the model itself."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given

import volley
from volley.checks.lint import lint
from volley.language.parser import parse
from volley.layout import constants as C
from volley.layout.engine import layout_diagram
from volley.layout.geometry import Layout, Rect, TextBlock
from volley.layout.metrics import ASCENT, DESCENT
from volley.layout.typeset import clean_text
from volley.model import ARROWS, Block, Branch, Diagram, Message, Note, walk

from .fuzz_strategies import FUZZ, diagram_text

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = sorted((ROOT / "examples").glob("*.volley"))
BENCH = Path("/work/shared/peer-renders/bench-14.volley")

FEATURES = """\
title: Every **feature** with a [link](https://example.com) and {fas-plug}
autonumber 7
Browser -> API: GET /items
API -> API: validate token
API ->> Queue: publish event
Queue -->> Worker: deliver
Worker -x Mail: send (lost)
Worker --x API: callback lost
API => DB: SELECT *
DB <- API: reversed
API <-> Cache: sync
Cache <--> DB: dashed both
note API: A note over **one** lane
  - first bullet item
  - second item with `code`
  10. numbered
note Browser, DB: A spanning note across everything that is fairly long so that it wraps
-: regular divider
--: dashed divider
_: thin divider
...: five minutes later
=: {fas-database} Storage
if: token is valid
  API -> DB: query
  loop: every 30 s
    DB --> API: rows
    opt: cache miss
      API -> Cache: fill
    end
  end
else: token expired
  API --> Browser: 401 ~~OK~~
end
par: fan out
  API -> Worker: job A
and: second
  API -> Mail: job B
end
group: {fab-github} Retry policy
  Worker -> Worker: backoff {fas-no-such-icon}
end
Cache -> Cache: a self message on the last lane with a long label
API --> Browser: 200 OK with a rather long label that will need to wrap onto more than one line
"""


def sources() -> list[tuple[str, str]]:
    found = [(p.name, p.read_text(encoding="utf-8")) for p in EXAMPLES]
    if BENCH.exists():
        found.append((BENCH.name, BENCH.read_text(encoding="utf-8")))
    return [*found, ("features", FEATURES)]


def layout_of(text: str, **options) -> Layout:
    return layout_diagram(volley.parse(text), **options)


def ink(block: TextBlock) -> list[Rect]:
    """Where each line of the block is drawn: its width, from ascent to descent."""
    return [
        Rect(line.x, line.baseline - ASCENT * line.size, line.width, (ASCENT + DESCENT) * line.size)
        for line in block.lines
        if line.width > 0
    ]


def overlapping_texts(layout: Layout) -> list[tuple[TextBlock, TextBlock]]:
    """Pairs of texts whose lines overlap (a short last line leaves room beside it, where a
    payload marker may sit), found by a sweep over line boxes sorted by top edge."""
    lines = sorted(
        ((box, block) for block in layout.text_blocks() for box in ink(block)),
        key=lambda pair: pair[0].y,
    )
    found = []
    active: list[tuple[Rect, TextBlock]] = []
    for box, block in lines:
        active = [(a, b) for a, b in active if a.bottom > box.y + 0.5]
        found += [(b, block) for a, b in active if b is not block and a.overlaps(box)]
        active.append((box, block))
    return found


def words(block: TextBlock) -> str:
    return " ".join(run.text for line in block.lines for run in line.runs if run.icon is None)


def assert_clean(layout: Layout) -> None:
    page = Rect(0, 0, layout.width, layout.height)
    for block in layout.text_blocks():
        assert page.contains(block.box), f"{words(block)!r} leaves the picture: {block.box}"
    pairs = overlapping_texts(layout)
    assert not pairs, "overlapping texts: " + "; ".join(
        f"{words(a)!r} / {words(b)!r}" for a, b in pairs[:5]
    )
    for frame in layout.frames:
        assert page.contains(frame.box), f"{frame.kind} frame leaves the picture"
    lifelines = [line.x for line in layout.lifelines]
    for note in layout.notes:
        assert page.contains(note.box)
        if note.side != "over":  # a note beside a lane crosses no lifeline
            assert not [x for x in lifelines if note.box.x < x < note.box.right], note.line
    for bar in layout.activations:
        assert page.contains(bar.box), f"an activation bar leaves the picture: {bar.box}"


@pytest.mark.parametrize("name,text", sources(), ids=[n for n, _ in sources()])
@pytest.mark.parametrize("bodies", ["markers", "appendix"])
def test_no_text_overlaps_or_leaves_the_picture(name: str, text: str, bodies: str) -> None:
    assert_clean(layout_of(text, bodies=bodies))


@FUZZ
@given(text=diagram_text())
def test_generated_diagrams_stay_clean(text: str) -> None:
    try:
        diagram = volley.parse(text)
    except volley.VolleyError:
        return
    assert_clean(layout_diagram(diagram, bodies="appendix"))


def test_labels_sit_between_their_lifelines(reference_text: str) -> None:
    layout = layout_of(reference_text)
    for m in layout.messages:
        if m.is_self or m.label is None:
            continue
        left, right = sorted(x for x, _ in (m.points[0], m.points[-1]))
        assert m.label.box.x >= left + C.LABEL_PAD_X - 0.01
        assert m.label.box.right <= right - C.LABEL_PAD_X + 0.01
        assert m.label.box.bottom < m.points[0][1], "a label sits above its arrow"


def test_a_long_label_spreads_its_room_over_the_lanes_it_crosses() -> None:
    short = layout_of("A -> B: x\nB -> C: y\nC -> D: z")
    long = layout_of("A -> B: x\nB -> C: y\nC -> D: z\nA -> D: " + "x" * 100)
    gaps = [b.x - a.x for a, b in zip(long.lifelines, long.lifelines[1:], strict=False)]
    base = [b.x - a.x for a, b in zip(short.lifelines, short.lifelines[1:], strict=False)]
    assert all(g > b for g, b in zip(gaps, base, strict=True)), "every crossed lane grows"
    assert max(gaps) - min(gaps) < 1, "evenly"


def test_lanes_are_at_least_the_minimum_apart() -> None:
    layout = layout_of("A -> B\nB -> C")
    xs = [line.x for line in layout.lifelines]
    assert all(b - a >= C.MIN_LANE_DISTANCE for a, b in zip(xs, xs[1:], strict=False))


def test_long_labels_wrap() -> None:
    layout = layout_of("A -> B: " + "lorem ipsum dolor " * 20)
    label = layout.messages[0].label
    assert label is not None and len(label.lines) > 2
    assert max(line.width for line in label.lines) <= C.LABEL_WRAP_WIDTH + 1


def test_long_participant_names_wrap() -> None:
    name = "A participant with a very long name indeed and longer than any box"
    layout = layout_of(f"{name} -> B: hi")
    box = layout.participants[0]
    assert len(box.top_text.lines) > 1
    assert box.top.contains(box.top_text.box)


def test_a_participant_named_by_one_long_token_keeps_it_whole() -> None:
    """A host name (HAR imports are full of them) gets a wider box, not a break inside it."""
    name = "securepubads.g.doubleclick.net"
    box = layout_of(f"Browser -> {name}: GET /").participants[1]
    assert [run.text for line in box.top_text.lines for run in line.runs] == [name]
    assert box.top.contains(box.top_text.box)


def test_a_long_participant_name_leaves_no_word_behind() -> None:
    name = "L2ToL2CrossDomainMessenger (Chain A)"
    box = layout_of(f"participant M as {name}\nM -> B: hi").participants[0]
    texts = [" ".join(run.text for run in line.runs) for line in box.top_text.lines]
    assert texts == ["L2ToL2CrossDomainMessenger", "(Chain A)"]


def test_a_chinese_label_wraps_at_the_label_width_like_any_other() -> None:
    """No spaces, but no long token either: it may break between any two characters."""
    label = (
        layout_of("A -> B: 验证令牌并返回用户的详细信息以及权限列表和会话过期时间还有更多内容")
        .messages[0]
        .label
    )
    assert label is not None and len(label.lines) > 1
    assert max(line.width for line in label.lines) <= C.LABEL_WRAP_WIDTH + 1


def test_right_to_left_words_read_in_order_when_one_is_bold() -> None:
    """Each run is drawn where it stands: a stretch of right-to-left runs reads from the right,
    as a browser lays out the line; runs stay in reading order for copying."""
    label = layout_of("A -> B: **ראשון** שני שלישי").messages[0].label
    assert label is not None
    (line,) = label.lines
    first, rest = line.runs
    assert (first.text, first.bold, rest.text) == ("ראשון", True, "שני שלישי")
    assert first.dx > rest.dx + rest.width  # the first word at the right end, a space between
    mixed = layout_of("A -> B: GET **/users** מחזיר 200").messages[0].label
    assert mixed is not None
    runs = mixed.lines[0].runs
    assert [r.text for r in runs] == ["GET", "/users", "מחזיר", "200"]
    assert runs[0].dx < runs[1].dx < runs[3].dx < runs[2].dx  # GET /users 200 מחזיר
    assert runs[3].dx > runs[1].dx + runs[1].width  # and its space


def test_a_style_that_splits_a_right_to_left_phrase_keeps_its_words_in_order() -> None:
    """A browser orders a line's words by direction whatever their style: in "Send **בקשה**
    אל השרת now" the Hebrew phrase reads from the right across the bold word, and "now"
    stays at the end. The plain span holds both directions, so it is cut into runs of one."""
    label = layout_of("A -> B: Send **בקשה** אל השרת now").messages[0].label
    assert label is not None
    (line,) = label.lines
    assert [run.text for run in line.runs] == ["Send", "בקשה", "אל השרת", "now"]
    send, request, to_server, now = line.runs
    assert send.dx < to_server.dx < request.dx < now.dx  # Send השרת אל בקשה now
    rtl = layout_of("A -> B: שלח **send data** to server עכשיו").messages[0].label
    assert rtl is not None
    send_word, data, to, later = rtl.lines[0].runs
    assert (data.text, to.text, later.text) == ("send data", "to server", "עכשיו")
    assert later.dx < data.dx < to.dx < send_word.dx  # עכשיו send data to server שלח
    # a mark stays on its letter, a number with the English words before it (a line of one
    # plain span is one text, which the browser orders itself)
    marked = layout_of("A -> B: *new* Version 2 שָׁלוֹם x").messages[0].label
    assert marked is not None
    assert [run.text for run in marked.lines[0].runs] == ["new", "Version 2", "שָׁלוֹם", "x"]


def test_a_hebrew_paragraph_reads_from_the_right_around_an_english_word() -> None:
    """A paragraph whose first letter is Hebrew reads right to left (as `dir="auto"` has it):
    its runs run from the right, an English run keeping its own order."""
    label = layout_of("A -> B: שלום **big world** עולם").messages[0].label
    assert label is not None
    (line,) = label.lines
    assert line.rtl
    first, english, last = line.runs
    assert (first.text, english.text, last.text) == ("שלום", "big world", "עולם")
    assert last.dx < english.dx < first.dx  # the first word at the right end
    english_first = layout_of("A -> B: GET שלום").messages[0].label
    assert english_first is not None and not english_first.lines[0].rtl
    # A number reads with the English before it: `abc 123` stays together, left of the Hebrew.
    numbered = layout_of("A -> B: שלום *abc* **123**").messages[0].label
    assert numbered is not None
    hebrew, abc, number = numbered.lines[0].runs
    assert abc.dx < number.dx < hebrew.dx


def test_a_right_to_left_title_heads_the_picture_from_the_right() -> None:
    hebrew = layout_of("title: תהליך התחברות\nA -> B: a label long enough to widen it")
    english = layout_of("title: Sign-in flow\nA -> B: a label long enough to widen it")
    assert hebrew.title is not None and english.title is not None
    assert round(hebrew.title.x + hebrew.title.w, 2) == round(hebrew.width - C.MARGIN, 2)
    assert english.title.x == C.MARGIN


def test_a_right_to_left_note_is_aligned_to_the_right() -> None:
    text = (
        "note A, B: הלקוח שולח בקשה לשרת והשרת מחזיר תשובה אחרי בדיקת ההרשאות של המשתמש.\n"
        "  - פריט ראשון\n"
        "  - second item in English\n"
    )
    (note,) = layout_of(f"A -> B: hi\n{text}").notes
    paragraph = [line for line in note.texts[0].lines]
    hebrew_item, english_item = note.texts[1].lines[0], note.texts[2].lines[0]
    assert len(paragraph) > 1 and all(line.rtl for line in paragraph)
    ends = {round(line.x + line.width, 2) for line in paragraph}
    assert len(ends) == 1  # every line ends at the same place on the right
    (end,) = ends
    assert end <= note.box.x + note.box.w - C.NOTE_PAD_X
    assert round(hebrew_item.x + hebrew_item.width, 2) < end  # an item is indented from it
    first_bullet, second_bullet = note.bullets
    assert first_bullet.x > hebrew_item.x + hebrew_item.width  # its bullet to its right
    assert first_bullet.lines[0].rtl  # ("1." reads ".1" there, as in a right-to-left list)
    assert not english_item.rtl and second_bullet.x < english_item.x  # the English one as ever


@pytest.mark.parametrize("arrow", sorted(ARROWS))
def test_every_operator_gets_its_heads_and_line(arrow: str) -> None:
    message = layout_of(f"A {arrow} B: x").messages[0]
    style = ARROWS[arrow]
    assert message.line_style == style.line
    heads = {(h.style, h.direction) for h in message.heads}
    expected = set()
    if style.head_from != "none":
        expected.add((style.head_from, -1))
    if style.head_to != "none":
        expected.add((style.head_to, 1))
    assert heads == expected


def test_head_at_the_left_hand_name_points_at_it() -> None:
    m = layout_of("order: A, B\nB <- A: back").messages[0]
    (head,) = m.heads
    assert head.tip[0] == pytest.approx(layout_of("A -> B").lifelines[1].x)
    assert head.direction == 1  # B is right of A, and the head sits at B


def test_self_message_is_a_loop_to_the_right() -> None:
    m = layout_of("A -> A: think").messages[0]
    assert m.is_self and len(m.points) == 4
    (x0, y0), (x1, y1), (x2, y2), (x3, y3) = m.points
    assert x1 > x0 and x3 == x0 and y2 > y1
    assert m.label is not None and m.label.box.bottom < y0


def test_lost_message_stops_short_of_the_receiver() -> None:
    layout = layout_of("A -x B: gone")
    m, b = layout.messages[0], layout.lifelines[1]
    (cross,) = m.heads
    assert cross.style == "cross" and cross.tip[0] < b.x


def test_nested_frames_are_inset() -> None:
    layout = layout_of("if: a\n  loop: b\n    A -> B: x\n  end\nend")
    outer, inner = layout.frames
    assert outer.depth == 0 and inner.depth == 1
    assert outer.box.x < inner.box.x and inner.box.right < outer.box.right
    assert outer.box.y < inner.box.y and inner.box.bottom < outer.box.bottom


def test_else_and_separators() -> None:
    layout = layout_of(
        "if: a\n  A -> B\nelse: b\n  B -> A\nend\npar: p\n A -> B\nand: q\n B -> A\nend"
    )
    alt, par = layout.frames
    assert [words(s.keyword) for s in alt.separators] == ["else"]
    assert [words(s.keyword) for s in par.separators] == ["and"]
    assert words(alt.tab_text) == "if" and words(par.tab_text) == "par"


def test_frame_surrounds_only_the_lanes_it_touches() -> None:
    layout = layout_of("order: A, B, C, D\nA -> B\nloop: x\n  B -> C\nend\nC -> D")
    (frame,) = layout.frames
    xs = [line.x for line in layout.lifelines]
    assert xs[0] < frame.box.x < xs[1] and xs[2] < frame.box.right < xs[3]


def test_delay_breaks_the_lifelines() -> None:
    layout = layout_of("A -> B\n...: later\nB -> A")
    assert all(len(line.segments) == 2 for line in layout.lifelines)
    (delay,) = layout.dividers
    (top_a, top_b), (bottom_a, _) = layout.lifelines[0].segments
    assert top_b < delay.y < bottom_a


def test_section_header_spans_the_picture_with_its_icon() -> None:
    layout = layout_of("A -> B\n=: {fas-plug} Connecting\nB -> A")
    (section,) = layout.dividers
    assert section.band is not None and section.label is not None
    assert section.band.x == C.MARGIN and section.band.right == layout.width - C.MARGIN
    assert any(r.icon == "fas-plug" for r in section.label.lines[0].runs)
    assert layout.icons["fas-plug"] is not None


DIVIDERS_IN_A_BLOCK = """\
title: t
A -> B: one
loop: every 30 s
  A -> B: poll
  =: {fas-plug} Reconnect
  -: plain
  --: dashed
  _: thin
  ...: later
  opt: inner
    -: a divider label long enough to widen the frames that hold it
  end
  B --> A: 200
end
=: top level
C -> A: x
"""


def test_a_divider_inside_a_block_spans_the_frame_not_the_picture() -> None:
    layout = layout_of(DIVIDERS_IN_A_BLOCK)
    outer, inner = sorted(layout.frames, key=lambda f: f.depth)
    *inside, nested, top = layout.dividers
    assert [d.style for d in inside] == ["bold", "regular", "dashed", "thin", "delay"]
    for divider, frame in [*((d, outer) for d in inside), (nested, inner)]:
        assert divider.x1 == frame.box.x + 1  # edge to edge, inside the frame's stroke
        assert divider.x2 == frame.box.right - 1
        if divider.band is not None:
            assert frame.box.x < divider.band.x and divider.band.right < frame.box.right
        if divider.label is not None:
            assert frame.box.x < divider.label.box.x
            assert divider.label.box.right < frame.box.right
        if divider.pill is not None:
            assert frame.box.x < divider.pill.x and divider.pill.right < frame.box.right
    assert outer.box.x < inner.box.x and inner.box.right < outer.box.right
    assert top.x1 == C.MARGIN and top.x2 == pytest.approx(layout.width - C.MARGIN, abs=0.01)
    assert top.band is not None and top.band.x == C.MARGIN
    assert top.band.right == pytest.approx(layout.width - C.MARGIN, abs=0.01)
    assert_clean(layout)


def test_autonumber_badges_and_payload_markers() -> None:
    text = (
        "autonumber 5\nA -> B: one\nin: Request\n  a: 1\nB --> A: two\nA -> B: three\nout:\n  b: 2"
    )
    layout = layout_of(text)
    assert [words(m.badge.text) for m in layout.messages if m.badge] == ["5", "6", "7"]
    # A marker goes by the number its badge shows, and does not show it a second time.
    assert [m.marker.number if m.marker else None for m in layout.messages] == [5, None, 7]
    assert [words(m.marker.text) for m in layout.messages if m.marker] == ["", ""]
    # Without badges, payloads are counted: 1, 2, not the message ordinals 1, 3.
    plain = layout_of(text.replace("autonumber 5\n", ""))
    assert [m.marker.number if m.marker else None for m in plain.messages] == [1, None, 2]
    assert [words(m.marker.text) for m in plain.messages if m.marker] == ["1", "2"]
    assert not any(m.marker for m in layout_of(text, bodies="none").messages)


def test_appendix_lists_every_line_unless_capped() -> None:
    body = "\n".join(f"  line {i}" for i in range(40))
    text = f"A -> B: big\nin: Request\n{body}\nB --> A: small\nout: Done\n  ok: true"
    layout = layout_of(text, bodies="appendix")
    assert layout.appendix is not None
    first, second = layout.appendix.entries
    texts = " ".join(words(t) for t in first.texts())
    assert "line 0" in texts and "line 39" in texts and "not shown" not in texts
    assert "ok : true" in " ".join(words(t).replace("  ", " ") for t in second.texts())
    capped = layout_diagram(volley.parse(text), bodies="appendix", appendix_lines=14)
    texts = " ".join(words(t) for t in capped.appendix.entries[0].texts())
    assert "line 13" in texts and "line 14" not in texts
    assert "26 more lines not shown (14 of 40)" in texts


def test_notes_are_sized_to_their_text_and_placed_under_their_message() -> None:
    layout = layout_of("A -> B: hi\nnote: short\nnote A: " + "much longer note text " * 10)
    short, long = layout.notes
    assert short.box.w < long.box.w or short.box.h < long.box.h
    assert short.box.y > layout.messages[0].points[0][1]
    for note in layout.notes:
        for text in note.texts:
            assert note.box.contains(text.box)


def test_unknown_icon_is_a_warning_and_a_placeholder() -> None:
    layout = layout_of("A -> B: {fas-surely-not-an-icon} hi")
    assert layout.icons["fas-surely-not-an-icon"] is None
    assert any("surely-not-an-icon" in w for w in layout.warnings)
    run = layout.messages[0].label.lines[0].runs[0]
    assert run.icon == "fas-surely-not-an-icon" and run.missing


def test_wide_characters_are_measured_wide() -> None:
    latin = layout_of("A -> B: abcd").messages[0].label
    cjk = layout_of("A -> B: 漢字漢字").messages[0].label
    assert cjk.box.w > latin.box.w * 1.5


def test_hand_built_diagram_with_unlisted_participants() -> None:
    diagram = Diagram(
        items=[
            Message(1, "A", "B", "->", "hi"),
            Block(2, "loop", [Branch("x", [Note(3, ["C"], "over C")])]),
        ]
    )
    layout = layout_diagram(diagram)
    assert [p.name for p in layout.participants] == ["A", "B", "C"]
    assert_clean(layout)


@pytest.mark.parametrize("text", ["", "title: Only a title", "=: Only a section", "note: alone"])
def test_degenerate_diagrams_lay_out(text: str) -> None:
    layout = layout_of(text)
    assert layout.width > 0 and layout.height > 0
    assert_clean(layout)


def test_characters_xml_cannot_hold_are_replaced_visibly() -> None:
    assert clean_text("a\x01b\ud800c\ufffe") == "a\ufffdb\ufffdc\ufffd"
    assert clean_text("tab\tand\nnewline") == "tab\tand\nnewline"


# --- activation bars -------------------------------------------------------------------------


def bars_of(layout: Layout, lane: int) -> list[tuple[int, float, float]]:
    """(depth, top, bottom) of each bar on a lane, in opening order."""
    return [(a.depth, a.box.y, a.box.bottom) for a in layout.activations if a.index == lane]


def arrow_y(layout: Layout, n: int) -> float:
    return layout.messages[n - 1].points[0][1]


def test_a_call_opens_a_bar_at_its_arrow_and_the_reply_closes_it() -> None:
    layout = layout_of("A ->+ B: call\nB -> B: work\nB -->- A: done\nA -> B: later\nB -> C")
    [(depth, top, bottom)] = bars_of(layout, 1)
    assert depth == 0 and top == arrow_y(layout, 1) and bottom == arrow_y(layout, 3)
    bar = layout.activations[0].box
    lifeline = layout.lifelines[1].x
    assert bar.x < lifeline < bar.right and bar.w == C.ACTIVATION_WIDTH
    call, work, done, later, _ = layout.messages
    assert call.points[-1][0] == pytest.approx(bar.x)  # ends at the bar's left edge
    assert call.heads[-1].tip[0] == pytest.approx(bar.x)
    assert done.points[0][0] == pytest.approx(bar.x)  # the reply leaves from it
    assert work.points[0][0] == pytest.approx(bar.right)  # a self message too
    assert later.points[-1][0] == pytest.approx(lifeline)  # closed: back to the lifeline


def test_nested_bars_sit_offset_and_arrows_meet_the_outer_edge() -> None:
    text = "A ->+ B: one\nA ->+ B: two\nB -> C: from the inner bar\nB -->- A\nB -->- A"
    layout = layout_of(text)
    outer, inner = (a.box for a in layout.activations)
    assert [a.depth for a in layout.activations] == [0, 1]
    assert inner.x - outer.x == C.ACTIVATION_NEST_OFFSET
    assert outer.y < inner.y and inner.bottom < outer.bottom  # the inner bar inside the outer
    _, two, right, _, _ = layout.messages
    assert two.points[-1][0] == pytest.approx(outer.x)  # from the left: the outer bar's edge
    assert right.points[0][0] == pytest.approx(inner.right)  # to the right: the inner bar's
    assert inner.bottom == arrow_y(layout, 4) and outer.bottom == arrow_y(layout, 5)


def test_activate_lines_after_a_message_act_at_its_arrow() -> None:
    layout = layout_of("A -> B: call\nactivate B\nB --> A: reply\ndeactivate B")
    [(_, top, bottom)] = bars_of(layout, 1)
    assert (top, bottom) == (arrow_y(layout, 1), arrow_y(layout, 2))
    assert layout.messages[0].points[-1][0] == pytest.approx(layout.activations[0].box.x)


def test_a_bar_still_open_ends_with_the_diagram() -> None:
    layout = layout_of("A ->+ B: call\nactivate A\nB -> A: x\nnote A: more")
    bottom = layout.participants[0].bottom.y
    assert {b for _, _, b in bars_of(layout, 1)} == {bottom}
    assert {b for _, _, b in bars_of(layout, 0)} == {bottom}


def test_deactivating_a_lane_with_no_bar_draws_nothing() -> None:
    layout = layout_of("A -> B: x\ndeactivate B\nB -->- A: y")
    assert layout.activations == []
    assert layout.messages[1].points[0][0] == layout.lifelines[1].x


def test_a_left_pointing_arrow_opens_and_ends_bars_by_the_way_it_points() -> None:
    """`DB <--+ Worker` is Worker's message to DB: `+` opens DB's bar (the one it goes to),
    and `Server <--- DB` (DB answering) ends DB's (the one it comes from), as for `->+` and
    `-->-` written the other way round. The names as written opened Worker's and ended
    Server's, and the last reply's `-` was warned of as ending a bar never opened."""
    text = (
        "Client ->+ Server: request\nServer ->+ DB: query\nDB <--+ Worker: job done\n"
        "Server <--- DB: rows\nClient <--- Server: response\n"
    )
    layout = layout_of(text)
    assert bars_of(layout, 3) == []  # Worker's lane
    (_, query, end_of_diagram), (_, job, rows) = bars_of(layout, 2)
    assert (query, job, rows) == (arrow_y(layout, 2), arrow_y(layout, 3), arrow_y(layout, 4))
    assert end_of_diagram == layout.participants[2].bottom.y  # one bar of DB's left open
    [(_, request, response)] = bars_of(layout, 1)
    assert (request, response) == (arrow_y(layout, 1), arrow_y(layout, 5))
    assert not [w for w in lint(parse(text), text) if "activation" in w.message]


NESTED = "A ->+ B: open\nB ->+ B: nested\nB ->+ B: again\nB ->+ B: deeper\n"


@pytest.mark.parametrize("deep", [2, 3, 4])
def test_a_note_over_the_next_lane_clears_the_bars_nested_on_this_one(deep: int) -> None:
    """A note over C alone reached left over B's nested bars: its room was half its width
    and a gap from B's lifeline, whatever B's bars."""
    opened = "".join(NESTED.splitlines(keepends=True)[:deep])
    note = "note C: a note over C alone with text long enough to reach its neighbour lane\n"
    layout = layout_of(opened + "B -> C: hand over\n" + note + "B -->- A: done")
    reach = max(a.box.right for a in layout.activations if a.index == 1)
    assert layout.notes[0].box.x >= reach + C.BAR_GAP


@pytest.mark.parametrize("deep", [2, 3, 4])
def test_a_frame_edge_clears_the_bars_of_a_lane_it_does_not_hold(deep: int) -> None:
    """A loop on A alone, its tab and label reaching B: its edge ran down B's nested bars."""
    opened = "".join(NESTED.splitlines(keepends=True)[:deep])
    layout = layout_of(opened + "loop: every 5 seconds\n  A -> A: tick\nend\nB -->- A: done")
    (frame,) = layout.frames
    for bar in (a.box for a in layout.activations if a.index == 1):
        assert not bar.x - C.BAR_GAP < frame.box.right < bar.right + C.BAR_GAP
        assert not bar.x - C.BAR_GAP < frame.box.x < bar.right + C.BAR_GAP


def test_a_block_label_wraps_short_of_a_bar_it_would_run_across() -> None:
    """`alt: the order is valid and in stock` over B's open bar: its halo hid most of the
    bar's width and "stock" ran into it; with room for words before the bar, it wraps there."""
    source = (
        "A ->+ B: request\nalt: the order is valid and in stock\n  B -->> A: 201 Created\n"
        "else: rejected by the rules\n  B -->> A: 422\nend\nB -->- A: done\n"
    )
    layout = layout_of(source)
    (frame,) = layout.frames
    (bar,) = layout.activations
    assert frame.label is not None and len(frame.label.lines) == 2
    assert frame.label.box.right + C.LABEL_HALO <= bar.box.x - C.BAR_GAP


def test_a_block_label_with_no_room_before_a_bar_goes_after_it() -> None:
    """The frame starts at A and B's bar stands close: no words fit before it, so the label
    stands after the bar (wrapped to the room there) rather than painted across it."""
    source = (
        "A ->+ B: request\nif: the order is valid and in stock\n  A -> C: reserve\nend\n"
        "B -->- A: done\n"
    )
    layout = layout_of(source)
    (frame,) = layout.frames
    (bar,) = layout.activations
    assert frame.label is not None
    assert frame.label.box.x - C.LABEL_HALO >= bar.box.right + C.BAR_GAP
    assert frame.label.box.right <= frame.box.right - C.BLOCK_PAD_X + 0.01


@pytest.mark.parametrize("deep", [3, 4])
def test_a_label_beside_bars_nested_deep_clears_them(deep: int) -> None:
    """A label between B and C, centred, ran over B's bars nested three deep and more: its
    halo cut their ends."""
    opened = "".join(NESTED.splitlines(keepends=True)[:deep])
    layout = layout_of(opened + "B -> C: read the cached session record\nC --> B: hit with it")
    reach = max(a.box.right for a in layout.activations if a.index == 1)
    for message in layout.messages[-2:]:
        assert message.label is not None
        assert message.label.x - C.LABEL_HALO >= reach + C.BAR_GAP


# --- no lifeline through text ----------------------------------------------------------------


def _bounds(points: list[tuple[float, float]]) -> Rect:
    xs, ys = [x for x, _ in points], [y for _, y in points]
    return Rect(min(xs), min(ys), max(xs) - min(xs), max(ys) - min(ys))


def _opaque_shapes(layout: Layout) -> list[Rect]:
    """What hides a lifeline: boxes, notes, bands, pills, tabs, pills of badges and markers."""
    shapes = [r for p in layout.participants for r in (p.top, p.bottom)]
    shapes += [n.box for n in layout.notes]
    shapes += [r for d in layout.dividers for r in (d.band, d.pill) if r is not None]
    for f in layout.frames:
        if f.tab:  # a rect is a highlight: no tab
            shapes.append(_bounds(f.tab))
        shapes += [_bounds(s.tab) for s in f.separators]
    for m in layout.messages:
        shapes += [x.box for x in (m.badge, m.marker) if x is not None]
    return shapes


def texts_on_lifelines(layout: Layout) -> list[str]:
    """Words drawn over a lifeline with nothing opaque behind them."""
    shapes = _opaque_shapes(layout)
    found = []
    for block in layout.text_blocks():
        if block.halo:
            continue
        box = block.box
        for line in layout.lifelines:
            if not box.x < line.x < box.right:
                continue
            if not any(a < box.bottom and box.y < b for a, b in line.segments):
                continue
            if not any(shape.contains(box, slack=1) for shape in shapes):
                found.append(words(block))
    return found


BRANCHES = """A -> B: call
if: token valid
  B -> C: lookup
else: expired
  B --> A: 401
else: revoked
  B --> A: 403
end
par: fan out
  B -> C: one
and: second
  B -> D: two
end
"""


@pytest.mark.parametrize("name,text", [*sources(), ("branches", BRANCHES)])
def test_no_lifeline_runs_through_text(name: str, text: str) -> None:
    assert texts_on_lifelines(layout_of(text, bodies="appendix")) == []


def test_every_branch_keyword_sits_on_a_tab_like_the_first() -> None:
    [alt, par] = layout_of(BRANCHES).frames
    for frame in (alt, par):
        first = _bounds(frame.tab)
        for separator in frame.separators:
            tab = _bounds(separator.tab)
            assert tab.contains(separator.keyword.box)
            assert tab.y == separator.y and tab.x == frame.box.x
            assert tab.h == pytest.approx(first.h)


# --- wrapped labels hold together ------------------------------------------------------------


def test_a_short_word_is_not_stranded_beside_a_long_token() -> None:
    layout = layout_of("autonumber\nA -> B: GET /callback?code=SplxlOBeZQQYbYS6WxSbIA&state=xyz")
    [message] = layout.messages
    assert [words(message.label)] == ["GET /callback?code=SplxlOBeZQQYbYS6WxSbIA&state=xyz"]
    assert len(message.label.lines) == 1


@pytest.mark.parametrize(
    "label",
    [
        "A label that is long enough to wrap onto a second line with one word left",
        "The quick brown fox jumps over the lazy dog and then keeps running far away home",
        "one two three four five six seven eight nine ten eleven twelve thirteen fourteen x",
    ],
)
def test_wrapped_labels_leave_no_word_behind(label: str) -> None:
    for text in (f"A -> B: {label}", f"A -> B: x\nB -> C: {label}\nA -> C: {label}"):
        for message in layout_of(text).messages:
            lines = message.label.lines
            widest = max(line.width for line in lines)
            assert all(line.width >= widest / 3 for line in lines), [
                " ".join(r.text for r in line.runs) for line in lines
            ]


def test_the_badge_and_the_marker_stay_with_the_words() -> None:
    label = "A label that is long enough to wrap onto a second line with one word left"
    layout = layout_of(f"autonumber\nA -> B: {label}\nin: Request\n  x: 1")
    [message] = layout.messages
    first, last = message.label.lines[0], message.label.lines[-1]
    assert len(message.label.lines) > 1 and first.width != last.width
    assert message.badge.box.right + C.BADGE_GAP == pytest.approx(first.x)
    assert message.marker.box.x == pytest.approx(last.x + last.width + C.BADGE_GAP)


def test_inline_code_that_fits_a_line_is_never_broken() -> None:
    label = "`code span one` and `code span two` and `code span three` side by side"
    [message] = layout_of(f"A -> B: {label}").messages
    codes = [run.text for line in message.label.lines for run in line.runs if run.code]
    assert codes == ["code span one", "code span two", "code span three"]


def test_inline_code_keeps_its_own_spaces_at_the_start_of_a_line() -> None:
    """`  agent: Agent 1` indents a line of YAML under the line above it: its spaces are the
    code's, drawn inside its tint (a label's own outer spaces are still dropped)."""
    layout = layout_of("A -> B: x\nnote B: `workload:`<br>`  agent: Agent 1`\nB -> A:  plain  ")
    [note] = layout.notes
    [first], [second] = [line.runs for text in note.texts for line in text.lines]
    assert (first.text, second.text) == ("workload:", "  agent: Agent 1")
    assert first.dx == second.dx and second.width > first.width
    svg = volley.render("A -> B: x\nnote B: `workload:`<br>`  agent: Agent 1`")
    assert re.search(r'xml:space="preserve"><tspan[^>]*>  agent: Agent 1</tspan>', svg)
    [_, reply] = layout.messages
    assert [run.text for line in reply.label.lines for run in line.runs] == ["plain"]


def test_a_label_laid_out_by_its_codes_spaces_is_flush_left() -> None:
    """Headers and a body written as code lines under a request's words line up on their left
    edge, as code does; centred, the spaces that indent them would line up with nothing."""
    label = 'POST /consents\\n`  Source: dfspa`\\n`  {`\\n`    "id": 1`\\n`  }`'
    long = "A -> B: a label as wide as the other one\nB -> C: x\n"
    layout = layout_of(f"{long}A -> C: {label}\nA -> C: centred\\n`a`")
    flush, centred = layout.messages[2:]
    assert len({line.x for line in flush.label.lines}) == 1
    assert len({line.x for line in centred.label.lines}) == 2
    # a code line longer than a label's wrap width is kept whole, with its spaces
    body = '`  "consentRequestId": "11111111-0000-0000-0000-000000000000",`'
    wide = layout_of(f"{long}A -> C: POST /consents\\n`  {{`\\n{body}\\n`  }}`")
    code = [line.runs[0].text for line in wide.messages[2].label.lines if line.runs[0].code]
    assert code == ["  {", body.strip("`"), "  }"]
    # a right-to-left label stays centred: set flush, it would end its lines together
    arabic = layout_of(f"{long}A -> C: مرحبا بالعالم\\n`  x: 1`\\n`    y: 2`\\nو أكثر من ذلك")
    lines = arabic.messages[2].label.lines
    assert len({round(line.x + line.width / 2) for line in lines}) == 1


def test_a_block_label_wraps_to_its_frame_not_to_a_label_width() -> None:
    label = "every retry while the upstream answers 503 and the budget of attempts has not run out"
    wide = "a label long enough to make the lanes wider than any label is allowed to wrap at"
    layout = layout_of(f"A -> B: {wide}\nB -> C: {wide}\nloop: {label}\n  A -> C: try\nend")
    [frame] = layout.frames
    assert frame.box.w > 2 * C.LABEL_WRAP_WIDTH
    assert len(frame.label.lines) == 1 and frame.box.contains(frame.label.box)


# --- smaller things a reader notices ---------------------------------------------------------


def test_note_text_starts_at_a_fixed_padding_however_wide_the_note() -> None:
    layout = layout_of("A -> C: x\nnote A, C: Little text\nnote B: Short\nnote A: " + "word " * 40)
    for note in layout.notes:
        assert {t.box.x for t in note.texts} == {note.box.x + C.NOTE_PAD_X}


def test_a_note_whose_writer_broke_its_lines_keeps_them_up_to_a_wider_note() -> None:
    """sequencediagram.org's writers break a note's lines at some sixty letters (`\\n`): wrapped
    again at the usual width, each long line read ragged ("… en même temps / que le joueur
    B"). Prose that runs on still wraps at the usual width; a line too long for the wider
    note wraps there."""
    written = [
        "Le joueur a va poser un bloc en même temps que le joueur B",
        "mais le serveur le recevra après.",
        "Les clients maintiennent des listes de validation pour pouvoir",
    ]
    [note] = layout_of("A -> B: x\nnote B: " + "\\n".join(written) + "\n").notes
    [text] = note.texts
    assert ["".join(r.text for r in line.runs) for line in text.lines] == written
    assert C.NOTE_WRAP_WIDTH < note.box.w <= C.NOTE_BROKEN_WRAP_WIDTH
    [prose] = layout_of("A -> B: x\nnote B: " + " ".join(written) + "\n").notes
    assert prose.box.w <= C.NOTE_WRAP_WIDTH
    [long] = layout_of("A -> B: x\nnote B: " + "word " * 40 + "\\nend\n").notes
    assert long.box.w <= C.NOTE_BROKEN_WRAP_WIDTH + C.NOTE_FOLD and len(long.texts[0].lines) > 2


def test_a_note_made_wide_by_its_code_wraps_its_prose_to_that_width() -> None:
    code = '{"session": "1868a90c", "expires_in": 1800, "scopes": ["read", "write", "admin"]}'
    prose = "a long explanation of what the session holds and why " * 4
    [note] = layout_of(f"A -> B: x\nnote A:\n{prose}\n```json\n{code}\n```\n").notes
    [panel] = note.panels
    words, block = note.texts[0], note.texts[1]
    assert panel.box.w > 1.5 * C.NOTE_WRAP_WIDTH
    assert words.w > C.NOTE_WRAP_WIDTH  # the prose uses the room the code makes
    assert words.box.right <= panel.box.right + 0.01  # and stays within the code's width
    assert note.box.right - C.NOTE_PAD_X - C.NOTE_FOLD / 2 == pytest.approx(panel.box.right)
    assert block.box.x == panel.box.x + C.CODE_BLOCK_PAD


TABLE_NOTE = """\
Client -> Auth: POST /token
note Auth:
The endpoint takes **form fields**:
| Field | Required | Meaning |
|:------|:--------:|--------:|
| `grant_type` | yes | `client_credentials` or `authorization_code`, the two this server knows |
| `scope` | no | space-separated scopes |
| `client_id` | yes<br>(or Basic auth) | the client's id |
Auth --> Client: 200 OK
"""


def test_a_table_in_a_note_keeps_its_columns_and_breaks_no_word() -> None:
    layout = layout_of(TABLE_NOTE)
    assert_clean(layout)
    [note] = layout.notes
    [header] = note.panels  # the header row's tinted band
    cells = note.texts[1:]
    assert len(cells) == 3 * 4
    columns = [cells[k::3] for k in range(3)]
    assert len({c.box.x for c in columns[0]}) == 1  # left-aligned: one left edge
    assert len({round(c.box.x + c.box.w / 2, 6) for c in columns[1]}) == 1  # centred
    assert len({round(c.box.right, 6) for c in columns[2]}) == 1  # right-aligned
    assert all(run.bold for cell in cells[:3] for line in cell.lines for run in line.runs)
    assert header.box.y < cells[0].box.y and cells[0].box.bottom < header.box.bottom
    assert header.box.x == note.box.x + C.NOTE_PAD_X
    assert all(note.box.contains(cell.box) for cell in cells)
    # a rule between body rows, each across the table, below the row above it
    assert len(note.rules) == 2
    for rule, above in zip(note.rules, [cells[3:6], cells[6:9]], strict=True):
        assert (rule.x1, rule.x2) == (header.box.x, header.box.right)
        assert all(cell.box.bottom < rule.y for cell in above)
    # the long cell wraps between words; a code span stays on one line
    meaning = [" ".join(run.text.strip() for run in line.runs) for line in cells[5].lines]
    assert len(meaning) > 1 and any(line.startswith("client_credentials") for line in meaning)
    assert [len(cell.lines) for cell in columns[1][:3]] == [1, 1, 1]
    assert len(columns[1][3].lines) >= 2  # `<br>` breaks a cell


def test_a_table_wider_than_a_note_widens_it_as_code_does() -> None:
    row = " | ".join(f"`column_{k}_value`" for k in range(6))
    [note] = layout_of(f"A -> B: x\nnote A:\n| {row} |\n|{'---|' * 6}\n").notes
    [header] = note.panels
    assert header.box.w > C.NOTE_WRAP_WIDTH
    assert note.box.right - C.NOTE_PAD_X - C.NOTE_FOLD / 2 == pytest.approx(header.box.right)


def test_a_divider_in_a_frame_runs_from_edge_to_edge() -> None:
    text = "A -> B: x\nC -> D: y\nif: inside\n  B -> C: z\n  =: Section\n  --: rule\nend"
    layout = layout_of(text)
    [frame] = layout.frames
    for divider in layout.dividers:
        assert divider.x1 == frame.box.x + 1 and divider.x2 == frame.box.right - 1
        if divider.band:
            assert divider.band.x == divider.x1 and divider.band.right == divider.x2


def test_header_label_halos_leave_the_frame_stroke_alone() -> None:
    layout = layout_of(BRANCHES)
    for frame in layout.frames:
        assert frame.label.box.y - C.LABEL_HALO / 2 > frame.box.y
        for separator in frame.separators:
            assert separator.label.box.y - C.LABEL_HALO / 2 > separator.y


def test_an_icon_has_the_same_room_either_side() -> None:
    [message] = layout_of("A -> B: then {fas-lock} lock").messages
    words_before, icon, words_after = message.label.lines[0].runs
    before = icon.dx - (words_before.dx + words_before.width)
    after = words_after.dx - (icon.dx + icon.width)
    assert before == pytest.approx(after) and before > 0


def involved_lanes(block: Block, index: dict[str, int]) -> set[int]:
    """The lanes a block's messages and notes touch, nested blocks included."""
    lanes: set[int] = set()
    for item in walk([i for branch in block.branches for i in branch.items]):
        if isinstance(item, Message):
            lanes |= {index[item.sender], index[item.receiver]}
        elif isinstance(item, Note):
            lanes |= {index[name] for name in item.over if name in index}
    return lanes


SELF_IN_FRAMES = """A -> B: x
B -> C: y
loop: retry
  B -> B: a rather long self label that sets the lane gap
  if: nested
    B -> B: another rather long self label, one frame deeper
  end
end
"""


@pytest.mark.parametrize(
    "name,text", [*sources(), ("branches", BRANCHES), ("self in frames", SELF_IN_FRAMES)]
)
def test_no_frame_edge_lies_on_a_lifeline_it_does_not_involve(name: str, text: str) -> None:
    diagram = volley.parse(text)
    layout = layout_diagram(diagram)
    index = {p.name: p.index for p in layout.participants}
    blocks = [item for item in walk(diagram.items) if isinstance(item, Block)]
    for block, frame in zip(blocks, layout.frames, strict=True):
        lanes = involved_lanes(block, index)
        if lanes:  # the lanes between the outermost involved ones are inside the block
            lanes = set(range(min(lanes), max(lanes) + 1))
        for line in layout.lifelines:
            if line.index not in lanes:
                for edge in (frame.box.x, frame.box.right):
                    assert abs(line.x - edge) >= C.FRAME_LANE_CLEARANCE - 0.01, (block.kind, line)


def test_a_self_message_on_the_rightmost_lane_turns_left_and_keeps_the_canvas() -> None:
    label = "a self message on the rightmost lane with a long label"
    layout = layout_of(f"A -> B: x\nB -> B: {label}\nA -> A: {label}")
    rightmost, leftmost = layout.messages[1], layout.messages[2]
    x = layout.lifelines[1].x
    assert max(px for px, _ in rightmost.points) == x  # the loop lies left of the lifeline
    assert rightmost.label.box.right < x and rightmost.heads[-1].direction == 1
    assert min(px for px, _ in leftmost.points) == layout.lifelines[0].x  # others turn right
    box = layout.participants[1].top
    assert layout.width == pytest.approx(box.right + C.PARTICIPANT_SHADOW + C.MARGIN, abs=0.01)
    assert_clean(layout)


@pytest.mark.parametrize("loops", range(0, 6))
def test_a_left_turning_self_label_stays_clear_of_the_neighbours_nested_bars(loops: int) -> None:
    """The neighbour's bars nest rightwards, towards a label that turns left into their gap
    (a real Kubernetes KEP: Worker_2's label all but touched Worker_1's third bar), however
    deep they nest."""
    layout = layout_of(
        "M ->+ W1: replicate\nM ->+ W2: replicate\n"
        + "W1 ->+ W1: admission loop\n" * loops
        + "W2 ->+ W2: update the PreemptionGated condition\n"
    )
    label = layout.messages[-1].label
    assert label is not None
    bars = [bar.box for bar in layout.activations if bar.index == 1]
    assert len(bars) == loops + 1
    assert label.x - max(bar.right for bar in bars) >= C.LABEL_PAD_X
    assert_clean(layout)


@pytest.mark.parametrize("count", range(8, 30))
def test_note_paragraphs_leave_no_word_behind(count: int) -> None:
    words_ = " ".join(["several", "words", "of", "note", "text"] * 6)
    [note] = layout_of(f"A -> B: x\nnote A: {' '.join(words_.split()[:count])}").notes
    lines = [line for text in note.texts for line in text.lines]
    widest = max(line.width for line in lines)
    assert all(line.width >= widest / 3 for line in lines)


def test_a_note_over_lanes_fills_its_width() -> None:
    """A note as wide as the lanes it spans cannot shrink to lines evened out: they fill it
    (its right third stood empty), a short last line as any paragraph has."""
    text = (
        "A note spanning all five lanes with a long text that should be comfortably laid out "
        "across the full width of the picture without any clipping."
    )
    lanes = "".join(f"participant {name}\n" for name in "ABCDE")
    [note] = layout_of(f"{lanes}note A, E: {text}\nA -> E: go\n").notes
    lines = [line for block in note.texts for line in block.lines]
    room = note.box.w - 2 * C.NOTE_PAD_X - C.NOTE_FOLD / 2
    assert len(lines) == 2 and lines[0].width > 0.85 * room


def test_a_note_over_lanes_another_widened_fills_them_too() -> None:
    """A note over A and C whose lanes a wide code line of another note pushed apart is set
    again at their width: its text filled a third of the box."""
    text = (
        "This is a spanning note with a long paragraph that should fill the width of the lanes "
        "it spans nicely without leaving a third empty, and a final word."
    )
    code = "a code line that is wide enough to push the lanes A and B apart: 0123456789"
    layout = layout_of(
        f"A -> B: hello\nB -> C: x\nnote A, C: {text}\nnote A, B:\n```\n{code}\n```\n"
    )
    note = layout.notes[0]
    lines = [line for block in note.texts for line in block.lines]
    room = note.box.w - 2 * C.NOTE_PAD_X - C.NOTE_FOLD / 2
    assert max(line.width for line in lines) > 0.85 * room
    assert all(block.box.right <= note.box.right - C.NOTE_PAD_X for block in note.texts)


def test_a_long_divider_label_wraps_near_the_lanes_width() -> None:
    """A section label longer than two lanes are wide wraps near their width (down to
    SPANNING_MIN_WRAP), not at the title's 720 px: the picture stays about as wide as its lanes."""
    label = (
        "Phase two begins once every replica has acknowledged the new configuration, the old "
        "leader has stepped down and the health checks are green again"
    )
    layout = layout_of(f"A -> B: x\n-: {label}\n=: {label}\nB -> A: y\n")
    assert layout.width < 720
    assert all(len(d.label.lines) > 1 for d in layout.dividers if d.label)
    chain = "".join(f"P{k} -> P{k + 1}: x\n" for k in range(8))
    wide = layout_of(f"{chain}-: {label}\n")
    assert len(wide.dividers[0].label.lines) == 1  # lanes wide enough: one line, as before
    # a picture a block's label made wider than its lanes: the title and a section across
    # the picture wrap at the picture's width, not the lanes'
    long_title = (
        "A very long title that goes on and on about the authentication handshake between the "
        "browser and the identity provider including refresh"
    )
    framed = layout_of(
        f"title: {long_title}\nA -> B: hello\n"
        "if: the token is valid and the session has not expired yet\n  A -> B: call\n"
        "  ...: A long delay label that says we wait for a very long time before anything "
        "happens again\n  -: A plain divider label that is also rather long to see how it "
        "wraps inside a block\nend\n"
    )
    assert framed.title is not None and len(framed.title.lines) == 2  # three at the lanes'


def test_a_thai_vowel_written_before_its_consonant_never_ends_a_line() -> None:
    from volley.layout.textwrap import clusters as split_clusters

    clusters = split_clusters("\u0e40\u0e0a\u0e48\u0e19\u0e44\u0e1b\u0e42\u0e23\u0e07")  # เช่นไปโรง
    assert clusters[0] == "\u0e40\u0e0a\u0e48"
    assert not any(c[-1] in "\u0e40\u0e41\u0e42\u0e43\u0e44" for c in clusters)


@pytest.mark.parametrize("bars", range(1, 7))
def test_a_self_label_beside_its_own_nested_bars_stays_clear_of_the_next_lane(bars: int) -> None:
    """A loop leaves from the outer edge of its lane's bars, which nest rightwards: the gap to
    the next lane grows with them (at five bars the label crossed the next lifeline)."""
    layout = layout_of(
        "A ->+ B: call\n" * bars + "B -> B: a long self label that sets the gap\nB -> C: x\n"
    )
    label = next(m.label for m in layout.messages if m.is_self)
    assert label is not None
    assert layout.lifelines[2].x - (label.x + label.w) >= C.LABEL_PAD_X - 0.01
    assert_clean(layout)


def test_a_wrapped_right_to_left_block_label_lines_up_on_the_right() -> None:
    """Set from the left of its box (after the block's tab), a right-to-left label of several
    lines still ends each line at the box's right, as a right-to-left note does."""
    words = "شرط طويل جدا جدا يتجاوز عرض الإطار بكثير ولا يمكن أن يتسع في المساحة المتاحة"
    layout = layout_of(f"A -> B: x\nif: {words}\n  B -> C: ok\nend\n")
    label = layout.frames[0].label
    assert label is not None and len(label.lines) > 1
    ends = {round(line.x + line.width, 2) for line in label.lines}
    assert ends == {round(label.x + label.w, 2)}
    assert {line.anchor for line in label.lines} == {"end"}
    assert_clean(layout)


@pytest.mark.parametrize("deep", [2, 3, 5])
def test_a_frame_holds_the_bars_nested_inside_it(deep):
    """Bars nested three deep and more (a real KEP's recursive calls) reach past a frame's
    padding: the frame widens to hold them, with as much room as beside two."""
    calls = "".join("  B ->+ B: again\n" for _ in range(deep - 1))
    layout = layout_diagram(
        volley.parse(f"A -> B: start\nloop: each\n  A ->+ B: one\n{calls}  B -->- A: done\nend\n")
    )
    (frame,) = layout.frames
    bars = [bar.box for bar in layout.activations]
    assert len(bars) == deep
    assert all(frame.box.x < bar.x and bar.right < frame.box.right for bar in bars)
    room = frame.box.right - max(bar.right for bar in bars)
    assert room == pytest.approx(C.BLOCK_PAD_X - C.ACTIVATION_WIDTH / 2 - C.ACTIVATION_NEST_OFFSET)


def test_tibetan_stacks_get_room_below_their_line() -> None:
    """བསྒྲུབས stacks two letters and a vowel under its first: the line's usual depth held the
    first, and the rest lay on the arrow under the label, or on the next line of a note."""
    stacked, flat = "\u0f56\u0f66\u0f92\u0fb2\u0f74\u0f56\u0f66", "\u0f56\u0f66"
    deep = layout_of(f"A -> B: {stacked}").messages[0].label
    plain = layout_of(f"A -> B: {flat}").messages[0].label
    assert deep is not None and plain is not None
    assert deep.h >= plain.h + 0.5 * 14 * 0.9  # two letters past the first: room for each
    layout = layout_of(f"A -> B: x\nnote A: {stacked}\\n{stacked}")
    assert_clean(layout)


def test_arabics_vowel_marks_get_room_between_their_lines() -> None:
    """A kasra under one line of vocalised Arabic met the fatha over the next."""
    vocalised = layout_of("A -> B: \u0628\u0650\u0633\u0652\u0645\u0650").messages[0].label
    bare = layout_of("A -> B: \u0628\u0633\u0645").messages[0].label
    assert vocalised is not None and bare is not None
    assert vocalised.h >= bare.h + 0.3 * 14 * 0.9


def test_myanmars_tall_letters_get_room_between_their_lines() -> None:
    """Noto's Myanmar letters reach twice as high and low as Latin ones: wrapped lines at the
    Latin leading touched (a medial below on the one above)."""
    myanmar = layout_of("A -> B: \u1000\u103c\u100a\u1037\u103a").messages[0].label
    latin = layout_of("A -> B: kyi").messages[0].label
    assert myanmar is not None and latin is not None and myanmar.h >= latin.h + 0.3 * 13


def test_a_lost_message_stops_short_of_its_lane_however_it_is_written() -> None:
    """`B x- A` is `A -x B` written the other way: the same cross, at the same place."""
    one, other = layout_diagram(volley.parse("A -x B: lost\nB x- A: lost\n")).messages
    cross = [next(h.tip for h in m.heads if h.style == "cross") for m in (one, other)]
    assert cross[0][0] == cross[1][0] and one.points[1][0] == other.points[0][0]


SIDES = """\
participant C as Client
participant S as Server
participant D as Database
C ->+ S: GET /orders
note right of S: checks the token, then asks the database for the orders it holds
S -> D: SELECT * FROM orders
note left of D: an index scan over the table of orders, by customer
D --> S: 12 rows
S -->- C: 200 OK
note left of C: shows them to the reader who asked for them
note right of D: the last lane's note widens the picture to hold it
"""


def test_a_note_beside_a_lane_stands_clear_of_both_lifelines_and_of_the_bars() -> None:
    """Mermaid's and PlantUML's `note right of S` is drawn right of S's lifeline (past its
    bar), and the lanes move apart so that it stops short of the next lifeline; `left of`
    mirrors it, and a note beside an outer lane widens the picture."""
    layout = layout_of(SIDES)
    assert_clean(layout)
    x = [line.x for line in layout.lifelines]
    right_of_s, left_of_d, left_of_c, right_of_d = layout.notes
    bar = max(a.box.right for a in layout.activations if a.index == 1)
    assert [n.side for n in layout.notes] == ["right", "left", "left", "right"]
    assert right_of_s.box.x >= bar + C.NOTE_SIDE_GAP - 0.01
    assert right_of_s.box.right <= x[2] - C.NOTE_SIDE_GAP + 0.01
    assert x[1] < left_of_d.box.x and left_of_d.box.right <= x[2] - C.NOTE_SIDE_GAP + 0.01
    assert left_of_c.box.right <= x[0] - C.NOTE_SIDE_GAP + 0.01 and left_of_c.box.x >= 0
    assert right_of_d.box.x >= x[2] + C.NOTE_SIDE_GAP - 0.01
    assert right_of_d.box.right <= layout.width - C.MARGIN + 0.01
    over = layout_of(SIDES.replace("left of ", "").replace("right of ", ""))
    assert layout.width > over.width  # the lanes made room for the notes beside them


def test_a_note_beside_a_lane_in_a_box_or_a_frame_is_held_by_it() -> None:
    """A box (Mermaid's band of participants) and a frame take in a note beside their lane."""
    text = "box: Back end\n  participant S\nend\nC -> S: hi\nloop: retry\n  S -> S: again\n"
    layout = layout_of(text + "  note right of S: a note beside the last lane, inside both\nend\n")
    assert_clean(layout)
    (note,) = layout.notes
    (band,) = layout.bands
    (frame,) = layout.frames
    assert note.box.right < band.box.right and note.box.right < frame.box.right


def test_a_rule_in_a_note_is_a_line_across_between_its_paragraphs() -> None:
    layout = layout_of("A -> B: x\nnote:\n  above\n\n  ---\n\n  below\n")
    assert_clean(layout)
    [note] = layout.notes
    [above, below] = note.texts
    [rule] = note.rules
    assert above.box.bottom < rule.y < below.box.y
    assert rule.x1 == above.box.x and note.box.x < rule.x1 < rule.x2 < note.box.right
    assert "---" not in volley.render("A -> B: x\nnote:\n  above\n\n  ---\n\n  below\n")
