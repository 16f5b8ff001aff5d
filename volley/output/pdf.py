"""PDF: the picture on pages no larger than PDF readers accept, each cut between two rows.

PDF pages may be at most 14,400 units a side (Acrobat's limit, which other readers follow),
and a 5,000-message diagram is ten times as tall. So a long picture is cut into pages: each
cut falls in the white space between rows, never through a label, and every page after the
first opens with the participant boxes again so the reader knows which lane is which. A wide
picture is scaled down to fit the page width. A short diagram stays one page of its natural
size, so it can be placed in a document like an image.

Where the cuts fall is layout's (`volley.layout.pagination`); cairosvg is imported only when the
pages are drawn (`volley.output.raster`).
"""

from __future__ import annotations

from collections.abc import Iterator

from volley.layout.geometry import Layout
from volley.layout.metrics import ASCENT, DESCENT
from volley.layout.pagination import Span, header_band, header_layout, page_layouts, paginate
from volley.limits import Limits, check_pages
from volley.model import Diagram
from volley.output.raster import PT_PER_PX, PdfPage, check_scale, pdf_pages
from volley.output.svg import render_svg
from volley.text.inline import plain_text

MAX_PAGE_PT = 14_400  # the largest page side PDF readers accept, in points
# A page is at most this many times as tall as it is wide, so a long diagram comes out as
# pages a reader can scroll or print; every example (at most 2.3 times) stays one page.
PAGE_ASPECT = 3.0
MIN_PAGE_PX = 2_000  # a narrow diagram's pages still hold a good run of rows


def render_pdf(
    layout: Layout,
    diagram: Diagram,
    *,
    theme: str,
    id_prefix: str,
    scale: float = 1.0,
    max_pages: int | None = None,
) -> bytes:
    """The picture as PDF bytes, one page or several, `scale` times its size; more pages than
    `max_pages` is a limit error before any page is drawn."""
    check_scale(scale)
    width = max(layout.width, 1.0)
    scale = page_scale(width, scale)
    k = PT_PER_PX * scale
    band = header_band(layout)
    limit = min(max(PAGE_ASPECT * width, MIN_PAGE_PX), MAX_PAGE_PT / k)
    if band and band[1] > limit / 2:
        band = None  # at a huge scale the header would crowd the rows out
    pages = paginate(layout, limit, band[1] if band else 0.0)
    if max_pages is not None:
        check_pages(len(pages), Limits(pdf_pages=max_pages))

    def svg(picture: Layout, window: Span | None) -> str:
        return render_svg(
            picture, diagram, theme=theme, id_prefix=id_prefix, raster=True, window=window
        )

    def drawn() -> Iterator[PdfPage]:
        if len(pages) == 1:
            links = _links(layout, (0.0, layout.height), 0.0, k)
            yield PdfPage(width * k, layout.height * k, [(svg(layout, None), 0.0)], links)
            return
        header = svg(header_layout(layout, band), band) if band else ""
        for page, part in zip(pages, page_layouts(layout, pages), strict=True):
            rows = page.bottom - page.top
            body = svg(part, (page.top, rows))
            if page.header and band:
                layers = [(body, band[1] * k), (header, 0.0)]
                links = _links(part, (page.top, rows), band[1] * k, k)
                yield PdfPage(width * k, (band[1] + rows) * k, layers, links)
            else:
                links = _links(part, (page.top, rows), 0.0, k)
                yield PdfPage(width * k, rows * k, [(body, 0.0)], links)

    return pdf_pages(drawn(), scale, title=plain_text(diagram.title) if diagram.title else None)


def page_scale(width: float, scale: float) -> float:
    """The scale a picture `width` pixels wide is drawn at in a PDF asked for at `scale`: no
    larger than its pages' width allows (`MAX_PAGE_PT`)."""
    return min(scale, MAX_PAGE_PT / (max(width, 1.0) * PT_PER_PX))


def _links(
    layout: Layout, window: tuple[float, float], offset: float, k: float
) -> list[tuple[str, tuple[float, float, float, float]]]:
    """Each web or mail link the layout draws on a page, and its run's box in points on it: the
    page shows the layout's rows from `window`'s top, as many as its second says, `offset`
    points down (below a repeated header), at `k` points a pixel. A note or a frame that runs
    over several pages has its lines on each, and each link goes on the page that draws its
    words. A relative link or an anchor leads nowhere from a PDF, and is left out."""
    top, rows = window
    out = []
    for block in layout.text_blocks():
        for line in block.lines:
            high = (ASCENT + DESCENT) * line.size
            y = line.baseline - ASCENT * line.size - top
            if y + high <= 0 or y >= rows:
                continue  # drawn on another page
            for run in line.runs:
                if run.href and run.href.startswith(("http://", "https://", "mailto:")):
                    x = line.x + run.dx
                    out.append((run.href, (x * k, y * k + offset, run.width * k, high * k)))
    return out
