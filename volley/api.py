"""`render`: source text or a parsed Diagram to SVG, PNG, PDF or HTML.

Every format starts from one layout (`volley.layout.engine`), so the static picture, the raster
files and the interactive viewer agree to the pixel.
"""

from __future__ import annotations

import hashlib
import importlib
import json
from json.encoder import encode_basestring_ascii as _quote
from typing import TYPE_CHECKING, Any

from volley.errors import VolleyError
from volley.gcpause import paused_gc
from volley.model import Block, Branch, Diagram, Divider, Item, Message, Note, Payload

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
        text = _sorted_json(source_or_diagram)
    else:
        text = source_or_diagram
    digest = hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()
    return "v" + digest[:10]


def _sorted_json(diagram: Diagram) -> str:
    """`json.dumps(diagram.to_json(), sort_keys=True, ensure_ascii=True)`, the text the prefix
    hashes, written straight from the model: a few times faster than building the dicts and
    sorting their keys. A model holding anything other than what the parser makes (a subclass,
    a value of another type) takes the slow road, so the text is the same whatever it holds.
    """
    if type(diagram) is Diagram:
        try:
            out = ['{"items": ']
            _write_items(diagram.items, out)
            title = "null" if diagram.title is None else _quote(diagram.title)
            out.append(f', "participants": {_quote_list(diagram.participants)}, "title": {title}}}')
            return "".join(out)
        except (_Unusual, TypeError, ValueError, RecursionError):
            pass
    return json.dumps(diagram.to_json(), sort_keys=True, ensure_ascii=True)


class _Unusual(Exception):
    """A value `_sorted_json` leaves to `json.dumps`."""


def _int(value: object) -> str:
    if type(value) is not int:
        raise _Unusual
    return str(value)


def _quote_list(values: list[str]) -> str:
    return "[" + ", ".join(map(_quote, values)) + "]"


def _payload(payload: Payload) -> str:
    if type(payload) is not Payload:
        raise _Unusual
    lang = "null" if payload.lang is None else _quote(payload.lang)
    return (
        f'{{"body": {_quote(payload.body)}, "form": {_quote(payload.form)}, '
        f'"label": {_quote(payload.label)}, "lang": {lang}}}'
    )


def _write_items(items: list[Item], out: list[str]) -> None:
    """Each item as its `to_json` with the keys sorted, in `json.dumps`' spacing."""
    out.append("[")
    for index, item in enumerate(items):
        if index:
            out.append(", ")
        kind = type(item)
        if kind is Message:
            number = "null" if item.number is None else _int(item.number)
            request = "null" if item.request is None else _payload(item.request)
            response = "null" if item.response is None else _payload(item.response)
            out.append(
                f'{{"arrow": {_quote(item.arrow)}, "from": {_quote(item.sender)}, '
                f'"label": {_quote(item.label)}, "line": {_int(item.line)}, "number": {number}, '
                f'"request": {request}, "response": {response}, '
                f'"to": {_quote(item.receiver)}, "type": "message"}}'
            )
        elif kind is Note:
            out.append(
                f'{{"line": {_int(item.line)}, "over": {_quote_list(item.over)}, '
                f'"text": {_quote(item.text)}, "type": "note"}}'
            )
        elif kind is Divider:
            out.append(
                f'{{"label": {_quote(item.label)}, "line": {_int(item.line)}, '
                f'"style": {_quote(item.style)}, "type": "divider"}}'
            )
        elif kind is Block:
            out.append('{"branches": [')
            for position, branch in enumerate(item.branches):
                if type(branch) is not Branch:
                    raise _Unusual
                out.append(', {"items": ' if position else '{"items": ')
                _write_items(branch.items, out)
                out.append(f', "label": {_quote(branch.label)}}}')
            out.append(
                f'], "kind": {_quote(item.kind)}, "line": {_int(item.line)}, "type": "block"}}'
            )
        else:
            raise _Unusual
    out.append("]")


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
    with paused_gc():
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
