"""volley: sequence diagrams from plain text, with the request and response on every arrow.

import volley
diagram = volley.parse(text)                 # the model (volley.model)
svg = volley.render(text)                    # str; format="png"/"pdf" give bytes
"""

from __future__ import annotations

from volley.errors import Diagnostic, VolleyError
from volley.limits import Limits
from volley.model import Diagram
from volley.api import render
from volley.language.parser import parse
from volley.textio import decode

__version__ = "0.1.0"
__all__ = ["Diagnostic", "Diagram", "Limits", "VolleyError", "decode", "parse", "render"]

