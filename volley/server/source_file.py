"""The one file `volley serve FILE` edits: read with a version tag, saved atomically.

The version is a hash of the content, not the modification time: it survives coarse file-system
clocks and editors that rewrite a file with the same bytes, and it lets a save refuse to
overwrite changes made on disk since the page loaded them.
"""

from __future__ import annotations

import hashlib
import threading
from dataclasses import dataclass
from pathlib import Path

from volley.errors import VolleyError
from volley.textio import decode, write_atomic


@dataclass(frozen=True)
class Snapshot:
    source: str
    version: str


class Conflict(VolleyError):
    """The file changed on disk after the version a save was based on."""


class Unreadable(Exception):
    """The file on disk is not text volley reads (another program saved it in Latin-1): the
    error that says why, and the file's version, which a save may be based on, to write the
    editor's text over it."""

    def __init__(self, error: VolleyError, version: str) -> None:
        super().__init__(error.message)
        self.error = error
        self.version = version


def version_of(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()[:20]


class SourceFile:
    """The path given on the command line; nothing from a request ever chooses another."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path).resolve()
        self._saving = threading.Lock()  # check-then-write is one step for concurrent saves

    @property
    def name(self) -> str:
        return self.path.name

    def read(self) -> Snapshot:
        """The file now (an empty, version-tagged source if it does not exist yet), its lines
        ended by "\n", as the editor holds them."""
        data = self._bytes()
        try:
            return Snapshot(_one_line_end(decode(data, self.name)), version_of(data))
        except VolleyError as exc:
            raise Unreadable(exc, version_of(data)) from None

    def _bytes(self) -> bytes:
        try:
            return self.path.read_bytes()
        except FileNotFoundError:
            return b""
        except OSError as exc:
            raise VolleyError(f"cannot read {self.name}: {exc.strerror or exc}") from None

    def save(self, source: str, based_on: str | None = None) -> Snapshot:
        """Write `source` atomically, its lines ended as the file's are ("\r\n" in a file
        written on Windows: a save that changed them all would show every line changed in
        git); Conflict if `based_on` is not the version on disk."""
        source = _one_line_end(source)
        with self._saving:
            current = self._bytes()
            if based_on is not None and based_on != version_of(current):
                raise Conflict(f"{self.name} changed on disk since it was loaded")
            crlf = _crlf(current)
            ended = source.replace("\n", "\r\n") if crlf else source
            data = ended.encode("utf-8")
            try:
                write_atomic(self.path, data)
            except OSError as exc:
                raise VolleyError(f"cannot save {self.name}: {exc.strerror or exc}") from None
        return Snapshot(source, version_of(data))


def _crlf(data: bytes) -> bool:
    """Whether the file's lines end in "\r\n": UTF-16's too (what PowerShell writes), and
    those of a file that is not text volley reads, which a save writes over."""
    try:
        return "\r\n" in decode(data)
    except VolleyError:
        return b"\r\n" in data


def _one_line_end(text: str) -> str:
    return text.replace("\r\n", "\n")
