"""The `volley` command: a thin shell over the Python API (`volley.parse`, `volley.render`).

Exit codes: 0 all good, 1 a diagram has errors (or `--check` found something out of date),
2 a usage error. Errors go to stderr as `path:line:col: error: message`, with the line and a
caret; colour only on a terminal, and never when NO_COLOR is set.
"""

from __future__ import annotations

import gc
import json
import os
import sys

import click

from volley.errors import Diagnostic, VolleyError
from volley.limits import DEFAULT_LIMITS, Limits
from volley.options import BODIES, FORMATS, THEMES, OptionError, Options
from volley.textio import write_atomic

MARKDOWN_SUFFIXES = (".md", ".markdown")


def _use_color(stream) -> bool:
    if os.environ.get("NO_COLOR"):
        return False
    if os.environ.get("FORCE_COLOR"):
        return True
    return hasattr(stream, "isatty") and stream.isatty()


def report(diagnostic: Diagnostic | VolleyError) -> None:
    """Print an error or warning to stderr in the one format every command uses."""
    color = _use_color(sys.stderr)
    click.echo(diagnostic.format(color=color), err=True, color=color)


LIMIT_OPTIONS = [
    ("--max-input-bytes", "input_bytes", "Most bytes of input read."),
    ("--max-messages", "messages", "Most messages in one diagram."),
    ("--max-depth", "depth", "Most blocks nested inside each other."),
    ("--max-label-chars", "label_chars", "Most characters in one label, name or note line."),
    ("--max-participants", "participants", "Most participants in one diagram."),
]


def _limit_options(func):
    """--max-… options shared by the commands that parse."""
    for name, field, text in reversed(LIMIT_OPTIONS):
        func = click.option(
            name,
            field,
            type=click.IntRange(min=1),
            default=getattr(DEFAULT_LIMITS, field),
            show_default=True,
            help=text,
        )(func)
    return func


def _limits(values: dict) -> Limits:
    return Limits(**{field: values.pop(field) for _, field, _ in LIMIT_OPTIONS})


def load(path: str, limits: Limits):
    """Read, parse and check one file; warnings are printed, errors raised."""
    from volley.api import check_file

    checked = check_file(path, limits=limits)
    for warning in checked.warnings:
        report(warning)
    return checked.diagram


# Set by the commands that finish by writing files or printing, for `run` (see there).
_QUICK_EXIT = {"allowed": False}


def run() -> None:
    """The console script: `main`, then, after parse, check or render, leave at once.

    Their output is complete by then (files written and renamed, streams flushed here), so the
    interpreter's teardown, which frees every object of the diagram one by one (about 12 ms
    at 1,000 messages), would only delay the shell. `serve`, help and anything that did not
    end in an ordinary exit leave the usual way, with atexit handlers run.

    The cyclic garbage collector is off for the same reason: almost everything a command
    makes lives until it ends, and the collector's scans of it cost 5 ms at 1,000 messages and
    25 ms at 5,000, against about 2 MB of cycles a 5,000-message render leaves. `serve`, which
    runs for long, turns it back on.
    """
    gc.disable()
    try:
        main(prog_name="volley")
    except SystemExit as exc:
        code = 0 if exc.code is None else exc.code
        if _QUICK_EXIT["allowed"] and isinstance(code, int):
            try:
                for stream in (sys.stdout, sys.stderr):
                    if stream is not None:  # None when the descriptor was closed
                        stream.flush()
            except (OSError, ValueError):
                raise exc from None  # let Python report a closed pipe as it always does
            os._exit(code)
        raise


def _quick_exit() -> None:
    _QUICK_EXIT["allowed"] = True


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="volley", prog_name="volley")
def main() -> None:
    """Sequence diagrams from plain text, with the request and response on every arrow."""


@main.command("parse")
@click.argument("file", type=click.Path(dir_okay=False, allow_dash=True))
@click.option("--indent", type=click.IntRange(min=0), default=2, show_default=True)
@_limit_options
def parse_command(file: str, indent: int, **limits) -> None:
    """Print FILE's diagram as JSON (`-` reads standard input)."""
    _quick_exit()
    try:
        diagram = load(file, _limits(limits))
    except VolleyError as exc:
        report(exc)
        sys.exit(1)
    click.echo(json.dumps(diagram.to_json(), indent=indent or None, ensure_ascii=False))


@main.command("check")
@click.argument("files", nargs=-1, required=True, type=click.Path(dir_okay=False, allow_dash=True))
@_limit_options
def check_command(files: tuple[str, ...], **limits) -> None:
    """Check that each FILE is a valid diagram; print every error found."""
    _quick_exit()
    settings = _limits(limits)
    failed = 0
    for file in files:
        try:
            load(file, settings)
        except VolleyError as exc:
            report(exc)
            failed += 1
    if failed:
        click.echo(f"{failed} of {len(files)} file(s) with errors", err=True)
        sys.exit(1)


def _output_path(source: str, output: str | None, fmt: str, many: bool) -> str:
    """Where a render goes: `-o`, a file named after the input in the folder `-o` names, or
    the input's name with the format's suffix beside it (`a.volley` → `a.svg`)."""
    if output == "-":
        return "-"
    if output and (many or os.path.isdir(output)):
        stem = os.path.splitext(os.path.basename(source))[0]
        return os.path.join(output, f"{stem}.{fmt}")
    if output:
        return output
    if source == "-":
        return "-"
    return f"{os.path.splitext(source)[0]}.{fmt}"


def _format_for(output: str | None, fmt: str | None) -> str:
    if fmt:
        return fmt
    if output and output != "-":
        suffix = os.path.splitext(output)[1].lower().lstrip(".")
        if suffix in FORMATS:
            return suffix
    return "svg"


@main.command("render")
@click.argument("files", nargs=-1, required=True, type=click.Path(dir_okay=False, allow_dash=True))
@click.option("-o", "--output", help="Output file, folder (several inputs), or - for stdout.")
@click.option("-f", "--format", "fmt", type=click.Choice(FORMATS), help="Default: from -o, or svg.")
@click.option(
    "--theme",
    type=click.Choice(THEMES),
    help="auto follows the reader's prefers-color-scheme. Default: auto for HTML and "
    "Markdown, light for SVG, PNG and PDF.",
)
@click.option(
    "--scale",
    type=click.FloatRange(min=0.05, max=20),
    default=1.0,
    show_default=True,
    help="PNG/PDF size factor.",
)
@click.option(
    "--bodies",
    type=click.Choice(BODIES),
    default="markers",
    show_default=True,
    help="How payloads show in a static picture.",
)
@click.option("--fragment", is_flag=True, help="HTML: an embeddable fragment, no <html> page.")
@click.option("--redact", is_flag=True, help="Mask values that look like secrets in payloads.")
@click.option(
    "--check",
    "check_only",
    is_flag=True,
    help="Markdown: write nothing; exit 1 if any rendered diagram is out of date.",
)
@_limit_options
def render_command(
    files: tuple[str, ...],
    output: str | None,
    fmt: str | None,
    theme: str | None,
    scale: float,
    bodies: str,
    fragment: bool,
    redact: bool,
    check_only: bool,
    **limits,
) -> None:
    """Render each FILE to SVG (or PNG, PDF, HTML) beside it.

    A Markdown FILE (.md) has each ```volley block rendered to an SVG file, with an image link
    kept after the block.
    """
    _quick_exit()
    settings = _limits(limits)
    many = len(files) > 1
    if output == "-" and many:
        raise click.UsageError("-o - writes one diagram to stdout; give one input file")
    if many and output and not os.path.isdir(output):
        raise click.UsageError(f"with several inputs, -o must be an existing folder: {output}")
    if output and output.endswith(("/", os.sep)) and not os.path.isdir(output):
        raise click.UsageError(f"-o names a folder that does not exist: {output}")
    failed = 0
    stale = 0
    for file in files:
        try:
            if file.lower().endswith(MARKDOWN_SUFFIXES):
                from volley.docs.readme import render_markdown

                markdown_options = Options(
                    theme=theme or "auto", bodies=bodies, redact=redact, limits=settings
                )
                changes = render_markdown(
                    file, check=check_only, options=markdown_options, report=report
                )
                for change in changes:
                    click.echo(change, err=check_only)
                stale += len(changes) if check_only else 0
                continue
            if check_only:
                raise click.UsageError("--check works on Markdown files only")
            fmt_here = _format_for(output, fmt)
            target = _output_path(file, output, fmt_here, many)
            from volley.api import run_file

            try:
                options = Options(
                    format=fmt_here,
                    theme=theme,
                    scale=scale,
                    bodies=bodies,
                    fragment=fragment,
                    redact=redact,
                    limits=settings,
                )
            except OptionError as exc:
                raise click.UsageError(exc.format()) from None
            result = run_file(file, options)
            for warning in result.warnings:
                report(warning)
            data = result.output
            if target == "-":
                stream = sys.stdout.buffer
                stream.write(data.encode("utf-8") if isinstance(data, str) else data)
                stream.flush()
            else:
                write_atomic(target, data)
        except VolleyError as exc:  # masked by the pipeline under --redact
            report(exc)
            failed += 1
        except OSError as exc:  # the output could not be written; an earlier one is untouched
            report(
                VolleyError(
                    f"cannot write {exc.filename or file}: {exc.strerror or exc}", filename=file
                )
            )
            failed += 1
    if failed:
        sys.exit(1)
    if stale:
        click.echo(f"{stale} diagram(s) out of date; run volley render without --check", err=True)
        sys.exit(1)


def _server_limit_options() -> list[click.Option]:
    from volley.server.limits import DEFAULT_SERVER_LIMITS

    return [
        click.Option(
            ["--max-body-bytes"],
            type=click.IntRange(min=1),
            default=DEFAULT_SERVER_LIMITS.body_bytes,
            show_default=True,
            help="Limit: a request's source, and a share link's, in bytes.",
        ),
        click.Option(
            ["--render-timeout"],
            type=click.FloatRange(min=0.1),
            default=DEFAULT_SERVER_LIMITS.render_seconds,
            show_default=True,
            help="Limit: seconds one render may take.",
        ),
    ]


class _ServeCommand(click.Command):
    """`serve`, whose limit options show the server's defaults. Click asks a command for its
    options only to parse its arguments or show its help, so they are made then: the other
    commands never import the server package."""

    _limits_added = False

    def get_params(self, ctx: click.Context) -> list[click.Parameter]:
        if not self._limits_added:
            self._limits_added = True
            self.params.extend(_server_limit_options())
        return super().get_params(ctx)


@main.command("serve", cls=_ServeCommand)
@click.argument("file", required=False, type=click.Path(dir_okay=False))
@click.option("--host", default="127.0.0.1", show_default=True)
@click.option("--port", default=8000, show_default=True, type=click.IntRange(0, 65535))
@click.option("--open", "open_browser", is_flag=True, help="Open the editor in a web browser.")
def serve_command(
    file: str | None,
    host: str,
    port: int,
    open_browser: bool,
    max_body_bytes: int,
    render_timeout: float,
) -> None:
    """Open the live editor (optionally on FILE, which Save writes back)."""
    gc.enable()  # `run` turns it off for one-shot commands; a server runs for long
    from volley.server import ServerLimits, serve

    limits = ServerLimits(body_bytes=max_body_bytes, render_seconds=render_timeout)
    try:
        serve(file, host=host, port=port, limits=limits, open_browser=open_browser)
    except VolleyError as exc:  # about the server, not a diagram: no file:line to show
        raise click.ClickException(exc.message + (f"\n  {exc.hint}" if exc.hint else "")) from None


from volley.cli.fmt import fmt_command  # noqa: E402  (it imports the helpers above)

main.add_command(fmt_command)
from volley.cli.import_ import import_command  # noqa: E402

main.add_command(import_command)

from volley.cli.gallery import gallery_command  # noqa: E402

main.add_command(gallery_command)

from volley.cli.record import record_command  # noqa: E402

main.add_command(record_command)

if __name__ == "__main__":
    main()
