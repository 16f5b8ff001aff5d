"""volley as a user gets it: installed by its distribution name into fresh venvs.

The venvs here see nothing of the environment running the tests (no system site packages), so
they hold exactly what pyproject.toml declares: a dependency missing from it fails here. The
plain install is the one the GitHub Action's install step does; each docs surface gets a venv
of its own with only its extra, and runs the real tool on a small project; pre-commit installs
the hooks from the repository. Dependencies are fetched once, into a wheelhouse, for all.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import venv
import zipfile
from pathlib import Path

import pytest
import yaml

from .conftest import EXAMPLES, ROOT

DISTRIBUTION = "volley-diagrams"
SITES = Path(__file__).parent / "sites"


def run(*args: str | Path, **kwargs) -> subprocess.CompletedProcess:
    kwargs.setdefault("capture_output", True)
    kwargs.setdefault("text", True)
    kwargs.setdefault("timeout", 600)
    return subprocess.run([str(arg) for arg in args], check=False, **kwargs)


ACTION = yaml.safe_load((ROOT / "action.yml").read_text())
GOOD = "title: Good\nA -> B: hello\n"
BROKEN = "A -> B: fine\nB ~> A: broken\n"


def action_step(
    name: str, inputs: dict[str, str], cwd: Path, **environ: str
) -> subprocess.CompletedProcess:
    """Run one `run:` step of action.yml as GitHub does: bash -eo pipefail, the inputs in the
    environment the step maps them to, GITHUB_ACTION_PATH the action's folder."""
    step = next(step for step in ACTION["runs"]["steps"] if step.get("name") == name)
    defaults = {key: spec.get("default", "") for key, spec in ACTION["inputs"].items()}
    env = {**os.environ, "GITHUB_ACTION_PATH": str(ROOT), **environ}
    for key, value in step.get("env", {}).items():
        named = re.fullmatch(r"\$\{\{ inputs\.([a-z-]+) \}\}", value)
        assert named, value
        env[key] = inputs.get(named[1], defaults[named[1]])
    return run(
        "bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", step["run"], cwd=cwd, env=env
    )


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
    # hatchling too: pre-commit builds volley from its source, as a user's pre-commit would.
    result = run(
        sys.executable,
        "-m",
        "pip",
        "download",
        "--quiet",
        "-d",
        folder,
        f"{wheel}[sphinx,mkdocs]",
        "hatchling>=1.21",
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
    """volley with no extra, installed by the GitHub Action's own install step (by name, from
    the action's files) into a fresh venv as actions/setup-python would leave it."""
    folder = tmp_path_factory.mktemp("base") / "venv"
    venv.create(folder, system_site_packages=False, with_pip=True)
    result = action_step(
        "Install volley (the volley-diagrams distribution)",
        {},
        folder.parent,
        PATH=f"{folder / 'bin'}{os.pathsep}{os.environ['PATH']}",
        PIP_NO_INDEX="1",
        PIP_FIND_LINKS=str(wheelhouse),
    )
    assert result.returncode == 0, result.stderr
    assert "volley, version" in result.stdout
    return folder / "bin"


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


def test_installed_volley_renders_outside_the_checkout(base, tmp_path):
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


def test_pygments_finds_the_volley_lexer_of_an_installed_volley(base):
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
    assert page.count('src="_static/volley.js?v=') == 1  # with Sphinx's checksum


def test_mkdocs_site_builds_with_only_the_mkdocs_extra(wheelhouse, tmp_path):
    bin_dir = fresh_venv(tmp_path / "venv", wheelhouse, "mkdocs")
    project = tmp_path / "project"
    shutil.copytree(SITES / "basic", project)
    env = {**os.environ, "PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}"}
    result = run(bin_dir / "mkdocs", "build", "--strict", "--quiet", cwd=project, env=env)
    assert result.returncode == 0, result.stderr
    assert "volley-diagram" in (project / "site" / "index.html").read_text()


# --- the GitHub Action and the pre-commit hooks --------------------------------------------------


def test_the_action_passes_inputs_to_its_scripts_through_the_environment():
    """`${{ inputs.paths }}` pasted into a script would run a caller's text as shell code."""
    scripts = [step["run"] for step in ACTION["runs"]["steps"] if "run" in step]
    assert len(scripts) == 3
    assert not any("${{" in script for script in scripts)


def test_the_action_installs_volley_by_its_distribution_name(base):
    shown = run(base / "python", "-m", "pip", "show", DISTRIBUTION)
    assert shown.returncode == 0 and f"Name: {DISTRIBUTION}" in shown.stdout


def test_the_action_checks_diagrams_and_markdown_below_the_paths(tmp_path):
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "good.volley").write_text(GOOD)
    (tmp_path / "docs" / "guide.md").write_text(f"# Guide\n\n```volley\n{GOOD}```\n")
    assert action_step("volley check", {"paths": "docs"}, tmp_path).returncode == 0

    (tmp_path / "docs" / "guide.md").write_text(f"# Guide\n\n```volley\n{BROKEN}```\n")
    failed = action_step("volley check", {"paths": "docs"}, tmp_path)
    assert failed.returncode == 1
    assert "guide.md:5" in failed.stderr and "is not an arrow" in failed.stderr
    # markdown: false leaves Markdown alone
    assert (
        action_step("volley check", {"paths": "docs", "markdown": "false"}, tmp_path).returncode
        == 0
    )


def test_the_action_fails_on_a_stale_readme_picture(tmp_path):
    readme = tmp_path / "README.md"
    readme.write_text(f"# Flow\n\n```volley\n{GOOD}```\n")
    stale = action_step("volley render --check", {"rendered": "README.md"}, tmp_path)
    assert stale.returncode == 1 and "out of date" in stale.stderr
    assert not (tmp_path / "diagrams").exists()  # the check writes nothing
    assert run("volley", "render", "README.md", cwd=tmp_path).returncode == 0
    fresh = action_step("volley render --check", {"rendered": "README.md"}, tmp_path)
    assert fresh.returncode == 0, fresh.stderr


def test_pre_commit_hooks_install_and_run_from_the_repository(wheelhouse, tmp_path):
    pre_commit = shutil.which("pre-commit")
    if pre_commit is None:
        pytest.skip("pre-commit is not installed")
    project = tmp_path / "project"
    project.mkdir()
    (project / "good.volley").write_text(GOOD)
    (project / "bad.volley").write_text(BROKEN)
    for args in (["init", "-q"], ["add", "."]):
        assert run("git", *args, cwd=project).returncode == 0
    env = {
        **os.environ,
        "PRE_COMMIT_HOME": str(tmp_path / "pre-commit-home"),
        # pre-commit's own pip installs volley-diagrams from the wheelhouse, offline.
        "PIP_NO_INDEX": "1",
        "PIP_FIND_LINKS": str(wheelhouse),
    }
    result = run(pre_commit, "try-repo", ROOT, "volley-check", "--all-files", cwd=project, env=env)
    assert result.returncode == 1, result.stdout + result.stderr
    assert "bad.volley:2" in result.stdout and "is not an arrow" in result.stdout
    assert "good.volley" not in result.stdout
