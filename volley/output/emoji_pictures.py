"""Emoji in PNG and PDF as the colour emoji font draws them: one picture for each emoji.

cairo draws text one glyph per character, so an emoji written as a sequence would come out
as its parts: a ZWJ sequence (👩‍💻) as a woman and a laptop, a flag (🇯🇵) as two letters, a
skin tone (👍🏽) as a hand and a brown square, a keycap (1️⃣) as a digit and a frame, and the
emoji selector after a heart (❤️) as a blank as wide as an emoji. HarfBuzz shapes a run of
emoji with the font fontconfig gives for emoji, which turns each sequence into the one glyph
the font has for it (its own substitution rules); a bitmap colour font such as Noto Color
Emoji holds that glyph as a PNG, which the raster SVG draws as an image as wide as the layout
measured the emoji.

A font whose colour glyphs are not PNGs (COLR or SVG glyphs) is left to cairo, character by
character, as before.
"""

from __future__ import annotations

import base64
import shutil
import subprocess
from functools import cache

import uharfbuzz as hb

from volley.layout.metrics import CAP_HEIGHT, EMOJI_EM
from volley.output.svg_tags import num


@cache
def emoji_font() -> hb.Font | None:
    """HarfBuzz's font for the file fontconfig picks for emoji, if its glyphs are PNGs."""
    fc_match = shutil.which("fc-match")
    if fc_match is None:
        return None
    try:
        path = subprocess.run(
            [fc_match, "-f", "%{file}", "emoji"],
            capture_output=True,
            text=True,
            timeout=20,
            check=True,
        ).stdout
        face = hb.Face(hb.Blob.from_file_path(path))
    except (OSError, subprocess.SubprocessError, ValueError):
        return None
    return hb.Font(face) if face.has_color_png else None


def clusters(run: str) -> list[tuple[str, bytes | None]] | None:
    """`run` (text fontconfig gives to the emoji font) cut into what the font draws as one
    glyph each, with that glyph's PNG (None for a glyph without one, such as a space); None
    when there is no such font."""
    font = emoji_font()
    if font is None:
        return None
    buffer = hb.Buffer()
    buffer.add_codepoints([ord(ch) for ch in run])  # clusters count characters, not bytes
    buffer.guess_segment_properties()
    hb.shape(font, buffer, {})
    glyphs = buffer.glyph_infos
    out: list[tuple[str, bytes | None]] = []
    for k, glyph in enumerate(glyphs):
        end = glyphs[k + 1].cluster if k + 1 < len(glyphs) else len(run)
        if end <= glyph.cluster:  # a glyph of a cluster already taken
            continue
        picture = font.get_glyph_color_png(glyph.codepoint)
        png = bytes(picture.data) if picture is not None and picture.data else None
        out.append((run[glyph.cluster : end], png))
    return out


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
