"""Diagrams in Jupyter notebooks: the clickable viewer as a cell's output.

    %load_ext volley.docs.jupyter

    %%volley --theme dark
    Browser -> API: POST /login
    API --> Browser: 200 OK

After `%load_ext`, a `%%volley` cell draws its text, and a `volley.Diagram` (what
`volley.parse` returns) displays itself as the diagram wherever IPython shows a value.
Without the extension, `show(text)` returns the same displayable object.

Each output carries two pictures: `text/html`, the clickable viewer with its own stylesheet
and script (a notebook's outputs are seen one by one, saved, reordered, so each brings what it
needs; the script sets itself up once per page), and `image/svg+xml`, the static picture, for
front ends that show no HTML or run no script (nbconvert to PDF, some viewers). A mistake in a
`%%volley` cell is an error that shows the line and caret, with no Python traceback.
"""

from __future__ import annotations

import shlex
import sys
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from volley import api
from volley.errors import Diagnostic, VolleyError
from volley.model import Diagram
from volley.options import BODIES, THEMES, OptionError, Options, require_known

__all__ = ["NotebookDiagram", "load_ipython_extension", "show"]


# How many times this kernel has shown each unnamed diagram's viewer, by its content's prefix
_SHOWN: dict[str, int] = {}


@dataclass(frozen=True, repr=False)
class NotebookDiagram:
    """A diagram and how to draw it, displayed by IPython through its `_repr_*_` methods."""

    diagram: Diagram
    theme: str | None = None  # None: auto in the viewer (follows the reader), light in the SVG
    bodies: str = "markers"
    redact: bool = False
    name: str | None = None  # id prefix, for deep links (#NAME-message-2)
    warnings: list[Diagnostic] = field(default_factory=list, compare=False)
    appendix_lines: int | None = field(default=None, kw_only=True)  # bodies="appendix": a cap

    def __post_init__(self) -> None:
        self._options("svg")  # refuse a bad option now, not at display

    def __repr__(self) -> str:
        """What a console without pictures shows: which diagram this is, not its whole model."""
        written = api.masked(self.diagram, redact=self.redact).title
        title = f" {written!r}" if written else ""  # a notebook keeps it beside the picture
        count = len(self.diagram.messages())
        return f"<volley diagram{title}: {count} message{'s' if count != 1 else ''}>"

    def _options(self, fmt: str, *, fragment: bool = False, prefix: str | None = None) -> Options:
        return Options(
            format=fmt,
            fragment=fragment,
            theme=self.theme,
            bodies=self.bodies,
            appendix_lines=self.appendix_lines,
            redact=self.redact,
            id_prefix=prefix or self.name,
        )

    def _repr_html_(self) -> str:
        """The clickable viewer; a diagram with no name shown again in this kernel (in another
        cell, or the same one run again) takes `-2`, `-3` … after its ids, which a page of
        the notebook's outputs would otherwise hold twice (a deep link opened the first)."""
        prefix = None if self.name is not None else _once(self._content_prefix)
        options = self._options("html", fragment=True, prefix=prefix)
        return str(api.render(self.diagram, options=options))

    def _repr_svg_(self) -> str:
        """The still picture, for front ends that show no HTML: its ids apart from the
        viewer's beside it (`…-still`), and numbered as the viewer's are when shown again."""
        prefix = _once(f"{self.name or self._content_prefix}-still")
        return str(api.render(self.diagram, options=self._options("svg", prefix=prefix)))

    @cached_property
    def _content_prefix(self) -> str:
        """The ids the diagram's content gives it: worked out once for both pictures."""
        return api.default_id_prefix(api.masked(self.diagram, redact=self.redact))


def _once(prefix: str) -> str:
    """`prefix` the first time this kernel shows it, then `prefix-2`, `prefix-3` …"""
    _SHOWN[prefix] = _SHOWN.get(prefix, 0) + 1
    return prefix if _SHOWN[prefix] == 1 else f"{prefix}-{_SHOWN[prefix]}"


def show(
    source: str | Diagram,
    *,
    theme: str | None = None,
    bodies: str = "markers",
    appendix_lines: int | None = None,
    redact: bool = False,
    name: str | None = None,
    filename: str | None = None,
) -> NotebookDiagram:
    """The diagram of `source` (volley text or a parsed Diagram), to display in a notebook.

    `appendix_lines` caps each body listed under the picture (with `bodies="appendix"`).

    Its warnings (an unknown icon, a value that looks like a secret) are printed to stderr,
    which a notebook shows under the cell; notes (a secret masked, as asked) to stdout, which
    it shows as plain output, not as a problem; a mistake in the text raises a VolleyError.
    """
    if isinstance(source, Diagram):
        diagram, warnings = source, []
    else:
        checked = api.check(source, filename=filename, redact=redact)
        diagram, warnings = checked.diagram, checked.warnings
    for warning in warnings:
        print(warning.format(), file=sys.stdout if warning.severity == "note" else sys.stderr)
    return NotebookDiagram(
        diagram, theme, bodies, redact, name, warnings, appendix_lines=appendix_lines
    )


# The `%%volley` line's options, as its parser below takes them
MAGIC_FLAGS = ("--appendix-lines", "--bodies", "--name", "--redact", "--theme")


def load_ipython_extension(ipython: Any) -> None:
    """`%load_ext volley.docs.jupyter`: the `%%volley` cell magic, and Diagrams that display
    themselves."""
    from IPython.core.error import UsageError
    from IPython.core.magic_arguments import argument, magic_arguments

    from volley.docs.fences import spelled

    @magic_arguments()
    @argument("--theme", choices=THEMES, help="default: follow the reader")
    @argument("--bodies", choices=BODIES, default=BODIES[0])
    @argument(
        "--appendix-lines",
        type=int,
        metavar="N",
        help="with --bodies appendix: at most N lines of each body; default: every line",
    )
    @argument("--redact", action="store_true", help="mask values that look like secrets")
    @argument("--name", help="id prefix of the diagram's deep links (#NAME-message-2)")
    def volley(line: str, cell: str) -> NotebookDiagram:
        """Draw the cell's volley text as a clickable sequence diagram."""
        try:  # quoted as a shell quotes (`--name "Login flow"`), which IPython's split keeps
            words = shlex.split(line)
        except ValueError as exc:  # `--name "login`
            raise UsageError(f"%%volley {line.strip()}: {exc}") from None
        args, unknown = volley.parser.parse_known_args(words)
        if unknown:  # a misspelt --redact must not draw unmasked: said with what was meant
            try:
                flags = [word.partition("=")[0] for word in unknown if word.startswith("-")]
                require_known(flags, MAGIC_FLAGS, " on the %%volley line")
            except OptionError as exc:
                raise UsageError(f"{exc.message} ({exc.hint})") from None
            raise UsageError(f"%%volley: unrecognized arguments: {' '.join(unknown)}")
        try:
            return show(
                "\n" + cell,  # its lines counted as the cell's: the %%volley line is line 1
                theme=args.theme,
                bodies=args.bodies,
                appendix_lines=args.appendix_lines,
                redact=args.redact,
                name=args.name,
                filename="cell",
            )
        except OptionError as exc:  # named as the cell's line spells it
            flag = "--" + exc.option.replace("_", "-")
            raise UsageError(spelled(exc, flag, with_hint=True)) from None
        except VolleyError as exc:  # the user's mistake: the place and a caret, no traceback
            raise UsageError(exc.format()) from None

    ipython.register_magic_function(volley, "cell", "volley")
    formatters = ipython.display_formatter.formatters
    formatters["text/html"].for_type(Diagram, lambda d: NotebookDiagram(d)._repr_html_())
    formatters["image/svg+xml"].for_type(Diagram, lambda d: NotebookDiagram(d)._repr_svg_())
    # and the text a notebook keeps beside them: which diagram, not its whole model
    formatters["text/plain"].for_type(
        Diagram, lambda d, printer, _cycle: printer.text(repr(NotebookDiagram(d)))
    )
