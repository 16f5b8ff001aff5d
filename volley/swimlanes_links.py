"""swimlanes.io share links: how people pass such diagrams around, the diagram's text in the
link itself (`https://swimlanes.io/#<data>`, the data the base64 of the text compressed with raw
DEFLATE, as the site's editor and tools such as @verkstedt/swimlanes make them). volley reads a
link wherever it reads a diagram (`volley.api.carried`); `volley import` writes its text out.
Links to diagrams saved on the site (`/d/…`, `/u/…`) hold no text, and reading them would
need the network: they are refused with what to do instead."""

from __future__ import annotations

import os
import re
from collections.abc import Callable

from volley.errors import VolleyError
from volley.model import Diagram

# A link and nothing else, spaces and line breaks around it aside (matched in place: a
# diagram's text fails at its first letters, and is never copied to be stripped); in a file,
# as an address bar copies it (no scheme) or as Markdown and chat write it (`<https://…>`).
_LINK = re.compile(  # after a byte order mark too, as an editor may save a file
    r"\ufeff?\s*(?P<angle><)?(?i:(?P<scheme>https?://)?(?:www\.|cdn\.)?swimlanes\.io)"
    r"(?P<path>/[^#\s>]*)?(?:#(?P<data>[^\s>]*))?(?(angle)>)\s*"
)


# A link copied from a browser's address bar, which leaves out the scheme.
_SCHEMELESS_LINK = re.compile(r"(?i)(?:www\.|cdn\.)?swimlanes\.io/")


def is_link(text: str) -> bool:
    """Whether `text` is a swimlanes.io link and nothing else (spaces and line breaks around
    it aside): never a diagram, whose every line is a message, a note or a keyword."""
    return _LINK.fullmatch(text) is not None


def link_argument(argument: str) -> str | None:
    """The link a command-line argument is, when it names no file (with or without its
    scheme: `as_link`, which keeps a path into a folder called `swimlanes.io` a path); None
    for a path."""
    found = _LINK.fullmatch(as_link(argument))
    if found is None or found["scheme"] is None or os.path.exists(argument):
        return None
    return found.string


def as_link(argument: str) -> str:
    """A command-line argument that names no file but reads as a link copied without its
    scheme (`swimlanes.io/#…`), as that link; any other argument as it is."""
    folder = argument.split("/", 1)[0]  # a folder of that name holds files, not a link
    if _SCHEMELESS_LINK.match(argument) and not os.path.exists(folder):
        return "https://" + argument
    return argument


def decode_link(link: str, filename: str | None = None, max_bytes: int | None = None) -> str:
    """The diagram text a `https://swimlanes.io/#…` link carries, refused past `max_bytes`
    (the input limit; by default volley's)."""
    import base64  # here: only a link's text needs them
    import binascii
    import zlib
    from urllib.parse import unquote

    from volley.limits import DEFAULT_LIMITS

    found = _LINK.fullmatch(link)
    if found is None:
        raise VolleyError("not a swimlanes.io link", filename=filename)
    data = found["data"]

    def fail(message: str, hint: str | None = None) -> VolleyError:
        return VolleyError(
            message, filename=filename, line=1, column=1, source_line=link.strip(), hint=hint
        )

    if not data:
        path = (found["path"] or "/").rstrip("/")
        if path:
            raise fail(
                "this link names a diagram saved on swimlanes.io; it does not carry the diagram",
                "open it on swimlanes.io and copy its text, or a link of the form "
                "https://swimlanes.io/#…",
            )
        raise fail("this swimlanes.io link carries no diagram after #", "copy the whole link")
    packed = unquote(data).strip()
    try:
        alphabet = "-_" if ("-" in packed or "_" in packed) else "+/"
        raw = base64.b64decode(packed + "=" * (-len(packed) % 4), altchars=alphabet.encode())
    except (binascii.Error, ValueError):
        raise fail("the data after # in this link is not base64", "copy the whole link") from None
    limit = DEFAULT_LIMITS.input_bytes if max_bytes is None else max_bytes
    inflater = zlib.decompressobj(-zlib.MAX_WBITS)  # raw DEFLATE, as swimlanes.io writes it
    try:
        out = inflater.decompress(raw, limit + 1)
    except zlib.error:
        raise fail(
            "the data in this link does not decompress (it may be cut short)",
            "copy the whole link",
        ) from None
    if len(out) > limit:
        raise fail(f"the diagram in this link is larger than {limit:,} bytes")
    if not inflater.eof:  # the compressed stream stops before its end: the link was cut
        raise fail(
            "the data in this link does not decompress (it may be cut short)",
            "copy the whole link",
        )
    try:
        return out.decode("utf-8")
    except UnicodeDecodeError:
        raise fail("the diagram in this link is not UTF-8 text", "copy the whole link") from None


# A link to another host with no scheme (`](//cdn.example/x)`), which volley draws as text:
# its second slash, swapped for a letter of the same length so that the scanner finds the link
_OTHER_HOST = re.compile(r"(?<=\]\()[ ]*/(/)")


def _absolute(text: str, targets_of: Callable[[str], list[int]]) -> str:
    """The text with each link address written from swimlanes.io's root (`/gallery/x`, as its
    gallery writes them) made whole, and each written for another host with no scheme
    (`//cdn.example/x`, which swimlanes.io's https page reads as https) given its https."""
    found = targets_of(_OTHER_HOST.sub(lambda m: m[0][:-1] + "x", text))
    pieces, done = [], 0
    for start in found:
        if text.startswith("//", start):
            pieces += [text[done:start], "https:"]
        elif text.startswith("/", start):
            pieces += [text[done:start], "https://swimlanes.io"]
        else:
            continue
        done = start
    return "".join(pieces) + text[done:] if pieces else text


def site_links(diagram: Diagram) -> Diagram:
    """A diagram written on swimlanes.io with the links it makes from the site's root made
    whole: drawn anywhere else, `/gallery/x` would point at the site the picture is on. Code
    keeps what it shows."""
    from volley.rewrite import Rewrites, rewrite_diagram
    from volley.text.inline import link_targets, note_link_targets

    return rewrite_diagram(
        diagram,
        Rewrites(
            label=lambda text: _absolute(text, link_targets),
            note=lambda text: _absolute(text, note_link_targets),
        ),
    )
