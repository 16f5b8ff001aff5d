"""The appendix (`bodies="appendix"`): every body the diagram carries, printed under it.

A static picture cannot open a panel when its reader clicks an arrow, so the appendix is the
only place its payloads can be read: every line of every body is there (unless the caller asks
for a cap, and then a note says what was left out), long lines wrap inside the panel rather
than being cut, and each body is coloured as the HTML viewer colours its raw view. Each body's
heading names its number (the one on the arrow's marker), who sent it to whom, the message's
label and the body's own label, so a printed page reads without the diagram beside it.
"""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass
from itertools import accumulate

from volley.layout import constants as C
from volley.layout.geometry import (
    Appendix,
    AppendixBody,
    AppendixEntry,
    CodePanel,
    Rect,
    Run,
    TextBlock,
    TextLine,
)
from volley.layout.metrics import line_height, text_width
from volley.layout.textwrap import clusters
from volley.layout.typeset import (
    Typesetter,
    centred_baseline,
    clean_text,
    right_to_left,
    spaced_pieces,
)
from volley.model import Message, Payload
from volley.text.highlight import Colouring, colouring, tokens
from volley.text.inline import escape_markup
from volley.text.payload_tables import body_table

MARKER_ICON = "{fas-paperclip}"


@dataclass(slots=True)
class Numbered:
    """A message that carries a body, the number its marker shows, and who sends it to whom
    as the picture shows them (display labels, in the direction the arrow points)."""

    number: int
    message: Message
    sender: str
    receiver: str
    both_ways: bool = False


def natural_width(ts: Typesetter, numbered: list[Numbered]) -> float:
    """How wide the appendix would like to be: its widest heading or body line unwrapped, but
    no wider than a reading column (longer lines wrap)."""
    widest = 0.0
    for item in numbered:
        for word, payload in _payloads(item.message):
            head = ts.markup(_heading(item, word, payload), C.APPENDIX_HEADING_SIZE, 1e9)
            widest = max(widest, head.width)
            for line in clean_text(payload.body).expandtabs(4).splitlines():
                code = text_width(line, C.APPENDIX_CODE_SIZE, mono=True) + 2 * C.APPENDIX_CODE_PAD
                widest = max(widest, code)
                if widest >= C.APPENDIX_MAX_WIDTH:
                    return C.APPENDIX_MAX_WIDTH
    return widest


def lay_out(
    ts: Typesetter,
    numbered: list[Numbered],
    x: float,
    y: float,
    width: float,
    cap: int | None = None,
) -> tuple[Appendix, float]:
    """The appendix in the column from `x`, `width` wide, starting at `y`; and where it ends.
    `cap`: at most this many lines of each body (None: all of them)."""
    y += C.APPENDIX_GAP
    rule_y = y
    y += C.APPENDIX_ENTRY_GAP
    heading = ts.place(ts.plain("Payloads", C.LABEL_SIZE, bold=True), x, y)
    y += heading.box.h
    entries = []
    for item in numbered:
        y += C.APPENDIX_ENTRY_GAP
        bodies = []
        for k, (word, payload) in enumerate(_payloads(item.message)):
            if k:
                y += C.APPENDIX_BODY_GAP
            body, y = _body(ts, _heading(item, word, payload), payload, x, y, width, cap)
            bodies.append(body)
        entries.append(AppendixEntry(item.number, bodies))
    return Appendix(heading, rule_y, x, x + width, entries), y


def _body(
    ts: Typesetter,
    title: str,
    payload: Payload,
    x: float,
    y: float,
    width: float,
    cap: int | None,
) -> tuple[AppendixBody, float]:
    """One body under its heading: the heading, the panel, the coloured lines, the note."""
    head = ts.markup(title, C.APPENDIX_HEADING_SIZE, width, stretch=False)
    heading = ts.place(head, x, y)
    y += head.height + C.APPENDIX_HEADING_GAP
    text = clean_text(payload.body).replace("\r\n", "\n").expandtabs(4)
    lines = text.split("\n") if text else []
    shown = lines if cap is None or len(lines) <= cap else lines[:cap]
    panel = code = note = None
    if shown:
        pad = C.APPENDIX_CODE_PAD
        kind = colouring(payload.lang, body_table(payload.body, payload.lang).source)
        code = _code("\n".join(shown), kind, x + pad, y + pad, width - 2 * pad)
        panel = CodePanel(Rect(x, y, width, code.box.h + 2 * pad))
        y += panel.box.h
    hidden = len(lines) - len(shown)
    words = None
    if hidden:
        s = "s" if hidden != 1 else ""
        words = f"… {hidden} more line{s} not shown ({len(shown)} of {len(lines)})"
    elif not lines:
        words = "(empty)"
    if words:
        st = ts.markup(words, C.SMALL_SIZE, width, italic=True, stretch=False)
        y += 3
        note = ts.place(st, x, y, tone="muted")
        y += st.height
    return AppendixBody(heading, panel, code, note), y


def _heading(item: Numbered, word: str, payload: Payload) -> str:
    """The heading "3 · Agent → MCP Server · POST /mcp (tools/list) · Request (json)", as
    inline markup: the names as the picture shows them and the body's label as written, the
    message's label with its own markup."""
    m = item.message
    label = m.label.strip() or "(no label)"
    lang = f" ({payload.lang})" if payload.lang else ""
    body = payload.label or ("Request" if word == "in" else "Response")
    sender, receiver = escape_markup(item.sender), escape_markup(item.receiver)
    said = escape_markup(body)
    if any(right_to_left(part) for part in (item.sender, item.receiver, label, body)):
        # Each part set apart (FSI … PDI): between two right-to-left names the arrow would
        # otherwise be read with them, right to left, pointing at the sender, and two
        # right-to-left labels side by side would swap places. The body's language stays
        # outside its label's isolate, after it, as it is after a left-to-right one.
        sender, receiver, label, said = (
            f"\u2068{part}\u2069" for part in (sender, receiver, label, said)
        )
    arrow = "↔" if item.both_ways else "→"
    heading = f"{sender} {arrow} {receiver} · {label} · {said}{escape_markup(lang)}"
    # The heading runs left to right whatever its texts, so that its arrow points from the
    # sender to the receiver: where its first letter is a right-to-left one, a left-to-right
    # mark before it says so.
    mark = "\u200e" if right_to_left(heading) else ""
    return f"{MARKER_ICON} {mark}{item.number} · {heading}"


def _payloads(message: Message) -> list[tuple[str, Payload]]:
    return [(w, p) for w, p in (("in", message.request), ("out", message.response)) if p]


# --- a body's lines --------------------------------------------------------------------------


def _code(text: str, kind: Colouring | None, x: float, y: float, room: float) -> TextBlock:
    """The body set in monospace from (x, y), each line wrapped to `room` and each run of it
    coloured by its syntax class."""
    size = C.APPENDIX_CODE_SIZE
    lh = line_height(size)
    baseline = centred_baseline(lh, size)
    lines: list[TextLine] = []
    widest = 0.0
    top = y
    for source in _lines(tokens(text, kind)):
        whole = "".join(t for _, t in source)
        starts = list(accumulate((len(t) for _, t in source), initial=0))
        for start, end, indent in _pieces(whole, size, room):
            runs = _runs(source, starts, start, end, indent, size)
            width = indent + text_width(whole[start:end], size, mono=True)
            widest = max(widest, width)
            lines.append(TextLine(x, top + baseline, width, size, runs, mono=True))
            top += lh
    return TextBlock(x, y, widest, top - y, tuple(lines))


def _lines(runs: list[tuple[str, str]]) -> list[list[tuple[str, str]]]:
    """Runs split into the body's lines."""
    out: list[list[tuple[str, str]]] = [[]]
    for cls, text in runs:
        parts = text.split("\n")
        for k, part in enumerate(parts):
            if k:
                out.append([])
            if part:
                out[-1].append((cls, part))
    return out


def _pieces(line: str, size: float, room: float) -> list[tuple[int, int, float]]:
    """Where a line breaks to fit `room`: (start, end, indent) of each piece. A line breaks
    after a space or a comma in the later part of the piece, else anywhere; the pieces after
    the first hang under the line's own indentation, two characters in."""
    if text_width(line, size, mono=True) <= room:
        return [(0, len(line), 0.0)]
    lead = len(line) - len(line.lstrip(" "))
    hang = min(text_width(" " * (lead + 2), size, mono=True), room / 2)
    out: list[tuple[int, int, float]] = []
    start, indent = 0, 0.0
    # where each of the line's clusters ends: a break never splits what reads as one letter
    # or one emoji (`👨‍👩‍👧`, a Hangul syllable written in jamo, `कि`)
    ends = list(accumulate(len(cluster) for cluster in clusters(line)))
    while start < len(line):
        space = room - indent
        end, used = start, 0.0
        at = bisect_right(ends, start)  # the piece's first cluster
        while at < len(ends):
            w = text_width(line[end : ends[at]], size, mono=True)
            if used + w > space and end > start:
                break
            used += w
            end = ends[at]
            at += 1
        if end < len(line):
            soft = max(line.rfind(" ", start, end), line.rfind(",", start, end))
            if soft >= start + (end - start) // 2:
                end = soft + 1
        out.append((start, end, indent))
        start, indent = end, hang
    return out


def _runs(
    source: list[tuple[str, str]],
    starts: list[int],
    start: int,
    end: int,
    indent: float,
    size: float,
) -> tuple[Run, ...]:
    """The runs of one piece of a line (`starts`: where each of the line's tokens starts in
    it), from `indent` past the line's left edge; spaces between them, and more than one
    space within one (`spaced_pieces`), are offsets. Only the tokens the piece holds are
    looked at: a one-line body of 100 KB breaks into a thousand pieces."""
    runs: list[Run] = []
    left = indent
    for index in range(max(bisect_right(starts, start) - 1, 0), len(source)):
        cls, text = source[index]
        at = starts[index]
        if at >= end:
            break
        a, b = max(start, at), min(end, at + len(text))
        if a >= b:
            continue
        part = text[a - at : b - at]
        role = f"syntax_{cls}" if cls else None
        runs += [
            Run(left + text_width(part[:k], size, mono=True), piece,
                text_width(piece, size, mono=True), role=role)
            for k, piece in spaced_pieces(part)
        ]  # fmt: skip
        left += text_width(part, size, mono=True)
    return tuple(runs)
