"""The options of one render, named and checked in one place.

Every front end (the command line, README mode, the Markdown fences, the MkDocs plugin, the
server) turns what its user wrote into one `Options` and hands it to the pipeline in
`volley.api`. The vocabularies below exist only here: click's choices, the server's query
checks, the fence options and the MkDocs settings read them from this module.

A misspelt name (`redcat=True`) or a value that does not apply to the chosen format
(`fragment` on an SVG, `theme="auto"` on a PNG, which cannot follow the reader's colour
scheme) is an `OptionError` that says why, never an option quietly ignored.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, fields, replace
from typing import Any

from volley.errors import VolleyError
from volley.limits import DEFAULT_LIMITS, Limits

FORMATS = ("svg", "png", "pdf", "html")
THEMES = ("light", "dark", "auto")
BODIES = ("markers", "appendix", "none")
# Formats that are pictures of fixed pixels: they take a scale, and no `auto` theme.
RASTER_FORMATS = ("png", "pdf")
# The scales the command offers; from Python any positive scale goes to the rasterizer, which
# says so when the picture would be too large for it.
MIN_SCALE = 0.05
MAX_SCALE = 20.0

__all__ = [
    "BODIES",
    "FORMATS",
    "MAX_SCALE",
    "MIN_SCALE",
    "RASTER_FORMATS",
    "THEMES",
    "OptionError",
    "Options",
    "UnknownOptionError",
]


class OptionError(VolleyError, ValueError):
    """An option value that is not one volley knows, or that does not apply to the format.

    `option` names the field at fault, so a front end can name it in its own words (the
    command line's `--fragment`).
    """

    def __init__(self, option: str, message: str, *, hint: str | None = None) -> None:
        super().__init__(message, hint=hint)
        self.option = option

    def format(self, color: bool = False) -> str:
        """The message and the hint: an option is about the call, not a place in a file."""
        return self.message + (f"\n  {self.hint}" if self.hint else "")


class UnknownOptionError(OptionError, TypeError):
    """An option name volley does not know (a TypeError too, as for any unknown keyword)."""


@dataclass(frozen=True, slots=True)
class Options:
    """How to draw one diagram; every field is checked when the Options is made."""

    format: str = "svg"  # one of FORMATS
    theme: str | None = None  # one of THEMES; None: auto for HTML, light for files that travel
    bodies: str = "markers"  # markers, appendix (bodies listed under the picture), none
    appendix_lines: int | None = None  # appendix: at most this many lines a body; None: all
    scale: float = 1.0  # PNG and PDF size factor
    fragment: bool = False  # HTML: one embeddable <div> instead of a whole page
    include_assets: bool = True  # HTML fragment: carry the viewer's CSS and script
    redact: bool = False  # mask values that look like live secrets, in output and errors
    id_prefix: str | None = None  # prefix of every id; None: derived from the content
    limits: Limits = DEFAULT_LIMITS  # how much one parse may take in

    def __post_init__(self) -> None:
        _one_of("format", self.format, FORMATS)
        if self.theme is not None:
            _one_of("theme", self.theme, THEMES)
        _one_of("bodies", self.bodies, BODIES)
        for name in ("fragment", "include_assets", "redact"):
            if not isinstance(getattr(self, name), bool):
                raise OptionError(
                    name, f"{name} must be True or False, not {getattr(self, name)!r}"
                )
        lines = self.appendix_lines
        if lines is not None and (isinstance(lines, bool) or not isinstance(lines, int)):
            raise OptionError(
                "appendix_lines", f"appendix_lines must be a whole number, not {lines!r}"
            )
        if lines is not None and lines < 1:
            raise OptionError(
                "appendix_lines",
                f"appendix_lines must be at least 1, not {lines}",
                hint="leave it out to list every line of every body",
            )
        if isinstance(self.scale, bool) or not isinstance(self.scale, int | float):
            raise OptionError("scale", f"scale must be a number, not {self.scale!r}")
        if not (math.isfinite(self.scale) and self.scale > 0):
            raise OptionError("scale", f"scale must be a positive number, not {self.scale:g}")
        if self.id_prefix is not None and not isinstance(self.id_prefix, str):
            raise OptionError("id_prefix", f"id_prefix must be text, not {self.id_prefix!r}")
        if not isinstance(self.limits, Limits):
            raise OptionError(
                "limits",
                f"limits must be a volley.Limits, not {type(self.limits).__name__}",
                hint="for example limits=volley.Limits(messages=100_000)",
            )
        self._check_applies()

    def _check_applies(self) -> None:
        """Refuse an option the chosen format would ignore."""
        fmt = self.format
        if self.fragment and fmt != "html":
            raise OptionError(
                "fragment",
                f"fragment applies to html only, not to {fmt}",
                hint="a fragment is HTML to embed in a page",
            )
        if not self.include_assets and not self.fragment:
            raise OptionError(
                "include_assets",
                "include_assets applies to an HTML fragment only",
                hint="only a fragment can leave the viewer's CSS and script to its page",
            )
        if self.appendix_lines is not None and self.bodies != "appendix":
            raise OptionError(
                "appendix_lines",
                f'appendix_lines applies to bodies "appendix" only, not to "{self.bodies}"',
                hint="it caps the bodies listed under the picture",
            )
        if self.scale != 1.0 and fmt not in RASTER_FORMATS:
            raise OptionError(
                "scale",
                f"scale sizes png and pdf only, not {fmt}",
                hint="an SVG or HTML picture scales with the page that shows it",
            )
        if self.theme == "auto" and fmt in RASTER_FORMATS:
            raise OptionError(
                "theme",
                f'theme "auto" does not apply to {fmt}: a {fmt} cannot follow the '
                "reader's colour scheme",
                hint="use light or dark",
            )

    @classmethod
    def of(cls, **names: Any) -> Options:
        """Options from keyword names; an unknown name is an UnknownOptionError."""
        require_known(names)
        return cls(**names)

    def updated(self, **names: Any) -> Options:
        """A copy with some options changed, checked like a new one."""
        require_known(names)
        return replace(self, **names) if names else self

    @property
    def resolved_theme(self) -> str:
        """The theme drawn: auto for HTML, which a reader opens in a browser; light else."""
        if self.theme is not None:
            return self.theme
        return "auto" if self.format == "html" else "light"


NAMES = tuple(field.name for field in fields(Options))


def require_known(names: Iterable[str], known: tuple[str, ...] = NAMES, where: str = "") -> None:
    """Refuse a name not among `known` (a misspelt `redact` must not render unmasked), naming
    the one most likely meant; `where` says where it was written (" on the ```volley fence")."""
    for name in names:
        if name not in known:
            import difflib  # only for a misspelt name

            close = difflib.get_close_matches(name, known, n=1)
            hint = f'did you mean "{close[0]}"? ' if close else ""
            raise UnknownOptionError(
                name,
                f'unknown option "{name[:40]}"{where}',
                hint=hint + "options are: " + ", ".join(known),
            )


def _one_of(name: str, value: object, allowed: tuple[str, ...]) -> None:
    if value not in allowed:
        shown = value[:40] if isinstance(value, str) else repr(value)
        raise OptionError(
            name, f'unknown {name} "{shown}"', hint="use one of: " + ", ".join(allowed)
        )
