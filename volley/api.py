"""`render`: source text or a parsed Diagram to SVG, PNG, PDF or HTML.

Every format starts from one layout (`volley.layout.engine`), so the static picture, the raster
files and the interactive viewer agree to the pixel.
"""

from __future__ import annotations

import hashlib
import importlib
import json
from typing import TYPE_CHECKING, Any

from volley.errors import VolleyError
from volley.model import Diagram

if TYPE_CHECKING:
    from volley.layout.geometry import Layout

FORMATS = ("svg", "png", "pdf", "html")

__all__ = ["FORMATS", "default_id_prefix", "layout", "render"]


def default_id_prefix(source_or_diagram: str | Diagram) -> str:
    """A stable prefix from the diagram's content, so ids never clash between two diagrams.

    `render` derives it from the parsed diagram, so source text and its Diagram give the same
    bytes (what `volley render FILE` writes is what `volley.render(text)` returns).
    """
    if isinstance(source_or_diagram, Diagram):
        text = json.dumps(source_or_diagram.to_json(), sort_keys=True, ensure_ascii=True)
    else:
        text = source_or_diagram
    digest = hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()
    return "v" + digest[:10]


def _diagram(source_or_diagram: str | Diagram, filename: str | None, options: dict) -> Diagram:
    if isinstance(source_or_diagram, Diagram):
        return source_or_diagram
    if not isinstance(source_or_diagram, str):
        raise TypeError("render() takes .volley source text or a volley.Diagram")
    from volley.language.parser import parse

    return parse(source_or_diagram, filename=filename, limits=options.get("limits"))


def layout(source_or_diagram: str | Diagram, *, bodies: str = "markers") -> Layout:
    """The positioned picture, for tools that draw it their own way."""
    from volley.layout.engine import layout_diagram

    return layout_diagram(_diagram(source_or_diagram, None, {}), bodies=bodies)


def render(
    source_or_diagram: str | Diagram,
    format: str = "svg",
    *,
    theme: str | None = None,
    scale: float = 1.0,
    bodies: str = "markers",
    id_prefix: str | None = None,
    filename: str | None = None,
    **options: Any,
) -> str | bytes:
    """Render a diagram: SVG and HTML as str, PNG and PDF as bytes.

    `theme` is light, dark or auto (the picture follows the reader's colour scheme; raster
    formats use light). The default is auto for HTML, which a reader opens in a browser, and
    light for the files that travel (SVG, PNG, PDF). `scale` sizes PNG and PDF. `bodies` is
    "markers" (a numbered marker on each arrow that carries a payload, numbered as the
    message), "appendix" (markers plus the bodies listed under the diagram) or "none".
    `id_prefix` prefixes every id; the default is derived from the content.
    `redact=True` masks values that look like live secrets (tokens, passwords, cookies) in
    every output, see `volley.checks.secrets`. HTML-only options (such as `fragment`) are passed on to
    the HTML renderer.
    """
    fmt = (format or "svg").lower()
    if fmt not in FORMATS:
        raise VolleyError(f'unknown format "{format}"', hint="use one of: " + ", ".join(FORMATS))
    from volley.layout.engine import layout_diagram
    from volley.output.svg import render_svg
    from volley.output.themes import palette

    if theme is None:
        theme = "auto" if fmt == "html" else "light"
    palette(theme)  # refuse an unknown theme before doing any work
    diagram = _diagram(source_or_diagram, filename, options)
    if options.pop("redact", False):
        from volley.checks.secrets import redact_diagram

        diagram = source_or_diagram = redact_diagram(diagram)  # ids from what is shown
    prefix = id_prefix or default_id_prefix(diagram)  # the same for text and its Diagram
    picture = layout_diagram(diagram, bodies=bodies)
    if fmt == "svg":
        return render_svg(picture, diagram, theme=theme, id_prefix=prefix)
    if fmt == "html":
        html = _html_module()
        return html.render_html(
            diagram, picture, theme=theme, id_prefix=prefix, bodies=bodies, **options
        )
    raster_theme = "light" if theme == "auto" else theme
    if fmt == "pdf":
        from volley.output.pdf import render_pdf

        return render_pdf(picture, diagram, theme=raster_theme, id_prefix=prefix, scale=scale)
    from volley.output.raster import rasterize

    svg = render_svg(picture, diagram, theme=raster_theme, id_prefix=prefix, raster=True)
    return rasterize(svg, fmt, width=picture.width, height=picture.height, scale=scale)


def _html_module():
    try:
        return importlib.import_module("volley.output.html")
    except ModuleNotFoundError as exc:
        if exc.name != "volley.output.html":
            raise
        raise VolleyError(
            "HTML output is not available in this installation",
            hint="render to svg, png or pdf",
        ) from None
