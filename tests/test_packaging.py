"""The installed wheel carries its grammar and templates: volley works outside a checkout."""

from __future__ import annotations

import json
import subprocess
import sys
import venv
import zipfile
from pathlib import Path

import pytest

from .conftest import EXAMPLES, ROOT


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet", "-w", str(out), str(ROOT)],
        check=True,
    )
    return next(out.glob("volley-*.whl"))


def test_wheel_ships_grammar_and_templates(wheel):
    names = zipfile.ZipFile(wheel).namelist()
    assert "volley/grammar/volley.lark" in names
    assert any(name.startswith("volley/templates/") for name in names)
    # The editor's templates gallery reads the examples from the package.
    assert "volley/examples/mcp-tool-call.volley" in names


def test_installed_wheel_parses_outside_the_checkout(wheel, tmp_path):
    env_dir = tmp_path / "venv"
    venv.create(env_dir, system_site_packages=True, with_pip=True)
    python = env_dir / "bin" / "python"
    subprocess.run(
        [
            str(python),
            "-m",
            "pip",
            "install",
            "--quiet",
            "--no-deps",
            "--force-reinstall",
            str(wheel),
        ],
        check=True,
    )
    work = tmp_path / "elsewhere"
    work.mkdir()
    (work / "flow.volley").write_text((EXAMPLES / "mcp-tool-call.volley").read_text())
    where = subprocess.run(
        [str(python), "-c", "import volley.resources as r; print(r.resource_dir('grammar'))"],
        cwd=work,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    assert str(env_dir) in where, where
    result = subprocess.run(
        [str(env_dir / "bin" / "volley"), "parse", "flow.volley"],
        cwd=work,
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["title"] == "MCP tool call over Streamable HTTP"
