"""Font Awesome Free icons, read on demand from the installed `fontawesomefree` package.

Only the one SVG an icon needs is read (and cached); the large metadata file is read only when
a name is not found, to follow Font Awesome's renames (`sign-out-alt` → `right-from-bracket`)
and to suggest a spelling. Nothing is fetched from the network.
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass
from functools import cache, lru_cache

from volley.text.inline import FREE_PREFIXES, LONG_PREFIXES, PRO_PREFIXES, IconRef

STYLES = {"fas": "solid", "far": "regular", "fab": "brands"}
# Where to look when an icon is not in the style asked for: `{far-bolt}` draws the solid bolt.
_FALLBACK_ORDER = ("fas", "far", "fab")

_NAME = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")
_VIEWBOX = re.compile(r'viewBox="0 0 (\d+) (\d+)"')
_PATH = re.compile(r'<path d="([^"]+)"')


@dataclass(frozen=True)
class Icon:
    """An icon's drawing: its viewBox size and the `d` of its single path."""

    width: int
    height: int
    path: str


@cache
def _root() -> str | None:
    """The package's icon folder (a path as text: `pathlib` is not imported for a render)."""
    import importlib.util  # here, like difflib below: a diagram without icons needs neither

    spec = importlib.util.find_spec("fontawesomefree")
    if spec is None or not spec.submodule_search_locations:
        return None
    return os.path.join(next(iter(spec.submodule_search_locations)), "static", "fontawesomefree")


def _svg(style: str, name: str) -> str | None:
    """Where one style's icon file would be."""
    root = _root()
    return None if root is None else os.path.join(root, "svgs", style, f"{name}.svg")


@lru_cache(maxsize=1024)  # bounded: the names come from users, and a server meets many
def _has(style: str, name: str) -> bool:
    """Whether one style has the icon: one stat of its file, not a listing of 1,400."""
    path = _svg(style, name)
    return path is not None and os.path.isfile(path)


@cache
def _names(style: str) -> frozenset[str]:
    """The icon names one style has, from a directory listing (for suggestions)."""
    root = _root()
    try:
        entries = os.listdir(os.path.join(root, "svgs", style)) if root else []
    except OSError:
        return frozenset()
    return frozenset(entry[:-4] for entry in entries if entry.endswith(".svg"))


@cache
def _aliases() -> dict[str, str]:
    """Old names of renamed icons (v4 and v5 names) mapped to today's names."""
    root = _root()
    aliases: dict[str, str] = {}
    if root is None:
        return aliases
    metadata = os.path.join(root, "metadata")
    try:
        with open(os.path.join(metadata, "shims.json"), encoding="utf-8") as handle:
            shims = json.load(handle)
        with open(os.path.join(metadata, "icons.json"), encoding="utf-8") as handle:
            icons = json.load(handle)
    except (OSError, ValueError):
        return aliases
    for old, _prefix, new in shims:
        if new and new != old:
            aliases[old] = new
    for name, info in icons.items():
        for old in (info.get("aliases") or {}).get("names", ()):
            aliases[old] = name
    return aliases


def _short_prefix(prefix: str) -> str:
    return LONG_PREFIXES.get(prefix, prefix)


@cache
def _read(style: str, name: str) -> Icon | None:
    file = _svg(style, name)
    if file is None:
        return None
    try:
        with open(file, encoding="utf-8") as handle:
            svg = handle.read()
    except OSError:
        return None
    box, outline = _VIEWBOX.search(svg), _PATH.search(svg)
    if box is None or outline is None:
        return None
    return Icon(int(box.group(1)), int(box.group(2)), outline.group(1))


def load_icon(prefix: str, name: str) -> Icon | None:
    """The Free icon `{prefix-name}` (following renames), or None if Free has no such icon.

    `prefix` is fas, far or fab; fa-solid, fa-regular and fa-brands are accepted too.
    """
    style = STYLES.get(_short_prefix(prefix))
    if style is None or not _NAME.fullmatch(name):
        return None
    if not _has(style, name):
        name = _aliases().get(name, name)
        if not _has(style, name):
            return None
    return _read(style, name)


def _fallback(ref: IconRef) -> str | None:
    """The prefix under which Free has this icon's name, when not under the one written."""
    for prefix in _FALLBACK_ORDER:
        if prefix != ref.prefix and load_icon(prefix, ref.name) is not None:
            return prefix
    return None


def resolve_icon(ref: IconRef) -> Icon | None:
    """What to draw for an icon: the icon itself, else the same name in another Free style
    (`{far-bolt}` and `{fal-plug}` draw the solid ones), else None (draw nothing)."""
    icon = load_icon(ref.prefix, ref.name)
    if icon is not None:
        return icon
    prefix = _fallback(ref)
    return load_icon(prefix, ref.name) if prefix else None


def check_icon(ref: IconRef) -> str | None:
    """A warning for an icon that is not drawn exactly as written, or None if it is."""
    prefix = _short_prefix(ref.prefix)
    if prefix in STYLES and load_icon(prefix, ref.name) is not None:
        return None
    fallback = _fallback(ref)
    drawn = f"; drawn as {{{fallback}-{ref.name}}}" if fallback else ""
    if prefix in PRO_PREFIXES:
        return (
            f'"{ref.source}" is a Font Awesome Pro icon; only Font Awesome Free icons are bundled'
            f" (use fas-, far- or fab-){drawn}"
        )
    if fallback:
        return f'"{ref.source}" is not in Font Awesome Free{drawn}'
    return f'unknown icon "{ref.source}"{_suggestion(prefix, ref.name)}'


def _swapped(one: str, other: str) -> bool:
    """Whether two words differ by two letters side by side in each other's place."""
    apart = [k for k, (a, b) in enumerate(zip(one, other, strict=False)) if a != b]
    return (
        len(one) == len(other)
        and len(apart) == 2
        and apart[1] == apart[0] + 1
        and one[apart[0]] == other[apart[1]]
        and one[apart[1]] == other[apart[0]]
    )


def _suggestion(prefix: str, name: str) -> str:
    """ ", did you mean {fas-plug}?" for a near miss, else ""."""
    import difflib  # only on the rare path of a warning

    candidates = {
        candidate: p
        for p in (prefix, *(p for p in FREE_PREFIXES if p != prefix))
        if p in STYLES
        for candidate in _names(STYLES[p])
    }
    close = difflib.get_close_matches(name, list(candidates), n=5, cutoff=0.75)
    close.sort(key=lambda near: not _swapped(near, name))  # `plgu` is plug before plus
    return f"; did you mean {{{candidates[close[0]]}-{close[0]}}}?" if close else ""
