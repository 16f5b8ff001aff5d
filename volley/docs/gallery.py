"""Template pages: each example diagram as a page a reader can learn from and take away.

A template is `NAME.volley` with, beside it, `NAME.about.md`: a few `key: value` lines between
`---` lines (category, summary, description, related, and a title for a diagram that has no
`title:` of its own, such as an import kept as it came) and two lists under `## Step by step`
and `## Easy to get wrong`. Its page holds the title, the summary, the clickable diagram, the
steps, the pitfalls, the source with Copy and a download, links to open it in the editor, to
share it and to embed it in a README, and related templates. `volley gallery -o DIR` writes
every page as static files; `volley serve` shows the same pages under `/gallery/`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

from jinja2 import Environment

from volley.errors import VolleyError, VolleyErrors
from volley.resources import resource_dir, resource_path, template_environment
from volley.text.inline import plain_text

_SLUG = re.compile(r"[a-z0-9][a-z0-9_-]*")
_SECTIONS = {"step by step": "steps", "easy to get wrong": "pitfalls"}
CLICK_HINT = "Click any arrow to see its request and response as a table or the raw body."

# Prose is plain text with `code` spans: a list of (text, is_code) pieces, escaped by the template.
Prose = list[tuple[str, bool]]


def prose(text: str) -> Prose:
    """`text` cut into plain and `code` pieces."""
    parts = re.split(r"`([^`]+)`", text)
    return [(part, index % 2 == 1) for index, part in enumerate(parts) if part]


@dataclass(frozen=True)
class Template:
    """One example diagram and what its page says about it."""

    slug: str
    title: str
    source: str
    category: str = "Examples"
    summary: str = ""
    description: str = ""
    steps: list[str] = field(default_factory=list)
    pitfalls: list[str] = field(default_factory=list)
    related: tuple[str, ...] = ()
    path: str | None = None  # the file it was read from, which errors name

    def to_json(self) -> dict[str, str]:
        """What the editor's template menu lists."""
        return {"id": self.slug, "title": self.title}


def read_about(text: str, name: str) -> dict[str, object]:
    """The fields of an `.about.md` file: front matter keys and the two lists."""
    fields: dict[str, object] = {"steps": [], "pitfalls": []}
    lines = text.splitlines()
    body_start = 0
    if lines and lines[0].strip() == "---":
        try:
            end = lines.index("---", 1)
        except ValueError:
            raise VolleyError(
                f"{name}: the front matter opened on line 1 is never closed"
            ) from None
        for number, line in enumerate(lines[1:end], start=2):
            key, colon, value = line.partition(":")
            if not colon:
                raise VolleyError(f"{name}:{number}: expected `key: value` in the front matter")
            fields[key.strip().lower()] = value.strip()
        body_start = end + 1
    section: str | None = None
    for line in lines[body_start:]:
        if line.startswith("## "):
            section = _SECTIONS.get(line[3:].strip().lower())
        elif section and line.startswith("- "):
            items = fields[section]
            assert isinstance(items, list)
            items.append(line[2:].strip())
    return fields


def examples_dir() -> Path | None:
    """`examples/` beside the package, or None when this installation has none."""
    try:
        return Path(resource_dir("examples"))
    except FileNotFoundError:
        return None


def load_templates(folder: Path | None) -> dict[str, Template]:
    """Every `*.volley` in `folder` whose name makes a URL, by slug, in file-name order; a
    missing folder has none."""
    templates: dict[str, Template] = {}
    if folder is None or not folder.is_dir():
        return templates
    for path in sorted(folder.glob("*.volley")):
        slug = path.stem.lower()
        if not _SLUG.fullmatch(slug):
            continue
        source = path.read_text(encoding="utf-8")
        about_path = path.with_name(path.stem + ".about.md")
        about = (
            read_about(about_path.read_text(encoding="utf-8"), about_path.name)
            if about_path.exists()
            else {"steps": [], "pitfalls": []}
        )
        related = str(about.get("related", ""))
        templates[slug] = Template(
            path=str(path),
            slug=slug,
            title=title_of(source, path.stem, str(about.get("title", ""))),
            source=source,
            category=str(about.get("category") or "Examples"),
            summary=str(about.get("summary", "")),
            description=str(about.get("description", "")),
            steps=list(about["steps"]),  # type: ignore[call-overload]
            pitfalls=list(about["pitfalls"]),  # type: ignore[call-overload]
            related=tuple(name.strip() for name in related.split(",") if name.strip()),
        )
    return templates


def title_of(source: str, stem: str, untitled: str = "") -> str:
    """The diagram's `title:` as plain text; when it has none, `untitled` (an about file's
    title), else the file name in words."""
    import volley

    try:
        title = volley.parse(source).title
    except VolleyError:
        title = None
    if title and plain_text(title).strip():
        return plain_text(title).strip()
    words = re.sub(r"[-_]+", " ", stem).strip()
    return untitled or words[:1].upper() + words[1:]


def related_to(template: Template, templates: dict[str, Template], most: int = 3) -> list[Template]:
    """The templates its page suggests: those it names, then others of its category."""
    chosen = [templates[slug] for slug in template.related if slug in templates]
    for other in templates.values():
        if len(chosen) >= most:
            break
        same_kind = other.category == template.category
        if other.slug != template.slug and same_kind and other not in chosen:
            chosen.append(other)
    return [t for t in chosen if t.slug != template.slug][:most]


@cache
def _environment() -> Environment:
    env = template_environment(resource_path("templates", "gallery"), autoescape=True)
    env.filters["prose"] = prose
    env.filters["plain"] = lambda text: "".join(piece for piece, _ in prose(text))
    return env


def _stylesheet() -> str:
    return Path(resource_path("templates", "gallery", "gallery.css")).read_text(encoding="utf-8")


def render_page(
    template: Template, templates: dict[str, Template], *, editor_url: str | None, base: str = ""
) -> str:
    """One template's page. `editor_url` is where the editor lives (links open the diagram
    there through a share link), None where there is none; `base` prefixes links to other
    pages and files."""
    import volley
    from volley.editor_links import encode
    from volley.output.html import html_assets

    css, js = html_assets()
    diagram = volley.render(
        template.source,
        filename=template.path,
        format="html",
        fragment=True,
        include_assets=False,
        id_prefix=f"t-{template.slug}",
    )
    editor_link = f"{editor_url}#{encode(template.source)}" if editor_url is not None else None
    return (
        _environment()
        .get_template("page.html.j2")
        .render(
            template=template,
            related=related_to(template, templates),
            diagram=diagram,
            viewer_css=css,
            viewer_js=js,
            page_css=_stylesheet(),
            editor_link=editor_link,
            hint=CLICK_HINT,
            base=base,
        )
    )


def render_index(templates: dict[str, Template], *, base: str = "") -> str:
    """The list of every template, by category."""
    categories: dict[str, list[Template]] = {}
    for template in templates.values():
        categories.setdefault(template.category, []).append(template)
    return (
        _environment()
        .get_template("index.html.j2")
        .render(categories=categories, page_css=_stylesheet(), base=base)
    )


def build_gallery(folder: Path, out: Path, *, editor_url: str | None = None) -> list[Path]:
    """Write the static gallery of `folder`'s templates into `out`: `index.html`, and for each
    template `SLUG.html`, `SLUG.volley` and `SLUG.svg`. Returns the files written."""
    import volley
    from volley.textio import write_atomic

    templates = load_templates(folder)
    if not templates:
        raise VolleyError(f"no .volley templates in {folder}")
    files: dict[Path, str] = {out / "index.html": render_index(templates)}
    failed: list[VolleyError] = []
    for slug, template in templates.items():
        failed += [  # a name misspelt would drop its link unseen
            VolleyError(
                f"related: {name} is no template in {folder}",
                filename=str(Path(template.path or slug).with_suffix(".about.md")),
                hint="name another .volley file of the folder by its name, without .volley",
            )
            for name in template.related
            if name not in templates
        ]
        try:
            files[out / f"{slug}.html"] = render_page(template, templates, editor_url=editor_url)
            svg = volley.render(template.source, filename=template.path, format="svg")
        except VolleyErrors as exc:
            failed += exc.errors
            continue
        except VolleyError as exc:
            failed.append(exc)
            continue
        assert isinstance(svg, str)
        files[out / f"{slug}.volley"] = template.source
        files[out / f"{slug}.svg"] = svg
    if failed:  # every template's errors, and nothing written
        raise VolleyErrors(failed)
    out.mkdir(parents=True, exist_ok=True)
    for path, text in files.items():
        write_atomic(path, text)
    return list(files)
