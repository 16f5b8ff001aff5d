"""A payload's table rows as the page carries them: an index into the body they were read from.

The panel shows a body as written (Raw) and as rows (Table), and the page carries the body
once: the rows say where their text stands in it rather than saying it again. A megabyte list
response has tens of thousands of rows whose paths repeat their neighbours'; written out in
full they took as much room in the page as the body itself.

A row is `[keep, key, kind, value]`:

- `keep` is how many characters of the previous row's key begin this one and `key` the rest
  (`params.capabilities.roots.listChanged` after `params.capabilities.roots`: 25 and
  `.listChanged`);
- `kind` is the row kind's place in `KINDS`, which the page's data lists once;
- `value` is the text, or two numbers, where it starts and ends in the body, when it stands
  there as written and saying where is shorter than saying what.

Places and lengths count UTF-16 code units, as the viewer's JavaScript strings do, so that an
emoji earlier in a body does not shift what comes after it.
"""

from __future__ import annotations

import json
import os
import re
from typing import Any, get_args

from volley.text.payload_tables import Row, RowKind, Table

__all__ = ["FORMAT", "KINDS", "table_json"]

FORMAT = 2  # the page data's layout: 1 wrote each row out ([key, value, kind] under `groups`)
KINDS: tuple[str, ...] = get_args(RowKind)
_KIND_PLACES = {kind: place for place, kind in enumerate(KINDS)}

# Characters JavaScript counts as two (a surrogate pair); every other one counts as one.
_ASTRAL = re.compile("[\U00010000-\U0010ffff]")


def table_json(table: Table, body: str) -> list[dict[str, Any]]:
    """The rows below the start line under their headings, each written as an index into
    `body`, the text the viewer shows as Raw (the text `table` was read from)."""
    writer = _RowWriter(body)
    return [
        {"title": title, "rows": [writer.row(row) for row in rows]}
        for title, rows in table.groups()
    ]


class _RowWriter:
    """Writes a table's rows in order. Rows follow their body, so each value is looked for a
    little way on from where the one before it was found; a value not there as written (a
    JSON string with an escape in it) is written out, and no search runs on through the rest
    of the body, which for a megabyte of such values would take minutes."""

    def __init__(self, body: str) -> None:
        self.body = body
        self.key = ""  # the previous row's
        self.searched = 0  # where the next search starts, in characters
        self.units = 0  # the same place in UTF-16 code units

    def row(self, row: Row) -> list[Any]:
        keep = os.path.commonprefix([self.key, row.key])
        self.key = row.key
        return [_units(keep), row.key[len(keep) :], _KIND_PLACES[row.kind], *self._value(row.value)]

    def _value(self, value: str) -> list[Any]:
        end = self.searched + len(value) + _NEAR
        found = self.body.find(value, self.searched, end) if value else -1
        if found < 0:
            return [value]
        start = self.units + _units(self.body[self.searched : found])
        self.searched, self.units = found + len(value), start + _units(value)
        place = [start, self.units]
        return place if len(f"{start},{self.units}") < _written_length(value) else [value]


# How far past the last value found the next one is looked for: the keys, punctuation and
# indentation between them, and values written out because they are not there as written.
_NEAR = 4096


def _written_length(value: str) -> int:
    """About how many characters the page's JSON takes to say `value` (outside ASCII, each
    character is an escape of six)."""
    return len(value) + 2 if value.isascii() else len(json.dumps(value))


def _units(text: str) -> int:
    """The length of `text` in UTF-16 code units (a lone surrogate, possible from the Python
    API, is one unit, as it is in JavaScript)."""
    if text.isascii():
        return len(text)
    return len(text) + len(_ASTRAL.findall(text))
