"""What the importers of real traffic (HAR, traces, JSON-RPC) share: the choices a user makes
on the command line, and the masking of secrets before anything is written.

Real captures hold live credentials (an `Authorization` header, a session cookie, an API key
in a query string); a diagram made from one ends up in a README or a shared link. So every
traffic import masks by default, with the project's secret detection and redaction
(`volley.checks.secrets`, `volley.checks.redact`), and says how many values it masked, so
that `--no-redact` is a choice made knowing what it keeps.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from volley.checks.redact import redact_diagram
from volley.checks.secrets import DiagramSecrets
from volley.importers import Imported
from volley.importers.labels import visible_controls
from volley.language.writer import write
from volley.model import Diagram

__all__ = ["TrafficOptions", "imported", "masked", "masked_note"]


@dataclass(frozen=True)
class TrafficOptions:
    """`volley import` options for traffic; each importer reads the ones that apply to it."""

    names: Mapping[str, str] = field(default_factory=dict)  # --name: host or service → lane
    everything: bool = False  # --all: keep static assets (HAR)
    include: tuple[str, ...] = ()  # --include: URL patterns to keep (HAR)
    exclude: tuple[str, ...] = ()  # --exclude: URL patterns to leave out (HAR)
    keep_headers: bool = False  # --keep-headers: keep the headers every browser sends (HAR)
    # --max-body: characters of a body before the rest is cut, 0 for all; by default a HAR's
    # bodies are cut at HAR_MAX_BODY (pages and scripts run long), and a JSON-RPC message, the
    # protocol's own payload, is kept whole
    max_body: int | None = None
    redact: bool = True  # --no-redact turns masking off

    def body_limit(self, default: int) -> int:
        """The characters of a body kept (0: all): --max-body, or the format's `default`."""
        return default if self.max_body is None else self.max_body


HAR_MAX_BODY = 4000


def masked(diagram: Diagram) -> tuple[Diagram, int]:
    """A copy of the diagram with every secret-looking value masked, and how many there were."""
    secrets = DiagramSecrets(diagram)
    count = sum(1 for _ in secrets.places())
    return (redact_diagram(diagram, secrets), count) if count else (diagram, 0)


def masked_note(count: int) -> str:
    """What to tell the user on stderr about the values masked."""
    values = "value" if count == 1 else "values"
    return f"masked {count} secret-looking {values} as <redacted> (--no-redact keeps them)"


def imported(diagram: Diagram, options: TrafficOptions) -> Imported:
    """The diagram as `.volley` text, its secrets masked unless the options say not to."""
    count = 0
    if options.redact:
        diagram, count = masked(diagram)
    # A .volley file holds no NUL (it marks a binary file); one in captured traffic shows as
    # the replacement character, as a browser shows an undecodable byte. Other control
    # characters in a body (a terminal's escapes) are written as their escapes.
    text = write(diagram).replace("\x00", "\ufffd")
    return Imported(visible_controls(text), masked=count)
