"""A page per test, in the session's one headless Chromium (the `browser` fixture of
tests/conftest.py: Debian's chromium, or the one named by VOLLEY_CHROMIUM, driven by
Playwright). Without one the tests skip and say why; CI installs it, so there they run.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "browser: needs a headless Chromium (skipped without)")


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


@pytest.fixture
def open_in(browser, tmp_path: Path):
    """Write HTML to a file and open it in a fresh profile of its own, made with Playwright's
    context options (`color_scheme="dark"`, `java_script_enabled=False`)."""
    contexts = []

    def opener(html: str, fragment: str = "", **options):
        path = tmp_path / "page.html"
        path.write_text(html, encoding="utf-8")
        contexts.append(browser.new_context(**options))
        page = contexts[-1].new_page()
        page.goto(path.as_uri() + fragment)
        return page

    yield opener
    for context in contexts:
        context.close()
