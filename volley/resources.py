"""Where the grammar and templates live: in the installed package, or beside it in a checkout."""

from __future__ import annotations

from functools import cache
from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent


@cache
def resource_dir(name: str) -> Path:
    """`grammar` or `templates`: the wheel ships them in the package, a checkout at its top."""
    for candidate in (_PACKAGE / name, _PACKAGE.parent / name):
        if candidate.is_dir():
            return candidate
    raise FileNotFoundError(f"volley is missing its {name}/ folder; reinstall the package")
