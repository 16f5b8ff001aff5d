"""The one file `volley serve FILE` edits: read with a version tag, saved atomically.

The version is a hash of the content, not the modification time: it survives coarse file-system
clocks and editors that rewrite a file with the same bytes, and it lets a save refuse to
overwrite changes made on disk since the page loaded them.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path

from volley.textio import decode, write_atomic


@dataclass(frozen=True)
class Snapshot:
    source: str
    version: str


def version_of(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()[:20]


class SourceFile:
    """The path given on the command line; nothing from a request ever chooses another."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path).resolve()

    @property
    def name(self) -> str:
        return self.path.name

    def read(self) -> Snapshot:
        """The file now (an empty, version-tagged source if it does not exist yet)."""
        try:
            data = self.path.read_bytes()
        except FileNotFoundError:
            data = b""
        return Snapshot(decode(data, self.name), version_of(data))

    def save(self, source: str) -> Snapshot:
        data = source.encode("utf-8")
        write_atomic(self.path, data)
        return Snapshot(source, version_of(data))
