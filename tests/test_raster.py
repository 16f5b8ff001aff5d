"""PNG and PDF: produced, sized by scale, drawn from the plain-colour SVG, never fetching."""

from __future__ import annotations

import re
import struct
import subprocess
import sys
from pathlib import Path

import pytest

import volley
from volley.api import render
from volley.layout.engine import layout_diagram
from volley.output.raster import CAIRO_MAX_PIXELS, _fetch, rasterize
from volley.output.svg import render_svg

ROOT = Path(__file__).resolve().parent.parent


def png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", data[16:24])
    return width, height


def pdf_page_size(data: bytes) -> tuple[float, float]:
    assert data.startswith(b"%PDF-")
    box = re.search(rb"/MediaBox \[\s*([\d.]+) ([\d.]+) ([\d.]+) ([\d.]+)\s*\]", data)
    assert box is not None
    return float(box.group(3)) - float(box.group(1)), float(box.group(4)) - float(box.group(2))


def test_png_is_sized_by_scale(reference_text: str) -> None:
    layout = layout_diagram(volley.parse(reference_text))
    one = png_size(render(reference_text, "png"))
    two = png_size(render(reference_text, "png", scale=2))
    assert one == (round(layout.width), round(layout.height)) or abs(one[0] - layout.width) <= 1
    assert abs(two[0] - 2 * one[0]) <= 1 and abs(two[1] - 2 * one[1]) <= 1


@pytest.mark.parametrize("scale", [1, 1.5, 2, 3, 0.7])
@pytest.mark.parametrize("theme", ["light", "dark"])
def test_a_png_is_whole_pixels_of_the_picture_to_its_last_row(scale: float, theme: str) -> None:
    """A picture 1202.31 px wide made a PNG whose last column the background covered only in
    part, left see-through: a light line along a dark picture's edge on a light page."""
    import io
    import math

    from PIL import Image

    text = "A -> B: x\nB -> Payment Gateway: charge 42.10 €\n=: one\n"  # 483.83 × 304.75
    layout = layout_diagram(volley.parse(text))
    image = Image.open(io.BytesIO(render(text, "png", scale=scale, theme=theme))).convert("RGBA")
    assert image.size == (math.ceil(layout.width * scale), math.ceil(layout.height * scale))
    width, height = image.size
    edge = [image.getpixel((x, height - 1)) for x in range(width)]
    edge += [image.getpixel((width - 1, y)) for y in range(height)]
    assert {alpha for *_, alpha in edge} == {255}


@pytest.mark.parametrize("scale", [1, 2, 3])
def test_a_png_says_its_resolution_so_a_document_places_it_at_its_size(scale: int) -> None:
    """A `--scale 2` PNG placed in a document showed twice as large as the scale-1 one: no
    resolution was said. 96 pixels an inch at scale 1, as a CSS pixel is."""
    import io

    from PIL import Image

    image = Image.open(io.BytesIO(render("A -> B: x\n", "png", scale=scale)))
    image.load()  # (its chunks' checksums are read)
    assert image.info["dpi"] == pytest.approx((96 * scale, 96 * scale), abs=0.05)  # (per metre)


def test_pdf_is_produced_and_sized_by_scale(reference_text: str) -> None:
    one = pdf_page_size(render(reference_text, "pdf"))
    two = pdf_page_size(render(reference_text, "pdf", scale=2))
    assert two[0] == pytest.approx(2 * one[0], rel=0.01)
    assert two[1] == pytest.approx(2 * one[1], rel=0.01)


def test_png_and_pdf_are_deterministic(reference_text: str) -> None:
    assert render(reference_text, "png") == render(reference_text, "png")
    assert render(reference_text, "pdf") == render(reference_text, "pdf")


def test_raster_reads_the_plain_colour_variant(reference_text: str) -> None:
    diagram = volley.parse(reference_text)
    layout = layout_diagram(diagram)
    svg = render_svg(layout, diagram, theme="light", id_prefix="r", raster=True)
    assert "<style" not in svg and "var(" not in svg and "@media" not in svg
    # `auto` has no meaning on paper: asking for it is an error that says so.
    with pytest.raises(volley.VolleyError, match="auto"):
        render(reference_text, "png", theme="auto")
    assert render(reference_text, "png", theme="dark") != render(reference_text, "png")


def test_an_image_too_large_for_cairo_is_a_clear_error(reference_text: str) -> None:
    with pytest.raises(volley.VolleyError) as caught:
        render(reference_text, "png", scale=40)
    message = caught.value.format()
    assert f"{CAIRO_MAX_PIXELS:,}" in message
    assert "lower the scale" in message and "SVG" in message and "PDF" in message
    assert "pages" in message and "PDF, which have no such limit" not in message


@pytest.mark.parametrize("scale", [0, -1, float("nan"), float("inf")])
def test_scale_must_be_a_positive_number(scale: float) -> None:
    with pytest.raises(volley.VolleyError, match="scale"):
        render("A -> B", "png", scale=scale)


@pytest.mark.parametrize(
    "url",
    [
        "file:///etc/passwd",
        "https://example.com/a.png",
        "data:image/svg+xml;base64,PHN2Zy8+",  # a picture that could load more
        "data:text/plain,hello",
    ],
)
def test_external_resources_are_refused(url: str) -> None:
    """The raster path reads nothing but the PNG pictures of emoji it wrote itself."""
    with pytest.raises(volley.VolleyError, match="external"):
        _fetch(url, "image/png")


def test_the_svgs_own_emoji_pictures_are_read() -> None:
    png = b"\x89PNG\r\n\x1a\n"
    assert _fetch("data:image/png;base64,iVBORw0KGgo=", "image/png") == png


def test_an_external_image_in_an_svg_is_refused() -> None:
    svg = (
        '<svg xmlns="http://www.w3.org/2000/svg" width="20" height="20">'
        '<image href="file:///etc/passwd" width="20" height="20"/></svg>'
    )
    try:
        data = rasterize(svg, "png", width=20, height=20)
    except volley.VolleyError as exc:
        assert "external" in str(exc)
    else:
        assert png_size(data) == (20, 20)


def test_svg_alone_never_imports_cairosvg(reference_text: str) -> None:
    code = (
        "import sys, volley\n"
        "volley.render(sys.stdin.read())\n"
        "assert 'cairosvg' not in sys.modules and 'cairocffi' not in sys.modules\n"
    )
    subprocess.run([sys.executable, "-c", code], input=reference_text, text=True, check=True,
                   cwd=ROOT)  # fmt: skip


@pytest.mark.parametrize("path", sorted((ROOT / "examples").glob("*.volley")), ids=lambda p: p.name)
def test_every_example_rasterises(path: Path) -> None:
    source = path.read_text(encoding="utf-8")
    assert png_size(render(source, "png", bodies="appendix"))[0] > 100


def test_a_links_underline_is_drawn_in_png_and_pdf() -> None:
    """cairosvg ignores `text-decoration`: the raster variant draws a link's underline as a
    line under its run, in the link colour; the SVG leaves it to the browser."""
    diagram = volley.parse("A -> B: see [the docs](https://example.com) now")
    laid = layout_diagram(diagram)
    raster = render_svg(laid, diagram, id_prefix="v", raster=True)
    (underline,) = re.findall(r'<line class="underline[^>]*>', raster)
    label = laid.messages[0].label
    assert label is not None
    (run,) = [r for line in label.lines for r in line.runs if r.href]
    x1, x2 = (float(v) for v in re.findall(r'x[12]="([0-9.]+)"', underline))
    assert x2 - x1 == pytest.approx(run.width, abs=0.01)
    assert '<line class="underline' not in render_svg(laid, diagram, id_prefix="v")
