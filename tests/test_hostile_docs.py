"""Docs pages built from hostile ```volley fences: inert in a browser, and redacted on request.

The fences go through pymdownx.superfences with volley's formatter, as the MkDocs plugin uses
them: valid diagrams (interactive and static) with the corpus in every position, broken ones
whose error boxes quote it, all on one page.
"""

from __future__ import annotations

import pytest

pytest.importorskip("markdown")
pytest.importorskip("pymdownx")

from .test_hostile import _page_runs_nothing, browser_thread, every_position, needs_browser  # noqa: E402, F401
from .test_hostile_editor import SAMPLE  # noqa: E402
from .test_markdown_fences import converter  # noqa: E402
from .test_secrets import DIAGRAM, JWT, LIVE  # noqa: E402


def fence(source: str, options: str = "") -> str:
    longest = max((len(line) - len(line.lstrip("`")) for line in source.split("\n")), default=0)
    ticks = "`" * max(3, longest + 1)
    return f"{ticks}volley {options}\n{source}\n{ticks}\n"


def docs_page(body_markdown: str) -> str:
    body = converter().convert(body_markdown)
    return f"<!DOCTYPE html><html><head><meta charset='utf-8'></head><body>{body}</body></html>"


@needs_browser
def test_a_docs_page_of_hostile_fences_runs_nothing(browser_thread):  # noqa: F811
    parts = []
    for number, attack in enumerate(SAMPLE):
        parts.append(f"## Case {number}\n\n" + fence(every_position(attack)))
        parts.append(fence(every_position(attack), 'interactive="false"'))
        parts.append(fence(f"A ~> B: broken\n{attack}"))  # an error however the attack reads
    page = docs_page("\n".join(parts))
    assert page.count('class="volley-error"') == len(SAMPLE)
    assert _page_runs_nothing(browser_thread, page) > 0


def test_redact_on_a_fence_masks_the_page():
    shown = docs_page(fence(DIAGRAM))
    assert LIVE in shown  # the case is real
    for options in (
        'redact="true"',
        'redact="true" interactive="false" bodies="appendix"',
        "redact",  # alone, as a flag: on
        'redact bodies="appendix"',
    ):
        masked = docs_page(fence(DIAGRAM, options))
        assert LIVE not in masked and JWT not in masked
        assert "redacted" in masked


def test_redact_on_a_fence_masks_its_error_box():
    broken = f"A -> B\npassword={LIVE}\n"
    assert LIVE in docs_page(fence(broken))
    masked = docs_page(fence(broken, 'redact="true"'))
    assert 'class="volley-error"' in masked and LIVE not in masked
