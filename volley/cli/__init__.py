"""The `volley` command: a thin shell over the Python API (`volley.parse`, `volley.render`).

Exit codes: 0 all good, 1 a diagram has errors (or `--check` found something out of date),
2 a usage error, 130 stopped by Ctrl-C (143 by SIGTERM). Errors go to stderr as
`path:line:col: error: message`, with the line and a caret; colour only on a terminal, and
never when NO_COLOR is set.
"""

from __future__ import annotations

import contextlib
import errno
import gc
import importlib
import json
import os
import signal
import sys
from collections.abc import Callable
from typing import Any

import click

from volley import __version__
from volley.cli.targets import chosen_format, expand, is_folder, named_output, several, targets
from volley.errors import Diagnostic, VolleyError, VolleyErrors, counted, shown_path, write_failed
from volley.limits import DEFAULT_LIMITS, Limits
from volley.options import BODIES, FORMATS, MAX_SCALE, MIN_SCALE, THEMES, OptionError, Options
from volley.textio import make_folder_for, write_atomic


class _ErrorCount:
    """`report`, counting the errors it says (a Markdown file's come one at a time)."""

    def __init__(self, report: Callable[[Diagnostic | VolleyError], None]) -> None:
        self.report, self.errors = report, 0

    def __call__(self, problem: Diagnostic | VolleyError) -> None:
        if isinstance(problem, VolleyError) or problem.severity == "error":
            self.errors += 1
        self.report(problem)


def _use_color(stream) -> bool:
    if os.environ.get("NO_COLOR"):
        return False
    if os.environ.get("FORCE_COLOR"):
        return True
    return hasattr(stream, "isatty") and stream.isatty()


def report(diagnostic: Diagnostic | VolleyError) -> None:
    """Print an error or warning to stderr in the one format every command uses."""
    color = _use_color(sys.stderr)
    say(diagnostic.format(color=color), color=color)


def show(text: str, nl: bool = True) -> None:
    """What a command prints as its result, on stdout; one that cannot be written there (the
    descriptor closed, a pipe closed early, a full disk) is an error, never output lost in
    silence."""
    try:
        if sys.stdout is None:  # closed before volley started: click would write nothing
            raise OSError(errno.EBADF, "it is closed")
        click.echo(text, nl=nl)
        sys.stdout.flush()
    except OSError as exc:
        say(f"volley: error: cannot write standard output: {exc.strerror or exc}")
        sys.exit(1)


def say(text: str, color: bool | None = None) -> None:
    """A line for the user on stderr. One that cannot be written there (a pipe closed early,
    as `2>&1 | head -1` closes it; a full disk) is lost, never the work it was about: the
    picture is still written, and the exit status still says how the command went."""
    with contextlib.suppress(OSError):
        click.echo(text, err=True, color=color)


# The limits on what is read, for every command that parses; then those on the picture,
# for render alone.
READ_LIMIT_OPTIONS = [
    ("--max-input-bytes", "input_bytes", "Most bytes of input read."),
    ("--max-messages", "messages", "Most messages in one diagram."),
    ("--max-depth", "depth", "Most blocks nested inside each other."),
    ("--max-label-chars", "label_chars", "Most characters in one label, name or note line."),
    ("--max-participants", "participants", "Most participants in one diagram."),
    ("--max-items", "items", "Most messages, notes, dividers and blocks drawn."),
]
PICTURE_LIMIT_OPTIONS = [
    ("--max-pixels", "pixels", "Most pixels in a PNG, at its scale."),
    ("--max-pdf-pages", "pdf_pages", "Most pages in a PDF."),
    ("--max-output-bytes", "output_bytes", "Most bytes in an SVG or HTML file."),
]
LIMIT_OPTIONS = READ_LIMIT_OPTIONS + PICTURE_LIMIT_OPTIONS


def _options_of(limits: list[tuple[str, str, str]]):
    """A decorator adding a --max-… option for each of `limits`."""

    def add(func):
        for name, field, text in reversed(limits):
            func = click.option(
                name,
                field,
                type=click.IntRange(min=1),
                default=getattr(DEFAULT_LIMITS, field),
                show_default=True,
                help=text,
            )(func)
        return func

    return add


_limit_options = _options_of(READ_LIMIT_OPTIONS)  # every command that parses
_picture_limit_options = _options_of(PICTURE_LIMIT_OPTIONS)  # render's too


def _limits(values: dict) -> Limits:
    """The limits a command was given (those it has no option for stay the defaults)."""
    return Limits(**{field: values.pop(field) for _, field, _ in LIMIT_OPTIONS if field in values})


def load(path: str, limits: Limits):
    """Read, parse and check one file; warnings are printed, errors raised."""
    from volley.api import check_file

    checked = check_file(path, limits=limits)
    for warning in checked.warnings:
        report(warning)
    return checked.diagram


# Set by the commands that finish by writing files or printing, for `run` (see there).
_QUICK_EXIT = {"allowed": False}


def exit_on_sigterm() -> None:
    """SIGTERM ends the command the way Ctrl-C does, through every `finally`, so a write cut
    short removes its temporary folder (the process is the command's own: library code sets
    no handler). Exits with status 143, as a process killed by SIGTERM reports."""
    signal.signal(signal.SIGTERM, _terminated)


def _terminated(signum: int, frame: object) -> None:
    raise SystemExit(128 + signum)


# SIGTERM or Ctrl-C that landed while a C library ran a callback of ours (cairo writing a
# PDF's bytes): the library cannot be stopped there, and reports a failed write instead
_INTERRUPTS: list[BaseException] = []


def _unraisable(unraisable: sys.UnraisableHookArgs) -> None:
    """The console script's hook for exceptions a callback could not raise: an interrupt is
    kept, to be raised again when the library hands control back (`_interrupted`), rather
    than printed as a traceback and taken for a write error."""
    if isinstance(unraisable.exc_value, (SystemExit, KeyboardInterrupt)):
        _INTERRUPTS.append(unraisable.exc_value)
    else:
        sys.__unraisablehook__(unraisable)


def _interrupted() -> None:
    """Raise the interrupt a library's callback kept, if one came."""
    if _INTERRUPTS:
        raise _INTERRUPTS[0]


# Ctrl-C ended the command (click's own status for it, 1, is a broken diagram's)
_CTRL_C: list[int] = []


def _on_ctrl_c(signum: int, frame: Any) -> None:
    _CTRL_C.append(signum)
    signal.default_int_handler(signum, frame)  # KeyboardInterrupt, as always


def ctrl_c_passed_on() -> None:
    """Ctrl-C reached a command that handed it on (`volley record` to its server) and went
    on: its exit status is its own."""
    _CTRL_C.clear()


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
    exit_on_sigterm()  # a render stopped by SIGTERM removes its temporary file, as on Ctrl-C
    if signal.getsignal(signal.SIGINT) is signal.default_int_handler:  # not ignored (a `&` job)
        signal.signal(signal.SIGINT, _on_ctrl_c)
    sys.unraisablehook = _unraisable
    try:
        main(prog_name="volley")
    except SystemExit as exc:
        code = 0 if exc.code is None else exc.code
        if _CTRL_C and code == 1:  # click said "Aborted!" and exits 1, a broken diagram's
            raise SystemExit(128 + signal.SIGINT) from None  # status: 130, as a shell says it
        if _QUICK_EXIT["allowed"] and isinstance(code, int):
            try:
                for stream in (sys.stdout, sys.stderr):
                    if stream is not None:  # None when the descriptor was closed
                        stream.flush()
            except (OSError, ValueError):
                raise exc from None  # let Python report a closed pipe as it always does
            os._exit(code)
        raise


def lane_renames(ctx: click.Context, param: click.Parameter, value: tuple[str, ...]) -> dict:
    """`--name FROM=NAME`, given any number of times, as {FROM: NAME} (a click callback)."""
    renames = {}
    for pair in value:
        old, equals, new = pair.partition("=")
        if not (equals and old.strip() and new.strip()):
            raise click.BadParameter(f"expected FROM=NAME, got {pair!r}")
        renames[old.strip()] = new.strip()
    return renames


def _quick_exit() -> None:
    _QUICK_EXIT["allowed"] = True


class _LazyGroup(click.Group):
    """A group whose larger commands are imported only when they run or show their help, as
    click's documentation on lazily loaded subcommands describes: `volley render` need not
    load the importers or the recorder."""

    def __init__(self, *args: Any, lazy_subcommands: dict[str, str], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.lazy_subcommands = lazy_subcommands  # name -> "module:attribute"

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted([*super().list_commands(ctx), *self.lazy_subcommands])

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name in self.lazy_subcommands:
            module, _, attribute = self.lazy_subcommands[cmd_name].partition(":")
            command = getattr(importlib.import_module(module), attribute)
            assert isinstance(command, click.Command)
            return command
        return super().get_command(ctx, cmd_name)


@click.group(
    cls=_LazyGroup,
    lazy_subcommands={
        "fmt": "volley.cli.fmt:fmt_command",
        "gallery": "volley.cli.gallery:gallery_command",
        "import": "volley.cli.import_:import_command",
        "record": "volley.cli.record:record_command",
    },
    context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100},
    epilog="""\b
Examples:
  volley render flow.volley               flow.svg beside it
  volley render flow.volley -o flow.html  the clickable page
  volley render README.md                 each ```volley block to diagrams/NAME.svg
  volley check docs/                      every .volley file below docs/
  volley serve flow.volley                edit it live in the browser

Run `volley COMMAND -h` for a command's options and examples.""",
)
@click.version_option(__version__, "-V", "--version", prog_name="volley")
def main() -> None:
    """Sequence diagrams from plain text, with the request and response on every arrow."""


@main.command(
    "parse",
    epilog="""\b
Examples:
  volley parse flow.volley
  cat flow.volley | volley parse - --indent 0""",
)
@click.argument("file", type=click.Path(dir_okay=False, allow_dash=True, readable=False))
@click.option(
    "--indent", type=click.IntRange(min=0), default=2, show_default=True, help="0: one line."
)
@_limit_options
def parse_command(file: str, indent: int, **limits) -> None:
    """Print FILE's diagram as JSON (`-` reads standard input; a swimlanes.io link is read
    as the diagram it carries)."""
    from volley.cli.targets import Source, refuse_markdown

    _quick_exit()
    try:
        refuse_markdown(Source(file), "parse reads")
        diagram = load(file, _limits(limits))
    except VolleyError as exc:
        report(exc)
        sys.exit(1)
    show(json.dumps(diagram.to_json(), indent=indent or None, ensure_ascii=False))


_MARKDOWN_OPTION = click.option(
    "--markdown",
    is_flag=True,
    help="With a folder: take its Markdown files that hold ```volley blocks too.",
)


@main.command(
    "check",
    epilog="""\b
Examples:
  volley check flow.volley login.volley
  volley check docs/                 every .volley file below docs/
  volley check --markdown .          and every ```volley block in Markdown files
  volley check README.md             the ```volley blocks of one Markdown file
  volley check 'https://swimlanes.io/#…'   the diagram a share link carries""",
)
@click.argument(  # read one by one: one that cannot be is said among the others' errors
    "files", nargs=-1, required=True, type=click.Path(allow_dash=True, readable=False)
)
@_MARKDOWN_OPTION
@_limit_options
def check_command(files: tuple[str, ...], markdown: bool, **limits) -> None:
    """Check that each FILE (or each diagram below a folder) is valid; print every error.

    A Markdown FILE has each of its ```volley blocks checked. Exit 1 if any has errors.
    """
    _quick_exit()
    settings = _limits(limits)
    sources = expand(files, markdown=markdown)
    failed = 0
    for source in sources:
        try:
            if source.is_markdown:
                from volley.docs.readme import check_markdown

                said = _ErrorCount(report)
                broken = check_markdown(source.path, Options(limits=settings), said)
                failed += broken > 0
                if said.errors:  # then a count, as a .volley file's errors end
                    say(counted(said.errors, "error", "errors"))
            else:
                load(source.path, settings)
        except VolleyError as exc:
            report(exc)
            if not isinstance(exc, VolleyErrors):  # one that stopped the reading (no text)
                say("1 error")  # counted as the parser's errors are
            failed += 1
    if failed:
        say(f"{failed} of {counted(len(sources), 'file', 'files')} with errors")
        sys.exit(1)


@main.command(
    "render",
    epilog="""\b
Examples:
  volley render flow.volley                    flow.svg beside it
  volley render flow.volley -o flow.png --scale 2
  volley render flow.volley -f html --theme dark -o -  > flow.html
  volley render docs/ -o site/diagrams/        every .volley below docs/, same layout
  volley render README.md                      ```volley blocks to diagrams/NAME.svg
  volley render README.md --check              in CI: exit 1 if a picture is stale
  volley render 'https://swimlanes.io/#…' -o flow.svg   the diagram a share link carries""",
)
@click.argument(  # read one by one: one that cannot be is said among the others' errors
    "files", nargs=-1, required=True, type=click.Path(allow_dash=True, readable=False)
)
@click.option(
    "-o",
    "--output",
    callback=named_output,
    help="Output file, - for standard output, or a folder (ends with /, or several "
    "inputs); missing folders are created, a file's too. Default: beside each input.",
)
@click.option(
    "-f",
    "--format",
    "fmt",
    type=click.Choice(FORMATS, case_sensitive=False),
    help="Default: from the extension of -o, or svg.",
)
@click.option(
    "--theme",
    type=click.Choice(THEMES, case_sensitive=False),
    help="auto follows the reader's prefers-color-scheme (HTML, SVG). Default: auto for "
    "HTML and Markdown, light for SVG, PNG and PDF.",
)
@click.option(
    "--scale",
    type=click.FloatRange(min=MIN_SCALE, max=MAX_SCALE),
    default=1.0,
    show_default=True,
    help="PNG/PDF size factor.",
)
@click.option(
    "--bodies",
    type=click.Choice(BODIES, case_sensitive=False),
    default="markers",
    show_default=True,
    help="How payloads show in a static picture.",
)
@click.option(
    "--appendix-lines",
    type=click.IntRange(min=1),
    help="With --bodies appendix: at most N lines of each body, and a note saying how many "
    "more there are. Default: every line.",
    metavar="N",
)
@click.option("--fragment", is_flag=True, help="HTML: an embeddable fragment, no <html> page.")
@click.option("--redact", is_flag=True, help="Mask values that look like secrets in payloads.")
@click.option(
    "--check",
    "check_only",
    is_flag=True,
    help="Markdown: write nothing; exit 1 if any rendered diagram is out of date.",
)
@_MARKDOWN_OPTION
@click.option("-q", "--quiet", is_flag=True, help="Print only errors and warnings.")
@_limit_options
@_picture_limit_options
@click.pass_context
def render_command(
    ctx: click.Context,
    files: tuple[str, ...],
    output: str | None,
    fmt: str | None,
    theme: str | None,
    scale: float,
    bodies: str,
    appendix_lines: int | None,
    fragment: bool,
    redact: bool,
    check_only: bool,
    markdown: bool,
    quiet: bool,
    **limits,
) -> None:
    """Render each FILE to SVG (or PNG, PDF, HTML) beside it; a folder stands for every
    .volley file below it.

    A Markdown FILE (.md) has each ```volley block rendered to an SVG file in diagrams/
    beside it, with an image link kept after the block (README mode).

    One line on stderr names each file written; -q leaves only errors and warnings.
    """
    _quick_exit()
    settings = _limits(limits)
    sources = expand(files, markdown=markdown)
    given = {
        name
        for name in ("output", "fmt", "scale", "fragment")
        if ctx.get_parameter_source(name) is not click.core.ParameterSource.DEFAULT
    }
    if check_only:  # a folder's .volley files have no page whose pictures could be stale
        sources = [source for source in sources if source.is_markdown or source.folder is None]
        if not sources:
            raise click.UsageError(
                f"--check checks Markdown files, and there are none with ```volley blocks below "
                f"{', '.join(files)}" + ("" if markdown else " (add --markdown to take them)")
            )
    pictures = [source for source in sources if not source.is_markdown]
    readmes = [source for source in sources if source.is_markdown]
    if readmes:
        _refuse_for_markdown(readmes[0].path, given)
    if check_only and pictures:
        raise click.UsageError(
            f"--check works on Markdown files only, not on {shown_path(pictures[0].path)}"
        )
    fmt = chosen_format(output, fmt, several(pictures))
    options = _render_options(
        fmt, theme, scale, (bodies, appendix_lines), fragment, redact, settings, given
    )
    outputs = dict(zip(pictures, targets(pictures, output, fmt), strict=True))
    if "-" in outputs.values() and fmt in BINARY_FORMATS and sys.stdout.isatty():
        raise click.UsageError(
            f"refusing to write {fmt.upper()} bytes to a terminal; "
            "redirect standard output to a file, or give -o FILE"
        )
    if output not in (None, "-") and pictures and (several(pictures) or is_folder(output)):
        _make_folder(output)
    failed = 0
    stale = 0
    for source in sources:
        try:
            if source.is_markdown:
                stale += _render_readme(
                    source.path, check_only, quiet, theme, bodies, redact, settings
                )
            else:
                _render_one(source.path, outputs[source], options, quiet)
            _interrupted()  # one a library's callback kept, though nothing failed
        except VolleyError as exc:  # masked by the pipeline under --redact
            report(exc)
            failed += 1
        except OSError as exc:  # the output could not be written; an earlier one is untouched
            _interrupted()  # (or cairo's write was stopped by SIGTERM or Ctrl-C)
            report(write_failed(exc.filename or source.path, exc, filename=source.path))
            failed += 1
    if failed:
        if len(sources) > 1:  # as volley check ends
            say(f"{failed} of {counted(len(sources), 'file', 'files')} with errors")
        sys.exit(1)
    if stale:
        what = "picture or link" if stale == 1 else "pictures or links"  # each listed above
        say(f"{stale} {what} out of date; run volley render without --check")
        sys.exit(1)


BINARY_FORMATS = ("png", "pdf")
_FLAGS = {"output": "-o", "fmt": "-f", "scale": "--scale", "fragment": "--fragment"}


def _refuse_for_markdown(path: str, given: set[str]) -> None:
    """README mode writes diagrams/NAME.svg beside the file; the picture options do not apply."""
    for name in ("output", "fmt", "scale", "fragment"):
        if name in given:
            raise click.UsageError(
                f"{_FLAGS[name]} does not apply to the Markdown file {shown_path(path)}: "
                "README mode writes each ```volley block to diagrams/NAME.svg beside it"
            )


def _render_options(
    fmt: str,
    theme: str | None,
    scale: float,
    bodies: tuple[str, int | None],
    fragment: bool,
    redact: bool,
    limits: Limits,
    given: set[str],
) -> Options:
    """The pipeline's options for the pictures (`bodies`: how payloads show, and the cap on
    an appendix's lines); an option that does not apply to the format is a usage error that
    names the flag."""
    if "scale" in given and fmt not in BINARY_FORMATS:
        raise click.UsageError(
            f"--scale sizes png and pdf only, not {fmt}: an SVG or HTML picture scales with "
            "the page that shows it"
        )
    try:
        return Options(
            format=fmt,
            theme=theme,
            scale=scale,
            bodies=bodies[0],
            appendix_lines=bodies[1],
            fragment=fragment,
            redact=redact,
            limits=limits,
        )
    except OptionError as exc:
        message = exc.message
        if message.startswith(exc.option):
            message = f"--{exc.option.replace('_', '-')}" + message[len(exc.option) :]
        raise click.UsageError(message + (f" ({exc.hint})" if exc.hint else "")) from None


def _make_folder(output: str) -> None:
    try:
        os.makedirs(output, exist_ok=True)
    except OSError as exc:
        raise click.UsageError(
            f"cannot make the folder {shown_path(output)}: {exc.strerror or exc}"
        ) from None


def _written(source: str, target: str, quiet: bool) -> None:
    """The one line each written file gets, in every mode (not a device such as /dev/stderr,
    where the line would land in the picture)."""
    if not quiet and os.path.isfile(target):
        say(f"{shown_path(source)}: wrote {shown_path(target)}")


def _render_one(path: str, target: str, options: Options, quiet: bool) -> None:
    from volley.api import run_file, source_name

    result = run_file(path, options)
    for warning in result.warnings:
        report(warning)
    data = result.output.encode("utf-8") if isinstance(result.output, str) else result.output
    if target == "-":
        try:
            if sys.stdout is None:  # the descriptor was closed before volley started
                raise OSError(errno.EBADF, "it is closed")
            sys.stdout.buffer.write(data)
            sys.stdout.buffer.flush()
        except OSError as exc:  # a pipe closed early, a full disk
            raise OSError(exc.errno, exc.strerror, "standard output") from None
        return
    make_folder_for(target)  # below -o DIR/, or the one -o FILE names: made if missing
    write_atomic(target, data)
    _written(source_name(path), target, quiet)


def _render_readme(
    path: str,
    check_only: bool,
    quiet: bool,
    theme: str | None,
    bodies: str,
    redact: bool,
    limits: Limits,
) -> int:
    """README mode for one Markdown file; the number of stale diagrams under --check."""
    from volley.docs.readme import PartlyRendered, render_markdown

    options = Options(theme=theme or "auto", bodies=bodies, redact=redact, limits=limits)
    changes: list[str] = []
    try:
        changes = render_markdown(path, check=check_only, options=options, report=report)
    except PartlyRendered as partly:  # what was made of the others is said before the error
        changes = partly.changes
        raise
    finally:
        for change in changes if check_only or not quiet else ():
            say(change)
    return len(changes) if check_only else 0


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
        click.Option(
            ["--header-timeout"],
            type=click.FloatRange(min=0.1),
            default=DEFAULT_SERVER_LIMITS.header_seconds,
            show_default=True,
            help="Limit: seconds a request's headers may take to arrive.",
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


@main.command(
    "serve",
    cls=_ServeCommand,
    epilog="""\b
Examples:
  volley serve                      a new diagram on http://127.0.0.1:8000/
  volley serve flow.volley --open   edit flow.volley; Save writes it back
  volley serve --port 0             any free port (the URL is printed)
  volley serve --host 0.0.0.0       reachable by others: anyone who can reach it can edit""",
)
@click.argument("file", required=False, type=click.Path(dir_okay=False))
@click.option(
    "--host",
    default="127.0.0.1",
    show_default=True,
    help="Address to listen on. The default answers this machine only; another address "
    "lets anyone who can reach it use the editor (and save FILE).",
)
@click.option(
    "--port",
    default=8000,
    show_default=True,
    type=click.IntRange(0, 65535),
    help="Port to listen on; 0 picks a free one.",
)
@click.option("--open", "open_browser", is_flag=True, help="Open the editor in a web browser.")
def serve_command(
    file: str | None,
    host: str,
    port: int,
    open_browser: bool,
    max_body_bytes: int,
    render_timeout: float,
    header_timeout: float,
) -> None:
    """Open the live editor (optionally on FILE, which Save writes back)."""
    gc.enable()  # `run` turns it off for one-shot commands; a server runs for long
    from volley.server import ServerLimits, serve

    limits = ServerLimits(
        body_bytes=max_body_bytes, render_seconds=render_timeout, header_seconds=header_timeout
    )
    try:
        serve(file, host=host, port=port, limits=limits, open_browser=open_browser)
    except VolleyError as exc:  # about the server, not a diagram: no file:line to show
        raise click.ClickException(exc.message + (f"\n  {exc.hint}" if exc.hint else "")) from None


if __name__ == "__main__":
    main()
