"""Colour palettes: light, dark, and `auto` (light that turns dark with the reader's setting).

Every painted element names its colour by role (`surface`, `line`, `accent`...). The SVG gets
the role's colour as a presentation attribute and a class per role (`vf-ROLE` for fill,
`vs-ROLE` for stroke), so `auto` needs only one `@media` block that re-colours the classes,
and the raster formats, which ignore CSS, still get plain colours.
"""

from __future__ import annotations

from collections.abc import Sequence
from types import MappingProxyType

from volley.errors import VolleyError
from volley.options import THEMES

# Roles and what they paint. Both palettes define every role.
LIGHT = MappingProxyType(
    {
        "bg": "#ffffff",  # the page
        "text": "#1e293b",  # labels, names, note text
        "muted": "#526077",  # secondary text: tabs, delays, trim notes (AA on the tab: 5.8:1)
        "line": "#334155",  # arrows and their heads
        "lifeline": "#8492a6",  # the dotted lines under the boxes (3:1 for a graphic, WCAG AA)
        "surface": "#f8fafc",  # participant boxes
        "border": "#475569",  # participant box outline
        "shadow": "#e2e8f0",  # the flat shadow under boxes
        "accent": "#4f46e5",  # section headers, payload markers, links
        "accent_soft": "#eef2ff",  # the section band, the marker fill
        "note": "#fef9e7",  # note paper
        "note_border": "#e6cf7a",  # note outline
        "code": "#eef1f5",  # inline code and code blocks
        "frame": "#8492a6",  # block frames and separators
        "tab": "#f1f5f9",  # the block kind tab
        "badge": "#334155",  # autonumber pill
        "inverse": "#ffffff",  # text on the badge
        "divider": "#8492a6",  # plain divider lines
        "missing": "#8492a6",  # outline of an unknown icon's placeholder: neutral, not an alarm
        # Syntax colours of a body in the appendix, the viewer's raw-view hues (html_theme.py),
        # each at least 4.5:1 on the code panel (`code`), WCAG AA for 11 px text.
        "syntax_key": "#1d4ed8",  # JSON keys, YAML keys, XML tags
        "syntax_attr": "#0e7490",  # HTTP header names, XML attributes
        "syntax_method": "#be185d",  # GET, POST
        "syntax_target": "#0f172a",  # the request target
        "syntax_kw": "#7c3aed",  # HTTP/1.1
        "syntax_reason": "#047857",  # OK, Not Found
        "syntax_str": "#047857",  # strings
        "syntax_num": "#9a4a08",  # numbers, status codes
        "syntax_const": "#7c3aed",  # true, false, null
        "syntax_val": "#334155",  # header and YAML values
        "syntax_pun": "#526077",  # braces, commas, colons
        "syntax_com": "#56657a",  # comments (also in italics)
    }
)

DARK = MappingProxyType(
    {
        "bg": "#0f172a",
        "text": "#e2e8f0",
        "muted": "#94a3b8",
        "line": "#cbd5e1",
        "lifeline": "#64748b",
        "surface": "#1e293b",
        "border": "#94a3b8",
        "shadow": "#020617",
        "accent": "#a5b4fc",
        "accent_soft": "#1e1b4b",
        "note": "#332a1a",
        "note_border": "#a0823f",
        "code": "#273449",
        "frame": "#64748b",
        "tab": "#1e293b",
        "badge": "#cbd5e1",
        "inverse": "#0f172a",
        "divider": "#64748b",
        "missing": "#64748b",
        "syntax_key": "#93c5fd",
        "syntax_attr": "#67e8f9",
        "syntax_method": "#f9a8d4",
        "syntax_target": "#e2e8f0",
        "syntax_kw": "#c4b5fd",
        "syntax_reason": "#6ee7b7",
        "syntax_str": "#6ee7b7",
        "syntax_num": "#fcd34d",
        "syntax_const": "#c4b5fd",
        "syntax_val": "#cbd5e1",
        "syntax_pun": "#94a3b8",
        "syntax_com": "#a3b1c4",
    }
)


def palette(theme: str) -> MappingProxyType:
    """The colours written as attributes: `auto` starts light and switches in CSS."""
    if theme not in THEMES:
        raise VolleyError(f'unknown theme "{theme}"', hint="use one of: " + ", ".join(THEMES))
    return DARK if theme == "dark" else LIGHT


SYNTAX = "syntax_"  # the roles that colour appendix bodies


def dark_mode_css(
    scope: str, *, syntax: bool = False, tints: Sequence[tuple[str, str]] = ()
) -> str:
    """The `@media` override for `auto`, scoped to one diagram's id so pages can hold several;
    the syntax roles only for a picture with an appendix (`syntax`), which alone uses them, and
    the dark colour of each of its rects' (`tints`: class, colour; see `volley.output.tints`)."""
    rules = []
    for role, colour in DARK.items():
        if role.startswith(SYNTAX) and not syntax:
            continue
        rules.append(f"#{scope} .vf-{role}{{fill:{colour}}}")
        rules.append(f"#{scope} .vs-{role}{{stroke:{colour}}}")
    rules += [f"#{scope} .{cls}{{fill:{colour}}}" for cls, colour in tints]
    return "@media screen and (prefers-color-scheme: dark){" + "".join(rules) + "}"
