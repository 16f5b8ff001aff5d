"""Words an importer writes into a diagram: labels, lane names, cut bodies, read errors.

Imported text is data, not volley markup: a URL path such as `/a/_draft_/b` or a span name
with `*` must show as it is, so a label whose text the inline markup would change is written
with backslash escapes. A lane name cannot hold `:` or `,` (they end a name in the language),
nor run past one line.
"""

from __future__ import annotations

import json
import re
import unicodedata
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any
from urllib.parse import SplitResult, urlsplit

from volley.errors import VolleyError, escaped, json_reason
from volley.language.parser import parse
from volley.model import Diagram
from volley.rewrite import Rewrites, rewrite_diagram
from volley.text.inline import LINE_BREAK_TAG, escape_markup, plain_text
from volley.text.payload_tables import cut_note

__all__ = [
    "apart_by_case",
    "create_not_followed",
    "cut_body",
    "is_volley_label",
    "volley_label",
    "is_volley_name",
    "note_line",
    "note_text",
    "holds_controls",
    "json_error",
    "label",
    "lane_name",
    "Lanes",
    "named_lane",
    "pretty_json",
    "visible_controls",
]

LABEL_CHARS = 100  # a label longer than this is cut with "…": the payload holds the rest
_LINE_BREAKS = re.compile(r"[\r\n\t\x0b\x0c\x85\u2028\u2029]+")
# Control characters a capture may hold (a NUL status text): written as their escapes, which a
# diagram can hold and the picture shows, as it shows them in any label.
_CONTROLS = re.compile(r"[\x00-\x08\x0e-\x1f\x7f-\x84\x86-\x9f]")


def visible_controls(text: str) -> str:
    """The text with each control character written as its escape (`\u001b`): a capture's
    body may hold terminal escapes, which must not reach a terminal when the diagram is
    printed, nor hide in the file."""
    return _CONTROLS.sub(lambda m: escaped(m.group()), text)


def holds_controls(text: str) -> bool:
    """Whether text holds control characters: binary data read as text, or terminal escapes."""
    return _CONTROLS.search(text) is not None


def _one_line(text: str) -> str:
    """The text on one line, its control characters visible, its runs of spaces one."""
    return " ".join(visible_controls(_LINE_BREAKS.sub(" ", text)).split())


def label(text: str, limit: int = LABEL_CHARS) -> str:
    """One line of plain text as a message label that shows exactly that text."""
    text = visible_controls(_LINE_BREAKS.sub(" ", text)).strip()
    if len(text) > limit:
        text = text[: limit - 1].rstrip() + "…"
    if plain_text(text) == text and "\\" not in text:
        return text
    return escape_markup(text)


# Arrows compose from heads (`<`, `>`, `x`) and shafts (`-`, `=`), so a name such as
# `service-x` (a lost arrow `-x` after `service`) or `x-ray` after a space cannot be written as
# it is; the shaft is drawn with a look-alike that is not an arrow (U+2011, U+FF1D).
_ARROW_LIKE = re.compile(r"[-=]+(?=[xX](?:\s|$))|(?:^|(?<=\s))[xX][-=]+")
_LOOK_ALIKE = str.maketrans({"-": "\u2011", "=": "\uff1d", "<": "\u2039", ">": "\u203a"})
# An arrow sign in a name (`a→b`) reads as a second arrow written by mistake, so it is drawn
# with an open-headed or long arrow that the parser takes for a letter.
_ARROW_SIGN_LOOK_ALIKE = str.maketrans(
    {"\u2192": "\u21fe", "\u27f6": "\u21fe", "\u2190": "\u21fd", "\u21d2": "\u27f9"}
)


def lane_name(text: str) -> str:
    """A participant name for a host or service that reads back as that one name.

    `:` and `,` (which end a name) become spaces; `<` and `>`, and a `-` or `=` that would
    make an arrow with an `x` beside it, become look-alikes that are not operators, as does a
    `;` at the end. A name
    that still would not read back as itself where an importer writes it (one that starts
    with `-`, `+` or `|`, a service called `over db` in a note) gets look-alikes for its first
    character, then no-break spaces, so the lane keeps the name the capture gave it.
    """
    text = unicodedata.normalize("NFC", text)  # as the parser reads a name
    name = visible_controls(_LINE_BREAKS.sub(" ", text)).replace(":", " ").replace(",", " ")
    # a byte-order mark is no letter; first in a file, the parser leaves it out
    name = " ".join(name.replace("\ufeff", " ").split()) or "(unnamed)"
    name = _ARROW_LIKE.sub(lambda m: m.group().translate(_LOOK_ALIKE), name)
    name = name.translate(_LOOK_ALIKE) if "<" in name or ">" in name else name
    name = name.translate(_ARROW_SIGN_LOOK_ALIKE)
    if len(name) > 1 and name.endswith(";"):  # Mermaid's end of a statement, in volley's view
        name = name[:-1] + "\uff1b"  # a fullwidth semicolon
    candidates = (name, _LEADING_LOOK_ALIKE.get(name[0], name[0]) + name[1:])
    for candidate in (*candidates, *(c.replace(" ", "\u00a0") for c in candidates)):
        if _reads_back(candidate):
            return candidate
    # A keyword that no look-alike hides (a service called `note`: `note -> B: x` is a note)
    # takes a suffix; `named_lane` shows the name as sent in its box.
    if _reads_back(name + _KEYWORD_LANE):
        return name + _KEYWORD_LANE
    raise AssertionError(f"no way to write the lane name {text!r}")  # pragma: no cover


def named_lane(text: str, chosen: str | None, labels: dict[str, str]) -> str:
    """The lane of a host or service: the name the user chose for it, else one made from
    `text`. A colon ends a name, so a lane named after a host and its port (`127.0.0.1:8000`)
    has a space there, and `labels` gets what its box shows instead, colon and all."""
    name = lane_name(chosen or text)
    if not chosen and ":" in text:
        labels[name] = ":".join(lane_name(part) if part else "" for part in text.split(":"))
    elif (_LOOK_ALIKES.intersection(name) or name.endswith(_KEYWORD_LANE)) and name != _one_line(
        chosen or text
    ):
        # `service-x` is written `service‑x` (no arrow), and its box shows the name as sent,
        # which a reader can search for and type (a lane's label is drawn as written)
        shown = _one_line(chosen or text)
        if _reads_back(name, shown):  # `a x-> b` would read as a message after `as`
            labels[name] = shown
    return name


# A name cannot start with a shaft, a head or an activation mark; these look the same.
# A first `|` would read as a table's row: U+01C0 is a bar as wide. A name in quotes
# (`"end"`) reads as PlantUML's quoted name: its first quote becomes a typographic one.
_LEADING_LOOK_ALIKE = {
    "-": "\u2011", "=": "\uff1d", "+": "\uff0b", ">": "\u203a", "|": "\u01c0", '"': "\u201c",
    "'": "\u2018",
}  # fmt: skip
_KEYWORD_LANE = "_lane"
_LOOK_ALIKES = frozenset("\u2011\uff1d\u2039\u203a\uff0b\u01c0\u201c\u2018\u21fe\u21fd\u27f9")


def _reads_back(name: str, shown: str = "x") -> bool:
    """Whether `name` reads as that one participant in each place an importer writes it:
    a lane's declaration with its label `shown`, messages with activation marks, a note, an
    activation."""
    try:
        diagram = parse(
            f"participant {name} as {shown}\n{name} ->+ {name}: x\nnote {name}: x\n"
            f"{name} -->- {name}: x\nactivate {name}\n"
        )
    except VolleyError:
        return False
    return diagram.participants == [name] and diagram.shown(name) == shown


def cut_body(body: str, limit: int) -> str:
    """The body, or its first `limit` characters (at a line end when one is near, else between
    two words, never inside one) and a line saying how much was cut, so a reader knows the
    raw view is not the whole message. A token cut in two would be masked by no rule that
    knows its shape or length, and most of it would be shown."""
    if limit <= 0 or len(body) <= limit:
        return body
    end = body.rfind("\n", limit // 2, limit)
    if end <= 0:
        gap = _BETWEEN_WORDS.search(body[limit // 2 : limit][::-1])
        end = limit - gap.start() if gap else limit
    cut = len(body) - end
    return f"{body[:end]}\n{cut_note(cut, len(body))}"


_BETWEEN_WORDS = re.compile(r"[\s,;&{}\[\]\"'<>()=]")  # where a token cannot go on


def pretty_json(text: str) -> str | None:
    """JSON text indented two spaces a level (one value a line), or None when it is not JSON.

    Captures carry JSON on one line; indented it reads in the raw view and diffs line by line.
    """
    try:
        value = json.loads(text)
    except (ValueError, RecursionError):
        return None
    if not isinstance(value, (dict, list)):
        return None
    return json.dumps(value, indent=2, ensure_ascii=False)


def json_error(
    error: json.JSONDecodeError,
    text: str,
    filename: str | None,
    what: str | None,
    hint: str | None = None,
) -> VolleyError:
    """A file that should be JSON and is not: the place, the line and the parser's words;
    `what` it should have been, when that is known."""
    lines = text.split("\n")
    source = lines[error.lineno - 1] if 0 < error.lineno <= len(lines) else None
    said = f"this is not a {what}: the JSON" if what else "the JSON of this file"
    # the text ends where a value was still open (a string runs on to its end)
    if error.pos > 0 and (not text[error.pos :].strip() or error.msg.startswith("Unterminated")):
        said += " stops unfinished at the end of the file"
        hint = "the file was cut short: save or export it again"
    else:
        said += " does not parse"
    return VolleyError(
        f"{said} ({json_reason(error.msg)})",
        filename=filename,
        line=error.lineno,
        column=error.colno,
        source_line=source,  # a one-line capture's is shown around the place
        hint=hint,
    )


def json_documents(text: str) -> list[Any]:
    """The JSON documents of a text: one, or several one after another, each on a line of its
    own (JSON Lines) or indented over several; json.JSONDecodeError where one stops parsing
    (an empty text included)."""
    decoder = json.JSONDecoder()
    documents = []
    at = _after_space(text, 0)
    while True:
        document, at = decoder.raw_decode(text, at)
        documents.append(document)
        at = _after_space(text, at)
        if at == len(text):
            return documents


def _after_space(text: str, at: int) -> int:
    """Where the text goes on after the spaces JSON allows between values, from `at`."""
    found = _JSON_SPACE.match(text, at)
    return found.end() if found else at


_JSON_SPACE = re.compile(r"[ \t\n\r]*")


def rpc_request_label(message: dict) -> str:
    """`tools/call get_forecast`, `resources/read ably://…`: the method and what it names."""
    method = str(message.get("method"))
    params = message.get("params")
    subject = (params.get("name") or params.get("uri")) if isinstance(params, dict) else None
    return label(f"{method} {subject}" if isinstance(subject, str) and subject else method)


def rpc_response_label(message: dict) -> str:
    """`result`, or `**error** -32601: Method not found` for a JSON-RPC response."""
    error = message.get("error")
    if isinstance(error, dict):
        code = error.get("code")
        text = str(error.get("message") or "")
        return (
            "**error**"
            + (f" {label(str(code))}" if code is not None else "")
            + (f": {label(text)}" if text else "")
        )
    result = message.get("result")
    if isinstance(result, dict) and result.get("isError") is True:
        return "**error** result (isError)"
    return "result"


@lru_cache(maxsize=1024)  # bounded: the names come from users
def is_volley_name(text: str) -> bool:
    """Whether volley reads `text` back as this same participant name, on either side of an
    arrow (asked of the parser itself, which knows every rule a name follows)."""
    try:
        message = parse(f"{text} -> {text}").messages()
    except VolleyError:
        return False
    return len(message) == 1 and message[0].sender == message[0].receiver == text


@lru_cache(maxsize=1024)  # bounded: the labels come from users
def is_volley_label(label: str) -> bool:
    """Whether volley reads `participant A as LABEL` back with this same label (asked of the
    parser: an arrow in a label, `B -> C`, would make the line a message)."""
    try:
        diagram = parse(f"participant A as {label}")
    except VolleyError:
        return False
    return diagram.labels == {"A": label} and not diagram.messages()


def volley_label(label: str) -> str | None:
    """`label` as a lane's label that volley reads back: itself, or with the characters that
    would make an arrow (`BPN -> EDC`) drawn as look-alikes that are none; None when neither
    reads back."""
    if is_volley_label(label):
        return label
    # the line breaks (`<br>`, every other piece) kept as they are: only the words take them
    pieces = re.split(f"({LINE_BREAK_TAG.pattern})", label, flags=LINE_BREAK_TAG.flags)
    alike = "".join(p if i % 2 else p.translate(_LOOK_ALIKE) for i, p in enumerate(pieces))
    return alike if is_volley_label(alike) else None


@dataclass
class Lanes:
    """The volley name of each participant another tool's diagram names, in the order met:
    the name itself where volley reads it back, else one `lane_name` makes of it (`api:8080`
    is written `api 8080`), whose box is to show the name as written. No two names written
    differently share a lane."""

    names: dict[str, str] = field(default_factory=dict)  # as written: volley's name

    def name(self, written: str) -> tuple[str, bool]:
        """The volley name of `written`, and whether it is new to the diagram."""
        if written in self.names:
            return self.names[written], False
        taken = set(self.names.values())
        base = written if is_volley_name(written) else lane_name(written)
        name, count = base, 2
        while name in taken:  # `api 8080` written as it is after `api:8080` took that lane
            name, count = f"{base} {count}", count + 1
        self.names[written] = name
        return name, True

    def last(self, written: str) -> str:
        """Move the participant named `written` after every other; its volley name."""
        name = self.names[written] = self.names.pop(written)
        return name

    def order(self) -> list[str]:
        return list(self.names.values())


def note_text(lines: list[str], written: bool = False) -> str:
    """A note's plain lines, each as `note_line` writes it; where volley would read a table in
    them (a line of pipes and dashes under one with pipes), every pipe is escaped, as the tool
    that drew them as text shows them. Lines already `written` as volley markup (the lists and
    tables of PlantUML's Creole) are kept as they are."""
    from volley.text.inline import Table, parse_note

    while lines and not lines[0].strip():  # `Note over A: <br/>text`: volley's note has no
        lines = lines[1:]  # empty first line (nor last), and is written without one
    if written:
        return _hard_breaks(lines)
    shown = [note_line(line) for line in lines]
    if any(isinstance(block, Table) for block in parse_note("\n".join(shown))):
        shown = [line.replace("|", "\\|") for line in shown]
    # the other tools break a note's lines where they are written; volley's run on, as
    # Markdown's do: a paragraph's lines are joined with `<br>`, as Mermaid writes them
    paragraphs: list[list[str]] = [[]]
    for line in shown:
        if line.strip():
            paragraphs[-1].append(line)
        elif paragraphs[-1]:
            paragraphs.append([])
    return "\n\n".join("<br>".join(lines) for lines in paragraphs if lines)


def _hard_breaks(lines: list[str]) -> str:
    """Lines of volley markup, each line of words a line of its own, as the other tool drew
    it: two such lines are joined with `<br>` (volley's note runs them on, as Markdown does),
    while list items, table rows, headings' lines, code blocks and blank lines stay apart."""
    joined: list[str] = []
    fenced = False
    words_before = False  # the line above is a line of words, which this one would join
    for line in lines:
        mark = line.lstrip()
        words = not fenced and bool(mark) and _STRUCTURE.match(mark) is None
        if words and words_before:
            joined[-1] += "<br>" + mark
        else:
            joined.append(line)
        if mark.startswith(("```", "~~~")):
            fenced = not fenced
        words_before = words
    return "\n".join(joined)


# A note's line that is markup of its own: a list item, a table row, a fence
_STRUCTURE = re.compile(r"(?:[-*+]|\d{1,9}[.)])(?:[ \t]|$)|\||```|~~~")


def note_line(line: str) -> str:
    """A note's line as another tool shows it: where volley's note would read a list item (`- `,
    `* `, `1. `), a heading (`# `), a quote (`> `) or a code fence (a ``` line) at its start,
    that mark is escaped (asked of volley's note reader itself, which knows every such rule)."""
    from volley.text.inline import Paragraph, parse_note

    blocks = parse_note(line)
    plain = len(blocks) == 1 and isinstance(blocks[0], Paragraph) and blocks[0].kind == "text"
    if not line.strip() or plain:
        return line
    lead = len(line) - len(line.lstrip(" \t"))  # the mark stands after the indent,
    number = re.match(r"\d+", line[lead:])  # and after the number of `1.`
    at = lead + (number.end() if number else 0)
    return f"{line[:at]}\\{line[at:]}"


def url_parts(url: str | None) -> SplitResult | None:
    """A URL's parts, as a capture gives it; None for none, or for one that cannot be split
    (`http://[::1/x`), which the importer names as it stands."""
    try:
        return urlsplit(url) if url else None
    except ValueError:
        return None


def apart_by_case(diagram: Diagram) -> Diagram:
    """The diagram with each participant whose name differs from an earlier one's only in
    case renamed (`a` beside `A` becomes `a (2)`) and shown as the other tool named it: Mermaid
    and PlantUML tell such names apart, volley (as swimlanes.io) reads them as one lane."""
    first: set[str] = set()
    taken = {name.casefold() for name in diagram.participants}
    names: dict[str, str] = {}
    for name in diagram.participants:
        if name.casefold() not in first:
            first.add(name.casefold())
            continue
        number = 2
        while f"{name} ({number})".casefold() in taken:
            number += 1
        names[name] = f"{name} ({number})"
        taken.add(names[name].casefold())
    if not names:
        return diagram
    apart = rewrite_diagram(diagram, Rewrites(names=names))
    for name, new in names.items():
        apart.labels.setdefault(new, diagram.labels.get(name, name))
    return apart


def create_not_followed(
    tool: str, create: str, at: int, name: str, meant: str, whence: str = ""
) -> tuple[str, str]:
    """What is said (the message and its hint) of a message after another tool's `create`
    (`create`, on line `at`, making participant `name`) that does not go to it (`whence`: from
    where it must come): the tool refuses such a diagram, and volley draws none it never
    drew. `meant` is the message that creates it, written in the tool's syntax."""
    return (
        f"the message after {create} (line {at}) must go to {name}{whence}: it is the one that "
        f"creates it ({tool} refuses this too)",
        f"write the message that creates {name} ({meant}) right after the create, or take the "
        "create away",
    )
