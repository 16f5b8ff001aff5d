"""Redaction: a diagram in, a copy with every secret-looking value masked out.

A step of the pipeline between the checks and the layout (`volley.api`): everything drawn
after it (the picture, the payload tables, the raw bodies, the ids derived from the content)
sees only the masked texts. What counts as a secret, and how a text is masked so that a JSON
body stays JSON, is `volley.checks.secrets`' business; this module only walks the model.

Errors and warnings are masked too: an error quotes the line it points at, and under
`redact` that line may be the very header the user asked to hide.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

from volley.checks.secrets import (
    DiagramSecrets,
    holds_pasted_traffic,
    may_repeat_a_secret,
    redact_names,
    redact_text,
    repeated_in,
)
from volley.errors import Diagnostic, VolleyError, VolleyErrors
from volley.model import Diagram
from volley.rewrite import Rewrites, rewrite_diagram

__all__ = ["redact_diagnostic", "redact_diagram", "redact_error", "redact_said"]


def _unchanged(text: str) -> str:
    return text


def redact_diagram(diagram: Diagram, secrets: DiagramSecrets | None = None) -> Diagram:
    """A copy of the diagram with every secret-looking value masked, and each value found so
    masked wherever else it appears; the input is not changed. `secrets` are the diagram's,
    when they were found already (for its warnings)."""
    if secrets is None:  # (found none is falsy: `len` counts them)
        secrets = DiagramSecrets(diagram)

    def label(text: str) -> str:
        return secrets.masked(text, as_body=False)

    rewrites = Rewrites(
        label=label,
        # a fenced block in a note is pasted traffic, masked like a body
        note=lambda text: secrets.masked(text, as_body=holds_pasted_traffic(text)),
        body=lambda text: secrets.masked(text, as_body=True),
        names=redact_names(diagram.participants, label),  # a name can hold a token too
    )
    copy = rewrite_diagram(diagram, rewrites)
    copy.warnings = [redact_diagnostic(warning, secrets.again) for warning in diagram.warnings]
    return copy


def redact_error(error: VolleyError, again: Callable[[str], str] = _unchanged) -> VolleyError:
    """The error with secret-looking values masked in its message, quoted line and hint, and
    what `again` masks (the secrets of the text it is about, where they are repeated unnamed:
    `secrets.repeated_in`); every error of a VolleyErrors, and the warnings that came with
    them."""
    if isinstance(error, VolleyErrors):
        return VolleyErrors(
            [redact_error(each, again) for each in error.errors],
            [redact_diagnostic(each, again) for each in error.warnings],
        )

    mask = _masking(again)
    masked = mask(error.source_line) if error.source_line is not None else None
    return VolleyError(
        mask(error.message),
        filename=error.filename,
        line=error.line,
        column=error.column,
        source_line=masked,
        hint=mask(error.hint) if error.hint else error.hint,
        caret=_caret(error.source_line, masked, error.column, mask),
    )


def redact_said(
    said: VolleyError | Diagnostic, again: Callable[[str], str] = _unchanged
) -> VolleyError | Diagnostic:
    """An error or a warning about to be printed, masked as `redact_error` or
    `redact_diagnostic` masks it."""
    if isinstance(said, VolleyError):
        return redact_error(said, again)
    return redact_diagnostic(said, again)


class SaidAbout:
    """What masks the errors and warnings about one source before they are printed: their
    own secrets, and each credential the source names wherever they repeat it (a capture's line
    quoted alone may hold a cookie whose name is on the line above). The source, which may be
    megabytes of a capture, is searched once, and only when a message holds a word that could
    be such a credential ("left out 37 static assets" holds none). Without `mask` (redaction
    not asked for, or a source that is no capture), what is said is printed as it is."""

    def __init__(self, source: str = "", mask: bool = True) -> None:
        self.source = source
        self.mask = mask
        self._again: Callable[[str], str] | None = None

    def __call__(self, said: VolleyError | Diagnostic) -> VolleyError | Diagnostic:
        if not self.mask:
            return said
        if not may_repeat_a_secret(*_words(said)):
            return redact_said(said)
        if self._again is None:
            self._again = repeated_in(self.source)
        return redact_said(said, self._again)


def _words(said: VolleyError | Diagnostic) -> list[str | None]:
    """Every text an error (each of its errors, and what was found besides) or a warning
    prints."""
    if isinstance(said, VolleyError):
        parts: list[VolleyError | Diagnostic] = [*said.errors, *said.warnings]
    else:
        parts = [said]
    return [text for part in parts for text in (part.message, part.hint, part.source_line)]


def redact_diagnostic(
    diagnostic: Diagnostic, again: Callable[[str], str] = _unchanged
) -> Diagnostic:
    """A warning or error about to be printed, with secret-looking values masked, and what
    `again` masks (the diagram's secrets where it repeats them unnamed: `DiagramSecrets.again`)."""

    mask = _masking(again)
    line = diagnostic.source_line
    masked = None if line is None else mask(line)
    return dataclasses.replace(
        diagnostic,
        message=mask(diagnostic.message),
        source_line=masked,
        hint=mask(diagnostic.hint) if diagnostic.hint else diagnostic.hint,
        caret=_caret(line, masked, diagnostic.column, mask),
    )


def _masking(again: Callable[[str], str]) -> Callable[[str], str]:
    """What masks a text an error or a warning prints: its secrets, then what `again` masks."""
    return lambda text: again(redact_text(text))


def _caret(
    line: str | None, masked: str | None, column: int, mask: Callable[[str], str]
) -> int | None:
    """Where the caret at `column` of `line` stands in the line as masked, when a mask before
    it changed the line's length: after the masked text before it, if masking that alone
    gives the same start; else as far from the end as the text after it, if that is unmasked;
    else at the column, within the line."""
    if line is None or masked is None or masked == line or column < 1:
        return None
    before, after = line[: column - 1], line[column - 1 :]
    start = mask(before)
    if masked.startswith(start):
        return len(start) + 1
    if after and masked.endswith(after):
        return len(masked) - len(after) + 1
    return min(column, len(masked) + 1)
