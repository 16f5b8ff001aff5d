"""Each command loads only what it needs: a cold `volley render` to SVG is dominated by imports,
so the rasteriser, the highlighter, the templates and the server wait until a command uses
them."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "examples" / "mcp-tool-call.volley"
HEAVY = ("cairosvg", "cairocffi", "pygments", "jinja2", "markupsafe", "starlette", "uvicorn")
# Standard modules a render to SVG does without (pathlib brings urllib.parse and ipaddress).
STANDARD = ("pathlib", "ipaddress", "tempfile", "shutil", "pickle")

# Modules only a rare path needs: serving, a warning's spelling suggestions, icons.
RARE = ("socket", "volley.server", "volley.server.share", "difflib", "volley.text.icons")
PLAIN = "title: Plain\nA -> B: hello\nin: Request\n  user: ada\nB --> A: ok\n"

# Runs one command in a fresh interpreter; writes which of the named modules it loaded (a
# package counts as loaded when any of its modules is).
PROBE = """
import json, sys
from volley.cli import main
report, watched, args = sys.argv[1], set(json.loads(sys.argv[2])), sys.argv[3:]
try:
    main(args, standalone_mode=False)
finally:
    with open(report, "w") as f:
        json.dump(sorted({*sys.modules, *(m.split(".")[0] for m in sys.modules)} & watched), f)
"""


def loaded_by(tmp_path: Path, *args: str, bare: bool = False) -> set[str]:
    """`bare`: without the site module (its hooks may load modules of their own), finding
    volley and its dependencies on this interpreter's path."""
    report = tmp_path / "loaded.json"
    watched = json.dumps([*HEAVY, *RARE, *STANDARD])
    flags = ["-S"] if bare else []
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in sys.path if p)} if bare else None
    subprocess.run(
        [sys.executable, *flags, "-c", PROBE, str(report), watched, *args],
        check=True,
        capture_output=True,
        cwd=tmp_path,
        env=env,
    )
    return set(json.loads(report.read_text()))


@pytest.mark.parametrize(
    ("args", "allowed"),
    [
        (("parse", str(EXAMPLE)), set()),
        (("check", str(EXAMPLE)), set()),
        (("render", str(EXAMPLE), "-o", "out.html"), {"jinja2", "markupsafe", "pygments"}),
    ],
)
def test_commands_load_only_what_they_use(tmp_path: Path, args, allowed) -> None:
    assert loaded_by(tmp_path, *args) & set(HEAVY) <= allowed


def test_a_render_to_svg_loads_no_template_engine_once_its_stamps_are_kept(tmp_path) -> None:
    """The first render keeps the SVG's stamps (`volley.output.stamps`); a render after it
    needs neither Jinja nor MarkupSafe, nor pathlib and the modules it brings."""
    loaded_by(tmp_path, "render", str(EXAMPLE), "-o", "first.svg", bare=True)
    (tmp_path / "copy.volley").write_text(EXAMPLE.read_text(encoding="utf-8"), encoding="utf-8")
    for args in (("-o", "out.svg"), ("-o", "."), ()):  # a file, a folder, beside the input
        loaded = loaded_by(tmp_path, "render", "copy.volley", *args, bare=True)
        assert not loaded & {*HEAVY, *STANDARD}, args
    assert (tmp_path / "out.svg").exists() and (tmp_path / "copy.svg").exists()


@pytest.mark.parametrize(
    ("args", "allowed"),
    [
        (("parse", "plain.volley"), set()),
        (("check", "plain.volley"), set()),
        # Click itself imports difflib to parse a short option such as -o; --output is spelled
        # out here so that only volley's own imports are looked at.
        (("render", "plain.volley", "--output", "out.svg"), {"volley.text.icons"}),
    ],
)
def test_rare_paths_stay_unloaded(tmp_path: Path, args, allowed) -> None:
    """No server (socket) for a render, and no icons or difflib for a plain diagram's check."""
    (tmp_path / "plain.volley").write_text(PLAIN, encoding="utf-8")
    assert loaded_by(tmp_path, *args) & set(RARE) <= allowed
