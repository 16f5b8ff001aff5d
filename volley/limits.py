"""Limits that keep one diagram from taking a whole machine, each with a way to raise it.

The defaults are far above any hand-written diagram. A tool that renders text from many people
(a docs build, a shared render service) keeps them; a user who needs more raises one with the
matching `--max-…` option or `Limits(...)`.
"""

from __future__ import annotations

from dataclasses import dataclass

from volley.errors import VolleyError

# Nested blocks are laid out and drawn by recursion, and Python ends a recursion about 1,000
# calls deep; a few more levels than this and a render (from inside a docs build's own deep
# stack, too) would stop with a traceback. No option raises the depth past it.
MAX_DEPTH = 150


@dataclass(frozen=True)
class Limits:
    """How much one parse may take in; each has a `--max-*` option."""

    input_bytes: int = 5_000_000  # --max-input-bytes
    messages: int = 50_000  # --max-messages
    depth: int = 100  # --max-depth: blocks inside blocks, at most MAX_DEPTH
    label_chars: int = 10_000  # --max-label-chars: one title, label, name or note line
    participants: int = 5_000  # --max-participants


DEFAULT_LIMITS = Limits()


def limit_error(
    what: str,
    limit: int,
    option: str,
    *,
    filename: str | None = None,
    line: int = 0,
    column: int = 0,
    source_line: str | None = None,
) -> VolleyError:
    return VolleyError(
        f"{what} exceeds the limit of {limit:,}",
        filename=filename,
        line=line,
        column=column,
        source_line=source_line,
        hint=f"raise it with {option} (or volley.Limits(...) from Python) if this is intended",
    )


def check_input(text: str, filename: str | None, limits: Limits | None) -> None:
    """Checks that need only the text: its size, and characters no diagram can hold."""
    limits = limits or DEFAULT_LIMITS
    size = len(text.encode("utf-8", "surrogatepass"))
    if size > limits.input_bytes:
        raise limit_error(
            f"the input ({size:,} bytes)",
            limits.input_bytes,
            "--max-input-bytes",
            filename=filename,
        )
    nul = text.find("\x00")
    if nul >= 0:
        line = text.count("\n", 0, nul) + 1
        start = text.rfind("\n", 0, nul) + 1
        end = text.find("\n", nul)
        raise VolleyError(
            "the text holds a NUL byte; is this a binary file?",
            filename=filename,
            line=line,
            column=nul - start + 1,
            source_line=text[start : end if end >= 0 else len(text)],
        )
