"""Which colours the viewer gives a raw body.

The page carries each body once, as its text; the viewer's script colours it in the browser
when a reader first opens its raw view (`COLOURS` in templates/html/volley.js), so a render
spends nothing on bodies nobody opens and the page holds no per-token markup. The script
knows a few kinds of text, the ones payloads are written in: JSON, HTTP messages, `key: value`
lines (YAML) and XML. A fence language names one of them, or a body gets the one its table
read it as (`Table.source`); any other body is shown plain. Colouring never changes the
text: the script only wraps runs of it in `<span class="vl-t-CLASS">`.
"""

from __future__ import annotations

import re
from functools import cache
from typing import Literal

Colouring = Literal["json", "http", "yaml", "xml"]

# Fence languages (first word, lower case) → the colouring the viewer applies.
LANGUAGES: dict[str, Colouring] = {
    "json": "json",
    "jsonc": "json",
    "json5": "json",
    "http": "http",
    "yaml": "yaml",
    "yml": "yaml",
    "xml": "xml",
    "html": "xml",
    "svg": "xml",
    "soap": "xml",
}

# What the body was recognised as (`Table.source`) → the colouring that fits it.
SOURCES: dict[str, Colouring] = {
    "json": "json",
    "ndjson": "json",
    "http": "http",
    "keyvalue": "yaml",
    "events": "yaml",  # an event stream's `event:` / `data:` lines
}


def colouring(lang: str | None, source: str = "none") -> Colouring | None:
    """The viewer's colouring for a body: by its fence language, else by what its table read
    it as (so a body shown as a JSON table is coloured as JSON); None: shown plain."""
    words = (lang or "").split()
    return (LANGUAGES.get(words[0].lower()) if words else None) or SOURCES.get(source)


# --- the same colouring for a static picture ---------------------------------------------------
# The appendix of an SVG, PNG or PDF cannot run the viewer's script, so its bodies are coloured
# here, with the script's rules (keep the two in step): each kind is a list of (class, pattern),
# the first pattern that matches at a place colours that run, and text no pattern matches stays
# plain ("" class), so the runs always join back to the body exactly.
_STRING = r'"(?:[^"\\\n]|\\.)*"'
_RULES: dict[str, list[tuple[str, str]]] = {
    "json": [
        ("key", _STRING + r"(?=\s*:)"),
        ("str", _STRING),
        ("num", r"-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?"),
        ("const", r"\b(?:true|false|null)\b"),
        ("pun", r"[{}\[\],:]"),
    ],
    "yaml": [
        ("com", r"^[ \t]*#.*"),
        ("key", r"^[ \t]*(?:- +)?[^\s#:][^:\n]*?(?=:(?:[ \t]|$))"),
        ("pun", r":(?=[ \t]|$)"),
        ("val", r"[^\n]+"),
    ],
    "xml": [
        ("com", r"<!--[\s\S]*?-->"),
        ("key", r"</?[\w:.-]+|/?>"),
        ("attr", r"[\w:.-]+(?==)"),
        ("str", r"\"[^\"<]*\"|'[^'<]*'"),
    ],
}
_HTTP_LINES = [
    (r"^([A-Z]+)( +)(\S+)( +)(HTTP/[\d.]+)(\s*)$", ("method", "", "target", "", "kw", "")),
    (r"^([A-Z]+)( +)(\S+)(\s*)$", ("method", "", "target", "")),
    (r"^(HTTP/[\d.]+)( +)(\d{3})(.*)$", ("kw", "", "num", "reason")),
    (r"^([^\s:][^:]*)(:)(.*)$", ("attr", "pun", "val")),
]
MAX_COLOURED = 256 * 1024  # a longer body is shown plain, as the viewer does

Token = tuple[str, str]  # (class, text); class "" is plain


@cache
def _pattern(kind: str) -> re.Pattern[str]:
    return re.compile("|".join(f"({rule})" for _, rule in _RULES[kind]), re.M)


def tokens(text: str, kind: Colouring | None) -> list[Token]:
    """The body cut into runs of one class each, as the viewer colours its raw view."""
    if not text or len(text) > MAX_COLOURED:
        return [("", text)]
    if kind == "http":
        return _http_tokens(text)
    if kind not in _RULES:
        return [("", text)]
    rules = _RULES[kind]
    out: list[Token] = []
    at = 0
    for match in _pattern(kind).finditer(text):
        if not match.group(0):
            continue
        if match.start() > at:
            out.append(("", text[at : match.start()]))
        out.append((rules[(match.lastindex or 1) - 1][0], match.group(0)))
        at = match.end()
    if at < len(text):
        out.append(("", text[at:]))
    return out


def _http_tokens(text: str) -> list[Token]:
    """An HTTP message: its start line and headers line by line, then its body, coloured as
    JSON when it is JSON."""
    blank = re.search(r"\r?\n\r?\n", text)
    head, rest = (text[: blank.start()], text[blank.start() :]) if blank else (text, "")
    out: list[Token] = []
    for line in re.split(r"(\r?\n)", head):
        for pattern, classes in _HTTP_LINES:
            match = re.match(pattern, line)
            if match:
                out += [(c, part) for c, part in zip(classes, match.groups(), strict=True) if part]
                break
        else:
            if line:
                out.append(("", line))
    if not rest:
        return out
    json = re.search(r"^content-type:.*json", head, re.I | re.M) or re.match(r"\s*[\[{]", rest)
    return out + tokens(rest, "json" if json else None)
