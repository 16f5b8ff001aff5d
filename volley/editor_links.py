"""volley's share links: a diagram's source carried in a URL, so nothing needs storing on a
server (the editor writes them, the server draws them, the gallery links to them).

An encoded source is `v1.` followed by the source's UTF-8 bytes compressed with zlib and
written in URL-safe base64 without padding. The version prefix lets a later format (another
compressor, a dictionary) arrive without breaking links already pasted into chats and READMEs.
It travels in an editor link's fragment (`/#v1.eJx…`, never sent to the server) and in the
image paths `/svg/v1.eJx…` and `/png/v1.eJx…`.

Decoding reads text from strangers, so it never inflates more than `max_bytes` (a few hundred
bytes of zlib can expand to gigabytes) and every failure is a `ShareError` that says what is
wrong with the link.
"""

from __future__ import annotations

import base64
import binascii
import re
import zlib

from volley.errors import VolleyError

VERSION = "v1"
PREFIX = VERSION + "."
DEFAULT_MAX_BYTES = 1_000_000  # the server's default request body limit
_ALPHABET = re.compile(r"[A-Za-z0-9_-]*")
_BASE64URL = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-"
_VERSIONED = re.compile(r"(v\d+)\.")

__all__ = [
    "DEFAULT_MAX_BYTES",
    "PREFIX",
    "VERSION",
    "ShareError",
    "ShareTooLarge",
    "decode",
    "encode",
]


class ShareError(VolleyError):
    """A share link that cannot be read back into a diagram."""


class ShareTooLarge(ShareError):
    """A share link whose diagram is over the size limit (the server answers 413)."""


def encode(source: str) -> str:
    """The source as `v1.<base64url(zlib(utf-8))>`, safe in a URL path and fragment."""
    data = zlib.compress(source.encode("utf-8"), 9)
    return PREFIX + base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def decode(encoded: str, *, max_bytes: int = DEFAULT_MAX_BYTES) -> str:
    """The source an `encode()`d string carries; a ShareError for anything else.

    A leading `#` (a copied fragment) is accepted. The inflated source may hold at most
    `max_bytes` bytes; decompression stops there rather than after the whole stream.
    """
    text = encoded.strip().removeprefix("#")
    version = _VERSIONED.match(text)
    if not version:
        raise ShareError(
            "this is not a volley share link: it should start with " + PREFIX,
            hint="copy the whole link, including the part after #",
        )
    if version.group(1) != VERSION:
        raise ShareError(
            f"this link uses share format {version.group(1)}; this volley reads {VERSION}",
            hint="open it with a newer volley",
        )
    payload = text[len(PREFIX) :]
    if not payload:
        raise ShareError("the share link carries no diagram after " + PREFIX)
    if not _ALPHABET.fullmatch(payload):
        bad = len(payload) - len(payload.lstrip(_BASE64URL))  # the first character outside
        raise ShareError(
            f"the share link holds {payload[bad]!r} at character {len(PREFIX) + bad + 1}, "
            "which URL-safe base64 does not use",
            hint="the link may have been cut or changed when it was copied",
        )
    try:
        data = base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4))
    except (binascii.Error, ValueError):
        raise ShareError(
            "the share link's data is cut short (its length is not valid base64)",
            hint="copy the whole link",
        ) from None
    return _inflate(data, max_bytes)


def _inflate(data: bytes, max_bytes: int) -> str:
    inflater = zlib.decompressobj()
    try:
        raw = inflater.decompress(data, max_bytes + 1)
    except zlib.error:
        raise ShareError(
            "the share link's data is damaged (it does not decompress)",
            hint="the link may have been cut or changed when it was copied",
        ) from None
    if len(raw) > max_bytes or inflater.unconsumed_tail:
        raise ShareTooLarge(
            f"the shared diagram is larger than the limit of {max_bytes:,} bytes",
            hint="render it from a file instead of a link",
        )
    if not inflater.eof:
        raise ShareError(
            "the share link's data is cut short (the compressed stream does not end)",
            hint="copy the whole link",
        )
    if inflater.unused_data:
        raise ShareError("the share link has extra data after the diagram")
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ShareError(
            f"the shared diagram is not valid UTF-8 (byte offset {exc.start})"
        ) from None
