"""Measuring and wrapping lines of styled spans.

Layout decides box sizes from these widths, so they must agree with what the renderer draws:
code in the mono face at CODE_SCALE of the size, icons as tall as the font size and as wide
as their viewBox ratio, everything else in the sans face of the span's weight and slant.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import cache, lru_cache
from math import fsum
from typing import TYPE_CHECKING

from volley.layout.metrics import measurer
from volley.text.inline import IconRef, Span

if TYPE_CHECKING:
    import budoux

CODE_SCALE = 0.92  # code spans are set a little smaller: mono glyphs look large beside sans
MISSING_ICON_EM = 1.0  # room kept for an icon that cannot be drawn (its warning names it)


@dataclass(slots=True)
class WrappedLine:
    """One line as drawn: its spans (merged where styles allow) and its width in px."""

    spans: list[Span]
    width: float


def icon_width(ref: IconRef, size: float) -> float:
    """Width of an icon drawn `scale * size` tall."""
    return ref.scale * size * _icon_ratio(ref.prefix, ref.name)


@lru_cache(maxsize=1024)
def _icon_ratio(prefix: str, name: str) -> float:
    """Width over height of the icon drawn for `{prefix-name}`; cached (bounded: the names come
    from users, and a server meets many), since resolving an icon (following renames and
    fallbacks) costs more than the rest of measuring a label."""
    from volley.text.icons import resolve_icon  # only diagrams that show an icon need the module

    icon = resolve_icon(IconRef(prefix, name))
    return icon.width / icon.height if icon else MISSING_ICON_EM


def span_width(span: Span, size: float, mono_size: float | None = None) -> float:
    """Width of one span in px."""
    return styled_width(span, span.text, size, mono_size)


def styled_width(span: Span, text: str, size: float, mono_size: float | None = None) -> float:
    """Width of `text` set in the style of `span` (its own text or a piece of it)."""
    return styled_measurer(span, size, mono_size)(text)


def styled_measurer(
    span: Span, size: float, mono_size: float | None = None
) -> Callable[[str], float]:
    """The width of a piece of `span`'s text, as `styled_width` gives it, for all its pieces."""
    if span.icon is not None:
        width = icon_width(span.icon, size)
        return lambda _text: width
    if span.code:
        code_size = mono_size if mono_size is not None else size * CODE_SCALE
        return measurer(code_size, span.bold, False, True)
    return measurer(size, span.bold, span.italic, False)


def measure_spans(spans: list[Span], size: float, mono_size: float | None = None) -> float:
    """Width of a line of spans in px."""
    return fsum(span_width(span, size, mono_size) for span in spans)


_RUNS = re.compile(r" +|[^ ]+")
# Chinese and Japanese are written without spaces: a line may break between any two of their
# characters (Unicode's line breaking class ID), except before closing punctuation, a small
# kana or the long vowel mark, and after opening punctuation (kinsoku). Korean, which spaces
# its words, breaks at spaces.
_NO_BREAK_BEFORE = frozenset(
    "、。，．・：；？！ー…‥）］｝〕〉》」』】〙〗〟’”｠»ヽヾゝゞ々〻"
    "ぁぃぅぇぉっゃゅょゎゕゖァィゥェォッャュョヮヵヶㇰㇱㇲㇳㇴㇵㇶㇷㇸㇹㇺㇻㇼㇽㇾㇿ"
    ")]},.:;!?%"
)
_NO_BREAK_AFTER = frozenset("（［｛〔〈《「『【〘〖〝‘“｟«([{")
# Where a word too wide for a line breaks best: after these (host names, paths, queries).
_BREAK_AFTER = frozenset("./-_?&=,;:")

# A piece of a line: the span it comes from (for its style), its text, and its width.
Piece = tuple[Span, str, float]


def clusters(text: str) -> list[str]:
    """Characters grouped so that a break never splits what a reader sees as one letter or
    symbol: a mark and its base (`é`, Devanagari `कि`), a consonant joined through a virama
    (`क्ष`), Thai `ำ`, Hangul jamo, an emoji sequence, a flag."""
    found: list[str] = []
    for ch in text:
        if found and _extends(found[-1], ch):
            found[-1] += ch
            if ch == _ASAT and len(found) > 1 and _killed_consonant(found[-1]):
                # a Myanmar consonant its asat kills ends the syllable before it (`လုပ်`)
                killed = found.pop()
                found[-1] += killed
        else:
            found.append(ch)
    return found


_ASAT = "\u103a"  # MYANMAR SIGN ASAT


def _killed_consonant(cluster: str) -> bool:
    """A consonant with its asat, and any other signs on it (`ည့်`, the dot below first)."""
    return unicodedata.category(cluster[0]) == "Lo" and all(
        unicodedata.category(sign) in ("Mn", "Mc") for sign in cluster[1:]
    )


# Thai's and Lao's vowels written after their consonant as letters of their own (ะ า ๅ, ະ າ):
# a line never starts with one.
_FOLLOWING_VOWELS = frozenset((0x0E30, 0x0E32, 0x0E33, 0x0E45, 0x0EB0, 0x0EB2, 0x0EB3))


def _extends(cluster: str, ch: str) -> bool:
    """Whether `ch` belongs to the cluster before it (a close reading of Unicode's grapheme
    cluster rules, UAX #29, for the characters labels hold)."""
    cp = ord(ch)
    last = cluster[-1]
    if unicodedata.category(ch) in ("Mn", "Mc", "Me"):  # marks, spacing vowel signs included
        return True
    if ch == "\u200d" or last == "\u200d":  # a zero-width joiner, and what it joins
        return True
    if ch in "\u200b\u2060" or last == "\u2060":  # a break goes after a zero-width space;
        return True  # none on either side of a word joiner
    if 0xFE00 <= cp <= 0xFE0F or 0x1F3FB <= cp <= 0x1F3FF or 0xE0020 <= cp <= 0xE007F:
        return True  # variation selectors, skin tones, tag sequences
    if cp in _FOLLOWING_VOWELS:  # Thai's and Lao's, SARA AM too, follow their consonant
        return True
    if 0x0E40 <= ord(last) <= 0x0E44 or 0x0EC0 <= ord(last) <= 0x0EC4:
        return True  # a Thai or Lao vowel written before its consonant (เ แ โ ใ ไ) stays with it
    if 0x1160 <= cp <= 0x11FF or 0xD7B0 <= cp <= 0xD7FF:  # Hangul vowel and final jamo
        return True
    if unicodedata.combining(last) == 9 and unicodedata.category(ch) == "Lo" and last != _ASAT:
        return True  # a consonant after a virama: one conjunct (Myanmar's asat stacks none)
    return (
        0x1F1E6 <= cp <= 0x1F1FF
        and len(cluster) == 1
        and 0x1F1E6 <= ord(last) <= 0x1F1FF  # the second letter of a flag
    )


def _ideographic(ch: str) -> bool:
    """Chinese and Japanese characters and their punctuation (CJK radicals to unified
    ideographs, compatibility ideographs, vertical and fullwidth forms, the supplementary
    ideographic planes)."""
    cp = ord(ch)
    return (
        0x2E80 <= cp <= 0x9FFF
        or 0xF900 <= cp <= 0xFAFF
        or 0xFE30 <= cp <= 0xFE4F
        or 0xFF00 <= cp <= 0xFF60
        or 0x20000 <= cp <= 0x3FFFF
    )


def break_units(word: str) -> list[str]:
    """A word (text without spaces) cut where a line may break inside it: after a zero-width
    space (how Khmer, Lao and Myanmar mark their word breaks), between Chinese and Japanese
    characters, keeping punctuation with the character it belongs to, and between Thai words.
    Any other word is one unit."""
    if word.isascii():
        return [word]
    parts = re.compile(_AFTER_ZERO_WIDTH_SPACE).split(word) if "\u200b" in word else [word]
    phrases = [phrase for part in parts if part for phrase in _phrases(part)]
    return [unit for phrase in phrases for unit in _ideographic_units(phrase)]


_AFTER_ZERO_WIDTH_SPACE = "(?<=\u200b)"


def _phrases(part: str) -> list[str]:
    return _thai_phrases(part) if _THAI.search(part) else [part]


# Thai writes no spaces between words, and a line broken at any letter cuts a word in two.
_THAI = re.compile("[\u0e01-\u0e5b]")


@cache
def _thai_parser() -> budoux.Parser:
    import budoux  # only diagrams with Thai text need it

    return budoux.load_default_thai_parser()


def _thai_phrases(word: str) -> list[str]:
    """`word` cut between Thai words, as BudouX (the phrase breaker Chrome uses) finds them.
    A cut it would make before a mark or a following vowel is not taken: that would split a
    letter from its vowel or tone."""
    phrases: list[str] = []
    for chunk in _thai_parser().parse(word):
        if phrases and _extends(phrases[-1], chunk[0]):
            phrases[-1] += chunk
        else:
            phrases.append(chunk)
    return phrases


def _ideographic_units(word: str) -> list[str]:
    if not any(map(_ideographic, word)):
        return [word]
    units: list[str] = []
    for cluster in clusters(word):
        if units and not _breaks_between(units[-1], cluster):
            units[-1] += cluster
        else:
            units.append(cluster)
    return units


def _breaks_between(before: str, after: str) -> bool:
    if after[0] in _NO_BREAK_BEFORE or before[-1] in _NO_BREAK_AFTER:
        return False
    return _ideographic(before[-1]) or _ideographic(after[0])


def _to_spans(pieces: list[Piece]) -> list[Span]:
    """Pieces back into spans: neighbouring pieces of one source span are joined again."""
    groups: list[tuple[Span, list[str]]] = []
    for span, text, _width in pieces:
        if groups and span is groups[-1][0] and span.icon is None:
            groups[-1][1].append(text)
        else:
            groups.append((span, [text]))
    return [_rejoin(span, texts) for span, texts in groups]


def _rejoin(span: Span, texts: list[str]) -> Span:
    text = texts[0] if len(texts) == 1 else "".join(texts)
    return span if text == span.text else replace(span, text=text)


def _width(pieces: list[Piece]) -> float:
    """The width of a word's or a space's pieces (mostly one, whose width it is)."""
    return pieces[0][2] if len(pieces) == 1 else fsum(piece[2] for piece in pieces)


class _Wrapper:
    """Greedy line filling over words; a word is a run of pieces without spaces between."""

    def __init__(self, max_width: float, size: float, mono_size: float | None) -> None:
        self.max_width, self.size, self.mono_size = max_width, size, mono_size
        self.out: list[WrappedLine] = []
        self.line: list[Piece] = []
        self.width = 0.0

    def piece(self, span: Span, text: str) -> Piece:
        return (span, text, styled_width(span, text, self.size, self.mono_size))

    def fits(self, span: Span) -> bool:
        """Whether the span fits on a line of its own."""
        return self.piece(span, span.text)[2] <= self.max_width

    def end_line(self) -> None:
        self.out.append(WrappedLine(_to_spans(self.line), self.width))
        self.line, self.width = [], 0.0

    def place(self, piece: Piece) -> None:
        self.line.append(piece)
        self.width += piece[2]

    def add_word(self, space: list[Piece], word: list[Piece]) -> None:
        space_width, word_width = _width(space), _width(word)
        if self.line and self.width + space_width + word_width > self.max_width:
            self.end_line()
        if self.line:
            for piece in space:
                self.place(piece)
        if self.width + word_width <= self.max_width:
            for piece in word:
                self.place(piece)
            return
        for piece in word:  # wider than a line: fill lines piece by piece, character by character
            if self.width + piece[2] <= self.max_width:
                self.place(piece)
            elif piece[0].icon is not None:
                if self.line:
                    self.end_line()
                self.place(piece)
            else:
                self.break_piece(piece)

    def break_piece(self, piece: Piece) -> None:
        """A word wider than a line, broken between characters: after the last `.`, `/`, `-`
        (…) of a line that is at least half full, as a host name or a path reads best, else
        after the last character that fits."""
        span = piece[0]
        chunk: list[tuple[str, float]] = []  # clusters not placed yet, with their widths
        chunk_width = 0.0
        for cluster in clusters(piece[1]):
            width = self.piece(span, cluster)[2]
            if self.width + chunk_width + width > self.max_width and (chunk or self.line):
                cut = self._break_after(chunk)
                if cut == len(chunk) > 1 and cluster in _BREAK_AFTER:
                    cut -= 1  # an overflowing `.` or `/` goes down with the character before it
                self.place_clusters(span, chunk[:cut])
                chunk = chunk[cut:]
                chunk_width = 0.0
                for _, kept in chunk:
                    chunk_width += kept
                self.end_line()
            chunk.append((cluster, width))
            chunk_width += width
        self.place_clusters(span, chunk)

    def _break_after(self, chunk: list[tuple[str, float]]) -> int:
        """How many of the clusters end the line: up to the last break character, if the line
        is at least half full there, else all of them."""
        filled = self.width
        best = len(chunk)
        for count, (cluster, width) in enumerate(chunk, 1):
            filled += width
            if cluster in _BREAK_AFTER and count < len(chunk) and filled >= self.max_width / 2:
                best = count
        return best

    def place_clusters(self, span: Span, clusters: list[tuple[str, float]]) -> None:
        if clusters:
            width = 0.0
            for _, each in clusters:
                width += each
            self.place((span, "".join(text for text, _ in clusters), width))

    def wrap(self, spans: list[Span]) -> None:
        """Wrap one source line; spaces at either end and at a wrap are dropped."""
        space: list[Piece] = []
        word: list[Piece] = []
        for span in spans:
            # An icon, and inline code that fits on a line, are kept whole: a code span broken
            # at its spaces would read as several, and its own spaces are its text (`  agent:`
            # indents a line of YAML).
            whole = span.icon is not None or (span.code and self.fits(span))
            runs = [span.text] if whole else _RUNS.findall(span.text)
            measure = styled_measurer(span, self.size, self.mono_size)
            for text in runs:
                if text[:1] == " " and not whole:
                    if word:
                        self.add_word(space, word)
                        space, word = [], []
                    space.append((span, text, measure(text)))
                elif whole:
                    word.append((span, text, measure(text)))
                else:
                    for k, unit in enumerate(break_units(text)):
                        if k:  # a place to break without a space (Chinese, Japanese)
                            self.add_word(space, word)
                            space, word = [], []
                        word.append((span, unit, measure(unit)))
        if word:
            self.add_word(space, word)
        self.end_line()


def wrap_spans(
    lines: list[list[Span]], max_width: float, size: float, mono_size: float | None = None
) -> list[WrappedLine]:
    """Wrap each line to `max_width` px, breaking at spaces.

    A word wider than a whole line is broken between characters (URLs, tokens, base64). Spaces
    at a wrap are dropped; an empty line stays an empty line.
    """
    wrapper = _Wrapper(max_width, size, mono_size)
    for spans in lines:
        texts = [span for span in spans if span.icon is None]
        trimmed = (
            not texts
            or (  # a code span's spaces are its text
                (texts[0].code or texts[0].text[:1] != " ")
                and (texts[-1].code or texts[-1].text[-1:] != " ")
            )
        )
        width = measure_spans(spans, size, mono_size) if trimmed else max_width + 1
        if width <= max_width:  # the common case: the line fits as it is
            wrapper.out.append(WrappedLine(list(spans), width))
        else:
            wrapper.wrap(spans)
    return wrapper.out
