"""The colours of Mermaid's rects (`rect rgb(200, 220, 255)`) and boxes (`box Aqua Front end`),
as the picture paints them.

Each rect is filled with one opaque colour: its author's colour laid over what is behind it (the
page, or the rect around it), so nested rects look as they look in Mermaid on a white page. A
label's patch on a rect, which hides the lifelines behind the label, gets the same colour, so it
disappears into the rect instead of showing as a box, and no edge of one shape shows around
another.

On the light page, a colour too dark for the theme's text to read on (Mermaid's docs box two
participants in `Purple`) is washed towards white until every text the theme draws on it reads,
its muted text (a block's labels, a delay) too: that also keeps the grey lifelines and frame
lines on it in sight. On a dark page, a colour
chosen for a white one would glare behind light text, and one chosen to
be faint (`rgba(128, 128, 128, 0.1)`) would vanish. There each rect keeps its hue and stands out
from the dark page by as much as it stood out from the white one, never so light that the light
text on it is hard to read.
"""

from __future__ import annotations

import colorsys
from bisect import bisect_right
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from volley.layout.geometry import Band, BlockFrame, Rect
from volley.output.themes import DARK, LIGHT
from volley.text.colours import hex_colour, read_colour

# On a dark page, the lightest a rect may be; on either page, the least contrast the theme's
# text, and its muted text, keep on a rect or a band (WCAG's for body text).
DARK_MOST_LIGHTNESS = 0.28
TEXT_CONTRAST = 4.5
_GREY = 0.02  # a colour whose channels differ by less than this is a grey


@dataclass(frozen=True, slots=True)
class Fill:
    """A rect's colour on a light page and on a dark one, and the class the picture's dark-mode
    rules know it by."""

    light: str
    dark: str
    cls: str


class Tints:
    """The fills of a picture's rects (`frames`, outer first, as the layout lists them) and of
    its boxes' bands. A rect with no colour it can read is None: the theme's own tint. A band
    with none (or `transparent`) is None too, and has no fill: it is its outline.

    A rect is drawn over a band as over the page: it lies on the band's colour at one end and
    off it at the other as often as not, and one opaque colour cannot be both."""

    def __init__(self, frames: Sequence[BlockFrame], bands: Sequence[Band] = ()) -> None:
        self.frames = list(frames)
        self.bands = list(bands)
        self._fills: list[Fill | None] = []
        # the rect each lies in (an index into frames), or -1: rects nest, and the layout lists
        # them top to bottom, each before those inside it
        self._around: list[int] = []
        self._tops = [frame.box.y for frame in self.frames]
        named: dict[str, Fill] = {}
        self._band_fills = [
            None if _clear(band.tint) else self._fill(band.tint, LIGHT["bg"], named)
            for band in self.bands
        ]
        colours: list[str] = []  # each rect's colour as it looks on the white page
        for index, frame in enumerate(self.frames):
            around = index - 1
            while around >= 0 and not self.frames[around].box.contains(frame.box):
                around = self._around[around]
            self._around.append(around)
            under = colours[around] if around >= 0 else LIGHT["bg"]
            fill = self._fill(frame.tint, under, named)
            self._fills.append(fill)
            colours.append(LIGHT["tab"] if fill is None else fill.light)
        self._index = {id(frame): index for index, frame in enumerate(self.frames)}
        self._band_index = {id(band): index for index, band in enumerate(self.bands)}
        self.coloured = list(named.values())  # the distinct colours, for dark-mode rules

    @staticmethod
    def _fill(written: str | None, under: str, named: dict[str, Fill]) -> Fill | None:
        """The fill of a colour as written, laid over `under`; one Fill for each colour seen
        (`named`); None where there is no colour to read."""
        tint = read_colour(written) if written else None
        if tint is None:
            return None
        light = legible(blend(tint.hex, tint.opacity, under))
        if light not in named:
            named[light] = Fill(light, dark_tint(light), f"tint-{len(named) + 1}")
        return named[light]

    def of(self, frame: BlockFrame) -> Fill | None:
        return self._fills[self._index[id(frame)]]

    def of_band(self, band: Band) -> Fill | None:
        return self._band_fills[self._band_index[id(band)]]

    def cut_at_bands(self, patch: Rect) -> list[Rect]:
        """The patch cut at each edge of a coloured band that crosses it."""
        middle = patch.y + patch.h / 2
        cuts = sorted(
            {
                x
                for band in self.bands
                if self.of_band(band) is not None and band.box.y <= middle <= band.box.bottom
                for x in (band.box.x, band.box.right)
                if patch.x < x < patch.right
            }
        )
        edges = [patch.x, *cuts, patch.right]
        return [Rect(a, patch.y, b - a, patch.h) for a, b in zip(edges, edges[1:], strict=False)]

    def band_under(self, patch: Rect) -> Band | None:
        """The coloured band a patch lies on (by its middle), if any."""
        point = Rect(patch.x + patch.w / 2, patch.y + patch.h / 2, 0.0, 0.0)
        return next(
            (
                band
                for band in self.bands
                if self.of_band(band) is not None and band.box.contains(point, slack=0.0)
            ),
            None,
        )

    def under(self, patch: Rect) -> BlockFrame | None:
        """The innermost rect a patch (a label's halo, a divider's pill) lies on: the last rect
        to start above its middle, or the rect around that one which holds it."""
        point = Rect(patch.x + patch.w / 2, patch.y + patch.h / 2, 0.0, 0.0)
        index = bisect_right(self._tops, point.y) - 1
        while index >= 0 and not self.frames[index].box.contains(point, slack=0.0):
            index = self._around[index]
        return self.frames[index] if index >= 0 else None


def _clear(written: str | None) -> bool:
    """Whether a band's colour is none, or one that does not show (`rgba(0, 0, 0, 0)`)."""
    tint = read_colour(written) if written else None
    return tint is None or tint.opacity == 0


def blend(over: str, opacity: float, under: str) -> str:
    """`over` at `opacity` laid on the opaque `under`: the one colour the eye sees."""
    mixed = [a * opacity + b * (1 - opacity) for a, b in zip(_rgb(over), _rgb(under), strict=True)]
    return hex_colour(mixed)


def legible(colour: str) -> str:
    """A colour as the light page paints it: as chosen, unless the theme's text or muted text
    on it would fall below WCAG's 4.5:1 (Mermaid's own example boxes two participants in
    `Purple`); then washed towards the page's white, as a thinner coat of the same paint, only
    as much as the text needs."""
    washed, strength = colour, 1.0
    while not _reads_on(LIGHT, _rgb(washed)) and strength > 0:
        strength = round(strength - 0.01, 2)
        washed = blend(colour, strength, LIGHT["bg"])
    return washed


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
    while True:
        # below half lightness, chroma = 2 × lightness × saturation
        saturation = min(chroma / (2 * lightness), 1.0) if lightness > 0 else 0.0
        colour = hex_colour(colorsys.hls_to_rgb(hue, lightness, saturation))
        if lightness <= darkest or _reads_on(DARK, _rgb(colour)):
            return colour
        lightness -= 0.005  # yellows and greens are brighter than their lightness says


def _reads_on(theme: Mapping[str, str], colour: Sequence[float]) -> bool:
    """Whether the theme's text and its muted text both keep WCAG's 4.5:1 on `colour`."""
    return all(_contrast(_rgb(theme[role]), colour) >= TEXT_CONTRAST for role in ("text", "muted"))


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
