"""volley: sequence diagrams from plain text, with the request and response on every arrow.

import volley
diagram = volley.parse(text)                 # the model (volley.model)
svg = volley.render(text)                    # str; format="png"/"pdf" give bytes
"""

from __future__ import annotations

from typing import Any

from volley.errors import Diagnostic, VolleyError
from volley.limits import Limits
from volley.model import Diagram
from volley.parser import parse
from volley.textio import decode

__version__ = "0.1.0"
__all__ = ["Diagnostic", "Diagram", "Limits", "VolleyError", "decode", "parse", "render"]


# The package shares its name with this function. Importing it sets `volley.render` to the
# package the first time it loads; so it loads here, before the function takes the name back,
# and `volley.render(...)` stays callable whatever imports `volley.render.*` later.
import volley.render as _render_package  # noqa: E402


def render(source_or_diagram: str | Diagram, format: str = "svg", **options: Any) -> str | bytes:
    """Render source text or a parsed Diagram: SVG/HTML as str, PNG/PDF as bytes."""
    return _render_package.render(source_or_diagram, format=format, **options)
