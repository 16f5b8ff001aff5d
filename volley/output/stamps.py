"""Stamps: the tags of `svg/diagram.svg`, each rendered once with holes and then filled by `%`.

A picture repeats a few dozen tags thousands of times (a message's group, arrow and heads, a
label's `<text>`); filling a stamp costs one string format where a template pass would cost a
call and an escape per value. Stamps also spare a render Jinja itself: a stamp is made from
constants only (classes, colours, styles, sizes; `svg.py` passes whatever a user wrote through
holes), so the ones a process makes are kept in the private cache folder, under a name that
carries a digest of the template, of this module and of the code of the Jinja and MarkupSafe
that rendered them (their `__init__.py`, MarkupSafe's `_native.py`). A render whose stamps are
all kept there (most are, once a theme and format have been drawn) never imports Jinja, about
a sixth of a cold `volley render`. A kept file that does not fill as a stamp must is dropped
and written anew (see `svg.render_svg`).
"""

from __future__ import annotations

import contextlib
import json
import re
import threading
from functools import cache
from typing import TYPE_CHECKING

from volley.resources import (
    cache_file,
    package_source,
    read_text,
    resource_dir,
    resource_path,
    template_environment,
)

if TYPE_CHECKING:
    from jinja2 import Environment

TEMPLATE = "svg/diagram.svg"
_HOLE = "\x00"  # XML cannot hold U+0000, so no template text has one
_MADE = 4_000  # stamps a process keeps in memory; a picture needs a few dozen
_KEPT = 2_000  # stamps kept in the file; a theme needs a few hundred
# A pattern as `_render` writes it: text, `%%`, and holes by position or by name.
_PATTERN = re.compile(r"(?:[^%]|%%|%s|%\(\w+\)s)*")


@cache
def environment() -> Environment:
    """The SVG template's environment; `.svg` templates are autoescaped explicitly.

    `auto_reload=False`: the templates ship with the package, so a render never stats them.
    """
    from jinja2 import select_autoescape

    return template_environment(
        resource_dir("templates"),
        __file__,
        autoescape=select_autoescape(enabled_extensions=("svg", "html", "xml"), default=True),
        keep_trailing_newline=True,
        auto_reload=False,
    )


class _Stamps:
    """The stamps made or loaded so far, and the file they are kept in between runs."""

    def __init__(self) -> None:
        self.made: dict[tuple, str] = {}  # by (name, named, constants, *fixed.items())
        self.kept: dict[str, str] | None = None  # by repr of that key: the file's, once read
        self.new = False  # made since the file was read or written
        self.used_kept = False  # a stamp came from the file
        self.replace = False  # the file's stamps are not to be kept: write this process's alone
        self.lock = threading.Lock()
        self._path: list[str | None] = []  # the file's name, once worked out

    def path(self) -> str | None:
        """The file's name: a digest of four files' text, read and hashed once a process."""
        if not self._path:
            self._path.append(
                cache_file(
                    "stamps",
                    "json",
                    read_text(resource_path("templates", TEMPLATE)),
                    read_text(__file__),
                    package_source("jinja2"),
                    package_source("markupsafe", "_native.py"),
                )
            )
        return self._path[0]

    def read(self) -> dict[str, str]:
        """The file's stamps: empty when there is none, or it is not what `save` writes."""
        path = self.path()
        if path is not None:
            with contextlib.suppress(OSError, ValueError):
                data = json.loads(read_text(path))
                if isinstance(data, dict) and all(
                    isinstance(k, str) and isinstance(v, str) and _PATTERN.fullmatch(v)
                    for k, v in data.items()
                ):
                    return data
        return {}

    def save(self) -> None:
        """Add the stamps made since the file was read to it, if any were (a lock, and what
        another process added meanwhile read back first, so no save undoes another), or, after
        `forget`, write this process's stamps alone."""
        if not self.new:
            return
        from volley.textio import write_atomic

        with self.lock:
            if not self.new:
                return
            self.new = False
            path = self.path()
            if path is None:
                return
            kept = {**({} if self.replace else self.read()), **(self.kept or {})}
            self.replace = False
            if len(kept) <= _KEPT:
                with contextlib.suppress(OSError):
                    write_atomic(path, json.dumps(kept, sort_keys=True, indent=0))

    def forget(self) -> None:
        """Drop every stamp this process has, and the file's: they are made again, and the
        next save writes the file anew."""
        with self.lock:
            self.made.clear()
            self.kept = {}
            self.new = self.replace = True
            self.used_kept = False


_STAMPS = _Stamps()


def stamp(name: str, *constants: object, **fixed: object) -> str:
    """The macro `name` as a `%` pattern filled by position: rendered with these leading (and
    `fixed` named) arguments, which the template escapes like any value, and a hole for each
    other one, which the caller fills in order (each is printed once, in order)."""
    return _pattern(name, False, constants, fixed)


def named_stamp(name: str, **constants: object) -> str:
    """The macro `name` as a `%` pattern filled by name (`%(x)s`): rendered with `constants`,
    and a hole for each other argument, printed any number of times in any order."""
    return _pattern(name, True, (), constants)


def save_stamps() -> None:
    """Keep the stamps made by this process for the next one (see the module's docstring)."""
    _STAMPS.save()


def forget_stamps() -> bool:
    """Make every stamp again, from the template, if any came from the kept file: for a file
    that did not fill as it must (edited by hand, or written wrong), whose stamps are then
    written anew. False, forgetting nothing, if none came from it."""
    if not _STAMPS.used_kept:
        return False
    _STAMPS.forget()
    return True


def _pattern(name: str, named: bool, constants: tuple, fixed: dict) -> str:
    key = (name, named, constants, *fixed.items())
    stamps = _STAMPS
    pattern = stamps.made.get(key)
    if pattern is not None:
        return pattern
    with stamps.lock:
        if stamps.kept is None:
            stamps.kept = stamps.read()
        pattern = stamps.kept.get(repr(key))
    if pattern is not None:
        stamps.used_kept = True
    else:
        pattern = _render(name, named, constants, fixed)
        with stamps.lock:
            if len(stamps.kept) < _KEPT:
                stamps.kept[repr(key)] = pattern
                stamps.new = True
    if len(stamps.made) > _MADE:
        stamps.made.clear()
    stamps.made[key] = pattern
    return pattern


@cache
def _macros():
    return environment().get_template(TEMPLATE).module


def _render(name: str, named: bool, constants: tuple, fixed: dict) -> str:
    """Render the macro with a marker in each hole, then turn the markers into `%` fields."""
    macro = getattr(_macros(), name)
    holes = [a for a in macro.arguments[len(constants) :] if a not in fixed]
    values = dict(zip(macro.arguments, constants, strict=False), **fixed)
    values.update((a, f"{_HOLE}{i}{_HOLE}") for i, a in enumerate(holes))
    pieces = str(macro(**values)).split(_HOLE)  # text, hole, text, hole, ..., text
    texts = [p.replace("%", "%%") for p in pieces[::2]]
    printed = [holes[int(i)] for i in pieces[1::2]]
    if named:
        fields = [f"%({hole})s" for hole in printed]
    elif printed == holes:
        fields = ["%s"] * len(holes)
    else:
        raise ValueError(f"{TEMPLATE}: {name} must print each hole once, in order")
    return "".join([t + f for t, f in zip(texts, fields, strict=False)] + texts[-1:])
