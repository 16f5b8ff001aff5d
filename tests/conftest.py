"""Shared fixtures: the reference diagram and the examples folder."""

from __future__ import annotations

import atexit
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import settings

from volley.model import Diagram, Note

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"

# The caches (parse tables, compiled templates) of this run go to a folder of its own,
# for it and the commands it starts: the tests neither trust what earlier renders left in
# ~/.cache/volley nor add to it.
_CACHE = tempfile.mkdtemp(prefix="volley-test-cache-")
os.environ["XDG_CACHE_HOME"] = _CACHE
atexit.register(shutil.rmtree, _CACHE, True)

# Every property test draws the same examples each run, so a red build points at a change;
# scripts/fuzz.py is where new examples are drawn (tests/fuzz_strategies.py).
settings.register_profile("volley-tests", derandomize=True)
settings.load_profile("volley-tests")


def volley_cli(
    *args: str, stdin: str | None = None, cwd: Path | None = None
) -> subprocess.CompletedProcess[str]:
    """`volley ARGS…` as a user runs it, in a process of its own, without colour."""
    return subprocess.run(
        [sys.executable, "-m", "volley", *args],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=cwd,
        env={**os.environ, "NO_COLOR": "1"},
    )


def parsed_items(parsed: dict) -> list[dict]:
    """Every item of a `volley parse` document, nested ones included, in document order."""
    out = []
    for item in parsed["items"]:
        out.append(item)
        for branch in item.get("branches", []):
            out.extend(parsed_items(branch))
    return out


def arrows(diagram: Diagram) -> list[tuple[str, str, str, str]]:
    """Each message as (sender, arrow, receiver, label): what an importer's result is checked by."""
    return [(m.sender, m.arrow, m.receiver, m.label) for m in diagram.messages()]


def notes_of(diagram: Diagram) -> list[str]:
    """The text of each note at the diagram's top level, in order."""
    return [item.text for item in diagram.items if isinstance(item, Note)]


@pytest.fixture(scope="session")
def reference_text() -> str:
    return (EXAMPLES / "mcp-tool-call.volley").read_text(encoding="utf-8")


# --- one headless Chromium for the whole run ---------------------------------------------------
# Playwright's sync API keeps an event loop running in the main thread while a browser is up,
# which breaks asyncio.run() in any test after it and a second sync_playwright(). So there is
# one browser for the session, and every test that uses it runs after all the others.

CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


def chromium_path() -> str | None:
    """Debian's chromium (or the one named by VOLLEY_CHROMIUM); None when there is none."""
    named = os.environ.get("VOLLEY_CHROMIUM")
    if named:
        return named if Path(named).exists() else None
    for candidate in ("/usr/bin/chromium", "chromium", "chromium-browser", "google-chrome"):
        found = shutil.which(candidate)
        if found:
            return found
    return None


@pytest.fixture(scope="session")
def browser() -> Iterator[object]:
    sync_api = pytest.importorskip(
        "playwright.sync_api", reason="the playwright package is missing"
    )
    path = chromium_path()
    if path is None:
        pytest.skip("no Chromium found: install Debian's chromium or set VOLLEY_CHROMIUM")
    with sync_api.sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=path, args=CHROMIUM_ARGS)
        yield launched
        launched.close()


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Run the tests that use the shared browser last, once nothing else needs the loop."""
    items.sort(key=lambda item: "browser" in getattr(item, "fixturenames", ()))
