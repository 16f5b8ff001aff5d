"""The console script (`volley.cli.run`, also `python -m volley`) leaves without the
interpreter's teardown after parse, check and render: nothing written may be lost by that,
and the exit codes stay those of the command."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "examples" / "mcp-tool-call.volley"


def volley(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "volley", *args], capture_output=True, cwd=cwd, timeout=120
    )


def big_diagram(path: Path, messages: int = 3000) -> Path:
    lines = [f"A -> B: message number {n} " + "x" * 40 for n in range(messages)]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_large_stdout_arrives_whole(tmp_path: Path) -> None:
    source = big_diagram(tmp_path / "big.volley")
    parsed = volley("parse", str(source), cwd=tmp_path)
    assert parsed.returncode == 0
    assert len(json.loads(parsed.stdout)["items"]) == 3000
    drawn = volley("render", str(source), "-o", "-", cwd=tmp_path)
    assert drawn.returncode == 0
    assert drawn.stdout.rstrip().endswith(b"</svg>")


def test_files_are_written_before_the_process_leaves(tmp_path: Path) -> None:
    done = volley("render", str(EXAMPLE), "-o", str(tmp_path / "out.svg"), cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "out.svg").read_text(encoding="utf-8").rstrip().endswith("</svg>")
    assert list(tmp_path.iterdir()) == [tmp_path / "out.svg"]  # no temporary file left


def test_exit_codes_and_messages_are_the_commands(tmp_path: Path) -> None:
    bad = tmp_path / "bad.volley"
    bad.write_text("A -> \n", encoding="utf-8")
    failed = volley("render", str(bad), cwd=tmp_path)
    assert failed.returncode == 1
    assert b"bad.volley:1:6: error:" in failed.stderr
    checked = volley("check", str(EXAMPLE), str(bad), cwd=tmp_path)
    assert checked.returncode == 1
    assert b"1 of 2 files with errors" in checked.stderr
    misused = volley("render", "--bogus", cwd=tmp_path)
    assert misused.returncode == 2
    assert b"No such option" in misused.stderr
    assert volley("--version", cwd=tmp_path).stdout.startswith(b"volley, version")


def test_a_closed_stdout_does_not_turn_success_into_a_crash(tmp_path: Path) -> None:
    done = subprocess.run(
        ["sh", "-c", f'"{sys.executable}" -m volley render "{EXAMPLE}" -o out.svg >&-'],
        capture_output=False,
        stderr=subprocess.PIPE,
        cwd=tmp_path,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert b"Traceback" not in done.stderr
    assert (tmp_path / "out.svg").stat().st_size > 0


def test_every_command_keeps_its_help_text(tmp_path: Path) -> None:
    listing = volley("--help", cwd=tmp_path).stdout.decode()
    for line in ("parse ", "check ", "render ", "serve "):
        described = next(row for row in listing.splitlines() if row.strip().startswith(line))
        assert len(described.split()) > 1, described  # a summary after the name
    assert b"Print FILE's diagram as JSON" in volley("parse", "--help", cwd=tmp_path).stdout


def test_importing_the_main_module_runs_nothing(tmp_path: Path) -> None:
    imported = subprocess.run(
        [sys.executable, "-c", "import volley.__main__"], capture_output=True, cwd=tmp_path
    )
    assert (imported.returncode, imported.stdout, imported.stderr) == (0, b"", b"")
