"""Data for the page's scripts, embedded so that no input can end the `<script>` element.

The viewer reads its messages and payloads from `<script type="application/json">`. An HTML
parser ends that element at the first `</script`, whatever the JSON means, and `<!--` inside
it changes how the parser looks for the end. Escaping `<`, `>` and `&` as `\\u003c` etc. keeps
every such sequence out of the markup while `JSON.parse` reads the same value back. U+2028 and
U+2029 are escaped too, so the text is also safe to paste into a JavaScript string literal.
"""

from __future__ import annotations

import json
from typing import Any

from markupsafe import Markup

_ESCAPES = {
    ord("<"): "\\u003c",
    ord(">"): "\\u003e",
    ord("&"): "\\u0026",
    0x2028: "\\u2028",
    0x2029: "\\u2029",
}


def script_json(data: Any) -> Markup:
    """`data` as JSON text that is safe verbatim inside `<script type="application/json">`.

    `ensure_ascii` keeps lone surrogates (possible in text from the Python API) encodable as
    UTF-8; the result is ASCII, so the page's encoding cannot change its meaning either.
    """
    text = json.dumps(data, ensure_ascii=True, separators=(",", ":"), allow_nan=False)
    return Markup(text.translate(_ESCAPES))
