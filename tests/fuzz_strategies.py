"""Inputs and invariants for the fuzz properties, shared by the CI tests and `scripts/fuzz.py`.

Two ways to make `.volley` text: diagrams built from the grammar's own constructs (so most of
them are valid and reach the renderers), and mutations of the real examples (so the parser's
error paths see text that is almost right, which is what people actually paste). Both mix in
the hostile corpus and the characters that break naive code: controls, bidi overrides, zero-
width joiners, combining marks, emoji, CJK, lone surrogates and XML's non-characters.

The invariants (`check_*`) are plain functions that raise AssertionError, so the CI tests and
the long campaign check exactly the same things.
"""

from __future__ import annotations

import functools
import os
import re
from pathlib import Path

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

import volley
from volley.errors import VolleyError
from volley.model import ARROWS, Diagram

ROOT = Path(__file__).resolve().parent.parent
HOSTILE = Path(__file__).resolve().parent / "hostile"

# CI runs a few hundred examples per property, the same ones each run (derandomized), so a
# red build always points at the change that made it; the campaign (scripts/fuzz.py) draws
# new examples every time, tens of thousands of them, and what it finds becomes a test.
# Deadlines are off: a slow example is measured, not flaky.
_HEALTH = [HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much]
settings.register_profile(
    "volley-ci",
    max_examples=200,
    deadline=None,
    suppress_health_check=_HEALTH,
    derandomize=True,
)
settings.register_profile(
    "volley-campaign",
    max_examples=int(os.environ.get("VOLLEY_FUZZ_EXAMPLES", "5000")),
    deadline=None,
    suppress_health_check=_HEALTH,
    database=None,
)
FUZZ = settings.get_profile(os.environ.get("VOLLEY_FUZZ_PROFILE", "volley-ci"))


def hostile_strings() -> list[str]:
    """Every one-line attack in the corpus."""
    text = (HOSTILE / "strings.txt").read_text(encoding="utf-8")
    return [line for line in text.split("\n") if line and not line.startswith("#")]


def hostile_bodies() -> dict[str, str]:
    """Every payload body in the corpus, by file name."""
    return {
        path.name: path.read_text(encoding="utf-8").rstrip("\n")
        for path in sorted((HOSTILE / "bodies").iterdir())
    }


def example_texts() -> list[str]:
    """The examples and every diagram in the docs: real text to mutate."""
    texts = [p.read_text(encoding="utf-8") for p in sorted((ROOT / "examples").glob("*.volley"))]
    fence = re.compile(r"^(`{3,}|~{3,})volley[^\n]*\n(.*?)^\1[ \t]*$", re.S | re.M)
    for page in sorted((ROOT / "docs").rglob("*.md")):
        texts.extend(m.group(2) for m in fence.finditer(page.read_text(encoding="utf-8")))
    return texts


# --- characters ------------------------------------------------------------------------------

# Characters XML 1.0 forbids (besides NUL, which the parser refuses): C0 controls other than
# tab/LF/CR, lone surrogates, and the non-characters U+FFFE/U+FFFF.
XML_FORBIDDEN = [chr(c) for c in range(1, 0x20) if c not in (9, 10, 13)] + [
    "\ud800",
    "\udfff",
    "\ufffe",
    "\uffff",
]
# Unicode noncharacters: XML takes them, cairo refuses any string holding one.
NONCHARACTERS = ["\ufdd0", "\ufdef", "\U0001fffe", "\U0010ffff"]
TRICKY = [
    *NONCHARACTERS,
    "\u202e",  # right-to-left override
    "\u202d",
    "\u2066",  # left-to-right isolate
    "\u2069",
    "\u200d",  # zero-width joiner
    "\u200b",
    "\u200c",
    "\ufeff",
    "\u00ad",  # soft hyphen
    "e\u0301\u0301\u0301",  # stacked combining marks
    "Z\u0336\u0335\u0334",
    "\U0001f469\u200d\U0001f4bb",  # a ZWJ emoji sequence
    "\U0001f3f3\ufe0f\u200d\U0001f308",
    "\U0001f600",
    "\U0001f1ef\U0001f1f5",  # a flag: two regional indicators
    "\U0001f44d\U0001f3fd",  # a skin tone
    "1\ufe0f\u20e3",  # a keycap
    "&\ufe0f",  # markup before the emoji selector
    "\U0001f3f4\U000e0067\U000e0062\U000e0065\U000e006e\U000e0067\U000e007f",  # tag flag
    "\u0915\u094d\u0937\u093f",  # a Devanagari conjunct and a vowel sign before it
    "\u0e19\u0e49\u0e33",  # Thai marks stacked over a letter
    "\U0001d54f",  # outside the BMP
    "漢字",
    "日本語のラベル",
    "مرحبا",
    "שלום",
    "\u00a0",
    "\u3000",
    "\u2028",
    "\u2029",
    "\x85",
    "\x7f",
    "\t",
]
MARKUP = [
    "**", "*", "_", "~~", "`", "``", "\\", "\\n", "\\*", "[", "]", "(", ")", "[x](https://a.b)",
    "[x](#top)", "{fas-plug}", "{far-bolt fa-lg}", "{fab-github fa-2x}", "{fas-nope}", "{fal-x}",
    "{fas-", "{", "}", "<", ">", "&", "&amp;", '"', "'", "]]>", "{{", "}}", "{%", "%}", "- ", "1. ",
]  # fmt: skip
WORDS = ["Agent", "MCP Server", "db", "A", "B", "x", "GET /users?id=1", "200 OK", "ok", "retry"]
_ARROW_RE = re.compile("|".join(re.escape(a) for a in ARROWS))


def _pieces(extra: list[str]) -> st.SearchStrategy[str]:
    return st.one_of(
        st.sampled_from(WORDS),
        st.sampled_from(MARKUP),
        st.sampled_from(TRICKY),
        st.sampled_from(XML_FORBIDDEN),
        st.sampled_from(extra),
        st.text(max_size=6),
    )


def one_line(text: str) -> str:
    """The text with anything that ends a line turned into a space."""
    return text.replace("\r", " ").replace("\n", " ").replace("\x00", " ")


@st.composite
def label(draw: st.DrawFn, max_pieces: int = 8) -> str:
    """Text for any label position: words, markup, corpus attacks and odd characters."""
    parts = draw(st.lists(_pieces(hostile_strings()), max_size=max_pieces))
    if draw(st.integers(0, 30)) == 0:
        parts.append(draw(st.sampled_from(["*", "{fas-", "_", "`", "[", "\\"])) * 2000)
    return one_line(" ".join(parts)).strip()


def as_name(text: str) -> str:
    """A participant name made from any text: no `:`, `,`, arrow operator, outer space or
    `;` at the end, and no `'` to start it (PlantUML's comment)."""
    text = one_line(text).replace(":", ";").replace(",", ";")
    while True:
        cleaned = _ARROW_RE.sub("~", text)
        cleaned = re.sub(r"-x(?=[ \t])", "~", cleaned)
        if cleaned == text:
            break
        text = cleaned
    text = re.sub(r"[\s;]+$", "", text).strip()  # no `;` at the end: Mermaid's end of a line
    if text.startswith("'"):
        text = "P" + text
    return text if text and not text[0].isspace() else "P"


@st.composite
def name(draw: st.DrawFn) -> str:
    if draw(st.booleans()):
        return draw(st.sampled_from(["A", "B", "Agent", "MCP Server", "db"]))
    return as_name(draw(label(max_pieces=3)))


# --- bodies ----------------------------------------------------------------------------------

JSON_BODIES = [
    '{"jsonrpc": "2.0", "id": 1, "method": "tools/list"}',
    '{"a": [1, {"b": null}], "c": "</script><!--<script>"}',
    "[]",
    "42",
    '{"deep": ' * 50 + "1" + "}" * 50,
    '{"broken": ',
]


@st.composite
def body_lines(draw: st.DrawFn) -> list[str]:
    """The lines of a payload body: JSON, HTTP, corpus bodies or random lines."""
    choice = draw(st.integers(0, 3))
    if choice == 0:
        return draw(st.sampled_from(JSON_BODIES)).split("\n")
    if choice == 1:
        return draw(st.sampled_from(list(hostile_bodies().values()))).split("\n")
    if choice == 2:
        head = ["POST /mcp HTTP/1.1", "Content-Type: application/json", ""]
        return head + [draw(st.sampled_from(JSON_BODIES))]
    return [one_line(line) for line in draw(st.lists(label(max_pieces=4), max_size=5))]


def fence_for(lines: list[str], char: str = "`") -> str:
    """A fence longer than any run of the same character that starts a line in the body."""
    longest = 2
    for line in lines:
        stripped = line.strip(" \t")
        run = len(stripped) - len(stripped.lstrip(char))
        longest = max(longest, run)
    return char * (longest + 1)


@st.composite
def payload(draw: st.DrawFn, side: str) -> list[str]:
    keyword = draw(st.sampled_from([side, side.upper(), side.title()]))
    head = f"{keyword}:"
    if draw(st.booleans()):
        head += " " + draw(label(max_pieces=3))
    lines = draw(body_lines())
    if draw(st.booleans()):
        fence = fence_for(lines, draw(st.sampled_from("`~")))
        lang = draw(st.sampled_from(["", "json", "http", "text", "yaml", "form", "x y"]))
        return [head, fence + lang, *lines, fence]
    body = ["  " + line if line.strip() else line for line in lines]
    if not any(line.strip() for line in lines):
        body = ["  x"]
    return [head, *body]


# --- elements --------------------------------------------------------------------------------


@st.composite
def message(draw: st.DrawFn) -> list[str]:
    arrow = draw(st.sampled_from(sorted(ARROWS)))
    line = f"{draw(name())} {arrow} {draw(name())}"
    if draw(st.booleans()):
        line += ": " + draw(label())
    lines = [line]
    sides = draw(st.sampled_from([(), ("in",), ("out",), ("in", "out"), ("out", "in")]))
    for side in sides:
        lines.extend(draw(payload(side)))
    return lines


@st.composite
def note(draw: st.DrawFn) -> list[str]:
    over = draw(st.lists(name(), max_size=2))
    # one participant's note may stand beside its lifeline
    place = draw(st.sampled_from(["", "left of ", "right of "])) if len(over) == 1 else ""
    head = "note" + (f" {place}" + ", ".join(over) if over else "") + ": " + draw(label())
    more = [f"  {draw(label(max_pieces=4))}" for _ in range(draw(st.integers(0, 2)))]
    return [head, *(line for line in more if line.strip())]


@st.composite
def divider(draw: st.DrawFn) -> list[str]:
    return [draw(st.sampled_from(["=:", "-:", "--:", "_:", "...:"])) + " " + draw(label())]


# What follows `rect`: colours CSS reads, Mermaid's spellings of them, and what is no colour.
RECT_COLOURS = st.one_of(
    st.sampled_from(["", " lightyellow", " #c8dcff", ": rgba(0, 0, 255, .1)", " transparent"]),
    st.tuples(st.integers(-5, 300), st.integers(0, 255), st.integers(0, 255)).map(
        lambda rgb: " rgb({}, {}, {})".format(*rgb)
    ),
    label(max_pieces=2).map(lambda text: " " + text),
)


def block(children: st.SearchStrategy[list[str]]) -> st.SearchStrategy[list[str]]:
    @st.composite
    def build(draw: st.DrawFn) -> list[str]:
        kind = draw(st.sampled_from(["if", "group", "loop", "opt", "par", "rect"]))
        if kind == "rect":
            return [f"rect{draw(RECT_COLOURS)}", *draw(children), "end"]
        lines = [f"{kind}: {draw(label(max_pieces=3))}", *draw(children)]
        other = {"if": "else", "par": "and"}.get(kind)
        for _ in range(draw(st.integers(0, 2)) if other else 0):
            lines += [f"{other}: {draw(label(max_pieces=3))}", *draw(children)]
        return [*lines, "end"]

    return build()


def _flat(groups: list[list[str]]) -> list[str]:
    return [line for group in groups for line in group]


SIMPLE = st.one_of(message(), message(), note(), divider(), st.just(["// a comment"]))
ITEMS = st.recursive(
    st.lists(SIMPLE, max_size=4).map(_flat),
    lambda inner: st.lists(st.one_of(SIMPLE, block(inner)), max_size=4).map(_flat),
    max_leaves=12,
)


@st.composite
def diagram_text(draw: st.DrawFn) -> str:
    """A diagram written with the grammar's constructs; most of these parse."""
    lines: list[str] = []
    if draw(st.booleans()):
        lines.append("title: " + draw(label()))
    if draw(st.integers(0, 3)) == 0:
        lines.append("order: " + ", ".join(draw(st.lists(name(), min_size=1, max_size=3))))
    if draw(st.integers(0, 3)) == 0:
        lines.append("autonumber" + draw(st.sampled_from(["", " 1", " 7", " 99999999999999999"])))
    for _ in range(draw(st.integers(0, 2))):  # Mermaid's boxes: a colour, a label, declarations
        members = draw(st.lists(name(), max_size=3))
        lines += [
            f"box{draw(RECT_COLOURS)}" + draw(st.sampled_from(["", " " + draw(label())])),
            *(f"  participant {member}" for member in members),
            "end",
        ]
    items = draw(ITEMS)
    if draw(st.integers(0, 20)) == 0:  # deep nesting, up to past the default limit of 100
        depth = draw(st.integers(1, 110))
        kinds = draw(st.lists(st.sampled_from(["if", "loop", "par", "opt", "group"]), min_size=1))
        opened = [f"{kinds[i % len(kinds)]}: level {i}" for i in range(depth)]
        items = [*opened, *items, "A -> B: deepest", *(["end"] * depth)]
    lines += items
    indent = draw(st.sampled_from(["", "", "  ", "\t"]))
    if indent:  # indentation outside bodies means nothing, except that it would make bodies
        lines = [indent + line if _is_element(line) else line for line in lines]
    newline = draw(st.sampled_from(["\n", "\n", "\r\n"]))
    bom = draw(st.sampled_from(["", "", "\ufeff"]))
    return bom + newline.join(lines) + draw(st.sampled_from(["", newline]))


def _is_element(line: str) -> bool:
    return bool(re.match(r"(?i)(title|order|autonumber|=:|-:|--:|_:|\.\.\.:|end$)", line))


# --- mutations -------------------------------------------------------------------------------

FRAGMENTS = [
    "```", "~~~", "````json", "```http", "end", "else:", "and:", "if: x", "par:", "loop:",
    "in:", "out:", "in: Request", "note:", "note A: x", "  indented", "\tindented", "title: t",
    "order: ,", "order: A,, B", "autonumber", "autonumber 99999999999999999999", "A -x B",
    "A --x", "-->", "A -> ", "-> B", ": x", "=:", "{fas-", "*" * 100, "//", "A -> A: self",
    "note A, Nobody: x", "\ufeff", "\x00", "A -> B: \x1b[31mred\x1b[0m",
]  # fmt: skip


@st.composite
def mutated_example(draw: st.DrawFn) -> str:
    """A real example with lines deleted, duplicated, truncated, shuffled or inserted."""
    lines = draw(st.sampled_from(example_texts())).split("\n")
    for _ in range(draw(st.integers(1, 6))):
        if not lines:
            lines = [""]
        op = draw(st.integers(0, 8))
        i = draw(st.integers(0, len(lines) - 1))
        j = draw(st.integers(0, len(lines) - 1))
        if op == 0:
            del lines[i]
        elif op == 1:
            lines.insert(i, lines[i])
        elif op == 2:
            lines[i] = lines[i][: draw(st.integers(0, len(lines[i])))]
        elif op == 3:
            lines[i], lines[j] = lines[j], lines[i]
        elif op == 4:
            lo, hi = min(i, j), max(i, j) + 1
            lines[lo:hi] = draw(st.permutations(lines[lo:hi]))
        elif op == 5:
            lines.insert(i, draw(st.sampled_from(FRAGMENTS)))
        elif op == 6:
            lines.insert(i, draw(st.sampled_from(hostile_strings())))
        elif op == 7:
            at = draw(st.integers(0, len(lines[i])))
            extra = draw(_pieces(hostile_strings()))
            lines[i] = lines[i][:at] + extra + lines[i][at:]
        else:
            lines[i] = draw(st.sampled_from(["", "  ", "\t", "    "])) + lines[i].lstrip()
    text = "\n".join(lines)
    if draw(st.integers(0, 5)) == 0:
        text = text[: draw(st.integers(0, len(text)))]
    return text


# --- invariants ------------------------------------------------------------------------------


def source_lines(text: str) -> list[str]:
    """The lines as the parser numbers them."""
    from volley.language.parser import normalise

    return normalise(text).split("\n")


def check_parse(text: str, limits: volley.Limits | None = None) -> Diagram | VolleyError:
    """Parse; the result is a Diagram, or a VolleyError pointing inside the input.

    Parsing twice gives the same model (determinism), and the error formats without failing.
    """
    try:
        diagram = volley.parse(text, limits=limits)
    except VolleyError as exc:
        check_error(exc, text)
        return exc
    again = volley.parse(text, limits=limits)
    assert again.to_json() == diagram.to_json(), "parsing is not deterministic"
    for message in diagram.messages():
        assert message.sender in diagram.participants
        assert message.receiver in diagram.participants
    return diagram


def check_error(exc: VolleyError, text: str) -> None:
    lines = source_lines(text)
    assert isinstance(exc.message, str) and exc.message
    assert 0 <= exc.line <= len(lines), f"line {exc.line} outside 1..{len(lines)}: {exc.message}"
    if exc.line:
        line = lines[exc.line - 1]
        assert exc.source_line == line, "the quoted line is not the line the error names"
        assert 1 <= exc.column <= len(line) + 1, f"column {exc.column} outside the line"
    shown = exc.format()
    controls = {ch for ch in shown if ch < " " and ch != "\n" or "\x7f" <= ch <= "\x9f"}
    assert not controls, f"the error prints raw control characters {controls!r}"


# --- output invariants -----------------------------------------------------------------------

_FORBIDDEN_RE = re.compile("[" + "".join(XML_FORBIDDEN) + "\x00]")
_URL_STRIP = re.compile(r"[\t\n\r]")  # browsers drop these anywhere in a URL
_URL_SCHEME = re.compile(r"([A-Za-z][A-Za-z0-9+.\-]*):")
SAFE_SCHEMES = {"http", "https", "mailto"}
URL_ATTRIBUTES = {"href", "src", "action", "formaction", "xlink:href", "data", "poster", "srcset"}
_STYLE_DANGER = re.compile(r"(?i)url\s*\(\s*['\"]?(?!#)|@import|expression\s*\(|javascript:")
_TEMPLATE_TAG = re.compile(r"<([A-Za-z][\w:.-]*)([^<>]*)>")
_TEMPLATE_CODE = re.compile(r"\{\{.*?\}\}|\{%.*?%\}|\"[^\"]*\"", re.S)
_TEMPLATE_ATTR = re.compile(r"([A-Za-z_:][\w:.-]*)")


@functools.cache
def _template_names(*patterns: str) -> tuple[set[str], set[str]]:
    """Element and attribute names written in the templates: the only ones output may hold."""
    elements: set[str] = set()
    attributes: set[str] = set()
    for pattern in patterns:
        for path in sorted((ROOT / "templates").glob(pattern)):
            for tag, rest in _TEMPLATE_TAG.findall(path.read_text(encoding="utf-8")):
                elements.add(tag.lower())
                rest = _TEMPLATE_CODE.sub(" ", rest)  # values and Jinja, leaving the names
                attributes.update(name.lower() for name in _TEMPLATE_ATTR.findall(rest))
    return elements, attributes


@functools.cache
def _svg_names() -> tuple[set[str], set[str]]:
    """Element and attribute names the SVG's tag functions write (volley/output/svg_tags.py):
    the only ones an SVG may hold."""
    source = (ROOT / "volley" / "output" / "svg_tags.py").read_text(encoding="utf-8")
    elements = {name.lower() for name in re.findall(r"<([A-Za-z][\w:.-]*)", source)}
    attributes = {name.lower() for name in re.findall(r"([A-Za-z_][\w:.-]*)=\\?\"", source)}
    return elements, attributes


def url_is_safe(url: str) -> bool:
    """As a browser reads it: an allowed scheme, or none (a path, `#id`, `//host` = http(s))."""
    url = _URL_STRIP.sub("", url).strip("\x00\x01\x02\x03\x04\x05\x06\x07\x08\x0b\x0c\x0e\x0f"
                                        "\x10\x11\x12\x13\x14\x15\x16\x17\x18\x19\x1a\x1b\x1c"
                                        "\x1d\x1e\x1f ")  # fmt: skip
    match = _URL_SCHEME.match(url)
    return match is None or match.group(1).lower() in SAFE_SCHEMES


def _local(name: str) -> str:
    """`{http://www.w3.org/1999/xlink}href` as `xlink:href`, other namespaces dropped."""
    if name.startswith("{http://www.w3.org/1999/xlink}"):
        return "xlink:" + name.split("}", 1)[1]
    if name.startswith("{http://www.w3.org/XML/1998/namespace}"):
        return "xml:" + name.split("}", 1)[1]
    return name.split("}", 1)[-1].lower()


def check_svg(svg: str) -> None:
    """Well-formed XML holding only the templates' elements and attributes, and no way out."""
    import xml.etree.ElementTree as ET

    assert isinstance(svg, str)
    bad = _FORBIDDEN_RE.search(svg)
    assert bad is None, f"XML-forbidden character {bad.group()!r} in the SVG"
    root = ET.fromstring(svg.encode("utf-8"))  # strict: raises on any malformed markup
    elements, attributes = _svg_names()
    ids: set[str] = set()
    for node in root.iter():
        assert isinstance(node.tag, str), "a comment or processing instruction in the SVG"
        tag = _local(node.tag)
        assert tag in elements, f"element <{tag}> is not one the template writes"
        for raw, value in node.attrib.items():
            name = _local(raw)
            assert name in attributes, f"attribute {name} on <{tag}> is not one the template writes"
            assert not name.startswith("on"), f"event handler {name}"
            if name in URL_ATTRIBUTES:
                assert url_is_safe(value), f"unsafe {name}={value!r}"
            if name == "style":
                assert not _STYLE_DANGER.search(value), f"style can load: {value!r}"
            if name == "id":
                assert re.fullmatch(r"[A-Za-z][\w-]*", value), f"id {value!r}"
                assert value not in ids, f"duplicate id {value!r}"
                ids.add(value)
            if name == "class":
                assert all(re.fullmatch(r"[\w-]+", c) for c in value.split()), f"class {value!r}"
        if tag == "style":
            assert not _STYLE_DANGER.search(node.text or ""), "the stylesheet can load something"


def check_html(html: str, *, page: bool) -> None:
    """HTML whose structure, names and scripts are exactly the templates' own.

    html.parser tokenises like a browser (script and style content are raw text); on top of it
    every element must be closed in order, every name must be one the templates write, no
    attribute may be an event handler or point at a disallowed URL, the only scripts are the
    viewer, and each diagram's data is one `<template class="vl-data">` holding JSON that parses
    and nothing a parser reads as markup: no tag, no character reference, no `<`, `>` or `&`.
    """
    import json
    from html.parser import HTMLParser

    assert _FORBIDDEN_RE.search(html) is None, "a character HTML cannot hold"
    html_elements, html_attributes = _template_names("html/*")
    svg_elements, svg_attributes = _svg_names()
    elements, attributes = html_elements | svg_elements, html_attributes | svg_attributes
    elements = elements | {"wbr"}  # the one element written in Python: breaks in table keys
    void = {"meta", "link", "br", "wbr", "img", "input", "hr", "col", "source"}
    holders: list[tuple[str, dict, str]] = []  # (tag, attrs, text) of scripts and templates

    class Strict(HTMLParser):
        def __init__(self) -> None:
            # Character references reported, not decoded: none may stand in the data's text.
            super().__init__(convert_charrefs=False)
            self.stack: list[str] = []
            self.holder: tuple[str, dict] | None = None
            self.text: list[str] = []

        def handle_starttag(self, tag, attrs):
            self._check(tag, attrs)
            assert self.holder is None, f"<{tag}> inside the data"
            if tag in ("script", "template"):
                self.holder, self.text = (tag, dict(attrs)), []
            if tag not in void:
                self.stack.append(tag)

        def handle_startendtag(self, tag, attrs):
            self._check(tag, attrs)
            assert self.holder is None, f"<{tag}/> inside the data"

        def handle_endtag(self, tag):
            assert self.stack and self.stack[-1] == tag, f"</{tag}> closes {self.stack[-1:]}"
            self.stack.pop()
            if self.holder is not None and tag == self.holder[0]:
                holders.append((*self.holder, "".join(self.text)))
                self.holder = None

        def handle_data(self, data):
            if self.holder is not None:
                self.text.append(data)

        def handle_entityref(self, name):
            assert self.holder is None, f"&{name}; inside the data"

        def handle_charref(self, name):
            assert self.holder is None, f"&#{name}; inside the data"

        def handle_comment(self, data):
            raise AssertionError(f"a comment in the HTML: {data[:40]!r}")

        def handle_pi(self, data):
            raise AssertionError(f"a processing instruction in the HTML: {data[:40]!r}")

        def unknown_decl(self, data):
            raise AssertionError(f"a declaration in the HTML: {data[:40]!r}")

        def _check(self, tag, attrs):
            assert tag in elements, f"element <{tag}> is not one the templates write"
            for name, value in attrs:
                assert name in attributes, f"attribute {name} on <{tag}> is not the templates'"
                assert not name.startswith("on"), f"event handler {name}"
                if name in URL_ATTRIBUTES and value is not None:
                    assert url_is_safe(value), f"unsafe {name}={value!r}"

    parser = Strict()
    parser.feed(html)
    parser.close()
    assert not parser.stack, f"unclosed elements {parser.stack}"
    assert html.lstrip().lower().startswith("<!doctype html>") == page
    data = [text for tag, attrs, text in holders if tag == "template"]
    code = [(attrs, text) for tag, attrs, text in holders if tag == "script"]
    assert len(data) == 1, "one data template per diagram"
    assert not re.search(r"[<>&]", data[0]), "markup characters in the data"
    json.loads(data[0])
    from volley.output.html import html_assets

    viewer = ({}, html_assets()[1])
    assert all(script == viewer for script in code), "a script that is not the viewer"
    for match in re.finditer(r"<svg\b.*?</svg>", html, re.S):
        check_svg(match.group())


def check_render(diagram: Diagram, fmt: str, **options) -> str | bytes:
    """Render twice: the same bytes both times, and output that passes its format's checks."""
    first = volley.render(diagram, format=fmt, **options)
    second = volley.render(diagram, format=fmt, **options)
    assert first == second, f"{fmt} rendering is not deterministic"
    if fmt == "svg":
        check_svg(first)
    elif fmt == "html":
        check_html(first, page=not options.get("fragment"))
    return first


# --- imports: real Markdown, HAR and trace files, mutated ------------------------------------

CASES = Path(__file__).resolve().parent / "cases"


@functools.cache
def markdown_pages() -> list[str]:
    """Real Markdown that holds Mermaid blocks: the docs and the pages the importer was built on
    (a page without one is refused at once, which tests little)."""
    pages = [*sorted((ROOT / "docs").rglob("*.md")), *sorted((CASES / "mermaid").glob("*.md"))]
    texts = [page.read_text(encoding="utf-8") for page in pages]
    return [text for text in texts if "```mermaid" in text]


@functools.cache
def traffic_files() -> list[tuple[str, str]]:
    """Real captures, each with the importer it is for: browsers' and proxies' HAR files,
    OTLP/JSON, Jaeger and Zipkin traces."""
    har = [("har", p.read_text(encoding="utf-8")) for p in sorted((CASES / "har").glob("*.har"))]
    traces = sorted((CASES / "traces").glob("*.json"))
    return har + [("trace", p.read_text(encoding="utf-8")) for p in traces]


@functools.cache
def log_files() -> list[str]:
    """Real JSON-RPC logs: MCP hosts' (Claude Desktop's, VS Code's), LSP sessions (VS Code's
    trace, Neovim's lsp.log), JSON Lines."""
    logs = sorted((CASES / "jsonrpc").glob("*.log")) + sorted((CASES / "jsonrpc").glob("*.jsonl"))
    return [path.read_text(encoding="utf-8") for path in logs]


LOG_FRAGMENTS = [
    "{", "}", "[", "]", '"', "'", "\\", "\\n", "\\226", "vim.NIL", "vim.empty_dict()",
    "<metatable> = {}", "<1>", "<table 1>", '["end"] = ', "[editor -> server] ", "[Server Says] ",
    '\t"rpc.send"\t', '\t"rpc.receive"\t', "[DEBUG][2025-10-14 09:04:17] x\t",
    "2026-07-24 02:03:14.089 [debug] ", "[Trace - 10:20:04 AM] Sending request 'a - (1)'.",
    "Params: {", "Message from client: ", "Connection state: Error x", "Content-Length: 9",
    '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}',
]  # fmt: skip


@st.composite
def mutated_log(draw: st.DrawFn) -> str:
    """A real JSON-RPC log with lines deleted, duplicated, cut or moved, and fragments of the
    logs' own syntax or hostile strings put in, inside a line or as lines of their own."""
    lines = draw(st.sampled_from(log_files())).split("\n")
    for _ in range(draw(st.integers(1, 8))):
        op = draw(st.integers(0, 4))
        i = draw(st.integers(0, len(lines) - 1))
        line = lines[i]
        if op == 0 and len(lines) > 1:
            del lines[i]
        elif op == 1:
            lines.insert(draw(st.integers(0, len(lines))), line)
        elif op == 2:
            lines[i] = line[: draw(st.integers(0, len(line)))]
        elif op == 3:
            at = draw(st.integers(0, len(line)))
            piece = draw(st.sampled_from(LOG_FRAGMENTS))
            lines[i] = line[:at] + piece + line[at:]
        else:
            lines.insert(i, draw(st.sampled_from([*LOG_FRAGMENTS, *hostile_strings()])))
    return "\n".join(lines)


MARKDOWN_FRAGMENTS = [
    "```mermaid", "```", "~~~", "````", "sequenceDiagram", "    sequenceDiagram", "> ```mermaid",
    "participant A as <b>x</b>", "A->>B: hi", "A-->>-B: ok", "loop every", "end", "%%{init}%%",
    "```volley", "    ```mermaid", "<pre>", "</pre>", "<!-- volley:begin x -->", "\t```",
    "Note over A,B: n", "autonumber", "rect rgb(0,0,0)", "box Aqua", "activate A",
    "---", "title: T #1", "config:", "participant API@{", "participant B@{ type: x, alias: Y }",
    "}", "accDescr", "{", "links A: {\"x\": \"y\"}", "A/|-+B: x", "B\\|---A: y", "title Last",
    "destroy A", "deactivate A",
]  # fmt: skip


PLANTUML_FRAGMENTS = [
    "@startuml", "@enduml", "A -> B : hi", "B -->> A", "A ->x B", "[-> A", "A ->]", "return",
    "return done", "activate A", "deactivate B", "alt x", "else", "end", "end alt", "loop",
    "note over A", "note left", "end note", "note over A, B : n", "box \"B\" #red", "end box",
    "== s ==", "...", "|||", "autonumber 3 2", "participant \"A B\" as C", "A -> B ++ : x",
    "skinparam x {", "}", "/' open", "'/", "title", "end title", "ref over A", "end ref",
    "?->?", "]-> A", "[->?", "A -> B & C : m", "\"L\" as L -> B", "A -> L as \"L\"", "B++",
    "B--", "deactivate", "participant A order 5", "also", "…", "url of A is [[x]]",
    "* item", "** sub", "# one", "|= h |= i |", "| a | b |", "= Head", "end",
    "-> A : in", "A -> : out", "A ->", "A -X B", "end regular", "partition P", "||25|||",
    "box <size:9>T</size> #red", "sprite $s [2x2/16] {", "sprite $s AAAA", "<$s> A -> B",
    "A -> B : \\r\\l\\t <b>open", "----", "-- t --", "== t ==", "..t..", "*item", "|||",
    '!$v = "x"', "!$n = 3", "!if $n > 2", "!if ($v == x) && !true", "!elseif 1", "!else",
    "!endif", "!ifdef $v", "!define H host", "!undef H", "!include x.puml", "!procedure $p()",
    "!endprocedure", "A -> B : $v H", "!if (", "!$w = $missing", "A -> B : <&check> ok",
    "note over A: <&zzz>", "!include x.iuml", "A->X : hi", "destroy B", "{", '  "k": 1', "}",
    "return r", "[-> A ++ : in", "title", "end title", "__u__ ~~w~~ <:1f600:>",
]  # fmt: skip


@functools.cache
def plantuml_files() -> list[str]:
    """Real PlantUML sequence diagrams (and the activity diagram the importer refuses)."""
    return [p.read_text(encoding="utf-8") for p in sorted((CASES / "plantuml").glob("*.puml"))]


def _mutated_lines(draw: st.DrawFn, texts: list[str], fragments: list[str]) -> str:
    """One of `texts` with a few lines deleted, duplicated, cut or inserted (one of the
    `fragments`, or a hostile string), or indented."""
    lines = draw(st.sampled_from(texts)).split("\n")
    for _ in range(draw(st.integers(1, 8))):
        op = draw(st.integers(0, 5))
        i = draw(st.integers(0, len(lines) - 1))
        if op == 0 and len(lines) > 1:
            del lines[i]
        elif op == 1:
            lines.insert(i, lines[i])
        elif op == 2:
            lines[i] = lines[i][: draw(st.integers(0, len(lines[i])))]
        elif op == 3:
            lines.insert(i, draw(st.sampled_from(fragments)))
        elif op == 4:
            lines.insert(i, draw(st.sampled_from(hostile_strings())))
        else:
            lines[i] = draw(st.sampled_from(["", "> ", "    ", "\t", "- "])) + lines[i]
    return "\n".join(lines)


@st.composite
def mutated_markdown(draw: st.DrawFn) -> str:
    """A real Markdown page with a few lines deleted, duplicated, cut, moved or inserted
    (fences, Mermaid statements, hostile strings)."""
    return _mutated_lines(draw, markdown_pages(), MARKDOWN_FRAGMENTS)


@st.composite
def mutated_plantuml(draw: st.DrawFn) -> str:
    """A real PlantUML file, mutated as `mutated_markdown` mutates a page."""
    return _mutated_lines(draw, plantuml_files(), PLANTUML_FRAGMENTS)


_JSON_ODD = [
    None, True, 0, -1, 1e308, "", "\x00", "\u202eevil", "</script>", [], {}, "x" * 300,
    "2024-13-45T99:99:99Z", "not a number", -(2**63), "http://[::1", "ftp://x/y?z#",
]  # fmt: skip


def _json_paths(value: object, path: tuple = ()) -> list[tuple]:
    """Every place inside a JSON value, as a path of keys and indexes."""
    found = [path]
    if isinstance(value, dict):
        for key, child in value.items():
            found += _json_paths(child, (*path, key))
    elif isinstance(value, list):
        for index, child in enumerate(value):
            found += _json_paths(child, (*path, index))
    return found


@st.composite
def mutated_capture(draw: st.DrawFn) -> tuple[str, str]:
    """(importer, text): a real HAR or trace with values replaced by odd ones, members and
    items dropped or duplicated, or the text itself cut short; the importer it was made for."""
    import json

    from volley.importers.labels import json_documents

    source, text = draw(st.sampled_from(traffic_files()))
    # Fiddler's capture starts with a BOM; the Go SDK prints one span after another, which
    # it reads as a list of them too
    documents = json_documents(text.removeprefix("\ufeff"))
    data = documents[0] if len(documents) == 1 else documents
    for _ in range(draw(st.integers(1, 6))):
        paths = _json_paths(data)
        path = draw(st.sampled_from(paths))
        if not path:
            continue
        parent = data
        for key in path[:-1]:
            parent = parent[key]
        last = path[-1]
        op = draw(st.integers(0, 3))
        if op == 0:
            parent[last] = draw(st.sampled_from(_JSON_ODD))
        elif op == 1:
            del parent[last]
        elif op == 2 and isinstance(parent, list):
            parent.insert(last, parent[last])
        else:
            parent[last] = draw(st.sampled_from(hostile_strings()))
    out = json.dumps(data, ensure_ascii=draw(st.booleans()))
    if draw(st.integers(0, 9)) == 0:
        out = out[: draw(st.integers(0, len(out)))]
    return source, out


# An import may write more than a hand-written diagram's limits allow (a long capture).
_IMPORT_LIMITS = volley.Limits(
    input_bytes=10**9, messages=10**6, label_chars=10**7, participants=10**5
)


def check_import(text: str, source: str | None = None) -> list | VolleyError:
    """Import; the result is a list of diagrams that each parse, or a VolleyError that formats.

    An importer's job is to write `.volley` a person can keep: text it wrote that does not
    parse, or any other exception, is a bug.
    """
    from volley.importers import convert
    from volley.importers.traffic import TrafficOptions

    options = TrafficOptions() if source in ("har", "trace") else None
    try:
        imported = convert(text, "fuzzed", source, options)
    except VolleyError as exc:
        assert isinstance(exc.message, str) and exc.message
        exc.format()
        return exc
    for item in imported:
        result = check_parse(item.text, limits=_IMPORT_LIMITS)
        assert not isinstance(result, VolleyError), (
            f"an import wrote text that does not parse: {result.format()}"
        )
    return imported
