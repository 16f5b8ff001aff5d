"""Shared fixtures: the reference diagram and the examples folder."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"


@pytest.fixture(scope="session")
def reference_text() -> str:
    return (EXAMPLES / "mcp-tool-call.volley").read_text(encoding="utf-8")
