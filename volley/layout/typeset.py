"""Text set into measured lines: markup parsed, wrapped at a width, every run measured.

The engine asks for a piece of text at a size and a wrap width and gets back `SetText`, lines of
runs, each an offset from its line's left edge; `place` puts the lines at a position, as a
`TextBlock` (the runs stay as they were set). Setting is cached per layout, since labels such
as "200 OK" repeat many times.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import cache
from math import fsum
from typing import NamedTuple

from volley.layout.bidi_levels import embedding_levels, has_right_to_left, visual_order
from volley.layout.constants import (
    BULLET_GAP,
    CODE_PAD_X,
    ICON_GAP,
    NOTE_BULLET_INDENT,
    RULE_HEIGHT,
    TABLE_CELL_PAD_X,
    TABLE_CELL_PAD_Y,
)
from volley.layout.geometry import ANCHOR_SHARE, Anchor, Rect, Run, TextBlock, TextLine, Tone
from volley.layout.metrics import CAP_HEIGHT, in_own_face, line_height, text_width
from volley.layout.textwrap import break_units, span_width, styled_width, wrap_spans
from volley.text.inline import (
    CodeBlock,
    IconRef,
    ListItem,
    Paragraph,
    Span,
    Table,
    parse_lines,
    parse_note,
)

Lines = Sequence[Sequence[Span]]  # lines of styled spans, as the inline parser gives them

REPLACEMENT = "\ufffd"
LONG_WORD_STRETCH = 1.6  # a line may grow this much past its wrap width to keep a token whole
STRANDED_SHARE = 1 / 3  # a wrapped line narrower than this share of the widest strands its words
WIDEN_TO_KEEP = 1.25  # a label may grow this much past its wrap width rather than strand a word
CODE_BOX_EM = 1.2  # height of the patch behind inline code, in em: the line's height, less leading


def clean_text(text: str) -> str:
    """The text with every character XML cannot hold replaced, visibly, by U+FFFD."""
    if text.isascii() and text.isprintable():
        return text  # the common case, without the pattern (or compiling it)
    return xml_forbidden().sub(REPLACEMENT, text)


def drawn_keycaps(text: str) -> str:
    """The text with each key's picture written without its emoji selector (`1⃣`, Unicode's
    "unqualified" keycap) given it, for a browser: Chromium draws the digit and an empty box,
    PNG and PDF the key, as `volley.layout.metrics` measures it."""
    return re.compile(_BARE_KEYCAP).sub("\\1\ufe0f\u20e3", text) if "\u20e3" in text else text


_BARE_KEYCAP = "([0-9#*])\u20e3"


@cache
def xml_forbidden() -> re.Pattern[str]:
    """Characters XML 1.0 cannot hold: C0 controls but tab/LF/CR, lone surrogates, U+FFFE/F."""
    return re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


class SetLine(NamedTuple):
    """One line of set text: its runs, offsets from the line's left edge."""

    width: float
    height: float
    baseline: float  # from the line's top
    runs: tuple[Run, ...]
    mono: bool = False
    code: bool = False  # some run is inline code, with a tinted patch behind it
    rtl: bool = False  # in a paragraph that reads right to left (`right_to_left`)


class SetText(NamedTuple):
    """Text set at a size: its lines, top to bottom, and the box they fill."""

    lines: tuple[SetLine, ...]
    width: float
    height: float
    size: float
    fitted: bool = False  # set to a width it did not fit unwrapped: more room may change it

    @property
    def rtl(self) -> bool:
        """Whether it is a paragraph that reads right to left (`right_to_left`)."""
        return any(line.rtl for line in self.lines)


@dataclass(slots=True)
class SetTable:
    """A note's table set for drawing: each cell's text, rows top to bottom (the header
    first), and each column's width and alignment and each row's height, padding included."""

    cells: tuple[tuple[SetText, ...], ...]
    widths: tuple[float, ...]
    heights: tuple[float, ...]
    align: tuple[str, ...]


@dataclass(slots=True)
class NotePart:
    """One block of a note: kind "p" (paragraph), "item" (list item), "code", "table"
    (whose `text` is empty, the size of its grid, and `table` its cells) or "rule" (whose
    `text` is empty, the room the line across takes)."""

    kind: str
    marker: str
    indent: float  # list text starts this far right of the note's text edge
    text: SetText
    bullet: SetText | None = None
    table: SetTable | None = None
    broken: bool = False  # a paragraph or item whose writer broke its lines (`\n`, `<br>`)


class Typesetter:
    """Sets text for one layout, remembering what it set and which icons it drew."""

    def __init__(self) -> None:
        self._cache: dict[tuple, SetText] = {}
        # (text, size, bold, italic) -> the text set unwrapped (kept alone: most labels fit,
        # and their spans are not needed again).
        self._natural: dict[tuple, SetText] = {}
        self._heads: dict[tuple, tuple[Lines, str]] = {}  # for `numbered`
        self._notes: dict[tuple, tuple[NotePart, ...]] = {}
        self.icons: dict[str, tuple[float, float, str] | None] = {}  # key -> (w, h, path)
        self.warnings: list[str] = []

    # --- public ------------------------------------------------------------------------------

    def markup(
        self,
        text: str,
        size: float,
        max_width: float,
        *,
        bold: bool = False,
        italic: bool = False,
        stretch: bool = True,
    ) -> SetText:
        """Inline-formatted text (labels, titles, dividers), wrapped at `max_width`.

        With `stretch`, a line holding one long token (a path, a URL) may grow to
        LONG_WORD_STRETCH times the width rather than break inside it.
        """
        natural = self._unwrapped(text, size, bold, italic)
        if natural.width <= max_width:
            return natural  # fits unwrapped: the same for every wider width too
        key = ("m", text, size, bold, italic, max_width, stretch)
        hit = self._cache.get(key)
        if hit is None:
            spans = _spans(text, bold, italic)
            hit = self._cache[key] = self._fitted(spans, size, max_width, stretch)
        return hit

    def _fitted(self, spans: Lines, size: float, max_width: float, stretch: bool) -> SetText:
        """Text wrapped at `max_width`: with `stretch`, a long token (a path, a URL, a host
        name) gets a wider line rather than a break inside it; no word is left behind."""
        if stretch:
            longest = _longest_word(spans, size)
            max_width = max(max_width, min(longest, max_width * LONG_WORD_STRETCH))
        hit = self._set(spans, size, max_width)
        return self._unstrand(spans, size, max_width, hit, stretch) if _stranded(hit) else hit

    def _wrapped(
        self, lines: Lines, size: float, max_width: float, fill: bool = False, fit: bool = False
    ) -> SetText:
        """Lines of a note wrapped at `max_width`, leaving no word behind; with `fill`, as
        full as they go (a box as wide as its lanes cannot shrink to lines evened out, and
        its right would stand empty); with `fit`, within `max_width` whatever is left behind
        (a box the lanes were made wide enough for, which it may not outgrow)."""
        st = self._set(lines, size, max_width)
        if fit or not _stranded(st):
            return st
        return self._unstrand(lines, size, max_width, st, True, even=not fill)

    def _unstrand(
        self,
        spans: Lines,
        size: float,
        max_width: float,
        wrapped: SetText,
        stretch: bool,
        even: bool = True,
    ) -> SetText:
        """Text wrapped without a stranded word (`GET` alone above a long URL, one word under
        a full line): a little wider if it may grow and that takes a line off or leaves no
        word behind, else (if `even`) its lines evened out at the narrowest width that keeps
        their number and breaks no word."""
        if stretch:
            wider = self._set(spans, size, max_width * WIDEN_TO_KEEP)
            lines, before = len(wider.lines), len(wrapped.lines)
            if lines < before or (lines == before and not _stranded(wider)):
                return wider
        if not even:
            return wrapped
        count, narrowest = len(wrapped.lines), None
        low, high = min(_longest_word(spans, size), max_width), max_width
        for _ in range(12):  # to within a twentieth of a pixel of 300
            middle = (low + high) / 2
            # Only the number of lines matters here: the wrap alone gives it, as `_set` would.
            if len(wrap_spans(spans, middle, size)) == count:  # type: ignore[arg-type]
                high = narrowest = middle
            else:
                low = middle
        return wrapped if narrowest is None else self._set(spans, size, narrowest)

    def numbered(self, text: str, number: int, size: float, *, bold=False) -> SetText:
        """What `markup(f"{text} {number}", size, <any width>)` sets, without parsing a new
        text for every number: payload markers differ only in theirs."""
        key = ("#", text, number, size, bold)
        hit = self._cache.get(key)
        if hit is None:
            head, joined = self._numbered_head(text, bold)
            tail = Span(f"{joined} {number}", bold=bold)
            hit = self._cache[key] = self._set([*head[:-1], (*head[-1], tail)], size, None)
        return hit

    def _numbered_head(self, text: str, bold: bool) -> tuple[Lines, str]:
        """The text's lines of spans, emphasised, less the plain text at its very end, which
        the parser would join with the number that follows: that text is returned apart."""
        key = (text, bold)
        hit = self._heads.get(key)
        if hit is None:
            *lines, last = parse_lines(clean_text(text))
            joined = ""
            if last and last[-1].icon is None and _style(last[-1]) == _PLAIN:
                last, joined = last[:-1], last[-1].text
            lines.append(last)
            if bold:
                lines = [tuple(_emphasise(s, bold, False) for s in line) for line in lines]
            hit = self._heads[key] = (lines, joined)
        return hit

    def plain(
        self, text: str, size: float, max_width: float | None = None, *, bold=False, mono=False
    ) -> SetText:
        """Text without markup (names, numbers, payload bodies); wraps only if given a width,
        as labels wrap (`markup`)."""
        key = ("p", text, size, max_width, bold, mono)
        hit = self._cache.get(key)
        if hit is None:
            parts = clean_text(text).split("\n")
            lines: Lines = [[Span(part, bold=bold)] for part in parts]
            if mono:
                hit = self._set_mono(parts, size, bold)
            elif max_width is None:
                hit = self._set(lines, size, None)
            else:
                hit = self._fitted(lines, size, max_width, True)
            self._cache[key] = hit
        return hit

    def note(
        self,
        text: str,
        size: float,
        max_width: float,
        fill: bool = False,
        fit: bool = False,
        lines_kept: bool = False,
    ) -> tuple[NotePart, ...]:
        """A note's paragraphs, list items and code blocks, each set on its own; with `fill`,
        its lines as full as they go, with `fit` within the width (`_wrapped`); with
        `lines_kept`, each line of a paragraph a line of its own (`parse_note`)."""
        key = (text, size, max_width, fill, fit, lines_kept)
        hit = self._notes.get(key)
        if hit is not None:
            return hit
        out: list[NotePart] = []
        for block in parse_note(clean_text(text), lines_kept):
            if isinstance(block, CodeBlock):
                out.append(NotePart("code", "", 0.0, self._set_mono(block.lines, size - 1, False)))
            elif isinstance(block, ListItem):
                bullet = self.plain(block.marker, size)
                hang = max(NOTE_BULLET_INDENT, bullet.width + BULLET_GAP)
                indent = NOTE_BULLET_INDENT * block.level + hang
                room = max(max_width - indent, size * 4)
                st = self._wrapped(block.lines, size, room, fill, fit)
                if st.rtl:  # "1." reads as a right-to-left list's
                    bullet = bullet._replace(
                        lines=tuple(
                            ln._replace(rtl=True, runs=tuple(r._replace(rtl=True) for r in ln.runs))
                            for ln in bullet.lines
                        )
                    )
                broken = len(block.lines) > 1
                out.append(NotePart("item", block.marker, indent, st, bullet, broken=broken))
            elif isinstance(block, Paragraph):
                lines = block.lines
                if block.kind != "text":  # a heading bold, a quote in italics
                    bold, italic = block.kind == "heading", block.kind == "quote"
                    lines = [[_emphasise(s, bold, italic) for s in line] for line in lines]
                st = self._wrapped(lines, size, max_width, fill, fit)
                out.append(NotePart("p", "", 0.0, st, broken=len(lines) > 1))
            elif isinstance(block, Table):
                table = self._table(block, size, max_width)
                grid = SetText((), fsum(table.widths), fsum(table.heights), size)
                out.append(NotePart("table", "", 0.0, grid, table=table))
            else:  # a rule: room for the line across, as tall as a line of text is high
                out.append(NotePart("rule", "", 0.0, SetText((), 0.0, size * RULE_HEIGHT, size)))
        hit = self._notes[key] = tuple(out)
        return hit

    def _table(self, table: Table, size: float, max_width: float) -> SetTable:
        """A table's cells set so that its columns fill at most `max_width`: a column as wide
        as its widest cell if they all fit, else the narrow ones whole and the wide ones
        sharing the rest evenly, their cells wrapped between words. No word is broken: a
        column is at least as wide as its longest word, and the table may then be wider."""
        header = [
            [[_emphasise(s, True, False) for s in line] for line in cell] for cell in table.header
        ]
        rows = [header, *table.rows]
        pad = 2 * TABLE_CELL_PAD_X
        columns = list(zip(*rows, strict=True))
        natural = [max(self._set(cell, size, None).width for cell in column) for column in columns]
        word = [max(_longest_word(cell, size) for cell in column) for column in columns]
        room = max_width - pad * len(natural)
        wrap = [0.0] * len(natural)
        for placed, k in enumerate(sorted(range(len(natural)), key=natural.__getitem__)):
            wrap[k] = min(natural[k], max(room / (len(natural) - placed), word[k]))
            room -= wrap[k]
        cells = tuple(
            tuple(
                self._set(cell, size, None)
                if natural[k] <= wrap[k]
                else self._wrapped(cell, size, wrap[k])
                for k, cell in enumerate(row)
            )
            for row in rows
        )
        widths = tuple(max(row[k].width for row in cells) + pad for k in range(len(wrap)))
        heights = tuple(max(cell.height for cell in row) + 2 * TABLE_CELL_PAD_Y for row in cells)
        return SetTable(cells, widths, heights, tuple(table.align))

    def place(
        self,
        st: SetText,
        x: float,
        y: float,
        *,
        tone: Tone = "text",
        align: Anchor = "start",
        halo: bool = False,
    ) -> TextBlock:
        """The set text at y, each line starting at x, centred on it (`align="middle"`) or
        ending at it (`"end"`)."""
        lines: list[TextLine] = []
        code_boxes: list[Rect] = []
        top = y
        size = st.size
        share = ANCHOR_SHARE[align]
        # A right-to-left paragraph of several lines set from the left of its box still has
        # its lines' ends in line, at the box's right, as right-to-left text is aligned.
        flush_right = align == "start" and len(st.lines) > 1
        for sl in st.lines:
            lx = x - share * sl.width
            # A line of a script the diagram's face lacks (Lao, Hangul, Arabic: measured as one
            # font among those a reader's system may draw it with) is drawn from the point it
            # is aligned on, so that it is centred however wide it is drawn (when it is one
            # run; the runs of a line of several keep their measured places).
            anchor: Anchor = align if align != "start" and not _own_face(sl) else "start"
            if sl.rtl and flush_right:
                lx, anchor = x + st.width - sl.width, "end"
            line = TextLine(
                lx, top + sl.baseline, sl.width, size, sl.runs, sl.mono, rtl=sl.rtl, anchor=anchor
            )
            if sl.code:
                h = size * CODE_BOX_EM
                code_boxes += [
                    Rect(lx + r.dx - CODE_PAD_X, line.middle - h / 2, r.width + 2 * CODE_PAD_X, h)
                    for r in sl.runs
                    if r.code
                ]
            lines.append(line)
            top += sl.height
        left = x - share * st.width
        return TextBlock(left, y, st.width, st.height, tuple(lines), tone, halo, tuple(code_boxes))

    # --- setting -----------------------------------------------------------------------------

    def _unwrapped(self, text: str, size: float, bold: bool, italic: bool) -> SetText:
        key = (text, size, bold, italic)
        hit = self._natural.get(key)
        if hit is None:
            hit = self._natural[key] = self._set(_spans(text, bold, italic), size, None)
        return hit

    def _set(self, lines: Lines, size: float, max_width: float | None) -> SetText:
        """One paragraph (a label, a block of a note), wrapped at `max_width` if given."""
        # code reads left to right, whatever it holds: the words around it say which way
        rtl = right_to_left("".join([s.text for spans in lines for s in spans if not s.code]))
        lh = line_height(size)
        set_lines: list[SetLine] = []
        for written in lines:
            drawn: list[Sequence[Span]] = [written]
            if max_width is not None:
                drawn = [w.spans for w in wrap_spans([list(written)], max_width, size)]
            # a line wrapped in two or more is one paragraph to the bidirectional algorithm:
            # its levels are worked out whole (a comma before a wrap reads with its words)
            wrapped = _wrapped_levels(written, drawn, rtl) if len(drawn) > 1 else None
            for k, spans in enumerate(drawn):
                if wrapped is None and len(spans) == 1 and _is_plain(spans[0]):
                    # one run (most labels): the renderer orders its letters
                    set_lines.append(_plain_line(spans[0], size, lh, rtl))
                else:
                    given = wrapped[k] if wrapped is not None else None
                    set_lines.append(self._set_line(spans, size, lh, rtl, given))
        return _stack(tuple(set_lines), size, fitted=max_width is not None)

    def _set_mono(self, lines: list[str], size: float, bold: bool) -> SetText:
        lh = line_height(size)
        baseline = centred_baseline(lh, size)
        out = []
        for text in lines:
            text = text.expandtabs(4)
            w = text_width(text, size, mono=True, bold=bold)
            runs = tuple(
                Run(text_width(text[:at], size, mono=True, bold=bold), piece,
                    text_width(piece, size, mono=True, bold=bold), bold=bold)
                for at, piece in spaced_pieces(text)
            )  # fmt: skip
            out.append(SetLine(w, lh, baseline, runs, True))
        return _stack(tuple(out), size)

    def _set_line(
        self,
        spans: Sequence[Span],
        size: float,
        lh: float,
        rtl: bool,
        given: list[int] | None = None,
    ) -> SetLine:
        """One line of spans; `lh` is the line height for the size (tall icons raise it); `rtl`
        when its paragraph reads right to left. A line that holds right-to-left text is cut
        where the level of its letters changes (`volley.layout.bidi_levels`; `given` when the
        line is part of a wrapped paragraph), and its pieces are put in the order a browser
        shows them."""
        runs: list[Run] = []
        # each piece of the line in reading order: where it starts and ends (its spaces and a
        # code span's padding included), its level, and its run (None for spaces alone)
        pieces: list[tuple[float, float, int, int | None]] = []
        levels = given if given is not None else _line_levels(spans, rtl)
        at = 0  # where the span starts in the line's text (`_line_text`)
        x = 0.0
        tallest = 0.0
        code = False
        last = len(spans) - 1
        spaced = False  # a space since the last run: the next one is a word of its own
        for i, span in enumerate(spans):
            text = span.text
            w = styled_width(span, text, size)
            start = x
            if span.icon is not None:
                key, missing = self._icon(span.icon)
                icon_size = size * span.icon.scale
                runs.append(Run(x, "", w, href=span.href, icon=key, icon_size=icon_size,
                                   missing=missing, turn=span.icon.turn))  # fmt: skip
                tallest = max(tallest, icon_size)
                # A space either side separates alike; a word written against the icon still
                # gets a gap.
                glued = i < last and spans[i + 1].text[:1] not in (" ", "")
                x += w + (ICON_GAP if glued else 0.0)
                pieces.append((start, x, levels[at] if levels else 0, len(runs) - 1))
                at += 1
                continue
            if span.code:
                if text:
                    level = levels[at] if levels else 0
                    runs.append(Run(x + CODE_PAD_X, text, w, span.bold, span.italic,
                                       span.strike, True, span.href, spaced=spaced,
                                       rtl=level % 2 == 1))  # fmt: skip
                    code, spaced = True, False
                    pieces.append((start, x + w + 2 * CODE_PAD_X, level, len(runs) - 1))
                x += w + 2 * CODE_PAD_X
                at += 1
                continue
            for piece, level in _by_level(text, levels[at : at + len(text)] if levels else None):
                width = w if piece is text else styled_width(span, piece, size)
                start = x
                drawn = _STEERING.sub("", piece)  # the isolates' marks: their work is done
                words = drawn.strip(" ")  # outer spaces become offsets: renderers disagree
                spaced = spaced or drawn[:1] == " "  # on drawing them, and the run says so
                index = None
                if words:
                    after = drawn.lstrip(" ")
                    lead = width - styled_width(span, after, size) if after != drawn else 0.0
                    inner = width if words == piece else styled_width(span, words, size)
                    runs.append(Run(x + lead, words, inner, span.bold, span.italic,
                                       span.strike, False, span.href, spaced=spaced,
                                       rtl=level % 2 == 1))  # fmt: skip
                    spaced = drawn[-1:] == " "
                    index = len(runs) - 1
                x += width
                pieces.append((start, x, level, index))
            at += len(text)
        height = max(lh, tallest + size * 0.3)
        placed = _seen_in_order(runs, pieces) if levels else tuple(runs)
        above, below = _room_for_tall_letters("".join([span.text for span in spans]), size)
        baseline = above + centred_baseline(height, size)
        return SetLine(x, above + height + below, baseline, placed, code=code, rtl=rtl)

    def _icon(self, ref: IconRef) -> tuple[str, bool]:
        """The icon's key in the picture's shared definitions, and whether it is missing."""
        key = f"{ref.prefix}-{ref.name}"
        if key not in self.icons:
            from volley.text.icons import check_icon, resolve_icon  # only icons need the module

            icon = resolve_icon(ref)
            self.icons[key] = (icon.width, icon.height, icon.path) if icon else None
            warning = check_icon(ref)
            if warning:
                self.warnings.append(warning)
        return key, self.icons[key] is None


def spaced_pieces(text: str) -> list[tuple[int, str]]:
    """A line of code as it is drawn: its stretches of words with no more than one space
    between, each with the index it starts at. Indentation and the spaces aligning columns
    become offsets, not characters, so that a page's minifier, which collapses spaces in
    text, cannot shift the code (a browser keeps them only while `xml:space` is honoured)."""
    return [(m.start(), m.group()) for m in _SPACED.finditer(text)]


_SPACED = re.compile(r"[^ ]+(?: [^ ]+)*")


def _own_face(line: SetLine) -> bool:
    """Whether a line reads left to right in the diagram's own face alone (`in_own_face`)."""
    return not line.rtl and all(
        in_own_face(run.text, bold=run.bold, italic=run.italic, mono=line.mono or run.code)
        for run in line.runs
    )


def _is_plain(span: Span) -> bool:
    """Text, not code, without outer spaces: set as one run, just as it is."""
    text = span.text
    return span.icon is None and not span.code and text[:1] not in ("", " ") and text[-1] != " "


def _plain_line(span: Span, size: float, lh: float, rtl: bool) -> SetLine:
    """What `_set_line` makes of a line of one plain span, without its loop."""
    w = text_width(span.text, size, bold=span.bold, italic=span.italic)
    run = Run(0.0, span.text, w, span.bold, span.italic, span.strike, False, span.href, rtl=rtl)
    above, below = _room_for_tall_letters(span.text, size)
    return SetLine(w, above + lh + below, above + centred_baseline(lh, size), (run,), rtl=rtl)


# Tibetan writes consonants stacked under one another and vowels under the stack (`བསྒྲུབས`),
# and its vowel signs and marks above reach high (`ཧཱུྃ`): such a line reaches into the arrow
# under a label, or into the lines beside it.
_STACKED = re.compile("[\u0f71\u0f74\u0f75\u0f90-\u0fbc]{2,}")
_TIBETAN_ABOVE = re.compile("[\u0f72\u0f7a-\u0f7e\u0f80\u0f82\u0f83]")
# Myanmar's letters are drawn about twice as tall as Latin ones, medials below and vowels above.
_MYANMAR = re.compile("[\u1000-\u109f]")
# Arabic's vowel marks (harakat, the dagger alef, Quranic signs) above and below its letters
_HARAKAT = re.compile("[\u064b-\u065f\u0670\u06d6-\u06ed\u08d3-\u08ff]")


def _room_for_tall_letters(text: str, size: float) -> tuple[float, float]:
    """Room above and below a line for letters taller than the leading holds: Tibetan's marks
    above, three tenths of the size; for each letter stacked under a letter past the first
    (which the line's own depth holds), three tenths below; Myanmar's tall letters; Arabic's
    vowel marks, three twentieths each way."""
    if text.isascii():
        return 0.0, 0.0
    deepest = max((len(found) for found in _STACKED.findall(text)), default=1)
    above = 0.3 if _TIBETAN_ABOVE.search(text) else 0.0
    below = 0.3 * (deepest - 1) + (0.35 if _MYANMAR.search(text) else 0.0)
    if _HARAKAT.search(text):  # the marks under one line met those over the next
        above, below = max(above, 0.15), max(below, 0.15)
    return size * above, size * below


def right_to_left(paragraph: str) -> bool:
    """Whether a paragraph reads right to left: its first letter of a strong direction does
    (Unicode's rule P2, which a browser follows for `dir="auto"`, as GitHub's Markdown pages
    do). Such a paragraph's lines run from the right, and its punctuation at either end
    stands where a reader of Hebrew or Arabic looks for it."""
    if paragraph.isascii():
        return False
    isolated = 0  # what an isolate (LRI, RLI or FSI … PDI) holds does not count
    for ch in paragraph:
        kind = unicodedata.bidirectional(ch)
        if kind in ("LRI", "RLI", "FSI"):
            isolated += 1
        elif kind == "PDI":
            isolated = max(isolated - 1, 0)
        elif isolated:
            continue
        elif kind == "L":
            return False
        elif kind in ("R", "AL"):
            return True
    return False


def _line_text(spans: Sequence[Span]) -> str:
    """The line's text as the bidirectional algorithm reads it: an icon, and a code span
    (which reads as an editor shows it, whatever is around it), one object each (U+FFFC,
    neutral: it stands with the words around it)."""
    return "".join(
        ["\ufffc" if span.icon is not None or span.code else span.text for span in spans]
    )


def _needs_levels(spans: Sequence[Span], rtl: bool) -> bool:
    """Whether the line's runs may move: not in a left-to-right line without a right-to-left
    letter."""
    return rtl or any(has_right_to_left(span.text) for span in spans)


def _line_levels(spans: Sequence[Span], rtl: bool) -> list[int]:
    """Each character's level (`_line_text`), or none for a line whose runs keep their
    places (`_needs_levels`)."""
    return embedding_levels(_line_text(spans), rtl) if _needs_levels(spans, rtl) else []


# Embeddings, overrides and isolates: they steer the levels and draw nothing
_STEERING = re.compile("[\u202a-\u202e\u2066-\u2069]")


def _wrapped_levels(
    written: Sequence[Span], drawn: Sequence[Sequence[Span]], rtl: bool
) -> list[list[int]] | None:
    """The levels of each drawn line of a line wrapped in several (`_line_text`'s
    characters), worked out for the whole line and cut where it was wrapped; None where it
    needs none, or where a line's text is not the next stretch of the whole (a code span
    broken in two), whose lines then have their levels worked out one by one."""
    if not _needs_levels(written, rtl):
        return None
    whole = _line_text(written)
    levels = embedding_levels(whole, rtl)
    base = 1 if rtl else 0
    out = []
    at = 0
    for spans in drawn:
        text = _line_text(spans)
        while at < len(whole) and whole[at] == " " and not whole.startswith(text, at):
            at += 1  # the spaces a wrap dropped
        if not whole.startswith(text, at):
            return None
        line = levels[at : at + len(text)]
        end = len(text)
        while end and text[end - 1] == " ":  # white space ending a line reads with its
            end -= 1  # paragraph (rule L1)
        out.append(line[:end] + [base] * (len(text) - end))
        at += len(text)
    return out


def _by_level(text: str, levels: list[int] | None) -> list[tuple[str, int]]:
    """The text cut where its level changes, each piece with its level (the whole text at
    level 0 for a line without levels)."""
    if not levels:
        return [(text, 0)]
    pieces = []
    start = 0
    for i in range(1, len(text) + 1):
        if i == len(text) or levels[i] != levels[start]:
            pieces.append((text[start:i], levels[start]))
            start = i
    return pieces


def _seen_in_order(
    runs: list[Run], pieces: list[tuple[float, float, int, int | None]]
) -> tuple[Run, ...]:
    """The runs placed as a browser draws the line: its pieces in the order their levels
    give (rule L2), a right-to-left piece's run at its piece's far end from where it starts
    reading (its spaces after it, on its left). The runs stay in reading order, for copying
    and screen readers."""
    placed = list(runs)
    x = 0.0
    for k in visual_order([level for _, _, level, _ in pieces]):
        start, end, level, index = pieces[k]
        if index is not None:
            run = runs[index]
            if level % 2:  # seen from its right: what was written first stands at the right
                placed[index] = run._replace(dx=x + (end - (run.dx + run.width)))
            else:
                placed[index] = run._replace(dx=x + (run.dx - start))
        x += end - start
    return tuple(placed)


def _longest_word(lines: Lines, size: float) -> float:
    """Width of the widest run of text without a space (words split across styles included)."""
    longest = 0.0
    for line in lines:
        current = 0.0
        for span in line:
            if span.icon is not None:
                current += span_width(span, size)
                continue
            for k, part in enumerate(span.text.split(" ")):
                for j, unit in enumerate(break_units(part) if part else [""]):
                    if k or j:  # a space, or a break between Chinese or Japanese characters
                        longest = max(longest, current)
                        current = 0.0
                    if unit:
                        current += styled_width(span, unit, size)
        longest = max(longest, current)
    return longest


def _style(span: Span) -> tuple:
    return (span.bold, span.italic, span.strike, span.code, span.href)


_PLAIN = _style(Span(""))


def _spans(text: str, bold: bool, italic: bool) -> Lines:
    """Inline-formatted text as lines of spans, emphasised throughout if asked."""
    lines: Lines = parse_lines(clean_text(text))
    if bold or italic:
        lines = [[_emphasise(s, bold, italic) for s in line] for line in lines]
    return lines


def _emphasise(span: Span, bold: bool, italic: bool) -> Span:
    return replace(span, bold=span.bold or bold, italic=span.italic or italic)


def centred_baseline(line_h: float, size: float) -> float:
    """Capitals centred in the line: the baseline sits half a cap height below the middle."""
    return line_h / 2 + CAP_HEIGHT * size / 2


def _stranded(st: SetText) -> bool:
    """Whether a wrapped text has a line so short next to the widest that it reads as a word
    left behind."""
    return len(st.lines) > 1 and any(
        0 < line.width < st.width * STRANDED_SHARE for line in st.lines
    )


def _stack(lines: tuple[SetLine, ...], size: float, *, fitted: bool = False) -> SetText:
    """Lines set one below the other, as one text."""
    width = max((line.width for line in lines), default=0.0)
    return SetText(lines, width, fsum(line.height for line in lines), size, fitted)
