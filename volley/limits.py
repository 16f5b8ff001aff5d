"""Limits that keep one diagram from taking a whole machine, each with a way to raise it.

The defaults are far above any hand-written diagram. A tool that renders text from many people
(a docs build, a shared render service) keeps them; a user who needs more raises one with the
matching `--max-…` option or `Limits(...)`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from volley.errors import VolleyError, place_in

if TYPE_CHECKING:
    from volley.model import Diagram

# Nested blocks are laid out and drawn by recursion, and Python ends a recursion about 1,000
# calls deep; a few more levels than this and a render (from inside a docs build's own deep
# stack, too) would stop with a traceback. No option raises the depth past it.
MAX_DEPTH = 150
CAIRO_MAX_SIDE = 32_767  # cairo makes no image surface wider or taller (volley.output.raster)


@dataclass(frozen=True)
class Limits:
    """How much one parse may take in; each has a `--max-*` option."""

    input_bytes: int = 5_000_000  # --max-input-bytes
    messages: int = 50_000  # --max-messages
    depth: int = 100  # --max-depth: blocks inside blocks, at most MAX_DEPTH
    label_chars: int = 10_000  # --max-label-chars: one title, label, name or note line
    participants: int = 5_000  # --max-participants
    # What the picture may become, checked before it is painted:
    items: int = 100_000  # --max-items: messages, notes, dividers, blocks and their branches
    pixels: int = 64_000_000  # --max-pixels: a PNG's pixels at its scale (4 bytes each)
    pdf_pages: int = 2_000  # --max-pdf-pages
    output_bytes: int = 100_000_000  # --max-output-bytes: an SVG or HTML file


DEFAULT_LIMITS = Limits()


class LimitError(VolleyError):
    """A diagram, or its picture, past one of the limits. `option` is the command line's way
    to raise it (`--max-messages`), which its hint names; a front end with another way (a
    shared render service, which has none) says its own."""

    def __init__(self, message: str, option: str, **place: Any) -> None:
        """`place`: where, as VolleyError takes it (filename, line, column, source_line)."""
        hint = f"raise it with {option} (or volley.Limits(...) from Python) if this is intended"
        super().__init__(message, hint=hint, **place)
        self.option = option


def limit_error(what: str, limit: int, option: str, **place: Any) -> LimitError:
    return LimitError(f"{what}, over the limit of {limit:,}", option, **place)


def check_input(text: str, filename: str | None, limits: Limits | None) -> None:
    """Checks that need only the text: its size."""
    limits = limits or DEFAULT_LIMITS
    size = len(text.encode("utf-8", "surrogatepass"))
    if size > limits.input_bytes:
        raise limit_error(
            f"the input's {size:,} bytes",
            limits.input_bytes,
            "--max-input-bytes",
            filename=filename,
        )


def nul_errors(text: str, filename: str | None) -> list[VolleyError]:
    """An error for each line holding a NUL byte, which is in no diagram's text (and a written
    one could not be read again), to be said among the text's other errors; a text full of
    them (a binary file, or UTF-16 saved without its byte-order mark), or with more lines
    that hold one than `_NUL_LINES`, is one error, at once."""
    if "\x00" not in text:
        return []
    if text.count("\x00") * 4 > len(text):
        refuse_nul(text, filename)
    errors, start = [], 0
    for line in text.split("\n"):
        column = line.find("\x00")
        if column >= 0:
            errors.append(_nul(text, filename, start + column))
            if len(errors) > _NUL_LINES:
                refuse_nul(text, filename)
        start += len(line) + 1
    return errors


_NUL_LINES = 5  # a text with NUL bytes on more lines is no diagram with a stray one


def refuse_nul(text: str, filename: str | None) -> None:
    """A NUL byte is in no diagram's text: the first one is an error."""
    nul = text.find("\x00")
    if nul >= 0:
        raise _nul(text, filename, nul)


def _nul(text: str, filename: str | None, at: int) -> VolleyError:
    if any(  # every other character: UTF-16, little- or big-endian, read as UTF-8
        len(half) > 1 and half.count("\x00") * 5 >= len(half) * 4
        for half in (text[0:40:2], text[1:40:2])
    ):
        said = "the text holds NUL bytes: it reads as UTF-16 without a byte-order mark"
        hint = "save the file as UTF-8"
    else:
        said = "the text holds a NUL byte; is this a binary file?"
        hint = "give a .volley file, or delete the NUL (an editor may show it as ^@)"
    return VolleyError(said, filename=filename, hint=hint, **place_in(text, at))


def items_over(diagram: Diagram, limit: int) -> tuple[int, int] | None:
    """(how many drawn items the diagram has, the line of the first past `limit`) when it has
    more than that; None when it has no more.

    Every item costs layout and painting work, whatever it is: a divider (`==`, four
    characters) draws a full-width band, so a short text can ask for hundreds of thousands.
    A block counts once, and once more for each of its branches.
    """
    from volley.model import Block, walk

    count, first = 0, 0
    for item in walk(diagram.items):
        count += 1 + (len(item.branches) if isinstance(item, Block) else 0)
        if count > limit and not first:
            first = item.line
    return (count, first) if first else None


def items_said(count: int) -> str:
    """How the items limit's error counts them."""
    return f"{count:,} items (messages, notes, dividers, blocks)"


def check_items(diagram: Diagram, limits: Limits | None) -> None:
    """Refuse a diagram made in code with more drawn items than the limit, before it is laid
    out (a parsed one was refused as it was read)."""
    limit = (limits or DEFAULT_LIMITS).items
    over = items_over(diagram, limit)
    if over is not None:
        raise limit_error(
            items_said(over[0]), limit, "--max-items", filename=diagram.filename, line=over[1]
        )


def check_picture(
    width: float, height: float, fmt: str, scale: float, limits: Limits | None
) -> None:
    """Refuse a picture too big to paint (PNG pixels) or too small to see, from its laid-out
    size, before cairo allocates anything."""
    limits = limits or DEFAULT_LIMITS
    if fmt not in ("png", "pdf"):
        return
    if not (scale > 0 and math.isfinite(scale)):
        raise VolleyError(
            f"the scale must be a positive number, not {scale}",
            hint="for example 2, twice the size",
        )
    px_w, px_h = width * scale, height * scale
    if min(px_w, px_h) < 1:
        raise VolleyError(
            f"at scale {scale:g} the picture would be {px_w:.3g} × {px_h:.3g} pixels, "
            "less than one pixel",
            hint="use a scale of about 0.5 to 4",
        )
    # A side past cairo's own limit is refused by the raster stage, which says so in words.
    sides_fit = max(px_w, px_h) <= CAIRO_MAX_SIDE
    if fmt == "png" and sides_fit and math.ceil(px_w) * math.ceil(px_h) > limits.pixels:
        raise limit_error(
            f"the PNG's {math.ceil(px_w):,} × {math.ceil(px_h):,} pixels "
            f"({math.ceil(px_w) * math.ceil(px_h):,})",
            limits.pixels,
            "--max-pixels",
        )


def check_pages(pages: int, limits: Limits | None) -> None:
    """Refuse a PDF of more pages than the limit, once they are planned and before any is
    drawn."""
    limits = limits or DEFAULT_LIMITS
    if pages > limits.pdf_pages:
        raise limit_error(f"the PDF's {pages:,} pages", limits.pdf_pages, "--max-pdf-pages")


def check_output(output: str | bytes, fmt: str, limits: Limits | None) -> None:
    """Refuse an SVG or HTML file larger than the limit (long labels and bodies, many of
    them): it is not handed on, written or served."""
    limits = limits or DEFAULT_LIMITS
    if fmt in ("svg", "html"):
        size = len(output)
        # A character is at most 4 bytes in UTF-8: only text that could be too long is counted.
        if isinstance(output, str) and size * 4 > limits.output_bytes:
            size = len(output.encode("utf-8"))
        if size > limits.output_bytes:
            raise limit_error(
                f"the {fmt.upper()} ({size:,} bytes)", limits.output_bytes, "--max-output-bytes"
            )
