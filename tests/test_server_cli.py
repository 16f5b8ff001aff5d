"""`volley serve` from the command line: it starts, says where, stays on loopback, and says how
to install what it needs when that is missing."""

from __future__ import annotations

import re
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from click.testing import CliRunner

from volley.cli import main

httpx2 = pytest.importorskip("httpx2")
pytest.importorskip("starlette")
pytest.importorskip("uvicorn")


@contextmanager
def serving(path: Path) -> Iterator[str]:
    """`volley serve FILE --port 0` in a child process; the first line it prints."""
    process = subprocess.Popen(
        [sys.executable, "-m", "volley", "serve", str(path), "--port", "0"],
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        first = process.stderr.readline()
        yield first if process.poll() is None else first + process.stderr.read()
    finally:
        process.terminate()
        process.wait(10)


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[str, Path]]:
    """`volley serve FILE --port 0` in a child process; its URL as printed, and FILE."""
    path = tmp_path / "flow.volley"
    path.write_text("A -> B: on disk\n", encoding="utf-8")
    with serving(path) as first:
        found = re.search(r"volley editor on (http://\S+/)", first)
        assert found, first
        yield found.group(1), path


def test_serve_starts_on_loopback_and_edits_the_file(served) -> None:
    url, path = served
    assert url.startswith("http://127.0.0.1:")
    assert httpx2.get(url + "healthz", timeout=10).json()["status"] == "ok"
    assert httpx2.get(url + "file", timeout=10).json()["source"] == "A -> B: on disk\n"
    page = httpx2.get(url, timeout=10)
    assert "flow.volley" in page.text


def test_serve_says_when_the_file_it_edits_is_new(tmp_path: Path) -> None:
    """`volley serve new.volley` started in silence about a file that is not there yet."""
    path = tmp_path / "new.volley"
    with serving(path) as first:
        assert first.rstrip().endswith(f"editing {path} (a new file: Save makes it)"), first
        assert not path.exists()


def test_serve_on_loopback_refuses_other_host_names(served) -> None:
    """A DNS-rebinding page reaches 127.0.0.1 under its own name; it gets nothing."""
    url, _ = served
    response = httpx2.get(url + "file", headers={"Host": "rebound.example"}, timeout=10)
    assert response.status_code == 421


def test_serve_help_lists_its_options() -> None:
    result = CliRunner().invoke(main, ["serve", "--help"])
    assert result.exit_code == 0
    for option in ("--host", "--port", "--open", "--max-body-bytes", "--render-timeout"):
        assert option in result.output
    assert "127.0.0.1" in result.output


def test_serve_says_how_to_install_the_extra(monkeypatch) -> None:
    monkeypatch.setitem(sys.modules, "uvicorn", None)  # import uvicorn now fails
    result = CliRunner().invoke(main, ["serve"])
    assert result.exit_code == 1
    assert "pip install 'volley-diagrams[serve]'" in result.output
    assert "uvicorn" in result.output


def test_serve_refuses_a_folder(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["serve", str(tmp_path / "missing" / "x.volley")])
    assert result.exit_code == 1
    assert "does not exist" in result.output


def test_serve_reports_a_port_in_use() -> None:
    import socket

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = CliRunner().invoke(main, ["serve", "--port", str(port)])
    assert result.exit_code == 1
    assert f"cannot listen on 127.0.0.1:{port}" in result.output
