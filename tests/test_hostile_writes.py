"""Nothing lost: a failed `volley render` leaves an earlier output file exactly as it was."""

from __future__ import annotations

import errno
import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from volley.cli import main

EARLIER = b"<svg>the picture from yesterday</svg>\n"


def run(*args: str):
    return CliRunner().invoke(main, list(args), env={"NO_COLOR": "1"})


def _folder_files(folder: Path) -> set[str]:
    return {path.name for path in folder.iterdir()}


@pytest.fixture
def earlier(tmp_path: Path) -> Path:
    out = tmp_path / "out.svg"
    out.write_bytes(EARLIER)
    os.chmod(out, 0o640)
    return out


@pytest.mark.parametrize(
    ("source", "extra"),
    [
        ("A -> B\nA ~> B\n", []),  # a syntax error
        ("A -> B: " + "x" * 50, ["--max-label-chars", "10"]),  # a limit
        ("A -> B\n" * 200, ["--scale", "20"]),  # too big for cairo (out.png below)
    ],
    ids=["syntax", "limit", "raster-size"],
)
def test_a_failed_render_leaves_the_earlier_output_byte_identical(
    tmp_path: Path, earlier: Path, source: str, extra: list[str]
):
    path = tmp_path / "diagram.volley"
    path.write_text(source, encoding="utf-8")
    if "--scale" in extra:  # a PNG's earlier output: the format follows the extension
        earlier = earlier.rename(earlier.with_suffix(".png"))
    before = _folder_files(tmp_path)
    result = run("render", str(path), "-o", str(earlier), *extra)
    assert result.exit_code == 1 and "error" in result.stderr
    assert earlier.read_bytes() == EARLIER
    assert _folder_files(tmp_path) == before  # no temporary file left behind


@pytest.mark.parametrize("fails", ["write", "fsync", "replace"])
def test_a_write_that_fails_midway_leaves_the_earlier_output(
    tmp_path: Path, earlier: Path, monkeypatch: pytest.MonkeyPatch, fails: str
):
    path = tmp_path / "diagram.volley"
    path.write_text("A -> B: hello\n", encoding="utf-8")
    before = _folder_files(tmp_path)

    def disk_full(*args, **kwargs):
        raise OSError(errno.ENOSPC, "No space left on device")

    if fails == "write":
        import builtins

        import volley.textio

        class HalfWritten:
            """A file that takes a few bytes, then finds the disk full."""

            def __init__(self, handle) -> None:
                self.handle = handle

            def write(self, data: bytes) -> int:
                self.handle.write(data[:10])
                disk_full()

            def __getattr__(self, name: str):
                return getattr(self.handle, name)

            def __enter__(self):
                return self

            def __exit__(self, *exc) -> None:
                self.handle.close()

        def half_written_open(*args, **kwargs) -> HalfWritten:
            return HalfWritten(builtins.open(*args, **kwargs))  # noqa: SIM115 (closed on exit)

        # The module's own name for `open`, found before the builtin.
        monkeypatch.setattr(volley.textio, "open", half_written_open, raising=False)
    else:
        monkeypatch.setattr(os, fails, disk_full)
    result = run("render", str(path), "-o", str(earlier))
    monkeypatch.undo()
    assert result.exit_code == 1
    assert "No space left on device" in result.stderr and str(earlier) in result.stderr
    assert (
        "Traceback" not in result.stderr
        and result.exception is None
        or isinstance(result.exception, SystemExit)
    )
    assert earlier.read_bytes() == EARLIER
    assert _folder_files(tmp_path) == before


def test_an_output_folder_that_cannot_be_made_is_a_clear_error(tmp_path: Path):
    """A missing folder is made; one where a file stands cannot be."""
    path = tmp_path / "diagram.volley"
    path.write_text("A -> B\n", encoding="utf-8")
    (tmp_path / "blocker").write_text("a file, not a folder\n", encoding="utf-8")
    result = run("render", str(path), "-o", str(tmp_path / "blocker" / "out.svg"))
    assert result.exit_code == 1
    assert isinstance(result.exception, SystemExit), result.exception
    said = f"cannot write {tmp_path / 'blocker' / 'out.svg'}: {tmp_path / 'blocker'} is a file"
    assert f"{said}, not a folder" in result.stderr
    assert (tmp_path / "blocker").read_text() == "a file, not a folder\n"


def test_a_successful_render_replaces_the_file_and_keeps_its_mode(tmp_path: Path, earlier: Path):
    path = tmp_path / "diagram.volley"
    path.write_text("A -> B: hello\n", encoding="utf-8")
    assert run("render", str(path), "-o", str(earlier)).exit_code == 0
    assert earlier.read_bytes().startswith(b"<svg")
    assert earlier.stat().st_mode & 0o777 == 0o640


def test_one_failing_input_of_several_leaves_its_own_output(tmp_path: Path):
    out = tmp_path / "out"
    out.mkdir()
    good, bad = tmp_path / "good.volley", tmp_path / "bad.volley"
    good.write_text("A -> B\n", encoding="utf-8")
    bad.write_text("A ~> B\n", encoding="utf-8")
    (out / "bad.svg").write_bytes(EARLIER)
    result = run("render", str(good), str(bad), "-o", str(out))
    assert result.exit_code == 1
    assert (out / "good.svg").read_bytes().startswith(b"<svg")
    assert (out / "bad.svg").read_bytes() == EARLIER


def test_the_longest_file_names_the_system_allows_still_render(tmp_path: Path):
    """The temporary folder beside the output has a shortened name; the file in it has the
    output's own name."""
    source = tmp_path / "a.volley"
    source.write_text("A -> B: hi\n", encoding="utf-8")
    target = tmp_path / ("n" * 237 + ".svg")  # 241 characters: the temporary one is 255
    result = CliRunner().invoke(main, ["render", str(source), "-o", str(target)])
    assert result.exit_code == 0, result.output
    assert target.read_text(encoding="utf-8").rstrip().endswith("</svg>")


def test_a_new_file_gets_the_umasks_mode_without_touching_the_umask(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    """A new file gets the mode the umask gives, and the umask is never set to read it (that
    raced other threads, a server's renders, and could leave the process's umask at 0)."""
    from volley.textio import write_atomic

    previous = os.umask(0o027)
    try:
        monkeypatch.setattr(os, "umask", lambda *_: pytest.fail("the umask was set"))
        write_atomic(tmp_path / "out.svg", "<svg/>")
        assert (tmp_path / "out.svg").stat().st_mode & 0o777 == 0o640
    finally:
        monkeypatch.undo()
        os.umask(previous)


def test_an_output_that_is_a_link_updates_the_file_it_points_to(tmp_path: Path):
    real = tmp_path / "docs" / "diagram.svg"
    real.parent.mkdir()
    real.write_bytes(EARLIER)
    link = tmp_path / "diagram.svg"
    link.symlink_to(real)
    path = tmp_path / "diagram.volley"
    path.write_text("A -> B: hello\n", encoding="utf-8")
    assert run("render", str(path), "-o", str(link)).exit_code == 0
    assert link.is_symlink() and real.read_bytes().startswith(b"<svg")


@pytest.mark.parametrize("name", ["out.svg/", "missing/"])
def test_an_output_named_as_a_folder_is_made_a_folder(tmp_path: Path, name: str):
    path = tmp_path / "diagram.volley"
    path.write_text("A -> B\n", encoding="utf-8")
    before = _folder_files(tmp_path)
    result = run("render", str(path), "-o", str(tmp_path) + "/" + name)
    assert result.exit_code == 0, result.stderr
    assert _folder_files(tmp_path) == before | {name.rstrip("/")}
    assert _folder_files(tmp_path / name) == {"diagram.svg"}


def test_write_atomic_refuses_a_folders_name_before_writing_anything(tmp_path: Path):
    from volley.textio import write_atomic

    with pytest.raises(IsADirectoryError):
        write_atomic(str(tmp_path) + "/", "<svg/>")
    assert not list(tmp_path.iterdir())
