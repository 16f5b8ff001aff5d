"""Diagrams written for other tools, as `.volley` text a person can edit and commit.

Each importer is a module with two functions:

    detect(text: str) -> int                  how sure it is that `text` is its format:
                                              0 not at all, 100 certain (a header that says so)
    convert(text: str, filename: str | None) -> list[Imported]

`volley import` reads the source, asks every registered importer to `detect` it (`recognise`)
and uses the one most sure (or the one `--from` names). Adding a format is one line at the end
of this file:

    register("har", "volley.importers.har", "an HTTP Archive (.har) from a browser's network tab")

Modules are imported only when used, so the command line stays quick to start.
"""

from __future__ import annotations

import importlib
import os
import re
from dataclasses import dataclass, replace
from types import ModuleType
from typing import TYPE_CHECKING

from volley.errors import Diagnostic, VolleyError, VolleyErrors, counted
from volley.limits import refuse_nul
from volley.textio import MARKDOWN_SUFFIXES

if TYPE_CHECKING:
    from volley.importers.traffic import TrafficOptions

__all__ = [
    "IMPORTERS",
    "Imported",
    "Importer",
    "PartlyImported",
    "Recognised",
    "convert",
    "detect",
    "recognise",
    "register",
]


@dataclass(frozen=True)
class Imported:
    """One diagram read from a source: its `.volley` text, and where it came from."""

    text: str
    name: str | None = None  # a file name stem for it, when the source holds several
    line: int = 1  # the source line it starts on (a Markdown block: the line after its fence)
    # what the user should hear about: a block left open, a Markdown block that was skipped
    warnings: tuple[Diagnostic, ...] = ()
    masked: int = 0  # secret-looking values masked in it (traffic imports mask by default)
    kept: int = 0  # live-looking secrets written as captured (a traffic import told not to mask)


class PartlyImported(VolleyErrors):
    """A source holding several diagrams (a Markdown page) of which some could not be read:
    every error, the diagrams that did read (`imported`), which are still worth writing, and
    how many the source holds in all (`total`; when not given, one more than read)."""

    def __init__(
        self,
        errors: list[VolleyError],
        imported: list[Imported],
        total: int | None = None,
        warnings: list[Diagnostic] | None = None,
    ) -> None:
        super().__init__(errors, warnings)
        self.imported = imported
        self.total = len(imported) + 1 if total is None else total


@dataclass(frozen=True)
class Importer:
    """A registered format: its name for `--from`, its module, and a line for `--help`."""

    name: str
    module: str
    description: str
    traffic: bool = False  # real traffic: its convert takes a TrafficOptions as a third argument
    parts: str = "diagrams"  # what a source of several diagrams holds: a log's are sessions
    suffix: str | None = None  # a file name ending so is this format when its text says nothing

    def load(self) -> ModuleType:
        return importlib.import_module(self.module)


IMPORTERS: dict[str, Importer] = {}


def part_name(filename: str | None, number: int) -> str:
    """The file name stem for the `number`th diagram of a source that holds several:
    `design-2` for design.md, `diagram-2` for standard input."""
    stem = os.path.splitext(os.path.basename(filename))[0] if filename else ""
    return f"{stem if stem and filename != '<stdin>' else 'diagram'}-{number}"


def beside_page(filename: str | None, file: str) -> str:
    """A file a page names (a directive's `.. mermaid:: flow.mmd`), as a path from where
    volley runs: beside the page."""
    folder = os.path.dirname(filename or "")
    return os.path.join(folder, file) if folder and not os.path.isabs(file) else file


def files_of_their_own(
    tool: str, files: list[tuple[int, str]], page: list[str], filename: str | None
) -> VolleyError:
    """The error for a page whose diagrams are all files its directives name (`(line, file)`
    each): each is imported on its own."""
    line, file = files[0]
    shown = page[line - 1]
    return VolleyError(
        f"this page's {tool} diagrams are files of their own, which its directives name: "
        + ", ".join(dict.fromkeys(name for _, name in files)),
        filename=filename,
        line=line,
        column=len(shown) - len(shown.lstrip()) + 1,
        source_line=shown,
        hint="import each on its own: volley import " + beside_page(filename, file),
    )


def file_of_its_own(line: int, file: str, page: list[str], filename: str | None) -> Diagnostic:
    """The warning for a directive, on a page of other diagrams, that draws a file of its own
    (`.. uml:: flow.puml`), at the directive's line."""
    shown = page[line - 1]
    return Diagnostic(
        f"this directive draws {file}, a file of its own, which volley imports on its own "
        f"(volley import {beside_page(filename, file)})",
        filename=filename,
        line=line,
        column=len(shown) - len(shown.lstrip()) + 1,
        source_line=shown,
        severity="warning",
    )


def gathered(
    diagrams: list[Imported],
    failed: list[VolleyError],
    total: int,
    left_out: tuple[Diagnostic, ...] = (),
) -> list[Imported]:
    """What reading a source's `total` diagrams one by one gave: the diagrams (the first
    carrying the warnings for blocks `left_out`), or else every error of the diagrams that
    `failed`, with what their readers found besides (which may explain them), and the
    diagrams that did read when some did (`PartlyImported`, still worth writing)."""
    if left_out and diagrams:
        diagrams[0] = replace(diagrams[0], warnings=(*diagrams[0].warnings, *left_out))
    if not failed:
        return diagrams
    errors = [error for failure in failed for error in failure.errors]
    said = [warning for failure in failed for warning in failure.warnings]
    if diagrams:
        raise PartlyImported(errors, diagrams, total, said)
    raise VolleyErrors(errors, said)


def drawn_differently(tool: str, lines: list[int], filename: str | None) -> tuple[Diagnostic, ...]:
    """One note for the `lines` of another tool's diagram that volley draws otherwise than
    `tool` does, or not at all: each got a // comment in the written text, which the note
    points the user at (none when there are no such lines)."""
    if not lines:
        return ()
    one = len(lines) == 1
    return (
        Diagnostic(
            f"{counted(len(lines), 'line', 'lines')} ({', '.join(map(str, lines))}) "
            f"{'is' if one else 'are'} drawn otherwise than {tool} draws "
            f"{'it' if one else 'them'}, or not at all; a // comment in the written text says how",
            filename=filename,
            line=lines[0],
            severity="note",
        ),
    )


def import_hint(link: str | None, name: str | None) -> tuple[str, str]:
    """The command that writes a diagram out as volley text (another tool's diagram, or the one
    a link carries), and the file it writes: `volley import` of the file that holds it, into
    a `.volley` file of its name (`flow.mmd` into `flow.volley`); of stdin (`-`); or of the
    link itself when it was given on the command line (`<link>`). The file goes beside the
    one read (`docs/flow.mmd` into `docs/flow.volley`)."""
    import shlex  # here: only a diagram written for another tool needs it

    if link is not None and name in (None, "<link>"):
        given, out = repr(link.strip()), "diagram.volley"
    elif name in (None, "<stdin>"):
        given, out = "FILE" if name is None else "-", "diagram.volley"
    elif name.lower().endswith(MARKDOWN_SUFFIXES):  # a block of a page: its text, given alone
        out = os.path.join(os.path.dirname(name), "diagram.volley")
        return f"volley import - -o {shlex.quote(out)} (the block's text on its input)", out
    else:  # beside the file, never over it (a Mermaid diagram saved as flow.volley)
        stem = os.path.splitext(name)[0]
        out = stem + (".volley" if stem + ".volley" != name else ".imported.volley")
        given = shlex.quote(name)
    return f"volley import {given} -o {shlex.quote(out)}", out


def register(
    name: str,
    module: str,
    description: str,
    traffic: bool = False,
    parts: str = "diagrams",
    suffix: str | None = None,
) -> None:
    """Make a format known to `volley import` (and `--from NAME`)."""
    IMPORTERS[name] = Importer(name, module, description, traffic, parts, suffix)


# Formats whose diagrams a page of prose holds as blocks (```mermaid, ```plantuml), and what
# their `detect` says of such a page: a page may hold blocks of more than one.
PAGE_FORMATS = ("mermaid", "plantuml", "swimlanes")
ON_A_PAGE = 90


@dataclass(frozen=True)
class Recognised:
    """What the importers say of one text, each asked once: the format most sure of it (None
    if none recognises it), and the formats a page of prose holds blocks of, which may be
    several (```mermaid and ```plantuml on one page)."""

    best: Importer | None
    on_page: tuple[Importer, ...] = ()


def recognise(text: str) -> Recognised:
    """Ask every registered importer how sure it is that `text` is its format (a byte order
    mark before it says nothing about that)."""
    text = text.removeprefix("\ufeff")
    scores = {name: importer.load().detect(text) for name, importer in IMPORTERS.items()}
    best = max(scores, key=scores.__getitem__, default=None)  # the first of equals
    on_page = tuple(IMPORTERS[n] for n in PAGE_FORMATS if scores.get(n) == ON_A_PAGE)
    return Recognised(IMPORTERS[best] if best and scores[best] > 0 else None, on_page)


def detect(text: str) -> Importer | None:
    """The importer most sure that `text` is its format; None if none recognises it."""
    return recognise(text).best


def _by_suffix(filename: str | None) -> Importer | None:
    """The importer a file's name says, for a text no importer recognises: a `.har` cut short
    is told as a HAR whose JSON does not parse, where it stops."""
    name = (filename or "").lower()
    return next((i for i in IMPORTERS.values() if i.suffix and name.endswith(i.suffix)), None)


# How JSON text starts: an object's first key (or its end; a quote of either kind, as a
# program's dump of a dict has it), or an array's first value, or the file ends there. A page
# that starts `[![badge](…)]` or an INI file's `[section]` does not.
_JSON_START = re.compile(
    r'[\ufeff \t\r\n]*(?:\{\s*(?:["\'}]|$)|\[\s*(?:[\[{"\]\d-]|true\b|false\b|null\b|$))'
)
_JSON_SUFFIXES = (".json", ".jsonl", ".ndjson", ".har")


# A sequence diagram's first line, in Mermaid or PlantUML
_DIAGRAM_HEADER = re.compile(r"[ \t]*(sequenceDiagram|@startuml)\b")
_QUOTED = re.compile(r"^[ \t]{0,3}(?:>[ \t]?)+")  # a quote's marks, before its lines' text


def _json_seen(text: str) -> str:
    """What JSON that is none of the known formats holds, for its error: its top-level keys
    (the first few), that it is a list, empty or one value; nothing for text that is not
    JSON."""
    import json  # here: only a file no importer knows needs it

    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        return ""
    if isinstance(data, dict) and data:
        keys = ", ".join(json.dumps(key, ensure_ascii=False) for key in list(data)[:6])
        return f": a JSON object whose keys are {keys}{', …' if len(data) > 6 else ''}"
    if isinstance(data, list):
        return f": a JSON list of {len(data)} item{'' if len(data) == 1 else 's'}"
    return ": an empty JSON object" if isinstance(data, dict) else ": a JSON value alone"


def _shown_as_code(text: str, filename: str | None) -> VolleyError | None:
    """For a page no importer recognises whose sequence diagram stands in a code block of
    another kind (```text, as a wiki shows one; a ````markdown block that shows how to write
    a ```mermaid one): where it is, which says more than that the format is unknown."""
    from volley.text.fences import closes, fence_open

    opened: tuple[int, str, str] | None = None  # the block's line, its fence and its info
    for number, written in enumerate(text.split("\n"), 1):
        line = _QUOTED.sub("", written, count=1)  # a block in a quote is one too
        if opened is not None and closes(line, opened[1]):
            opened = None
        elif opened is None and (opening := fence_open(line)) is not None:
            opened = (number, opening.fence, opening.info.strip())
        elif opened is not None and (header := _DIAGRAM_HEADER.match(line)) is not None:
            what = "Mermaid" if header[1] == "sequenceDiagram" else "PlantUML"
            return VolleyError(
                f"the {what} diagram here is shown as code, in the {opened[1]}{opened[2]} "
                f"block that opens on line {opened[0]}: the page draws it as text, and import "
                "reads none",
                filename=filename,
                line=number,
                column=len(written) - len(line) + header.start(1) + 1,
                source_line=written,
                hint="to import it, save the diagram's lines in a file of their own and import "
                "that",
            )
    return None


def _json_stops(text: str, filename: str | None, hint: str) -> VolleyError | None:
    """For a text no importer recognises that is JSON by its name or its start (a capture or
    a trace cut short, a stray character in one): where its JSON stops parsing, which says
    more than that its format is unknown."""
    import json

    from volley.importers.labels import json_documents, json_error

    named = filename is not None and filename.lower().endswith(_JSON_SUFFIXES)
    if not named and not _JSON_START.match(text):
        return None
    try:
        json_documents(text.removeprefix("\ufeff"))
    except json.JSONDecodeError as error:
        return json_error(error, text.removeprefix("\ufeff"), filename, None, hint)
    return None


def convert(
    text: str,
    filename: str | None = None,
    source: str | None = None,
    options: TrafficOptions | None = None,
    recognised: Recognised | None = None,
) -> list[Imported]:
    """`text` as `.volley` diagrams, by the importer `source` names or the one the importers
    recognise (`recognised`, when the caller has asked them already).

    `options` reach the importers of real traffic (HAR, traces, JSON-RPC); the others take none.
    """
    on_page: tuple[Importer, ...] = ()
    if source is not None:
        importer = IMPORTERS[source]
    else:
        recognised = recognised or recognise(text)
        found = recognised.best or _by_suffix(filename)
        if found is None:
            if not text.strip("\ufeff \t\r\n"):
                raise VolleyError(
                    "the file is empty: there is nothing to import", filename=filename
                )
            as_plantuml = _plantuml_without_start(text, filename)  # not even volley's
            if as_plantuml is not None:
                return as_plantuml
            from volley.importers.collector_text import not_spans

            read_as_json = ", ".join(name for name, known in IMPORTERS.items() if known.traffic)
            seen = _json_seen(text)
            hint = (
                f"if it is a capture or a trace, name its format with --from ({read_as_json})"
                if seen
                else f"name it with --from (one of: {', '.join(IMPORTERS)})"
            )
            mend = (  # no --from reads JSON that stops parsing
                "mend the JSON there: volley then tells which capture or trace it is (--from "
                f"names one: {read_as_json})"
            )
            raise (
                not_spans(text, filename)
                or _json_stops(text, filename, mend)
                or _shown_as_code(text, filename)
                or VolleyError(
                    f"cannot tell what format this is{seen}", filename=filename, hint=hint
                )
            )
        importer, on_page = found, recognised.on_page
    if not importer.traffic:  # another tool's diagram: text, as a .volley file is
        refuse_nul(text, filename)
        if len(on_page) > 1:
            return _from_page(text, filename, on_page)
        try:
            return importer.load().convert(text, filename)
        except VolleyError as exc:
            # recognised as this language only for want of another: PlantUML without its
            # `@startuml` may read as that (not when --from named the format)
            guessed = source is None and importer.name == "swimlanes"
            read = _plantuml_without_start(text, filename, exc) if guessed else None
            if read is None:
                raise
            return read
    if options is not None:  # the --name keys this import uses, counted afresh
        options = replace(options, renamed=set())
    try:
        found = importer.load().convert(text, filename, options)
    except (AttributeError, TypeError, KeyError, IndexError, ValueError, OverflowError) as exc:
        # A capture is JSON written by another program: a member of an unexpected type (a
        # number where an object belongs) is the file's fault, said as such, not a traceback.
        if isinstance(exc, VolleyError):
            raise
        raise VolleyError(
            f"cannot read this as {importer.description.split(' (')[0]}: a member has a type "
            f"the format does not give it ({type(exc).__name__}: {exc})",
            filename=filename,
            hint="check that the file is what it says it is, or name its format with --from",
        ) from None
    unused = options.unused_renames(filename) if options is not None and found else []
    if unused:
        found[0] = replace(found[0], warnings=(*found[0].warnings, *unused))
    return found


def _plantuml_without_start(
    text: str, filename: str | None, as_volley: VolleyError | None = None
) -> list[Imported] | None:
    """PlantUML's statements without their `@startuml` (as a Sphinx `.. uml::` directive or a
    docstring holds them, which their renderer wraps): read as PlantUML, and said so, where
    they are a diagram's source (up to a megabyte, a message in them: not a log) that reads
    as that, and, where they were read as this language's first (`as_volley`, its errors),
    its errors name PlantUML's habits (`autoactivate`, `return`, `note right` … `end note`):
    a diagram of this language with a mistake in it is not taken for PlantUML."""
    from volley.importers import plantuml

    if len(text) > _GUESSED_PLANTUML_SIZE or not plantuml.draws_a_message(text):
        return None
    said_as_volley = _errors_of(as_volley)
    habits = (f"{error.message} {error.hint}" for error in said_as_volley)
    if as_volley is not None and not any(_PLANTUML_HABIT in said for said in habits):
        return None
    try:
        found = plantuml.convert(text, filename)
    except VolleyError:
        return None
    first = said_as_volley[0] if said_as_volley else None
    said = Diagnostic(
        "read as PlantUML: it has no @startuml line, but reads as PlantUML, not as a "
        "swimlanes.io or volley diagram"
        + (f" (as one, line {first.line}: {first.message})" if first and first.line else ""),
        filename,
        severity="note",
    )
    return [replace(item, warnings=(said, *item.warnings)) for item in found]


# A diagram's source written by hand, which PlantUML's statements without `@startuml` are,
# is far smaller: a larger text no importer recognises is not read through as PlantUML's
_GUESSED_PLANTUML_SIZE = 1_000_000
_PLANTUML_HABIT = "PlantUML"  # how the parser's errors name a habit of PlantUML's


def _errors_of(error: VolleyError | None) -> list[VolleyError]:
    if error is None:
        return []
    return list(error.errors) if isinstance(error, VolleyErrors) else [error]


def _from_page(text: str, filename: str | None, importers: tuple[Importer, ...]) -> list[Imported]:
    """Every diagram of a page that holds blocks of several formats, each read by its own
    importer, in the order of the page and named for its place there (`design-1`,
    `design-2` …), a diagram that could not be read keeping its number."""
    diagrams: list[Imported] = []
    failed: list[VolleyError] = []
    starts: set[int] = set()
    for importer in importers:
        module = importer.load()
        starts.update(module.diagram_lines(text, filename))
        try:
            diagrams += module.convert(text, filename)
        except PartlyImported as exc:
            diagrams += exc.imported
            failed.append(exc)
        except VolleyErrors as exc:
            failed.append(exc)
    order = sorted(starts)
    named = sorted(
        (replace(d, name=part_name(filename, order.index(d.line) + 1)) for d in diagrams),
        key=lambda diagram: diagram.line,
    )
    return gathered(named, failed, len(order))


register(
    "mermaid",
    "volley.importers.mermaid",
    "a Mermaid sequenceDiagram (.mmd), or every ```mermaid block of a Markdown file",
)
register(
    "plantuml",
    "volley.importers.plantuml",
    "a PlantUML sequence diagram (.puml, @startuml … @enduml), or every ```plantuml block of "
    "a Markdown file",
)
register(
    "swimlanes",
    "volley.importers.swimlanes",
    "a swimlanes.io share link (https://swimlanes.io/#...), a saved swimlanes.io text file, "
    "or every ```swimlanes-io block of a Markdown file",
)
register(
    "har",
    "volley.importers.har",
    "an HTTP Archive (.har) saved from a browser's DevTools, mitmproxy, Charles or Insomnia",
    traffic=True,
    suffix=".har",
)
register(
    "trace",
    "volley.importers.trace",
    "a trace as OpenTelemetry OTLP/JSON (or the collector's debug output), Jaeger JSON, Zipkin "
    "JSON or AWS X-Ray segments (a lane per service)",
    traffic=True,
)
register(
    "jsonrpc",
    "volley.importers.jsonrpc",
    "a JSON-RPC log: an MCP host's log (Claude Desktop's, VS Code's Output channel), JSON "
    "Lines of messages, VS Code's LSP trace, Neovim's lsp.log, vim-lsp's log, an editor's or "
    "language server's own log, or a Content-Length framed LSP capture",
    traffic=True,
    parts="sessions",  # a restarted server adds a session to its log
)
