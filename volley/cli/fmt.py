"""`volley fmt`: rewrite diagrams as canonical `.volley` text, or with `--check` say which would
change (for CI). The text is the writer's (`volley.language.writer`), so a formatted file and an
imported one look alike."""

from __future__ import annotations

import sys

import click

from volley.cli import _limit_options, _limits, _quick_exit, report, say, show
from volley.errors import VolleyError, counted, shown_path, write_failed
from volley.textio import write_atomic


def formatted(path: str, limits) -> tuple[str, str]:
    """(the text as read, the text as written canonically); parse warnings are printed."""
    from volley import api

    name = api.source_name(path)
    text = api.read(path, limits)
    written, warnings = api.formatted(text, filename=name, limits=limits)
    for warning in warnings:
        report(warning)
    return text, written


@click.command(
    "fmt",
    epilog="""\b
Examples:
  volley fmt flow.volley docs/           rewrite each file in place (a folder: every
                                         .volley file below it)
  volley fmt --check *.volley            CI: list what would change, exit 1 if anything would
  volley fmt - < flow.volley             standard input to standard output""",
)
@click.argument(  # read one by one: one that cannot be is said among the others' errors
    "files", nargs=-1, required=True, type=click.Path(allow_dash=True, readable=False)
)
@click.option(
    "--check",
    "check_only",
    is_flag=True,
    help="Write nothing; list the files that would change and exit 1 if there are any.",
)
@click.option("-q", "--quiet", is_flag=True, help="Print only errors, as volley render -q does.")
@_limit_options
def fmt_command(files: tuple[str, ...], check_only: bool, quiet: bool, **limits) -> None:
    """Rewrite each FILE as canonical .volley text, in place (`-` reads standard input and
    writes standard output; a folder stands for every .volley file below it).

    Items in blocks are indented two spaces a level, arrows have one space around them, notes
    longer than a line go under `note:`, and payload bodies are kept exactly as written.
    Comments and the blank lines between elements stay, and so do CRLF line ends.
    """
    from volley.cli.targets import expand, refuse_markdown

    _quick_exit()
    settings = _limits(limits)
    failed = 0
    changed: list[str] = []
    sources = expand(files, markdown=False, offer_markdown=False)
    for source in sources:
        file = source.path
        try:
            refuse_markdown(source, "fmt rewrites")
            before, after = formatted(file, settings)
        except VolleyError as exc:
            report(exc)
            failed += 1
            continue
        if before == after:
            if file == "-" and not check_only:
                show(after, nl=False)
            continue
        changed.append(file)
        if check_only:
            show(f"would reformat {'<stdin>' if file == '-' else file}")
        elif file == "-":
            show(after, nl=False)
        else:
            try:
                # a file found below a folder stays below it: a link out of it is not followed
                write_atomic(file, after, within=source.folder)
            except OSError as exc:  # the file is left as it was
                report(write_failed(file, exc))
                failed += 1
                continue
            if not quiet:
                say(f"reformatted {shown_path(file)}")
    if check_only and changed:
        shown = counted(len(sources) - failed, "file", "files")  # those read
        say(f"{len(changed)} of {shown} would be reformatted")
    if failed or (check_only and changed):
        sys.exit(1)
