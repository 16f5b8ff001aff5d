"""The pipeline: read → parse → check (lint, limits) → redact → layout → paint.

Every front end goes through here: the command line, README mode, the Markdown fences, the
MkDocs plugin and the server each turn what their user wrote into one `volley.Options` and call
one of these functions, so a diagram behaves the same wherever it is drawn.

    check(text)                  parse and check: the Diagram and its warnings (`Checked`)
    check_file(path)             the same for a file (`-` reads standard input)
    render(text_or_diagram, ...) the picture alone: SVG and HTML as str, PNG and PDF as bytes
    run(text, options)           all of it: the Diagram, its warnings and the picture (`Result`)
    run_file(path, options)      the same for a file

With `redact`, every error and warning that leaves the pipeline is masked as well as the
picture: an error quotes the line it points at, and that line may hold the secret.

Every format starts from one layout (`volley.layout.engine`), so the static picture, the
raster files and the interactive viewer agree to the pixel.
"""

from __future__ import annotations

import importlib
import re
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, NoReturn

from volley.errors import Diagnostic, VolleyError, VolleyErrors
from volley.language.parser import foreign_header, named_as_another_tools, parse
from volley.limits import DEFAULT_LIMITS, Limits, check_items, check_output, check_picture
from volley.model import Diagram, default_id_prefix
from volley.options import Options

if TYPE_CHECKING:
    from volley.checks.secrets import DiagramSecrets
    from volley.layout.geometry import Layout

__all__ = [
    "Checked",
    "Result",
    "check",
    "carried",
    "check_file",
    "default_id_prefix",
    "formatted",
    "in_link",
    "in_link_named",
    "layout",
    "masked",
    "parse",
    "published_source",
    "read",
    "render",
    "run",
    "run_file",
    "source_name",
]


@dataclass(slots=True)
class Checked:
    """A diagram that parsed, and what its author should hear about it."""

    diagram: Diagram  # as written (redaction happens when it is drawn)
    warnings: list[Diagnostic]  # the parser's and the linter's, masked under redact
    # the diagram's secrets, found once for its warnings and, under redact, its picture
    secrets: DiagramSecrets | None = field(default=None, repr=False, compare=False)


@dataclass(slots=True)
class Result:
    """One diagram through the whole pipeline."""

    diagram: Diagram  # as written
    warnings: list[Diagnostic]
    output: str | bytes  # SVG and HTML as str, PNG and PDF as bytes


# --- the stages ----------------------------------------------------------------------------


# The name errors give a swimlanes.io link read from the command line, as `<stdin>` for `-`.
LINK_NAME = "<link>"


def read(path: str, limits: Limits | None = None) -> str:
    """A diagram file's text (`-` for standard input), refused past the input limit; a
    swimlanes.io link that names no file is itself the text (`carried` reads it)."""
    from volley.swimlanes_links import link_argument
    from volley.textio import read_source

    return link_argument(path) or read_source(path, (limits or DEFAULT_LIMITS).input_bytes)


def source_name(path: str) -> str:
    """What errors call the source `path` names: `<stdin>`, `<link>` or the path itself."""
    from volley.swimlanes_links import link_argument

    if path == "-":
        return "<stdin>"
    return LINK_NAME if link_argument(path) else path


# How errors name the diagram a link carries: their lines are its (`in_link_named`).
_IN_LINK = " (the diagram in its link)"
_ON_LINE = " (the diagram in the link on line {})"
_NAMED_IN_LINK = r" \(the diagram in (?:its link|the link on line \d+)\)$"


def carried(
    text: str, filename: str | None = None, limits: Limits | None = None
) -> tuple[str, str | None, list[Diagnostic]]:
    """The diagram a source holds, the name its errors give, and what reading it so is to be
    told: a swimlanes.io share link alone (how people pass such diagrams around) holds the
    text it carries, whose lines errors count (`flow.volley (the diagram in its link):3:7`);
    any other text is the diagram itself."""
    from volley.swimlanes_links import decode_link, is_link

    if not is_link(text):
        return text, filename, []
    from volley.importers import import_hint  # only a link holding another tool's text needs it

    diagram = decode_link(text, filename, (limits or DEFAULT_LIMITS).input_bytes)
    named = filename if filename == LINK_NAME else in_link_named(filename or "<input>")
    foreign = foreign_header(diagram.split("\n"))
    if foreign is not None:  # Mermaid pasted into swimlanes.io's editor, and shared
        from volley.importers.mermaid import read_as_swimlanes

        # that editor draws its own syntax under Mermaid's header too
        found = read_as_swimlanes(diagram, named)
        if found is not None:
            return found[0], named, [found[1]]
        command, out = import_hint(text, filename)
        # Said of its start alone: what follows may be swimlanes.io's syntax, which that editor
        # draws under Mermaid's header too, and which the import reads as such
        header = re.split(r"[\s;]", diagram.split("\n")[foreign[0] - 1].strip(), maxsplit=1)[0]
        raise VolleyError(
            f"this link's text starts with {header} (as {foreign[1]} does), not volley; "
            "volley import converts it",
            filename=filename,
            line=1,
            column=1,
            source_line=text.strip(),
            hint=f"run: {command}, then edit and render {out}",
        )
    return diagram, named, []


def _parsed(
    text: str, filename: str | None, limits: Limits | None
) -> tuple[Diagram, str, str | None]:
    """The diagram a source holds, its text and the name its errors give (see `carried`). A
    link's diagram was written on swimlanes.io: the links it makes from that site's root are
    made whole, or drawn anywhere else they would point at the site the picture is on."""
    source, named, said = carried(text, filename, limits)
    try:
        diagram = parse(source, filename=named, limits=limits)
    except VolleyErrors as exc:
        another_tools = named_as_another_tools(source, named, exc)
        if another_tools is None:
            raise
        raise another_tools from None
    diagram.warnings[:0] = said
    if source is not text:
        from volley.swimlanes_links import site_links

        diagram = site_links(diagram)
    return diagram, source, named


def in_link_named(where: str, line: int | None = None) -> str:
    """How errors name the diagram a link carries, whose lines they count: the link in file
    `where` (`flow.volley (the diagram in its link)`), or on `line` of a page that holds it
    among other text (`README.md (the diagram in the link on line 12)`). `in_link` reads
    either back."""
    return f"{where}{_IN_LINK if line is None else _ON_LINE.format(line)}"


def in_link(diagnostic: Diagnostic) -> bool:
    """Whether a problem's line is one of the diagram a link carries, not of the text the link
    stands in (a docs page points at the block holding the link)."""
    return re.compile(_NAMED_IN_LINK).search(diagnostic.filename or "") is not None


def check(
    text: str, *, filename: str | None = None, limits: Limits | None = None, redact: bool = False
) -> Checked:
    """Parse and check one diagram; a VolleyError (masked under `redact`) if it is wrong."""
    if not isinstance(text, str):
        raise TypeError("volley.check takes text (str); decode bytes with volley.decode first")
    with _masked(redact, text):
        diagram, text, filename = _parsed(text, filename, limits)
    from volley.checks.lint import lint
    from volley.checks.secrets import DiagramSecrets

    secrets = DiagramSecrets(diagram)
    said = [*diagram.warnings, *lint(diagram, text, redact=redact, secrets=secrets)]
    if redact:
        from volley.checks.redact import redact_diagnostic

        said = [redact_diagnostic(warning, secrets.again) for warning in said]
    return Checked(diagram, said, secrets)


def formatted(
    text: str, *, filename: str | None = None, limits: Limits | None = None
) -> tuple[str, list[Diagnostic]]:
    """The diagram's text as the writer writes it, canonically (what `volley fmt` writes; an
    imported diagram reads alike), CRLF line ends kept; and the warnings `check` gives but
    those about secrets, said now (the text written may no longer show what prompted one:
    Mermaid's `A->>B`, spaced, reads as volley's own open head; a secret stays as it was). A
    swimlanes.io link holds its diagram where no formatting can reach: it is refused."""
    from volley.checks.lint import lint
    from volley.importers import import_hint
    from volley.language.writer import rewrite
    from volley.swimlanes_links import is_link

    if is_link(text):
        raise VolleyError(
            "a swimlanes.io link holds the diagram, not text that can be formatted",
            filename=filename,
            hint=f"{import_hint(text, filename)[0]} writes the diagram it carries as text",
        )
    diagram, text, filename = _parsed(text, filename, limits)
    written = rewrite(diagram, text)
    first_end = text.find("\n")
    if first_end > 0 and text[first_end - 1] == "\r":  # a file with CRLF line ends keeps them
        written = written.replace("\n", "\r\n")
    return written, [*diagram.warnings, *lint(diagram, text, look_for_secrets=False)]


def check_file(path: str, *, limits: Limits | None = None, redact: bool = False) -> Checked:
    """`check` for a file; errors and warnings name it (`<stdin>` for `-`). A file that holds
    bytes that are not UTF-8 is read on past them, so that its other errors are said too."""
    from volley.swimlanes_links import link_argument
    from volley.textio import decode, read_bytes

    name = source_name(path)
    link = link_argument(path)
    if link is not None:
        return check(link, filename=name, limits=limits, redact=redact)
    with _masked(redact):
        data = read_bytes(path, (limits or DEFAULT_LIMITS).input_bytes)
        try:
            text = decode(data, name)
        except VolleyError as exc:
            if not exc.line or b"\x00" in data:  # a binary file, or one misnamed by its mark
                raise
            _refuse_past_bytes(data, name, limits, redact)
    return check(text, filename=name, limits=limits, redact=redact)


def _refuse_past_bytes(data: bytes, name: str, limits: Limits | None, redact: bool) -> NoReturn:
    """The errors of a file with bytes that are not UTF-8: each such line's, then those of
    the rest, read with U+FFFD in place of each byte (an editor saved one line in another
    encoding; the mistakes around it are worth saying at once)."""
    from volley.errors import VolleyErrors
    from volley.textio import past_bytes

    text, wrong = past_bytes(data, name)
    try:
        checked = check(text, filename=name, limits=limits, redact=redact)
    except VolleyError as exc:
        errors = sorted([*wrong, *exc.errors], key=lambda error: (error.line, error.column))
        stopped = getattr(exc, "stopped_at", None)
        with _masked(redact, text):
            raise VolleyErrors(errors, exc.warnings, stopped) from None
    with _masked(redact, text):
        raise VolleyErrors(wrong, checked.warnings)


def _paint(diagram: Diagram, options: Options) -> tuple[str | bytes, list[Diagnostic]]:
    """Lay out and paint a diagram as it is to be shown (`_as_drawn`); and what the picture
    could not be as asked (a PDF drawn at a lower scale than asked, its pages' widest)."""
    fmt = options.format
    theme = options.resolved_theme
    from volley.layout.engine import layout_diagram
    from volley.output.svg import render_svg

    # ids below come from what is shown
    prefix = options.id_prefix or default_id_prefix(diagram)
    picture = layout_diagram(diagram, bodies=options.bodies, appendix_lines=options.appendix_lines)
    check_picture(picture.width, picture.height, fmt, options.scale, options.limits)
    if fmt in ("svg", "html"):
        output = (
            render_svg(picture, diagram, theme=theme, id_prefix=prefix)
            if fmt == "svg"
            else _html_module().render_html(
                diagram,
                picture,
                theme=theme,
                fragment=options.fragment,
                include_assets=options.include_assets,
                id_prefix=prefix,
            )
        )
        check_output(output, fmt, options.limits)
        return output, []
    if fmt == "pdf":
        from volley.output.pdf import MAX_PAGE_PT, page_scale, render_pdf

        pdf = render_pdf(
            picture,
            diagram,
            theme=theme,
            id_prefix=prefix,
            scale=options.scale,
            max_pages=options.limits.pdf_pages,
        )
        drawn_at = page_scale(picture.width, options.scale)
        if drawn_at >= options.scale:
            return pdf, []
        said = (
            f"the PDF is drawn at scale {drawn_at:.3g}, not {options.scale:g}: its pages are at "
            f"most {MAX_PAGE_PT:,} points wide, the most PDF readers open"
        )
        hint = "render SVG or PNG to go larger"
        return pdf, [Diagnostic(said, severity="warning", hint=hint, topic="scale")]
    from volley.output.raster import rasterize

    svg = render_svg(picture, diagram, theme=theme, id_prefix=prefix, raster=True)
    png = rasterize(svg, fmt, width=picture.width, height=picture.height, scale=options.scale)
    return png, []


# --- the calls front ends make -------------------------------------------------------------


def run(text: str, options: Options | None = None, *, filename: str | None = None) -> Result:
    """The whole pipeline for one diagram's text."""
    options = options or Options()
    checked = check(text, filename=filename, limits=options.limits, redact=options.redact)
    return _drawn(checked, options, filename)


def run_file(path: str, options: Options | None = None) -> Result:
    """The whole pipeline for one file (`-` for standard input)."""
    options = options or Options()
    checked = check_file(path, limits=options.limits, redact=options.redact)
    return _drawn(checked, options, source_name(path))


def _drawn(checked: Checked, options: Options, filename: str | None) -> Result:
    output, glyphs = _picture(checked.diagram, options, filename, checked.secrets)
    return Result(checked.diagram, checked.warnings + glyphs, output)


def _picture(
    diagram: Diagram,
    options: Options,
    filename: str | None,
    secrets: DiagramSecrets | None = None,
) -> tuple[str | bytes, list[Diagnostic]]:
    """The picture, and what it cannot show (characters no installed font has); a picture
    refused (too big to paint, past a limit) names the file it was drawn from. `secrets` are
    the diagram's, when its check found them."""
    with _masked(options.redact), _named(filename):
        shown = _as_drawn(diagram, options.redact, secrets)
        output, said = _paint(shown, options)
        said = [replace(note, filename=filename) for note in said]
        return output, said + _glyph_warnings(shown, options, filename)


@contextmanager
def _named(filename: str | None) -> Iterator[None]:
    """A VolleyError about the whole picture, which knows no file, leaves naming `filename`."""
    try:
        yield
    except VolleyError as exc:
        if exc.filename is None and filename is not None:
            exc.filename = filename
        raise


def _glyph_warnings(shown: Diagram, options: Options, filename: str | None) -> list[Diagnostic]:
    """For PNG and PDF, which drawn texts hold characters no installed font has (the SVG and
    the page leave the choice of font to the reader's browser); `shown` is `_as_drawn`."""
    if options.format not in ("png", "pdf"):
        return []
    from volley.layout.typeset import clean_text
    from volley.output.font_fallback import missing_glyph_warnings

    listed = options.bodies == "appendix"  # bodies, and their labels, are drawn under it
    drawn = (
        (line, clean_text(text))  # what XML cannot hold is drawn as U+FFFD
        for drawn_text in shown.all_texts()
        if listed or drawn_text.kind not in ("body", "payload label")
        for line, text in drawn_text.lines()
    )
    return missing_glyph_warnings(drawn, filename)


def masked(diagram: Checked | Diagram, *, redact: bool) -> Diagram:
    """The diagram with its secrets masked under `redact` (else as it is): what a page takes
    a title, an alt text or an id from, so that none of them publishes what the picture
    masks. Hidden characters stay as written (names and ids made from them do not change)."""
    if not redact:
        return diagram.diagram if isinstance(diagram, Checked) else diagram
    from volley.checks.redact import redact_diagram

    if isinstance(diagram, Checked):
        return redact_diagram(diagram.diagram, diagram.secrets)
    return redact_diagram(diagram)


def published_source(text: str, *, redact: bool) -> str:
    """A diagram's text as a page publishes it in place of a picture, or hashes it into ids:
    under `redact`, masked as its picture masks it."""
    if not redact:
        return text
    from volley.checks.secrets import redact_source

    return redact_source(text)


def _as_drawn(diagram: Diagram, redact: bool, secrets: DiagramSecrets | None = None) -> Diagram:
    """The diagram as the picture shows it: secrets masked if asked, and hidden characters
    shown as visible marks (drawn as written: no text reordered or hidden)."""
    from volley.checks.bidi import reveal_diagram

    if redact:
        from volley.checks.redact import redact_diagram

        diagram = redact_diagram(diagram, secrets)
    return reveal_diagram(diagram)


def render(
    source_or_diagram: str | Diagram,
    format: str | None = None,
    *,
    filename: str | None = None,
    options: Options | None = None,
    **names: Any,
) -> str | bytes:
    """Render a diagram: SVG and HTML as str, PNG and PDF as bytes.

    Options are `volley.Options` fields, given one by one (`theme="dark"`, `redact=True`) or
    as `options=`: `format` svg, png, pdf or html; `theme` light, dark or auto (the picture
    follows the reader's colour scheme; the default is auto for HTML, which a reader opens in
    a browser, and light for the files that travel); `bodies` "markers" (a numbered marker on
    each arrow that carries a payload), "appendix" (markers plus the bodies listed under the
    diagram) or "none"; `appendix_lines` caps each body in the appendix at that many lines (the
    default lists every line); `scale` sizes PNG and PDF; `fragment` and `include_assets` shape HTML
    for embedding; `redact` masks values that look like live secrets (tokens, passwords,
    cookies); `id_prefix` prefixes every id (default: derived from the content); `limits`
    bounds the parse. A name volley does not know, or one that does not apply to the format,
    is an error.
    """
    if format is not None:
        names["format"] = format.lower() if isinstance(format, str) else format
    chosen = (options or Options()).updated(**names)
    if isinstance(source_or_diagram, Diagram):
        diagram = source_or_diagram
        check_items(diagram, chosen.limits)  # a text's items are counted as it is read
    elif isinstance(source_or_diagram, str):
        with _masked(chosen.redact, source_or_diagram):
            diagram, _, filename = _parsed(source_or_diagram, filename, chosen.limits)
    else:
        raise TypeError("render() takes .volley source text or a volley.Diagram")
    output, glyphs = _picture(diagram, chosen, filename)
    if glyphs:  # only a PNG or PDF has any, and then the module is loaded
        from volley.output.font_fallback import MissingGlyphWarning

        for warning in glyphs:  # (or a PDF drawn at a lower scale than asked)
            kind = UserWarning if warning.topic == "scale" else MissingGlyphWarning
            warnings.warn(kind(warning.format()), stacklevel=2)
    return output


# --- helpers -------------------------------------------------------------------------------


def layout(source_or_diagram: str | Diagram, *, bodies: str = "markers") -> Layout:
    """The positioned picture, for tools that draw it their own way."""
    from volley.layout.engine import layout_diagram

    diagram = source_or_diagram
    if not isinstance(diagram, Diagram):
        diagram = parse(diagram)
    return layout_diagram(diagram, bodies=Options(bodies=bodies).bodies)


@contextmanager
def _masked(redact: bool, text: str = "") -> Iterator[None]:
    """Under `redact`, a VolleyError leaves with its secrets masked, and those of the `text`
    it is about where it repeats one unnamed (a token a body names, in a line that failed)."""
    if not redact:
        yield
        return
    try:
        yield
    except VolleyError as exc:
        from volley.checks.redact import redact_error
        from volley.checks.secrets import repeated_in

        raise redact_error(exc, repeated_in(text)) from None


def _html_module() -> Any:
    try:
        return importlib.import_module("volley.output.html")
    except ModuleNotFoundError as exc:
        if exc.name != "volley.output.html":
            raise
        raise VolleyError(
            "HTML output is not available in this installation",
            hint="render to svg, png or pdf",
        ) from None
