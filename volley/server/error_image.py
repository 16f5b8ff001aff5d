"""A picture of an error, for the share-image endpoints (`/svg/…`, `/png/…`).

A README or a chat embeds a share link as an image; when its diagram does not parse, JSON
would show as a broken-image icon. The endpoints answer with this picture instead (still
with the error's status code: browsers and GitHub's image proxy show an image whatever the
status), drawn from `templates/server/error.svg` so every user text is escaped by Jinja.
"""

from __future__ import annotations

from functools import cache, lru_cache

import jinja2

from volley.errors import VolleyError, char_width
from volley.layout.typeset import xml_forbidden
from volley.resources import resource_path, template_environment

FONT_SIZE = 13
CHAR_WIDTH = 0.64 * FONT_SIZE  # a monospace cell (0.6em), with room for a wider fallback
LINE_HEIGHT = 18
TITLE_SIZE = 15
PAD = 16
MAX_LINES = 12  # an error is a few lines; a long hint or quoted line is cut, not the picture
MAX_COLUMNS = 120


@cache
def _template() -> jinja2.Template:
    folder = resource_path("templates", "server")
    return template_environment(folder, autoescape=True).get_template("error.svg")


def error_svg(text: str) -> tuple[str, float, float]:
    """The SVG of an error's text (`VolleyError.format()`), with its width and height."""
    lines = [_cut(line) for line in text.split("\n")[:MAX_LINES]]
    columns = max((sum(char_width(ch) for ch in line) for line in lines), default=0)
    width = round(max(2 * PAD + columns * CHAR_WIDTH, 360))
    first_line = PAD + TITLE_SIZE + LINE_HEIGHT + 4
    height = first_line + (len(lines) - 1) * LINE_HEIGHT + PAD
    svg = _template().render(
        lines=lines,
        width=width,
        height=height,
        pad=PAD,
        title_size=TITLE_SIZE,
        font_size=FONT_SIZE,
        line_height=LINE_HEIGHT,
        first_line=first_line,
    )
    return svg, width, height


def error_image(error: VolleyError, fmt: str) -> bytes:
    """The error as an SVG or PNG file."""
    return _image(error.format(), fmt)


# The same few errors come back again and again: "the server is busy" to every share image
# while the renderers are full, and a broken link that an image proxy keeps asking for. Each
# is drawn once, not once a request by the server process those requests are slowing down.
@lru_cache(maxsize=64)
def _image(text: str, fmt: str) -> bytes:
    svg, width, height = error_svg(text)
    if fmt == "svg":
        return svg.encode("utf-8")
    from volley.output.raster import rasterize

    return rasterize(svg, fmt, width=width, height=height)


def _cut(line: str) -> str:
    """The line as an SVG can hold it (a character XML has not, such as U+FFFE pasted into a
    share link's text, as its escape), cut to the picture's width."""
    line = xml_forbidden().sub(lambda found: f"\\u{ord(found[0]):04x}", line)
    return line if len(line) <= MAX_COLUMNS else line[: MAX_COLUMNS - 1] + "…"
