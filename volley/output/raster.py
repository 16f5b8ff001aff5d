"""PNG and PDF through cairosvg, which is imported only when a raster format is asked for.

cairosvg gets the plain-colour SVG variant (it ignores `@media` and cannot read CSS `var()`),
`unsafe=False`, and a URL fetcher that refuses everything but the emoji pictures the SVG holds
as `data:` URLs: a diagram never reads a file or the network while it is drawn. A PDF's pages
(planned in `volley.output.pdf`) are drawn onto one cairo PDF surface, whose creation date is
fixed so the same input gives the same bytes.
"""

from __future__ import annotations

import contextlib
import io
import math
import re
import struct
import unicodedata
import urllib.request
import zlib
from collections.abc import Iterable
from functools import cache
from urllib.parse import quote

from volley.errors import VolleyError
from volley.layout.typeset import clean_text
from volley.output.font_fallback import noncharacters, with_fallback_fonts
from volley.output.svg import TEXT_RENDERING

RASTER_FORMATS = ("png", "pdf")
CAIRO_MAX_PIXELS = 32_767  # cairo cannot make an image surface wider or taller than this
DPI = 96  # cairosvg's default, at which a pixel of the layout is a CSS pixel
PT_PER_PX = 72 / DPI  # a pixel of the layout in PDF points
# The creation date every PDF carries: the Unix epoch, as SOURCE_DATE_EPOCH=0 would give.
FIXED_DATE = "1970-01-01T00:00:00Z"


def _fetch(url: str, *args, **kwargs) -> bytes:
    """What cairosvg asks for: only the pictures of emoji the raster SVG holds as `data:`
    URLs (`volley.output.shaping`); never a file or the network."""
    if url.startswith("data:image/png;base64,"):
        with urllib.request.urlopen(url) as data:  # the standard library's data: URL reader
            return data.read()
    raise VolleyError(f"a diagram may not load external resources (asked for {url[:80]!r})")


def check_scale(scale: float) -> None:
    """Refuse a scale cairo would turn into an empty or endless picture."""
    if not (scale > 0 and math.isfinite(scale)):
        raise VolleyError(f"scale must be a positive number, not {scale}")


def check_size(width: float, height: float, scale: float) -> None:
    """Refuse a PNG that cairo cannot hold, naming the limit and the ways out."""
    px_w, px_h = math.ceil(width * scale), math.ceil(height * scale)
    if max(px_w, px_h) > CAIRO_MAX_PIXELS:
        pdf = "splits a tall picture over pages" if px_h >= px_w else "fits a wide one to its page"
        raise VolleyError(
            f"the PNG would be {px_w:,} × {px_h:,} pixels; cairo, which draws it, makes images "
            f"of at most {CAIRO_MAX_PIXELS:,} pixels a side",
            hint="lower the scale, or render to SVG, which has no size limit, or to PDF, which "
            + pdf,
        )


def _surfaces():
    """cairosvg's surface module, imported now, with the measured text mode registered."""
    try:
        import cairosvg.surface as surfaces
    except (ImportError, OSError) as exc:  # OSError: the cairo library itself is missing
        raise VolleyError(
            f"PNG and PDF need cairosvg and the cairo library ({exc})",
            hint="install cairo (e.g. apt install libcairo2, brew install cairo), or render SVG",
        ) from None
    hint_metrics = getattr(surfaces, "TEXT_HINT_METRICS", None)  # a cairosvg internal
    if isinstance(hint_metrics, dict):
        hint_metrics.setdefault(TEXT_RENDERING, surfaces.cairo.HINT_METRICS_OFF)
    return surfaces


def _safe(svg: str) -> bytes:
    """The SVG as cairo can draw it: noncharacters replaced, letters and the accents typed
    after them (`e` + U+0301, as macOS copies text) composed into the one character a font
    draws with its accent in place (cairo puts a lone mark beside its letter), other scripts
    given their fonts."""
    return with_fallback_fonts(_for_cairo(svg)).encode("utf-8")


def _for_cairo(text: str) -> str:
    """Text cairo takes: noncharacters replaced, accents composed with their letters."""
    return unicodedata.normalize("NFC", noncharacters().sub("\ufffd", text))


def rasterize(svg: str, fmt: str, *, width: float, height: float, scale: float = 1.0) -> bytes:
    """One SVG of `width` × `height` pixels as PNG or one-page PDF bytes, `scale` times its size."""
    if fmt not in RASTER_FORMATS:
        raise VolleyError(f'"{fmt}" is not a raster format', hint="use png or pdf")
    check_scale(scale)
    if fmt == "pdf":
        k = PT_PER_PX * scale
        return pdf_pages([PdfPage(width * k, height * k, [(svg, 0.0)])], scale)
    check_size(width, height, scale)
    # The public svg2png() does not pass url_fetcher on; the surface's convert() does.
    data = _surfaces().PNGSurface.convert(
        bytestring=_safe(_whole_pixels(svg, width, height, scale)),
        scale=scale,
        unsafe=False,
        url_fetcher=_fetch,
    )
    return _with_resolution(bytes(data), scale)


def _with_resolution(png: bytes, scale: float) -> bytes:
    """The PNG with its resolution said (a `pHYs` chunk after its header): 96 pixels an inch at
    scale 1, as a CSS pixel is, so that a document that places a `--scale 2` PNG shows it as
    large as the scale-1 one, twice as sharp (cairo says none: readers took 72 or 96)."""
    per_metre = round(96 * scale / 0.0254)
    body = b"pHYs" + struct.pack(">IIB", per_metre, per_metre, 1)  # 1: the unit is the metre
    chunk = struct.pack(">I", len(body) - 4) + body + struct.pack(">I", zlib.crc32(body))
    header_end = 8 + 25  # the signature, then IHDR: its length, type, 13 bytes and CRC
    return png[:header_end] + chunk + png[header_end:]


# The picture's size on its root element (as `volley.output.svg` writes it)
_ROOT_SIZE = re.compile(r'(<svg\b[^>]*?) width="[^"]*" height="[^"]*" viewBox="0 0 [^"]*"')


def _whole_pixels(svg: str, width: float, height: float, scale: float) -> str:
    """The SVG made as large as the whole pixels it takes at `scale`: the picture stays where
    it is, and its background, which fills it, reaches the PNG's last row and column (cairo
    leaves the part of a pixel the picture does not cover see-through: a light line along a
    dark picture's edge), and none of it is rounded away."""
    wide, high = (f"{math.ceil(side * scale - 1e-6) / scale:.5f}" for side in (width, height))
    size = f'width="{wide}" height="{high}" viewBox="0 0 {wide} {high}"'
    return _ROOT_SIZE.sub(lambda root: f"{root[1]} {size}", svg, count=1)


class PdfPage:
    """A page `width` × `height` points; each layer an SVG drawn `y` points down from its top,
    in order, so a later layer covers an earlier one; `links`, each an address and the box a
    reader clicks for it (x, y, width, height in points), which cairosvg does not make from the
    SVG's `<a>`. (A plain class: a dataclass would cost every SVG render half a millisecond at
    import.)"""

    __slots__ = ("width", "height", "layers", "links")

    def __init__(
        self,
        width: float,
        height: float,
        layers: list[tuple[str, float]],
        links: list[tuple[str, tuple[float, float, float, float]]] | None = None,
    ) -> None:
        self.width = width
        self.height = height
        self.layers = layers
        self.links = links or []


def pdf_pages(pages: Iterable[PdfPage], scale: float, title: str | None = None) -> bytes:
    """The pages as one PDF, with fixed metadata so the same pages give the same bytes; the
    diagram's `title` is the document's, as a reader's window and tab show it."""
    surfaces = _surfaces()
    cairo = surfaces.cairo
    layer = _layer_class(surfaces)
    out = io.BytesIO()
    pdf = cairo.PDFSurface(out, 1, 1)
    # cairo stamps the current time as the creation date; a fixed one keeps output byte-stable.
    with contextlib.suppress(AttributeError):  # cairo before 1.16 writes no dates at all
        pdf.set_metadata(cairo.PDF_METADATA_CREATE_DATE, FIXED_DATE)
        pdf.set_metadata(cairo.PDF_METADATA_CREATOR, "volley")
        if title:  # (cairo refuses what is not text: a noncharacter, a control character)
            pdf.set_metadata(cairo.PDF_METADATA_TITLE, clean_text(_for_cairo(title)))
    for page in pages:
        pdf.set_size(page.width, page.height)
        for svg, y in page.layers:
            pdf.set_device_offset(0, y)  # a context takes the offset when it is made
            tree = surfaces.Tree(bytestring=_safe(svg), unsafe=False, url_fetcher=_fetch)
            layer(tree, pdf, DPI, scale=scale)
        pdf.set_device_offset(0, 0)
        for uri, box in page.links:  # cairo's link tags become the PDF's link annotations
            context = cairo.Context(pdf)
            # cairo writes the address into the PDF as it is given: its parentheses and
            # backslashes would end or escape the string, and a PDF's address is ASCII
            quoted = quote(uri, safe=_URI_KEEPS)
            context.tag_begin(cairo.TAG_LINK, f"uri='{quoted}' rect=[{' '.join(map(str, box))}]")
            context.tag_end(cairo.TAG_LINK)
        pdf.show_page()
    pdf.finish()
    return out.getvalue()


# What an address keeps as written in a PDF link: RFC 3986's characters but the quote, the
# parentheses and the backslash, and its percent escapes
_URI_KEEPS = ":/?#[]@!$&*+,;=%~-._"


@cache
def _layer_class(surfaces) -> type:
    class Layer(surfaces.PDFSurface):
        """cairosvg's drawing onto the current page of a PDF that is already open, through
        the hook cairosvg leaves for surface types."""

        def _create_surface(self, width: float, height: float):
            return self.output, width, height

    return Layer
