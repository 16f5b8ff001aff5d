"""Colours as people write them in CSS, for a highlight's tint (Mermaid's `rect rgb(…)`) and a
box's (`box Aqua Front end`).

tinycss2 (the CSS parser cairosvg is built on) reads them: names (`lightyellow`), `#rgb`,
`#rrggbb` and their forms with alpha, `rgb()`, `rgba()`, `hsl()` and `hsla()`, with commas or
with CSS Color 4's spaces and slash (`rgb(0 0 255 / 10%)`). A colour reaches the picture only
as the six hex digits and the opacity read from it, never as the text written.
"""

from __future__ import annotations

import re
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


def names_colour(word: str) -> bool:
    """Whether a word written after a `#` names a colour, as sequencediagram.org and PlantUML
    write one after a name or a block's word: a colour's name (`pink`), six hex digits
    (`FFBBBB`), or three with a letter and a digit among them or one letter thrice (`f00`,
    `fff`); `#123` is an issue's number, `Cart#add` a method."""
    if word.isalpha() and read_colour(word) is not None:
        return True
    if len(word) == 3 and (word.isdigit() or (word.isalpha() and len(set(word.lower())) > 1)):
        return False
    return len(word) in (3, 6) and read_colour("#" + word) is not None


def hex_colour(channels: Sequence[float]) -> str:
    """Red, green and blue from 0 to 1 (clamped, as CSS clamps them) as `#rrggbb`."""
    return "#" + "".join(f"{round(min(max(c, 0.0), 1.0) * 255):02x}" for c in channels)


# What may start a box's text as its colour: a hex colour or a word; a function is tried up to
# each closing parenthesis in turn.
_LEADING_WORD = re.compile(r"[ \t]*(#[0-9A-Za-z]+|\w*)")
# in lower case only, as Mermaid's box reads it: `RGB(32, 35, 42), Team` is a label
_FUNCTION = re.compile(r"[ \t]*(?:rgba?|hsla?)[ \t]*\(")


def colour_and_label(text: str) -> tuple[str | None, str]:
    """A box's text as Mermaid reads it: a colour and then a label (`Aqua Front end`,
    `rgb(33, 66, 99) Back end`), or a label alone when the text does not start with a colour
    (`Front end`). `transparent`, the colour of no fill, reads as none: `transparent Aqua` is a
    box labelled "Aqua"."""
    ends = []
    if _FUNCTION.match(text):
        ends = [at + 1 for at, char in enumerate(text) if char == ")"]
    else:
        found = _LEADING_WORD.match(text)
        ends = [found.end()] if found and found.group(1) else []
    for end in ends:
        colour = text[:end].strip()
        if read_colour(colour) is not None:
            tint = None if colour.lower() == "transparent" else colour
            return tint, text[end:].strip()
    return None, text.strip()


def box_text(tint: str | None, label: str) -> str:
    """What `colour_and_label` reads as this colour and label: a label that would not read back
    as itself (`Red team`, or `transparent proxies`, whose first word is the colour of no fill)
    gets that colour before it (`transparent Red team`)."""
    if tint is None and colour_and_label(label) != (None, label):
        tint = "transparent"
    return " ".join(part for part in (tint, label) if part)
