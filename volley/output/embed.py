"""JSON for a page's scripts, embedded so that no input can end its element or become markup.

The viewer reads its messages and payloads from the text of a `<template class="vl-data">`: not
a `<script>`, because mkdocs-material's instant navigation re-creates every inline script of a
new page from its text alone, which would turn a JSON script into one that runs (and fails).
The editor reads its settings from a `<script type="application/json">`.

Both elements hold the text as written only if it has no markup in it. Escaping `<`, `>` and `&`
as `\\u003c` etc. leaves no tag, comment, `</script` or character reference for the HTML parser
to find, so a template's content is one text node and a script ends where it should, while
`JSON.parse` reads the same value back. U+2028 and U+2029 are escaped too, so the text is also
safe to paste into a JavaScript string literal.

No two spaces stand together either (the second of each pair is `\\u0020`): the JSON has
spaces only inside strings (a body's indentation, `"a    b"`), and a page minifier
(mkdocs-minify-plugin) collapses a run of spaces in a text node to one, which would change the
bodies the viewer shows and copies; so would MkDocs' search, which then could not find the text
to leave out of its index.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from itertools import islice
from typing import Any

from markupsafe import Markup

_ESCAPES = (
    ("<", "\\u003c"),
    (">", "\\u003e"),
    ("&", "\\u0026"),
    ("\u2028", "\\u2028"),
    ("\u2029", "\\u2029"),
    ("  ", " \\u0020"),  # after the others: `\\u0020` holds none of their characters
)


def embedded_json(data: Any) -> Markup:
    """`data` as JSON text that is safe verbatim in a `<template>` or a JSON `<script>`.

    `ensure_ascii` keeps lone surrogates (possible in text from the Python API) encodable as
    UTF-8; the result is ASCII without control characters (JSON escapes them), so neither the
    page's encoding nor the parser's handling of NUL or line breaks can change its meaning.
    """
    return _embedded(_dumps(data))


def embedded_json_list(
    name: str, items: Iterable[Any], before: Mapping[str, Any] | None = None
) -> Markup:
    """`{**before, name: [items]}` exactly as `embedded_json` writes it, the items turned into
    text a batch at a time: only a batch is held at once, not every item (a page has one per
    message, with its payload tables), and the encoder is not started again for each one."""
    remaining = iter(items)
    batches = iter(lambda: list(islice(remaining, _BATCH)), [])
    text = ",".join(_dumps(batch)[1:-1] for batch in batches)  # each without its brackets
    head = "".join(f"{_dumps(key)}:{_dumps(value)}," for key, value in (before or {}).items())
    return _embedded("{" + head + _dumps(name) + ":[" + text + "]}")


_BATCH = 256  # items encoded by one call


# One encoder for every call: `json.dumps` with options makes a new one each time. The data is
# made fresh for each page from plain values (no object holds itself), so the encoder need not
# keep a record of every list and dict it is inside to catch a cycle.
_ENCODER = json.JSONEncoder(
    ensure_ascii=True, separators=(",", ":"), allow_nan=False, check_circular=False
)


def _dumps(data: Any) -> str:
    return _ENCODER.encode(data)


def _embedded(text: str) -> Markup:
    for char, escape in _ESCAPES:  # one pass per character: str.translate is slower here
        text = text.replace(char, escape)
    return Markup(text)
