"""Warnings about a valid diagram: things that render, but probably not as meant.

An unknown or Pro-only icon is drawn as a placeholder; a warning names it so the author can fix
it. A payload that looks like it holds a live secret (a token, a password, a cookie pasted from
real traffic) is named too, before the diagram is published; when the output masks it
(`redact`), it is a note instead: the picture is safe, the source still holds it. Warnings
never fail a command.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Container, Iterator
from os.path import commonprefix

from volley.checks.secrets import DiagramSecrets
from volley.errors import LOOK_ALIKE_SPACE, Diagnostic, character_name
from volley.language.parser import LIFELINE_MARKS
from volley.model import Activation, Block, Diagram, Item, Message, Note, walk


def lint(
    diagram: Diagram,
    source: str,
    *,
    redact: bool = False,
    secrets: DiagramSecrets | None = None,
    look_for_secrets: bool = True,
) -> list[Diagnostic]:
    """Warnings for the diagram; `source` is its text, for showing the line. `secrets` are
    the diagram's, when they were found already; without `look_for_secrets` none are looked
    for (`volley fmt`, which rewrites the text and publishes nothing).

    With `redact` (the output masks secrets), a secret is a note rather than a warning.
    """
    lines: list[str] = []

    def source_line(line: int) -> str | None:
        if not lines:  # split only once there is something to show: most diagrams are clean
            lines.extend(
                source.lstrip("\ufeff").replace("\r\n", "\n").replace("\r", "\n").split("\n")
            )
        return lines[line - 1] if 0 < line <= len(lines) else None

    if not (diagram.items or diagram.participants or diagram.title):
        said = "the diagram is empty: nothing is drawn"
        hint = "write a message, as in A -> B: hello"
        return [Diagnostic(said, diagram.filename, 1, 1, severity="warning", hint=hint)]
    return [
        *_commented_out_warnings(diagram, source_line),
        *_address_warnings(diagram, source_line),
        *_activation_warnings(diagram, source_line),
        *_mermaid_arrow_warnings(diagram, source, source_line),
        *_idle_lane_warnings(diagram, source_line),
        *_name_warnings(diagram, source_line),
        *_icon_warnings(diagram, source_line),
        *_named_icon_warnings(diagram, source_line),
        *_spaced_bold_warnings(diagram, source_line),
        *_mermaid_text_warnings(diagram, source_line),
        *_hidden_warnings(diagram, source_line),
        *(
            _secret_warnings(
                diagram,
                DiagramSecrets(diagram) if secrets is None else secrets,  # none found is falsy
                source_line,
                redact,
            )
            if look_for_secrets
            else ()
        ),
    ]


def _commented_out_warnings(
    diagram: Diagram, source_line: Callable[[int], str | None]
) -> Iterator[Diagnostic]:
    """A message whose sender's name starts with `#`: most likely a line its author meant to
    comment out, as `#` does in YAML or a shell; in volley (and swimlanes.io) `//` does."""
    for message in diagram.messages():
        if not message.sender.startswith("#"):
            continue
        shown = source_line(message.line)
        column = shown.find("#") + 1 if shown else 1
        yield Diagnostic(
            f'this line is a message from a participant named "{message.sender}"',
            diagram.filename,
            message.line,
            max(column, 1),
            shown,
            severity="warning",
            hint="to leave the line out of the diagram, write it as a // comment",
        )


# A receiver that is a host (`localhost`, `api.example.com`, `10.0.0.7`) with its port glued
# to the label's colon, or a scheme whose `//` opens the label.
_HOST = r"localhost|[\w-]+(?:\.[\w-]+)+"
_PORT_OR_PATH = re.compile(r"\d{1,5}(?=[:/]|$)|//")


def _address_warnings(
    diagram: Diagram, source_line: Callable[[int], str | None]
) -> Iterator[Diagnostic]:
    """A message to an address (`A -> localhost:8080: GET /`, `A -> http://api: x`): a name
    ends at its first colon, so the port or the rest of the address opens the label."""
    for message in diagram.messages():
        found = _PORT_OR_PATH.match(message.label)
        if found is None or (
            found.group() != "//" and not re.compile(_HOST).fullmatch(message.receiver)
        ):
            continue
        shown = source_line(message.line)
        glued = f"{message.receiver}:{message.label[: found.end()]}"
        at = shown.rfind(glued) if shown else -1
        if at < 0:  # a space after the colon: the label was meant to start there
            continue
        address = glued + message.label[found.end() :].split(":", 1)[0].split(" ", 1)[0]
        yield Diagnostic(
            f'this message goes to "{message.receiver}", and its label starts '
            f'"{message.label[: found.end()]}": a name ends at its first ":"',
            diagram.filename,
            message.line,
            at + len(message.receiver) + 1,
            shown,
            severity="warning",
            hint=f'to send to {address}, declare it: "participant P as {address}", then '
            f'"{message.sender} -> P: …"',
        )


_SPACE_RUN = re.compile(r"[ \t]{2,}")
# What other tools part names with: `order: A; B` (a full-width comma: `_name_warnings`)
_NOT_A_COMMA = "[;|]"


def _name_warnings(
    diagram: Diagram, source_line: Callable[[int], str | None]
) -> Iterator[Diagnostic]:
    """Names that read otherwise than they look: two that differ only in a space that is not
    a plain one (`MCP Server` with a no-break space, pasted from a web page) are two lanes
    that look alike; a full-width colon (`B：label`, as a Chinese or Japanese keyboard types
    it) does not start a label, so the words after it are part of the name."""
    # where each is first named: where it was declared, or else first used
    first_line = {name: diagram.declared_lines.get(name, 0) for name in diagram.participants}
    uses: dict[str, int] = {}  # how many messages, notes and activations name each
    for item in walk(diagram.items):
        for name in dict.fromkeys(_named(item)):  # a message to itself names it once
            uses[name] = uses.get(name, 0) + 1
            if not first_line.get(name) or item.line < first_line[name]:
                first_line[name] = item.line

    def looks(name: str) -> str:  # as it looks: one plain space wherever there is space
        return _SPACE_RUN.sub(" ", LOOK_ALIKE_SPACE.sub(" ", name))

    # each declared label, as it looks, and the participant it labels
    shown_as = {looks(label): name for name, label in diagram.labels.items()}
    alike: dict[str, list[str]] = {}
    for name in first_line:  # the plain-spaced name first, for the warnings to name it
        alike.setdefault(looks(name), []).append(name)
    for names in alike.values():
        names.sort(key=lambda name: looks(name) != name)

    def warning(message: str, name: str, at: int, hint: str) -> Diagnostic:
        shown = source_line(first_line[name]) or ""
        # the name where it stands whole, not inside a word (`a` in "participant a")
        found = re.search(rf"(?<!\w){re.escape(name)}(?!\w)", shown) or re.search(
            re.escape(name), shown
        )
        column = found.start() + at + 1 if found else 1
        line = first_line[name]
        return Diagnostic(
            message, diagram.filename, line, column, shown, severity="warning", hint=hint
        )

    for name in first_line:
        odd = LOOK_ALIKE_SPACE.search(name)
        doubled = _SPACE_RUN.search(name)
        others = [other for other in alike[looks(name)] if other != name]
        if odd is not None and others:
            space = odd.group()
            yield warning(
                f'"{name}" looks like "{others[0]}" but is another participant: it holds '
                f"{character_name(space)}, not a plain space",
                name,
                odd.start(),
                "write the name with plain spaces to make them one participant",
            )
        elif doubled is not None and others:
            yield warning(
                f'"{name}" looks like "{others[0]}" but is another participant: it holds '
                f"{len(doubled.group())} spaces together where the other has one",
                name,
                doubled.start(),
                "write the name with one space between its words to make them one participant",
            )
        labelled = shown_as.get(looks(name))
        meant = (
            name in diagram.labels or name in diagram.declared_lines or name in diagram.listed_lines
        )
        if labelled is not None and labelled != name and not meant:  # both lanes written on purpose
            declared = f'"participant {labelled} as {diagram.labels[labelled]}"'
            if labelled in uses or len(diagram.labels[labelled]) >= len(labelled):
                hint = f"to mean the participant declared {declared}, write {labelled}"
            else:  # `participant Bank as b`, then `b -> c`: the other tools' order, whose name
                # after "as" is the short one the messages use
                hint = (
                    f'the name comes first, its label after "as": write "participant {name} as '
                    f'{labelled}" (WebSequenceDiagrams and PlantUML write them the other way '
                    f"round), or write {labelled} here"
                )
            yield warning(
                f'"{name}" is another participant than {labelled}, which is shown as '
                f'"{diagram.labels[labelled]}": two lanes that look the same',
                name,
                0,
                hint,
            )
        if "\uff1a" in name:
            yield warning(
                f'the name "{name}" holds a full-width colon "：", which does not start a label',
                name,
                name.index("\uff1a"),
                'write a plain ":" before the label',
            )
        comma = re.compile(_WIDE_COMMA).search(name)
        if comma is not None:
            yield warning(
                f'the name "{name}" holds a full-width comma "{comma.group()}", which does not '
                "part two names",
                name,
                comma.start(),
                'write a plain "," between the names',
            )
        if re.compile(_QUOTED_NAME).fullmatch(name):
            yield warning(
                f"the quotes are part of the name {name}: volley's names take none, and "
                f"{name[1:-1]} unquoted is another participant",
                name,
                0,
                f"write {name[1:-1]} without its quotes (PlantUML's and D2's quotes are read by "
                "volley import)",
            )
    yield from _slip_warnings(diagram, first_line, uses, warning)


def _named(item: Item) -> list[str]:
    """The participants a message, a note or an activation names (a `note:` under a message
    names none: it spans the message's)."""
    if isinstance(item, Message):
        return [item.sender, item.receiver]
    if isinstance(item, Activation):
        return [item.participant]
    if isinstance(item, Note) and not item.attached:
        return item.over
    return []


_WIDE_COMMA = "[\uff0c\u3001]"  # ， and 、, as Chinese and Japanese keyboards type them
_QUOTED_NAME = r'"[^"]+"|“[^“”]+”|\'[^\']+\''


def _slip_warnings(
    diagram: Diagram,
    first_line: dict[str, int],
    uses: dict[str, int],
    warning: Callable[[str, str, int, str], Diagnostic],
) -> Iterator[Diagnostic]:
    """Lanes that are most likely a slip of the keyboard (names that differ only in case are
    one participant already): a name used once (and neither declared nor listed in `order:`)
    that is another's, used more (or declared and used), mistyped (`Srever`, `Frontend
    Externall`: `_one_slip`); a name that is another's with words after it, only ever sent
    unlabelled messages (`Client -> API GET /users`: the label's colon left out); and a name
    that is another's with another tool's mark written into it (`_marked`)."""
    senders: set[str] = set()
    to: dict[str, list[Message]] = {}  # the messages each participant is sent
    for message in diagram.messages():
        senders.add(message.sender)
        to.setdefault(message.receiver, []).append(message)
    declared, listed = diagram.declared_lines, diagram.listed_lines  # both written on purpose
    for name in first_line:  # one in no message is `_idle_lane_warnings`'
        if uses.get(name) != 1 or name in declared or name in listed:
            continue
        if name not in senders and name not in to:
            continue
        meant = [
            other
            for other in first_line
            if uses.get(other, 0) > (0 if other in declared else 1) and _one_slip(name, other)
        ]
        if len(meant) == 1:  # one name it is a slip of; of two, which is not for us to say
            yield warning(
                f'"{name}" is another participant than "{meant[0]}", and is named only here',
                name,
                0,
                f'is it "{meant[0]}", misspelt?',
            )
    for name in first_line:
        sent = to.get(name)
        if not sent or name in senders or name in diagram.declared_lines:
            continue
        if len(sent) > 1 or sent[0].label:  # one unlabelled message: the slip's shape
            continue
        message = sent[0]
        shorter = [
            other
            for other in first_line
            if name.startswith(other + " ")
            and (
                any(m.sender == message.sender for m in to.get(other, ()))
                or any(m.sender == other for m in to.get(message.sender, ()))
            )
        ]  # a name its sender also exchanges messages with, either way
        if shorter:
            before = max(shorter, key=len)
            rest = name[len(before) :].strip()
            yield warning(
                f'"{name}" is another participant than "{before}": is a colon missing after '
                f'"{before}"?',
                name,
                len(before) + 1,
                f'to send "{rest}" to {before}, write '
                f'"{message.sender} {message.arrow} {before}: {rest}"',
            )
    for name in first_line:  # another tool's mark written into a name that is used bare too
        marked = _marked(name, first_line, to, senders | set(diagram.declared_lines))
        if marked is not None:
            bare, said, at, hint = marked
            yield warning(f'"{name}" is another participant than "{bare}": {said}', name, at, hint)


def _marked(
    name: str, names: Container[str], to: dict[str, list[Message]], named: Container[str]
) -> tuple[str, str, int, str] | None:
    """(the name meant, what the mark is, where it starts, what to write) for a name that is
    another participant's with another tool's mark written into it:
    - WebSequenceDiagrams' create mark (`A -> *B`);
    - PlantUML's activation marks glued on (`A ->> B++`, `B -->> A--`), on a name that is
      only ever sent to (`C++` that sends, or is declared, is a name of its own);
    - a colour glued on (`note over A#pink:`, as sequencediagram.org writes it), or before
      the name (`participant #lightblue Alice`): a colour's name, six hex digits or three
      with a letter (`#fff`), so that `Issue#123`, `Issue #123` and `#123 queue` are names;
    - PlantUML's place in the order (`participant A order 10`).
    `named` holds the names that send or are declared."""
    if name.startswith("*") and name[1:].strip() in names:
        return (
            name[1:].strip(),
            '"*" is WebSequenceDiagrams\' mark that creates the participant',
            0,
            "volley draws every participant from the top of the diagram: delete the *",
        )
    mark, bare = name[-2:], name[:-2].rstrip()
    if mark in LIFELINE_MARKS and bare in names and name in to and name not in named:
        does, instead = LIFELINE_MARKS[mark]
        sent = to[name][0]
        if mark in ("++", "--") and not sent.arrow.startswith(("<", "x")):  # a right arrow
            meant = f"{sent.sender} {sent.arrow}{mark[0]} {bare}"  # `++` the receiver's, `--`
            instead = f'volley writes the mark after the arrow: "{meant}"'
        return bare, f'"{mark}" is PlantUML\'s mark that {does}', len(bare), instead
    bare, hash_, colour = name.rpartition("#")
    if hash_ and bare in names and _names_colour(colour):
        return (
            bare,
            f'"#{colour}" is a colour (as sequencediagram.org writes one after a name)',
            len(bare),
            "volley draws notes and lanes in the theme's colours: delete it",
        )
    colour, _, bare = name[1:].partition(" ") if name.startswith("#") else ("", "", "")
    if bare.strip() in names and _names_colour(colour):  # `participant #lightblue Alice`
        return (
            bare.strip(),
            f'"#{colour}" is a colour (as sequencediagram.org writes one before a name)',
            0,
            "volley draws lanes in the theme's colours: delete it",
        )
    order = re.compile(_PLANTUML_ORDER).fullmatch(name)
    if order is not None and order["bare"] in names:
        return (
            order["bare"],
            f'"{order["order"]}" is PlantUML\'s place in the order',
            order.start("order"),
            f'volley orders participants with one line: "order: {order["bare"]}, …"',
        )
    return None


_LETTERS = r"[^\W\d_]+"


def _one_slip(typed: str, meant: str) -> bool:
    """Whether `typed` is `meant` with two letters side by side swapped (`Srever`, `Clinet`),
    or a letter doubled or a double one made single (`Externall`, `Adress`), in a word of four
    letters or more: slips of the keyboard that rarely make another word. A letter changed,
    added or left out otherwise makes names people draw apart on purpose (`AuthN` and `AuthZ`,
    `Reader` and `Render`, `mysql` and `mysqld`, `Kunde` and `Kunden`)."""
    if typed.casefold() == meant.casefold() or abs(len(typed) - len(meant)) > 1:
        return False
    start = len(commonprefix([typed, meant]))
    end = len(commonprefix([typed[start:][::-1], meant[start:][::-1]]))
    end = min(end, len(typed) - start, len(meant) - start)
    left, right = typed[start : len(typed) - end], meant[start : len(meant) - end]
    longer = typed if len(typed) > len(meant) else meant
    if len(left) == len(right) == 2:  # swapped
        slip = left == right[::-1] and left[0] != left[1]
    elif len(left) + len(right) == 1:  # doubled, or made single: the letter beside is the same
        letter = left or right
        slip = letter in longer[max(start - 1, 0) : start] + longer[start + 1 : start + 2]
    else:
        return False
    if not slip or not all(character.isalpha() for character in left + right):
        return False
    word = next(
        (w for w in re.compile(_LETTERS).finditer(longer) if w.start() <= start < w.end()), None
    )
    return word is not None and len(word.group()) >= 4


_PLANTUML_ORDER = r"(?P<bare>.+?)[ \t]+(?P<order>order[ \t]+-?[0-9]+)[ \t]*"


def _activation_warnings(
    diagram: Diagram, source_line: Callable[[int], str | None]
) -> Iterator[Diagnostic]:
    """An activation ended where none is open (`deactivate Z`, `B -->- A` twice): it draws
    nothing, and is most likely a misspelt name or a bar ended twice (Mermaid refuses it)."""
    in_messages = {name for m in diagram.messages() for name in (m.sender, m.receiver)}
    for item, name, what in _unopened_ends(diagram.items, {}):
        shown = source_line(item.line)
        hint = "delete it, or end the bar that is open"
        if name not in in_messages:
            hint = (
                f"{name} takes part in no message, so its lane stands empty: is the name misspelt?"
            )
        yield Diagnostic(
            f"{what}, which has no activation open; it draws nothing",
            diagram.filename,
            item.line,
            1 + (len(shown) - len(shown.lstrip()) if shown else 0),
            shown,
            severity="warning",
            hint=hint,
        )


# An arrow with a filled head and no open one: `->`, `<--`, `<=>` (not `->>`, `x-`)
_PLAIN_HEAD = r"(?<!<)<(?!<)|(?<!>)>(?!>)"
# Lines Mermaid writes so and swimlanes.io does not: a `%%` comment, a `participant` or `actor`,
# `Note over` with its capital, a block word with its label and no colon (`loop Every minute`)
_MERMAID_LINE = (
    r"(?m)^[ \t]*(?:%%|participant[ \t]|actor[ \t]|Note[ \t]+(?:over|left[ \t]+of|right[ \t]+of)\b"
    r"|(?:loop|alt|opt|par|critical|break|rect)[ \t]+[^:\n]*$)"
)
# … and lines only swimlanes.io writes so, whose `->>` is volley's (an open head): a block word
# or `title`/`order` with its colon, a note without `over`, a divider
_SWIMLANES_ONLY_LINE = (
    r"(?mi)^[ \t]*(?:(?:if|else|group|loop|opt|par|title|order)[ \t]*:"
    r"|note\b(?![ \t]+(?:over|left|right)\b)[^:\n]*:|(?:\.\.\.|--|[=_-])[ \t]*:)"
)
_GLUED_OPEN_HEAD = r"\S(?:--?>>|<<--?)[+-]?\S"  # `Client->>API`, `A-->>-B`


def _mermaid_arrow_warnings(
    diagram: Diagram, source: str, source_line: Callable[[int], str | None]
) -> Iterator[Diagnostic]:
    """A `->>` in Mermaid's lines, pasted without their `sequenceDiagram` line: Mermaid's
    `->>` is its plain arrow, volley's `->`, where volley (as swimlanes.io) draws `->>` with
    an open, asynchronous head. Said once, where the diagram reads as Mermaid: the arrows
    glued to the names, as Mermaid writes them, a line only Mermaid writes so, and none only
    swimlanes.io writes so (text saved from swimlanes.io under Mermaid's header). Not where
    other messages have a plain head (`->`, `-->`): Mermaid draws those with none, and
    WebSequenceDiagrams and sequencediagram.org, which write `participant` and `note over`
    too, write `->` for a call and `->>` for an asynchronous one, as volley reads them."""
    messages = diagram.messages()
    opened = [message for message in messages if ">>" in message.arrow or "<<" in message.arrow]
    if not opened or any(re.compile(_PLAIN_HEAD).search(message.arrow) for message in messages):
        return
    lines = [(message, source_line(message.line) or "") for message in opened]
    if not all(re.compile(_GLUED_OPEN_HEAD).search(line) for _, line in lines):
        return
    written = "\n".join(_outside_bodies(diagram, source))  # what a body holds is its own
    mermaid = re.compile(_MERMAID_LINE).search(written)
    if mermaid is None or re.compile(_SWIMLANES_ONLY_LINE).search(written):
        return
    first, shown = lines[0]
    at = re.compile(_GLUED_OPEN_HEAD).search(shown)
    yield Diagnostic(
        f'"{first.arrow}" draws an open (asynchronous) head in volley; in Mermaid, which these '
        f'lines are written in, "->>" is the plain arrow, volley\'s "->"',
        diagram.filename,
        first.line,
        (at.start() + 2) if at else 1,
        shown,
        severity="warning",
        hint='write "->" and "-->" for Mermaid\'s "->>" and "-->>" (and "->>" for its "-)"), '
        'or run "volley import" on the Mermaid text, which writes them so',
    )


def _idle_lane_warnings(
    diagram: Diagram, source_line: Callable[[int], str | None]
) -> Iterator[Diagnostic]:
    """A lane no message touches, named only in `order:`, a note or an activation line, and
    never declared, where that is most likely a mistake: a name like one the messages use
    (`activate Srever`), two of their names without the comma between them (`order: Browser
    API`, `note Browser API: …`), a bar on a lane no message reaches. A lane listed in
    `order:` or given a note, and like no other, is one people draw on purpose, a bar and
    all."""
    in_messages = {name for m in diagram.messages() for name in (m.sender, m.receiver)}
    if not in_messages:  # a diagram of notes alone
        return
    idle = [
        name
        for name in diagram.participants
        if name not in in_messages and name not in diagram.declared_lines
    ]
    if not idle:
        return
    told = {name for _, name, _ in _unopened_ends(diagram.items, {})}  # said so already
    activated = {item.participant for item in walk(diagram.items) if isinstance(item, Activation)}
    noted = {name for item in walk(diagram.items) if isinstance(item, Note) for name in item.over}
    for name in idle:
        if name in told or LOOK_ALIKE_SPACE.search(name) or _SPACE_RUN.search(name):
            continue  # said so already, or a look-alike of a name (`_name_warnings`)
        import difflib  # here: only a participant no message uses needs it

        parted = [name.split(), [part.strip() for part in re.compile(_NOT_A_COMMA).split(name)]]
        parts = next((p for p in parted if len(p) > 1 and all(x in in_messages for x in p)), [])
        close = difflib.get_close_matches(name, sorted(in_messages), n=1, cutoff=0.75)
        side = re.compile(_SIDE_WITHOUT_OF).fullmatch(name)  # `note left A:`, "of" left out
        if side and name in noted and side["name"] in in_messages:
            over = side["side"].lower() == "over"
            place, where = ("over", "over") if over else (side["side"].lower() + " of", "beside")
            hint = f'a note {where} "{side["name"]}" is written "note {place} {side["name"]}: …"'
        elif parts:
            hint = f'names are parted by commas: "{", ".join(parts)}"'
        elif close:
            hint = f'is it "{close[0]}", misspelt?'
        elif name in activated and name not in noted and name not in diagram.listed_lines:
            hint = "is the name misspelt?"  # a bar alone, on a lane not listed nor noted
        else:  # a lane listed, or noted, on purpose, as people do
            continue
        line = _first_naming(diagram, name)
        shown = source_line(line) if line else None
        yield Diagnostic(
            f'"{name}" takes part in no message: it is drawn as a lane of its own',
            diagram.filename,
            line,
            shown.find(name) + 1 if shown and name in shown else 1,
            shown,
            severity="warning",
            hint=hint,
        )


# A note's place written without its "of" (or glued to the name): `note left A:`, `note overA:`
_SIDE_WITHOUT_OF = r"(?i)(?P<side>left|right|over)[ \t]*(?P<name>\S.*)"


def _first_naming(diagram: Diagram, name: str) -> int:
    """The first line that names a participant no message names: an `order:` line that
    lists it, an activation line or a note over it."""
    lines = [
        item.line
        for item in walk(diagram.items)
        if (isinstance(item, Activation) and item.participant == name)
        or (isinstance(item, Note) and name in item.over)
    ][:1]
    listed = diagram.listed_lines.get(name)
    return min([*lines, listed] if listed else lines, default=0)


def _unopened_ends(
    items: list[Item], open_bars: dict[str, int]
) -> Iterator[tuple[Message | Activation, str, str]]:
    """Each end of an activation where the participant has none open, in document order;
    `open_bars` (how many each has open) is updated as the items go. Each branch of a block
    starts from the bars open before it (`if:` and `else:` may each end the same bar, the
    usual way to write a reply in both), and those an earlier branch left open (the picture
    draws the branches one under another: a bar opened in `if:` and ended in `else:` is
    drawn, as Mermaid draws it); after the block, those open at the end of its last branch
    stay open, as the picture goes on from there."""
    for item in items:
        if isinstance(item, Block):
            before = dict(open_bars)
            carried: dict[str, int] = {}  # left open by the branches above, past `before`
            for branch in item.branches:
                state = {
                    name: before.get(name, 0) + carried.get(name, 0) for name in {*before, *carried}
                }
                yield from _unopened_ends(branch.items, state)
                carried = {
                    name: count - before.get(name, 0)
                    for name, count in state.items()
                    if count > before.get(name, 0)
                }
                open_bars.clear()
                open_bars.update(state)
            continue
        if isinstance(item, Activation):
            name, on = item.participant, item.on
        elif isinstance(item, Message) and item.bar_change is not None:
            name, on = item.bar_change
        else:
            continue
        if on:
            open_bars[name] = open_bars.get(name, 0) + 1
        elif open_bars.get(name, 0) > 0:
            open_bars[name] -= 1
        elif isinstance(item, Activation):
            yield item, name, f"deactivate {name}"
        else:
            yield item, name, f'"-" after the arrow ends an activation of {name}'


def _hidden_warnings(
    diagram: Diagram, source_line: Callable[[int], str | None]
) -> Iterator[Diagnostic]:
    """A warning for each bidi control, invisible or control character in a name or label:
    `‮Admin‬` draws as "nimdA", and a zero-width space makes two names that look the same."""
    from volley.checks.bidi import hidden_characters, shown_texts

    seen: set[tuple[int, str]] = set()
    for line, text, name in shown_texts(diagram):
        for hidden in hidden_characters(text, name):
            if (line, hidden.char) in seen:
                continue
            seen.add((line, hidden.char))
            shown = source_line(line)
            start = shown.find(text) if shown else -1
            column = start + hidden.index + 1 if start >= 0 else 1
            yield Diagnostic(
                f"the text holds {hidden.describe()}; the picture shows it as an escape",
                diagram.filename,
                line,
                column,
                shown,
                severity="warning",
                hint="delete it, or write the text without it",
            )


def _icon_warnings(
    diagram: Diagram, source_line: Callable[[int], str | None]
) -> Iterator[Diagnostic]:
    for line, text in diagram.texts():  # the model's one walk over its marked-up texts
        if "{" not in text:
            continue
        # Imported here: `volley check` of a diagram without icons never loads them.
        from volley.text.icons import check_icon
        from volley.text.inline import icon_refs

        for ref in icon_refs(text):
            problem = check_icon(ref)
            if problem is None:
                continue
            shown = source_line(line)
            column = shown.find(ref.source) + 1 if shown else 0
            yield Diagnostic(
                problem,
                diagram.filename,
                line,
                max(column, 1),
                shown,
                severity="warning",
            )


def _named_icon_warnings(
    diagram: Diagram, source_line: Callable[[int], str | None]
) -> Iterator[Diagnostic]:
    """An icon written in a participant's name or label, which the box draws as written (a
    name is plain text: it names the lane in every message)."""
    for text in diagram.all_texts():
        if text.kind not in ("participant", "display label") or "{" not in text.text:
            continue
        from volley.text.inline import icon_refs

        for ref in icon_refs(text.text):
            yield _warning_at(
                diagram,
                text.line,
                ref.source,
                f"a participant's name is drawn as written: {ref.source} shows as these "
                "characters, not as an icon",
                "icons go in a message's label, a note, a title, a divider or a block's label",
                source_line,
            )
            break


# `**call **now`: a `**` after a space and glued to the next word closes nothing (one before a
# space or the end does, as swimlanes.io reads it), so both runs are drawn as written.
_SPACED_BOLD = r"\*\*(?=[^\s*])((?:(?!\*\*).)*?)\s+\*\*(?!\*)"


def _spaced_bold_warnings(
    diagram: Diagram, source_line: Callable[[int], str | None]
) -> Iterator[Diagnostic]:
    for line, text in diagram.texts():
        found = re.compile(_SPACED_BOLD).search(text) if "**" in text else None
        if found is None:
            continue
        from volley.text.inline import parse_inline

        spans = [span for spans in parse_inline(text) for span in spans]
        if not any("**" in span.text and not span.code for span in spans):
            continue  # it closed all the same (a pair around it), or it is code
        yield _warning_at(
            diagram,
            line,
            found.group(),
            '"**" after a space does not close bold: both "**" are drawn as written',
            f"write it without the space before the closing **: **{found[1]}**",
            source_line,
        )


# Mermaid writes a character as `#35;` or `#quot;` (where HTML writes `&#35;`), and sets a
# label's wrapping with `wrap:` or `nowrap:` before its words
_MERMAID_ENTITY = re.compile(r"(?<![&\w#])#(?:[0-9]{1,7}|[A-Za-z][A-Za-z0-9]{1,31});")
_MERMAID_WRAP = re.compile(r"(?:no)?wrap:")


def _outside_bodies(diagram: Diagram, source: str) -> list[str]:
    """The diagram's source lines, less those its payloads' bodies are written on."""
    bodies = {
        number for text in diagram.all_texts() if text.kind == "body" for number, _ in text.lines()
    }
    lines = source.split("\n")
    return [line for number, line in enumerate(lines, 1) if number not in bodies]


def _mermaid_text_warnings(
    diagram: Diagram, source_line: Callable[[int], str | None]
) -> Iterator[Diagnostic]:
    """Mermaid's ways of writing text that volley draws as written: `#35;` for a character
    (volley reads HTML's `&#35;`), `wrap:` before a label or a note (volley wraps long ones
    itself)."""
    for item in walk(diagram.items):
        if isinstance(item, Message):
            found = _MERMAID_WRAP.match(item.label)
        elif isinstance(item, Note):
            found = _MERMAID_WRAP.match(item.text)
        else:
            continue
        if found is not None:
            yield _warning_at(
                diagram,
                item.line,
                found.group(),
                f"\"{found.group()}\" is Mermaid's setting for a label's wrapping; volley draws "
                "it as written",
                f'delete "{found.group()}": volley wraps a long label by itself',
                source_line,
            )
    for line, text in diagram.texts():
        if "#" not in text or _MERMAID_ENTITY.search(text) is None:
            continue
        from volley.text.inline import parse_inline

        spans = [span for spans in parse_inline(text) for span in spans if not span.code]
        found = next(
            (m for s in spans for m in _MERMAID_ENTITY.finditer(s.text) if _meant(m)),
            None,
        )
        if found is None:
            continue  # in code, where it is what it says, or no character's name
        meant, written = _meant(found), _as_html(found)
        said = f"'{meant}'" if meant == '"' else f'"{meant}"'
        yield _warning_at(
            diagram,
            line,
            found.group(),
            f'"{found.group()}" is Mermaid\'s way to write {said}; volley draws it as written',
            f'write {said} itself, or "{written}" as HTML writes it',
            source_line,
        )


def _as_html(entity: re.Match[str]) -> str:
    """Mermaid's `#35;` or `#quot;` as HTML writes it: `&#35;`, `&quot;`."""
    code = entity.group()[1:-1]
    return f"&#{code};" if code.isdigit() else f"&{code};"


# The characters Mermaid's numeric codes stand for in its own diagrams: what its syntax would
# read otherwise (`#35;` for `#`, `#59;` for `;`, quotes, brackets), and any past ASCII (`#9829;`
# for ♥). Other small numbers are prose: "close issue #42; then deploy".
_CODED_ASCII = frozenset(map(ord, "\"#&',:;<>"))


def _meant(entity: re.Match[str]) -> str:
    """The character Mermaid's entity writes, or "" for a name HTML does not know."""
    import html  # here: only text holding Mermaid's codes needs HTML's names for characters
    from html.entities import html5

    code = entity.group()[1:-1]
    if code.isdigit() and int(code) < 160 and int(code) not in _CODED_ASCII:
        return ""
    if code.isdigit():
        meant = html.unescape(f"&#{code};") if int(code) <= 0x10FFFF else ""
        return "" if meant == "\ufffd" else meant  # no character
    return html5.get(f"{code};", "")


def _warning_at(
    diagram: Diagram,
    line: int,
    written: str,
    message: str,
    hint: str,
    source_line: Callable[[int], str | None],
) -> Diagnostic:
    """A warning at the place on the line where `written` stands."""
    shown = source_line(line)
    at = shown.find(written) if shown else -1
    return Diagnostic(
        message,
        diagram.filename,
        line,
        at + 1 if at >= 0 else 1,
        shown,
        severity="warning",
        hint=hint,
    )


def _masked_line(text: str, places: list[tuple[int, int, str]], loose: list[str]) -> str:
    """A source line as a warning quotes it, printing none of its secrets: each masked where
    it stands (`places`: start, end and value), and again wherever its value stands alone
    elsewhere on the line, though not where it names a key (`pwd=pwd`); one whose place is
    not known (`loose`: the line alone may not show it, as in a PEM body or a form part)
    wherever its value appears; and what the line itself shows as a secret."""
    from volley.checks.secrets import MASK, redact_text

    bound = len(text)
    for start, end, _value in sorted(places, reverse=True):
        end = min(end, bound)  # overlapping secrets: masks side by side, nothing left out
        text, bound = text[:start] + MASK + text[end:], start
    shown = redact_text(text)
    for value in {value for _start, _end, value in places if value}:
        shown = re.sub(rf"(?<![\w-]){re.escape(value)}(?![\w-]|[ \t]*[=:])", MASK, shown)
    for value in loose:
        shown = shown.replace(value, MASK) if value else shown
    return shown


def _secret_warnings(
    diagram: Diagram,
    secrets: DiagramSecrets,
    source_line: Callable[[int], str | None],
    redact: bool,
) -> Iterator[Diagnostic]:
    """A warning for each value that looks like a live credential pasted from real traffic.

    The line is shown with its secrets masked: the warning must not print what it warns about.
    """
    from volley.checks.secrets import MASK

    if redact:
        advice = "it is masked in the output, but the source still holds it"
    else:
        advice = "replace it with a placeholder such as <redacted>, or turn on redact to mask it"
    # said with the first only, not again for every value of a capture
    first_hint = f"each line is shown with {MASK} in its place; the file still holds it" + (
        ""
        if redact
        else " (redact is --redact on the command line, redact=true on a fence or in "
        "mkdocs.yml, :redact: in Sphinx)"
    )
    found = []  # (line, where the secret starts in the source line if known, secret)
    places: dict[int, list[tuple[int, int, str]]] = {}  # each line's secrets, where they stand
    loose: dict[int, list[str]] = {}  # and those whose place in it is not known
    for line, offset, secret, text in secrets.places():
        original = source_line(line)
        indent = original.find(text) if original is not None and text else -1
        value = text[offset : offset + secret.end - secret.start]
        start = indent + offset if indent >= 0 else None
        if start is not None:
            places.setdefault(line, []).append((start, start + len(value), value))
        else:
            loose.setdefault(line, []).append(value)
        found.append((line, start, secret))
    seen: set[tuple[int, str]] = set()
    for line, start, secret in found:
        if (line, secret.what) in seen:
            continue  # one warning for a header or key, however many values it holds
        seen.add((line, secret.what))
        original = source_line(line)
        shown, column = None, 1
        if original is not None:
            at, unplaced = places.get(line, []), loose.get(line, [])
            shown = _masked_line(original, at, unplaced)
            if start is not None:  # where the mask stands in the line as shown
                before = [place for place in at if place[1] <= start]
                column = len(_masked_line(original[:start], before, unplaced)) + 1
            if not shown[column - 1 :].lstrip('"').startswith(MASK):
                # the line before it reads otherwise alone (`Authorization=scheme ` is the
                # scheme only with its parameters after it): the mask nearest, if any
                masks = [found.start() for found in re.finditer(re.escape(MASK), shown)]
                column = min(masks, key=lambda at: abs(at - column + 1), default=0) + 1
        yield Diagnostic(
            f"{secret.what} looks like a live secret; {advice}",
            diagram.filename,
            line,
            column,
            shown,
            # the line is quoted masked, so that the warning does not print the secret
            hint=None if len(seen) > 1 else first_hint,
            severity="note" if redact else "warning",
            topic="secret",
        )


def _names_colour(word: str) -> bool:
    """`names_colour`; only a name holding "#" needs the CSS parser, imported here."""
    from volley.text.colours import names_colour

    return names_colour(word)
