"""```volley fences in Python-Markdown pages, through pymdownx.superfences.

The MkDocs plugin registers these for you. A site that configures superfences itself can use
them directly:

    markdown_extensions:
      - pymdownx.superfences:
          custom_fences:
            - name: volley
              class: volley
              validator: !!python/name:volley.docs.fences.fence_validator
              format: !!python/name:volley.docs.fences.fence_formatter

Superfences finds the fences (in lists, admonitions, tabs, behind longer ```` ```` ```` fences)
and hands each body to `fence_formatter`, which returns the diagram's HTML. Per page, the
stylesheet and script are added once, after the last diagram, by a postprocessor the first
diagram installs. A fence line may carry options: ```` ```volley theme="dark" interactive="false"
bodies="appendix" appendix_lines="12" name="login" ```` (superfences needs the quotes; the
MkDocs plugin adds them to a page's unquoted options before superfences reads it).

A diagram that does not parse becomes an error box in the page (its text escaped) and a
warning in the log naming the page, the line in the page and the line in the diagram. The
formatter never raises: superfences would swallow the exception and print the block as code.
"""

from __future__ import annotations

import hashlib
import html
import json
import logging
import re
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any, cast

from volley.api import in_link, in_link_named, published_source
from volley.docs.fence_options import (
    file_and_diagram,
    myst_options,
    typed_options,
)
from volley.docs.readme import with_nested_fence_hint
from volley.errors import Diagnostic, VolleyError
from volley.options import OptionError, Options
from volley.text.fences import (
    TWICE_HINT,
    fence_attrs,
    fence_open,
    read_block,
    twice_said,
    written_twice,
)

__all__ = [
    "DiagramSite",
    "Location",
    "Problem",
    "Settings",
    "fence_formatter",
    "fence_validator",
    "spelled",
]


_log = logging.getLogger("mkdocs.plugins.volley")
# an info string naming volley (`{ .volley }`, superfences' class form, too)
VOLLEY_INFO = re.compile(r"\{?[ \t]*\.?volley\b")


@dataclass(frozen=True)
class Settings:
    """How diagrams are drawn on a site; a fence's own options override them one by one."""

    theme: str = "auto"  # auto follows the reader (and mkdocs-material's palette switch)
    interactive: bool = True  # False: the static SVG, no script
    bodies: str = "markers"  # markers, appendix (bodies listed under the picture), none
    appendix_lines: int | None = None  # cap on each body in an appendix; None: every line
    redact: bool = False  # mask values that look like secrets
    alt: str | None = None  # a fence's words for a static picture, for readers who cannot see it

    def options(self, id_prefix: str) -> Options:
        """The pipeline's options: an HTML fragment (the page has the assets once), or a
        static SVG drawn light, whose colours the page's stylesheet switches.

        A site's `appendix_lines` caps the diagrams that list their bodies (the site's
        `bodies`, or a fence's `bodies=appendix`); the others have no appendix to cap.
        """
        lines = self.appendix_lines if self.bodies == "appendix" else None
        if self.interactive:
            return Options(
                format="html",
                fragment=True,
                include_assets=False,
                theme=self.theme,
                bodies=self.bodies,
                appendix_lines=lines,
                redact=self.redact,
                id_prefix=id_prefix,
            )
        return Options(
            format="svg",
            theme="light",
            bodies=self.bodies,
            appendix_lines=lines,
            redact=self.redact,
            id_prefix=id_prefix,
        )

    def merged(self, overrides: dict[str, str]) -> Settings:
        """These settings with a fence's options applied; an unknown name or a bad value is
        a VolleyError."""
        values = typed_options(overrides)
        merged = replace(self, **values, alt=overrides.get("alt") or None)
        if "appendix_lines" in values:
            _check_appendix_lines(merged)
        return merged


def _check_appendix_lines(settings: Settings) -> None:
    """A fence's `appendix_lines` checked by volley's own rule (at least 1, and only with
    bodies=appendix)."""
    Options(bodies=settings.bodies, appendix_lines=settings.appendix_lines)


def spelled(exc: OptionError, name: str, *, with_hint: bool = False) -> str:
    """The error's message naming its option as a front end spells it (`:appendix-lines:`
    for `appendix_lines`), so the reader finds what they wrote; the hint after it in
    brackets, for a front end that shows one line."""
    message = exc.message.replace(exc.option, name, 1)
    return f"{message} ({exc.hint})" if with_hint and exc.hint else message


@dataclass(frozen=True)
class Location:
    """Where a diagram sits: its page, the fence's line there, and its file if embedded."""

    page: str | None = None
    page_line: int = 0  # the ```volley line, or the line of the image that embeds a file
    source_file: str | None = None  # an embedded .volley file, as the page names it


@dataclass(frozen=True)
class Problem:
    """An error or warning about one diagram, placed in the page."""

    diagnostic: Diagnostic
    location: Location

    @property
    def is_error(self) -> bool:
        return self.diagnostic.severity == "error"

    @property
    def is_note(self) -> bool:
        """Nothing to do (a secret the output masks): logged as information, so that
        `mkdocs build --strict` still passes."""
        return self.diagnostic.severity == "note"

    @property
    def page_line(self) -> int:
        """The page line at fault: inside a fence, the fence line plus the diagram line."""
        location, line = self.location, self.diagnostic.line
        if location.source_file or not location.page_line:
            return location.page_line
        if in_link(self.diagnostic):  # the link, on the block's first line
            return location.page_line + 1
        return location.page_line + line

    def shown(self) -> Diagnostic:
        """The problem as the page's error box quotes it: at the page's line, or at the
        embedded file's (the page's line that embeds it, for a problem of the whole file), or,
        for the diagram a link carries, at that diagram's line, named so (`guide.md (the
        diagram in the link on line 26):2:5`)."""
        diagnostic, location = self.diagnostic, self.location
        if in_link(diagnostic):
            if location.source_file:
                return replace(diagnostic, filename=in_link_named(location.source_file))
            where = location.page or "the page"
            return replace(diagnostic, filename=in_link_named(where, self.page_line))
        if location.source_file and diagnostic.line:
            return replace(diagnostic, filename=location.source_file)
        # a line of the page, or the page's line that embeds a file for a problem with no
        # line of the file's (there is no such file)
        return replace(diagnostic, filename=location.page, line=self.page_line)

    def message(self) -> str:
        """One log entry: the page and its line, the diagram line, what is wrong, the caret."""
        location, diagnostic = self.location, self.diagnostic
        # superfences alone does not say which page it draws: the plugin does
        where = f"Doc file '{location.page}'" if location.page else _UNNAMED_PAGE
        if self.page_line:
            where += f", line {self.page_line}"
        if location.source_file:
            where += f", embedding '{location.source_file}'"
            if diagnostic.line and in_link(diagnostic):  # a file holding a link
                where += f" (line {diagnostic.line} of the diagram in its link)"
            elif diagnostic.line:
                where += f" (line {diagnostic.line} there)"
        elif diagnostic.line:
            where += f" (line {diagnostic.line} of the diagram{in_its_link(diagnostic)})"
        details = diagnostic.format().split("\n")[1:]
        return "\n".join([f"{where}: {diagnostic.message}", *details])


_UNNAMED_PAGE = "A page (add the volley plugin to mkdocs.yml to have it named)"


def in_its_link(diagnostic: Diagnostic) -> str:
    """ " in its link" when a problem's line is one of the diagram a block's swimlanes.io link
    carries, said after "line N of the diagram"."""
    return " in its link" if in_link(diagnostic) else ""


def _default_report(problem: Problem) -> None:
    if problem.is_note:
        _log.info("volley: %s", problem.message())
    else:
        _log.warning("volley: %s", problem.message())


@dataclass
class _Page:
    """What one Markdown conversion has done so far."""

    lines: list[str] | None = None  # the lines superfences is scanning, for locating fences
    fences: list[tuple[int, list[str]]] = field(default_factory=list)  # (index, stripped body)
    used: set[int] = field(default_factory=set)
    # the fences of the page as written, where another preprocessor (pymdownx.snippets) put
    # lines into what superfences scans, and those of them placed
    written: list[tuple[int, list[str]]] | None = None
    written_used: set[int] = field(default_factory=set)
    given: set[str] = field(default_factory=set)  # the id prefixes its diagrams have
    named: set[str] = field(default_factory=set)  # the prefixes a fence's name asked for
    # the names the page's fences ask for (`name="login"`), found before any is drawn: a
    # diagram named by its file or its content, drawn first, does not take one of them
    reserved: set[str] = field(default_factory=set)
    interactive: bool = False
    static: bool = False
    problems: list[Problem] = field(default_factory=list)
    anchors: set[str] = field(default_factory=set)  # deep links the page's diagrams answer
    handed: int = 0  # the ```volley fences superfences handed over to be drawn


@dataclass
class _Rendered:
    html: str
    diagnostics: list[Diagnostic]
    interactive: bool
    anchors: tuple[str, ...] = ()  # `PREFIX-message-N` for each message of a clickable one


class DiagramSite:
    """One site's settings, its render cache, and where problems are reported.

    The cache is keyed by a hash of the source, the settings, the id prefix and the volley
    version, so `mkdocs serve` re-renders only the diagrams that changed. `sweep()` drops
    entries a build did not use, so the cache holds one build's diagrams at most.
    """

    def __init__(
        self,
        settings: Settings | None = None,
        report: Callable[[Problem], None] | None = None,
    ) -> None:
        self.settings = settings or Settings()
        self.report = report or _default_report
        self.page: str | None = None  # the page being converted, as the log names it
        self.line_offset = 0  # lines before the Markdown the converter sees (front matter)
        # the page's lines as written, before a preprocessor put others in (the plugin sets it)
        self.written_lines: list[str] | None = None
        # The site links the stylesheet and script as files (the MkDocs plugin does): pages
        # then carry none of their own.
        self.linked_assets = False
        self.interactive_used = False  # a clickable diagram was placed since the build began
        self._cache: dict[str, _Rendered] = {}
        self._used: set[str] = set()
        # Draws the file a fence names (```volley flows/login.volley, as README mode and
        # MyST read it) with the fence's settings: a site that knows where its pages are
        # sets it (the MkDocs plugin).
        self.embed_file: Callable[[str, Settings, Any, str | None], str] | None = None

    # --- per Markdown instance -------------------------------------------------------------

    def install(self, md: Any) -> None:
        """Attach to a Markdown instance: per-page state, and the assets once per page
        (unless the site links them as files).

        The assets go in from a treeprocessor that runs last, not from a postprocessor: the
        toc extension runs every postprocessor on each heading's text, which would put the
        stylesheet into heading ids.
        """
        from markdown.preprocessors import Preprocessor
        from markdown.treeprocessors import Treeprocessor

        md.volley_site = self
        md.volley_page = _Page()

        class Reset(Preprocessor):
            def run(self, lines: list[str]) -> list[str]:
                self.md.volley_page = _Page(reserved=_fence_names(lines))  # type: ignore[attr-defined]
                return lines

        site = self

        class Assets(Treeprocessor):
            def run(self, root: Any) -> None:
                page: _Page = self.md.volley_page  # type: ignore[attr-defined]
                if site.linked_assets or not (page.interactive or page.static):
                    return
                css, js = page_assets(page.interactive)
                parts = [(0, f'<style class="volley-assets">{css}</style>')]
                if js:
                    parts.append((len(root), f'<script class="volley-assets">{js}</script>'))
                for index, html_text in reversed(parts):
                    holder = root.makeelement("p", {})
                    holder.text = self.md.htmlStash.store(html_text)
                    root.insert(index, holder)

        md.preprocessors.register(Reset(md), "volley_reset", 200)
        md.treeprocessors.register(Assets(md), "volley_assets", -100)

    @staticmethod
    def of(md: Any) -> DiagramSite:
        """The site a Markdown instance renders for (a default one on first use)."""
        site = getattr(md, "volley_site", None)
        if site is None:
            site = DiagramSite()
            site.install(md)
        return site

    # --- rendering -------------------------------------------------------------------------

    def fence(self, source: str, overrides: dict[str, str], md: Any) -> str:
        """The HTML for one fenced diagram, or an error box."""
        page: _Page = md.volley_page
        page.handed += 1
        line, info = self._locate(source, md, page)
        location = Location(self.page, line)
        lines = source.split("\n")
        myst, skipped = myst_options(lines)  # `:theme: dark` lines, as MyST pages write them
        overrides = {**overrides, **myst}
        file = overrides.pop("file", None)
        source = "\n".join(lines[skipped:])
        twice = written_twice(info)  # superfences keeps the last, in silence
        if twice:
            said = twice_said(twice[0], "this ```volley fence line")
            return self.failed(Diagnostic(said, hint=TWICE_HINT), location, page)
        try:
            settings = self.settings.merged(overrides)
        except VolleyError as exc:
            return self.failed(exc.diagnostic, location, page)
        if file is None:
            if skipped and location.page_line:  # the diagram's first line is below them
                location = replace(location, page_line=location.page_line + skipped)
            return self.diagram(source, settings, location, page, overrides.get("name"))
        if source.strip():
            said, hint = file_and_diagram(file)
        elif self.embed_file is None:
            said = f"this ```volley fence names a file ({file}), which this site cannot read"
            hint = "write the diagram inside the fence"
        else:
            return self.embed_file(file, settings, md, overrides.get("name"))
        return self.failed(Diagnostic(said, hint=hint), location, page)

    def diagram(
        self,
        source: str,
        settings: Settings,
        location: Location,
        page: _Page,
        name: str | None = None,
        embedded: bool = False,
    ) -> str:
        """Render (or fetch from the cache) one diagram and note what its page needs; `name`
        is a fence's, or an `embedded` file's stem (a file shown twice is named -2 in silence,
        as the docs show it; a name written on a fence is the writer's choice for links)."""
        import volley

        slug = _name_slug(name)
        chosen = bool(slug) and not embedded  # a name written on the fence
        # a masked value must not be found again by hashing guesses into the published ids
        prefix = _id_prefix(
            name, published_source(source, redact=settings.redact), page, chosen=chosen
        )
        # `name="login"` on two fences, or a fence's and login.volley's (the fence keeps it)
        if (chosen and slug in page.named) or (embedded and slug in page.reserved):
            said = (
                f'the diagram name "{name}" is used twice on this page; the links of this one '
                f"are #{prefix}-message-N"
            )
            hint = "give each diagram its own name (an embedded file is named by its file)"
            self._problem(Diagnostic(said, severity="warning", hint=hint), location, page)
        if chosen:
            page.named.add(cast(str, slug))

        digest = hashlib.sha256(
            json.dumps(
                [source, settings.__dict__, location.source_file, volley.__version__],
                sort_keys=True,
            ).encode("utf-8", "surrogatepass")
        ).hexdigest()
        key = f"{digest}:{prefix}"
        self._used.add(key)
        rendered = self._cache.get(key)
        if rendered is None:
            try:
                rendered = _render(source, settings, prefix, location.source_file)
            except VolleyError as exc:
                return self.failed(with_nested_fence_hint(exc.diagnostic), location, page)
            except Exception as exc:  # a bug must not take the page (or the build) down
                _log.debug("volley: the render failed", exc_info=True)
                shown = Diagnostic(  # the name alone: a repr may hold the build machine's paths
                    f"volley could not draw this diagram ({type(exc).__name__}); "
                    "this is a bug in volley, please report it"
                )
                return self.failed(shown, location, page)
            self._cache[key] = rendered
        for diagnostic in rendered.diagnostics:
            self._problem(diagnostic, location, page)
        if rendered.interactive:
            page.interactive = self.interactive_used = True
        else:
            page.static = True
        page.anchors.update(rendered.anchors)
        return rendered.html

    def sweep(self) -> None:
        """Forget renders the last build did not use."""
        self._cache = {key: value for key, value in self._cache.items() if key in self._used}
        self._used = set()

    def failed(self, diagnostic: Diagnostic, location: Location, page: _Page) -> str:
        problem = self._problem(diagnostic, location, page)
        return error_box(problem)

    def _problem(self, diagnostic: Diagnostic, location: Location, page: _Page) -> Problem:
        problem = Problem(diagnostic, location)
        page.problems.append(problem)
        self.report(problem)
        return problem

    def _locate(self, source: str, md: Any, page: _Page) -> tuple[int, str]:
        """The page line of the fence superfences is formatting, from the lines it scans (0
        where it cannot be told), and its info string.

        The formatter is not told where the fence is; while the preprocessor runs,
        `md.lines` holds its input, so the fence is the first unused opener there whose
        body is this source.
        """
        lines = getattr(md, "lines", None)
        if not isinstance(lines, list):
            return 0, ""
        if page.lines is not lines:
            page.lines = lines
            page.fences = _fence_bodies(lines)
            page.used = set()
        wanted = _body_lines(source.split("\n"))
        free = [index for index, _body in page.fences if index not in page.used]
        same = [index for index, body in page.fences if index in free and body == wanted]
        if not (same or free):
            return 0, ""
        index = (same or free)[0]
        page.used.add(index)
        opening = fence_open(lines[index].lstrip(" \t>"))
        info = opening.info if opening else ""
        if self.written_lines is None or len(lines) == len(self.written_lines):
            return index + 1 + self.line_offset, info
        # lines were put in (pymdownx.snippets): the fence's line is its line as written, and a
        # fence that came in with them has none of the page's
        if page.written is None:
            page.written = _fence_bodies(self.written_lines)
        written = [i for i, body in page.written if body == wanted and i not in page.written_used]
        if not written:
            return 0, info
        page.written_used.add(written[0])
        return written[0] + 1 + self.line_offset, info


def _fence_bodies(lines: list[str]) -> list[tuple[int, list[str]]]:
    """Every ```volley opener with its body lines, stripped, for matching against sources.

    Superfences finds fences at any depth (in admonitions and tabs, four columns in), so
    every line is read without its containers' prefix, whatever it is inside.
    """
    inside = [line.lstrip(" \t>") for line in lines]
    found = []
    for index, line in enumerate(inside):
        opening = fence_open(line)
        if opening is None or not VOLLEY_INFO.match(opening.info):
            continue
        found.append((index, _body_lines(read_block(inside, index, opening).body)))
    return found


def _body_lines(lines: list[str]) -> list[str]:
    """A fence's lines as they are matched to the source superfences hands over: without
    container prefixes (indentation, `>`) and without blank lines at the end, which it drops
    (an empty fence and one holding a blank line both give "")."""
    shown = [line.lstrip(" \t>").rstrip() for line in lines]
    while shown and not shown[-1]:
        shown.pop()
    return shown


def _id_prefix(name: str | None, source: str, page: _Page, *, chosen: bool = False) -> str:
    """Ids and deep links (`#PREFIX-message-3`): the fence's name, an embedded file's, else
    from the diagram's text alone, so a link to it holds when the site's settings (its theme)
    change.

    The same name twice on a page gets `-2`, `-3`, so ids stay unique; a name a fence asks
    for (`chosen`) is its own, whatever was drawn before it: a file or a diagram named alike
    takes a number instead.
    """
    from volley.api import default_id_prefix

    base = _name_slug(name) or default_id_prefix(source)
    if base not in page.given and (chosen or base not in page.reserved):
        prefix = base
    else:
        number = 2
        while f"{base}-{number}" in page.given or f"{base}-{number}" in page.reserved:
            number += 1
        prefix = f"{base}-{number}"
    page.given.add(prefix)
    return prefix


def _fence_names(lines: list[str]) -> set[str]:
    """The names the page's ```volley fences ask for, as id prefixes."""
    names = set()
    for index, body in _fence_bodies(lines):
        opening = fence_open(lines[index].lstrip(" \t>"))
        written = fence_attrs(opening.info)[1].get("name") if opening else None
        written = myst_options(body)[0].get("name", written)  # `:name: login`, which wins
        slug = _name_slug(written) if written else None
        if slug:
            names.add(slug)
    return names


def _name_slug(name: str | None) -> str | None:
    """A fence's name as an id prefix, or None when it makes none (no name, or no letter to
    start one)."""
    slug = re.sub(r"[^A-Za-z0-9_-]+", "-", name).strip("-") if name else ""
    return slug if slug and slug[0].isalpha() else None


def _render(source: str, settings: Settings, prefix: str, filename: str | None) -> _Rendered:
    from volley.api import run

    result = run(source, settings.options(prefix), filename=filename)
    if settings.interactive:
        count = len(result.diagram.messages())
        anchors = tuple(f"{prefix}-message-{number}" for number in range(1, count + 1))
        return _Rendered(str(result.output), result.warnings, True, anchors)
    figure = static_figure(str(result.output), settings.theme, settings.alt)
    return _Rendered(figure, result.warnings, False)


def static_figure(svg: str, theme: str, label: str | None = None) -> str:
    """A static picture inline in a page (its SVG drawn light): in the wrapper whose `theme`
    the page's stylesheet reads, to colour it as the site's own light/dark switch says;
    `label` names it for readers who cannot see it (an image's alt text)."""
    shown = html.escape(theme, quote=True)
    named = f' role="figure" aria-label="{html.escape(label, quote=True)}"' if label else ""
    return (
        f'<div class="volley-diagram volley-static {_NO_MATH}" data-theme="{shown}"{named}'
        f' style="overflow-x:auto;text-align:center">{svg}</div>'
    )


# MathJax's classes (versions 2 and 3) for what it leaves alone: a site's math would read a
# label's `$$5 + tax$$` as a formula and take the words out of the picture
_NO_MATH = "tex2jax_ignore mathjax_ignore"


def page_assets(interactive: bool) -> tuple[str, str]:
    """(css, js) a page needs once: all of it for clickable diagrams, colours for static ones."""
    from volley.output.html import html_assets

    css, js = html_assets()
    return (css, js) if interactive else (css, "")


def _pre(lines: list[str], style: str) -> str:
    """Lines of an error box, escaped, in a `<pre>` styled so."""
    text = html.escape("\n".join(lines), quote=False)
    return f'<pre style="margin:0;padding:0;border:0;background:none;{style}">{text}</pre>'


def error_box(problem: Problem) -> str:
    """A readable, escaped box that stands where the diagram would be."""
    shown = problem.shown()
    # The words wrap (a phone's column is narrow); the quoted line and its caret stay as they
    # are, the caret under its character, scrolling sideways if the line is long.
    lines = shown.format().split("\n")
    quoted = 2 if shown.source_line is not None and shown.line else 0
    said, code, hint = lines[:1], lines[1 : 1 + quoted], lines[1 + quoted :]
    wrapped = "white-space:pre-wrap;overflow-wrap:anywhere"
    parts = [
        _pre(said, wrapped),
        _pre(code, "white-space:pre;overflow:auto") if code else "",
        _pre([line.strip() for line in hint], wrapped) if hint else "",
    ]
    return (
        '<div class="volley-error" role="alert" style="border-left:4px solid #dc2626;'
        'background:rgba(220,38,38,.08);padding:.6em 1em;margin:1em 0;border-radius:4px">'
        '<p style="margin:0 0 .4em;font-weight:bold">This volley diagram could not be drawn</p>'
        + "".join(parts)
        + "</div>"
    )


# --- the superfences hooks --------------------------------------------------------------------


def fence_validator(
    language: str, inputs: dict[str, str], options: dict[str, str], attrs: dict, md: Any
) -> bool:
    """Accept every ```volley fence and keep its `key=value` options for the formatter.

    Options are checked when the diagram is drawn, so a typo becomes a visible error box
    rather than the block silently turning into code.
    """
    options.update(inputs)
    return True


def fence_formatter(
    src: str = "",
    language: str = "",
    class_name: str = "",
    options: dict[str, str] | None = None,
    md: Any = None,
    **kwargs: Any,
) -> str:
    """The HTML for a ```volley fence: the interactive diagram, the static SVG or an error box."""
    return DiagramSite.of(md).fence(src, dict(options or {}), md)
