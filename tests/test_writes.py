"""Writing only the outputs asked for: a device, FIFO, socket or standard output is written in
place and stays what it was; a regular file is replaced atomically, leaving no temporary file
behind; a symbolic link is followed or refused, as the caller says.

Devices are made in a temporary folder (`mknod`, as root), never the machine's real ones.
"""

from __future__ import annotations

import errno
import functools
import os
import signal
import socket
import stat
import subprocess
import sys
import tempfile
import textwrap
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from volley.cli import main
from volley.textio import TEMPORARY_MARK, write_atomic

SOURCE = "A -> B: hello\n"


def run(*args: str):
    return CliRunner().invoke(main, list(args), env={"NO_COLOR": "1"})


@pytest.fixture
def source(tmp_path: Path) -> Path:
    path = tmp_path / "diagram.volley"
    path.write_text(SOURCE, encoding="utf-8")
    return path


def _device(folder: Path, name: str, minor: int) -> Path:
    """A private character device of the memory driver (3: null, 7: full), or a skip."""
    path = folder / name
    try:
        os.mknod(path, 0o666 | stat.S_IFCHR, os.makedev(1, minor))
        with open(path, "wb"):
            pass
    except PermissionError:
        pytest.skip("making a device needs root and a folder mounted without nodev")
    return path


class Reader(threading.Thread):
    """Reads everything a FIFO or socket is sent, as `cat` on the other end would."""

    def __init__(self, opener) -> None:
        super().__init__(daemon=True)  # a test that fails leaves it blocked; it must not hang
        self.opener = opener
        self.data = b""

    def run(self) -> None:
        with self.opener() as handle:
            self.data = handle.read()

    def result(self) -> bytes:
        self.join(timeout=20)
        assert not self.is_alive(), "the reader got nothing: the output was replaced"
        return self.data


def test_a_fifo_output_is_written_in_place(tmp_path: Path, source: Path):
    fifo = tmp_path / "out.svg"
    os.mkfifo(fifo)
    reader = Reader(functools.partial(open, fifo, "rb"))
    reader.start()
    result = run("render", str(source), "-o", str(fifo))
    assert result.exit_code == 0, result.output
    data = reader.result()
    assert data.startswith(b"<svg") and data.rstrip().endswith(b"</svg>")
    assert stat.S_ISFIFO(fifo.lstat().st_mode)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["diagram.volley", "out.svg"]


def test_a_device_output_is_written_in_place_and_stays_a_device(tmp_path: Path, source: Path):
    null = _device(tmp_path, "null", 3)
    before = null.lstat()
    result = run("render", str(source), "-o", str(null))
    assert result.exit_code == 0, result.output
    after = null.lstat()
    assert stat.S_ISCHR(after.st_mode) and after.st_rdev == before.st_rdev
    assert after.st_mode == before.st_mode and after.st_ino == before.st_ino
    assert sorted(p.name for p in tmp_path.iterdir()) == ["diagram.volley", "null"]


def test_a_full_device_is_a_clear_error_and_stays_a_device(tmp_path: Path, source: Path):
    full = _device(tmp_path, "full", 7)
    result = run("render", str(source), "-o", str(full))
    assert result.exit_code == 1
    assert "No space left on device" in result.stderr and str(full) in result.stderr
    assert "Traceback" not in result.stderr
    assert stat.S_ISCHR(full.lstat().st_mode)


def test_a_link_to_a_device_writes_the_device(tmp_path: Path, source: Path):
    null = _device(tmp_path, "null", 3)
    link = tmp_path / "out.svg"
    link.symlink_to(null)
    assert run("render", str(source), "-o", str(link)).exit_code == 0
    assert link.is_symlink() and stat.S_ISCHR(null.lstat().st_mode)


@pytest.fixture
def short_folder() -> Iterator[Path]:
    """A folder whose paths fit a Unix socket's address (at most 107 bytes)."""
    with tempfile.TemporaryDirectory(prefix="vw") as folder:
        yield Path(folder)


def test_a_unix_socket_output_is_sent_the_picture(short_folder: Path, source: Path):
    path = short_folder / "out.sock"
    server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    server.bind(str(path))
    server.listen(1)

    def accept():
        connection, _ = server.accept()
        return connection.makefile("rb")

    reader = Reader(accept)
    reader.start()
    try:
        result = run("render", str(source), "-o", str(path))
        assert result.exit_code == 0, result.output
        assert reader.result().rstrip().endswith(b"</svg>")
    finally:
        server.close()
    assert stat.S_ISSOCK(path.lstat().st_mode)


def _render_to(target: str, source: Path, **streams) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "volley", "render", str(source), "-o", target],
        capture_output="stdout" not in streams,
        timeout=60,
        check=False,
        **streams,
    )


@pytest.mark.parametrize("name", ["/dev/stdout", "/dev/fd/1", "/proc/self/fd/1"])
def test_dev_stdout_into_a_pipe_works(source: Path, name: str):
    if not os.path.exists(name):
        pytest.skip(f"{name} does not exist here")
    done = _render_to(name, source)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith(b"<svg") and done.stdout.rstrip().endswith(b"</svg>")


def test_dev_stdout_into_a_socket_works(source: Path):
    ours, theirs = socket.socketpair()
    with ours, theirs:
        done = _render_to("/dev/stdout", source, stdout=theirs.fileno(), stderr=subprocess.PIPE)
        theirs.close()
        assert done.returncode == 0, done.stderr
        data = ours.makefile("rb").read()
    assert data.rstrip().endswith(b"</svg>")


def test_dev_stderr_into_a_pipe_works(source: Path):
    done = _render_to("/dev/stderr", source)
    assert done.returncode == 0 and done.stderr.rstrip().endswith(b"</svg>")


def test_a_regular_file_is_replaced_through_a_recognisable_temporary(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    seen: list[str] = []
    real_replace = os.replace

    def replace(src, dst, *args, **kwargs):
        seen.append(os.fspath(src))
        return real_replace(src, dst, *args, **kwargs)

    monkeypatch.setattr(os, "replace", replace)
    write_atomic(tmp_path / "out.svg", "<svg/>")
    monkeypatch.undo()
    assert (tmp_path / "out.svg").read_text(encoding="utf-8") == "<svg/>"
    assert len(seen) == 1 and os.path.dirname(os.path.dirname(seen[0])) == str(tmp_path)
    assert f".out.svg{TEMPORARY_MARK}" in seen[0]
    assert os.listdir(tmp_path) == ["out.svg"]


def test_nothing_is_left_after_an_exception_midway(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    (tmp_path / "out.svg").write_text("earlier", encoding="utf-8")

    def interrupted(*args):
        raise KeyboardInterrupt

    monkeypatch.setattr(os, "fsync", interrupted)
    with pytest.raises(KeyboardInterrupt):
        write_atomic(tmp_path / "out.svg", "<svg/>")
    monkeypatch.undo()
    assert os.listdir(tmp_path) == ["out.svg"]
    assert (tmp_path / "out.svg").read_text(encoding="utf-8") == "earlier"


TERMINATED = """
import os, sys, time
from volley.cli import exit_on_sigterm
from volley.textio import write_atomic

def slow(fd):
    print("writing", flush=True)
    time.sleep(60)

exit_on_sigterm()
os.fsync = slow
write_atomic(sys.argv[1], "<svg/>")
"""


def test_sigterm_midway_leaves_no_temporary_and_the_earlier_file(tmp_path: Path):
    out = tmp_path / "out.svg"
    out.write_text("earlier", encoding="utf-8")
    child = subprocess.Popen(
        [sys.executable, "-c", textwrap.dedent(TERMINATED), str(out)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert child.stdout is not None and child.stdout.readline() == b"writing\n"
    assert len(os.listdir(tmp_path)) == 2  # the temporary one is there, midway
    child.send_signal(signal.SIGTERM)
    _, stderr = child.communicate(timeout=30)
    assert child.returncode == 128 + signal.SIGTERM, stderr
    assert b"Traceback" not in stderr
    assert os.listdir(tmp_path) == ["out.svg"]
    assert out.read_text(encoding="utf-8") == "earlier"


COMMAND_TERMINATED = """
import os, sys, time
from volley.cli import run

def slow(fd):
    print("writing", file=sys.stderr, flush=True)
    time.sleep(60)

os.fsync = slow
sys.argv = ["volley", "render", sys.argv[1], "-o", sys.argv[2]]
run()
"""


@pytest.mark.parametrize("stop", [signal.SIGTERM, signal.SIGINT])
def test_a_stopped_volley_render_leaves_no_temporary_and_says_how(tmp_path, source, stop):
    """SIGTERM exits 143 and Ctrl-C 130, as a shell reports them: Ctrl-C exited 1, the status
    of a diagram with errors, and a script could not tell them apart."""
    out = tmp_path / "out.svg"
    out.write_text("earlier", encoding="utf-8")
    child = subprocess.Popen(
        [sys.executable, "-c", textwrap.dedent(COMMAND_TERMINATED), str(source), str(out)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert child.stderr is not None and child.stderr.readline() == b"writing\n"
    child.send_signal(stop)
    _, stderr = child.communicate(timeout=30)
    assert child.returncode == 128 + stop and b"Traceback" not in stderr, stderr
    assert (b"Aborted!" in stderr) == (stop == signal.SIGINT)
    assert sorted(os.listdir(tmp_path)) == ["diagram.volley", "out.svg"]
    assert out.read_text(encoding="utf-8") == "earlier"


def test_a_job_that_ignores_ctrl_c_goes_on_to_write_its_picture(tmp_path, source):
    """A job started with `&` by a shell without job control ignores SIGINT, and so does
    volley: the Ctrl-C meant for the foreground leaves it to finish (its own handler would have
    turned the ignored signal back on)."""
    out = tmp_path / "out.svg"
    script = textwrap.dedent(COMMAND_TERMINATED).replace("time.sleep(60)", "time.sleep(1)")
    child = subprocess.Popen(
        [sys.executable, "-c", script, str(source), str(out)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_IGN),
    )
    assert child.stderr is not None and child.stderr.readline() == b"writing\n"
    child.send_signal(signal.SIGINT)
    _, stderr = child.communicate(timeout=30)
    assert child.returncode == 0, stderr
    assert out.read_text(encoding="utf-8").startswith("<svg")


def test_a_file_the_user_may_not_write_is_left_as_it_is(tmp_path: Path, monkeypatch):
    """A picture made read-only to keep it (`chmod a-w`) was replaced, and changed owner: the
    folder allowed the rename. (As root every file may be written: what `os.access` says is
    what the user may do.)"""
    kept = tmp_path / "kept.svg"
    kept.write_text("earlier", encoding="utf-8")
    real = os.access
    monkeypatch.setattr(os, "access", lambda p, m, **k: "kept" not in str(p) and real(p, m))
    with pytest.raises(PermissionError) as refused:
        write_atomic(kept, "<svg/>")
    assert refused.value.filename == str(kept) and "read-only" in str(refused.value)
    assert kept.read_text(encoding="utf-8") == "earlier" and os.listdir(tmp_path) == ["kept.svg"]


def test_a_symlink_is_followed_by_default(tmp_path: Path):
    real = tmp_path / "real.svg"
    real.write_text("earlier", encoding="utf-8")
    link = tmp_path / "out.svg"
    link.symlink_to(real)
    write_atomic(link, "<svg/>")
    assert link.is_symlink() and real.read_text(encoding="utf-8") == "<svg/>"


@pytest.mark.parametrize("points_to", ["file", "missing", "device"])
def test_a_symlink_is_refused_when_asked_and_nothing_changes(tmp_path: Path, points_to: str):
    outside = tmp_path / "outside"
    outside.mkdir()
    if points_to == "device":
        real = _device(outside, "null", 3)
    else:
        real = outside / "target.svg"
        if points_to == "file":
            real.write_text("someone else's", encoding="utf-8")
    link = tmp_path / "out.svg"
    link.symlink_to(real)
    with pytest.raises(OSError) as raised:
        write_atomic(link, "<svg/>", follow_symlinks=False)
    assert raised.value.errno == errno.ELOOP and raised.value.filename == str(link)
    assert "symbolic link" in str(raised.value)
    assert link.is_symlink() and os.readlink(link) == str(real)
    if points_to == "file":
        assert real.read_text(encoding="utf-8") == "someone else's"
    assert sorted(os.listdir(tmp_path)) == ["out.svg", "outside"]


def test_refusing_symlinks_still_writes_regular_files_and_devices(tmp_path: Path):
    write_atomic(tmp_path / "out.svg", "<svg/>", follow_symlinks=False)
    assert (tmp_path / "out.svg").read_text(encoding="utf-8") == "<svg/>"
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    reader = Reader(functools.partial(open, fifo, "rb"))
    reader.start()
    write_atomic(fifo, b"<svg/>", follow_symlinks=False)
    assert reader.result() == b"<svg/>"


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    """A checkout (`repo/`) and a folder outside it that must stay untouched."""
    (tmp_path / "repo").mkdir()
    (tmp_path / "outside").mkdir()
    (tmp_path / "outside" / "diagram.svg").write_text("someone else's", encoding="utf-8")
    return tmp_path


@pytest.mark.parametrize("follow_symlinks", [True, False])
def test_within_refuses_a_folder_that_links_outside(tree: Path, follow_symlinks: bool):
    (tree / "repo" / "diagrams").symlink_to(tree / "outside")
    target = tree / "repo" / "diagrams" / "diagram.svg"
    with pytest.raises(PermissionError) as raised:
        write_atomic(target, "<svg/>", within=tree / "repo", follow_symlinks=follow_symlinks)
    assert raised.value.filename == str(target) and "outside" in str(raised.value)
    assert (tree / "outside" / "diagram.svg").read_text(encoding="utf-8") == "someone else's"
    assert os.listdir(tree / "outside") == ["diagram.svg"]


def test_within_refuses_a_followed_link_to_outside_and_allows_one_inside(tree: Path):
    repo = tree / "repo"
    (repo / "out.svg").symlink_to(tree / "outside" / "diagram.svg")
    with pytest.raises(PermissionError):
        write_atomic(repo / "out.svg", "<svg/>", within=repo)
    assert (tree / "outside" / "diagram.svg").read_text(encoding="utf-8") == "someone else's"
    (repo / "docs").mkdir()
    (repo / "inside.svg").symlink_to(repo / "docs" / "real.svg")
    write_atomic(repo / "inside.svg", "<svg/>", within=repo)
    write_atomic(repo / "docs" / "new.svg", "<svg/>", within=repo)
    assert (repo / "docs" / "real.svg").read_text(encoding="utf-8") == "<svg/>"
    assert (repo / "docs" / "new.svg").read_text(encoding="utf-8") == "<svg/>"


def test_a_folder_is_refused(tmp_path: Path):
    (tmp_path / "out.svg").mkdir()
    with pytest.raises(IsADirectoryError):
        write_atomic(tmp_path / "out.svg", "<svg/>")
    assert os.listdir(tmp_path) == ["out.svg"]


PDF_TERMINATED = """
import io, sys, time
import volley.output.raster as raster
from volley.cli import run

class Slow(io.BytesIO):
    def write(self, data):
        print("writing", file=sys.stderr, flush=True)
        time.sleep(60)  # the signal lands here, inside cairo's callback
        return super().write(data)

raster.io = type("io", (), {"BytesIO": Slow})
sys.argv = ["volley", "render", sys.argv[1], "-o", sys.argv[2]]
run()
"""


def test_sigterm_while_cairo_writes_a_pdf_stops_it_as_anywhere_else(tmp_path: Path, source: Path):
    """cairo calls back into Python to write the PDF's bytes: a SIGTERM there cannot stop
    cairo, which reports a failed write; the command still ends as terminated, no traceback,
    no temporary left, and no file blamed for it."""
    out = tmp_path / "out.pdf"
    child = subprocess.Popen(
        [sys.executable, "-c", textwrap.dedent(PDF_TERMINATED), str(source), str(out)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert child.stderr is not None and child.stderr.readline() == b"writing\n"
    child.send_signal(signal.SIGTERM)
    _, stderr = child.communicate(timeout=60)
    assert child.returncode == 128 + signal.SIGTERM, stderr
    assert b"Traceback" not in stderr and b"cannot write" not in stderr
    assert sorted(os.listdir(tmp_path)) == ["diagram.volley"]
