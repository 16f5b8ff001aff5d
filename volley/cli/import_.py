"""`volley import`: diagrams written for other tools (Mermaid, swimlanes.io, …) as `.volley`
files, through the same writer as `volley fmt`."""

from __future__ import annotations

import os
import re
import sys
from typing import Any

import click

from volley.checks.redact import SaidAbout
from volley.cli import _quick_exit, lane_renames, report, say, show
from volley.cli.targets import named_output, refuse_overwriting, refuse_picture_name
from volley.errors import Diagnostic, VolleyError, shown_path, write_failed
from volley.importers import IMPORTERS, Imported, Importer, PartlyImported, convert, recognise
from volley.importers.traffic import TrafficOptions, masked_note
from volley.swimlanes_links import as_link
from volley.textio import decode, decode_replacing, make_folder_for, read_bytes, write_atomic

_URL = re.compile(r"(?i)[a-z][a-z0-9+.-]*://")


# Captures are big (a browser's HAR with its bodies runs to tens of megabytes) and what is read
# here is only converted, never laid out: the diagrams' own limits apply when they are rendered.
IMPORT_INPUT_BYTES = 200_000_000


# What import reads, said to one who gave it a picture or a program
_IMPORT_WANTED = (
    "give a diagram's text (Mermaid, PlantUML, swimlanes.io) or captured traffic "
    "(a HAR file, a trace, a JSON-RPC log)"
)


def _read(source: str, max_bytes: int = IMPORT_INPUT_BYTES) -> tuple[bytes, str]:
    """(the bytes, the name errors use): a link given on the command line is itself the
    text."""
    if _URL.match(source):
        return source.encode("utf-8", "surrogateescape"), "<link>"
    return read_bytes(source, max_bytes), "<stdin>" if source == "-" else source


def _traffic_options(
    names: dict[str, str],
    everything: bool,
    include: tuple[str, ...],
    exclude: tuple[str, ...],
    keep_headers: bool,
    max_body: int | None,
    redact: bool,
) -> TrafficOptions:
    """The options for HAR, trace and JSON-RPC imports (the other formats take none)."""
    return TrafficOptions(
        names=names,
        everything=everything,
        include=include,
        exclude=exclude,
        keep_headers=keep_headers,
        max_body=max_body,
        redact=redact,
    )


def _refuse_traffic_options(given: dict[str, Any], format_name: str) -> None:
    """A traffic option on a diagram format would be ignored: say so instead (exit 2)."""
    context = click.get_current_context()
    used = [
        "/".join([*param.opts, *param.secondary_opts])
        for param in context.command.params
        if param.name in given
        and context.get_parameter_source(param.name) is not click.core.ParameterSource.DEFAULT
    ]
    if used:
        flags = ", ".join(sorted(used))
        raise click.UsageError(
            f"{flags} only {'apply' if len(used) > 1 else 'applies'} to traffic (HAR, traces, "
            "JSON-RPC logs), "
            f"not to a {format_name} diagram"
        )


def _targets(
    source: str, output: str | None, found: list[Imported], total: int, what: str = "diagrams"
) -> list[str]:
    """Where each diagram read goes (`-` is standard output); `total` counts the source's
    diagrams that could not be read as well: one place for several is refused even when only
    one of them read, since which one was meant cannot be told."""
    if output is None or output == "-":
        if total > 1:
            raise click.UsageError(
                f"{source} holds {total} {what}; give -o DIR to write one .volley file for each"
            )
        return ["-"]
    folder = os.path.isdir(output) or output.endswith(("/", os.sep))
    if not folder:
        if total > 1:
            raise click.UsageError(
                f"{shown_path(source)} holds {total} {what} and -o names one file; give -o DIR "
                "(a folder) to write one .volley file for each"
            )
        refuse_picture_name(output)
        refuse_overwriting([source], [output])
        return [output]
    os.makedirs(output, exist_ok=True)
    if _URL.match(source) or source == "-":
        stem = "diagram"
    else:
        stem = os.path.splitext(os.path.basename(source))[0]
    chosen = [os.path.join(output, f"{item.name or stem}.volley") for item in found]
    refuse_overwriting([source], chosen)  # `-o .` beside a diagram saved as flow.volley
    return chosen


def _over_render_limit(target: str, text: str) -> None:
    """A warning for a diagram written larger than `volley render` reads by default (bodies
    kept whole with --max-body 0): it would be refused there, with no word of why here."""
    from volley.limits import DEFAULT_LIMITS

    size, most = len(text.encode("utf-8")), DEFAULT_LIMITS.input_bytes
    if size > most:
        report(
            Diagnostic(
                f"{size:,} bytes written, over the {most:,} volley render reads by default",
                filename=target,
                severity="warning",
                hint=f"render it with --max-input-bytes {size}, or import with --max-body to "
                "cut long bodies",
            )
        )


@click.command(
    "import",
    epilog="""\b
Examples:
  volley import flow.mmd -o flow.volley        a Mermaid sequence diagram
  volley import design.md -o diagrams/         every ```mermaid sequence diagram, one file each
  volley import login.puml -o login.volley     a PlantUML sequence diagram
  volley import 'https://swimlanes.io/#ZY1B…'  the diagram a swimlanes.io link carries
  volley import session.har -o login.volley    a browser's HAR, a lane per host, secrets masked
  volley import trace.json --name api=API      an OTLP, Jaeger or Zipkin trace, a lane per service
  volley import mcp-server-weather.log         an MCP host's log of JSON-RPC messages
  volley import "MCP weather.log"              VS Code's Output channel of an MCP server
  volley import lsp-trace.log                  VS Code's trace of a language server session
  volley import ~/.local/state/nvim/lsp.log    Neovim's LSP log
  volley import eglot-events.log               Emacs Eglot's events buffer, saved""",
)
@click.argument("source")
@click.option(
    "-o",
    "--output",
    callback=named_output,
    help="A .volley file, a folder (one file per diagram; made if it ends in /), or - for "
    "standard output (the default, for one diagram).",
)
@click.option(
    "--from",
    "source_format",
    type=click.Choice(sorted(IMPORTERS)),
    help="The source's format, when telling it from the content is not enough.",
)
@click.option(
    "--name",
    "names",
    multiple=True,
    metavar="FROM=NAME",
    callback=lane_renames,
    help="Traffic: call a lane NAME instead (a host, a service, or the client lane): "
    "--name api.example.com=API.",
)
@click.option("--all", "everything", is_flag=True, help="HAR: keep images, fonts, CSS, scripts.")
@click.option(
    "--include",
    multiple=True,
    metavar="PATTERN",
    help="HAR: only requests whose URL matches (a glob with *, or text in the URL).",
)
@click.option("--exclude", multiple=True, metavar="PATTERN", help="HAR: leave these URLs out.")
@click.option(
    "--keep-headers",
    is_flag=True,
    help="HAR: keep the headers every browser sends (user-agent, sec-ch-*, accept-encoding, …).",
)
@click.option(
    "--max-body",
    type=click.IntRange(min=0),
    default=None,
    help="Traffic: characters of a body kept before the rest is cut (0 keeps all; by default "
    "a HAR's bodies are cut at 4000, a JSON-RPC message is kept whole).",
)
@click.option(
    "--max-input-bytes",
    type=click.IntRange(min=1),
    default=IMPORT_INPUT_BYTES,
    show_default=True,
    help="Most bytes of SOURCE read.",
)
@click.option(
    "--redact/--no-redact",
    default=True,
    help="Traffic: mask values that look like secrets (tokens, cookies, keys), as it does by "
    "default; --no-redact keeps them.",
)
def import_command(
    source: str,
    output: str | None,
    source_format: str | None,
    max_input_bytes: int,
    **traffic: Any,
) -> None:
    """Turn SOURCE, a diagram made for another tool, into .volley text.

    SOURCE is a file, - for standard input, or a swimlanes.io share link
    (https://swimlanes.io/#…). Its format is told from the content: a Mermaid sequenceDiagram
    (.mmd), a PlantUML sequence diagram (@startuml), a Markdown file (every ```mermaid,
    ```plantuml or ```swimlanes-io sequence diagram in it), a swimlanes.io link or saved
    swimlanes.io text; or real traffic: a HAR capture, a trace (OTLP/JSON, Jaeger, Zipkin,
    AWS X-Ray, the OpenTelemetry collector's debug output) or a JSON-RPC log (an MCP host's,
    VS Code's log of an MCP server, JSON Lines, VS Code's LSP trace, Neovim's, vim-lsp's, Helix's,
    Eglot's, clangd's, Zed's or Sublime's log, a Content-Length framed capture), with values
    that look like secrets masked. What volley has no way to draw is kept as a // comment.
    """
    _quick_exit()
    source = as_link(source)
    if source != "-" and os.path.isdir(source):  # as `parse DIR` is: a usage error
        raise click.UsageError(
            f"{shown_path(source)} is a folder; import reads one file (a diagram, a Markdown "
            "page, a capture) or a swimlanes.io link"
        )
    options = _traffic_options(**traffic)
    # What is said about captured traffic (or a file that may be some) quotes its lines: their
    # secrets are masked there too, as in the diagram, unless --no-redact keeps them.
    said_about = SaidAbout(mask=options.redact)  # what is printed about a capture, masked
    try:
        raw, name = _read(source, max_input_bytes)
        text, undecoded = decode_replacing(raw, name, wanted=_IMPORT_WANTED)
        said_about.source = text
        importer: Importer | None
        if source_format:
            recognised, importer = None, IMPORTERS[source_format]
        else:  # the importers are asked once: convert is told what they said
            recognised = recognise(text)
            importer = recognised.best
        if undecoded and not (importer and importer.traffic):
            decode(raw, name, wanted=_IMPORT_WANTED)  # only a capture is read past bad bytes
        if importer is not None and not importer.traffic:
            said_about.mask = False  # another tool's diagram: what the user wrote, as written
            _refuse_traffic_options(traffic, importer.name)
        found = convert(text, name, source_format, options, recognised)
        total, failed = len(found), False
    except PartlyImported as exc:  # the diagrams that did read are written, then exit 1
        report(said_about(exc))
        found, total, failed = exc.imported, exc.total, True
    except VolleyError as exc:
        report(said_about(exc))
        sys.exit(1)
    for warning in undecoded:
        report(said_about(warning))
    masked, kept = sum(item.masked for item in found), sum(item.kept for item in found)
    if masked or kept:
        say(f"{name}: {masked_note(masked, kept)}")
    for item in found:
        for warning in item.warnings:
            report(said_about(warning))
    what = importer.parts if importer is not None else "diagrams"
    for target, item in zip(_targets(source, output, found, total, what), found, strict=True):
        if target == "-":
            show(item.text, nl=False)
            _over_render_limit(item.name or name, item.text)
            continue
        try:
            make_folder_for(target)  # the folder -o FILE names, made as -o DIR/ is
            write_atomic(target, item.text)
        except OSError as exc:
            report(write_failed(target, exc))
            sys.exit(1)
        say(f"wrote {shown_path(target)}")
        _over_render_limit(target, item.text)
    if failed:
        sys.exit(1)
