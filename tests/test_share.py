"""The share codec: links that carry a diagram, read back exactly, and refuse anything else
with a reason a person can act on — without ever inflating more than the limit."""

from __future__ import annotations

import base64
import re
import tracemalloc
import zlib

import pytest
from hypothesis import given
from hypothesis import strategies as st

from volley import editor_links as share
from volley.errors import VolleyError


def _wrap(data: bytes, version: str = "v1") -> str:
    return f"{version}." + base64.urlsafe_b64encode(data).decode().rstrip("=")


@pytest.mark.parametrize(
    "source",
    [
        "A -> B: hi",
        "",
        "title: Ünïcödé ✓ 日本語 🚀\nA -> B",
        "A -> B\r\nB --> A\r\n",
        "x" * 100_000,
    ],
)
def test_round_trip(source: str) -> None:
    assert share.decode(share.encode(source)) == source


@given(st.text())
def test_round_trip_any_text(source: str) -> None:
    try:
        encoded = share.encode(source)
    except UnicodeEncodeError:  # a lone surrogate is not text a file or a link can hold
        return
    assert share.decode(encoded) == source


def test_encoded_form_is_versioned_and_url_safe(reference_text: str) -> None:
    encoded = share.encode(reference_text)
    assert re.fullmatch(r"v1\.[A-Za-z0-9_-]+", encoded)
    assert len(encoded) < len(reference_text)  # worth compressing: links stay short


def test_a_copied_fragment_with_its_hash_is_accepted() -> None:
    assert share.decode("#" + share.encode("A -> B")) == "A -> B"
    assert share.decode("  " + share.encode("A -> B") + "\n") == "A -> B"


def test_the_format_is_zlib_in_base64url() -> None:
    """Another tool (or the editor's script) can write links with zlib and base64 alone."""
    raw = zlib.compress(b"A -> B: by hand", 1)
    assert share.decode(_wrap(raw)) == "A -> B: by hand"


@pytest.mark.parametrize(
    ("encoded", "message"),
    [
        ("hello", "not a volley share link"),
        ("", "not a volley share link"),
        ("v2.eJwLAQ", "share format v2; this volley reads v1"),
        ("v1.", "carries no diagram"),
        ("v1.abc+def", "'+' at character 7"),
        ("v1.abc%20", "'%' at character 7"),
        ("v1.a", "cut short"),
        ("v1.AAAAAAAA", "damaged"),
    ],
)
def test_bad_links_say_what_is_wrong(encoded: str, message: str) -> None:
    with pytest.raises(share.ShareError, match=re.escape(message)):
        share.decode(encoded)


def test_share_errors_are_volley_errors_with_a_hint() -> None:
    with pytest.raises(VolleyError) as caught:
        share.decode("v1.AAAA")
    assert caught.value.hint


def test_a_truncated_stream_is_cut_short_not_damaged(reference_text: str) -> None:
    encoded = share.encode(reference_text)
    with pytest.raises(share.ShareError, match="cut short"):
        share.decode(encoded[: len(encoded) // 2 // 4 * 4])


def test_extra_data_after_the_stream_is_refused() -> None:
    data = zlib.compress(b"A -> B") + b"junk"
    with pytest.raises(share.ShareError, match="extra data"):
        share.decode(_wrap(data))


def test_invalid_utf8_is_refused() -> None:
    with pytest.raises(share.ShareError, match="not valid UTF-8"):
        share.decode(_wrap(zlib.compress(b"A -> B: \xff")))


def test_a_zip_bomb_stops_at_the_limit() -> None:
    """1 GB of zeros compresses to about 1 MB of link; ~64 MB to a link that fits in a URL.
    Decoding must stop at max_bytes, not inflate it all first."""
    bomb = _wrap(zlib.compress(b"\0" * 64_000_000, 9))
    assert len(bomb) < 100_000
    tracemalloc.start()
    try:
        with pytest.raises(share.ShareError, match="larger than the limit of 1,000,000 bytes"):
            share.decode(bomb)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 8_000_000  # the limit's worth, not the 64 MB it would inflate to


def test_the_limit_is_exact() -> None:
    source = "a" * 1000
    assert share.decode(share.encode(source), max_bytes=1000) == source
    with pytest.raises(share.ShareError, match="limit of 999 bytes"):
        share.decode(share.encode(source), max_bytes=999)
