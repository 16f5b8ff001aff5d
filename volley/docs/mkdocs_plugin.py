"""The MkDocs plugin: `plugins: [volley]` makes every diagram in the docs a clickable one.

- ```volley fences become the interactive diagram. The plugin registers the fence with
  pymdownx.superfences (adding the extension if the site lacks it), so fences inside lists,
  admonitions and tabs work, and a ```` ```` ```` fence holds a diagram whose payloads use
  ```` ``` ````.
- `![Login flow](flows/login.volley)` embeds that file, its path relative to the page as an
  image's is. A Markdown treeprocessor swaps the image for the diagram before MkDocs checks
  links, so the link is never reported as a broken image.
- The viewer's stylesheet and script are two files of the site (`assets/volley/`, named by
  their content, so a browser keeps them across pages and a new release is fetched anew),
  linked from every page as the theme links `extra_css` and `extra_javascript`: a page holds
  no inline script of volley's (a Content-Security-Policy of `script-src 'self'` allows it),
  and mkdocs-material's instant navigation loads them once.

Options (`mkdocs.yml`):

    plugins:
      - volley:
          theme: auto          # auto (the reader's colour scheme, and the site's own switch:
                               # Material's palette, the mkdocs theme's colour mode), light,
                               # dark; default: auto on those two themes, light on others
          interactive: true    # false: static SVG, and no script on the site unless a
                               # fence asks for a clickable diagram (interactive=true)
          bodies: markers      # markers, appendix (bodies listed under the picture), none
          appendix_lines: 12   # at most 12 lines of each body in an appendix; default: all
          fail_on_error: false # true: a broken diagram fails the build (every page read)
          redact: false        # mask values that look like secrets, in every published form
          # publish_sources: true  # the .volley files in docs/ are published, not with redact

A broken diagram shows an error box in its place and logs a warning naming the page, the
line in the page and the line in the diagram; `mkdocs build --strict` fails on it, and under
`fail_on_error` it is an error that fails the build, once every page has been read (so each
broken diagram is said). A fence option volley does not know is a
warning too. Deep links to a message (`#login-message-3`) count as anchors of their page, so
MkDocs' anchor validation accepts them.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import posixpath
import re
import tempfile
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit
from xml.etree import ElementTree as etree

from markdown import Extension, Markdown
from markdown.treeprocessors import Treeprocessor
from mkdocs.config import base
from mkdocs.config import config_options as c
from mkdocs.exceptions import PluginError
from mkdocs.plugins import BasePlugin, event_priority, get_plugin_logger
from mkdocs.structure.files import File

from volley import api
from volley.docs.fence_options import (
    looks_like_a_path,
    myst_options,
    named_file,
    open_quote,
    yes_or_no,
)
from volley.docs.fences import (
    VOLLEY_INFO,
    DiagramSite,
    Location,
    Problem,
    Settings,
    fence_formatter,
    fence_validator,
)
from volley.docs.readme import join_lines, split_lines
from volley.errors import Diagnostic, VolleyError, counted
from volley.options import BODIES, THEMES, OptionError, Options, require_known
from volley.output.html_theme import site_default_theme
from volley.text.fences import fence_attrs
from volley.text.markdown import container_fences, superfences
from volley.textio import VOLLEY_SUFFIX, decode

log = get_plugin_logger("volley")

SUPERFENCES = "pymdownx.superfences"
MISSING_EXTRA = (
    "volley's MkDocs plugin needs pymdown-extensions: pip install 'volley-diagrams[mkdocs]'"
)
ASSETS = "assets/volley"  # where the viewer's stylesheet and script go in the site
# What a diagram's page holds that is not for a search to find: the viewer's data (its JSON has
# no `<`: embed.py), and the note for readers without scripts. Any attributes after the class,
# as a plugin that rewrites the page may write them (`data-search-exclude=""`).
_DATA = re.compile(
    r'<template class="vl-data"[^>]*>([^<]*)</template>|<p class="vl-noscript">([^<]*)</p>'
)
# `key=value` on a fence line, the value neither quoted nor braced.
# A fence's opening line: its containers' prefix and the fence, then its info string.
_FENCE_OPENING = re.compile(r"(?:`{3,}|~{3,})[ \t]*(?P<info>.*?)[ \t]*$")
_MYST_FENCE = re.compile(r"^\{volley\}")
_BARE_OPTION = re.compile(r"""(?<=[\s{])([A-Za-z_][\w-]*=)([^\s"'{}]+)(?=[\s}]|$)""")
_OTHER_QUOTE = {'"': "'", "'": '"'}


class AppendixLines(c.OptionallyRequired[int]):
    """The cap on each body in an appendix, checked by the rule `volley.Options` applies."""

    def run_validation(self, value: object) -> int:
        try:
            Options(bodies="appendix", appendix_lines=value)  # type: ignore[arg-type]
        except OptionError as exc:
            raise base.ValidationError(exc.format()) from None
        return value  # type: ignore[return-value]


class VolleyConfig(base.Config):
    theme = c.Optional(c.Choice(THEMES))  # None: auto on themes with a dark mode, else light
    interactive = c.Type(bool, default=True)
    bodies = c.Choice(BODIES, default="markers")
    appendix_lines = c.Optional(AppendixLines())  # None: every line; caps appendix diagrams
    fail_on_error = c.Type(bool, default=False)
    redact = c.Type(bool, default=False)
    publish_sources = c.Optional(c.Type(bool))  # None: publish them unless redacting


class VolleyPlugin(BasePlugin[VolleyConfig]):
    """Registers the fence and the file embedding, reports problems, fails when asked to."""

    def __init__(self) -> None:
        self.site = DiagramSite(report=self._report)
        self.site.embed_file = self.embed_fenced
        self.docs_dir = Path(".")
        self.page_path = ""  # the page's source path inside docs_dir
        self.page_lines: list[str] = []
        self.fence_lines: list[int] = []  # the page's ```volley fence lines, from 0
        self.embedded_lines: set[int] = set()
        self.page_errors: list[Problem] = []
        self.failed_pages: dict[str, int] = {}  # this build's pages with broken diagrams
        self.published: list[File] = []  # the .volley sources copied into the site
        self.masked_embeds: set[str] = set()  # the files a fence embeds with `redact`
        # the folders outside docs_dir that embedded files are in (or would be, for one
        # missing): `mkdocs serve` watches each, the ones a later page embeds too
        self.outside: set[Path] = set()
        self.watched: set[Path] = set()
        self.server: Any = None  # `mkdocs serve`'s, once it serves
        self.md: Markdown | None = None  # the converter of the page being built
        self.unsearched: set[tuple[str, str]] = set()  # found by _DATA on the site's pages
        self.written: tempfile.TemporaryDirectory[str] | None = None  # see _generated

    def load_config(
        self, options: dict[str, Any], config_file_path: str | None = None
    ) -> tuple[Any, Any]:
        """MkDocs only warns about a name its plugin does not know; a misspelt option here
        (`redcat: true`) would publish what it was meant to change, so it is an error."""
        errors, warnings = super().load_config(options, config_file_path)
        try:
            require_known(options, tuple(name for name, _ in base.get_schema(VolleyConfig)))
        except OptionError as error:
            errors.append((error.option, base.ValidationError(error.format())))
            warnings = [(name, said) for name, said in warnings if name != error.option]
        return errors, warnings

    def on_startup(self, *, command: str, dirty: bool) -> None:
        """Defined so MkDocs keeps this instance, and its render cache, across serve rebuilds."""

    def on_pre_build(self, config: Any) -> None:
        """Each build (each rebuild of `mkdocs serve`) counts its own broken pages, also after
        one that stopped on an error."""
        self.failed_pages = {}

    def on_config(self, config: Any) -> Any:
        if importlib.util.find_spec("pymdownx") is None:
            raise PluginError(MISSING_EXTRA)
        self.site.settings = Settings(
            theme=self.config.theme or site_default_theme(_switching_theme(config.theme)),
            interactive=self.config.interactive,
            bodies=self.config.bodies,
            appendix_lines=self.config.appendix_lines,
            redact=self.config.redact,
        )
        self.docs_dir = Path(config.docs_dir)
        extensions = config.markdown_extensions
        if SUPERFENCES not in extensions:
            extensions.append(SUPERFENCES)
        superfences = config.mdx_configs.setdefault(SUPERFENCES, {})
        fences = [
            fence for fence in superfences.get("custom_fences", []) if fence.get("name") != "volley"
        ]
        fences.append(
            {
                "name": "volley",
                "class": "volley",
                "validator": fence_validator,
                "format": fence_formatter,
            }
        )
        superfences["custom_fences"] = fences
        extensions.append(VolleyExtension(self))
        self.site.linked_assets = True
        self.site.interactive_used = False
        self._link(config, self._assets(script=self.config.interactive))
        return config

    @staticmethod
    def _link(config: Any, assets: dict[str, str]) -> None:
        """Link each of `assets` from every page, as the theme links its own files."""
        for uri in assets:
            listed = config.extra_css if uri.endswith(".css") else config.extra_javascript
            if uri not in [str(item) for item in listed]:
                listed.append(uri)

    @staticmethod
    def _assets(*, style: bool = True, script: bool = True) -> dict[str, str]:
        """The viewer's stylesheet and script as site files, each named by its content."""
        from volley.docs.fences import page_assets

        css, js = page_assets(interactive=True)
        wanted = []
        if style:
            wanted.append(("css", css))
        if script:
            wanted.append(("js", js))
        return {
            f"{ASSETS}/volley-{hashlib.sha256(text.encode()).hexdigest()[:10]}.{kind}": text
            for kind, text in wanted
        }

    def on_files(self, files: Any, config: Any) -> Any:
        """Add the viewer's files; leave the .volley sources out of the site when they may
        hold what `redact` masks."""
        publish = self.config.publish_sources
        if publish is None:
            publish = not self.config.redact
        sources = [file for file in files if file.src_uri.endswith(VOLLEY_SUFFIX)]
        for file in sources:
            if not publish:
                files.remove(file)
        self.published = sources if publish else []
        for uri, text in self._assets(script=self.config.interactive).items():
            files.append(self._generated(config, uri, text))
        return files

    def _generated(self, config: Any, uri: str, text: str) -> File:
        """A file of the site that volley writes, kept on disk until the site is built: a
        plugin that reads every file's source path (mkdocs-static-i18n) finds one, where
        `File.generated(content=…)` has none."""
        if self.written is None:
            self.written = tempfile.TemporaryDirectory(prefix="volley-site-")
        path = Path(self.written.name, *uri.split("/"))
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        return File.generated(config, uri, abs_src_path=str(path))

    def on_env(self, env: Any, config: Any, files: Any) -> Any:
        """On a site of static diagrams (`interactive: false`), the script is added only now,
        when every page has been converted, if a fence asked for a clickable diagram
        (`interactive=true`): a site that wants none loads no script of volley's. A .volley
        file a fence embeds with `redact` is left out now too (the files are copied after
        this), unless the site asks for its sources (`publish_sources: true`)."""
        if self.config.publish_sources is not True:
            for file in [f for f in self.published if f.src_uri in self.masked_embeds]:
                files.remove(file)
                self.published.remove(file)
        self.masked_embeds = set()
        if not self.config.interactive and self.site.interactive_used:
            script = self._assets(style=False)
            for uri, text in script.items():
                files.append(self._generated(config, uri, text))
            self._link(config, script)
        return env

    def on_page_markdown(self, markdown: str, page: Any, config: Any, files: Any) -> str:
        self.page_path = page.file.src_uri
        self.page_lines = markdown.split("\n")
        self.embedded_lines = set()
        self.page_errors = []
        self.site.page = page.file.src_uri
        self.site.line_offset = _front_matter_lines(page, markdown)
        self.site.written_lines = self.page_lines  # the page before snippets puts lines in
        quoted, self.fence_lines = quote_fence_options(markdown)
        return quoted

    def on_page_content(self, html: str, page: Any, config: Any, files: Any) -> str:
        diagrams = getattr(self.md, "volley_page", None)
        handed = diagrams.handed if diagrams is not None else 0
        if handed < len(self.fence_lines):  # superfences could not read a fence's line
            used = diagrams.used if diagrams is not None else set()
            missed = [line for line in self.fence_lines if line not in used]
            if len(missed) != len(self.fence_lines) - handed:  # lines moved by another
                missed = self.fence_lines  # preprocessor: the page's fences, all named
            lines = ", ".join(str(line + 1 + self.site.line_offset) for line in missed)
            if missed is self.fence_lines:
                said = (
                    f"{len(self.fence_lines) - handed} of the ```volley fences on this page "
                    f"(lines {lines}) were not read as fences, and are shown as text"
                )
            elif len(missed) == 1:
                said = f"the ```volley fence on line {lines} was not read as a fence: it is text"
            else:
                said = (
                    f"the ```volley fences on lines {lines} were not read as fences: they are text"
                )
            hint = (
                "superfences reads a fence line as its language and key=value options: quote a "
                'value that holds spaces (file="a b.volley", name="login"), or delete what is none'
            )
            masking = self.config.redact or any(self._asks_to_redact(line) for line in missed)
            if masking:  # its text, and the diagrams it swallows, go out as code: unmasked
                raise PluginError(
                    f"volley: {page.file.src_uri}: {said}; with redact on, the page would "
                    f"publish that text unmasked, and that of any ```volley block it swallows "
                    f"({hint})"
                )
            self._report(
                Problem(
                    Diagnostic(said, severity="warning", hint=hint), Location(page.file.src_uri)
                )
            )
        if diagrams is not None and page.present_anchor_ids is not None:
            page.present_anchor_ids |= diagrams.anchors  # deep links answered by the viewer
        if self.page_errors:
            self.failed_pages[page.file.src_uri] = len(self.page_errors)
        self.unsearched.update(_DATA.findall(html))
        return html

    def _asks_to_redact(self, line: int) -> bool:
        """Whether the fence at `line` of the page asks for redaction, on its line
        (```` ```volley redact ````) or in a MyST option line at the top of its block
        (`:redact:`); `redact=false` does not."""
        _, written = fence_attrs(self.page_lines[line].strip().lstrip("`~").strip())
        asked = {**written, **myst_options(self.page_lines[line + 1 :])[0]}
        # alone, a yes, or a word none can read: only a clear no is none (as Sphinx reads it)
        return "redact" in asked and yes_or_no(asked["redact"]) is not False

    @event_priority(-100)  # last: after the search plugin has written its index
    def on_post_build(self, config: Any) -> None:
        self.site.sweep()
        _unindex(Path(config.site_dir) / "search" / "search_index.json", self.unsearched)
        self.unsearched = set()
        if self.written is not None:  # copied into the site by now
            self.written.cleanup()
            self.written = None
        self._watch_outside()  # what this rebuild embedded for the first time
        for file in self.published:
            _warn_of_published_secrets(file, asked=self.config.publish_sources is True)
        failed, self.failed_pages = self.failed_pages, {}
        if self.config.fail_on_error and failed:  # every page read first: all of them said
            pages = ", ".join(f"'{page}' ({count})" for page, count in failed.items())
            drawn = counted(sum(failed.values()), "diagram", "diagrams")
            raise PluginError(
                f"volley: {drawn} could not be drawn, in {pages} (fail_on_error is on)"
            )

    def on_serve(self, server: Any, config: Any, builder: Any) -> Any:
        """Watch the folders of embedded diagram files that live outside docs_dir, too."""
        self.server = server
        self._watch_outside()
        return server

    def _watch_outside(self) -> None:
        """Have `mkdocs serve` rebuild when a file in a folder outside docs_dir that a page
        embeds from changes, or appears (a file embedded before it was written)."""
        if self.server is None:
            return
        for folder in sorted(self.outside - self.watched):
            if folder.is_dir():
                self.server.watch(str(folder), recursive=False)
                self.watched.add(folder)

    def _report(self, problem: Problem) -> None:
        if problem.is_error:
            self.page_errors.append(problem)
        if problem.is_error and self.config.fail_on_error:
            log.error(problem.message())
        elif problem.is_note:
            log.info(problem.message())
        else:
            log.warning(problem.message())

    # --- embedded files ---------------------------------------------------------------------

    def embed_fenced(self, src: str, settings: Settings, md: Markdown, name: str | None) -> str:
        """The diagram HTML for a fence that names a file (```volley flows/login.volley
        theme=dark), drawn with the fence's settings, and named by its `name` if it has one."""
        drawn = self.embed(src, md, settings, name, fenced=True)
        if drawn is not None:
            return drawn
        location = Location(self.page_path, self._line_of(src, fenced=True), source_file=src)
        said = f"this ```volley fence names {src}, which is not a .volley file of the site"
        hint = "name a .volley file, its path relative to the page"
        return self.site.failed(Diagnostic(said, hint=hint), location, md.volley_page)  # type: ignore[attr-defined]

    def embed(
        self,
        src: str,
        md: Markdown,
        settings: Settings | None = None,
        name: str | None = None,
        *,
        fenced: bool = False,
    ) -> str | None:
        """The diagram HTML for `![…](src)`, or a fence that names it (`fenced`), drawn with
        `settings`, else the site's, and named `name`, else by the file; None when src is not
        a local .volley file."""
        parts = urlsplit(src)
        if parts.scheme or parts.netloc or not parts.path.endswith(VOLLEY_SUFFIX):
            return None
        relative = unquote(parts.path)
        if relative.startswith("/"):
            inside = posixpath.normpath(relative.lstrip("/"))
        else:
            inside = posixpath.normpath(posixpath.join(posixpath.dirname(self.page_path), relative))
        location = Location(self.page_path, self._line_of(src, fenced), source_file=src)
        page = md.volley_page  # type: ignore[attr-defined]
        try:
            source, why = self._embedded(inside, src)
        except VolleyError as exc:
            return self.site.failed(exc.diagnostic, location, page)
        if why is not None:
            shown = posixpath.join(self.docs_dir.name, inside)  # never the build machine's path
            diagnostic = Diagnostic(
                f"cannot embed {src}: {why} ({shown})",
                hint="paths are relative to the page, as for images",
            )
            return self.site.failed(diagnostic, location, page)
        drawn_with = settings or self.site.settings
        if drawn_with.redact:
            self.masked_embeds.add(inside)  # its picture masks what the file holds
        named = name or Path(relative).stem
        return self.site.diagram(source, drawn_with, location, page, named, embedded=not name)

    def _embedded(self, inside: str, src: str) -> tuple[str, str | None]:
        """The text of the .volley file at `inside` (the docs folder's path), or why there is
        none to draw: no such file, a link named `.volley` to another file (whose lines an
        error would quote: a `.env`), a name with a NUL in it."""
        try:
            path = (self.docs_dir / inside).resolve()
            if path.suffix != VOLLEY_SUFFIX:
                return "", "it links to a file that is no .volley file"
            if not path.is_relative_to(self.docs_dir.resolve()):
                self.outside.add(path.parent)
            return decode(path.read_bytes(), src), None
        except FileNotFoundError:
            return "", "no such file"
        except OSError as exc:
            return "", exc.strerror or str(exc)
        except ValueError:  # `a%00.volley`
            return "", "not a file name"

    def _line_of(self, src: str, fenced: bool = False) -> int:
        """The page line holding the image link, or the fence (`fenced`) that names the file:
        the first one not yet accounted for (superfences draws every fence before the page's
        images, which are read from its tree)."""
        for index, line in enumerate(self.page_lines):
            named = (index in self.fence_lines and src in line) if fenced else f"]({src}" in line
            if named and index not in self.embedded_lines:
                self.embedded_lines.add(index)
                return index + 1 + self.site.line_offset
        return 0


class _EmbedFiles(Treeprocessor):
    """Replace `<img src="….volley">` with the diagram, before MkDocs validates links."""

    def __init__(self, md: Markdown, plugin: VolleyPlugin) -> None:
        super().__init__(md)
        self.plugin = plugin

    def run(self, root: etree.Element) -> None:
        found = [
            (parent, child)
            for parent in root.iter()
            for child in parent
            if child.tag == "img" and child.get("src", "").split("?")[0].endswith(VOLLEY_SUFFIX)
        ]
        for parent, image in found:
            html = self.plugin.embed(image.get("src", ""), self.md)
            if html is None:
                continue
            _replace(parent, image, self.md.htmlStash.store(html))


def _replace(parent: etree.Element, child: etree.Element, placeholder: str) -> None:
    """Put a stash placeholder where `child` was; alone in a paragraph, it replaces the `<p>`."""
    alone = (
        parent.tag == "p"
        and len(parent) == 1
        and not (parent.text or "").strip()
        and not (child.tail or "").strip()
    )
    if alone:
        parent.remove(child)
        parent.text = placeholder
        return
    index = list(parent).index(child)
    text = placeholder + (child.tail or "")
    if index == 0:
        parent.text = (parent.text or "") + text
    else:
        before = parent[index - 1]
        before.tail = (before.tail or "") + text
    parent.remove(child)


class VolleyExtension(Extension):
    """Per page: the plugin's settings and cache for fences, and the file embedding."""

    def __init__(self, plugin: VolleyPlugin) -> None:
        super().__init__()
        self.plugin = plugin

    def extendMarkdown(self, md: Markdown) -> None:  # noqa: N802 (Python-Markdown's name)
        self.plugin.md = md
        self.plugin.site.install(md)
        # After 'inline' (20), which makes the <img>; before MkDocs' link checks (5, 0).
        md.treeprocessors.register(_EmbedFiles(md, self.plugin), "volley_embed", 15)


def _unindex(index: Path, unsearched: set[tuple[str, str]]) -> None:
    """MkDocs' own search index (the `mkdocs` and `readthedocs` themes) without the texts a
    search is not to find. Its search knows no mark to leave an element out, as Material's
    does (`data-search-exclude`), so it indexes every key and body of the viewer's JSON and
    shows them in its results; the site's pages keep them as they are."""
    texts = sorted({text for found in unsearched for text in found if text.strip()}, key=len)
    if not texts or not index.is_file():
        return
    data = json.loads(index.read_text(encoding="utf-8"))
    changed = False
    for entry in data.get("docs", []):
        text = entry.get("text")
        if isinstance(text, str):
            for unwanted in reversed(texts):  # the longest first: a body may hold another
                text = text.replace(unwanted, "")
            changed = changed or text != entry["text"]
            entry["text"] = text
    if changed:  # Material's own index holds none of them (`data-search-exclude`)
        # as MkDocs writes it (mkdocs.contrib.search.search_index)
        written = json.dumps(data, sort_keys=True, separators=(",", ":"), default=str)
        index.write_text(written, encoding="utf-8")


def _switching_theme(theme: Any) -> str | None:
    """The site theme's name, where its pages follow a colour switch: Material's only with a
    `palette` in mkdocs.yml, without which its pages stay white and set no scheme to follow."""
    if theme.name == "material" and not theme.get("palette"):
        return None
    return theme.name


def _warn_of_published_secrets(file: Any, *, asked: bool) -> None:
    """A .volley file copied into the site as it is that holds what looks like a live secret
    is said to, embedded by a page or not: a reader downloads it as written, whatever its
    pictures mask. A warning where the sources are published by default; a note where the
    site asks for them (`publish_sources: true`), knowing what they hold."""
    try:
        checked = api.check(file.content_string, filename=file.src_uri)
    except (OSError, ValueError, VolleyError):  # unreadable, or broken: said where embedded
        return
    places = list(checked.secrets.places()) if checked.secrets else []
    if places:
        line, _, secret, _ = places[0]
        held = counted(
            len(places), "value that looks like a live secret", "values that look like live secrets"
        )
        instead = (
            "leave the sources out (publish_sources: false)"
            if asked
            else "set redact: true, which masks them in the pictures and leaves the sources out"
        )
        said = (
            f"{file.src_uri} is published as it is, and holds {held} "
            f"(line {line}: {secret.what}): write a placeholder such as <token>, or {instead}"
        )
        (log.info if asked else log.warning)(said)


def quote_fence_options(markdown: str) -> tuple[str, list[int]]:
    """The page with its ```volley fence lines as superfences reads them (`_superfences_line`),
    those in admonitions and content tabs too, and the lines (from 0) they stand on."""
    if "volley" not in markdown:
        return markdown, []
    lines = split_lines(markdown)
    fences = [(0, fence) for fence in superfences(markdown)]
    fences += container_fences([line.text for line in lines])
    openers = {
        start + fence.start: any(line.strip() for line in fence.body)
        for start, fence in fences
        if fence.lang in ("volley", "{volley}")
    }
    # every volley fence, the braced form's too (`{ .volley redact }`): counted, so that one
    # superfences cannot read is said, but written as it is, in superfences' own form
    volley = [
        start + fence.start for start, fence in fences if VOLLEY_INFO.match(fence.info.strip())
    ]
    if not volley:
        return markdown, []
    for index, holds_diagram in openers.items():
        line = lines[index]
        opening = _FENCE_OPENING.search(line.text)
        if opening is not None:
            line.text = _superfences_line(line.text, opening, holds_diagram)
    return join_lines(lines), sorted(volley)


def _superfences_line(text: str, opening: re.Match[str], holds_diagram: bool) -> str:
    """A ```volley fence line as superfences reads it: bare options quoted (it reads
    ```volley theme="dark" but turns ```volley theme=dark, as README mode and GitHub accept it,
    into inline code), MyST's ```{volley} as ```volley, and a file the fence names as its
    `file` option (a path is no attribute to superfences, which dropped the fence and the
    diagrams after it)."""
    head, info = text[: opening.start("info")], opening["info"]
    file, options = named_file(info.partition(" ")[2])
    if file is not None and (not holds_diagram or looks_like_a_path(file)):
        quote = "'" if '"' in file else '"'  # over a diagram too: the formatter says so
        info = f"volley file={quote}{file}{quote} {options}".rstrip()
    text = head + _MYST_FENCE.sub("volley", info, count=1)
    text = _BARE_OPTION.sub(r'\1"\2"', text)
    for key, value in fence_attrs(opening["info"])[1].items():
        if open_quote(value):  # `theme="dark`: the quote never closed, which makes the line
            # no fence to superfences (its diagram inline code); quoted the other way, the
            # value reaches volley, which says what is wrong
            other = _OTHER_QUOTE[value[0]]
            text = text.replace(f"{key}={value}", f"{key}={other}{value}{other}")
    return text


def _front_matter_lines(page: Any, markdown: str) -> int:
    """Lines MkDocs cut from the top of the file (front matter), so line numbers match it."""
    try:
        raw = page.file.content_string
    except (OSError, ValueError):
        return 0
    raw = raw.replace("\r\n", "\n").replace("\r", "\n")
    if not markdown or not raw.endswith(markdown):
        return 0
    return raw[: len(raw) - len(markdown)].count("\n")
