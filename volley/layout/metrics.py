"""Text measurement from the bundled font tables.

Layout measures every label with these tables rather than with installed fonts, so a diagram
has the same geometry on every machine. The widths are Liberation's, which match Arial's; the
SVG asks for Arial first and falls back to Liberation Sans, so what is measured is what is drawn.
There is no kerning: renderers disagree about applying it, and it moves a label by a pixel or two.
"""

from __future__ import annotations

import re
import unicodedata
from bisect import bisect_right
from collections.abc import Callable
from functools import cache, lru_cache
from math import fsum

from volley.layout import metrics_data as _data

# The fonts other scripts are measured with, named after the Latin ones: a browser tries them
# before its own fallback, which on Linux may pick a font that has a script's letters but not
# its vowel signs (Noto Sans Grantha for Tamil), drawn as empty boxes.
SCRIPT_FAMILIES = ", ".join(_data.FALLBACK_FAMILIES)
FONT_FAMILY = f"Arial, 'Liberation Sans', Arimo, Helvetica, {SCRIPT_FAMILIES}, sans-serif"
MONO_FAMILY = "'Liberation Mono', Menlo, Consolas, 'DejaVu Sans Mono', monospace"
# The same for code that holds another script's letters (see `mono_family`): the script fonts
# come before DejaVu Sans Mono, which has Arabic letters of its own, drawn at a monospace
# advance, a quarter wider than the script's font that measured them.
MONO_SCRIPTS_FAMILY = MONO_FAMILY.replace(
    ", 'DejaVu Sans Mono'", f", {SCRIPT_FAMILIES}, 'DejaVu Sans Mono'"
)

_SANS = dict(zip(_data.METRIC_FIELDS, _data.METRICS["sans"], strict=True))
_MONO = dict(zip(_data.METRIC_FIELDS, _data.METRICS["mono"], strict=True))
_AVERAGE = _data.METRIC_FIELDS.index("average")

# Vertical metrics in em (the font's own, as browsers use them to place a baseline).
ASCENT: float = _SANS["ascent"]
DESCENT: float = _SANS["descent"]
CAP_HEIGHT: float = _SANS["cap_height"]
X_HEIGHT: float = _SANS["x_height"]
MONO_ASCENT: float = _MONO["ascent"]
MONO_DESCENT: float = _MONO["descent"]

# Baseline-to-baseline distance in em for multi-line text. The fonts' own is 1.15 em
# (ascent + descent + line gap); a little more leading keeps wrapped labels readable.
LINE_HEIGHT: float = 1.25

WIDE_EM = 1.0  # East Asian wide/fullwidth characters
# An emoji's width: a colour emoji font's emoji are wider than an em (Noto Color Emoji's, which
# Linux, Android and ChromeOS draw with, are 1.245 em), and a label whose runs were placed an em
# apart would be drawn with the emoji touching the run after it.
EMOJI_EM = 1.25

_FACE_NAMES = {
    (False, False, False): "sans",
    (True, False, False): "sans-bold",
    (False, True, False): "sans-italic",
    (True, True, False): "sans-bolditalic",
    (False, False, True): "mono",
    # Liberation Mono's bold and italics have the regular advances (scripts/gen_metrics.py
    # checks), so one table serves every mono face.
    (True, False, True): "mono",
    (False, True, True): "mono",
    (True, True, True): "mono",
}

_tables: dict[str, _Widths] = {}
_DIGIT = {ch: i for i, ch in enumerate(_data.ALPHABET)}
_ZWJ = "\u200d"
_VS16 = "\ufe0f"
_KEYCAP, _KEYCAP_BASES = "\u20e3", tuple("0123456789#*")
# Signs after which a consonant is drawn under the one before it and takes no room (Khmer's
# coeng, Myanmar's stacker); Khmer's RO goes before its consonant instead, and after Myanmar's
# asat the stacker makes a kinzi: the NGA before goes above. (After Tai Tham's sakot, a third
# of its consonants take room beside the one before in Noto's font: measured as written.)
_STACKERS = ("\u17d2", "\u1039")
# Conjuncts of the Indic scripts (a consonant, a virama, a consonant), as their fonts draw
# them: in Devanagari, Bengali, Gurmukhi, Gujarati and Oriya the first consonant takes its
# half form, about half as wide, and the virama is not drawn (`स्त`); in Telugu and Kannada
# the second goes under the first, reaching out beside it (in Noto's fonts, by more than half its
# width in Telugu, a fifth in Kannada), except that Kannada's RA starting a cluster becomes
# the small arkavattu after it, its consonant drawn whole (`ಧರ್ಮ`). Tamil's and Sinhala's
# show their virama, and Malayalam's conjuncts vary: those are measured as written.
_HALF_FORM_VIRAMAS = frozenset("\u094d\u09cd\u0a4d\u0acd\u0b4d")
_SUBJOINED = {"\u0c4d": 0.6, "\u0ccd": 0.2}  # by the virama
_VIRAMAS = "[\u094d\u09cd\u0a4d\u0acd\u0b4d\u0c4d\u0ccd]"
_HALF_FORM = 0.5
_KANNADA_RA, _ARKAVATTU = "\u0cb0", 0.4
_NUKTA = 7  # the canonical combining class of a nukta, the dot that makes a new consonant
_BESIDE_WHEN_STACKED = "\u179a"
_KINZI = "\u103a\u1039"


def mono_family(text: str) -> str:
    """The font stack for a line of code: the mono fonts alone where the mono face measures
    every character (ASCII, Latin, Greek, Cyrillic, Hebrew), else the script fonts too, which
    measured the rest (every code line carries its family, so they are named only where they
    may be needed; a browser's own fallback may draw a Tamil word as empty boxes)."""
    if text.isascii():
        return MONO_FAMILY
    table = _table("mono")
    return MONO_FAMILY if all(table.width(ch) is not None for ch in text) else MONO_SCRIPTS_FAMILY


def line_height(size: float) -> float:
    """Baseline-to-baseline distance for text of this font size, in px."""
    return size * LINE_HEIGHT


class _Widths(dict[str, float]):
    """Advance widths in em by character, decoded from the packed table a run at a time, on
    the first lookup in that run: a diagram meets a run or two (ASCII, Latin-1), and decoding
    all of a face's would cost every process a few tenths of a millisecond per face.

    A character in no run raises KeyError, as a plain dict would; `width` is the `get` that
    decodes (`dict.get` does not).
    """

    def __init__(self, encoded: str, wider: dict[int, int]) -> None:
        super().__init__()
        self._runs = encoded.split(_data.RUN_MARK)[1:]
        self._starts = [_number(run[:3]) for run in self._runs]
        self._decoded = [False] * len(self._runs)
        self._wider = {chr(cp): width / 1000 for cp, width in wider.items()}  # past two digits

    def __missing__(self, ch: str) -> float:
        k = bisect_right(self._starts, ord(ch)) - 1
        if k < 0 or self._decoded[k]:
            raise KeyError(ch)
        run, start = self._runs[k], self._starts[k]
        widths = {
            chr(start + offset): self._wider.get(chr(start + offset))
            or _number(run[pos : pos + 2]) / 1000
            for offset, pos in enumerate(range(3, len(run), 2))
        }
        # Published whole, then flagged: a thread that looks up the run meanwhile decodes it
        # again (the same values) rather than finding it half filled.
        self.update(widths)
        self._decoded[k] = True
        return self[ch]  # KeyError when the run does not reach it

    def width(self, ch: str) -> float | None:
        """The character's width, or None when the font has no glyph for it."""
        try:
            return self[ch]
        except KeyError:
            return None


def _number(digits: str) -> int:
    """A number written in ALPHABET's base-64 digits, most significant first."""
    value = 0
    for ch in digits:
        value = value * 64 + _DIGIT[ch]
    return value


def _table(face: str) -> _Widths:
    """Widths in em by character, for one face; nothing is decoded at import."""
    table = _tables.get(face)
    if table is None:
        table = _tables[face] = _Widths(_data.WIDTHS[face], _data.WIDER.get(face, {}))
    return table


def in_own_face(text: str, *, bold: bool = False, italic: bool = False, mono: bool = False) -> bool:
    """Whether every character of the text has a width in the diagram's own face (Liberation's,
    which are Arial's): measured as any browser draws it. Another script's width is one
    font's among the several a reader's system may draw it with."""
    if text.isascii():  # (the face has every character ASCII prints)
        return True
    table = _table(_FACE_NAMES[bold, italic, mono])
    try:
        for ch in text:
            table[ch]
    except KeyError:
        return False
    return True


def text_width(
    text: str, size: float, *, bold: bool = False, italic: bool = False, mono: bool = False
) -> float:
    """Advance width of a single line of text at font size `size`, in px."""
    return measurer(size, bold, italic, mono)(text)


@lru_cache(maxsize=256)
def measurer(size: float, bold: bool, italic: bool, mono: bool) -> Callable[[str], float]:
    """The width in px of a line of text at one size in one face: what `text_width` gives, for
    measuring the many words of one span."""
    face = _FACE_NAMES[bold, italic, mono]
    table = _table(face)
    em_of = table.__getitem__
    average = _data.METRICS[face][_AVERAGE]
    other_scripts = "fallback-bold" if bold else "fallback"  # other scripts (gen_metrics.py)

    def width(text: str) -> float:
        try:
            return fsum(map(em_of, text)) * size
        except KeyError:
            return _slow_em(text, table, average, other_scripts) * size

    return width


def is_emoji(cp: int) -> bool:
    """Pictographs and symbols measured as wide as a colour emoji (1.25 em): the emoji blocks,
    and the emoji of the symbol blocks before them, where a browser draws some as emoji and
    some as text (⌨, ✂, which then have room to spare, never too little). The others there
    (✓ ★ ⌘ ➜) are no emoji: a text font draws them, as wide as it makes them."""
    return 0x1F000 <= cp <= 0x1FAFF or cp in _SYMBOL_EMOJI


# Of the symbols below U+1F000, the ones Unicode draws as emoji by default (Emoji_Presentation,
# in emoji-data.txt), which the raster path draws from the emoji font; the rest, such as
# ☺ ✂ ✈ ➡ ⌨ ⬅, are drawn as text unless U+FE0F follows.
EMOJI_PRESENTATION = (
    (0x231A, 0x231B), (0x23E9, 0x23EC), (0x23F0, 0x23F0), (0x23F3, 0x23F3), (0x25FD, 0x25FE),
    (0x2614, 0x2615), (0x2648, 0x2653), (0x267F, 0x267F), (0x2693, 0x2693), (0x26A1, 0x26A1),
    (0x26AA, 0x26AB), (0x26BD, 0x26BE), (0x26C4, 0x26C5), (0x26CE, 0x26CE), (0x26D4, 0x26D4),
    (0x26EA, 0x26EA), (0x26F2, 0x26F3), (0x26F5, 0x26F5), (0x26FA, 0x26FA), (0x26FD, 0x26FD),
    (0x2705, 0x2705), (0x270A, 0x270B), (0x2728, 0x2728), (0x274C, 0x274C), (0x274E, 0x274E),
    (0x2753, 0x2755), (0x2757, 0x2757), (0x2795, 0x2797), (0x27B0, 0x27B0), (0x27BF, 0x27BF),
    (0x2B1B, 0x2B1C), (0x2B50, 0x2B50), (0x2B55, 0x2B55),
)  # fmt: skip
# The emoji among the symbols (U+2300-23FF, U+2600-27BF, U+2B00-2BFF), whichever way they are
# drawn by default: Unicode's Emoji property (emoji-data.txt), what a colour emoji font such as
# Noto's draws there. With those drawn as emoji anywhere, the symbols measured as emoji.
_SYMBOL_BLOCKS_EMOJI = (
    (0x231A, 0x231B), (0x2328, 0x2328), (0x23CF, 0x23CF), (0x23E9, 0x23F3), (0x23F8, 0x23FA),
    (0x2600, 0x2604), (0x260E, 0x260E), (0x2611, 0x2611), (0x2614, 0x2615), (0x2618, 0x2618),
    (0x261D, 0x261D), (0x2620, 0x2620), (0x2622, 0x2623), (0x2626, 0x2626), (0x262A, 0x262A),
    (0x262E, 0x262F), (0x2638, 0x263A), (0x2640, 0x2640), (0x2642, 0x2642), (0x2648, 0x2653),
    (0x265F, 0x2660), (0x2663, 0x2663), (0x2665, 0x2666), (0x2668, 0x2668), (0x267B, 0x267B),
    (0x267E, 0x267F), (0x2692, 0x2697), (0x2699, 0x2699), (0x269B, 0x269C), (0x26A0, 0x26A1),
    (0x26A7, 0x26A7), (0x26AA, 0x26AB), (0x26B0, 0x26B1), (0x26BD, 0x26BE), (0x26C4, 0x26C5),
    (0x26C8, 0x26C8), (0x26CE, 0x26CF), (0x26D1, 0x26D1), (0x26D3, 0x26D4), (0x26E9, 0x26EA),
    (0x26F0, 0x26F5), (0x26F7, 0x26FA), (0x26FD, 0x26FD), (0x2702, 0x2702), (0x2705, 0x2705),
    (0x2708, 0x270D), (0x270F, 0x270F), (0x2712, 0x2712), (0x2714, 0x2714), (0x2716, 0x2716),
    (0x271D, 0x271D), (0x2721, 0x2721), (0x2728, 0x2728), (0x2733, 0x2734), (0x2744, 0x2744),
    (0x2747, 0x2747), (0x274C, 0x274C), (0x274E, 0x274E), (0x2753, 0x2755), (0x2757, 0x2757),
    (0x2763, 0x2764), (0x2795, 0x2797), (0x27A1, 0x27A1), (0x27B0, 0x27B0), (0x27BF, 0x27BF),
    (0x2B05, 0x2B07), (0x2B1B, 0x2B1C), (0x2B50, 0x2B50), (0x2B55, 0x2B55),
)  # fmt: skip
_SYMBOL_EMOJI = frozenset(
    cp for low, high in (*_SYMBOL_BLOCKS_EMOJI, *EMOJI_PRESENTATION) for cp in range(low, high + 1)
)


_unknown: dict[tuple[str, float, str], tuple[float, bool]] = {}
# Dashes whose width is their meaning, in em, which no measured font has (a two-em dash marks
# letters left out of a word, a three-em dash a word)
_LONG_DASHES = {"\u2e3a": 2.0, "\u2e3b": 3.0}


def _classify(ch: str, average: float, other_scripts: str) -> tuple[float, bool]:
    """Width in em and whether it is an emoji, for a character missing from the face's table;
    `other_scripts` names the table of other scripts' widths for the face's weight."""
    key = (ch, average, other_scripts)
    hit = _unknown.get(key)
    if hit is not None:
        return hit
    cp = ord(ch)
    category = unicodedata.category(ch)
    if category in ("Mn", "Me"):  # on its letter, but for a few a script draws beside it
        result = (_table(other_scripts).width(ch) or 0.0, False)
    elif category in ("Cf", "Cc") or 0xE0000 <= cp <= 0xE007F:
        result = (0.0, False)
    elif 0x1160 <= cp <= 0x11FF or 0xD7B0 <= cp <= 0xD7FF:
        # Hangul's vowel and final jamo, drawn into the syllable their first jamo starts (as
        # text copied from a Mac's file names spells 한: ᄒ, ᅡ, ᆫ), as wide as one
        result = (0.0, False)
    elif is_emoji(cp):
        result = (EMOJI_EM, True)
    elif unicodedata.east_asian_width(ch) in ("W", "F"):
        result = (WIDE_EM, False)
    else:  # another script's letter: as Noto Sans (or DejaVu Sans) draws it, or a guess
        width = _table(other_scripts).width(ch)
        width = _LONG_DASHES.get(ch, average) if width is None else width
        result = (width, False)
    _unknown[key] = result
    return result


# A joining letter's sides (`metrics_data.JOINING`): it joins the letter before, the one after.
_JOINS_BEFORE, _JOINS_AFTER = 1, 2
_JOIN_CAUSING = ("\u200d", "\u0640")  # ZWJ and the tatweel join whatever joins them
# Arabic to Adlam, and Mongolian
_JOINING_SCRIPTS = "[\u0600-\u08ff\u1800-\u18af\U0001e900-\U0001e95f]"


@cache
def _joining(other_scripts: str) -> dict[str, tuple[int, float, float, float, float]]:
    """The joining letters of a fallback table: (sides, alone, first, inside, last), in em."""
    out = {}
    for run in _data.JOINING[other_scripts].split(_data.RUN_MARK)[1:]:
        start = _number(run[:3])
        for k, at in enumerate(range(3, len(run), 9)):
            alone, first, inside, last = (
                _number(run[i : i + 2]) / 1000 for i in range(at + 1, at + 9, 2)
            )
            out[chr(start + k)] = (_number(run[at]), alone, first, inside, last)
    return out


def _joined_em(text: str, other_scripts: str) -> dict[int, float]:
    """The width in em of each joining letter of `text`, by its index, in the form its
    neighbours give it: Arabic's letters are drawn half as wide inside a word as alone. Marks
    between two letters do not part them (Unicode's joining rules)."""
    forms = _joining(other_scripts)

    def joins(ch: str, side: int) -> bool:
        return ch in _JOIN_CAUSING or (ch in forms and forms[ch][0] & side != 0)

    letters = [(i, ch) for i, ch in enumerate(text) if not _transparent(ch)]
    out = {}
    for k, (i, ch) in enumerate(letters):
        form = forms.get(ch)
        if form is None:
            continue
        before = form[0] & _JOINS_BEFORE and k > 0 and joins(letters[k - 1][1], _JOINS_AFTER)
        after = form[0] & _JOINS_AFTER and k + 1 < len(letters)
        after = after and joins(letters[k + 1][1], _JOINS_BEFORE)
        out[i] = form[(1, 4, 2, 3)[bool(before) + 2 * bool(after)]]  # alone, last, first, inside
    return out


def _conjunct_shares(text: str) -> dict[int, float]:
    """The share of its width each character of the text's conjuncts takes (see
    `_HALF_FORM_VIRAMAS`), by its index: a virama between two letters of its own script (the
    first one's nukta, `ज़्य`, passed over); one with no such letter after it is drawn whole."""
    shares = {}
    for i, ch in enumerate(text[:-1]):
        if ch not in _HALF_FORM_VIRAMAS and ch not in _SUBJOINED:
            continue
        before = i - 1
        while before > 0 and unicodedata.combining(text[before]) == _NUKTA:
            before -= 1
        if before < 0 or not (_same_script_letter(ch, text[before], text[i + 1])):
            continue
        if ch in _HALF_FORM_VIRAMAS:
            shares[before], shares[i] = _HALF_FORM, 0.0
        elif text[before] == _KANNADA_RA and (before == 0 or text[before - 1] not in _SUBJOINED):
            shares[before] = _ARKAVATTU  # the consonant after it keeps its whole width
        else:
            shares[i + 1] = _SUBJOINED[ch]
    return shares


def _same_script_letter(virama: str, *letters: str) -> bool:
    """Whether the letters are of the virama's script: each Indic script has a block of 128."""
    return all(
        ord(letter) >> 7 == ord(virama) >> 7 and unicodedata.category(letter) == "Lo"
        for letter in letters
    )


def _transparent(ch: str) -> bool:
    """Whether joining passes over the character: a mark, or a format character but the
    joiners (ZWJ joins, ZWNJ parts)."""
    category = unicodedata.category(ch)
    return category in ("Mn", "Me") or (category == "Cf" and ch not in ("\u200d", "\u200c"))


def _slow_em(text: str, table: _Widths, average: float, other_scripts: str) -> float:
    """Width in em of text with characters outside the table, emoji sequences as one glyph."""
    joined = _joined_em(text, other_scripts) if re.compile(_JOINING_SCRIPTS).search(text) else {}
    shares = _conjunct_shares(text) if re.compile(_VIRAMAS).search(text) else {}
    total = 0.0
    last_width = 0.0  # of the last visible character, which VS16 may widen
    last_emoji = False
    after_zwj = False  # the previous character was a ZWJ
    flag_half = False  # an unpaired regional indicator precedes
    stacked = False  # the previous character was a stacker: this letter goes under
    previous = ""
    for i, ch in enumerate(text):
        if stacked and ch != _BESIDE_WHEN_STACKED:
            stacked, previous = False, ch
            continue
        stacked = ch in _STACKERS and previous + ch != _KINZI
        previous = ch
        if ch == _ZWJ:
            after_zwj = True
            continue
        cp = ord(ch)
        if 0xFE00 <= cp <= 0xFE0F or (ch == _KEYCAP and text[i - 1 : i] in _KEYCAP_BASES):
            if ch in (_VS16, _KEYCAP) and not last_emoji and last_width:
                # Emoji presentation of a text character such as "©" or a keycap digit (`1⃣`
                # without its selector too, drawn as the key: volley.output.svg adds it)
                total += EMOJI_EM - last_width
                last_width, last_emoji = EMOJI_EM, True
            continue
        width = joined.get(i) or table.width(ch)
        emoji = False
        if width is None:
            width, emoji = _classify(ch, average, other_scripts)
        width *= shares.get(i, 1.0)
        if not width:
            continue
        regional = 0x1F1E6 <= cp <= 0x1F1FF
        if last_emoji and (
            (after_zwj and emoji) or 0x1F3FB <= cp <= 0x1F3FF or (regional and flag_half)
        ):
            width = 0.0  # part of the previous emoji: ZWJ sequence, skin tone, or flag
            flag_half = False
        else:
            flag_half = regional
            last_width, last_emoji = width, emoji
        total += width
        after_zwj = False
    return total
