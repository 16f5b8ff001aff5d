"""`volley record -o flow.volley -- CMD ARGS…`: stand between a host and a JSON-RPC-over-stdio
program (an MCP server), relay both ways unchanged, and write the session as a diagram."""

from __future__ import annotations

import os
import signal
import subprocess
import sys

import click

from volley.cli import ctrl_c_passed_on, lane_renames, report, say
from volley.cli.targets import named_output, refuse_picture_name
from volley.errors import counted, shown_path, write_failed
from volley.textio import make_folder_for, write_atomic


def _pass_sigterm_on(child: subprocess.Popen) -> None:
    """A host stops a server with SIGTERM: the server gets it, and volley, which would
    otherwise die with the session unwritten, waits for it to exit and writes the diagram."""
    signal.signal(signal.SIGTERM, lambda signum, frame: child.send_signal(signum))


@click.command(
    "record",
    context_settings={"ignore_unknown_options": True, "allow_interspersed_args": False},
    epilog="""\b
Examples:
  volley record -- python server.py              session.volley when the session ends
  volley record -o /tmp/gh.volley -- npx -y @modelcontextprotocol/server-github
  volley record --name claude-ai=Claude -- uv run weather.py""",
)
@click.option(
    "-o",
    "--output",
    callback=named_output,
    default="session.volley",
    show_default=True,
    help="Where to write the diagram when the session ends (stdout carries the session).",
)
@click.option(
    "--name",
    "names",
    multiple=True,
    metavar="FROM=NAME",
    callback=lane_renames,
    help="Call a lane NAME instead: the client or server name from initialize, or Client/Server.",
)
@click.option(
    "--redact/--no-redact",
    default=True,
    help="Mask values that look like secrets, as it does by default; --no-redact keeps them.",
)
@click.argument("command", nargs=-1, required=True, type=click.UNPROCESSED)
def record_command(
    output: str, names: dict[str, str], redact: bool, command: tuple[str, ...]
) -> None:
    """Run COMMAND, relay stdin and stdout between it and whatever started volley, and write
    the session as a diagram when it ends.

    Put it in front of an MCP server in a host's configuration
    (`volley record -o /tmp/session.volley -- python server.py`): every byte goes through
    unchanged, the server's stderr is its own, and requests and responses are paired by id.
    Secrets in the messages are masked unless --no-redact. Exits with COMMAND's exit code.
    """
    from volley.importers.jsonrpc import session_diagram
    from volley.importers.traffic import TrafficOptions, imported, masked_note
    from volley.record import record, stdio

    if output == "-":  # stdout is the session's own
        raise click.UsageError("stdout carries the session: give -o a file to write the diagram")
    if os.path.isdir(output):  # found out only at the session's end, it would be lost
        raise click.UsageError(
            f"-o {shown_path(output)} is a folder: give the file to write the diagram to"
        )
    refuse_picture_name(output)
    try:  # before the session, which a missing folder would otherwise lose at its end
        make_folder_for(output)
    except OSError as exc:
        report(write_failed(output, exc))
        sys.exit(1)
    stdin, stdout = stdio()
    try:
        recording = record(command, stdin, stdout, started=_pass_sigterm_on)
        ctrl_c_passed_on()  # the session ends as its server's does
    except OSError as exc:
        say(f"volley record: error: cannot run {command[0]}: {exc.strerror or exc}")
        sys.exit(127)
    options = TrafficOptions(names=names, redact=redact)
    diagram = session_diagram(recording.sent, options)
    written = imported(diagram, options)  # as `volley import` writes the same session
    try:
        write_atomic(output, written.text)
    except OSError as exc:
        report(write_failed(output, exc))
        sys.exit(1)
    messages = counted(len(diagram.messages()), "message", "messages")  # arrows, as drawn
    say(f"volley record: wrote {shown_path(os.path.abspath(output))} ({messages})")
    for warning in options.unused_renames(output):
        report(warning)
    if written.masked or written.kept:
        say(f"volley record: {masked_note(written.masked, written.kept)}")
    code = recording.returncode
    sys.exit(code if code >= 0 else 128 - code)  # killed by signal N: 128 + N, as a shell says
