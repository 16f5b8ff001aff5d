"""Where the grammar and templates live (in the installed package, or beside it in a checkout),
and where the caches that make a cold start fast are kept.

Paths here are text, joined with `os.path`: a `volley render` does not import `pathlib` (with
`urllib.parse` and `ipaddress`, 2 ms of every cold start).
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import stat
from functools import cache

_PACKAGE = os.path.dirname(os.path.realpath(__file__))


@cache
def resource_dir(name: str) -> str:
    """`grammar` or `templates`: the wheel ships them in the package, a checkout at its top."""
    for candidate in (os.path.join(_PACKAGE, name), os.path.join(os.path.dirname(_PACKAGE), name)):
        if os.path.isdir(candidate):
            return candidate
    raise FileNotFoundError(f"volley is missing its {name}/ folder; reinstall the package")


def resource_path(name: str, *parts: str) -> str:
    """A file of a resource folder: `resource_path("templates", "svg", "diagram.svg")`."""
    return os.path.join(resource_dir(name), *parts)


def read_text(path: str) -> str:
    """A file's text, as UTF-8."""
    with open(path, encoding="utf-8") as handle:
        return handle.read()


def _private(folder: str) -> bool:
    """True for a real folder owned by this user that no one else can write into."""
    try:
        info = os.lstat(folder)
    except OSError:
        return False
    owner_ok = not hasattr(os, "getuid") or info.st_uid == os.getuid()
    return stat.S_ISDIR(info.st_mode) and owner_ok and not info.st_mode & 0o022


@cache
def cache_dir() -> str | None:
    """A folder for caches that are loaded back as code (Lark's pickled parser, the parse
    tables, compiled templates), so it must be one only this user can write: ~/.cache/volley
    (or under $XDG_CACHE_HOME), else a private folder in the temp folder. None if neither can
    be had, and then nothing is cached.
    """
    base = os.environ.get("XDG_CACHE_HOME")
    if not base:
        home = os.path.expanduser("~")
        base = None if home.startswith("~") else os.path.join(home, ".cache")
    for folder in ([os.path.join(base, "volley")] if base else []) + [None]:
        if folder is None:  # the fallback; tempfile is imported only when it is needed
            import tempfile

            user = os.getuid() if hasattr(os, "getuid") else "user"
            folder = os.path.join(tempfile.gettempdir(), f"volley-cache-{user}")
        with contextlib.suppress(OSError):
            os.makedirs(folder, mode=0o700, exist_ok=True)
        if _private(folder):
            return folder
    return None


def grammar_cache(grammar: str) -> str | bool:
    """Where Lark keeps the parser it built from `grammar`, for Lark's `cache` option.

    Building the LALR tables takes about 60 ms, loading them back 4 ms. Lark's own default is a
    predictable name in the shared temp folder, from which it would unpickle whatever file
    another user put there first; this keeps it in the private cache folder instead.
    """
    folder = cache_dir()
    if folder is None:
        return False
    digest = hashlib.sha256(grammar.encode("utf-8")).hexdigest()[:16]
    return os.path.join(folder, f"grammar-{digest}.lark")


def template_environment(folder: str, owner: str | None = None, **settings):
    """A Jinja environment for the templates in `folder`, set up as every template here is
    written: an undefined name is an error, block tags leave no blank lines, and, for an
    `owner` module, compiled templates are kept between runs (`template_cache`). The templates
    are volley's own and ship with it, so a loaded one is not checked for changes on every
    render (`auto_reload=False`). `settings` (autoescape, keep_trailing_newline ...) are
    Jinja's own."""
    from jinja2 import Environment, FileSystemLoader, StrictUndefined

    return Environment(
        loader=FileSystemLoader(folder),
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        auto_reload=False,
        bytecode_cache=template_cache(owner) if owner else None,
        **settings,
    )


def template_cache(owner: str):
    """Compiled templates kept between runs in the private cache folder, as the grammar is.

    Compiling a template costs tens of milliseconds (the HTML page's); loading the compiled
    code back takes a millisecond. Jinja checks each template's source before reusing its code,
    and the file names carry a digest of `owner` (the module that configures the environment),
    so changed settings never reuse old code.
    None where no private folder can be had.
    """
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

    folder = cache_dir()
    if folder is None:
        return None
    with open(owner, "rb") as handle:
        digest = hashlib.sha256(handle.read()).hexdigest()[:12]
    return QuietCache(folder, pattern=f"template-{digest}-%s.cache")
