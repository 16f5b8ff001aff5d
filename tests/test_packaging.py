"""volley as a user gets it: a wheel installed by its distribution name into a fresh venv.

The venvs here see nothing of the environment running the tests (no system site packages), so
they hold exactly what the wheel and its extras declare: a dependency missing from
pyproject.toml fails here. Each surface gets its own venv with only its extra, and runs the
real tool on a small project.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import venv
import zipfile
from pathlib import Path

import pytest

from .conftest import EXAMPLES, ROOT

DISTRIBUTION = "volley-diagrams"
SITES = Path(__file__).parent / "sites"


def run(*args: str | Path, **kwargs) -> subprocess.CompletedProcess:
    kwargs.setdefault("capture_output", True)
    kwargs.setdefault("text", True)
    kwargs.setdefault("timeout", 600)
    return subprocess.run([str(arg) for arg in args], check=False, **kwargs)


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    result = run(sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet", "-w", out, ROOT)
    assert result.returncode == 0, result.stderr
    return next(out.glob("volley_diagrams-*.whl"))


@pytest.fixture(scope="module")
def wheelhouse(wheel, tmp_path_factory) -> Path:
    """The wheel and every dependency of its extras, fetched once for all the venvs here."""
    folder = tmp_path_factory.mktemp("wheelhouse")
    shutil.copy(wheel, folder)
    result = run(
        sys.executable, "-m", "pip", "download", "--quiet", "-d", folder, f"{wheel}[sphinx,mkdocs]"
    )
    assert result.returncode == 0, result.stderr
    return folder


def fresh_venv(folder: Path, wheelhouse: Path, extra: str = "") -> Path:
    """A venv that sees nothing of this one, with `pip install volley-diagrams[extra]` done in
    it (from the wheelhouse, so by name as a user would); its bin folder."""
    venv.create(folder, system_site_packages=False, with_pip=False)
    bin_dir = folder / "bin"
    requirement = DISTRIBUTION + (f"[{extra}]" if extra else "")
    result = run(
        sys.executable,
        "-m",
        "pip",
        "--python",
        bin_dir / "python",
        "install",
        "--quiet",
        "--no-index",
        "--find-links",
        wheelhouse,
        requirement,
    )
    assert result.returncode == 0, result.stderr
    return bin_dir


@pytest.fixture(scope="module")
def base(wheelhouse, tmp_path_factory) -> Path:
    """`pip install volley-diagrams`, no extra."""
    return fresh_venv(tmp_path_factory.mktemp("base") / "venv", wheelhouse)


def test_wheel_is_named_for_the_index_and_ships_grammar_and_templates(wheel):
    names = zipfile.ZipFile(wheel).namelist()
    assert "volley/grammar/volley.lark" in names
    assert any(name.startswith("volley/templates/") for name in names)
    # The editor's templates gallery reads the examples from the package.
    assert "volley/examples/mcp-tool-call.volley" in names
    metadata = next(name for name in names if name.endswith(".dist-info/METADATA"))
    text = zipfile.ZipFile(wheel).read(metadata).decode()
    assert f"Name: {DISTRIBUTION}\n" in text
    for extra in ("mkdocs", "sphinx", "jupyter", "serve", "test", "docs"):
        assert f"Provides-Extra: {extra}\n" in text


def test_installed_wheel_renders_outside_the_checkout(base, tmp_path):
    work = tmp_path / "elsewhere"
    work.mkdir()
    (work / "flow.volley").write_text((EXAMPLES / "mcp-tool-call.volley").read_text())
    where = run(
        base / "python",
        "-c",
        "import volley.resources as r; print(r.resource_dir('grammar'))",
        cwd=work,
    )
    assert where.returncode == 0, where.stderr
    assert str(base.parent) in where.stdout, where.stdout
    parsed = run(base / "volley", "parse", "flow.volley", cwd=work)
    assert parsed.returncode == 0, parsed.stderr
    assert json.loads(parsed.stdout)["title"] == "MCP tool call over Streamable HTTP"
    rendered = run(base / "volley", "render", "flow.volley", "-o", "flow.html", cwd=work)
    assert rendered.returncode == 0, rendered.stderr
    assert "volley-diagram" in (work / "flow.html").read_text()


def test_pygments_finds_the_volley_lexer_of_the_installed_wheel(base):
    result = run(base / "python", "-m", "pygments", "-l", "volley", "-f", "html", input="A -> B\n")
    assert result.returncode == 0, result.stderr
    assert '<span class="o">-&gt;</span>' in result.stdout


def test_the_sphinx_extension_without_its_extra_names_the_install_command(base):
    result = run(base / "python", "-c", "import volley.docs.sphinx")
    assert result.returncode == 1
    last = result.stderr.strip().splitlines()[-1]
    assert last.endswith(f"pip install '{DISTRIBUTION}[sphinx]'"), result.stderr


def test_sphinx_site_builds_with_only_the_sphinx_extra(wheelhouse, tmp_path):
    bin_dir = fresh_venv(tmp_path / "venv", wheelhouse, "sphinx")
    project = tmp_path / "project"
    shutil.copytree(SITES / "sphinx" / "basic", project)
    result = run(
        bin_dir / "sphinx-build",
        "-W",
        "--keep-going",
        "-q",
        "-b",
        "html",
        project,
        project / "_build",
    )
    assert result.returncode == 0, result.stderr
    page = (project / "_build" / "markdown.html").read_text()
    assert page.count('class="volley-diagram') == 2
    assert page.count('src="_static/volley.js"') == 1


def test_mkdocs_site_builds_with_only_the_mkdocs_extra(wheelhouse, tmp_path):
    bin_dir = fresh_venv(tmp_path / "venv", wheelhouse, "mkdocs")
    project = tmp_path / "project"
    shutil.copytree(SITES / "basic", project)
    env = {**os.environ, "PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}"}
    result = run(bin_dir / "mkdocs", "build", "--strict", "--quiet", cwd=project, env=env)
    assert result.returncode == 0, result.stderr
    assert "volley-diagram" in (project / "site" / "index.html").read_text()
