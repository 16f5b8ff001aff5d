"""The colours of Mermaid's rects (`rect rgb(200, 220, 255)`), as the picture paints them.

Each rect is filled with one opaque colour: its author's colour laid over what is behind it (the
page, or the rect around it), so nested rects look as they look in Mermaid on a white page. A
label's patch on a rect, which hides the lifelines behind the label, gets the same colour, so it
disappears into the rect instead of showing as a box, and no edge of one shape shows around
another.

On a dark page, a colour chosen for a white one would glare behind light text, and one chosen to
be faint (`rgba(128, 128, 128, 0.1)`) would vanish. There each rect keeps its hue and stands out
from the dark page by as much as it stood out from the white one, never so light that the light
text on it is hard to read.
"""

from __future__ import annotations

import colorsys
from bisect import bisect_right
from collections.abc import Sequence
from dataclasses import dataclass

from volley.layout.geometry import BlockFrame, Rect
from volley.output.themes import DARK, LIGHT
from volley.text.colours import hex_colour, read_colour

# On a dark page, the lightest a rect may be, and the least contrast the theme's text keeps on
# it (WCAG's for body text).
DARK_MOST_LIGHTNESS = 0.28
DARK_TEXT_CONTRAST = 4.5
_GREY = 0.02  # a colour whose channels differ by less than this is a grey


@dataclass(frozen=True, slots=True)
class Fill:
    """A rect's colour on a light page and on a dark one, and the class the picture's dark-mode
    rules know it by."""

    light: str
    dark: str
    cls: str


class Tints:
    """The fills of a picture's rects (`frames`, outer first, as the layout lists them); a rect
    with no colour it can read is None: the theme's own tint."""

    def __init__(self, frames: Sequence[BlockFrame]) -> None:
        self.frames = list(frames)
        self._fills: list[Fill | None] = []
        # the rect each lies in (an index into frames), or -1: rects nest, and the layout lists
        # them top to bottom, each before those inside it
        self._around: list[int] = []
        self._tops = [frame.box.y for frame in self.frames]
        named: dict[str, Fill] = {}
        colours: list[str] = []  # each rect's colour as it looks on the white page
        for index, frame in enumerate(self.frames):
            around = index - 1
            while around >= 0 and not self.frames[around].box.contains(frame.box):
                around = self._around[around]
            self._around.append(around)
            under = colours[around] if around >= 0 else LIGHT["bg"]
            tint = read_colour(frame.tint) if frame.tint else None
            if tint is None:
                self._fills.append(None)
                colours.append(LIGHT["tab"])
                continue
            light = blend(tint.hex, tint.opacity, under)
            if light not in named:
                named[light] = Fill(light, dark_tint(light), f"tint-{len(named) + 1}")
            self._fills.append(named[light])
            colours.append(light)
        self._index = {id(frame): index for index, frame in enumerate(self.frames)}
        self.coloured = list(named.values())  # the distinct colours, for dark-mode rules

    def of(self, frame: BlockFrame) -> Fill | None:
        return self._fills[self._index[id(frame)]]

    def under(self, patch: Rect) -> BlockFrame | None:
        """The innermost rect a patch (a label's halo, a divider's pill) lies on: the last rect
        to start above its middle, or the rect around that one which holds it."""
        point = Rect(patch.x + patch.w / 2, patch.y + patch.h / 2, 0.0, 0.0)
        index = bisect_right(self._tops, point.y) - 1
        while index >= 0 and not self.frames[index].box.contains(point, slack=0.0):
            index = self._around[index]
        return self.frames[index] if index >= 0 else None


def blend(over: str, opacity: float, under: str) -> str:
    """`over` at `opacity` laid on the opaque `under`: the one colour the eye sees."""
    mixed = [a * opacity + b * (1 - opacity) for a, b in zip(_rgb(over), _rgb(under), strict=True)]
    return hex_colour(mixed)


def dark_tint(light: str) -> str:
    """A rect's colour on the dark page, from its colour on the white one: the same hue and as
    much colour (a pastel stays a muted tint, not a glowing one), as far in lightness from the
    dark page as it was from the white page. A grey takes the dark page's own hue, as it took
    the white page's."""
    rgb, page = _rgb(light), _rgb(DARK["bg"])
    hue, lightness, _ = colorsys.rgb_to_hls(*rgb)
    page_hue, darkest, _ = colorsys.rgb_to_hls(*page)
    chroma = max(rgb) - min(rgb)
    if chroma < _GREY:
        hue, chroma = page_hue, max(page) - min(page)
    distance = colorsys.rgb_to_hls(*_rgb(LIGHT["bg"]))[1] - lightness
    lightness = min(darkest + distance, DARK_MOST_LIGHTNESS)
    text = _rgb(DARK["text"])
    while True:
        # below half lightness, chroma = 2 × lightness × saturation
        saturation = min(chroma / (2 * lightness), 1.0) if lightness > 0 else 0.0
        colour = colorsys.hls_to_rgb(hue, lightness, saturation)
        if lightness <= darkest or _contrast(text, colour) >= DARK_TEXT_CONTRAST:
            return hex_colour(colour)
        lightness -= 0.005  # yellows and greens are brighter than their lightness says


def _contrast(a: Sequence[float], b: Sequence[float]) -> float:
    """WCAG's contrast ratio of two colours."""
    first, second = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (first + 0.05) / (second + 0.05)


def _luminance(rgb: Sequence[float]) -> float:
    """WCAG's relative luminance."""
    linear = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in rgb]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def _rgb(colour: str) -> tuple[float, float, float]:
    return (int(colour[1:3], 16) / 255, int(colour[3:5], 16) / 255, int(colour[5:7], 16) / 255)
