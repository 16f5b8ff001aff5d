"""Bytes to text, and text to files: decoding with a clear error, and writes that change
nothing but the output asked for and never leave half a file behind."""

from __future__ import annotations

import codecs
import errno
import os
import stat
import tempfile
from typing import TYPE_CHECKING

from volley.errors import Diagnostic, VolleyError, shown_path

if TYPE_CHECKING:
    from pathlib import Path

# Byte-order marks of the encodings other than UTF-8 a text may be saved in, longest first (a
# UTF-32 one starts as a UTF-16 one does). Windows PowerShell 5 writes UTF-16 with `>`.
_MARKED = (
    (codecs.BOM_UTF32_LE, "utf-32"),
    (codecs.BOM_UTF32_BE, "utf-32"),
    (codecs.BOM_UTF16_LE, "utf-16"),
    (codecs.BOM_UTF16_BE, "utf-16"),
)


# The bytes looked at for a NUL, the mark of a binary file (as git looks at its first 8,000)
_SNIFFED = 8000
VOLLEY_SUFFIX = ".volley"  # a diagram's file
# A Markdown page's file names, whose ```volley blocks are diagrams: MDX's pages (Docusaurus,
# Starlight, Nextra) and Quarto's too
MARKDOWN_SUFFIXES = (".md", ".markdown", ".mdx", ".qmd")
# The files people pass by mistake (a picture volley drew, an archive), by their first bytes.
_BINARY_FILES = (
    (b"\x89PNG\r\n\x1a\n", "a PNG image"),
    (b"%PDF-", "a PDF document"),
    (b"\xff\xd8\xff", "a JPEG image"),
    (b"GIF8", "a GIF image"),
    (b"RIFF", "a WebP image or another RIFF file"),
    (b"PK\x03\x04", "a zip archive"),
    (b"\x1f\x8b", "a gzip archive"),
)


def encoded_as(data: bytes, text: str) -> bytes:
    """`text` as the bytes `data` were written in: UTF-16 or UTF-32 with the same byte-order
    mark where `data` starts with one (what `decode` read), else UTF-8 (a file written back
    as it was read: a Windows README saved as UTF-16 stays so)."""
    for mark, codec in _MARKED:
        if data.startswith(mark):
            endian = "le" if mark in (codecs.BOM_UTF32_LE, codecs.BOM_UTF16_LE) else "be"
            return mark + text.encode(f"{codec}-{endian}")
    return text.encode("utf-8")


# What to give instead of a picture or a program, said to one who gave it as a diagram
_TEXT_WANTED = "give the .volley file (or the Markdown page with ```volley blocks) instead"


def decode(
    data: bytes,
    filename: str | None = None,
    *,
    capture: bool = False,
    wanted: str = _TEXT_WANTED,
) -> str:
    """UTF-8 (a BOM allowed) to text, or UTF-16 or UTF-32 that a byte-order mark announces;
    invalid bytes are a VolleyError naming the byte offset, and a binary file (NUL bytes, but
    in a `capture` of traffic, which may hold some) one that says so, with `wanted` (what the
    command reads) as its hint."""
    marked = next((codec for bom, codec in _MARKED if data.startswith(bom)), None)
    if marked is not None:
        try:
            return data.decode(marked)
        except UnicodeDecodeError as exc:
            raise VolleyError(
                f"the file is not valid {marked.upper()}, as its byte-order mark says it is: "
                f"{exc.reason} at byte offset {exc.start}",
                filename=filename,
                hint="save the file as UTF-8",
            ) from None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        kind = next((kind for magic, kind in _BINARY_FILES if data.startswith(magic)), None)
        if kind is not None:  # `volley check flow.png`: one sentence, not a byte's offset
            raise VolleyError(
                f"this is {kind}, not text",
                filename=filename,
                hint=wanted,
            ) from None
        sniffed = data[:_SNIFFED]
        if not capture and b"\x00" in sniffed:  # a program: its line is no help
            if _utf16_without_mark(sniffed):
                raise VolleyError(
                    "the file is not valid UTF-8: it reads as UTF-16 without a byte-order mark",
                    filename=filename,
                    hint="save the file as UTF-8",
                ) from None
            line, column, _ = _place(data, sniffed.index(b"\x00"))  # not its line: bytes
            raise VolleyError(
                "this is a binary file (it holds NUL bytes), not text",
                filename=filename,
                line=line,
                column=column,
                hint=wanted,
            ) from None
        line, column, shown = _place(data, exc.start)
        raise VolleyError(
            f"the file is not valid UTF-8: byte 0x{data[exc.start]:02x} at offset {exc.start} "
            f"({exc.reason})",
            filename=filename,
            line=line,
            column=column,
            source_line=shown,
            hint="save the file as UTF-8",
        ) from None


def decode_replacing(
    data: bytes, filename: str | None = None, *, wanted: str = _TEXT_WANTED
) -> tuple[str, list[Diagnostic]]:
    """`decode`, but bytes that are not UTF-8 are read as U+FFFD, with a warning for each line
    that held some: for captured traffic, where one line of a long log may be a server's own
    output in another encoding (its stderr in cp1252), and the rest is worth reading."""
    try:
        return decode(data, filename, capture=True, wanted=wanted), []
    except VolleyError as exc:
        if not exc.line:  # a byte-order mark's encoding: not a line of UTF-8
            raise
    told: list[Diagnostic] = []
    untold: list[int] = []  # where the lines past those told one by one go wrong
    offset = 0
    for line in data.split(b"\n"):  # a UTF-8 sequence never holds a line feed
        try:
            line.decode("utf-8")
        except UnicodeDecodeError as exc:
            if len(told) < _LINES_TOLD:
                byte = f"byte 0x{line[exc.start]:02x}: {exc.reason}"
                said = f"this line is not valid UTF-8 ({byte}); {_READ_SO}"
                told.append(_at(data, offset + exc.start, said, filename))
            else:
                untold.append(offset + exc.start)
        offset += len(line) + 1
    if untold:
        more = len(untold) - 1
        said = (
            f"this line and {more:,} more after it are not valid UTF-8 either; they are read "
            "the same way"
            if more
            else "this line is not valid UTF-8 either; it is read the same way"
        )
        told.append(_at(data, untold[0], said, filename))
    return data.decode("utf-8", "replace"), told


def past_bytes(data: bytes, filename: str | None = None) -> tuple[str, list[VolleyError]]:
    """A text with bytes that are not UTF-8, read with U+FFFD in place of each, and an error
    for each line that held some: an editor saved one line in another encoding, and the
    mistakes around it are worth saying at once. Nothing made of such a text is written."""
    text, said = decode_replacing(data, filename)
    errors = [
        VolleyError(
            d.message,
            filename=d.filename,
            line=d.line,
            column=d.column,
            source_line=d.source_line,
            hint="save the file as UTF-8",
        )
        for d in said
    ]
    return text, errors


_LINES_TOLD = 10  # lines that are not UTF-8 told one by one; the rest in one warning
_READ_SO = "it is read with \N{REPLACEMENT CHARACTER} in place of each byte that is not"


def _at(data: bytes, offset: int, said: str, filename: str | None) -> Diagnostic:
    """A warning at the byte `offset` of `data`."""
    line, column, shown = _place(data, offset)
    return Diagnostic(said, filename, line, column, shown, severity="warning")


def _utf16_without_mark(data: bytes) -> bool:
    """Whether bytes are text of the Latin script in UTF-16 with no byte-order mark: a NUL at
    every other byte, on one side, and none on the other."""
    even, odd = data[0::2], data[1::2]
    for zeros, other in ((even, odd), (odd, even)):
        if zeros and zeros.count(0) >= 0.9 * len(zeros) and other.count(0) == 0:
            return True
    return False


def _place(data: bytes, offset: int) -> tuple[int, int, str]:
    """The line (from 1) and column (from 1, in characters) of a byte offset, and the line."""
    line = data.count(b"\n", 0, offset) + 1
    start = data.rfind(b"\n", 0, offset) + 1
    end = data.find(b"\n", offset)
    shown = data[start : end if end >= 0 else len(data)].decode("utf-8", "replace")
    column = len(data[start:offset].decode("utf-8", "replace")) + 1
    return line, column, shown.removesuffix("\r")


def read_source(path: str, max_bytes: int | None = None) -> str:
    """Read a diagram file (`-` for standard input) as text.

    With `max_bytes`, reading stops one byte past the limit, so an endless input (a pipe,
    /dev/zero) is refused with the limit's error instead of filling memory.
    """
    return decode(read_bytes(path, max_bytes), "<stdin>" if path == "-" else path)


def read_bytes(path: str, max_bytes: int | None = None) -> bytes:
    """A file's bytes (`-` for standard input), refused past `max_bytes` (see `read_source`)."""
    import sys

    name = "<stdin>" if path == "-" else path
    size: int | None = None  # known for a regular file, unknown for a pipe
    try:
        if path == "-":
            data = _read_capped(sys.stdin.buffer, max_bytes)
        else:
            with open(path, "rb") as handle:
                info = os.fstat(handle.fileno())
                size = info.st_size if stat.S_ISREG(info.st_mode) else None
                data = _read_capped(handle, max_bytes)
    except OSError as exc:
        said = f"cannot read {shown_path(path)}: {exc.strerror or exc}"
        raise VolleyError(said, filename=path) from None
    if max_bytes is not None and len(data) > max_bytes:
        from volley.limits import limit_error

        what = f"'s {size:,} bytes" if size is not None else f", more than {max_bytes:,} bytes"
        raise limit_error(f"the input{what}", max_bytes, "--max-input-bytes", filename=name)
    return data


def _read_capped(handle, max_bytes: int | None) -> bytes:
    return handle.read() if max_bytes is None else handle.read(max_bytes + 1)


# In the name of the private folder a regular file is written in before it is renamed into
# place: `.NAME.volley-tmp-XXXXXXXX/NAME` beside the output.
TEMPORARY_MARK = ".volley-tmp-"


def in_project(found: Path, beside: Path) -> bool:
    """Whether a file (its path followed through its links) is one of the project's: in or
    below the folder volley runs in, or the folder of `beside`, the file that names it (a
    README's fence, a diagram's `!include`). A hook or a CI job reads the pages and diagrams of
    others, and quotes a file's lines in its log: a name must not reach `/etc/passwd` or a
    `.env` above the project."""
    from pathlib import Path  # here: rendering one file never asks

    trees = (Path.cwd().resolve(), beside.resolve().parent)
    return any(found.is_relative_to(tree) for tree in trees)


def make_folder_for(path: str) -> None:
    """Make the folder the file `path` is to be written in, and any above it that are
    missing; a file standing where one of them would be is an error that says so."""
    folder = os.path.dirname(path)
    if not folder:
        return
    try:
        os.makedirs(folder, exist_ok=True)
    except FileExistsError as exc:  # `-o s.png/x.svg` with s.png a file
        said = f"{shown_path(exc.filename)} is a file, not a folder"
        raise NotADirectoryError(errno.ENOTDIR, said, path) from None


def write_atomic(
    path: str | os.PathLike[str],
    data: str | bytes,
    *,
    follow_symlinks: bool = True,
    within: str | os.PathLike[str] | None = None,
) -> None:
    """Write `data` to the output `path` names, changing nothing else on disk.

    - A regular file (or a new one) is written beside the target, in a private temporary
      folder `.NAME.volley-tmp-XXXXXXXX/`, then renamed over it: a reader sees the old file or
      the new one, never half of one. A failure, an exception or (as the command line handles
      it) a SIGTERM leaves an existing file as it was and removes the temporary folder. Only a
      SIGKILL or a power cut midway can leave that folder behind; its name says what it is.
    - A device, FIFO or socket (`/dev/null`, `/dev/stdout` into a pipe, a named pipe a reader
      waits on) is written in place, as a shell's `>` would: it is never replaced.
    - A symbolic link is followed, as `open` follows it: the file it points to is written and
      the link stays. With `follow_symlinks=False` a link is refused instead (OSError ELOOP),
      for writers that must not reach outside a tree they were given (README mode).
    - With `within`, a file that would land outside that folder once every link on the way is
      resolved (a `diagrams/` folder that links elsewhere) is refused (PermissionError).
    - A file the user may not write (`chmod a-w`, another user's) is refused (PermissionError),
      as a shell's `>` refuses it, though the folder would let it be replaced.

    Any failure raises OSError naming `path`.
    """
    target = os.fspath(path)
    payload = data.encode("utf-8") if isinstance(data, str) else data
    try:
        if within is not None:
            _check_within(target, os.fspath(within), follow_symlinks)
        _write(target, payload, follow_symlinks)
    except OSError as exc:  # name the file asked for, not the temporary one or a link's target
        raise OSError(exc.errno, exc.strerror or str(exc), target) from None


def _check_within(target: str, root: str, follow_symlinks: bool) -> None:
    folder, name = os.path.split(os.path.abspath(target))
    landing = os.path.join(os.path.realpath(folder), name)
    if follow_symlinks:
        landing = os.path.realpath(landing)
    root = os.path.realpath(root)
    try:
        inside = os.path.commonpath([os.path.dirname(landing), root]) == root
    except ValueError:  # another drive
        inside = False
    if not inside:
        raise PermissionError(errno.EPERM, f"it would be written outside {root}", target)


def _write(target: str, payload: bytes, follow_symlinks: bool) -> None:
    link = os.path.islink(target)
    if link and not follow_symlinks:
        raise OSError(errno.ELOOP, "a symbolic link, which is not written through here", target)
    try:
        info: os.stat_result | None = os.stat(target)
    except OSError:  # a new file, or a folder that is missing: the write says which
        info = None
    if info is not None and stat.S_ISDIR(info.st_mode):
        raise IsADirectoryError(errno.EISDIR, "a folder, not a file", target)
    if info is not None and stat.S_ISREG(info.st_mode) and not os.access(target, os.W_OK):
        # made read-only to keep it: the rename would replace it all the same, as `>` would not
        raise PermissionError(errno.EACCES, "it is read-only", target)
    special = info is not None and not stat.S_ISREG(info.st_mode)
    if info is not None and special and _write_in_place(target, payload, info):
        return
    written = os.path.realpath(target) if link else target
    _write_through_temporary(written, payload, info)


def _write_in_place(target: str, payload: bytes, info: os.stat_result) -> bool:
    """Write to a device, FIFO or socket as it is; False if it became a regular file since.

    Opening a FIFO waits for its reader, as `cat > fifo` does.
    """
    if stat.S_ISSOCK(info.st_mode):
        _send(target, payload, info)
        return True
    descriptor = os.open(target, os.O_WRONLY | getattr(os, "O_NOCTTY", 0))
    if stat.S_ISREG(os.fstat(descriptor).st_mode):
        os.close(descriptor)  # swapped for a file after the look: replace it atomically
        return False
    with open(descriptor, "wb") as handle:
        handle.write(payload)
    return True


def _send(target: str, payload: bytes, info: os.stat_result) -> None:
    """A socket cannot be opened as a file: our own standard output or error (`/dev/stdout`
    when it is a socket) is written through its descriptor, any other socket is connected to."""
    import socket

    for descriptor in (1, 2):
        try:
            own = os.path.samestat(info, os.fstat(descriptor))
        except OSError:
            continue
        if own:
            with open(os.dup(descriptor), "wb") as handle:
                handle.write(payload)
            return
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as connection:
        connection.connect(target)
        connection.sendall(payload)
        connection.shutdown(socket.SHUT_WR)


def _write_through_temporary(target: str, payload: bytes, info: os.stat_result | None) -> None:
    """The new file is made by `open` inside a folder only this user can enter, so it gets the
    mode the umask gives (reading the umask means setting it, which races other threads) and
    nobody reads it half-written; a file written over keeps its own mode."""
    folder, name = os.path.split(target)
    if not name:  # `out/`: a folder's name, not a file's
        raise IsADirectoryError(errno.EISDIR, "a folder, not a file", target)
    prefix = f".{name[:40]}{TEMPORARY_MARK}"  # short enough for the longest names allowed
    with tempfile.TemporaryDirectory(prefix=prefix, dir=folder or ".") as private:
        temporary = os.path.join(private, name)
        with open(temporary, "xb") as handle:
            handle.write(payload)
            handle.flush()
            os.fsync(handle.fileno())
        if info is not None:
            os.chmod(temporary, stat.S_IMODE(info.st_mode))
        os.replace(temporary, target)
