"""What the importers of real traffic (HAR, traces, JSON-RPC) share: the choices a user makes
on the command line, and the masking of secrets before anything is written.

Real captures hold live credentials (an `Authorization` header, a session cookie, an API key
in a query string); a diagram made from one ends up in a README or a shared link. So every
traffic import masks by default, with the project's secret detection and redaction
(`volley.checks.secrets`, `volley.checks.redact`), and says how many values it masked, so
that `--no-redact` is a choice made knowing what it keeps.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field

from volley.checks.redact import redact_diagram
from volley.checks.secrets import MASK, DiagramSecrets
from volley.errors import Diagnostic
from volley.importers import Imported
from volley.importers.labels import apart_by_case, visible_controls
from volley.language.writer import write
from volley.model import Diagram
from volley.rewrite import Rewrites, rewrite_diagram

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
    # the --name keys a lane was named by in one import (`volley.importers.convert` gives
    # each its own), so that one that named none can be pointed out
    renamed: set[str] = field(default_factory=set, compare=False)

    def chosen_name(self, *keys: str) -> str | None:
        """The lane name --name gives the first of `keys` it names (a host with its port, then
        without), or None; the key is noted as one that named a lane."""
        for key in keys:
            if key in self.names:
                self.renamed.add(key)
                return self.names[key]
        return None

    def unused_renames(self, filename: str | None) -> list[Diagnostic]:
        """A warning for each --name that named no lane (a host or service misspelt)."""
        return [
            Diagnostic(
                f"--name {key}={new} named no lane: nothing in the file is called {key!r}",
                filename=filename,
                severity="warning",
                hint="name a lane as the diagram shows it without --name: a host (with its "
                "port, if it has one), a service, a client or server",
            )
            for key, new in self.names.items()
            if key not in self.renamed
        ]

    def body_limit(self, default: int) -> int:
        """The characters of a body kept (0: all): --max-body, or the format's `default`."""
        return default if self.max_body is None else self.max_body


HAR_MAX_BODY = 4000


def masked(diagram: Diagram) -> tuple[Diagram, int]:
    """A copy of the diagram with every secret-looking value masked, and how many there were.

    A captured HTTP message's credential headers are masked whatever their values look like:
    in a diagram written by hand `Authorization: Bearer test` shows a stand-in, but in a
    capture it is what the client sent, and a test server's password is a password."""
    count = 0

    def headers(body: str) -> str:
        nonlocal count
        body, found = _credential_headers(body)
        count += found
        return body

    # The scan first: a credential it finds in a header is masked wherever the capture
    # repeats it (a query string, an echo in a body); then what it left as a stand-in. A
    # value that looks like an example (`password=changeme`) is masked too: it was sent.
    secrets = DiagramSecrets(diagram)
    diagram = redact_diagram(diagram, secrets)
    diagram = rewrite_diagram(diagram, Rewrites(body=headers))
    return diagram, count + len(secrets)


# An HTTP message's first line: a request's (`POST /login HTTP/1.1`, any method RFC 9110 allows,
# `M-SEARCH` or a lowercase `post` too, and a target as the capture has it, spaces and all) or a
# response's; its lines may end in CRLF.
_HTTP_START = re.compile(r"(?:[A-Za-z0-9!#$%&'*+.^_`|~-]+ .+ HTTP/\S+|HTTP/\S+ \d{3}\b.*)\r?")
_CREDENTIALS = ("authorization", "proxy-authorization", "cookie", "set-cookie")


def _credential_headers(body: str) -> tuple[str, int]:
    """An HTTP message with the values of its credential headers masked (an Authorization's
    after its scheme, each cookie's after its name), and how many; any other text as it is."""
    lines = body.split("\n")
    if not lines or not _HTTP_START.fullmatch(lines[0]):
        return body, 0
    count = 0
    for index, line in enumerate(lines[1:], 1):
        if not line.strip():
            break  # the headers end at the first empty line
        line, ending = line.removesuffix("\r"), "\r" if line.endswith("\r") else ""
        name, colon, value = line.partition(":")
        folded = name.strip().lower()
        if not colon or folded not in _CREDENTIALS or not value.strip():
            continue
        if folded.endswith("authorization"):
            scheme, space, _ = value.strip().partition(" ")
            before, after = [value.strip()], [f"{scheme} {MASK}" if space else MASK]
        else:  # each cookie's value; a Set-Cookie's attributes after its first pair are kept
            pairs = value.split(";")
            before = pairs[:1] if folded == "set-cookie" else pairs
            after = [_masked_cookie(pair) for pair in before]
            after += pairs[len(before) :]
        count += sum(1 for old, new in zip(before, after, strict=False) if old != new)
        lines[index] = f"{name}: " + ";".join(after).strip() + ending
    return "\n".join(lines), count


def _masked_cookie(pair: str) -> str:
    key, eq, value = pair.partition("=")
    return f"{key}={MASK}" if eq and value.strip() and value.strip() != MASK else pair


def masked_note(count: int, kept: int = 0) -> str:
    """What to tell the user on stderr about the values masked, or kept as captured."""
    if kept:
        values = "value that looks" if kept == 1 else "values that look"
        return (
            f"kept {kept} {values} like live secrets, as captured (--no-redact): "
            "volley check names each; render with --redact to mask them"
        )
    values = "value" if count == 1 else "values"
    return f"masked {count} secret-looking {values} as <redacted> (--no-redact keeps them)"


def imported(diagram: Diagram, options: TrafficOptions) -> Imported:
    """The diagram as `.volley` text, its secrets masked unless the options say not to."""
    count = kept = 0
    if options.redact:
        diagram, count = masked(diagram)
    else:  # said, so that nobody publishes a capture believing it masked as by default
        kept = sum(1 for _ in DiagramSecrets(diagram).places())
    # A .volley file holds no NUL (it marks a binary file); one in captured traffic shows as
    # the replacement character, as a browser shows an undecodable byte. Other control
    # characters in a body (a terminal's escapes) are written as their escapes.
    text = write(apart_by_case(diagram)).replace("\x00", "\ufffd")
    return Imported(visible_controls(text), masked=count, kept=kept)
