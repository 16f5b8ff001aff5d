"""The examples page lists every `examples/*.volley`, so a new example appears without an edit.

`docs/examples.md` holds a `<!-- examples -->` marker; this MkDocs hook puts a section for each
file there, each embedding the file with `![title](../examples/NAME.volley)`, which the volley
plugin turns into the interactive diagram.
"""

from __future__ import annotations

from pathlib import Path

from mkdocs.plugins import event_priority

MARKER = "<!-- examples -->"


def _title(path: Path) -> str:
    """The diagram's title as plain text, or its file name when it has none (or does not parse)."""
    from volley import VolleyError, parse
    from volley.text.inline import plain_text

    try:
        title = parse(path.read_text(encoding="utf-8"), filename=path.name).title
    except VolleyError:
        title = None
    return plain_text(title) if title else path.stem.replace("-", " ").capitalize()


@event_priority(50)  # before the volley plugin reads the page, so its line numbers match
def on_page_markdown(markdown: str, page, config, files) -> str:
    if page.file.src_uri != "examples.md" or MARKER not in markdown:
        return markdown
    folder = Path(config.config_file_path).parent / "examples"
    sections = []
    for path in sorted(folder.glob("*.volley")):
        title = _title(path)
        sections.append(
            f"## {title} {{ #{path.stem} }}\n\n`examples/{path.name}`\n\n"
            f"![{title}](../examples/{path.name})\n"
        )
    return markdown.replace(MARKER, "\n".join(sections))
