"""What one request may ask of a shared server. Kept apart from the server itself so the
command line can show the defaults without importing the web stack."""

from __future__ import annotations

import os
from dataclasses import dataclass, field

from volley.editor_links import DEFAULT_MAX_BYTES
from volley.errors import VolleyError
from volley.limits import DEFAULT_LIMITS, LimitError, Limits


def _workers() -> int:
    return min(4, os.cpu_count() or 1)


@dataclass(frozen=True)
class ServerLimits:
    """Per-request bounds; the defaults suit a team service."""

    body_bytes: int = DEFAULT_MAX_BYTES  # a POSTed source, and a share link's inflated source
    render_seconds: float = 10.0  # waiting for a free worker plus drawing; killed after it
    render_memory_bytes: int = 1_000_000_000  # address space of one render process
    body_seconds: float = 10.0  # longest wait for the next piece of a request body
    header_seconds: float = 10.0  # longest wait for a request's headers (protocol.py)
    header_bytes: int = 16 * 1024  # a request's headers, names and values, in all
    render_workers: int = field(default_factory=_workers)  # renders running at once
    max_scale: float = 4.0  # PNG size factor; pixels grow with its square
    diagram: Limits = DEFAULT_LIMITS  # the parser's limits (messages, depth, …)


DEFAULT_SERVER_LIMITS = ServerLimits()


def service_hint(error: VolleyError) -> str | None:
    """An error's hint as a user of the service reads it: a limit is this server's, which no
    request raises (the command line's option, which the hint names, is not theirs to give)."""
    if isinstance(error, LimitError):
        lower = "lower the scale, or " if error.option == "--max-pixels" else ""
        return f"this server's limit; {lower}the volley command draws it with {error.option} raised"
    return error.hint
