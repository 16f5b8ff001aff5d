"""Recording a JSON-RPC-over-stdio session by standing between the two sides.

`volley record -- CMD ARGS…` runs CMD (an MCP server, a language server, any program that
speaks JSON-RPC on its stdin and stdout) as a child. What arrives on volley's stdin goes to
the child's stdin and what the child writes to its stdout goes to volley's stdout, byte for
byte, as soon as it is read: a host pointed at `volley record -- python server.py` talks to
the server as if volley were not there. The child's stderr is the child's own (passed through).
Meanwhile each side's bytes are cut into lines, and when the session ends the lines, in the
order volley saw them, become a diagram (`volley.importers.jsonrpc.session_diagram`).
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import BinaryIO

from volley.importers.jsonrpc import Sent, Side

__all__ = ["Recording", "record"]

CHUNK = 65536


@dataclass
class Recording:
    """What a session left: each side's lines in the order seen, and the child's exit code."""

    sent: list[Sent] = field(default_factory=list)
    returncode: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def add(self, sender: Side, line: bytes) -> None:
        text = line.decode("utf-8", errors="replace").removesuffix("\r")
        with self.lock:
            self.sent.append(Sent(sender, text))


def _relay(source: BinaryIO, target: BinaryIO, note: Callable[[bytes], None]) -> None:
    """Copy `source` to `target` as it arrives (flushing every chunk), and hand each complete
    line to `note`; close `target` at the end, so the other side sees end of file too."""
    pending = b""
    read = getattr(source, "read1", source.read)
    try:
        while True:
            chunk = read(CHUNK)
            if not chunk:
                break
            # Noted before it is passed on: once the other side has a line it may answer at
            # once, and its answer must not be recorded ahead of what it answers.
            pending += chunk
            *lines, pending = pending.split(b"\n")
            for line in lines:
                note(line)
            # A reader that went away (a broken pipe) does not stop the recording.
            with contextlib.suppress(BrokenPipeError, ValueError):
                _write_all(target, chunk)
    finally:
        if pending:
            note(pending)
        with contextlib.suppress(OSError, ValueError):
            target.close()


def _write_all(target: BinaryIO, data: bytes) -> None:
    """Write every byte (an unbuffered write may take part of it) and flush."""
    view = memoryview(data)
    while view:
        written = target.write(view)
        view = view[written or 0 :]
    target.flush()


def record(
    command: Sequence[str],
    stdin: BinaryIO,
    stdout: BinaryIO,
    env: dict | None = None,
    started: Callable[[subprocess.Popen], None] | None = None,
) -> Recording:
    """Run `command`, relay `stdin` to it and its stdout to `stdout`, and return what passed.

    Returns when the child has exited and its stdout is drained. The thread reading `stdin`
    is a daemon: a host that keeps its end open after the server exits does not hold volley.
    `started` is called with the child once it runs (the command line uses it to pass a
    SIGTERM on). Raises OSError when the command cannot be started.
    """
    recording = Recording()
    child = subprocess.Popen(
        list(command), stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env, bufsize=0
    )
    assert child.stdin is not None and child.stdout is not None
    if started is not None:
        started(child)
    to_child = threading.Thread(
        target=_relay,
        args=(stdin, child.stdin, lambda line: recording.add("client", line)),
        daemon=True,
    )
    from_child = threading.Thread(
        target=_relay,
        args=(child.stdout, _Unclosed(stdout), lambda line: recording.add("server", line)),
    )
    try:  # the threads' start too: an interrupt there must reach the child all the same
        to_child.start()
        from_child.start()
        recording.returncode = child.wait()
        from_child.join()
    except KeyboardInterrupt:  # an interrupt meant for the session: the child gets it too
        with contextlib.suppress(ProcessLookupError):
            child.send_signal(signal.SIGINT)
        recording.returncode = child.wait()
        if from_child.ident is not None:  # started: it ends with the child's output
            from_child.join()
    return recording


class _Unclosed:
    """Volley's own stdout: written and flushed through, never closed by the relay."""

    def __init__(self, stream: BinaryIO) -> None:
        self.stream = stream

    def write(self, data: bytes | memoryview) -> int | None:
        return self.stream.write(data)

    def flush(self) -> None:
        self.stream.flush()

    def close(self) -> None:
        self.flush()


def stdio() -> tuple[BinaryIO, BinaryIO]:
    """Volley's stdin and stdout as unbuffered binary streams (what the relay reads, writes)."""
    return os.fdopen(0, "rb", buffering=0, closefd=False), os.fdopen(
        1, "wb", buffering=0, closefd=False
    )
