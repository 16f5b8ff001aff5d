"""Each command loads only what it needs: a cold `volley render` to SVG is dominated by imports,
so the rasteriser, the highlighter and the templates wait until a command uses them."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "examples" / "mcp-tool-call.volley"
HEAVY = ("cairosvg", "cairocffi", "pygments", "jinja2", "starlette", "uvicorn")

# Runs one command in a fresh interpreter; writes which of the named packages it loaded.
PROBE = """
import json, sys
from volley.cli import main
report, heavy, args = sys.argv[1], set(json.loads(sys.argv[2])), sys.argv[3:]
try:
    main(args, standalone_mode=False)
finally:
    with open(report, "w") as f:
        json.dump(sorted({m.split(".")[0] for m in sys.modules} & heavy), f)
"""


def loaded_by(tmp_path: Path, *args: str) -> set[str]:
    report = tmp_path / "loaded.json"
    subprocess.run(
        [sys.executable, "-c", PROBE, str(report), json.dumps(HEAVY), *args],
        check=True,
        capture_output=True,
        cwd=tmp_path,
    )
    return set(json.loads(report.read_text()))


@pytest.mark.parametrize(
    ("args", "allowed"),
    [
        (("parse", str(EXAMPLE)), set()),
        (("check", str(EXAMPLE)), set()),
        (("render", str(EXAMPLE), "-o", "out.svg"), {"jinja2"}),
        (("render", str(EXAMPLE), "-o", "out.html"), {"jinja2", "pygments"}),
    ],
)
def test_commands_load_only_what_they_use(tmp_path: Path, args, allowed) -> None:
    assert loaded_by(tmp_path, *args) <= allowed
