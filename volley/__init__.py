"""volley: sequence diagrams from plain text, with the request and response on every arrow.

import volley
diagram = volley.parse(text)                 # the model (volley.model)
svg = volley.render(text)                    # str; format="png"/"pdf" give bytes
checked = volley.check(text)                 # the diagram and its warnings
options = volley.Options(format="html", theme="dark")  # checked when made
"""

from __future__ import annotations

from volley.api import check, parse, render
from volley.errors import Diagnostic, VolleyError
from volley.limits import Limits
from volley.model import Diagram
from volley.options import Options
from volley.textio import decode

__version__ = "0.1.0"
__all__ = [
    "Diagnostic",
    "Diagram",
    "Limits",
    "Options",
    "VolleyError",
    "check",
    "decode",
    "parse",
    "render",
]
