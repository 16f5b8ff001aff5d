"""Text cairo cannot draw by itself, in PNG and PDF: shaped by HarfBuzz, drawn from its glyphs.

cairo draws text one glyph per character, each the font's first glyph for it. That is right
for Latin, Greek, Cyrillic and CJK, and wrong wherever a font's own rules change the glyphs:

- An emoji written as a sequence would come out as its parts: a ZWJ sequence (👩‍💻) as a
  woman and a laptop, a flag (🇯🇵) as two letters, a skin tone (👍🏽) as a hand and a brown
  square, a keycap (1️⃣) as a digit and a frame, the emoji selector after a heart (❤️) as a
  blank as wide as an emoji. HarfBuzz shapes an emoji run with the font fontconfig gives for
  emoji, which turns each sequence into its one glyph; a bitmap colour font such as Noto Color
  Emoji holds that glyph as a PNG, drawn as an image as wide as the layout measured the emoji
  (`EMOJI_EM`). A font whose colour glyphs are not PNGs is left to cairo, as before.
- Scripts whose letters change shape, order or place when they meet (Devanagari and the other
  Indic scripts, Thai's vowels and tone marks, Khmer, Myanmar, Tibetan) would come out letter
  by letter. HarfBuzz shapes such a piece with the font fontconfig gives for it; when its glyphs
  are not simply the font's glyph for each character in turn, they are drawn as outlines (a
  path), so the picture shows what a browser shows. In a PDF such a piece is a drawing, not
  text a reader can select.

Right-to-left text keeps its own path (`volley.output.rtl`): it is put in visual order first,
and a piece of it that cairo would draw wrong (marks between letters, Syriac or N'Ko unjoined)
is shaped right to left from the order it was written in (`right_to_left_outlines`).
"""

from __future__ import annotations

import base64
import shutil
import subprocess
from dataclasses import dataclass
from functools import cache

import uharfbuzz as hb
from fontTools.pens.svgPathPen import SVGPathPen
from fontTools.pens.transformPen import TransformPen

from volley.layout.metrics import CAP_HEIGHT, EMOJI_EM
from volley.output.svg_tags import escape, num

# How much HarfBuzz thickens a face with no bold of its own, in em (its documentation's
# starting point), where fontconfig says cairo would embolden it.
SYNTHETIC_BOLD = 0.02
# How far a slant made for a face with none leans, as fontconfig makes one (its matrix's xy)
SYNTHETIC_SLANT = 0.2


def fc_match(*arguments: str) -> str | None:
    """What fontconfig's `fc-match` prints for the arguments; None without fontconfig."""
    command = shutil.which("fc-match")
    if command is None:
        return None
    try:
        run = subprocess.run(
            [command, *arguments], capture_output=True, text=True, timeout=20, check=True
        )
    except (OSError, subprocess.SubprocessError):
        return None
    return run.stdout


def _installed_font(pattern: str) -> hb.Font | None:
    """HarfBuzz's font for the file (and the face in it) fontconfig picks for `pattern`,
    slanted or emboldened where fontconfig says that face must be made so (an italic asked of
    a family that has none), as cairo would draw it."""
    found = fc_match("-f", "%{file}\n%{index}\n%{matrix}\n%{embolden}", pattern)
    if found is None:
        return None
    try:
        path, index, matrix, embolden = found.split("\n")  # fontconfig leaves unset ones empty
        font = hb.Font(hb.Face(hb.Blob.from_file_path(path), int(index or 0)))
    except (OSError, ValueError):
        return None
    if matrix:  # "xx xy yx yy": xy slants
        font.synthetic_slant = float(matrix.split()[1])
    if embolden == "True":
        font.synthetic_bold = SYNTHETIC_BOLD
    return font


@cache
def emoji_font() -> hb.Font | None:
    """The font fontconfig picks for emoji, if its colour glyphs are PNGs."""
    font = _installed_font("emoji")
    return font if font is not None and font.face.has_color_png else None


@cache
def text_font(family: str, bold: bool, italic: bool, made: bool = False) -> hb.Font | None:
    """The installed font of `family` in the face nearest to bold and italic as asked; or,
    `made`, its regular face slanted and thickened as asked, as a browser makes a face the
    family has without the letters it is asked for (DejaVu Sans's Oblique has no Arabic)."""
    if made:
        regular = text_font(family, False, False)
        if regular is None:
            return None
        font = hb.Font(regular.face)
        font.synthetic_slant = SYNTHETIC_SLANT if italic else 0.0
        font.synthetic_bold = SYNTHETIC_BOLD if bold else 0.0
        return font
    style = (":bold" if bold else "") + (":italic" if italic else "")
    return _installed_font(family.replace("-", "\\-").replace(":", "\\:") + style)


def _shaped(font: hb.Font, text: str, direction: str = "ltr") -> hb.Buffer:
    """`text` shaped left to right: the raster path hands over every piece in the order it is
    seen in (a right-to-left line is put in that order first), so a run of Arabic-Indic
    digits, say, must not be turned around again. A right-to-left piece given back in the
    order it was written (`right_to_left_outlines`) is shaped right to left."""
    buffer = hb.Buffer()
    buffer.add_codepoints([ord(ch) for ch in text])  # clusters count characters, not bytes
    buffer.guess_segment_properties()
    buffer.direction = direction
    hb.shape(font, buffer, {})
    return buffer


def clusters(run: str) -> list[tuple[str, bytes | None]] | None:
    """`run` (text fontconfig gives to the emoji font) cut into HarfBuzz's clusters, what the
    font draws as one emoji each, with the PNG of the cluster's first glyph that has one (None
    for a cluster without, such as a space); None when there is no such font."""
    font = emoji_font()
    if font is None:
        return None
    out: list[tuple[str, bytes | None]] = []
    starts: list[int] = []
    for glyph in _shaped(font, run).glyph_infos:  # left to right: clusters never go back
        picture = font.get_glyph_color_png(glyph.codepoint)
        png = bytes(picture.data) if picture is not None and picture.data else None
        if starts and glyph.cluster == starts[-1]:  # a further glyph of the same cluster
            out[-1] = (out[-1][0], out[-1][1] or png)
        else:
            starts.append(glyph.cluster)
            out.append(("", png))
    ends = [*starts[1:], len(run)]
    return [(run[start:end], png) for start, end, (_, png) in zip(starts, ends, out, strict=True)]


def image(png: bytes, x: float, baseline: float, size: float) -> str:
    """The picture of one emoji in text of `size` pixels, from `x`: as wide as the layout
    measured it (`EMOJI_EM`), centred on the middle of the line's capitals."""
    side = EMOJI_EM * size
    top = baseline - CAP_HEIGHT * size / 2 - side / 2
    data = base64.b64encode(png).decode("ascii")
    return (
        f'<image x="{num(x)}" y="{num(top)}" width="{num(side)}" height="{num(side)}"'
        f' preserveAspectRatio="xMidYMid meet" xlink:href="data:image/png;base64,{data}"/>'
    )


@dataclass(frozen=True)
class Outlines:
    """A piece of text shaped into glyphs that cairo would not draw: its font and glyphs."""

    font: hb.Font
    glyphs: list[hb.GlyphInfo]
    positions: list[hb.GlyphPosition]

    def advance(self, size: float) -> float:
        """How far the piece reaches at `size` pixels."""
        return sum(p.x_advance for p in self.positions) * size / self.font.face.upem

    def path(self, x: float, baseline: float, size: float, fill: str) -> str:
        """The glyphs' outlines from `x` on `baseline`, as one filled `<path>`."""
        k = size / self.font.face.upem
        pen = SVGPathPen(None, ntos=num)
        for glyph, position in zip(self.glyphs, self.positions, strict=True):
            origin = (x + position.x_offset * k, baseline - position.y_offset * k)
            placed = TransformPen(pen, (k, 0, 0, -k, *origin))  # font units, y up, to pixels
            self.font.draw_glyph_with_pen(glyph.codepoint, placed)
            x += position.x_advance * k
        return f'<path d="{pen.getCommands()}" fill="{escape(fill)}"/>'


def outlines(
    family: str, text: str, bold: bool, italic: bool, made: bool = False
) -> Outlines | None:
    """`text` in `family` shaped, when its glyphs are not the font's glyph for each character
    in turn (reordered, joined, substituted or marks moved) or the family has no face of that
    slant or weight (fontconfig makes one, or `made`: see `text_font`); None when cairo draws
    it right."""
    font = text_font(family, bold, italic, made)
    if font is None:
        return None
    buffer = _shaped(font, text)
    glyphs, positions = buffer.glyph_infos, buffer.glyph_positions
    as_drawn = len(glyphs) == len(text) and all(
        glyph.codepoint == font.get_nominal_glyph(ord(ch))
        and not position.x_offset
        and not position.y_offset
        for glyph, position, ch in zip(glyphs, positions, text, strict=True)
    )
    # cairo draws a face as it is: a slant or weight the family lacks is drawn by HarfBuzz
    return None if as_drawn and not _made(font) else Outlines(font, glyphs, positions)


def made_face(family: str, bold: bool, italic: bool) -> bool:
    """Whether the family has no face of that slant or weight, so that one is made from
    another (slanted, thickened), which cairo would not do: HarfBuzz draws it."""
    font = text_font(family, bold, italic)
    return font is not None and _made(font)


def _made(font: hb.Font) -> bool:
    return bool(font.synthetic_slant or font.synthetic_bold[0])


def right_to_left_outlines(
    family: str, text: str, bold: bool, italic: bool, made: bool = False
) -> Outlines | None:
    """Right-to-left `text`, in the order it was written, shaped right to left in `family`
    as a browser shapes it: marks on their letters where the font puts them, letters joined
    in the scripts that join; the glyphs come out in the order they are seen. None when the
    family has no installed font. `made`: see `text_font`."""
    font = text_font(family, bold, italic, made)
    if font is None:
        return None
    buffer = _shaped(font, text, "rtl")
    return Outlines(font, buffer.glyph_infos, buffer.glyph_positions)
