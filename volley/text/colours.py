"""Colours as people write them in CSS, for a highlight's tint (Mermaid's `rect rgb(…)`).

tinycss2 (the CSS parser cairosvg is built on) reads them: names (`lightyellow`), `#rgb`,
`#rrggbb` and their forms with alpha, `rgb()`, `rgba()`, `hsl()` and `hsla()`, with commas or
with CSS Color 4's spaces and slash (`rgb(0 0 255 / 10%)`). A colour reaches the picture only
as the six hex digits and the opacity read from it, never as the text written.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

import tinycss2.color3
import tinycss2.color4


class Tint(NamedTuple):
    """A colour read: `#rrggbb` and its opacity, from 0 to 1."""

    hex: str
    opacity: float


def read_colour(text: str) -> Tint | None:
    """The colour `text` names, or None when it is no colour CSS defines in sRGB (a word,
    `currentColor`, a `var()`, a colour space such as `oklch()`)."""
    text = text.strip()
    parsed = tinycss2.color3.parse_color(text)
    if parsed is None or isinstance(parsed, str):  # "currentColor" is no colour of its own
        colour4 = tinycss2.color4.parse_color(text)
        if colour4 is None or isinstance(colour4, str) or colour4.space not in ("srgb", "hsl"):
            return None
        parsed = colour4.to("srgb")
    *channels, alpha = parsed
    return Tint(hex_colour(channels), round(min(max(alpha, 0.0), 1.0), 3))


def hex_colour(channels: Sequence[float]) -> str:
    """Red, green and blue from 0 to 1 (clamped, as CSS clamps them) as `#rrggbb`."""
    return "#" + "".join(f"{round(min(max(c, 0.0), 1.0) * 255):02x}" for c in channels)
