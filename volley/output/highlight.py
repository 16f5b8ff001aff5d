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
