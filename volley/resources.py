"""Where the grammar and templates live: in the installed package, or beside it in a checkout."""

from __future__ import annotations

import contextlib
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


def template_cache(owner: str):
    """Compiled templates kept between runs in a private temp folder, as Lark keeps its grammar.

    Compiling the SVG template took a third of a cold `volley render`; loading the compiled code
    back takes a millisecond. Jinja checks each template's source before reusing its code, and
    the file names carry a digest of `owner` (the module that configures the environment), so
    changed settings never reuse old code. None where no private temp folder can be made.
    """
    import hashlib

    from jinja2 import FileSystemBytecodeCache

    class QuietCache(FileSystemBytecodeCache):
        """A cache that is only ever a shortcut: an unreadable or unwritable entry is skipped."""

        def load_bytecode(self, bucket) -> None:
            try:
                super().load_bytecode(bucket)
            except (OSError, EOFError, ValueError, TypeError):
                bucket.reset()

        def dump_bytecode(self, bucket) -> None:
            with contextlib.suppress(OSError):
                super().dump_bytecode(bucket)

    digest = hashlib.sha256(Path(owner).read_bytes()).hexdigest()[:12]
    try:
        return QuietCache(pattern=f"volley-{digest}-%s.cache")
    except (OSError, RuntimeError):
        return None
