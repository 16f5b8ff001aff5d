"""swimlanes.io share links and saved swimlanes.io text, as canonical `.volley` text.

volley reads swimlanes.io's language as it is, so a saved file only goes through the writer
(`parse`, then `write`: the same text `volley fmt` gives). A share link carries the diagram in
its fragment: `https://swimlanes.io/#<data>`, the data being the base64 of the text compressed
with raw DEFLATE (no zlib header), as the site's own editor and tools such as
@verkstedt/swimlanes make them. Links to diagrams saved on the site (`/d/…`, `/u/…`) hold no
text; reading them would need the network, so they are refused with what to do instead.
"""

from __future__ import annotations

import base64
import binascii
import os
import re
import zlib
from urllib.parse import unquote

from volley.errors import Diagnostic, VolleyError, VolleyErrors
from volley.importers import Imported, PartlyImported
from volley.limits import DEFAULT_LIMITS

_LINK = re.compile(
    r"(?i:https?://(?:www\.|cdn\.)?swimlanes\.io)(?P<path>/[^#\s]*)?(?:#(?P<data>\S*))?"
)


# A link copied from a browser's address bar, which leaves out the scheme.
_SCHEMELESS_LINK = re.compile(r"(?i)(?:www\.|cdn\.)?swimlanes\.io/")


def is_link(text: str) -> bool:
    """Whether `text` is a swimlanes.io link and nothing else (spaces and line breaks around
    it aside): never a diagram, whose every line is a message, a note or a keyword."""
    return _LINK.fullmatch(text.strip()) is not None


def as_link(argument: str) -> str:
    """A command-line argument that names no file but reads as a link copied without its
    scheme (`swimlanes.io/#…`), as that link; any other argument as it is."""
    if _SCHEMELESS_LINK.match(argument) and not os.path.exists(argument):
        return "https://" + argument
    return argument


# An ATX heading: Markdown prose, which a saved diagram never is.
_HEADING = re.compile(r"^#{1,6}[ \t]+\S", re.MULTILINE)


def detect(text: str) -> int:
    """100 for a swimlanes.io link; 10 for text that reads as a diagram (volley's own language
    is swimlanes.io's, so such text is a saved swimlanes.io diagram unless another format is
    surer); 5 for text with mistakes but no sign of being anything else, so that its errors
    are reported; 0 for JSON and for Markdown prose."""
    from volley.language.parser import parse

    stripped = text.strip()
    if is_link(stripped):
        return 100
    if not stripped or stripped[0] in "{[":
        return 0
    try:
        parse(text)
    except VolleyError:
        return 0 if _HEADING.search(text) or _mostly_json(text) else 5
    return 10


def _mostly_json(text: str) -> bool:
    """Whether most lines hold JSON (`{"…` or `["…`): a log in a format no importer knows,
    whose lines read as swimlanes text would each be an error."""
    lines = [line for line in text.split("\n") if line.strip()]
    return sum(1 for line in lines if '{"' in line or '["' in line) * 2 > len(lines)


def convert(text: str, filename: str | None = None) -> list[Imported]:
    stripped = text.strip()
    link = _LINK.fullmatch(stripped)
    name: str | None = filename
    source = text
    if link is None:
        text_out, warnings = _canonical(source, name)
        return [Imported(text_out, None, warnings=warnings)]
    source = decode_link(stripped, filename)
    name = f"{filename or 'link'} (the diagram in the link)"
    from volley.importers import mermaid

    if mermaid.detect(source) >= 100:  # Mermaid pasted into swimlanes.io's editor, and shared
        return mermaid.convert(source, name)
    try:
        text_out, warnings = _canonical(source, name)
    except VolleyError as exc:
        # The text is in the link, where its writer cannot edit it: it is written out as the
        # link holds it (swimlanes.io draws what it can of it), with its mistakes to fix.
        said = Diagnostic(
            "the link's text is written as the link holds it, mistakes and all: fix the lines "
            "above, then run volley check",
            name,
            severity="note",
        )
        errors, warned = (
            (exc.errors, exc.warnings) if isinstance(exc, VolleyErrors) else ([exc], [])
        )
        as_held = Imported(source, None, warnings=(*warned, said))  # with what check says
        raise PartlyImported(errors, [as_held], 1) from None
    return [Imported(text_out, None, warnings=warnings)]


def decode_link(link: str, filename: str | None = None) -> str:
    """The diagram text a `https://swimlanes.io/#…` link carries."""
    found = _LINK.fullmatch(link.strip())
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
    limit = DEFAULT_LIMITS.input_bytes
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


def _canonical(source: str, filename: str | None) -> tuple[str, tuple[Diagnostic, ...]]:
    """The text through the parser and the writer, and what `volley check` would point out (a
    block left open at the end, which the written text closes; a `#` line read as a lane)."""
    from volley.api import check
    from volley.language.writer import rewrite

    checked = check(source, filename=filename)
    return rewrite(checked.diagram, source), tuple(checked.warnings)
