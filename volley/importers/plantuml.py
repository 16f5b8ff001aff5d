r"""PlantUML sequence diagrams to `.volley`: a `.puml` file (one diagram or several between
`@startuml` and `@enduml`), or every ```plantuml block of a Markdown page.

PlantUML's statements map onto volley's where volley has the same thing: participants of every
kind with their display names (`participant "Web App" as W`), messages with every arrow kind,
activation marks (`++`, `--`), `activate`/`deactivate` and `return`, notes (over, left or right
of a lane, after a message, across, on one line or up to `end note`), `alt`/`else`, `opt`,
`loop`, `par`, `break`, `critical` and `group` blocks, `box` … `end box`, `== sections ==`,
`...` delays, `autonumber` and `title`; older and newer forms too (`par2`, teoz's anchors, a
statement continued with `\`). What volley cannot show (an actor's figure, a colour, skin
parameters, a note's side, spacing, an arrow from the diagram's edge) is written as a `//`
comment at its place, so nothing is dropped in silence.

PlantUML's preprocessor runs first, as far as diagrams lean on it: its variables are written
where they are used and only the branch of an `!if` that PlantUML draws is read
(`volley.importers.plantuml_preprocessor`).

PlantUML's text is Creole: `**bold**`, `//italic//`, `""monospaced""`, `--struck--` and the
tags `<b>`, `<i>`, `<s>` become volley's markup; `\n` breaks a line; any other character that
is markup in volley is escaped, so the text shows as PlantUML shows it.

Arrows, by what PlantUML draws:

    PlantUML          drawn as                              volley
    ->   -->          solid / dashed, filled head           ->   -->
    ->>  -->>         solid / dashed, thin (open) head      ->>  -->>
    -\ -/ -\\ -//     half heads                            ->  or ->> (and a comment)
    ->x  -->x         lost: a cross at the end              -x   --x
    ->o  o->          a circle at an end                    ->   (and a comment)
    <->  <-->         heads at both ends                    <->  <-->
    -[#red]>          a colour or style inside the shaft    ->   (dashed, bold as said)
"""

from __future__ import annotations

import itertools
import json
import re
import textwrap
import unicodedata
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Literal, NoReturn

from volley.errors import Diagnostic, VolleyError, VolleyErrors
from volley.importers import (
    ON_A_PAGE,
    Imported,
    drawn_differently,
    file_of_its_own,
    files_of_their_own,
    gathered,
    part_name,
)
from volley.importers.labels import (
    Lanes,
    apart_by_case,
    create_not_followed,
    note_line,
    note_text,
    volley_label,
)
from volley.importers.openiconic import FONT_AWESOME
from volley.importers.plantuml_preprocessor import Includer, NotIncluded, Preprocessed, preprocess
from volley.language.parser import LARGEST_NUMBER, if_label, normalise, note_side
from volley.language.writer import Comment, ends_a_note, fence_for, write
from volley.limits import MAX_DEPTH
from volley.model import (
    Activation,
    Block,
    Box,
    Branch,
    Diagram,
    Divider,
    Item,
    Message,
    Note,
    NoteSide,
    display_label,
    trimmed,
    walk,
)
from volley.text.inline import Table, escape_markup, parse_note, plain_text
from volley.textio import in_project

_START = re.compile(r"[ \t]*@startuml\b", re.IGNORECASE)
_END = re.compile(r"[ \t]*@enduml\b", re.IGNORECASE)
# sphinxcontrib-plantuml's directive, its diagram indented under it (an option first, maybe)
_DIRECTIVE = re.compile(r"[ \t]*\.\.[ \t]+uml::[ \t]*$")
# `.. uml:: flow.puml`: sphinxcontrib-plantuml's directive, drawing a file of its own
_FILE_DIRECTIVE = re.compile(r"[ \t]*\.\.[ \t]+uml::[ \t]+(?P<file>\S(?:.*\S)?)[ \t]*$")
_OPTION = re.compile(r"[ \t]*:[\w-]+:(?:[ \t].*)?$")
_FENCE = re.compile(r"[ \t]*(`{3,}|~{3,})[ \t]*\{?\.?(?i:plantuml|puml)\b")
_ANY_FENCE = re.compile(r"[ \t]*(`{3,}|~{3,})")  # any block may hold `@startuml` (a plain ```)
PARTICIPANT_KINDS = (
    "participant",
    "actor",
    "boundary",
    "control",
    "entity",
    "database",
    "collections",
    "queue",
)
_CODE = r'[^\s"<>\[\]{}:\\/?,&()#+*!-]+'
_NAME = rf'"[^"]+"|{_CODE}'
# A participant where a message names it: its name, or a name and the words it shows, which
# PlantUML takes the first time the name is used (`"Long name" as L`, `L as "Long name"`)
_PART = rf'"[^"]+"[ \t]*as[ \t]+{_CODE}|{_CODE}[ \t]+as[ \t]*"[^"]+"|{_NAME}'
_PARTS = re.compile(
    rf'"(?P<long>[^"]+)"[ \t]*as[ \t]+(?P<code>{_CODE})'
    rf'|(?P<named>{_CODE})[ \t]+as[ \t]*"(?P<shown>[^"]+)"'
)
# A message: a name (none where the arrow starts at the diagram's edge, `[->`), the arrow, a
# name (none where it ends at the edge, `->]`), the lifeline marks and the text. PlantUML up to
# 1.2020 also took one `+` or `-` after the receiver's name (`A -> B+ : call`, `B -> A - : x`)
# for `++` or `--`; later releases do not read it so, and nothing else reads it at all.
# A style may also stand before the arrow (`A [#gray]--x B`); a lone `[` is the diagram's edge.
# A circle or cross ends an arrow only before a space and a name (or right before the edge,
# `->x]`), and starts one only after a space (or a style, or the edge): `A->oca` is a message
# to oca, `Tokyo->B` one from Tokyo, `A->X : hi` one to X, as in PlantUML's CommandArrow.
_ARROW = (
    r"(?P<edge_from>\[(?![^\]\s]*\])|\[(?=[<-])(?![<-]*\])|\]|\?)?(?P<style>\[[^\]<>]*\])?"
    r"(?P<left>(?:(?<=[ \t\]\[?])[oxOX])?(?:<<|<|\\\\|//|\\|/)?)"
    # two dashes or more: dotted; a style in the shaft, or right after a left head (`<[#red]-`)
    r"(?P<shaft>-+(?:\[[^\]]*\])?-*|\[[^\]]*\]-+)"
    rf"(?P<right>(?:>>|>|\\\\|//|\\|/)?(?:[oxOX](?=[\]?]|[ \t]+(?:{_NAME})))?)"
    r"(?P<edge_to>\]|\?)?"
)
# Teoz (PlantUML's newer layout) adds an anchor before a message (`{start} A -> B`), a slant
# beside its arrow (`->(10)`), and a name declared where it is first used (`A -> "B" as B`).
# A link (and a stereotype) PlantUML takes before a statement's text: `note over A [[url]] : x`
_BEFORE_TEXT = r"(?P<link>\[\[[^\]]*\]\][ \t]*)?(?::(?P<text>.*))?"
_MESSAGE = re.compile(
    r"(?P<parallel>&[ \t]*)?(?:\{(?P<anchor>[^}]*)\}[ \t]*)?"
    rf"(?P<sender>{_PART})?[ \t]*(?P<slant_from>\(\d+\))?{_ARROW}(?P<slant_to>\(\d+\))?[ \t]*"
    rf"(?P<receiver>{_PART})?(?:[ \t]*(?P<old_mark>[+-])(?![+-]))?"
    rf"(?P<multicast>(?:[ \t]+&[ \t]+(?:{_NAME}))*)"
    r"[ \t]*(?P<marks>(?:(?:\+\+|--|\*\*|!!)[ \t]*){0,2})(?P<tint>#\w+[ \t]*)?"
    rf"(?P<stereo><<[^>]*>>[ \t]*)?{_BEFORE_TEXT}"
)
_DECLARATION = re.compile(
    rf"(?P<create>create[ \t]+)?(?P<kind>{'|'.join(PARTICIPANT_KINDS)})[ \t]+(?P<rest>.+)", re.I
)
# `create` with no kind is a participant's (`create D as "Store"`, `create D order 5`); `create
# D` alone is read as the lifecycle statement
_CREATED = re.compile(r"(?P<create>create[ \t]+)(?P<kind>)(?P<rest>\S.*)", re.I)
_DECLARED = re.compile(
    r'(?:"(?P<quoted>[^"]+)"|(?P<word>\S+))(?:[ \t]+as[ \t]+(?:"(?P<alias_quoted>[^"]+)"'
    r"|(?P<alias>\S+)))?"
)
_ARROW_START = re.compile(r"[-<>\[?/\\]")  # `Participant -> Bob`: a message, not a declaration
_CONTINUED = re.compile(r"(?<!\\)\\[ \t]*$")  # a line ending in one backslash goes on
_ORDER = re.compile(r"order[ \t]+(-?\d+)", re.I)
_RULE = re.compile(r"(?:-{4,}|={4,}|\.{4,}|_{4,})")  # a rule across a participant's text
# After a participant's name (with or without a space: `Bob<<Service>>`, `Alice#pink`), which
# volley draws otherwise: its order, colours (`#lightblue;line:red;line.bold`), a stereotype,
# a link
_DECORATIONS = re.compile(
    r"(?:[ \t]+order[ \t]+-?\d+|[ \t]*(?:#[\w/|\\;:.-]+|<<.*?>>)|[ \t]+\[\[.*?\]\])[ \t]*$",
    re.I,
)
_NOTE = re.compile(
    r"(?P<shape>[hr]?note)(?:[ \t]*(?P<stereo><<[^>]*>>))?[ \t]+"
    r"(?P<place>left[ \t]+of|right[ \t]+of|over|left|right|top|bottom|across)"
    rf"(?:[ \t]+(?P<names>[^:#\[]+?))?[ \t]*(?P<tint>#[\w/|\\;:.-]+[ \t]*)?{_BEFORE_TEXT}",
    re.I,
)
_REF = re.compile(
    rf"ref(?P<tint>#\w+)?[ \t]+over[ \t]+(?P<names>[^:#\[]+?)[ \t]*(?P<back>#[\w/|\\;:.-]+[ \t]*)?"
    rf"{_BEFORE_TEXT}",
    re.I,
)
# Creole's lists and tables in a note's lines: `* item`, `** one level in`, `# numbered`, and
# rows of cells `|= head |= head |`, `| cell | cell |` (a cell may start with its colour)
# (PlantUML's own patterns: `*item` is an item too, `**bold**` alone is not)
_CREOLE_ITEM = re.compile(
    r"(?P<marks>\*+)[ \t]*(?P<text>[^*\s](?:[^*]|\*\*[^*]+\*\*)*|(?<=[ \t]).+)"
    r"|(?P<numbered>#+)[ \t]*(?P<words>.+)"
)
# A line across a note, with words at its middle or none: `----`, `-- words --`, `==words==`,
# `====`, `.. words ..`
_CREOLE_RULE = re.compile(r"--(?P<dash>[^-]*)--|==(?P<double>[^=]*)==|={4,}|\.\.(?P<dot>[^.]*)\.\.")
_CREOLE_ROW = re.compile(r"\|.*\|")
_EMPTY_ROW = re.compile(r"\|[|\s]*\|")
_CREOLE_HEADING = re.compile(r"=+[ \t]*(.+?)[ \t]*=*")  # `= Title`, `==Section`
_CELL_COLOUR = re.compile(r"^<#\w+>")
_NOTE_END = re.compile(r"end[ \t]*[hr]?note", re.I)
_REF_END = re.compile(r"end(?:[ \t]?ref)?", re.I)  # PlantUML's `end` closes it too
_BLOCK = re.compile(
    r"(?P<parallel>&[ \t]*)?(?P<kind>alt|opt|loop|par2|par|break|critical|group|partition)"
    r"(?:[ \t]*(?P<tint>#[\w/|\\-]+(?:[ \t]+#[\w/|\\-]+)?))?"  # `alt#Gold #LightBlue`: two
    r"(?:[ \t]+(?P<label>.*))?",
    re.I,
)
_END_BLOCK = re.compile(r"end(?:[ \t]+.*)?", re.I)  # `end alt`, `end regular`: any words
_ELSE = re.compile(r"(?:else|also)(?:[ \t]*(?P<tint>#[\w/|\\-]+))?(?:[ \t]+(?P<label>.*))?", re.I)
_SECTION = re.compile(r"==+[ \t]*(?P<label>.*?)[ \t]*==+")
_DELAY = re.compile(r"(?:\.\.\.|…)(?:[ \t]*(?P<label>.*?)[ \t]*(?:\.\.\.|…))?")
_DURATION = re.compile(r"\{[^}]*\}[ \t]*<->[ \t]*\{[^}]*\}.*")
_SPACE = re.compile(r"\|\|\d*\|+")  # `|||`, `||45||`, `||25|||`
_BOX = re.compile(
    r'box(?:[ \t]+"(?P<quoted>[^"]*)"|[ \t]+(?P<label>[^#]*?))?'
    r"(?:[ \t]*(?P<stereo><<[^>]*>>))?[ \t]*"
    r"(?P<tint>#\S+)?",
    re.I,
)
_END_BOX = re.compile(r"end[ \t]*box", re.I)
_ACTIVATION = re.compile(
    rf"(?P<word>activate|deactivate)[ \t]+(?P<name>{_NAME})"
    r"(?:[ \t]*(?P<tint>#\S+(?:[ \t]+#\S+)?))?",  # a fill, and a line colour
    re.I,
)
# `B++` and `B--` on a line of their own activate B and end its activation
_SHORT_ACTIVATION = re.compile(rf"(?P<name>{_NAME})[ \t]*(?P<mark>\+\+|--)[ \t]*(?P<tint>#\w+)?")
_DEACTIVATE = re.compile(r"deactivate[ \t]*", re.I)  # the participant last activated
_URL = re.compile(
    rf"url[ \t]*(?:of|for)?[ \t]+(?P<name>{_NAME})[ \t]+(?:is[ \t]*)?\[\[[^\]]*\]\]", re.I
)
_LIFECYCLE = re.compile(
    rf"(?P<word>create|destroy)(?:[ \t]+(?P<kind>\w+))?[ \t]+(?P<name>{_NAME})", re.I
)
_RETURN = re.compile(r"return(?:[ \t]*(?P<tint>#\w+))?(?:[ \t]+(?P<label>.*))?", re.I)
_AUTONUMBER = re.compile(
    r"autonumber(?:[ \t]+(?P<stop>stop|resume|inc(?:[ \t]+[A-Za-z])?))?"
    r"(?:[ \t]+(?P<start>\d+(?:\.\d+)*))?"
    r"(?:[ \t]+(?P<step>\d+))?"
    r'(?:[ \t]+"(?P<format>[^"]*)")?',
    re.I,
)
_TITLE = re.compile(r"title(?:[ \t]*:)?(?:[ \t]+(?P<text>.*))?", re.I)
_SPRITE = re.compile(r"sprite[ \t]+\$?\w.*", re.I)  # an image, named for `<$name>` in text
_AUTOACTIVATE = re.compile(r"autoactivate[ \t]+(on|off)", re.I)
# A legend, header or footer whose text runs on the lines below it, to `endlegend` …
_SPAN = re.compile(
    r"(?:(?:left|right|top|bottom|center)[ \t]+)*(legend|header|footer)"
    r"(?:[ \t]+(?:left|right|top|bottom|center))*",
    re.I,
)
# Statements about the look of the page, which volley's themes decide: kept as comments.
_LOOK = re.compile(
    r"(?:skinparam|hide|show|scale|(?:(?:left|right|center)[ \t]+)?(?:header|footer)|caption|legend"
    r"|mainframe|newpage|ignore"
    r"|!\w+|left[ \t]+to[ \t]+right|top[ \t]+to[ \t]+bottom|teoz)\b",
    re.I,
)
_WHY_LOOK = "volley's themes decide how a diagram looks"
_FEW_INCLUDED = 5  # an included file's settings written each as it is; more are counted
_HIDE_UNLINKED = re.compile(r"hide[ \t]+unlinked", re.I)
_WHY = {
    "newpage": "a new page: volley draws the diagram as one picture",
    "ignore": "a new page: volley draws the diagram as one picture",
    "mainframe": "a frame around the diagram, which volley does not draw",
    "!pragma": "a setting of PlantUML's own layout: volley lays the diagram out its own way",
}
# The statements of PlantUML's other diagrams: a class, activity, state or component diagram
# between the same `@startuml` lines, which volley does not draw.
_OTHER_DIAGRAM = re.compile(
    r"(?:class|interface|enum|abstract|annotation|state|usecase|component|node|package|rectangle"
    r"|object|artifact|cloud|frame|folder|map|json|yaml|archimate)[ \t]+[\w\"]"
    r"|entity[ \t]+[^{\n]*\{[ \t]*$"  # an ER diagram's table; a sequence's `entity` has no body
    r"|(?:start|stop|detach|kill|endif|endwhile|fork|salt);?$|:[^\n]*[;|<>/\]}]$"
    r"|\([^)]*\)[ \t]*-|.*-+>?[ \t]*\([^)]*\)[ \t]*(?::.*)?$|if[ \t]*\(|while[ \t]*\(|repeat\b",
    re.I,
)
# A state diagram's start or end, `[*]`, at an arrow's end (no sequence diagram has one)
_STATE_END = re.compile(r"^\[\*\][ \t]*[-<]|[->][ \t]*\[\*\](?:[ \t]*:.*)?$")
# Creole's styles and the HTML tags people write in PlantUML's text, and volley's markup for
# each; `//` right after a colon is a URL's, not italics.
# Creole's link, `[[url]]` or `[[url{tooltip} words]]`, first: its `//` is no italic
# One of OpenIconic's icons, drawn as Font Awesome's like it: `<&check>`, `<&star{scale=2}>`
_ICON = r"<&(?P<icon>[\w-]+)(?:\*[\d.]+|,[^>]*|\{[^}]*\})*>"  # `<&check*2>`, `<&x,color=red>`
_LINK = r"\[\[(?P<url>[^\]\s{]+)(?:\{[^}]*\})?(?:[ \t]+(?P<linked>[^\]]*?))?[ \t]*\]\]"
_STYLE = re.compile(
    rf"{_LINK}|{_ICON}|\*\*(?P<bold>.+?)\*\*|(?<!:)//(?P<italic>.+?)(?<!:)//|\"\"(?P<code>.+?)\"\""
    r"|--(?P<strike>.+?)--|__(?P<under>.+?)__|~~(?P<wave>.+?)~~"  # underlined: no volley mark
    r"|<(?P<tag>b|i|s|u|strike|del)(?::[^>]*)?>(?P<tagged>.*?)</(?P=tag)>",  # `<s:red>` too
    re.I,
)
_TAG_MARKS = {"b": "**", "i": "*", "s": "~~", "strike": "~~", "del": "~~", "u": ""}
# The styles volley's text has not, whose words it keeps: a colour, a size, a font, a
# background, an underline (`<u>`, `__x__`), a wave (`<w>`, `~~x~~`), a coloured style
# (`<b:red>`); said once for each way written
_LOST_STYLE = re.compile(
    r"<(?:color|size|font|back|u|w)(?:[:= ][^>]*)?>|<(?:b|i|s|strike|del):[^>]*>"
    r"|__(?=\S).+?__|~~(?=\S).+?~~",
    re.I,
)
_OTHER_TAGS = re.compile(r"</?(?:color|size|font|back|u|w|plain)(?:[:= ][^>]*)?>", re.I)
# An emoji by its code point, coloured or not: `<:1f600:>`, `<#green:2600:>`
_EMOJI = re.compile(r"<(?:#\w+)?:(?P<code>[0-9a-fA-F]{4,6}):>")
# An image in PlantUML's text: a sprite (`<$actor>`, `<$cloud{scale=2}>`) or a file
_IMAGE = re.compile(r"<\$[\w.]+[^>]*>|<img[: ][^>]*>", re.I)
_STYLE_TAG = re.compile(r"<(/?)(b|i|s|u|strike|del)(?::[^>]*)?>", re.I)
# A character by its code point, as Creole writes one: `<U+0025>`, `&#37;`, `&#x25;`
_CHARACTER = re.compile(
    r"<U\+(?P<hex>[0-9A-Fa-f]{4,6})>|&#(?:(?P<dec>[0-9]{1,7})|[xX](?P<x>[0-9A-Fa-f]{1,6}));"
)


def _lost(message: Message) -> bool:
    """Whether the message's head at its receiver is a cross: a message lost on its way (a
    cross at the sender's end, `A x-> B`, is no such thing)."""
    arrow = message.arrow
    towards_right = not arrow.startswith("<") and (
        arrow.endswith((">", "x", "X")) or not arrow.startswith(("x", "X"))
    )
    return (arrow[-1] if towards_right else arrow[0]) in "xX"


def _decoded(text: str) -> str:
    """Words with the characters written by their code (`&#37;`) as those characters: plain
    text, which the caller escapes (`&#60;b&#62;` is the text "<b>", no tag)."""
    return _CHARACTER.sub(_character, text)


def _character(found: re.Match[str]) -> str:
    """The character a code point names; one that names none, or a control, line break or
    format character (which would start a statement or hide itself), is kept as written."""
    code = int(found["dec"]) if found["dec"] else int(found["hex"] or found["x"], 16)
    if code > 0x10FFFF or unicodedata.category(chr(code)) in ("Cc", "Cf", "Cs", "Zl", "Zp"):
        return found[0]
    return chr(code)


# Creole's three ways to strike text through, which close one another (`<s:red>x</strike>`):
# written as one (its colour kept)
_STRIKE_TAG = re.compile(r"<(/?)(?:strike|del|s)((?::[^>]*)?)>", re.I)
# Sub- and superscripts, which volley's text has not: written as TeX writes them, `A_{O}^{DID}`
_SCRIPT = re.compile(r"<(sub|sup)>(.*?)</\1>", re.I)
# `\n` breaks a line; `\r` and `\l` too (right and left aligned in PlantUML), `<br>` too; `\t`
# is a tab and `\\` a backslash
_ESCAPE = re.compile(r"\\\\|\\[nrlt]|(?i:<br[ \t]*/?>)")
BLOCKS = {"alt": "if", "opt": "opt", "loop": "loop", "par": "par", "break": "break"}
BLOCKS |= {"critical": "critical", "group": "group", "partition": "group"}
BRANCHES = {"if": "else", "par": "and", "critical": "option"}


def detect(text: str) -> int:
    """100 for a PlantUML file (its first statement is `@startuml`); for a page holding
    ```plantuml blocks, `.. uml::` directives or `@startuml` lines, 90 when one of them is a
    sequence diagram, 80 when none is (to be refused in words); else 0."""
    lines = normalise(text).split("\n")
    first = next((line for line in lines if line.strip() and not _comment(line)), "")
    if _START.match(first):
        return 100
    parts = _parts(lines)
    if not parts:  # a page of `.. uml:: flow.puml` directives: said so in words
        return 80 if any(map(_FILE_DIRECTIVE.match, lines)) else 0
    return ON_A_PAGE if any(is_sequence(part) for part in parts) else 80


def _comment(line: str) -> bool:
    return line.lstrip().startswith("'")


@dataclass(frozen=True)
class _Part:
    """One diagram of the source: its lines, from index `start` (0-based) of the page."""

    start: int
    lines: list[str]
    directive: bool = False  # a `.. uml::` directive's body, whose options come first


def _parts(lines: list[str]) -> list[_Part]:
    """Every `@startuml` … `@enduml` of the page, and every ```plantuml block or `.. uml::`
    directive that has none (which their renderers take without those lines), in the order of
    the page. A `@startuml` in a block with no `@enduml` after it ends with the block."""
    parts: list[_Part] = []
    index = 0
    limit = len(lines)  # the line a `@startuml` read now ends at the latest: its block's end
    while index < len(lines):
        if index >= limit:  # past the block whose diagrams were read, or at its closing line
            closing, limit = index == limit, len(lines)
            if closing:
                index += 1
                continue
        fence = _FENCE.match(lines[index])
        block = _ANY_FENCE.match(lines[index]) if limit == len(lines) else None
        if block is not None:  # a block of any language (or none), PlantUML's own too
            end = index + 1
            while end < len(lines) and not lines[end].strip().startswith(block[1]):
                end += 1
            if any(_START.match(line) for line in lines[index + 1 : end]):
                limit = end  # its diagrams are read line by line, up to its end at the latest
        if _START.match(lines[index]):
            end = index + 1
            while end < limit and not _END.match(lines[end]):
                end += 1
            parts.append(_Part(index + 1, lines[index + 1 : end]))
            index = end
        elif fence is not None or _DIRECTIVE.match(lines[index]):
            end = index + 1
            if fence is not None:
                while end < len(lines) and not lines[end].strip().startswith(fence[1]):
                    end += 1
            else:  # the directive's body: the lines indented under it (and blank lines)
                indent = _indent(lines[index])
                while end < len(lines) and (not lines[end].strip() or _indent(lines[end]) > indent):
                    end += 1
                if lines[index + 1 : end] and not lines[end - 1].strip():
                    end -= 1
            body = lines[index + 1 : end]
            if not any(_START.match(line) for line in body):
                # an `@enduml` without its `@startuml` still ends the diagram
                body = list(itertools.takewhile(lambda line: not _END.match(line), body))
                parts.append(_Part(index + 1, body, directive=fence is None))
                index = end
        index += 1
    return parts


# A word processor's marks where PlantUML reads plain ones (a diagram pasted from a document):
# a dash before an arrow's head, `A –> B`, and quotes curled around a name, `“Long name”`
_TYPED_DASH = re.compile(r"[\u2013\u2014]+(?=-*>)|(?<=<)[\u2013\u2014]+")
_CURLED_QUOTE = re.compile("[\u201c\u201d\u201e]")


def _typed_plainly(text: str) -> str:
    """A message or a declaration with such marks as PlantUML reads them: a dash in an arrow
    as `-`, curled quotes before a message's label (its names) as `"`; a label keeps its own,
    and so does every other statement (a title, a divider, a block's label)."""
    head, colon, label = text.partition(":")
    plain = _CURLED_QUOTE.sub('"', _TYPED_DASH.sub(lambda dashes: "-" * len(dashes[0]), head))
    if plain == head:
        return text
    plain += colon + label
    return plain if _DECLARATION.fullmatch(plain) or _message(plain) is not None else text


def is_sequence(part: _Part) -> bool:
    """Whether a diagram is a sequence diagram, its lines as PlantUML's preprocessor leaves
    them (no file it includes is read)."""
    return _holds_sequence(preprocess(part.lines).lines)


def _holds_sequence(lines: list[str]) -> bool:
    """Whether a diagram's lines hold a message, a participant's declaration or a note, and no
    statement of PlantUML's other diagrams."""
    statements = _statements(lines)
    if any(_OTHER_DIAGRAM.match(line) and _message(line) is None for line in statements):
        return False
    if any(_STATE_END.search(line) for line in statements):  # `[*] --> Running`: a state's
        return False
    return any(
        _DECLARATION.fullmatch(line) or _message(line) is not None or _NOTE.fullmatch(line)
        for line in statements
    )


def draws_a_message(text: str) -> bool:
    """Whether a line of the text is a PlantUML message (`A -> B : hi`), as a diagram has
    and a log of lines seldom does."""
    return any(_MESSAGE.fullmatch(line.strip()) for line in text.split("\n") if "-" in line)


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip())


def _depths(rows: list[str]) -> list[int]:
    """How much deeper than the note's least indented line each of its lines starts, in
    characters, a tab one, as PlantUML strips the columns its lines share."""
    indents = [_indent(row) for row in rows]
    least = min((at for at, row in zip(indents, rows, strict=True) if row.strip()), default=0)
    return [max(at - least, 0) for at in indents]


def _statements(lines: list[str]) -> list[str]:
    """A diagram's statements, without comments and the text of notes written over several
    lines (whose words may be anything)."""
    found = []
    closer: re.Pattern[str] | None = None
    for line in lines:
        text = line.strip()
        if closer is not None:
            closer = None if closer.fullmatch(text) else closer
            continue
        if not text or _comment(text):
            continue
        found.append(_typed_plainly(text))
        closer = _text_block_end(text)
    return found


# The lines that end text written on the lines under a statement
_TITLE_END = re.compile(r"end[ \t]*title", re.I)
_SPAN_END = re.compile(r"end[ \t]*(?:legend|header|footer)", re.I)
_STYLE_END = re.compile(r"</style>", re.I)
_BRACE_END = re.compile(r"\}")
_BRACKET_END = re.compile(r"\]")
# A statement that opens a note or a reference whose text runs on the lines below it, even one
# that cannot be read (`note top of B`)
_OPENS_BODY = re.compile(r"(?:(?P<ref>ref)|[hr]?note)\b[^:]*", re.I)


def _text_block_end(text: str) -> re.Pattern[str] | None:
    """The line that ends the text a statement opens on the lines below it (a note's, a
    title's, a legend's, a participant's `[ … ]`, a skinparam block, a style sheet): words,
    not statements."""
    note = _NOTE.fullmatch(text) or _REF.fullmatch(text)
    if note is not None:
        if note["text"] is not None:
            return None
        return _REF_END if text.lower().startswith("ref") else _NOTE_END
    lowered = text.lower()
    if (title := _TITLE.fullmatch(text)) is not None and not title["text"]:
        return _TITLE_END
    if _SPAN.fullmatch(text):
        return _SPAN_END
    if lowered.startswith("<style>") and not lowered.endswith("</style>"):
        return _STYLE_END
    if lowered.startswith(("skinparam", "sprite")) and text.endswith("{"):
        return _BRACE_END
    if text.endswith("[") and _DECLARATION.fullmatch(text):
        return _BRACKET_END
    return None


def _closing_line(lines: list[str], index: int, closer: re.Pattern[str]) -> int | None:
    """The index of the first line from `index` on that `closer` matches, if any."""
    return next((k for k in range(index, len(lines)) if closer.fullmatch(lines[k].strip())), None)


def _after_body(lines: list[str], text: str, index: int) -> int:
    """Where reading goes on after a statement that could not be read, at `index`: past the
    end of text it opened on the lines below it (a note's), whose words are not statements
    with errors of their own; at the end when that text is never closed."""
    closer = _text_block_end(text)
    if closer is None and (opened := _OPENS_BODY.fullmatch(text)) is not None:
        closer = _REF_END if opened["ref"] else _NOTE_END
    if closer is None:
        return index
    end = _closing_line(lines, index, closer)
    return len(lines) if end is None else end + 1  # never closed: the rest is its text


def _message(text: str) -> re.Match[str] | None:
    """A message statement, with at least one head on its arrow and a participant at one end
    at least: an end with no name is the diagram's edge (`-> A`, `A ->`, as `[-> A`, `A ->]`)."""
    found = _MESSAGE.fullmatch(text)
    if found is None or not (found["left"] or found["right"]):
        return None
    if not (found["sender"] or found["receiver"]):  # edge to edge: PlantUML has no such arrow
        return None
    return found


def _sequences(text: str, filename: str | None) -> tuple[list[str], list[_Part], list]:
    """The page's lines, its diagrams, and its sequence diagrams with what the preprocessor
    left of each (the files it includes read once)."""
    lines = normalise(text).split("\n")
    parts = _parts(lines)
    include = _includer(filename)  # (a diagram may be all in the files it includes)
    read = [(part, preprocess(part.lines, include)) for part in parts or [_Part(0, lines)]]
    return lines, parts, [(part, run) for part, run in read if _is_sequence(part, run)]


def _marks(found: re.Match[str]) -> str:
    """A message's lifeline marks, PlantUML 1.2020's `B+` and `B-` as the `++` and `--` they
    meant."""
    old = {"+": "++", "-": "--"}.get(found["old_mark"] or "", "")
    return old + (found["marks"] or "")


def _is_sequence(part: _Part, run: Preprocessed) -> bool:
    """Whether a diagram is a sequence diagram: by the lines its preprocessor left, or, when
    the preprocessor stopped at a mistake (a procedure calling itself before any message), by
    its lines as written, so that the mistake is reported."""
    return _holds_sequence(run.lines) or bool(run.problems) and _holds_sequence(part.lines)


def diagram_lines(text: str, filename: str | None = None) -> list[int]:
    """The line each sequence diagram of `text` starts on, as its `Imported.line` gives it,
    whether it reads or not: a page of several tools' diagrams numbers them all."""
    return [part.start + 1 for part, _ in _sequences(text, filename)[2]]


def convert(text: str, filename: str | None = None) -> list[Imported]:
    """Every sequence diagram in `text`."""
    lines, parts, found = _sequences(text, filename)
    if not parts and found:
        parts = [found[0][0]]  # asked for by name, a diagram with no @startuml line is read whole
    named = [
        (index + 1, directive["file"])
        for index, line in enumerate(lines)
        if (directive := _FILE_DIRECTIVE.match(line))
    ]
    if not found and named:
        raise files_of_their_own("PlantUML", named, lines, filename)
    if not found:
        raise VolleyError(
            "no PlantUML sequence diagram here"
            if parts
            else "not a PlantUML diagram: it holds no @startuml line and no ```plantuml block",
            filename=filename,
            hint="volley reads PlantUML's sequence diagrams (messages between participants); "
            "its class, activity and other diagrams have no volley form",
        )
    diagrams: list[Imported] = []
    failed: list[VolleyError] = []
    several = len(found) > 1
    for n, (part, run) in enumerate(found, start=1):
        name = part_name(filename, n) if several else None
        try:
            diagrams.append(_Reader(lines, part, run, filename, name).read())
        except VolleyErrors as exc:
            failed.append(exc)
    sequences = [part for part, _ in found]
    skipped = tuple(_left_out(part, lines, filename) for part in parts if part not in sequences)
    skipped += tuple(file_of_its_own(line, file, lines, filename) for line, file in named)
    return gathered(diagrams, failed, len(found), skipped)


def _left_out(part: _Part, page: list[str], filename: str | None) -> Diagnostic:
    """The warning for a diagram of another kind (activity, class …), at the line it starts."""
    shown = page[part.start - 1]
    return Diagnostic(
        "this PlantUML diagram is not a sequence diagram; it was left out",
        filename=filename,
        line=part.start,
        column=_indent(shown) + 1,
        source_line=shown,
        severity="warning",
    )


@dataclass
class _Open:
    """A block or a box, waiting for its `end`."""

    keyword: str
    line: int
    block: Block | None = None
    box: Box | None = None


@dataclass
class _Reader:
    page: list[str]
    part: _Part
    run: Preprocessed  # the part's lines as PlantUML's preprocessor leaves them
    filename: str | None
    name: str | None = None
    diagram: Diagram = field(default_factory=Diagram)
    comments: list[Comment] = field(default_factory=list)
    errors: list[VolleyError] = field(default_factory=list)
    stack: list[_Open] = field(default_factory=list)
    deeper: int = 0  # blocks open past the deepest volley reads (their lines read as around them)
    lanes: Lanes = field(default_factory=Lanes)
    notes: list[tuple[Note, list[str]]] = field(default_factory=list)
    approximated: set[int] = field(default_factory=set)
    # The comments an included file's lines give (a style file's settings), each with whether
    # it is the file's own words (raw) and whether only about the looks; written as one when
    # all are either
    including: bool = False  # reading a line of an included file
    gathered: list[tuple[Comment, bool, bool]] = field(default_factory=list)
    # PlantUML's message numbers: shown from `autonumber` on, until `autonumber stop`
    count: int = 1
    step: int = 1
    numbered: bool = False
    given: str = ""  # the number last given
    levels: list[int] = field(default_factory=list)  # `autonumber 6.3.1`: 6 and 3, before 1, 2 …
    shown: str | None = None  # a format that writes words with the number (`"<b>REQ-#"`)
    # the participants whose bars are open, in the order they opened
    bars: list[str] = field(default_factory=list)
    # PlantUML's stack of activating messages, which `return` answers: each activation pushes
    # the message before `activate B` (none when it does not name B, or comes before any
    # message) or the one marked `++`; each end of a bar pops the top, whoever it names
    returns: list[Message | None] = field(default_factory=list)
    last: Message | None = None  # the message a note with no name is on
    last_edge: str | None = None  # or the lane of an arrow from the edge, where one came after
    answerable: Message | None = None  # the message a `return` answers: an edge arrow too
    auto: bool = False  # `autoactivate on`: each call activates the participant it goes to
    hide_unlinked: bool = False  # `hide unlinked`: lanes no message links are left out
    edge_lanes: set[str] = field(default_factory=set)  # lanes an arrow from the edge links
    # notes that stand for arrows from the edge, which are no notes on the message before
    edge_notes: set[int] = field(default_factory=set)
    # `create X` and its line, until the next message: PlantUML draws only an error unless
    # that message goes to X
    creating: tuple[int, str] | None = None
    orders: dict[str, int] = field(default_factory=dict)  # `participant B order 10`
    around: set[int] = field(default_factory=set)  # the lines of boxes holding a box

    def read(self) -> Imported:
        last = self.part.start + len(self.part.lines)
        run = self.run
        for at, text, drawn, self.including in run.comments:
            # (in an included file, those of what the preprocessor read are of its settings:
            # looks only; one of what it did not run or read is not, as in the diagram)
            look = self.including and not drawn
            self.comment(self.part.start + at + 1, text, raw=not drawn, look=look)
        for at, problem in run.problems:
            try:
                self.fail(self.part.start + at + 1, problem)
            except VolleyError as exc:
                self.errors.append(exc)
        said = [self.warning(self.part.start + at + 1, words) for at, words in run.warnings]
        self.part = replace(self.part, lines=_continued(run.lines))
        lines = self.part.lines
        index = 0
        while index < len(lines):
            number = self.part.start + run.kept[index] + 1  # the page's line number
            raw = lines[index]
            index += 1
            text = _typed_plainly(raw.strip())
            if not text:
                continue
            self.including = index - 1 in run.included
            try:
                index = self.statement(number, raw, text, index)
            except VolleyError as exc:
                self.errors.append(exc)
                index = _after_body(lines, text, index)  # its lines are no statements
        self.including = False
        self.write_gathered()
        said += [self.unclosed(o, last) for o in self.stack if o.keyword != "par2"]
        if self.errors:  # what was said may explain them (a word an unread include defines)
            raise VolleyErrors(self.errors, warnings=said)
        self.finish()
        diagram = apart_by_case(self.diagram)
        written = write(diagram, self.comments, "\n".join(self.page), one_line_each=True)
        warnings = (*said, *self.drawn_differently())
        return Imported(written, self.name, self.part.start + 1, warnings=warnings)

    # --- errors and comments ---

    def fail(self, line: int, message: str, hint: str | None = None) -> NoReturn:
        raw = self.page[line - 1]
        column = _indent(raw) + 1
        raise VolleyError(
            message, filename=self.filename, line=line, column=column, source_line=raw, hint=hint
        )

    def tinted(self, line: int, found: re.Match[str], what: str) -> None:
        """A colour written on a statement, which volley's theme decides, and a link or a
        stereotype before its text: said in comments."""
        if found["tint"]:
            self.comment(line, f"{found['tint'].strip()} ({what} in the theme's colours)")
        written = found.groupdict()
        if written.get("link"):
            self.comment(line, f"{written['link'].strip()} (a link, which volley leaves out here)")
        if written.get("stereo"):
            self.comment(line, f"{written['stereo'].strip()} (a stereotype)")

    def comment(self, line: int, text: str, raw: bool = False, look: bool = False) -> None:
        """A `//` comment before whatever comes from `line` on; one not `raw` says what volley
        draws otherwise than PlantUML (`look`: only how the diagram looks)."""
        comment = Comment(
            line, f" {text}" if raw and text else f" PlantUML: {text}" if text else ""
        )
        if self.including:
            self.gathered.append((comment, raw, look))
            return
        if not raw:
            self.approximated.add(line)
        self.comments.append(comment)

    def write_gathered(self) -> None:
        """The comments of each included file's lines (at its `!include`): one that counts them
        where all are its settings of the looks and its own words (a style file, skinparams by
        the dozen), or each as it is."""
        by_line: dict[int, list[tuple[Comment, bool, bool]]] = {}
        for said_so in self.gathered:
            by_line.setdefault(said_so[0].line, []).append(said_so)
        for line, comments in by_line.items():
            if len(comments) > _FEW_INCLUDED and all(raw or look for _, raw, look in comments):
                said = f"{len(comments)} lines of what it includes set how the diagram looks"
                self.comment(line, f"{said}, or are comments ({_WHY_LOOK})")
                continue
            for comment, raw, _ in comments:
                if not raw:
                    self.approximated.add(line)
                self.comments.append(comment)

    def unclosed(self, opened: _Open, last: int) -> Diagnostic:
        """A block or box left open is closed at the end of the diagram (PlantUML draws such
        diagrams, and people publish them: a box, and a frame's messages without the frame),
        with a warning at the line that opened it."""
        closed = opened.box if opened.box is not None else opened.block
        assert closed is not None
        closed.end_line = last
        what = "box" if opened.box is not None else opened.keyword
        unframed = "" if opened.box is not None else " (PlantUML draws its messages, no frame)"
        return self.warning(
            opened.line, f"this {what} is never closed; it ends at the end of the diagram{unframed}"
        )

    def warning(self, line: int, message: str) -> Diagnostic:
        """A warning at the start of a line of the page."""
        raw = self.page[line - 1]
        column = _indent(raw) + 1
        return Diagnostic(
            message,
            filename=self.filename,
            line=line,
            column=column,
            source_line=raw,
            severity="warning",
        )

    def drawn_differently(self) -> tuple[Diagnostic, ...]:
        return drawn_differently("PlantUML", sorted(self.approximated), self.filename)

    # --- statements ---

    def without_inner_comment(self, line: int, text: str) -> str:
        """The statement without a `/' … '/` comment on its line, kept as a comment: one
        that ends the line (`return ok /'ECC1 -> Enclave1'/`, from its last `/'`) or opens it
        and closes before the statement (`/' lead '/ A -> B`), as PlantUML removes them."""
        if text.startswith("/'") and "'/" in text[2:]:
            close = text.index("'/", 2)
            rest = text[close + 2 :].strip()
            if not rest:
                return text  # a comment alone on its line (read as one below)
            said, text = text[2:close], rest
        elif text.endswith("'/") and "/'" in text[:-2]:
            opened = text.rindex("/'", 0, len(text) - 2)
            said, text = text[opened + 2 : -2], text[:opened].rstrip()
        else:
            return text
        if said.strip():
            self.comment(line, said.strip(), raw=True)
        return text

    def statement(self, line: int, raw: str, text: str, index: int) -> int:
        """Read the statement on `line`; the index of the next line to read (a note, a title
        or a comment may run over several)."""
        lines = self.part.lines
        text = self.without_inner_comment(line, text)
        if _START.match(text):  # `@startuml` again inside a diagram
            if self.diagram.items:  # after statements: PlantUML starts again from it
                self.comment(line, f"{text} (PlantUML draws only what follows; volley, all)")
            return index  # right after the first (plantuml.com's own example): nothing
        if text.startswith("/'"):
            end = index - 1
            while "'/" not in lines[end] and end + 1 < len(lines):
                end += 1
            said = [
                row.strip().removeprefix("/'").removesuffix("'/").strip()
                for row in lines[index - 1 : end + 1]
            ]
            while said and not said[-1]:  # the comment's lines, without empty ends
                said.pop()
            while said and not said[0]:
                said.pop(0)
            for words in said:
                self.comment(line, words, raw=True)
            return end + 1
        if text.startswith("'"):
            self.comment(line, text[1:].strip(), raw=True)
            return index
        self.text_left_out(line, text)
        if self.part.directive and _OPTION.fullmatch(text):
            # its value goes on over the lines indented deeper than it, as docutils reads a
            # field (`:caption: … forwarded to` / `normal world`)
            depth = _indent(raw)
            while index < len(lines) and lines[index].strip() and _indent(lines[index]) > depth:
                text += " " + lines[index].strip()
                index += 1
            self.comment(line, f"{text} (an option of the uml directive)")
            return index
        if text.startswith(("/", "&")) and _NOTE.fullmatch(text[1:].strip()):
            self.comment(
                line, f"{text[0]} (a note beside the one before it: volley draws it below)"
            )
            text = text[1:].strip()
        if (note := _NOTE.fullmatch(text)) is not None:
            self.tinted(line, note, "volley draws notes")
            return self.note(line, note, index)
        if (ref := _REF.fullmatch(text)) is not None:
            self.tinted(line, ref, "volley draws notes")
            return self.ref(line, ref, index)
        found = _DECLARATION.fullmatch(text)
        if found is None and not _LIFECYCLE.fullmatch(text):
            found = _CREATED.fullmatch(text)  # `create D as "Store" order 30 #99FF99`
        if found is not None and not _ARROW_START.match(found["rest"]):
            rest = found["rest"].strip()
            kind = (found["kind"] or "participant").lower()
            if found["create"]:
                self.comment(line, f"{text} (volley draws the lane throughout)")
            if not rest.endswith("["):
                name = self.declare(line, kind, rest)
                if found["create"]:
                    self.creating = (line, name)
                return index
            # `participant P [` … `]`: the lane's text on lines of its own
            end = index
            while end < len(lines) and lines[end].strip() != "]":
                end += 1
            if end == len(lines):
                self.fail(line, "this participant's text is never closed; expected ]")
            name = self.declare(line, kind, rest[:-1].strip())
            shown = [row.strip().lstrip("=").strip() for row in lines[index:end]]
            shown = [row for row in shown if row and not _RULE.fullmatch(row)]
            self.show_as(line, name, "\\n".join(shown))
            return end + 1
        if (found := _message(text)) is not None:
            self.message(line, text, found)
            return index
        if _END_BOX.fullmatch(text):
            self.end(line, box=True)
            return index
        if (found := _BOX.fullmatch(text)) is not None:
            self.box(line, found)
            return index
        if (found := _BLOCK.fullmatch(text)) is not None:
            if found["parallel"]:  # teoz: a frame beside the message before
                self.comment(line, "& (volley draws this frame below the message before it)")
            self.tinted(line, found, "volley draws frames")
            self.open_block(line, found["kind"].lower(), found["label"] or "")
            return index
        if (found := _ELSE.fullmatch(text)) is not None:
            self.tinted(line, found, "volley draws frames")
            self.branch(line, found["label"] or "")
            return index
        if _END_BLOCK.fullmatch(text):
            self.end(line)
            return index
        if (found := _SECTION.fullmatch(text)) is not None:  # without words, a plain rule
            label = self.label(found["label"])
            self.add(Divider(line, "bold" if label else "regular", label))
            return index
        if (found := _DELAY.fullmatch(text)) is not None:
            self.add(Divider(line, "delay", self.label(found["label"] or "")))
            return index
        if _DURATION.fullmatch(text):
            self.comment(line, f"{text} (a teoz duration between two anchors)")
            return index
        if _SPACE.fullmatch(text):
            self.comment(line, f"{text} (extra space: volley spaces its rows itself)")
            return index
        if (found := _ACTIVATION.fullmatch(text)) is not None:
            self.tinted(line, found, "volley draws activation bars")
            self.activation(line, found["word"].lower() == "activate", found["name"])
            return index
        if (found := _SHORT_ACTIVATION.fullmatch(text)) is not None:
            self.tinted(line, found, "volley draws activation bars")
            self.activation(line, found["mark"] == "++", found["name"])
            return index
        if _DEACTIVATE.fullmatch(text):
            if not self.bars:
                self.fail(line, "deactivate with no activation open to end")
            self.activation(line, False, self.bars[-1])
            return index
        if (found := _URL.fullmatch(text)) is not None:
            name = self.use(line, found["name"])
            self.comment(line, f"{text} (a link on {name}, which volley leaves out)")
            return index
        if (found := _LIFECYCLE.fullmatch(text)) is not None:
            self.lifecycle(line, text, found)
            return index
        if (found := _RETURN.fullmatch(text)) is not None:
            self.tinted(line, found, "volley draws its arrows")
            self.reply(line, found["label"] or "")
            return index
        if (found := _AUTONUMBER.fullmatch(text)) is not None:
            self.autonumber(line, text, found)
            return index
        if (found := _TITLE.fullmatch(text)) is not None:
            return self.title(line, found["text"], index)
        if (closer := _text_block_end(text)) is not None:  # skinparam {, <style>, a legend
            return self.kept_block(line, index, closer)
        if _SPRITE.fullmatch(text):
            self.comment(line, f"{text} (an image, which volley leaves out)")
            return index
        if (found := _AUTOACTIVATE.fullmatch(text)) is not None:
            self.auto = found[1].lower() == "on"
            return index
        if _HIDE_UNLINKED.fullmatch(text):  # the lanes no message links are left out
            self.hide_unlinked = True
            return index
        if (look := _LOOK.match(text)) is not None or text.lower().startswith("<style>"):
            word = look[0].lower() if look is not None else ""
            self.comment(line, f"{text} ({_WHY.get(word, _WHY_LOOK)})", look=word not in _WHY)
            return index
        self.fail(
            line,
            f"not a PlantUML sequence statement: {text!r}",
            "expected a message (A -> B : text), a participant, a note, activate, return, "
            "alt/opt/loop/par/break/critical/group … end, == section ==, ... or autonumber",
        )

    def text_left_out(self, line: int, text: str) -> None:
        """Say what in a statement's text volley leaves out: images (sprites, files, the
        OpenIconic icons Font Awesome has no match for) and the styles its text has not
        (colour, size, underline), whose words it keeps."""
        for image in _IMAGE.findall(text):
            self.comment(line, f"{image} (an image, which volley leaves out)")
        for icon in re.finditer(_ICON, text):
            if icon["icon"].lower() not in FONT_AWESOME:
                self.comment(line, f"{icon[0]} (an icon volley has no match for, left out)")
        outside_code = re.sub(r'"".+?""', "", text)  # `""__init__""` keeps its underscores
        styles = dict.fromkeys(found[0] for found in _LOST_STYLE.finditer(outside_code))
        if styles:
            said = ", ".join(styles)
            words = f"{said} (volley draws the words without colour, size or underline)"
            self.comment(line, words, look=True)

    def kept_block(self, line: int, index: int, closer: re.Pattern[str]) -> int:
        """A `skinparam {` … `}`, a `<style>` … `</style>`, or a `legend`, `header` or
        `footer` up to its `endlegend` (or `end legend` …): kept as comments."""
        lines = self.part.lines
        end = _closing_line(lines, index, closer)
        end = len(lines) - 1 if end is None else end
        look = not _SPAN.match(lines[index - 1].strip())  # a skinparam block, a style sheet
        for k in range(index - 1, end + 1):
            self.comment(line, lines[k].rstrip(), raw=k > index - 1, look=look)
        if not self.including:
            self.approximated.add(line)
        return end + 1

    def add(self, item: Item) -> None:
        self.items().append(item)

    def put_beside(self, message: Message, note: Note) -> None:
        """Put a note on `message` where PlantUML draws it, beside the message: after it,
        inside the frames that end after it, when nothing but its bars and its notes follows
        it there (PlantUML draws `end` then `note right` in the frame's last row); written
        first in a frame or a branch (`opt`, then `note left`), after the message before
        them, outside them."""
        items = inner = self.items()
        if not any(isinstance(item, Message) for item in walk(items)):
            holder = _holding(self.diagram.items, message)
            if holder is not None and holder is not items:
                after = next(i for i, item in enumerate(holder) if item is message) + 1
                while after < len(holder) and self.on_message(holder[after]):
                    after += 1
                holder.insert(after, note)
                return
        while inner and isinstance(inner[-1], Block):
            inner = inner[-1].branches[-1].items
        at = next((i for i, item in enumerate(inner) if item is message), None)
        rest = inner[at + 1 :] if at is not None and inner is not items else None
        if rest is not None and all(map(self.on_message, rest)):
            inner.append(note)
        else:
            items.append(note)

    def items(self) -> list[Item]:
        for opened in reversed(self.stack):
            if opened.block is not None:
                return opened.block.branches[-1].items
        return self.diagram.items

    def use(self, line: int, written: str) -> str:
        """The participant a name written in a statement stands for (made where it is new)."""
        name = written.strip()
        if name.startswith('"') and name.endswith('"'):
            name = name[1:-1].strip()
        if not name:
            self.fail(line, "expected a participant's name")
        lane, new = self.lanes.name(name)
        if new:
            if lane != name:  # `A -> "api:8080"`: a name volley writes otherwise, shown as it is
                self.show_as(line, lane, name)
            self.box_in(lane)
        return lane

    def box_in(self, lane: str) -> None:
        """Put the lane in the box open here, if any (and in no other)."""
        for box in self.diagram.boxes:
            if lane in box.participants:
                box.participants.remove(lane)
        boxed = next((o.box for o in reversed(self.stack) if o.box is not None), None)
        if boxed is not None:
            boxed.participants.append(lane)

    def declare(self, line: int, kind: str, rest: str) -> str:
        decorations: list[str] = []
        while (decoration := _DECORATIONS.search(rest)) is not None:
            decorations.insert(0, decoration[0].strip())
            rest = rest[: decoration.start()]
        order = None
        for written in decorations:
            if (ordered := _ORDER.fullmatch(written)) is not None:
                order = int(ordered[1])  # PlantUML sorts the lanes by it
            else:
                self.comment(line, f"{written} on {rest}")
        found = _DECLARED.fullmatch(rest.strip())
        if found is None:
            begun = _DECLARED.match(rest.strip())
            if begun is None:
                self.fail(line, f"expected a participant's name after {kind}")
            left = rest.strip()[begun.end() :].strip()
            self.fail(
                line,
                f"cannot read {left!r} after {kind} {begun[0]}",
                "after a participant PlantUML reads `as` and a name, a colour (#…), a "
                "stereotype (<<…>>), `order N` or a link ([[…]])",
            )
        shown = found["quoted"] or found["word"]
        alias = found["alias_quoted"] or found["alias"]
        if alias is None:
            name, label = shown, shown
        elif found["alias_quoted"] is not None and found["quoted"] is None:
            name, label = shown, alias  # `participant L as "Long name"`
        else:
            name, label = alias, shown  # `participant "Long name" as L`
        if name in self.lanes.names:  # declared again: PlantUML moves the lane last (into
            lane = self.lanes.last(name)  # the box open here), keeping its first words and look
            self.box_in(lane)
            return lane
        name = self.use(line, name)
        self.diagram.declared_lines.setdefault(name, line)
        if order is not None:
            self.orders[name] = order
        self.show_as(line, name, label)
        if kind != "participant":
            self.comment(line, f"{kind} {name} (volley draws every participant as a box)")
        return name

    def show_as(self, line: int, name: str, shown: str) -> None:
        """Give the lane of `name` the label PlantUML shows (`\\n` breaks its line)."""
        # (`<$actor>\nPayee`: no line for the image volley leaves out)
        parts = trimmed([plain_text(_markup(part.strip())) for part in _lines(shown)])
        parts = [_GUILLEMETS.sub(r"«\1»", part) for part in parts]  # a stereotype, as drawn
        for link in re.finditer(_LINK, shown):
            self.comment(line, f"{link[0]} (a link on {name}, which volley leaves out)")
        label = display_label(parts)  # drawn as written: no markup to escape
        if label in ("", name):  # (an image alone: the lane shows its name)
            return
        written = volley_label(label)
        if written is None:
            self.comment(line, f"{name} is shown as {' '.join(parts)}")
            return
        self.diagram.labels[name] = written
        if written != label:
            self.comment(line, f"{name} is shown as {label} (its arrow drawn with look-alikes)")

    def participant(self, line: int, written: str) -> str:
        """The participant a message names; one written with the words it shows (`"Long
        name" as L`, `L as "Long name"`) shows them when the message is the first to name it,
        as PlantUML does."""
        found = _PARTS.fullmatch(written)
        if found is None:
            return self.use(line, written)
        code = found["code"] or found["named"]
        new = code not in self.lanes.names
        lane = self.use(line, code)
        if new:
            self.show_as(line, lane, found["long"] or found["shown"])
        return lane

    def message(self, line: int, text: str, found: re.Match[str]) -> None:
        if not (found["sender"] and found["receiver"]):
            self.edge(line, text, found)
            return
        if found["parallel"]:
            self.comment(line, "& (volley draws this message on a row of its own)")
        self.tinted(line, found, "volley draws its arrows")
        if found["anchor"] is not None or found["slant_from"] or found["slant_to"]:
            self.comment(line, f"{text} (a teoz anchor or slant: volley draws the message level)")
        sender = self.participant(line, found["sender"])
        receiver = self.participant(line, found["receiver"])
        also = [self.use(line, name) for name in found["multicast"].split("&")[1:]]
        if also:
            self.comment(
                line,
                f"{found['multicast'].strip()} (one message sent to each: volley draws them one "
                "under another)",
            )
        style = (found["style"] or "") + found["shaft"]
        if "hidden" in style.lower():  # PlantUML draws no line, head or words for it
            self.comment(line, f"{text} (a hidden arrow, which PlantUML leaves undrawn)")
            return
        arrow = self.arrow(line, found)
        # `A -> B : [[url]] text` shows the address as a link, then the text (PlantUML 1.2025)
        words = found["text"] or ""
        message = Message(line, sender, receiver, arrow, self.label(words))
        going_from, going_to = _ends(message)
        self.sent_to(line, going_to if going_to != going_from else None)  # (not to itself)
        self.number(message)
        found_marks = _marks(found)
        # (marks of its own win; a cross at the receiving end is a lost message)
        automatic = self.auto and not found_marks and not _lost(message)
        if automatic:  # PlantUML's autoactivate: a call activates its receiver, a dashed reply
            # ends its sender's bar; a lost message does neither
            found_marks = ("--" if "--" in arrow else "++") + found_marks
        extra: list[Item] = []
        caller, callee = _ends(message)  # `B <- A ++` activates B, as volley's `B <-+ A` does
        for mark in re.findall(r"\+\+|--|\*\*|!!", found_marks):
            if mark == "++":
                self.bars.append(callee)
                self.returns.append(message)
                if message.activate is None:
                    message.activate = "+"
                else:
                    extra.append(Activation(line, callee, True))
            elif mark == "--":
                if not self.close(caller):
                    if not automatic:
                        self.comment(line, f"-- (no activation of {caller} is open here)")
                elif message.activate is None:
                    message.activate = "-"
                else:
                    extra.append(Activation(line, caller, False))
            else:
                what = "creates" if mark == "**" else "destroys"
                self.comment(line, f"{mark} ({what} {receiver}: volley draws its lane throughout)")
        self.add(message)
        for item in extra:
            self.add(item)
        if "!!" in found_marks:
            self.destroyed(line, callee)
        for other in also:  # the same message, under the same number
            self.add(replace(message, receiver=other, activate=None))
        self.last, self.last_edge, self.answerable = message, None, message

    def edge(self, line: int, text: str, found: re.Match[str]) -> None:
        """An arrow from or to the diagram's edge: a note beside its lane on the edge's side,
        its number taken, its marks (`[-> B ++`) acted on, and kept for a `return` to answer,
        as PlantUML does."""
        lane = self.participant(line, found["sender"] or found["receiver"])  # its lane is drawn
        left = "<<" if "<<" in found["left"] else "<" if "<" in found["left"] else ""
        right = ">>" if ">>" in found["right"] else ">" if ">" in found["right"] else ""
        # `[-> B`, `-> B` come from the left edge, `]-> B` from the right; `B ->]`, `B ->` go
        # to the right one; an arrow comes in where its head is at its lane's end
        on_left = not found["sender"] and not text.lstrip().startswith("]")
        incoming = bool(right) if not found["sender"] else bool(left)
        self.edge_note(line, text, lane, on_left, incoming, found["text"] or "")
        self.sent_to(line, lane)  # (to or from the edge: PlantUML's MessageExo counts either)
        self.edge_lanes.add(lane)
        self.last, self.last_edge = None, lane
        ends = ("", lane) if on_left else (lane, "")  # a `return` answers on the same side
        self.answerable = Message(line, *ends, f"{left}-{right}" if left or right else "->")
        marks = _marks(found)
        crossed = "x" in (found["left"] + found["right"]).lower()
        if self.auto and not marks and not crossed:  # as any arrow under autoactivate: a
            # dotted one ends its participant's bar, another starts one (CommandExoArrowAny)
            marks = "--" if "--" in re.sub(r"\[[^\]]*\]", "", found["shaft"]) else "++"
        for mark in re.findall(r"\+\+|--", marks):
            if mark == "++":
                self.bars.append(lane)
                self.returns.append(self.answerable)
                self.add(Activation(line, lane, True))
            elif self.close(lane):
                self.add(Activation(line, lane, False))

    def edge_note(
        self, line: int, text: str, lane: str, on_left: bool, incoming: bool, words: str
    ) -> None:
        """What an arrow from or to the diagram's edge says (volley draws no arrow from outside
        the picture): a note beside its lane on the edge's side, with an arrow at the edge's
        end pointing the way it goes and the number it takes (`[-> A : go`: "→ 1 go" left of
        A, `A ->] : done`: "2 done →" right of it), and a comment that says so."""
        number = self.next_number()  # PlantUML numbers it as any other
        taken = "" if number is None else f"; it takes number {self.given}"
        side: NoteSide = "left" if on_left else "right"
        said = self.note_body(line, words, 0)[0] if words.strip() else ""
        self.comment(
            line,
            f"{text} (an arrow from or to the diagram's edge, which volley does not draw"
            f"{f': a note {side} of {lane} says it' if said else ''}{taken})",
        )
        if not said:
            return
        glyph = "→" if on_left == incoming else "←"
        shown = said if number is None else f"{self.number_words(number) or f'**{number}**'} {said}"
        note = Note(line, [lane], f"{glyph} {shown}" if on_left else f"{shown} {glyph}", side=side)
        self.notes.append((note, [lane]))
        self.edge_notes.add(id(note))
        self.add(note)

    def arrow(self, line: int, found: re.Match[str]) -> str:
        """volley's arrow for PlantUML's: its shaft (dashed where a bracket says so; PlantUML
        draws `bold` no bolder), and a head where PlantUML draws one."""
        shaft = "--" if found["shaft"].count("-") >= 2 else "-"
        style = re.search(r"\[([^\]]*)\]", (found["style"] or "") + found["shaft"])
        if style is not None:
            words = style[1].lower()
            if "dashed" in words or "dotted" in words:
                shaft = "--"
            self.comment(
                line, f"[{style[1]}] on the arrow (volley draws its arrows in the theme's colour)"
            )
        heads = []
        for side, written in (("left", found["left"].lower()), ("right", found["right"].lower())):
            if "o" in written and not any(c in written for c in "<>\\/"):
                self.comment(line, f"a circle at the arrow's {side} end (volley draws none)")
                heads.append("")
                continue
            if "o" in written:
                self.comment(line, "a circle at the arrow's end (volley draws a head there)")
            if "x" in written:
                heads.append("x")
            elif any(half in written for half in ("\\", "/")):
                self.comment(line, "a half arrowhead (volley draws a whole one)")
                thin = "\\\\" in written or "//" in written
                heads.append(("<<" if thin else "<") if side == "left" else (">>" if thin else ">"))
            elif "<<" in written or ">>" in written:
                heads.append("<<" if side == "left" else ">>")
            elif "<" in written or ">" in written:
                heads.append("<" if side == "left" else ">")
            else:
                heads.append("")
        if heads == ["", ""]:
            self.fail(line, "expected an arrowhead on the arrow")
        return f"{heads[0]}{shaft}{heads[1]}"

    def label(self, text: str) -> str:
        """A one-line volley label from PlantUML's text: `\\n` breaks a line (one at its end
        draws no line)."""
        return "\\n".join(trimmed([_markup(part.strip()) for part in _lines(text)]))

    def note(self, line: int, found: re.Match[str], index: int) -> int:
        place = " ".join(found["place"].lower().split())
        text, index = self.note_body(line, found["text"], index)
        if not text.strip():  # (PlantUML draws an empty box; a volley note holds words)
            for name in (found["names"] or "").split(","):
                if name.strip():
                    self.use(line, name)  # its lane, as PlantUML draws it
            self.comment(line, f"{found[0].strip()} (an empty note, which volley leaves out)")
            return index
        if found["shape"].lower() != "note":
            self.comment(line, f"{found['shape']} (volley draws every note the same)")
        if place in ("left", "right", "top", "bottom") and not found["names"]:
            last = self.last  # a note on the message before it
            if last is None and self.last_edge is not None:  # on an arrow from the edge
                self.comment(
                    line,
                    f"{found[0]} (on the arrow from the diagram's edge: volley puts it over "
                    f"{self.last_edge})",
                )
                note = Note(line, [self.last_edge], text)
                self.notes.append((note, [self.last_edge]))
                self.add(note)
                return index
            if last is None:
                self.comment(line, f"{found[0]} (a note on no message, which PlantUML leaves out)")
                return index
            names = [last.sender, last.receiver]
            if place != "bottom" and names:
                self.comment(line, f"note {place} (volley puts it under the message)")
            note = Note(line, names, text, attached=True)
            self.notes.append((note, names))
            self.put_beside(last, note)
            return index
        if place == "across":
            note = Note(line, [], text)
            self.notes.append((note, []))
            self.add(note)
            return index
        if not found["names"]:
            self.fail(line, f"expected the participant the note is {place}")
        if place in ("top", "bottom"):
            self.fail(
                line,
                f"a note {place} of a participant is not a sequence diagram's (PlantUML refuses "
                "it too)",
                f"note {place} (with no name) is a note on the message before it; a note beside "
                "a participant is left of, right of or over it",
            )
        names = [self.use(line, name) for name in found["names"].split(",")]
        side = note_side(place) if len(names) == 1 else "over"
        if side == "over" and place != "over":
            self.comment(line, f"note {place} {', '.join(names)} (volley puts it over them)")
        note = Note(line, names, text, side=side)
        self.notes.append((note, names))
        self.add(note)
        return index

    def ref(self, line: int, found: re.Match[str], index: int) -> int:
        if found["back"]:  # `ref over A #blue`: its second colour
            back = found["back"].strip()
            self.comment(line, f"{back} (volley draws notes in the theme's colours)")
        text, index = self.note_body(line, found["text"], index, closer=_REF_END)
        names = [self.use(line, name) for name in found["names"].split(",")]
        self.comment(line, "ref over (a reference to another diagram, drawn as a note)")
        note = Note(line, names, f"**ref:** {text}" if text else "**ref**")
        self.notes.append((note, names))
        self.add(note)
        return index

    def note_words(self, text: str) -> str:
        """A note's words as PlantUML shows them: `%autonumber%` the number last given, as in a
        message, and no `\\ `."""
        return _NOTE_SPACE_ESCAPE.sub(r"\1", text.replace("%autonumber%", self.given))

    def note_body(
        self, line: int, text: str | None, index: int, closer: re.Pattern[str] = _NOTE_END
    ) -> tuple[str, int]:
        """A note's text: on its line after the colon, or the lines up to `end note`;
        `%autonumber%` in it is the number last given, as in a message."""
        if text is not None:
            rows = [part.strip() for part in _lines(self.note_words(text).strip())]
            return note_text(self.creole(line, rows), written=True), index
        lines = self.part.lines
        end = index
        while end < len(lines) and not closer.fullmatch(lines[end].strip()):
            end += 1
        if end == len(lines):
            what, end_word = ("reference", "ref") if closer is _REF_END else ("note", "note")
            self.fail(line, f"this {what} is never closed; expected end {end_word}")
        body = [self.note_words(row.strip()) for row in lines[index:end]]
        depths = _depths(lines[index:end])
        self.text_left_out(line, "\n".join(body))
        while body and not body[-1]:
            body.pop()
        spans = _data_spans(lines[index:end]) if closer is _NOTE_END else []
        if spans:
            said = len(self.comments), len(self.gathered)
            # the words before, between and after the pieces of data
            bounds = [0, *(k for span in spans for k in span), len(body)]
            pairs = zip(bounds[::2], bounds[1::2], strict=True)
            words = [self.creole(line, body[a:b], depths[a:b]) for a, b in pairs]
            if not any(ends_a_note(row) for part in words for row in part):
                self.comment(
                    line, "indented data in a note (volley keeps its indentation in a code block)"
                )
                written = [*words[0]]
                for (start, stop), after in zip(spans, words[1:], strict=True):
                    written += [*_code_block(lines[index + start : index + stop]), *after]
                return note_text(written, written=True), end + 1
            # a fenced note is written over lines, which such a line would end: as text
            del self.comments[said[0] :], self.gathered[said[1] :]
        return note_text(self.creole(line, body, depths), written=True), end + 1

    def creole(self, line: int, rows: list[str], depths: list[int] | None = None) -> list[str]:
        """A note's lines as volley markup: Creole's lists (`* item`, `# numbered`, `**` one
        level in) as volley's, its headings (`= Title`) in bold, its tables (`|= head |` over
        `| cell |` rows) as GitHub's, any other line as its words, with what volley would read
        as markup escaped, indented as deep as `depths` says (PlantUML keeps a line's indent:
        a subquery's lines under its JOIN)."""
        out: list[str] = []
        plain: list[int] = []  # which of them are words
        tables = 0
        ruled = False  # a line across the note said in a comment
        indents = [0]  # where the text of the item at each level starts
        k = 0
        while k < len(rows):
            row = rows[k]
            if (rule := _CREOLE_RULE.fullmatch(row)) is not None:
                words = (rule["dash"] or rule["double"] or rule["dot"] or "").strip()
                if not ruled:
                    self.comment(line, f"{row} (a line across the note, which volley leaves out)")
                    ruled = True
                if out and out[-1]:
                    out.append("")  # what follows it starts a paragraph of its own
                if words:
                    out += [f"**{_markup(words)}**", ""]
                indents = [0]
            elif (item := _CREOLE_ITEM.fullmatch(row)) is not None:
                marks = item["marks"] or item["numbered"]
                level = min(len(marks) - 1, len(indents) - 1)
                marker = "-" if marks[0] == "*" else "1."
                del indents[level + 1 :]
                indents.append(indents[level] + len(marker) + 1)
                shown = _markup((item["text"] or item["words"]).strip())
                out.append(" " * indents[level] + f"{marker} {shown}")
            elif (heading := _CREOLE_HEADING.fullmatch(row)) is not None:
                out.append(f"**{_markup(heading[1])}**")  # drawn larger, in bold
                indents = [0]
            elif _EMPTY_ROW.fullmatch(row):  # `|||`, written for space: a table of nothing
                if out and out[-1]:
                    out.append("")
                indents = [0]
            elif _CREOLE_ROW.fullmatch(row):
                table = list(itertools.takewhile(_CREOLE_ROW.fullmatch, rows[k:]))
                out += self.creole_table(line, table)
                tables += 1
                k += len(table)
                indents = [0]
                continue
            else:
                if row and out and _CREOLE_ROW.fullmatch(out[-1]):  # text, not the table's
                    out.append("")  # next row: a table runs to a blank line
                plain.append(len(out))
                indent = "&nbsp;" * depths[k] if depths and row else ""
                out.append(note_line(indent + _markup(row)))
                indents = [0]
            k += 1
        while out and not out[-1]:  # a rule or a `|||` last: no empty lines after the text
            out.pop()
        plain = [at for at in plain if at < len(out)]
        read = sum(isinstance(block, Table) for block in parse_note("\n".join(out)))
        if read != tables:  # words with pipes volley would read as a table (or a table's row)
            for at in plain:
                out[at] = re.sub(r"(?<!\\)\|", r"\\|", out[at])
        return out

    def creole_table(self, line: int, rows: list[str]) -> list[str]:
        """Creole's table as GitHub's: its `|=` cells the head; a table without them gets its
        first row as the head, which volley's tables have, with a comment."""
        cells = [[cell.strip() for cell in row.strip()[1:-1].split("|")] for row in rows]
        head = all(cell.startswith("=") for cell in cells[0])
        if not head:
            self.comment(line, "a table without a head row (volley draws its first row as one)")
        width = max(map(len, cells))
        written = []
        for row in cells:
            shown = [_markup(_CELL_COLOUR.sub("", cell).lstrip("=").strip()) for cell in row]
            written.append("| " + " | ".join(shown + [""] * (width - len(shown))) + " |")
        return [written[0], "|" + " --- |" * width, *written[1:]]

    def box(self, line: int, found: re.Match[str]) -> None:
        around = next((opened.box for opened in reversed(self.stack) if opened.box), None)
        if around is not None:
            self.comment(line, "a box inside a box (volley draws it as a box of its own)")
            self.around.add(around.line)
        label = found["quoted"] if found["quoted"] is not None else (found["label"] or "")
        tint = _colour(found["tint"]) if found["tint"] else None
        if found["tint"] and tint is None:
            self.comment(line, f"{found['tint']} (no colour volley knows: the box is uncoloured)")
        if found["stereo"]:
            self.comment(line, f"{found['stereo']} (a stereotype)")
        box = Box(line, self.label(label) if label.strip() else "", tint, [], 0)
        self.diagram.boxes.append(box)
        self.stack.append(_Open("box", line, box=box))

    def open_block(self, line: int, keyword: str, label: str) -> None:
        if self.deeper or sum(o.block is not None for o in self.stack) >= MAX_DEPTH:
            self.deeper += 1  # its `end` closes nothing: one error for the first alone
            if self.deeper == 1:
                self.fail(line, f"blocks nested more than {MAX_DEPTH} deep; volley reads no more")
            return
        if keyword == "par2":  # no frame: its messages, one a part, drawn on one row
            self.comment(
                line, f"{keyword} (parallel messages, which volley draws one under another)"
            )
            self.stack.append(_Open(keyword, line))
            return
        if keyword == "alt":
            label = if_label(label)  # `alt if it expired`: the frame's tag says "if"
        block = Block(line, BLOCKS[keyword], [Branch(self.label(label), [], line)])  # type: ignore[arg-type]
        self.add(block)
        self.stack.append(_Open(keyword, line, block))

    def branch(self, line: int, label: str) -> None:
        top = self.stack[-1] if self.stack else None
        if top is not None and top.keyword == "par2":
            return  # the next of par2's messages: said at the par2
        if top is None or top.block is None:
            self.fail(line, "else outside alt, par or critical; it belongs between one and its end")
        if top.block.kind not in BRANCHES:  # PlantUML parts any frame; volley's if has parts
            self.comment(
                top.line,
                f"{top.keyword} with an else (volley draws it as an if frame, with its parts)",
            )
            top.block.kind = "if"
            first = top.block.branches[0]
            first.label = if_label(first.label)  # `opt if …`: the frame's tag says "if" now
        top.block.branches.append(Branch(self.label(label), [], line))

    def end(self, line: int, box: bool = False) -> None:
        """`end` (or, with `box`, `end box`): close the block (or box) opened last."""
        if self.deeper and not box:  # a block past the deepest, closed
            self.deeper -= 1
            return
        top = self.stack[-1] if self.stack else None
        if top is not None and top.keyword == "par2" and not box:
            self.stack.pop()  # par2 needs no end, but may have one
            return
        if top is None or (top.box is not None) != box:
            self.fail(
                line, "end box without a box to close" if box else "end without a block to close"
            )
        self.stack.pop()
        closed = top.box if box else top.block
        assert closed is not None
        closed.end_line = line

    def activation(self, line: int, on: bool, written: str) -> None:
        name = self.use(line, written)
        if on:
            # (PlantUML's SequenceDiagram.activate: the message before it, if it names B)
            last = self.answerable
            dealt = last is not None and name in (last.sender, last.receiver)
            self.bars.append(name)
            self.returns.append(last if dealt else None)
        elif not self.close(name):
            self.comment(line, f"deactivate {name} (no activation of {name} is open here)")
            return
        self.at_last_message(Activation(line, name, on), moved=not on or dealt)

    def on_message(self, item: Item) -> bool:
        """Whether an item after a message is about it: a bar or a note, but one that stands
        for an arrow from the edge."""
        return isinstance(item, (Activation, Note)) and id(item) not in self.edge_notes

    def at_last_message(self, activation: Activation, moved: bool) -> None:
        """Add an activation where PlantUML starts or ends its bar: at the message before it,
        before the notes written on that message since (and after the activations already
        there, in their order), when `moved`; else where it is written. A moved one takes its
        message's line, so the comments on those notes stay above them."""
        items = self.items()
        at = len(items)
        while at and self.on_message(items[at - 1]):
            at -= 1
        message = items[at - 1] if at else None
        notes = any(isinstance(item, Note) for item in items[at:])
        if not (moved and notes and isinstance(message, Message)):
            items.append(activation)
            return
        while isinstance(items[at], Activation):
            at += 1
        activation.line = message.line
        items.insert(at, activation)

    def close(self, name: str) -> bool:
        """End `name`'s last bar, and take the top message off the stack `return` answers
        from, as PlantUML's deactivation does whoever it names; False when no bar of `name` is
        open."""
        if not self.end_bar(name):
            return False
        if self.returns:
            self.returns.pop()
        return True

    def end_bar(self, name: str) -> bool:
        """Take `name`'s last bar off those open; False when none is."""
        if name not in self.bars:
            return False
        del self.bars[len(self.bars) - 1 - self.bars[::-1].index(name)]
        return True

    def reply(self, line: int, label: str) -> None:
        """`return`, as PlantUML reads it: a dashed reply to the message that started the last
        activation (the message before `activate B`, or the one marked `++`), from the
        participant it went to back to its sender, which ends that activation; with no
        activation open, the message before it turned around, ending none."""
        ends: Literal["-"] | None = None
        opened = [k for k, by in enumerate(self.returns) if by is not None]
        if opened:  # answered, and its receiver's bar ended, which pops the stack's top
            answered = self.returns[opened[-1]]
            del self.returns[opened[-1]]
        elif self.answerable is None:
            self.fail(line, "return with no message before it to answer")
        else:  # no activating message: the last message turned around, ending no bar
            answered = self.answerable
        assert answered is not None
        caller, replier = _ends(answered)
        party = replier or caller  # (an edge arrow's participant, MessageExo's, at either end)
        ended = party if opened and self.end_bar(party) else None
        if ended:
            ends = "-"
        thin = ">>" in answered.arrow or "<<" in answered.arrow  # its head, dashed
        arrow = "-->>" if thin else "-->"
        message = Message(line, replier, caller, arrow, self.label(label), activate=ends)
        self.sent_to(line, caller)
        if not (replier and caller):  # an answer to an arrow from the edge goes back to it
            on_left = not answered.sender  # (the side of the edge the arrow it answers met)
            written = f"return {label}".strip()
            self.edge_note(line, written, party, on_left, False, label)
            if ended:
                self.add(Activation(line, ended, False))
            self.answerable = message
            return
        self.number(message)
        self.add(message)
        self.last, self.last_edge, self.answerable = message, None, message

    def number(self, message: Message) -> None:
        """The message's number, under `autonumber`; `%autonumber%` in its words is the number
        last given (after `autonumber stop` too), as PlantUML writes it."""
        number = self.next_number()
        words = None if number is None else self.number_words(number)
        if number is not None and number > LARGEST_NUMBER and words is None:
            self.fail(message.line, f"volley numbers messages up to {LARGEST_NUMBER:,}")
        message.label = message.label.replace("%autonumber%", self.given)
        if words is not None:  # its words lead the label
            message.label = f"{words} {message.label}".rstrip()
            number = None
        message.number = number

    def number_words(self, number: int) -> str | None:
        """A message's number as words leading its label, where volley's own numbers cannot
        show it: PlantUML's numbers in levels (`6.3.1`, bold as PlantUML draws them), or the
        words of a format (`"<b>[000]"`); None where volley draws the number."""
        if self.levels:
            return f"**{self.given}**"
        return None if self.shown is None else _numbered(self.shown, number)

    def next_number(self) -> int | None:
        """The number PlantUML gives the next message, if it numbers them here."""
        if not self.numbered:
            return None
        number = self.count
        self.given = ".".join(str(part) for part in [*self.levels, number])
        self.count += self.step
        return number

    def lifecycle(self, line: int, text: str, found: re.Match[str]) -> None:
        kind = (found["kind"] or "").lower()
        if kind and kind not in PARTICIPANT_KINDS:
            self.fail(line, f"expected a participant after {found['word']}")
        name = self.use(line, found["name"])
        self.comment(line, f"{text} (volley draws {name}'s lane throughout)")
        if found["word"].lower() == "destroy":
            self.destroyed(line, name)
        else:
            self.creating = (line, name)

    def sent_to(self, line: int, receiver: str | None) -> None:
        """A message on `line` goes to `receiver` (None: it counts for none): after `create
        X`, PlantUML draws the diagram only if the next message goes to X from another lane,
        or is an arrow at the diagram's edge on X's lane (a note, a section or a block may
        come between), so another is an error, as the Mermaid importer makes it."""
        if self.creating is None:
            return
        at, created = self.creating
        self.creating = None
        if receiver != created:
            meant, whence = f"… -> {created} : …", " from another participant"
            said = create_not_followed("PlantUML", f"create {created}", at, created, meant, whence)
            self.fail(line, *said)

    def destroyed(self, line: int, name: str) -> None:
        """End the bars open on a participant PlantUML destroys: its lifeline stops there. A
        later `return` still answers the message that started one (PlantUML's stack keeps it),
        but ends no bar."""
        while name in self.bars:
            self.bars.remove(name)
            self.add(Activation(line, name, False))

    def autonumber(self, line: int, text: str, found: re.Match[str]) -> None:
        shown = found["format"]
        # words, brackets or zeros are what the prose refers to; the number alone is volley's
        plain = shown is None or _DIGITS.fullmatch(_TAGS.sub("", shown) or "#") is not None
        if shown is not None:
            said = (
                "volley draws the numbers in its own style"
                if plain
                else "each number is written into its message's words"
            )
            self.comment(line, f'"{shown}" ({said})')
        if shown is not None or not found["stop"]:  # a new count takes its own format
            self.shown = None if plain else shown
        if found["stop"] and found["stop"].lower() == "stop":  # until `autonumber resume`
            self.numbered = False
            return
        if found["stop"] and found["stop"].lower().startswith("inc"):
            self.next_level(line, text, found["stop"])
            return
        start, step = found["start"], found["step"]
        if found["stop"] and not step:  # `autonumber resume 5`: on, in steps of 5
            start, step = None, start
        elif not found["stop"]:  # a new count: from 1 in steps of 1 unless given
            start, step = start or "1", step or "1"
        if start and not found["stop"]:  # a new count: in levels (1.1.1), or whole numbers
            *levels, start = start.split(".")
            self.levels = [int(level) for level in levels]
            if levels:  # (a format's words go: PlantUML's levels are what prose names)
                left = f', without the format "{shown}"' if shown is not None else ""
                said = f"each number is written into its message's words{left}"
                self.comment(line, f"{text} ({said})")
        elif start and "." in start:  # `autonumber resume 1.2`: no such step
            self.comment(line, f"{text} (volley numbers in steps of whole numbers)")
            start = start.split(".")[-1]
        if start:
            self.count = int(start)
        if step:
            self.step = int(step)
            if self.step != 1:
                self.comment(
                    line, f"{text} (numbered in steps of {self.step}, as PlantUML does)", raw=True
                )
        self.numbered = True

    def next_level(self, line: int, text: str, inc: str) -> None:
        """`autonumber inc A` (or `B` …): PlantUML's numbers in levels go on at the next of
        that level, the levels after it from 1 (1.1.2, then 2.1.1); whole numbers go on."""
        letter = inc[3:].strip().upper() or "A"
        parts = [*self.levels, self.count]
        level = ord(letter) - ord("A")
        if not self.levels or level >= len(parts):
            self.comment(line, f"{text} (volley numbers its messages 1, 2, 3 …: they go on)")
            return
        parts[level] += 1
        parts[level + 1 :] = [1] * (len(parts) - level - 1)
        *self.levels, self.count = parts

    def title(self, line: int, text: str | None, index: int) -> int:
        lines = self.part.lines
        if text is None or not text.strip():  # `title` … `end title`
            end = index
            while end < len(lines) and lines[end].strip().lower() not in ("end title", "endtitle"):
                end += 1
            text = "\\n".join(row.strip() for row in lines[index:end])  # each its own line
            index = end + 1
            self.text_left_out(line, text)  # (a one-line title's were said with its statement)
        if self.diagram.title is not None:  # PlantUML shows the last, as volley does now
            earlier = f"title {self.diagram.title} (PlantUML shows the last title only)"
            self.comment(self.diagram.title_line, earlier, raw=True)
        self.diagram.title = self.label(text)
        self.diagram.title_line = line
        return index

    # --- the diagram ---

    def finish(self) -> None:
        diagram = self.diagram
        # PlantUML puts the lanes in the order of their `order N` (0 unless given), each
        # where it was last declared among those of the same order
        diagram.participants = sorted(self.lanes.order(), key=lambda lane: self.orders.get(lane, 0))
        if self.hide_unlinked:  # PlantUML leaves out a lane no message links (noted, kept)
            linked = {name for m in diagram.messages() for name in (m.sender, m.receiver)}
            linked |= {name for _, names in self.notes for name in names} | self.edge_lanes
            linked |= {a.participant for a in walk(diagram.items) if isinstance(a, Activation)}
            kept = [name for name in diagram.participants if name in linked] or list(
                diagram.participants
            )
            diagram.participants = kept
            diagram.labels = {name: shown for name, shown in diagram.labels.items() if name in kept}
            for box in diagram.boxes:
                box.participants = [name for name in box.participants if name in kept]
        position = {name: index for index, name in enumerate(diagram.participants)}
        for note, names in self.notes:
            if not names:
                note.over = list(diagram.participants)
                continue
            ends = sorted(position[name] for name in names)
            note.over = diagram.participants[ends[0] : ends[-1] + 1]
        for box in diagram.boxes:
            if box.participants:
                continue
            if box.line in self.around:  # teoz draws it around them; volley draws them alone
                titled = f" ({box.label})" if box.label else ""
                self.comment(box.line, f"a box around boxes{titled}, which volley draws without it")
            else:
                self.comment(box.line, "a box with no participant in it, which PlantUML leaves out")
        diagram.boxes = [box for box in diagram.boxes if box.participants]


_LARGEST_INCLUDE = 4_000_000  # bytes: a diagram's include, not a data dump
# What a diagram includes: PlantUML's files, and text (a `.env`, a key, has none of these)
_INCLUDED_SUFFIXES = (
    ".puml",
    ".iuml",
    ".plantuml",
    ".pu",
    ".pml",
    ".ipml",
    ".wsd",
    ".uml",
    ".skin",  # a skin's settings
    ".txt",
)


def _includer(filename: str | None) -> Includer | None:
    """What reads the files a diagram's `!include` lines name, relative to the file that names
    each, as PlantUML reads them (the first `@startuml` … `@enduml` of one that has any); none
    for a diagram that is no file on disk (standard input, a request to the server)."""
    if not filename or filename.startswith("<"):  # `<stdin>`, `<link>`: no file of its own
        return None
    top = Path(filename)
    if not top.is_file():
        return None

    # A .puml someone else wrote (a pull request, a CI job that imports it) reads none of a
    # project's `.env`, keys or `/proc/self/environ`, which an error would quote and a note
    # would copy into the output: only the diagram's own PlantUML files.
    def include(written: str, origin: str | None) -> tuple[str, list[str]]:
        try:
            path = ((Path(origin) if origin else top).parent / written).resolve()
        except (OSError, RuntimeError):  # a loop of links
            raise NotIncluded("volley cannot read it: it cannot be followed to a file") from None
        if not in_project(path, top):
            raise NotIncluded(
                "volley reads only the diagram's own files, in or below its folder or the "
                "folder volley runs in: run it from a folder that holds both"
            )
        if path.suffix.lower() not in _INCLUDED_SUFFIXES:
            raise NotIncluded(
                "volley reads only PlantUML's files (" + ", ".join(_INCLUDED_SUFFIXES) + ")"
            )
        try:
            if not path.exists():
                raise NotIncluded("volley cannot read it: there is no such file")
            if not path.is_file():  # a folder, a device: nothing PlantUML draws
                raise NotIncluded("volley cannot read it: not a file")
            if path.stat().st_size > _LARGEST_INCLUDE:
                raise NotIncluded(f"volley cannot read it: larger than {_LARGEST_INCLUDE:,} bytes")
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeError) as exc:
            reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
            raise NotIncluded(f"volley cannot read it: {reason}") from None
        lines = normalise(text).split("\n")
        parts = _parts(lines)
        return str(path), parts[0].lines if parts else lines

    return include


def _continued(lines: list[str]) -> list[str]:
    """The lines with a statement that ends in `\\` joined to the lines after it, as PlantUML
    reads them: the statement keeps the number of its first line, and an empty line stands in
    for each line it took, so that every other line keeps its number."""
    out = list(lines)
    k = 0
    while k < len(out):
        end = k
        while _CONTINUED.search(out[k]) and end + 1 < len(out):
            end += 1
            out[k] = out[k].rstrip()[:-1] + out[end].lstrip()
            out[end] = ""
        k = end + 1
    return out


def _scripted(found: re.Match[str]) -> str:
    """`<sub>O</sub>` as `_O`, `<sup>1-vk</sup>` as `^{1-vk}`; one of blanks as its blanks
    (`<sub> </sub>`, which people write for room: PlantUML draws no mark)."""
    mark = "_" if found[1].lower() == "sub" else "^"
    inner = found[2]
    if not inner.strip():
        return inner
    return f"{mark}{inner}" if len(inner) == 1 else f"{mark}{{{inner}}}"


def _colour(written: str) -> str | None:
    """PlantUML's colour (`#LightGreen`, `#FFAAAA`, the first of a gradient `#red/blue`) as a
    colour CSS reads, or None when it names none."""
    from volley.text.colours import read_colour

    first = re.split(r"[/|\\-]", written.removeprefix("#"), maxsplit=1)[0]
    for candidate in (f"#{first}", first):
        if read_colour(candidate) is not None:
            return candidate
    return None


def _link_per_line(found: re.Match[str]) -> str:
    """A link whose words break a line (`[[url the\\ndocs]]`) as a link on each line, to the
    same address: PlantUML draws each line of its words as the link, and a link cut in two
    by the break would be read as no link, its brackets and address shown."""
    words = found["linked"] or ""
    pieces, done = [], 0
    for escape in _ESCAPE.finditer(words):
        if _BREAK.fullmatch(escape[0]):
            pieces += [words[done : escape.start()], escape[0]]
            done = escape.end()
    if not pieces:
        return found[0]
    pieces.append(words[done:])
    opening = found[0][: found.start("linked") - found.start()]  # `[[url{tooltip} `
    return "".join(
        piece if k % 2 else f"{opening}{piece}]]" if piece.strip() else ""
        for k, piece in enumerate(pieces)
    )


_BREAK = re.compile(r"\\[nrl]|(?i:<br[ \t]*/?>)")  # the escapes of `_ESCAPE` that break


# `\ ` in a note, which PlantUML leaves out (`one\n\ two` draws "two" on its second line); a
# message's label keeps it. An escaped backslash before it (`\\ `) stays one.
_NOTE_SPACE_ESCAPE = re.compile(r"(?<!\\)((?:\\\\)*)\\ ")


def _lines(text: str) -> list[str]:
    """PlantUML's text split where it breaks lines, its escapes read as Display.getWithNewlines
    reads them: `\\n`, `\\r`, `\\l` and `<br>` break, `\\t` is a tab (a space here), `\\\\` a
    backslash (so `C:\\\\logs` is no line break)."""
    lines = [""]
    done = 0
    text = re.sub(_LINK, _link_per_line, text)
    for found in _ESCAPE.finditer(text):
        lines[-1] += text[done : found.start()]
        done = found.end()
        if found[0] == "\\\\":
            lines[-1] += "\\"
        elif found[0] == "\\t":
            lines[-1] += " "
        else:
            lines.append("")
    lines[-1] += text[done:]
    return lines


def _ends(message: Message) -> tuple[str, str]:
    """Who sends a message and who it goes to, as its arrow points (`B <- A`: A to B)."""
    if message.arrow.startswith("<") and not message.arrow.endswith(">"):
        return message.receiver, message.sender
    return message.sender, message.receiver


# Pretty-printed JSON in a note: a line of `{` or `[` alone, keys in quotes, a closing line
_DATA_OPENS = re.compile(r"(?:^|[ \t:=])[{\[]$")  # `{`, `job {`, `submodels: [`
_DATA_KEY = re.compile(r'[ \t]*(?:"[^"]*"|[\w$@.-]+)[ \t]*[:=]')  # `"id":`, `id: Int`, `n = 1`
_CREOLE_MARKS = re.compile(r"^[ \t]*[*#]|\*\*|</?(?:b|i|u|s|w|color|size|font|back)\b", re.M | re.I)
# Any of Creole's styles: a note that has one is written as text, which volley styles too.
_CREOLE_STYLES = re.compile(
    r'""|(?<!:)//|__|--|~~|\*\*|</?(?:b|i|u|s|w|color|size|font|back|img|sub|sup|strike|del|code)\b'
    r"|^[ \t]*(?:[*#=|]|\.\.|\+\+)",
    re.M | re.I,
)


def _data_spans(rows: list[str]) -> list[tuple[int, int]]:
    """Where each piece of data in a note starts and ends (the line after it), when its lines
    are indented within it: PlantUML keeps a note's indentation (less what all its lines
    share), which volley's note text, read as paragraphs, would lose. Data opens with `{` or
    `[` ending a line (alone, or after a word: `job {`), holds a `"key":` line, and runs to
    where its brackets close; words may come before, between and after. (Creole in a note,
    which PlantUML styles, is never taken for it.)"""
    spans: list[tuple[int, int]] = []
    start = 0
    while (span := _data_span(rows, start)) is not None:
        spans.append(span)
        start = span[1]
    if not spans and _laid_out(rows):
        return [(0, len(rows))]
    return spans


def _laid_out(rows: list[str]) -> bool:
    """A note of plain lines laid out as data, some indented two columns or more under the
    others, each of those a `key: value` or one word (`header` over `  source: payerDFSP`, a
    path under `file dir:`): its layout is what it says, and volley's note text would run it
    flush. (Indented words are prose: `Steps:` over sentences.)"""
    kept = _dedented(rows)
    text = "\n".join(kept)
    indented = [row for row in kept if row[:2] == "  " and row.strip()]
    return (
        bool(indented)
        and all(  # `  isActive = 1`, `  [endpointTypeId = <type>]`, a path
            _DATA_KEY.match(row.strip().lstrip("[{(")) or " " not in row.strip() for row in indented
        )
        and any(_DATA_KEY.match(row) or row.endswith(":") for row in kept)
        and not _CREOLE_STYLES.search(text)
    )


def _data_span(rows: list[str], after: int) -> tuple[int, int] | None:
    opens = (k for k in range(after, len(rows)) if _DATA_OPENS.search(rows[k].rstrip()))
    for start in opens:
        depth = 0
        for end in range(start, len(rows)):
            depth += _bracket_depth(rows[end])
            if depth <= 0:
                break
        else:
            return None
        data = _dedented(rows[start : end + 1])
        if not any(_DATA_KEY.match(row) for row in data):
            continue
        bare = _QUOTED_STRING.sub('""', "\n".join(data))  # a style in a string stays data
        if _CREOLE_MARKS.search(bare) and not _json("\n".join(data)):
            continue  # Creole in brackets (`[`, `* item`, `**bold**`, `]`), which PlantUML styles
        if any(row[:1] == " " for row in data):
            return start, end + 1
    return None


_QUOTED_STRING = re.compile(r'"(?:[^"\\]|\\.)*"')


def _bracket_depth(row: str) -> int:
    """How many brackets a line opens less how many it closes, outside its quoted strings."""
    bare = _QUOTED_STRING.sub("", row)
    return sum(bare.count(c) for c in "{[") - sum(bare.count(c) for c in "}]")


def _json(text: str) -> bool:
    try:
        json.loads(text)
    except ValueError:
        return False
    return True


def _dedented(rows: list[str]) -> list[str]:
    """Lines less the indentation they all share, tabs as four spaces, no empty lines at
    either end."""
    text = "\n".join(row.rstrip().expandtabs(4) for row in rows)
    return trimmed(textwrap.dedent(text).split("\n"))


def _code_block(rows: list[str]) -> list[str]:
    """Data as a fenced block, marked JSON where it is."""
    kept = _dedented(rows)
    fence = fence_for(kept)
    lang = "json" if _json("\n".join(kept)) else ""
    return [fence + lang, *kept, fence]


# PlantUML formats a number as Java's DecimalFormat does: `0` a digit always written, `#` one
# written when there is one, `.` the decimal point (written after a whole number when no digit
# follows it: `"<b>."` writes 1.), `'.'` quoted words; around them, words and Creole
# (`"<b>[000]"` writes [001], `"<b>0'.'"` 1.)
_DIGITS = re.compile(r"#*0?")  # a format that is the number alone (grouped `#,##0` is not)
# (a tag's `#` is a colour's, `<font color=#FF0000>`, and a quoted one is a word)
_PLACES = re.compile(r"<[^>]*>|'[^']*'|(?P<places>[#0.](?:[#0,.]*[#0.])?)")
_QUOTED = re.compile(r"'([^']*)'")
_TAGS = re.compile(r"<[^>]*>")


def _numbered(shown: str, number: int) -> str:
    """The words a format writes for a message's number, as volley markup."""
    places = next((m for m in _PLACES.finditer(shown) if m["places"]), None)
    if places is None:
        before, digits, after = shown, str(number), ""
    else:
        before, after = shown[: places.start()], shown[places.end() :]
        whole, point, fraction = places["places"].partition(".")
        zeros = whole.count("0")
        digits = f"{number:0{zeros},}" if "," in whole else str(number).zfill(zeros)
        if point and (not fraction or "0" in fraction):  # `0.` writes 1., `0.00` 1.00
            digits += "." + "0" * fraction.count("0")
    return _markup(f"{_unquoted(before)}{digits}{_unquoted(after)}")


def _unquoted(words: str) -> str:
    """A format's words as written: `'.'` is a dot, `''` a quote."""
    return _QUOTED.sub(lambda quoted: quoted[1] or "'", words)


def _emoji(found: re.Match[str]) -> str:
    """The character an emoji's code names (`<:1f600:>`); one no character has stays as written."""
    code = int(found["code"], 16)
    return found[0] if code > 0x10FFFF or 0xD800 <= code <= 0xDFFF else chr(code)


def _closed(text: str) -> str:
    """The text with each style tag left open (`<b>bold to the end`) closed at its end: in
    PlantUML a style runs to the end of the line."""
    open_tags: list[str] = []
    for found in _STYLE_TAG.finditer(text):
        tag = found[2].lower()
        if not found[1]:
            open_tags.append(tag)
        elif tag in open_tags:
            open_tags.remove(tag)
    return text + "".join(f"</{tag}>" for tag in reversed(open_tags))


def _with_icons(text: str) -> tuple[str, str]:
    """Words as volley markup, escaped, OpenIconic's icons in them as Font Awesome's (none
    where there is no match); and the words they show."""
    marked: list[str] = []
    done = 0
    for icon in re.finditer(_ICON, text):
        marked.append(escape_markup(_decoded(text[done : icon.start()])))
        drawn = FONT_AWESOME.get(icon["icon"].lower())
        marked.append(f"{{fas-{drawn}}}" if drawn else "")
        done = icon.end()
    marked.append(escape_markup(_decoded(text[done:])))
    return "".join(marked), _decoded(re.sub(_ICON, "", text))


def _markup(text: str) -> str:
    """PlantUML's Creole text as volley markup showing the same words: its styles as volley's,
    every other character that is markup in volley escaped. Where volley would not read the
    markup back as meant, the words are kept without their style. Creole's `~` before a
    style's character shows that character as itself (`~**` two stars, no bold)."""
    kept: list[str] = []

    def keep(found: re.Match[str]) -> str:  # set aside from the styles, as a mark of its own
        if found["link"]:  # a link's address is as written, `~` and all
            return found[0]
        kept.append(found["kept"])
        return f"{_KEPT_OPEN}{len(kept) - 1}{_KEPT_CLOSE}"

    if _KEPT_OPEN not in text:  # (a text of private-use characters keeps its `~` as written)
        text = _CREOLE_ESCAPE.sub(keep, text)
    text = _GUILLEMETS.sub(r"«\1»", text)  # `<<create>>`, drawn «create» in any text
    text = _SCRIPT.sub(_scripted, _OTHER_TAGS.sub("", _IMAGE.sub("", text)))
    text = _EMOJI.sub(_emoji, text)
    marked, words = _styled(_closed(_STRIKE_TAG.sub(r"<\1s\2>", text)))
    readable = plain_text(marked) == " ".join(words.split())
    written = (marked if readable else escape_markup(words)).strip()
    if not kept:
        return written
    return _KEPT.sub(lambda found: escape_markup(kept[int(found[1])]), written)


_GUILLEMETS = re.compile(r"<<(.+?)>>")  # `<<task>>`, a stereotype, PlantUML draws as «task»
# Creole's escape, `~` before a character, and the marks that stand for the character it keeps
# while the styles are read (characters of Unicode's private use)
_CREOLE_ESCAPE = re.compile(  # a style's character (`~~` is one: waved); a link passed over
    r"(?P<link>\[\[[^\]]*\]\])|~(?P<kept>[*/\"_<\[-])"
)
_KEPT_OPEN, _KEPT_CLOSE = "\ue000", "\ue001"
_KEPT = re.compile("\ue000(\\d+)\ue001")


def _styled(text: str) -> tuple[str, str]:
    """Creole's styles in `text` as volley's markup, one inside another too (`**<s>x</s>**`,
    as plantuml.com writes it), and the words the text shows."""
    pieces: list[str] = []
    shown: list[str] = []
    done = 0
    for found in _STYLE.finditer(text):
        before = _decoded(text[done : found.start()])
        pieces.append(escape_markup(before))
        shown.append(before)
        done = found.end()
        kind = next(
            k
            for k in ("url", "icon", "bold", "italic", "code", "strike", "under", "wave", "tagged")
            if found[k] is not None
        )
        inner = found[kind]
        if kind == "icon":  # Font Awesome's like it, or nothing (said where the text stands)
            pieces.append(_with_icons(found[0])[0])
            shown.append("")
            continue
        if kind == "code":
            fence = "`" * (max(map(len, re.findall("`+", inner)), default=0) + 1)
            pieces.append(f"{fence}{inner}{fence}")
            shown.append(inner)
            continue
        if kind == "url":  # the words shown, else the address itself, as a volley link
            inner, words = _with_icons(found["linked"] or inner)
            pieces.append(f"[{inner}]({found['url']})")
        else:
            marks = {"bold": "**", "italic": "*", "strike": "~~", "under": "", "wave": ""}
            mark = marks[kind] if kind in marks else _TAG_MARKS[found["tag"].lower()]
            inner, words = _styled(inner)
            # `** 42 **` is bold in PlantUML: the spaces go outside, where volley's emphasis
            # binds (a word's style starts and ends at its letters)
            core = inner.strip() if mark else inner
            lead, trail = inner[: len(inner) - len(inner.lstrip())], inner[len(inner.rstrip()) :]
            pieces.append(f"{lead}{mark}{core}{mark}{trail}" if core else f"{mark}{inner}{mark}")
        shown.append(words)
    rest = _decoded(text[done:])
    pieces.append(escape_markup(rest))
    shown.append(rest)
    return "".join(pieces), "".join(shown)


def _holding(items: list[Item], wanted: Item) -> list[Item] | None:
    """The list of items that holds `wanted` (itself, not an equal one), at any depth."""
    if any(item is wanted for item in items):
        return items
    for block in items:
        if isinstance(block, Block):
            for branch in block.branches:
                if (found := _holding(branch.items, wanted)) is not None:
                    return found
    return None
