"""`volley gallery`: the template pages as static files, ready to publish."""

from __future__ import annotations

import sys
from pathlib import Path
from urllib.parse import urlsplit

import click

from volley.cli import report, say
from volley.cli.targets import named_output
from volley.errors import VolleyError, shown_path


def _web_address(value: str | None) -> str | None:
    """The editor's address as every page links it: an http(s) URL or a path on the site
    (`javascript:…` would run in every reader's browser)."""
    if value is None:
        return None
    try:
        parts = urlsplit(value)
    except ValueError:  # `http://[oops/`: no address a browser would open
        parts = urlsplit("")
    scheme = parts.scheme.lower()
    on_the_site = not scheme and value.startswith("/") and not value.startswith(("//", "/\\"))
    if not (scheme in ("http", "https") and parts.netloc) and not on_the_site:
        raise click.BadParameter(
            f"{value!r} is no web address: give an http:// or https:// URL, or a path that "
            "starts with /",
            param_hint="--editor-url",
        )
    return value


@click.command("gallery")
@click.argument(
    "folder",
    required=False,
    type=click.Path(file_okay=False, exists=True, path_type=Path),
)
@click.option(
    "-o",
    "--output",
    required=True,
    type=click.Path(file_okay=False),
    callback=lambda ctx, param, value: Path(named_output(ctx, param, value) or "."),
    help="The folder to write the pages into (created if missing).",
)
@click.option(
    "--editor-url",
    metavar="URL",
    callback=lambda _context, _option, value: _web_address(value),
    help="Where the editor is served (e.g. https://volley.example.com/): each page links to "
    "it with the template's source in a share link. Without it, pages have no editor links.",
)
@click.option("-q", "--quiet", is_flag=True, help="Print nothing on success.")
def gallery_command(folder: Path | None, output: Path, editor_url: str | None, quiet: bool) -> None:
    """Write a page for every template in FOLDER (default: the bundled examples) into the
    output folder: index.html, and SLUG.html, SLUG.volley and SLUG.svg per template.

    A template is NAME.volley with an optional NAME.about.md beside it (category, summary,
    "Step by step", "Easy to get wrong"; see docs/gallery.md).

    \b
    Examples:
      volley gallery -o site/templates
      volley gallery my-flows/ -o public/ --editor-url https://volley.example.com/
    """
    from volley.docs.gallery import build_gallery, examples_dir

    source = folder if folder is not None else examples_dir()
    if source is None:
        raise click.UsageError("this installation has no examples; name a FOLDER of templates")
    try:
        written = build_gallery(source, output, editor_url=editor_url)
    except VolleyError as exc:
        report(exc)
        sys.exit(1)
    except OSError as exc:
        raise click.ClickException(str(exc)) from None
    if not quiet:
        say(f"wrote {len(written)} files to {shown_path(str(output))}")
