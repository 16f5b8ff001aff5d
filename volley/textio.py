"""Bytes to text, and text to files: decoding with a clear error, and writes that never leave
half a file behind."""

from __future__ import annotations

import contextlib
import errno
import os
import stat

from volley.errors import VolleyError


def decode(data: bytes, filename: str | None = None) -> str:
    """UTF-8 (a BOM allowed) to text; invalid bytes are a VolleyError naming the byte offset."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        start = data.rfind(b"\n", 0, exc.start) + 1
        end = data.find(b"\n", exc.start)
        shown = data[start : end if end >= 0 else len(data)].decode("utf-8", "replace")
        column = len(data[start : exc.start].decode("utf-8", "replace")) + 1
        raise VolleyError(
            f"the file is not valid UTF-8: byte 0x{data[exc.start]:02x} at offset {exc.start} "
            f"({exc.reason})",
            filename=filename,
            line=line,
            column=column,
            source_line=shown,
            hint="save the file as UTF-8",
        ) from None


def read_source(path: str, max_bytes: int | None = None) -> str:
    """Read a diagram file (`-` for standard input) as text.

    With `max_bytes`, reading stops one byte past the limit, so an endless input (a pipe,
    /dev/zero) is refused with the limit's error instead of filling memory.
    """
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
        raise VolleyError(f"cannot read {path}: {exc.strerror or exc}", filename=path) from None
    if max_bytes is not None and len(data) > max_bytes:
        from volley.limits import limit_error

        what = f"{size:,} bytes" if size is not None else f"more than {max_bytes:,} bytes"
        raise limit_error(f"the input ({what})", max_bytes, "--max-input-bytes", filename=name)
    return decode(data, name)


def _read_capped(handle, max_bytes: int | None) -> bytes:
    return handle.read() if max_bytes is None else handle.read(max_bytes + 1)


def write_atomic(path: str | os.PathLike[str], data: str | bytes) -> None:
    """Write through a temporary file in the same folder, then rename over the target.

    A failure at any point leaves an existing file exactly as it was, and raises OSError
    naming `path`. A symbolic link is followed, as `open` would: the file it points to is
    replaced, and the link stays.
    """
    target = os.fspath(path)
    payload = data.encode("utf-8") if isinstance(data, str) else data
    try:
        written = os.path.realpath(target) if os.path.islink(target) else target
        _write_through_temporary(written, payload)
    except OSError as exc:  # name the file asked for, not the temporary one beside it
        raise OSError(exc.errno, exc.strerror or str(exc), target) from None


def _write_through_temporary(target: str, payload: bytes) -> None:
    """A new file gets the mode the umask gives (the kernel applies it as the temporary file is
    made: reading the umask means setting it, which races other threads); a file written over
    keeps its own mode."""
    folder, name = os.path.split(target)
    if not name:  # `out/`: a folder's name, not a file's
        raise IsADirectoryError(errno.EISDIR, "a folder, not a file", target)
    try:
        kept_mode: int | None = os.stat(target).st_mode & 0o777
    except OSError:
        kept_mode = None
    fd, tmp = _new_temporary(folder or ".", name, 0o600 if kept_mode is not None else 0o666)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(payload)
            handle.flush()
            os.fsync(handle.fileno())
        if kept_mode is not None:
            os.chmod(tmp, kept_mode)
        os.replace(tmp, target)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise


_TEMPORARY_FLAGS = (
    os.O_RDWR | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_BINARY", 0)
)


def _new_temporary(folder: str, name: str, mode: int) -> tuple[int, str]:
    """A new file `.<name>.<8 random hex>.tmp` in `folder`, made the way `tempfile.mkstemp`
    makes it (and as long a name, so the same names fit), with `mode` less the umask; importing
    tempfile (with shutil and random) would cost every `volley render` 3 ms."""
    for _ in range(100):
        path = os.path.abspath(os.path.join(folder, f".{name}.{os.urandom(4).hex()}.tmp"))
        try:
            return os.open(path, _TEMPORARY_FLAGS, mode), path
        except FileExistsError:
            continue
    raise FileExistsError(errno.EEXIST, "no unused temporary file name", str(folder))
