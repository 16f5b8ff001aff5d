"""Secrets in imported traffic masked before anything is written, and how many there were.

Real captures hold live credentials (an `Authorization` header, a session cookie, an API key
in a query string); a diagram made from one ends up in a README or a shared link. Importers
mask by default with the project's secret detection (`volley.checks.secrets`) and say how
many values they masked, so that `--no-redact` is a choice made knowing what it keeps.
"""

from __future__ import annotations

from volley.checks.secrets import diagram_secrets, redact_diagram
from volley.model import Diagram

__all__ = ["masked", "masked_note"]


def masked(diagram: Diagram) -> tuple[Diagram, int]:
    """A copy of the diagram with every secret-looking value masked, and how many there were."""
    count = sum(1 for _ in diagram_secrets(diagram))
    return (redact_diagram(diagram), count) if count else (diagram, 0)


def masked_note(count: int) -> str:
    """What to tell the user on stderr about the values masked."""
    values = "value" if count == 1 else "values"
    return f"masked {count} secret-looking {values} as <redacted> (--no-redact keeps them)"
