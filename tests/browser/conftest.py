"""One headless Chromium for the whole session, and a page per test.

The browser is Debian's chromium (or the one named by VOLLEY_CHROMIUM), driven by Playwright.
Without one the tests skip and say why; CI installs it, so there they run.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


def chromium_path() -> str | None:
    named = os.environ.get("VOLLEY_CHROMIUM")
    if named:
        return named if Path(named).exists() else None
    for candidate in ("/usr/bin/chromium", "chromium", "chromium-browser", "google-chrome"):
        found = shutil.which(candidate)
        if found:
            return found
    return None


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "browser: needs a headless Chromium (skipped without)")


@pytest.fixture(scope="session")
def browser() -> Iterator[object]:
    sync_api = pytest.importorskip(
        "playwright.sync_api", reason="the playwright package is missing"
    )
    path = chromium_path()
    if path is None:
        pytest.skip("no Chromium found: install Debian's chromium or set VOLLEY_CHROMIUM")
    with sync_api.sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=path, args=ARGS)
        yield launched
        launched.close()


@pytest.fixture
def context(browser) -> Iterator[object]:
    """A fresh profile per test: no shared history, storage or permissions."""
    made = browser.new_context(viewport={"width": 1400, "height": 900})
    yield made
    made.close()


@pytest.fixture
def open_page(context, tmp_path: Path):
    """Write HTML to a file and open it (from disk, as a reader would), failing on script errors."""
    errors: list[str] = []

    def opener(html: str, fragment: str = "", name: str = "page.html"):
        path = tmp_path / name
        path.write_text(html, encoding="utf-8")
        page = context.new_page()
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.on(
            "dialog", lambda dialog: (errors.append("dialog: " + dialog.message), dialog.dismiss())
        )
        page.goto(path.as_uri() + fragment)
        return page

    yield opener
    assert errors == []
