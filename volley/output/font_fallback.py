"""Font fallback for PNG and PDF: every script and emoji the machine has a font for.

A browser drawing the SVG picks, character by character, the first installed font that has a
glyph. cairo draws each run of text with one face, so a Chinese name or an emoji in a label
would come out as empty boxes. Before the SVG reaches cairo, each text run is cut where its
characters need another font, and each piece gets that font's family: the first font, in
fontconfig's own fallback order for the diagram's face, whose character set holds the
character (emoji prefer a colour emoji font, as browsers do).

Layout still measures with the shipped metrics, so the picture's geometry never depends on
the machine; only the glyphs drawn do, and where text goes on after a piece drawn from its
glyphs (an emoji's picture, shaped outlines: `volley.output.shaping`), which is where the
installed fonts end the pieces before it.
"""

from __future__ import annotations

import html
import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache, partial

from volley.errors import Diagnostic
from volley.layout.bidi_levels import has_right_to_left
from volley.layout.metrics import EMOJI_EM, EMOJI_PRESENTATION
from volley.layout.metrics_data import FALLBACK_FAMILIES
from volley.output.rtl import (
    logical_order,
    marks_before_letters,
    needs_shaping,
    visual_order,
    without_bidi_controls,
)
from volley.output.shaping import (
    Outlines,
    clusters,
    emoji_font,
    fc_match,
    image,
    made_face,
    outlines,
    right_to_left_outlines,
)
from volley.output.svg_tags import escape, num

PRIMARY = "Liberation Sans"  # what the SVG's font-family resolves to where Arial is absent
EMOJI = "emoji"

# A leaf of text in the SVG volley writes: an element's opening tag, its text, its closing tag.
_LEAF = re.compile(r"(<(text|tspan)\b[^>]*>)([^<]+)(</\2>)")
# ZWJ, ZWNJ (Persian writes one inside words: shaped with its letters, it is no glyph),
# variation selectors, keycap
_JOINERS = {"\u200d", "\u200c", "\ufe0e", "\ufe0f", "\u20e3"}
_EMOJI_STYLE = {"\ufe0f", "\u20e3"}  # the emoji selector and the keycap: draw as an emoji
# A `<text>` tag's anchor, place and size, for a line drawn from its middle or end.
_ANCHORED = re.compile(r' text-anchor="(middle|end)"')
_X = re.compile(r' x="(-?[0-9.]+)"')
_Y = re.compile(r' y="(-?[0-9.]+)"')
_FILL = re.compile(r' fill="([^"]+)"')
_FAMILY = re.compile(r' font-family="([^"]+)"')
# A whole `<text>` element: its pictures are drawn after it.
_TEXT_ELEMENT = re.compile(r"(<text\b[^>]*>).*?</text>", re.S)
_SIZE = re.compile(r' font-size="([0-9.]+)"')


class MissingGlyphWarning(UserWarning):
    """Characters no installed font can draw: they show as empty boxes in PNG and PDF."""


@dataclass(frozen=True)
class Font:
    """One installed font family and the code points it holds."""

    family: str
    ranges: tuple[tuple[int, int], ...]

    def has(self, ch: str) -> bool:
        code = ord(ch)
        return any(low <= code <= high for low, high in self.ranges)


def _ranges(charset: str) -> tuple[tuple[int, int], ...]:
    """fontconfig's `%{charset}`, as `20-7e a0-17f 2000`, into inclusive ranges."""
    out = []
    for part in charset.split():
        low, _, high = part.partition("-")
        out.append((int(low, 16), int(high or low, 16)))
    return tuple(out)


@cache
def fallback_order(pattern: str) -> tuple[Font, ...]:
    """Installed fonts in the order fontconfig would try them for `pattern` (`fc-match -s`,
    which leaves out a font whose characters those before it have)."""
    return _listed("-s", pattern)


def _listed(which: str, pattern: str) -> tuple[Font, ...]:
    listing = fc_match(which, pattern, "-f", "%{family[0]}\t%{charset}\n")
    if listing is None:
        return ()
    fonts: dict[str, Font] = {}
    for line in listing.splitlines():
        family, _, charset = line.partition("\t")
        if family and family not in fonts:
            fonts[family] = Font(family, _ranges(charset))
    return tuple(fonts.values())


def _is_emoji(ch: str) -> bool:
    """Characters a browser draws from a colour emoji font by default: the pictographs from
    U+1F000 on, and those before it that Unicode presents as emoji (⭐ ⌛ ✅). The layout
    measures every emoji as emoji-wide (`is_emoji`), so one drawn as text has room too."""
    code = ord(ch)
    return 0x1F000 <= code <= 0x1FAFF or any(
        low <= code <= high for low, high in EMOJI_PRESENTATION
    )


@cache
def family_for(ch: str) -> str | None:
    """The family to draw `ch` with: None for the diagram's own face, "" when no font has it.
    As a browser draws the SVG: the first family its font-family names that has the character
    (the diagram's face, then each script's Noto Sans), then the fonts fontconfig offers."""
    primary = fallback_order(PRIMARY)
    if primary and primary[0].has(ch) and not _is_emoji(ch):
        return None
    order = (fallback_order(EMOJI) + primary) if _is_emoji(ch) else _named_first()
    for font in order:
        if font.has(ch):
            return None if font is primary[0] else font.family
    return ""


def _drawable(ch: str) -> bool:
    """Whether an installed font has `ch` (or, without fontconfig, whether that is unknown)."""
    return not fallback_order(PRIMARY) or family_for(ch) != ""


# cairo refuses a whole string that holds a Unicode noncharacter (U+FDD0 to U+FDEF, and the last
# two code points of every plane), though XML allows them; one in a label must not cost the
# picture, so the rasteriser draws them as U+FFFD, like the characters XML forbids. Compiled on
# first use: pdf.py imports the raster modules before it knows it will draw a page.
@cache
def noncharacters() -> re.Pattern[str]:
    planes = range(0, 0x110000, 0x10000)
    return re.compile(
        "[\ufdd0-\ufdef" + "".join(chr(p + 0xFFFE) + chr(p + 0xFFFF) for p in planes) + "]"
    )


def _needs_care(ch: str) -> bool:
    return ord(ch) > 0x2FF and not ch.isspace() and unicodedata.category(ch) not in ("Cf", "Mn")


def _joins(ch: str) -> bool:
    """Whether `ch` belongs with the character before it: a joiner, a selector, a mark (one
    that takes room too, such as Tamil's vowel signs: shaped apart from its letter, it would be
    drawn on a dotted circle), or a tag character (the letters of a flag such as England's)."""
    return (
        ch in _JOINERS
        or ch == _MONGOLIAN_VOWEL_SEPARATOR  # shaped with the letters it parts (`ᠬᠠᠷ᠎ᠠ`)
        or unicodedata.category(ch) in ("Mn", "Mc")
        or 0xE0020 <= ord(ch) <= 0xE007F
    )


_MONGOLIAN_VOWEL_SEPARATOR = "\u180e"


def _goes_on_in(family: str | None, ch: str) -> bool:
    """Whether `family`, a fallback font drawing the text before `ch`, has `ch` too: a browser
    keeps on in it (Tamil's வ in Noto Sans Tamil, beside its letters, not in Noto Sans Grantha,
    fontconfig's first choice for it, which would draw its vowel sign on a dotted circle)."""
    if family is None or family == _emoji_family():
        return False
    font = _fallback_fonts().get(family)
    return font is not None and font.has(ch)


def _last_character(pieces: list[tuple[str | None, str]]) -> str:
    """The last character of the last piece, taken off it (the piece goes if that was all)."""
    family, piece = pieces.pop()
    if piece[:-1]:
        pieces.append((family, piece[:-1]))
    return piece[-1]


def _cluster_family(family: str | None, base: str, mark: str) -> str | None:
    """The font to draw a letter and the mark after it in: `family` when it has the mark (or
    the mark is a joiner, or no font has both), else the first that has both (Tamil's ப, for
    which fontconfig offers Noto Sans Grantha first, and its vowel sign, which only Noto Sans
    Tamil has: drawn apart, the sign was a box)."""
    if mark in _JOINERS or unicodedata.category(mark) not in ("Mn", "Mc"):
        return family
    if family is not None and family == _emoji_family():  # a mark on an emoji: its picture
        return family
    order = fallback_order(PRIMARY)
    current = _fallback_fonts().get(family) if family else (order[0] if order else None)
    if current is None or current.has(mark):
        return family
    for font in (order[0], *_named_first()):
        if font.has(base) and font.has(mark):
            return None if font is order[0] else font.family
    return family


@cache
def _named_first() -> tuple[Font, ...]:
    """The installed fonts, those the SVG's font-family names first, in its order."""
    installed = {font.family: font for font in _listed("-a", PRIMARY)}  # every one
    named = tuple(installed[family] for family in FALLBACK_FAMILIES if family in installed)
    rest = _fallback_fonts().values()
    return named + tuple(font for font in rest if font.family not in FALLBACK_FAMILIES)


@cache
def _fallback_fonts() -> dict[str, Font]:
    return {font.family: font for font in fallback_order(PRIMARY)}


def _pieces(text: str) -> list[tuple[str | None, str]]:
    """The text (unescaped) cut into (family, piece), joiners, marks and tags kept with what
    precedes them.

    Spaces stay in the diagram's face: an emoji font's space is far wider than a text font's.
    """
    pieces: list[tuple[str | None, str]] = []
    emoji = _emoji_family()
    for ch in text:
        family = family_for(ch) if _needs_care(ch) else None
        if family and pieces and _goes_on_in(pieces[-1][0], ch) and family != emoji:
            family = pieces[-1][0]  # a word stays in one font where that font has its letters
        if (
            pieces
            and ch in _EMOJI_STYLE
            and emoji not in (None, pieces[-1][0])
            and fallback_order(EMOJI)[0].has(pieces[-1][1][-1])
        ):
            # `1️⃣`, `©️`: the character before asks for its emoji, which the emoji font draws
            ch, family = _last_character(pieces) + ch, emoji
        elif pieces and _joins(ch):
            family = pieces[-1][0]
            moved = _cluster_family(family, pieces[-1][1][-1], ch)
            if moved != family:  # the font drawing the letter lacks its mark: both move
                ch, family = _last_character(pieces) + ch, moved
        if family == "":
            family = None
        if pieces and pieces[-1][0] == family:
            pieces[-1] = (family, pieces[-1][1] + ch)
        else:
            pieces.append((family, ch))
    return pieces


def missing_characters(text: str) -> list[str]:
    """The characters of `text` that no installed font has, each once, in order.

    Noncharacters (U+FDD0 to U+FDEF, U+xFFFE, U+xFFFF) do not count: the rasteriser draws
    them as U+FFFD, visibly."""
    seen: dict[str, None] = {}
    for ch in text:
        if (
            _needs_care(ch)
            and ch not in _JOINERS
            and not noncharacters().match(ch)
            and family_for(ch) == ""
        ):
            seen.setdefault(ch)
    return list(seen)


@cache
def _reaches_forward(family: str | None, mark: str) -> bool:
    """Whether cairo, drawing `mark` in `family`, puts it over the glyph drawn after it: a mark
    takes no room, and its outline lies right of where it is drawn from (fonts made for right
    to left scripts draw so; others put a mark back over the glyph before it)."""
    import cairocffi  # cairosvg's binding to cairo: what draws the PNG and PDF

    context = cairocffi.Context(cairocffi.ImageSurface(cairocffi.FORMAT_A8, 1, 1))
    context.select_font_face(family or PRIMARY)
    context.set_font_size(100)
    x_bearing, _, width, _, x_advance, _ = context.text_extents(mark)
    return x_advance == 0 and x_bearing + width / 2 > 0


def _anchored_by_its_pieces(
    opening: str,
    pieces: list[tuple[str | None, str]],
    measure: _Measure | None,
    glyphs: list[Glyphs],
) -> str:
    """The opening tag of a line of several pieces that is drawn from its middle or end (a
    right-to-left line, from the point it is aligned on), moved to where it starts instead.

    cairosvg anchors a text by its first piece alone, so the rest would spill past the point.
    The pieces are measured as they are drawn, each in its own font (`measure`), a shaped one
    by its outlines' advance (Syriac joined is narrower than its letters apart): the layout's
    widths are the bundled ones, which a fallback font's glyphs (Arabic's, say) do not keep to."""
    anchored = _ANCHORED.search(opening)
    x = _X.search(opening)
    if anchored is None or x is None or measure is None:
        return opening
    width = sum(
        shaped.advance(measure.size)
        if isinstance(shaped, Outlines)
        else measure.width(family, piece)
        for (family, piece), shaped in zip(pieces, glyphs, strict=True)
    )
    start = float(x[1]) - (width if anchored[1] == "end" else width / 2)
    return _X.sub(f' x="{num(start)}"', _ANCHORED.sub("", opening), count=1)


class _Measure:
    """Widths of pieces of one size and style, as the raster path draws them: as cairo moves
    drawing text, with its advances unrounded (`volley.output.raster`), each in its family
    (None: `base`, the leaf's own face), and each emoji drawn as a picture as the layout
    measured it."""

    def __init__(
        self,
        size: float,
        bold: bool,
        italic: bool,
        base: str = PRIMARY,
        plain: frozenset[str | None] = frozenset(),
    ) -> None:
        import cairocffi

        self.base = base  # the leaf's own face (monospace in code), for pieces in no other
        self.plain = plain  # families drawn upright and regular (`_lacks`)
        self.upright = (cairocffi.FONT_SLANT_NORMAL, cairocffi.FONT_WEIGHT_NORMAL)
        self.size = size
        self.bold, self.italic = bold, italic
        self.emoji = EMOJI_EM * size  # a picture's width (`volley.output.shaping`)
        self.context = cairocffi.Context(cairocffi.ImageSurface(cairocffi.FORMAT_A8, 1, 1))
        options = cairocffi.FontOptions()
        options.set_hint_metrics(cairocffi.HINT_METRICS_OFF)
        self.context.set_font_options(options)
        self.context.set_font_size(size)
        self.slant = cairocffi.FONT_SLANT_ITALIC if italic else cairocffi.FONT_SLANT_NORMAL
        self.weight = cairocffi.FONT_WEIGHT_BOLD if bold else cairocffi.FONT_WEIGHT_NORMAL

    def text(self, family: str | None, piece: str) -> float:
        """cairo's advance drawing `piece` in `family`."""
        slant, weight = self.upright if family in self.plain else (self.slant, self.weight)
        self.context.select_font_face(family or self.base, slant, weight)
        return self.context.text_extents(piece)[4]  # x_advance

    def width(self, family: str | None, piece: str) -> float:
        shaped = clusters(piece) if family is not None and family == _emoji_family() else None
        if shaped is None:
            return self.text(family, piece)
        return sum(self.emoji if png else self.text(family, part) for part, png in shaped)


@cache
def _emoji_family() -> str | None:
    """The family fontconfig draws emoji with, when its emoji can be drawn as pictures."""
    order = fallback_order(EMOJI)
    return order[0].family if order and emoji_font() is not None else None


def with_fallback_fonts(svg: str) -> str:
    """The SVG with each text piece that needs another font in a `<tspan>` naming it, emoji
    as pictures of their colour glyphs and text that cairo would draw letter by letter as its
    shaped outlines (`volley.output.shaping`), and right-to-left text in the order it is seen
    in (`volley.output.rtl`).

    Characters no installed font has are left as they are (cairo draws an empty box); the
    pipeline says which, and where (`missing_glyph_warnings`).
    """
    return _TEXT_ELEMENT.sub(_text_element, svg)


def _text_element(match: re.Match[str]) -> str:
    """One `<text>` with its leaves split, and the pictures and outlines its leaves need after
    it (neither may stand inside a text)."""
    element = match.group(0)
    if element.isascii():
        return element
    drawings: list[str] = []
    drawn = _LEAF.sub(partial(_leaf, element=match.group(1), drawings=drawings), element)
    return "\n".join([drawn, *drawings])


def _leaf(match: re.Match[str], *, element: str, drawings: list[str]) -> str:
    """A leaf of text cut into pieces by font; `element` is the opening tag of its `<text>`
    (its size and colour, where the leaf has none); the pictures and outlines of the pieces
    cairo cannot draw go to `drawings` (`volley.output.shaping`)."""
    opening, _, escaped, closing = match.groups()
    if escaped.isascii():
        return match.group(0)
    text = html.unescape(escaped)  # cut and measured as characters, escaped again when written
    rtl = has_right_to_left(text)
    if rtl:
        text = visual_order(text, _drawable)
    text = without_bidi_controls(text)  # in visual order now: cairo would draw boxes
    text = text.translate(_BREAKS_ONLY)  # where a line may break, or not: nothing to draw
    pieces = written = _pieces(text)  # as written: each mark after its letter
    if rtl:  # each mark drawn on the side its font puts it (`volley.output.rtl`)
        pieces = [
            (family, marks_before_letters(piece, partial(_reaches_forward, family)))
            for family, piece in pieces
        ]
        text = "".join(piece for _, piece in pieces)
    shaped = any(_misplaced_by_cairo(piece) for _, piece in written)
    if all(family is None for family, _ in pieces) and not shaped:
        return f"{opening}{escape(text)}{closing}"
    size = _SIZE.search(opening) or _SIZE.search(element)
    face = _FAMILY.search(opening) or _FAMILY.search(element)
    base = html.unescape(face[1]).split(",")[0].strip(" '\"") if face else PRIMARY
    bold, italic = ' font-weight="bold"' in opening, ' font-style="italic"' in opening
    # a piece whose family's bold or italic face lacks its letters is drawn upright, regular
    plain = frozenset(
        f for f, piece in pieces if (bold or italic) and _lacks(f, piece, bold, italic)
    )
    measure = _Measure(float(size[1]), bold, italic, base, plain) if size else None
    glyphs = [_glyphs(family, piece, measure) for family, piece in written] if measure else []
    opening = _anchored_by_its_pieces(opening, pieces, measure, glyphs)
    x, y = _X.search(opening), _Y.search(opening)
    fill = _FILL.search(opening) or _FILL.search(element)
    inner = None
    if x and y and measure and fill and any(shaped is not None for shaped in glyphs):
        start, baseline = float(x[1]), float(y[1])
        inner = _from_glyphs(pieces, glyphs, start, baseline, measure, fill[1], drawings, plain)
    if inner is None:
        inner = "".join(_piece(family, piece, plain=family in plain) for family, piece in pieces)
    return f"{opening}{inner}{closing}"


@cache
def _styled_face(family: str, bold: bool, italic: bool) -> Font | None:
    """The face fontconfig gives cairo for `family` in that style, with its characters."""
    order = fallback_order(family + (":bold" if bold else "") + (":italic" if italic else ""))
    return order[0] if order and order[0].family == family else None


def _lacks(family: str | None, piece: str, bold: bool, italic: bool) -> bool:
    """Whether `family`'s bold or italic face (the one cairo would draw with) lacks letters of
    the piece: DejaVu Sans's Oblique has no Arabic, its Book face has (the family was chosen
    by it), so cairo would draw empty boxes where the upright face draws the letters."""
    if family is None or family == _emoji_family():
        return False
    face = _styled_face(family, bold, italic)
    return face is None or not all(face.has(ch) for ch in piece if _needs_care(ch))


Glyphs = list[tuple[str, bytes | None]] | Outlines | None


def _glyphs(family: str | None, piece: str, measure: _Measure) -> Glyphs:
    """How a piece is drawn when cairo cannot draw it: its emoji clusters and their pictures,
    or its shaped outlines; None when cairo draws it as it is."""
    # its family's bold or italic face lacks its letters: the regular face slanted and
    # thickened instead, as a browser draws it
    made = family in measure.plain
    bold, italic = measure.bold, measure.italic
    if has_right_to_left(piece):  # in visual order and joined already (`volley.output.rtl`)
        name = family or measure.base
        if family == _emoji_family() or not (
            needs_shaping(piece) or made or ((bold or italic) and made_face(name, bold, italic))
        ):
            return None
        return right_to_left_outlines(name, logical_order(piece), bold, italic, made)
    if family is None:
        if not _misplaced_by_cairo(piece):
            return None
        return outlines(measure.base, piece, bold, italic)
    if family == _emoji_family():
        return clusters(piece)
    return outlines(family, piece, bold, italic, made)


def _misplaced_by_cairo(piece: str) -> bool:
    """Whether cairo, drawing a glyph per character, would put marks or letters of the piece
    in the wrong place even in a font that has them all: a right-to-left piece that needs
    shaping (`needs_shaping`), or a mark no letter has a precomposed form with (`n̈`), which
    cairo draws beside its letter."""
    if piece.isascii():
        return False
    if has_right_to_left(piece):
        return needs_shaping(piece)
    composed = unicodedata.normalize("NFC", piece)
    return any(unicodedata.category(ch) == "Mn" for ch in composed)


# Where a line may break, or may not (a zero-width space, a word joiner, a soft hyphen inside a
# word, which cairo would draw as a hyphen): nothing to draw, and taken out before the text is
# cut into pieces, which would give them a font of their own. (The directional marks go with
# the bidi controls; a non-joiner stays for shaping, `_piece`.)
_BREAKS_ONLY = dict.fromkeys(map(ord, "\u200b\u2060\u00ad"))
_NON_JOINER = "\u200c"


def _piece(family: str | None, piece: str, x: float | None = None, *, plain: bool = False) -> str:
    """A piece of text in its family, from `x` if given (else where the one before ends);
    `plain`: upright and regular, whatever the text around it (`_lacks`)."""
    piece = piece.replace(_NON_JOINER, "")  # shaped with its letters, or else drawn by cairo as
    # the visible sign some fonts give it (DejaVu's is a bar)
    place = "" if x is None else f' x="{num(x)}"'
    font = "" if family is None else f' font-family="{escape(family)}"'
    if plain:
        font += ' font-style="normal" font-weight="normal"'
    return f"<tspan{place}{font}>{escape(piece)}</tspan>" if place or font else escape(piece)


def _from_glyphs(
    pieces: list[tuple[str | None, str]],
    glyphs: list[Glyphs],
    x: float,
    baseline: float,
    measure: _Measure,
    fill: str,
    drawings: list[str],
    plain: frozenset[str | None],
) -> str:
    """The pieces from `x`: each emoji as a picture as wide as the layout measured it, each
    piece cairo would draw letter by letter as its shaped outlines (both added to `drawings`),
    and the text after either placed where it ends, as the pieces are measured."""
    out: list[str] = []
    moved = False  # a drawing came before: the text goes at its measured place
    for (family, piece), shaped in zip(pieces, glyphs, strict=True):
        if isinstance(shaped, Outlines):
            drawings.append(shaped.path(x, baseline, measure.size, fill))
            x += shaped.advance(measure.size)
            moved = True
            continue
        if shaped is None:
            if moved:  # where the text starts is its first drawn character
                spaces = piece[: len(piece) - len(piece.lstrip(" "))]
                x += measure.text(family, spaces) if spaces else 0.0
                piece = piece[len(spaces) :]
            out.append(_piece(family, piece, x if moved else None, plain=family in plain))
            x += measure.text(family, piece)
            continue
        for part, png in shaped:
            if png is None:
                out.append(_piece(family, part, x))
                x += measure.text(family, part)
            else:
                drawings.append(image(png, x, baseline, measure.size))
                x += measure.emoji
            moved = True
    return "".join(out)


def missing_glyph_warnings(
    texts: Iterable[tuple[int, str]], filename: str | None = None
) -> list[Diagnostic]:
    """A warning, at the first line concerned, naming the characters of the drawn `(line,
    text)` pairs that no installed font has: a PNG or PDF draws them as empty boxes, where a
    browser draws the SVG with whatever font it finds. One warning, not one a line: a missing
    emoji font would otherwise repeat it for every label."""
    missing: dict[str, None] = {}
    lines: dict[int, None] = {}
    for line, text in texts:
        if not text.isascii():
            for ch in missing_characters(text):
                missing.setdefault(ch)
                lines.setdefault(line)
    if not missing:
        return []
    chars, where = list(missing), sorted(lines)
    shown = " ".join(f"{ch} (U+{ord(ch):04X})" for ch in chars[:12])
    more = f" and {len(chars) - 12} more" if len(chars) > 12 else ""
    one = len(chars) == 1
    also = f" (on {len(where)} lines, from this one on)" if len(where) > 1 else ""
    return [
        Diagnostic(
            f"no installed font has {shown}{more}; PNG and PDF draw "
            + ("it as an empty box" if one else "them as empty boxes")
            + also,
            filename=filename,
            line=where[0],
            hint=f"install a font that has {'it' if one else 'them'} (e.g. Noto), "
            "or render SVG or HTML",
            severity="warning",
        )
    ]
