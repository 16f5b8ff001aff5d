"""Right-to-left text for PNG and PDF: Hebrew and Arabic in the order and shapes a browser draws.

cairo, under cairosvg, draws a run of text one glyph per character, left to right, in the
order the characters are stored: it neither applies the Unicode bidirectional algorithm nor
joins Arabic letters, so "שלום" would come out as "םולש" and Arabic reversed and unjoined. A
browser does both. So before the SVG reaches cairo, each run of text that holds right-to-left
characters gets Arabic's joined letter forms (arabic-reshaper) and is then put in the order it
is seen in (python-bidi), as renderers without text shaping do.

The base direction is left to right, as SVG text has unless told otherwise: a label that
starts in English keeps its order and only its Arabic or Hebrew words are turned round. The
runs of a paragraph that starts in Hebrew or Arabic come as isolates (RLI or FSI … PDI, see
`volley.output.svg`), which python-bidi reads as a browser does: such a run reads right to left
as a whole. Each run is a paragraph of its own, as a browser treats it: volley places every run
of a line at its own x.

python-bidi reorders (rules L1 and L2 of the algorithm) but leaves two things to the renderer
(its issue #25): a bracket in a reversed run must be drawn as its mirror image (`_mirrored`),
and a combining mark in a reversed run ends up before its letter. Which side of its letter a
mark must be drawn on depends on the font: cairo draws a mark where the font's outline puts
it, which some fonts (Liberation's Hebrew) put back over the glyph before, others (DejaVu's
Hebrew and Arabic) forward over the glyph after. So `visual_order` keeps each mark after its
letter, where the font fallback sees which font draws both, and `marks_before_letters` moves
those the font draws forward.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable
from functools import cache

from volley.layout.typeset import right_to_left

_STRONG_RTL = {"R", "AL"}
_NUMBERS = {"EN", "AN"}
_OPENERS = {"(": ")", "[": "]", "{": "}"}
_CLOSERS = {close: open_ for open_, close in _OPENERS.items()}


@cache
def _reshaper():
    """Arabic letters to their joined forms, keeping the vowel marks a user wrote (the
    library's default drops them)."""
    from arabic_reshaper import ArabicReshaper

    return ArabicReshaper(configuration={"delete_harakat": False})


def visual_order(text: str, can_draw: Callable[[str], bool]) -> str:
    """`text` as cairo must draw it, left to right: every run in its place, and Arabic
    joined if `can_draw` all its joined forms (unjoined letters read better than boxes)."""
    from bidi import get_display

    # An emoji written as a sequence is one picture: the reshaper would drop its joiners, and
    # reordering would reverse its parts (👩‍💻 as 💻 and 👩), so each is left out of the one and
    # goes in a left-to-right isolate, which the other moves whole. Only a sequence of
    # pictographs (neutral to the reordering) needs it: a keycap's digit and a flag's letters
    # already keep their order, and count as the number and the letters they are.
    parts = _EMOJI_SEQUENCE.split(text)  # text, a sequence, text, …
    texts = parts[::2]
    reshaped = [_reshaper().reshape(part) for part in texts]
    if not all(can_draw(ch) for ch in set("".join(reshaped)) - set("".join(texts))):
        reshaped = texts
    parts[::2] = reshaped
    parts[1::2] = [f"\u2066{sequence}\u2069" for sequence in parts[1::2]]
    visual = get_display("".join(parts), base_dir="L")
    return _mirrored(_marks_after_letters(visual), _in_right_to_left_isolate(text))


# A pictograph with what makes it one emoji with it: selectors, skin tones, the tag letters of a
# subdivision flag, or a zero-width joiner and the next pictograph. Or a symbol that the emoji
# selector makes one (©️, ™️, ↔️), or a keycap on # or * (#️⃣): neutral to the reordering, they
# would be reversed with their selector and frame, which then draw apart. A digit's keycap
# (1️⃣) is a number, in the order a number keeps.
_PICTOGRAPH = "\u2600-\u27bf\u2b00-\u2bff\U0001f000-\U0001faff"
_EMOJI_SEQUENCE = re.compile(
    f"([{_PICTOGRAPH}](?:[\ufe0e\ufe0f\U0001f3fb-\U0001f3ff\U000e0020-\U000e007f]"
    f"|\u200d[{_PICTOGRAPH}])+|[^\\s\\w]\ufe0f\u20e3?|[#*]\u20e3)"
)


def _in_right_to_left_isolate(text: str) -> bool:
    """Whether the text is one isolate that reads right to left: an RLI … PDI, or an FSI … PDI
    whose first letter is a right-to-left one."""
    if text[:1] == "\u2067":
        return True
    return text[:1] == "\u2068" and right_to_left(text[1:])


# Directional formatting characters (marks, embeddings, isolates): they steer the order of
# the text around them, and draw nothing. Cairo draws a box for each, so once the text is in
# visual order they are left out.
_BIDI_CONTROLS = re.compile("[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def without_bidi_controls(text: str) -> str:
    """The text without directional formatting characters: what cairo is to draw of it."""
    return _BIDI_CONTROLS.sub("", text)


def _marks_after_letters(visual: str) -> str:
    """Combining marks put back after the right-to-left letter they sit on, in the order they
    were written: reversing "letter, marks" gave "marks, letter"."""
    out: list[str] = []
    marks: list[str] = []
    for ch in visual:
        kind = unicodedata.bidirectional(ch)
        if kind == "NSM":
            marks.append(ch)
            continue
        if marks and kind in _STRONG_RTL:
            out += [ch, *reversed(marks)]
        else:
            out += [*marks, ch]
        marks = []
    return "".join(out + marks)


def marks_before_letters(text: str, reaches_forward: Callable[[str], bool]) -> str:
    """`text` with each combining mark that `reaches_forward` (its font draws it over the glyph
    that follows) moved before the right-to-left letter it sits on."""
    out: list[str] = []
    for ch in text:
        if unicodedata.bidirectional(ch) == "NSM" and reaches_forward(ch):
            at = len(out)
            while at and unicodedata.bidirectional(out[at - 1]) == "NSM":
                at -= 1  # past the marks already moved, or staying, on this letter
            if at and unicodedata.bidirectional(out[at - 1]) in _STRONG_RTL:
                out.insert(at - 1, ch)
                continue
        out.append(ch)
    return "".join(out)


# Right-to-left letters drawn right a glyph per character once arabic-reshaper has joined them:
# Hebrew's, and Arabic's with its presentation forms. Other scripts' letters that join (Syriac,
# N'Ko, Mandaic, Adlam ...) it leaves unjoined.
_JOINED_BY_THE_RESHAPER = re.compile(
    "[\u0590-\u06ff\u0750-\u077f\u0870-\u08ff\ufb1d-\ufdff\ufe70-\ufeff]"
)


def needs_shaping(piece: str) -> bool:
    """Whether a right-to-left piece must be shaped by its font rather than drawn a glyph per
    character: it holds a combining mark (niqqud, harakat: the font puts each on its letter,
    where cairo would put it between two), or letters of a joining script arabic-reshaper
    does not know."""
    for ch in piece:
        if unicodedata.category(ch) in ("Mn", "Me"):
            return True
        if unicodedata.bidirectional(ch) in _STRONG_RTL and not _JOINED_BY_THE_RESHAPER.match(ch):
            return True
    return False


def logical_order(visual: str) -> str:
    """A right-to-left piece as `visual_order` leaves it (in the order it is seen, each letter
    followed by its marks) back in the order it was written, for a shaper that lays out right
    to left itself: its letters turned round with their marks, and its mirrored characters
    given back (such a shaper mirrors them again)."""
    from bidi.mirror import MIRRORED

    clusters: list[str] = []
    for ch in visual:
        if clusters and unicodedata.category(ch) in ("Mn", "Me"):
            clusters[-1] += ch
        else:
            clusters.append(ch)
    return "".join([MIRRORED.get(ch, ch) for ch in "".join(reversed(clusters))])


def _mirrored(visual: str, rtl: bool = False) -> str:
    """Brackets, `<`, `>`, `«` and the like that read right to left, drawn as their mirror.

    A pair of brackets whose closing one comes first was turned round with the text it holds.
    Any other mirrored character reads right to left when the nearest letters on both its
    sides are right-to-left ones (numbers count with them: they sit inside such a run), or, in
    text that reads right to left as a whole (`rtl`), when they are not both left-to-right:
    between two directions a character takes the text's own.
    """
    from bidi.mirror import MIRRORED

    flip: set[int] = set()
    paired: set[int] = set()
    open_: list[int] = []  # brackets not yet paired, as the text is read
    for i, ch in enumerate(visual):
        if ch not in _OPENERS and ch not in _CLOSERS:
            continue
        top = visual[open_[-1]] if open_ else ""
        if _CLOSERS.get(top) == ch or _OPENERS.get(top) == ch:
            pair = (open_.pop(), i)
            paired.update(pair)
            if top in _CLOSERS:  # ")" then "(": a pair turned round with what it holds
                flip.update(pair)
        else:
            open_.append(i)
    alone = [i for i, ch in enumerate(visual) if ch in MIRRORED and i not in paired]
    for i in alone:
        before, after = _rtl_side(visual[:i][::-1], rtl), _rtl_side(visual[i + 1 :], rtl)
        if before if before == after else rtl:
            flip.add(i)
    return "".join(MIRRORED[ch] if i in flip else ch for i, ch in enumerate(visual))


def _rtl_side(chars: str, rtl: bool) -> bool:
    """Whether the first letter or number of `chars` is right-to-left; the end of the text
    counts as its base direction (`rtl`)."""
    for ch in chars:
        kind = unicodedata.bidirectional(ch)
        if kind == "L":
            return False
        if kind in _STRONG_RTL or kind in _NUMBERS:
            return True
    return rtl
