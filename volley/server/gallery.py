"""The templates gallery: the diagrams in `examples/`, each under the title it gives itself."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from volley.errors import VolleyError
from volley.resources import resource_dir
from volley.text.inline import plain_text

_SLUG = re.compile(r"[a-z0-9][a-z0-9_-]*")


@dataclass(frozen=True)
class Template:
    """One example diagram: `slug` names it in URLs, `title` is what a person reads."""

    slug: str
    title: str
    source: str

    def to_json(self) -> dict[str, str]:
        return {"id": self.slug, "title": self.title}


def examples_dir() -> Path | None:
    """`examples/` beside the package, or None when this installation has none."""
    try:
        return Path(resource_dir("examples"))
    except FileNotFoundError:
        return None


def load_gallery(folder: Path | None) -> dict[str, Template]:
    """Every `*.volley` in `folder` by slug, in file-name order; a missing folder is empty."""
    if folder is None or not folder.is_dir():
        return {}
    gallery: dict[str, Template] = {}
    for path in sorted(folder.glob("*.volley")):
        slug = path.stem.lower()
        if not _SLUG.fullmatch(slug):
            continue
        source = path.read_text(encoding="utf-8")
        gallery[slug] = Template(slug, _title(source, path.stem), source)
    return gallery


def _title(source: str, stem: str) -> str:
    """The diagram's `title:` as plain text; the file name in words when it has none."""
    import volley

    try:
        title = volley.parse(source).title
    except VolleyError:
        title = None
    if title and plain_text(title).strip():
        return plain_text(title).strip()
    words = re.sub(r"[-_]+", " ", stem).strip()
    return words[:1].upper() + words[1:]
