"""The Sphinx extension: `extensions = ["volley.docs.sphinx"]` draws diagrams in a Sphinx site.

In reStructuredText, a diagram is a directive, its text inline or in a file beside the page:

    .. volley::
       :theme: dark

       Browser -> API: POST /login
       API --> Browser: 200 OK

    .. volley:: flows/login.volley

In Markdown (with `myst_parser` among the extensions) a ```` ```volley ```` block is the same
directive: the extension adds `volley` to MyST's `myst_fence_as_directive`, so fences written
for GitHub or MkDocs work unchanged, options on the fence line (```` ```volley theme=dark ````)
included; options may also go on `:key: value` lines at the top.

A diagram that names no theme is `auto` (the reader's colour scheme, and the site's own
light/dark switch) under themes with a dark mode the viewer follows (furo, the PyData and Book
themes), and `light` under the others, whose pages stay white.

Diagrams are checked when the page is read: an error or a warning is a Sphinx warning naming
the page and its line (or the embedded file and its line), so `sphinx-build -W` fails on a
broken diagram, and the page shows the error in the diagram's place. When a page is written,
the HTML builders get the clickable diagram, with the viewer's stylesheet and script added once
to each page that has one; every other builder (LaTeX, epub, …) gets a static picture in a
format it takes, and text-only builders the diagram's source.
"""

from __future__ import annotations

import contextlib
import difflib
import hashlib
import os
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any, ClassVar, cast
from urllib.parse import unquote

try:
    from docutils import nodes
    from docutils.parsers.rst import DirectiveError, directives
    from sphinx.application import Sphinx
    from sphinx.domains.std import StandardDomain
    from sphinx.transforms import SphinxTransform
    from sphinx.transforms.post_transforms import SphinxPostTransform
    from sphinx.util import logging
    from sphinx.util.docutils import SphinxDirective
except ModuleNotFoundError:  # one line that says what to do, not a stack of import frames
    raise ModuleNotFoundError(
        "volley's Sphinx extension needs Sphinx: pip install 'volley-diagrams[sphinx]'"
    ) from None

import volley
from volley import api
from volley.docs.fence_options import (
    FLAGS,
    looks_like_a_path,
    named_file,
    open_quote,
    yes_or_no,
)
from volley.docs.fences import (
    Location,
    Problem,
    error_box,
    in_its_link,
    spelled,
    static_figure,
)
from volley.errors import Diagnostic, VolleyError
from volley.options import BODIES, THEMES, OptionError, Options, require_known
from volley.output.html_theme import site_default_theme
from volley.output.svg import picture_title
from volley.text.fences import TWICE_HINT, fence_attrs, twice_said, written_twice
from volley.textio import VOLLEY_SUFFIX

__all__ = ["VolleyDirective", "setup"]

logger = logging.getLogger(__name__)

ASSETS = ("volley.css", "volley.js")  # written to _static/ of HTML builds
# `:redact:` or YAML's `redact: true` among a MyST fence's option lines
_REDACT_OPTION = re.compile(r"[ \t]*:?redact:[ \t]*(.*)$")
STATIC_FORMATS = {"image/svg+xml": "svg", "image/png": "png"}  # preferred first


def _boolean(value: str | None) -> bool:
    """A directive option that is a flag (`:redact:`) or says yes or no (`:interactive: false`)."""
    answer = True if value is None else yes_or_no(value)
    if answer is None:
        raise ValueError(f'"{value}" is not true or false')
    return answer


def _choice(allowed: tuple[str, ...]):
    def convert(value: str | None) -> str:
        return directives.choice(value or "", allowed)

    return convert


# What each option's value must be, read by the directive itself (`VolleyDirective._read_options`)
_READERS: dict[str, Callable[[Any], Any]] = {
    "alt": directives.unchanged,
    "appendix-lines": directives.positive_int,
    "bodies": _choice(BODIES),
    "class": directives.class_option,  # as every directive takes it (MyST's `{.wide}` too)
    "interactive": _boolean,
    "name": directives.unchanged_required,
    "redact": _boolean,
    "theme": _choice(THEMES),
}


def _as_written(value: str | None) -> str | None:
    return value


class _AsWritten(dict[str, Callable[[str | None], Any]]):
    """A directive's `option_spec` that takes every option as written (its value, or None for
    a flag), whatever its name: docutils and MyST would drop an unknown one, or one whose value
    is wrong, with an error of theirs that leaves the diagram out of the page without a word
    there, or draw it without the option (a misspelt `:redact:` publishing what it was written
    to mask). The directive reads them itself, and says what is wrong in the diagram's place,
    as every other front end does."""

    def __missing__(self, name: str) -> Callable[[str | None], str | None]:
        return _as_written


class volley_diagram(nodes.General, nodes.Element):
    """A checked diagram, drawn when the builder is known (see `DrawDiagrams`)."""


class volley_error(nodes.General, nodes.Element):
    """A diagram that could not be drawn: the error, in the diagram's place."""


class volley_page(nodes.General, nodes.Element):
    """A clickable diagram on an HTML page: the drawing and its panel as raw HTML, which the
    search reads for the labels drawn, and the viewer's data (`volley_data`) between them."""


class volley_data(nodes.General, nodes.Element):
    """The viewer's data, its `html` written as it is. Its `no-search` class (Sphinx's own)
    keeps the JSON out of the search index, whose words it would fill with its keys."""


def _visit_page(self: Any, node: volley_page) -> None:
    self.body.append(self.starttag(node, "div", suffix=""))  # its ids: where `:ref:` lands


def _depart_page(self: Any, node: volley_page) -> None:
    self.body.append("</div>")


def _visit_data(self: Any, node: volley_data) -> None:
    self.body.append(node["html"])
    raise nodes.SkipNode


class VolleyDirective(SphinxDirective):
    """`.. volley::` with the diagram as content, or `.. volley:: path/to/file.volley`."""

    has_content = True
    optional_arguments = 1
    final_argument_whitespace = True  # a fence line's `theme=dark bodies=appendix` is one
    option_spec: ClassVar[dict[str, Any]] = _AsWritten.fromkeys(_READERS, _as_written)

    def run(self) -> list[nodes.Node]:
        # the fence line as written, before reading it takes its options out of the argument
        self._written = self.arguments[0].split() if self.arguments else []
        try:
            self._read_options()
            self._read_fence_line_options()
            return self._diagram()
        except DirectiveError as exc:  # an option or the argument written wrong
            return self._failed(VolleyError(exc.msg), None, self.lineno, at_fence=True)

    def _diagram(self) -> list[nodes.Node]:
        docname, fence_line = self.env.docname, self.lineno
        # said as the page writes it: a MyST page's ```volley fence, an rST directive
        written = "```volley" if str(self.env.doc2path(docname)).endswith(".md") else ".. volley::"
        if self.arguments and self.content:
            raise self.error(f'"{written}" takes a file or the diagram\'s text, not both')
        if self.arguments:
            source_file: str = self.arguments[0]
            relative, absolute = self.env.relfn2path(source_file, docname)
            self.env.note_dependency(relative)
            if not os.path.isfile(absolute):
                missing = VolleyError(f"cannot read {source_file}: there is no such file")
                return self._failed(missing, None, fence_line)
            if not os.path.realpath(absolute).endswith(VOLLEY_SUFFIX):  # a `.env`, a link to one:
                other = VolleyError(f"cannot read {source_file}: it is no .volley file")
                return self._failed(other, None, fence_line)  # an error would quote its lines
            shown_file = absolute
            try:
                source = api.read(absolute)
            except VolleyError as exc:
                return self._failed(exc, shown_file, fence_line)
        else:
            if not self.content:
                raise self.error(f'"{written}" needs a file or the diagram\'s text')
            shown_file = None
            source = "\n".join(self.content)
        redact = self._asked_to_redact()
        bodies = self.options.get("bodies", "markers")
        appendix_lines = self.options.get("appendix-lines")
        try:
            Options(bodies=bodies, appendix_lines=appendix_lines)  # volley's rule for the pair
        except OptionError as exc:
            raise self.error(spelled(exc, ":appendix-lines:", with_hint=True)) from None
        try:
            checked = api.check(source, filename=shown_file, redact=redact)
        except VolleyError as exc:
            return self._failed(exc, shown_file, fence_line)
        for warning in checked.warnings:
            self._report(warning, shown_file, fence_line)
        shown = api.masked(checked, redact=redact)  # its title and ids publish no secret
        content_prefix = api.default_id_prefix(shown)
        # the prefixes this page has given so far (Sphinx keeps temp_data for one page)
        taken = cast(dict[str, int], self.env.temp_data.setdefault("volley_prefixes", {}))
        # an embedded file is named by its file, as the MkDocs plugin names it: its deep links
        # (`#login-message-3`) outlive edits to it
        named = self.options.get("name") or (Path(source_file).stem if shown_file else None)
        prefix = _prefix(named, content_prefix, taken)
        node = volley_diagram(
            # Doctrees keep plain values (they are pickled, and read by later volley
            # versions): the source, drawn again when the page is written; under redact as
            # the page publishes it, since `sphinx-build -b html src out` writes the doctrees
            # into the folder it publishes (`out/.doctrees`)
            content_prefix=content_prefix,
            prefix=prefix,
            filename=shown_file,
            source=api.published_source(source, redact=redact),
            theme=self.options.get("theme"),
            bodies=bodies,
            appendix_lines=appendix_lines,
            interactive=self.options.get("interactive", True),
            redact=redact,
            link_name=self.options.get("name"),
            alt=self.options.get("alt") or picture_title(shown),
        )
        self.set_source_info(node)
        self.add_name(node)  # `:name: login` is a target, as for any directive: :ref:`login`
        node["classes"] += self.options.get("class", [])  # on what the builder draws
        self._anchor_messages(node, prefix, len(checked.diagram.messages()))
        return [node]

    def _asked_to_redact(self) -> bool:
        """`:redact:` as given, or as written in an option block MyST could not read: MyST
        then drops every option of the fence (it warns "Invalid options format"), and a
        diagram whose author asked for masking would be published unmasked."""
        if "redact" in self.options or not _from_myst(self.state):
            return bool(self.options.get("redact", False))
        # MyST counts the option lines it dropped in the content offset
        written = self.block_text.splitlines()[1 : 1 + self.content_offset]
        for line in written:
            option = _REDACT_OPTION.match(line)
            if option and yes_or_no(option[1]) is not False:  # alone, true, or unreadable
                return True
        return False

    def _meant_to_mask(self) -> bool:
        """Whether a diagram that could not be drawn asked to be masked, or most likely did
        (an option written wrong nearest `redact`, `:redcat:`): its page's source, which
        Sphinx publishes, holds the diagram's text as written."""
        if "redact" in self.options:
            return self.options["redact"] is not False  # as written (a flag), or as read
        names = [
            word.partition("=")[0].replace("_", "-") for word in [*self.options, *self._written]
        ]
        near = any(difflib.get_close_matches(name, ["redact"], cutoff=0.6) for name in names)
        return near or self._asked_to_redact()

    def _anchor_messages(self, node: volley_diagram, prefix: str, count: int) -> None:
        """Each message's deep link (`#login-message-2`) is an anchor of the page, as a link
        to it needs: MyST's (`[the answer](#login-message-2)`, `guide.md#login-message-2`)
        and LaTeX's hyperref look for one. An id of the diagram's, and an anonymous label of
        the standard domain (as sphinx.ext.autosectionlabel adds its sections'), under a
        name of this page's alone."""
        document, docname = self.state.document, self.env.docname
        labels = cast(StandardDomain, self.env.get_domain("std")).anonlabels
        for number in range(1, count + 1):
            anchor = f"{prefix}-message-{number}"
            if anchor in document.ids:  # a heading's, say: the page keeps one of each
                continue
            node["ids"].append(anchor)
            document.ids[anchor] = node
            labels[f"{docname}#{anchor}"] = (docname, anchor)

    def _read_options(self) -> None:
        """The `:key: value` options, each read by its rule: a name volley does not know, or a
        value its option does not take, is an error (the diagram is not drawn)."""
        try:
            require_known(self.options, tuple(_READERS))
        except OptionError as exc:
            raise self.error(f"{exc.message} ({exc.hint})") from None
        for name, value in self.options.items():
            try:
                self.options[name] = _READERS[name](value)
            except (ValueError, TypeError) as exc:
                shown = "" if value is None else f" {value}"
                raise self.error(f":{name}:{shown}: {exc}") from None

    def _read_fence_line_options(self) -> None:
        """Options written on the fence line, as GitHub and MkDocs pages write them
        (```` ```volley theme=dark ````, which MyST hands over as the argument): read as the
        `:theme: dark` lines they mean. A `:key:` line given as well wins. Words before a
        diagram's text that name no file (```` ```volley redcat ````) are options written
        wrong, said as such, as README mode and MkDocs say them."""
        file, options = named_file(self.arguments[0] if self.arguments else "")
        if file and self.content and not looks_like_a_path(file):
            file, options = None, self.arguments[0]
        if not options:
            return  # a file name alone, or nothing
        _, written = fence_attrs("volley " + options)
        twice = written_twice("volley " + options)
        if twice:
            raise self.error(f"{twice_said(twice[0], 'the fence line')} ({TWICE_HINT})")
        self.arguments = [file] if file else []
        try:  # a misspelt `redact` must not publish what it would mask
            names = [key.replace("_", "-") for key in written]
            require_known(names, tuple(_READERS), " on the fence line")
        except OptionError as exc:
            raise self.error(f"{exc.message} ({exc.hint})") from None
        for key, value in written.items():
            option = key.replace("_", "-")
            convert = _READERS[option]
            if option in self.options:
                continue
            if not value and key not in FLAGS:  # `theme` alone: no file of that name
                raise self.error(f"{key} on the fence line needs a value: {key}=…")
            if open_quote(value):  # `theme="dark`, read bare
                raise self.error(f"{key}={value} on the fence line opens a quote it does not close")
            try:
                self.options[option] = convert(value or None)  # `redact` alone: a flag
            except ValueError as exc:
                raise self.error(f'{key}="{value}" on the fence line: {exc}') from None

    # --- problems ----------------------------------------------------------------------------

    @property
    def _first_line(self) -> int:
        """The page line before the diagram's first: docutils gives it as the content offset;
        MyST gives the offset from the fence, so its fences count from the fence line."""
        if _from_myst(self.state):
            return self.lineno + self.content_offset
        return self.content_offset

    def _content_line(self, diagnostic: Diagnostic) -> int:
        """The page line of a line of the inline diagram (the fence's, for a file's)."""
        if diagnostic.line and self.content:  # a link's diagram: the link, its first line
            return self._first_line + (1 if api.in_link(diagnostic) else diagnostic.line)
        return self.lineno

    def _page(self, source: str | None = None) -> str:
        return _page_named(self.env, source)

    def _written_at(self, line: int) -> tuple[str, int]:
        """The file and line a line of the page's input was written at: an `.. include::`d
        file's own, as docutils keeps them (the page's, for MyST, which keeps no such map)."""
        if not _from_myst(self.state):
            source, written = self.state_machine.get_source_and_line(line)
            if source and written:
                return source, written
        return str(self.env.doc2path(self.env.docname)), line

    def _report(self, diagnostic: Diagnostic, shown_file: str | None, fence_line: int) -> None:
        """A Sphinx warning at the page line, or at the embedded file's line."""
        details = diagnostic.format().split("\n")[1:]
        if shown_file:
            in_file = diagnostic.line and not api.in_link(diagnostic)  # not the link's lines
            location: Any = f"{shown_file}:{diagnostic.line if in_file else 1}"
            where = f" (embedded at {self._page()}:{fence_line})"
            if diagnostic.line and not in_file:
                where = f" (line {diagnostic.line} of the diagram in its link){where}"
        else:
            location = "{}:{}".format(*self._written_at(self._content_line(diagnostic)))
            where = (
                f" (line {diagnostic.line} of the diagram{in_its_link(diagnostic)})"
                if diagnostic.line
                else ""
            )
        # A note (a secret the output masks) needs nothing done, so it must not fail -W.
        log = logger.info if diagnostic.severity == "note" else logger.warning
        log(
            "volley: %s%s",
            diagnostic.message,
            "\n".join([where, *details]) if details else where,
            location=location,
            type="volley",
            subtype=diagnostic.severity,
        )

    def _failed(
        self, exc: VolleyError, shown_file: str | None, fence_line: int, at_fence: bool = False
    ) -> list[nodes.Node]:
        """Every error reported, and the first shown in the page where the diagram would be;
        `at_fence`: the error is the fence's or the directive's own (an option)."""
        errors = exc.errors
        for error in errors:
            self._report(error.diagnostic, shown_file, fence_line)
        first = errors[0].diagnostic
        written = self.arguments[0] if self.arguments and not at_fence else None
        if at_fence:
            location = Location(self._page(), fence_line)
        elif written:
            location = Location(self._page(), fence_line, written)
        else:
            source, line = self._written_at(self._first_line)
            location = Location(self._page(source), line)
        problem = Problem(first, location)
        html, text = error_box(problem), problem.shown().format()
        node = volley_error(html=html, text=text, redact=self._meant_to_mask())
        self.set_source_info(node)
        return [node]


class VolleyImages(SphinxTransform):
    """An image of a .volley file (`![checkout](flows/checkout.volley)`, which the MkDocs
    plugin draws) is no picture Sphinx can show: it was copied as one, a broken image on the
    page and an include a LaTeX build cannot read. It is an error in its place instead, that
    names the directive which draws the file."""

    default_priority = 200  # while the page is read, before Sphinx collects its images

    def apply(self, **kwargs: Any) -> None:
        for image in list(self.document.findall(nodes.image)):
            uri = str(image.get("uri", ""))
            if not uri.lower().endswith(VOLLEY_SUFFIX):
                continue
            error = VolleyError(
                f"an image of {uri} draws nothing in Sphinx",
                hint=f"draw it with ```{{volley}} {uri}``` (.. volley:: {uri} in reStructuredText)",
            )
            said = f"volley: {error.message} ({error.hint})"
            logger.warning(said, location=image, type="volley", subtype="error")
            line = image.line or (image.parent.line if image.parent is not None else None)
            problem = Problem(error.diagnostic, Location(self._page(), line or 0))
            box = volley_error(html=error_box(problem), text=problem.shown().format())
            # an image stands inside a paragraph in Markdown: the box takes the paragraph's
            # place when the image is all it holds
            alone = isinstance(image.parent, nodes.paragraph) and len(image.parent) == 1
            (image.parent if alone else image).replace_self(box)

    def _page(self) -> str:
        return _page_named(self.env)


def _page_named(env: Any, source: str | None = None) -> str:
    """The page (or an `.. include::`d file) as an error box names it: from the source folder
    down (`guide/index.rst`, which the page's file name alone would confuse with
    `index.rst`), never the builder's whole path, which the published page would show."""
    source = source or str(env.doc2path(env.docname))
    relative = os.path.relpath(source, env.srcdir)
    return os.path.basename(source) if relative.startswith("..") else relative


def _words(text: str) -> nodes.literal_block:
    """An error as the text builders and LaTeX show it: set as it is written, its line and
    caret kept, and not coloured as the code of the site's default language."""
    return nodes.literal_block(text, text, language="text")


def _from_myst(state: Any) -> bool:
    try:
        from myst_parser.mocking import MockState
    except ModuleNotFoundError:
        return False
    return isinstance(state, MockState)


# --- writing: a picture the builder takes ---------------------------------------------------


class DrawDiagrams(SphinxPostTransform):
    """Replace each diagram with what the builder at hand can show."""

    default_priority = 200

    def run(self, **kwargs: Any) -> None:
        builder = self.app.builder
        pages = builder.format == "html"  # HTML pages, an epub's XHTML ones too
        interactive_builder = pages and not builder.name.startswith("epub")
        prefixes: dict[str, int] = {}
        used: set[str] = set()  # in this output page, which may hold several (singlehtml)
        for failed in list(self.document.findall(volley_error)):
            if failed.get("redact"):  # the page's source holds its text as written
                self.document["volley_redacted"] = True
            if builder.format == "html":
                failed.replace_self(nodes.raw("", failed["html"], format="html"))
            else:
                failed.replace_self(_words(failed["text"]))
        for node in list(self.document.findall(volley_diagram)):
            shown: nodes.Element
            if node["redact"]:  # the page's source, which Sphinx publishes, holds what it masks
                self.document["volley_redacted"] = True
            try:
                if pages:  # an epub (no script) gets the static picture inline too
                    # named when read; a doctree an earlier version kept is named here
                    prefix = node.get("prefix") or _prefix(
                        node.get("link_name"), node["content_prefix"], prefixes
                    )
                    shown_as = _unused(prefix, used)
                    if shown_as != prefix:  # its messages' anchors follow
                        node["ids"] = [
                            shown_as + i[len(prefix) :] if i.startswith(f"{prefix}-message-") else i
                            for i in node["ids"]
                        ]
                        prefix = shown_as
                    shown = (
                        self._interactive(node, prefix)
                        if node["interactive"] and interactive_builder
                        else self._inline_static(node, prefix)
                    )
                else:
                    shown = self._static(node, builder)
            except VolleyError as exc:  # a limit a layout hits; the parse went through
                logger.warning("volley: %s", exc.message, location=node, type="volley")
                shown = _words(exc.format())
            # docutils moves the `:name:` target's id to the node that replaces this one, which
            # wraps the drawing: a link to the diagram lands there
            node.replace_self(shown)

    def _site_theme(self) -> str:
        return site_default_theme(self.app.config.html_theme)

    def _interactive(self, node: volley_diagram, prefix: str) -> nodes.Element:
        html = str(
            self._render(
                node,
                format="html",
                fragment=True,
                include_assets=False,  # the page links volley.css and volley.js once
                theme=node["theme"] or self._site_theme(),
                id_prefix=prefix,
            )
        )
        start = html.index('<template class="vl-data"')
        end = html.index("</template>", start) + len("</template>")
        page = volley_page(classes=["volley"])
        # the note for readers without scripts is the same on every page: no search words
        note = html.find("<noscript", 0, start)
        after = html.index("</noscript>", note) + len("</noscript>") if note >= 0 else 0
        if note >= 0:
            page += nodes.raw("", html[:note], format="html")
            page += nodes.raw("", html[note:after], format="html", classes=["no-search"])
        page += nodes.raw("", html[after:start], format="html")
        page += volley_data(html=html[start:end], classes=["no-search"])
        page += nodes.raw("", html[end:], format="html")
        return page

    def _render(self, node: volley_diagram, **chosen: Any) -> str | bytes:
        """The diagram drawn with the options its directive gave and those `chosen` here:
        SVG and HTML as str, PNG as bytes."""
        options = Options(
            bodies=node["bodies"],
            appendix_lines=node.get("appendix_lines"),
            redact=node["redact"],
            **chosen,
        )
        return api.render(node["source"], filename=node["filename"], options=options)

    def _inline_static(self, node: volley_diagram, prefix: str) -> nodes.Element:
        """A static picture on an HTML page: inline, as MkDocs has it, so that the page's
        stylesheet colours it by the site's light/dark switch (furo's, the PyData theme's), not
        by the reader's system setting, which an `<img>` would follow."""
        drawn = "light"  # the page's stylesheet switches its colours
        if self.app.builder.name.startswith("epub"):  # which has no stylesheet of volley's
            drawn = node["theme"] or "light"  # so the picture is drawn as the directive says
        svg = str(self._render(node, format="svg", theme=drawn, id_prefix=prefix))
        figure = static_figure(svg, node["theme"] or self._site_theme(), node["alt"] or None)
        return nodes.raw("", figure, format="html", classes=["volley"])

    def _static(self, node: volley_diagram, builder: Any) -> nodes.Element:
        """An image file the builder copies, or the source for builders without images."""
        supported = getattr(builder, "supported_image_types", [])
        fmt = next((STATIC_FORMATS[kind] for kind in supported if kind in STATIC_FORMATS), None)
        if fmt is None:  # text, man, …: the diagram's own words read well there
            source = api.published_source(node["source"], redact=node["redact"])
            return nodes.literal_block(source, source, language="volley")
        theme = node["theme"] or self._site_theme()
        if fmt == "png" and theme == "auto":
            theme = "light"  # a picture of fixed pixels cannot follow the reader
        output = self._render(node, format=fmt, theme=theme, scale=2.0 if fmt == "png" else 1.0)
        data = output.encode("utf-8") if isinstance(output, str) else output
        folder = os.path.join(self.app.doctreedir, "volley")
        os.makedirs(folder, exist_ok=True)
        path = os.path.join(folder, hashlib.sha256(data).hexdigest()[:16] + "." + fmt)
        if not os.path.exists(path):
            with open(path, "wb") as handle:
                handle.write(data)
        self.env.images.add_file(self.env.docname, path)
        # centred, as the clickable diagram is; a PNG, drawn at twice its size for sharpness,
        # says its size in CSS pixels, which LaTeX sizes as it does every px width
        image = nodes.image(uri=path, alt=node["alt"], candidates={"*": path}, align="center")
        if fmt == "png":
            image["width"] = f"{round(_png_width(data) / 2)}px"
        if builder.format == "latex" and node["names"]:
            # LaTeX places a target's \label after a caption, which numbers it: without one a
            # :ref: or :numref: to the diagram (its `:name:`) reads "??" in the PDF
            return nodes.figure("", image, nodes.caption("", node["alt"]), align="center")
        return image


def _png_width(data: bytes) -> int:
    """A PNG's width in pixels, from its IHDR chunk, which the PNG specification puts first:
    the 8-byte signature, the chunk's length and type, then the width as 4 big-endian bytes."""
    return int.from_bytes(data[16:20], "big")


def _prefix(name: str | None, content_prefix: str, taken: dict[str, int]) -> str:
    """Ids and deep links (`#PREFIX-message-3`): the `name` option, else from the content;
    the same diagram twice on one page gets `-2`, so ids stay unique."""
    base = re.sub(r"[^A-Za-z0-9_-]+", "-", name or "").strip("-")
    if not (base and base[0].isalpha()):
        base = content_prefix
    taken[base] = taken.get(base, 0) + 1
    return base if taken[base] == 1 else f"{base}-{taken[base]}"


def _unused(prefix: str, used: set[str]) -> str:
    """`prefix`, or `prefix-2`, `-3` … where a page written from several source pages (the
    singlehtml builder's) already holds it: the same diagram on two pages would repeat every
    id, and a click on the second would open the first one's panel."""
    numbered = re.fullmatch(r"(.+)-([0-9]+)", prefix)  # a page's own second, `prefix-2`
    base, count = (numbered[1], int(numbered[2])) if numbered else (prefix, 1)
    shown = prefix
    while shown in used:  # the next number of its base: `-3`, never `-2-2`
        count += 1
        shown = f"{base}-{count}"
    used.add(shown)
    return shown


# --- the page: assets once, for pages with a clickable diagram -------------------------------


def _add_assets(app: Sphinx, pagename: str, templatename: str, context: dict, doctree: Any):
    """Link the viewer's stylesheet and script from each page that holds a diagram (an
    epub's pages get neither: their pictures are static, drawn in the colours their directive
    asks for, light by default)."""
    if doctree is None or app.builder.name.startswith("epub"):
        return
    drawn = (node for kind in (nodes.raw, volley_page) for node in doctree.findall(kind))
    if any("volley" in node.get("classes", []) for node in drawn):
        app.add_css_file("volley.css")
        app.add_js_file("volley.js", defer="defer")


def _withhold_source(app: Sphinx, pagename: str, templatename: str, context: dict, doctree: Any):
    """A page with a `:redact:` diagram publishes no copy of its source (`html_copy_source`'s
    `_sources/`, the "Show source" link): the source holds, unmasked, what the picture masks.
    A copy an earlier build published (before `:redact:` was added, which rebuilds the page
    and leaves the rest of the output as it was) is removed."""
    if doctree is not None and doctree.get("volley_redacted") and context.get("sourcename"):
        stale = os.path.join(app.builder.outdir, "_sources", context["sourcename"])
        with contextlib.suppress(FileNotFoundError):
            os.remove(stale)
        context["sourcename"] = ""


def _write_assets(app: Sphinx) -> None:
    """Write the viewer's stylesheet and script into the HTML build's _static folder before
    the pages are written: each page then links them with a checksum of their content
    (`volley.js?v=…`), so that a reader's browser fetches them anew when a new volley changes
    them (written after the pages, they had none, or the previous build's)."""
    builder = app.builder
    if builder.format != "html" or builder.name.startswith("epub"):
        return
    from volley.output.html import html_assets

    static = os.path.join(builder.outdir, "_static")
    os.makedirs(static, exist_ok=True)
    for name, text in zip(ASSETS, html_assets(), strict=True):
        with open(os.path.join(static, name), "w", encoding="utf-8") as handle:
            handle.write(text)


# A page of the epub's manifest, as Sphinx's content.opf template writes it
_EPUB_PAGE = re.compile(
    r'<item id="[^"]*" href="(?P<href>[^"]*)" media-type="application/xhtml\+xml" */>'
)


def _mark_svg_pages(app: Sphinx, exception: Exception | None) -> None:
    """EPUB 3 wants each page that holds inline SVG (a diagram's picture) to say so in the
    book's manifest, `properties="svg"` (epubcheck's OPF-014). Sphinx's epub builder sets no
    properties on pages, so its content.opf is marked here and the book zipped again by the
    builder's own `build_epub`."""
    from sphinx.builders.epub3 import Epub3Builder

    builder = app.builder
    if exception is not None or not isinstance(builder, Epub3Builder):
        return
    manifest = os.path.join(builder.outdir, "content.opf")
    with open(manifest, encoding="utf-8") as handle:
        written = handle.read()

    def marked(item: re.Match[str]) -> str:
        page = os.path.join(builder.outdir, unquote(item["href"]))
        with open(page, encoding="utf-8") as handle:
            if "<svg" not in handle.read():
                return item[0]
        return item[0].removesuffix("/>").rstrip() + ' properties="svg" />'

    rewritten = _EPUB_PAGE.sub(marked, written)
    if rewritten != written:
        with open(manifest, "w", encoding="utf-8") as handle:
            handle.write(rewritten)
        builder.build_epub()


def _fences_as_directive(app: Sphinx, config: Any) -> None:
    """With MyST, a ```volley fence is the directive (as on GitHub, MkDocs and in READMEs)."""
    if "myst_fence_as_directive" in config:
        config.myst_fence_as_directive = {*config.myst_fence_as_directive, "volley"}


def _number_format(app: Sphinx, config: Any) -> None:
    """`:numref:` to a diagram reads "Diagram 3" unless the site's numfig_format says how
    (Sphinx sets a format for its own figures and tables only)."""
    config.numfig_format.setdefault("volley", "Diagram %s")


def _title_of(node: nodes.Node) -> str:
    """A named diagram's title, for the text of a link to it; none for one without a name,
    which Sphinx then leaves unnumbered, as it does a figure without a caption: :numref: counts
    the diagrams it can reach, as LaTeX numbers only the named ones (its figures)."""
    if isinstance(node, volley_diagram) and node["names"]:
        return str(node["alt"])
    return ""


def setup(app: Sphinx) -> dict[str, Any]:
    # Numbered and titled like a figure, so :ref:`login` and :numref: find a diagram by its
    # `:name:`, with the diagram's title as the link's text.
    app.add_enumerable_node(volley_diagram, "volley", title_getter=_title_of)
    app.add_node(volley_error)
    app.add_node(volley_page, html=(_visit_page, _depart_page))
    app.add_node(volley_data, html=(_visit_data, None))
    app.add_directive("volley", VolleyDirective)
    app.add_transform(VolleyImages)
    app.add_post_transform(DrawDiagrams)
    app.connect("config-inited", _fences_as_directive)
    app.connect("config-inited", _number_format, priority=900)  # after Sphinx fills its own
    app.connect("html-page-context", _add_assets)
    app.connect("html-page-context", _withhold_source)
    app.connect("builder-inited", _write_assets)
    app.connect("build-finished", _mark_svg_pages)
    return {"version": volley.__version__, "parallel_read_safe": True, "parallel_write_safe": True}
