"""PNG and PDF through cairosvg, which is imported only when a raster format is asked for.

cairosvg gets the plain-colour SVG variant (it ignores `@media` and cannot read CSS `var()`),
`unsafe=False`, and a URL fetcher that refuses everything: a diagram never reads a file or
the network while it is drawn.
"""

from __future__ import annotations

import math
import re

from volley.errors import VolleyError

RASTER_FORMATS = ("png", "pdf")
# The raster variant of the SVG names this private text-rendering mode. cairo rounds glyph
# advances to whole pixels by default ("hint metrics"), which drifts text away from the widths
# the layout measured: a space after a comma vanishes at scale 1. The mode turns that off and
# leaves everything else at cairo's defaults (geometricPrecision would also change antialiasing).
TEXT_RENDERING = "volley-measured"
CAIRO_MAX_PIXELS = 32_767  # cairo cannot make an image surface wider or taller than this


# cairo refuses a whole string that holds a Unicode noncharacter (U+FDD0 to U+FDEF, and the last
# two code points of every plane), though XML allows them; one in a label must not cost the
# picture, so they are drawn as U+FFFD like the characters XML forbids.
_NONCHARACTERS = re.compile(
    "[\ufdd0-\ufdef"
    + "".join(chr(plane + 0xFFFE) + chr(plane + 0xFFFF) for plane in range(0, 0x110000, 0x10000))
    + "]"
)


def _refuse(url: str, *args, **kwargs):
    raise VolleyError(f"a diagram may not load external resources (asked for {url[:80]!r})")


def check_size(width: float, height: float, scale: float) -> None:
    """Refuse a PNG that cairo cannot hold, naming the limit and the ways out."""
    px_w, px_h = math.ceil(width * scale), math.ceil(height * scale)
    if max(px_w, px_h) > CAIRO_MAX_PIXELS:
        raise VolleyError(
            f"the PNG would be {px_w:,} × {px_h:,} pixels; "
            f"PNG images are limited to {CAIRO_MAX_PIXELS:,} pixels a side",
            hint="lower --scale, or render to SVG or PDF, which have no such limit",
        )


def _cairosvg():
    try:
        import cairosvg
    except (ImportError, OSError) as exc:  # OSError: the cairo library itself is missing
        raise VolleyError(
            f"PNG and PDF need cairosvg and the cairo library ({exc})",
            hint="install cairo (e.g. apt install libcairo2, brew install cairo), or render SVG",
        ) from None
    return cairosvg


def rasterize(svg: str, fmt: str, *, width: float, height: float, scale: float = 1.0) -> bytes:
    """The plain-colour SVG as PNG or PDF bytes, `scale` times its size."""
    if fmt not in RASTER_FORMATS:
        raise VolleyError(f'"{fmt}" is not a raster format', hint="use png or pdf")
    if not (scale > 0 and math.isfinite(scale)):
        raise VolleyError(f"scale must be a positive number, not {scale}")
    if fmt == "png":
        check_size(width, height, scale)
    surfaces = _cairosvg().surface
    hint_metrics = getattr(surfaces, "TEXT_HINT_METRICS", None)  # a cairosvg internal
    if isinstance(hint_metrics, dict):
        hint_metrics.setdefault(TEXT_RENDERING, surfaces.cairo.HINT_METRICS_OFF)
    surface = surfaces.PNGSurface if fmt == "png" else surfaces.PDFSurface
    svg = _NONCHARACTERS.sub("\ufffd", svg)
    # The public svg2png() does not pass url_fetcher on; the surface's convert() does.
    data = surface.convert(
        bytestring=svg.encode("utf-8"), scale=scale, unsafe=False, url_fetcher=_refuse
    )
    return bytes(data)
