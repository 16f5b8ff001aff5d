"""Where `volley check` and `volley render` read and write.

Inputs are files, `-` (standard input), swimlanes.io share links or folders: a folder stands
for every `.volley` file below it (hidden folders, dependencies and built docs sites skipped),
and, when asked, every Markdown file holding a ```volley block. Outputs follow `-o`: nothing
(beside each input), a file, `-` (standard output) or a folder, which a trailing `/` or several
inputs make one and which is created if missing. Anything contradictory (a format that
disagrees with the file's extension, an extension volley does not write, several diagrams into
one file) is a usage error before anything is written.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import stat
from collections.abc import Iterator
from dataclasses import dataclass

import click

from volley.errors import VolleyError, shown_path
from volley.options import FORMATS
from volley.textio import MARKDOWN_SUFFIXES, VOLLEY_SUFFIX


@dataclass(frozen=True)
class Source:
    """One input: its path, and the folder given on the command line it was found under."""

    path: str
    folder: str | None = None

    @property
    def is_markdown(self) -> bool:
        return self.path.lower().endswith(MARKDOWN_SUFFIXES) and not self.is_link

    @property
    def is_link(self) -> bool:
        """A swimlanes.io link given for a file: there is no file to write beside."""
        from volley.api import LINK_NAME, source_name

        return source_name(self.path) == LINK_NAME


def refuse_markdown(source: Source, does: str) -> None:
    """A Markdown page given to a command that reads .volley text alone (`volley fmt`,
    `volley parse`): one error that names what does read its blocks, not one per line."""
    if source.is_markdown:
        raise VolleyError(
            f"volley {does} .volley files, not Markdown pages",
            filename=source.path,
            hint=f"volley check {shown_path(source.path)} checks its ```volley blocks; "
            f"volley render {shown_path(source.path)} draws them",
        )


def expand(paths: tuple[str, ...], *, markdown: bool, offer_markdown: bool = True) -> list[Source]:
    """The inputs, folders replaced by the files below them, in a stable (sorted) order;
    `offer_markdown` where the command has --markdown, which a folder of none may need."""
    if paths.count("-") > 1:  # the second would read nothing: what was piped went to the first
        raise click.UsageError("- (standard input) is given more than once; it can be read once")
    sources: list[Source] = []
    for path in paths:
        if path == "-" or not os.path.isdir(path):
            sources.append(Source(path))
            continue
        found = [Source(file, path) for file in _below(path, markdown)]
        if not found:
            what = "no .volley files" + (
                " or Markdown files with ```volley blocks" if markdown else ""
            )
            hint = (
                " (add --markdown to take Markdown files with diagrams)"
                if offer_markdown and not markdown
                else ""
            )
            raise click.UsageError(f"{what} below the folder {shown_path(path)}{hint}")
        sources.extend(found)
    return sources


# Folders of what tools made or fetched, never of what the author wrote: dependencies, and
# the built sites of Sphinx (`_build`) and MkDocs (`site` beside a `mkdocs.yml`), which hold
# copies of the sources (their diagrams would be checked twice).
_NOT_SOURCES = frozenset({"node_modules", "__pycache__", "_build", "site-packages"})


def _below(folder: str, markdown: bool) -> Iterator[str]:
    for root, folders, files in os.walk(folder):
        built_site = "mkdocs.yml" in files
        folders[:] = sorted(
            name
            for name in folders
            if not name.startswith(".")
            and name not in _NOT_SOURCES
            and not (built_site and name == "site")
        )
        for name in sorted(files):
            path = os.path.normpath(os.path.join(root, name))
            wanted = name.endswith(VOLLEY_SUFFIX) or (
                markdown and name.lower().endswith(MARKDOWN_SUFFIXES) and _has_diagrams(path)
            )
            if wanted:
                yield path


def _has_diagrams(path: str) -> bool:
    """Whether a Markdown file holds a ```volley block (an unreadable one is kept, to be
    reported when it is read)."""
    from volley.docs.readme import scan
    from volley.textio import decode

    try:
        with open(path, "rb") as handle:
            text = decode(handle.read(), path)
    except (OSError, ValueError):
        return True
    found = scan(text, path)
    return bool(found.blocks or found.problems or found.warnings)


def named_output(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    """`-o` as given: an empty one (`-o ""`, a shell variable never set) names nothing, which
    is said rather than taken for no `-o` at all (the picture went beside its input)."""
    if value is not None and not value.strip():
        raise click.BadParameter("it names no file or folder (it is empty)")
    return value


def is_folder(output: str) -> bool:
    return output.endswith(("/", os.sep)) or os.path.isdir(output)


def chosen_format(output: str | None, fmt: str | None, many: bool) -> str:
    """The format: `-f`, else the output file's extension, else svg; a contradiction between
    the two, or an extension volley does not write, is a usage error; so is a folder named
    like a picture (`-o flow.pdf` where flow.pdf is a folder), unless `-f` says what goes in."""
    if output and not (fmt or many or output.endswith(("/", os.sep))) and os.path.isdir(output):
        suffix = os.path.splitext(output)[1].lower().lstrip(".")
        if suffix in FORMATS:
            raise click.UsageError(
                f"-o {shown_path(output)} is a folder, not a .{suffix} file; to write into it, "
                f"end -o with / and give the format: -o {shown_path(output)}/ -f {suffix}"
            )
    if not output or output == "-" or many or is_folder(output):
        return fmt or "svg"
    if os.path.exists(output) and not os.path.isfile(output):
        return fmt or "svg"  # a device or pipe such as /dev/stdout
    suffix = os.path.splitext(output)[1].lower().lstrip(".")
    if suffix not in FORMATS:
        shown = f"a .{suffix} file" if suffix else "a file without an extension"
        raise click.UsageError(
            f"-o {shown_path(output)} names {shown}; volley writes "
            + ", ".join(f".{name}" for name in FORMATS)
            + " (end -o with / for a folder)"
        )
    if fmt and fmt != suffix:
        raise click.UsageError(
            f"-f {fmt} contradicts -o {shown_path(output)}, which names a .{suffix} file; "
            f"drop -f, or name the file {shown_path(os.path.splitext(output)[0])}.{fmt}"
        )
    return suffix


def several(sources: list[Source]) -> bool:
    """Whether `-o` must name a folder: more than one input, or a folder of them."""
    return len(sources) > 1 or any(source.folder is not None for source in sources)


def targets(sources: list[Source], output: str | None, fmt: str) -> list[str]:
    """Where each source's picture goes (`-` for standard output), checked before any render:
    several diagrams never share one file."""
    many = several(sources)
    if output == "-" and many:
        raise click.UsageError(
            f"-o - writes one diagram to standard output, but there are {len(sources)} inputs"
        )
    folder = output not in (None, "-") and _folder_output(output or "", len(sources), many)
    chosen = [_target(source, output, fmt, folder) for source in sources]
    refuse_overwriting([source.path for source in sources], chosen)
    seen: dict[str, str] = {}
    for source, target in zip(sources, chosen, strict=True):
        if target != "-" and target in seen:
            raise click.UsageError(
                f"{shown_path(seen[target])} and {shown_path(source.path)} would both be "
                f"written to {shown_path(target)}"
            )
        seen[target] = source.path
    return chosen


def refuse_overwriting(inputs: list[str], targets: list[str]) -> None:
    """A usage error where writing one of `targets` would replace an input (the same file by
    its name, by a link or a hard link): the diagram would be lost to what is made of it
    (`volley render flow.svg`, a diagram saved under a picture's name, or `-o` naming the
    input). Each file is looked at once: a folder of thousands is rendered again often."""
    files: dict[tuple[int, int], str] = {}
    for path in inputs:
        with contextlib.suppress(OSError):  # a link to nothing, a file not there: no input
            found = os.stat(path)
            if path != "-" and stat.S_ISREG(found.st_mode):  # `-` is standard input
                files[(found.st_dev, found.st_ino)] = path
    for target in targets:
        try:
            found = os.stat(target)
        except OSError:
            continue  # not there yet: it replaces nothing
        replaced = files.get((found.st_dev, found.st_ino))
        if replaced is not None and target != "-":
            shown = shown_path(replaced)
            if replaced != target:
                shown += f" (as {shown_path(target)})"
            raise click.UsageError(
                f"writing {shown_path(target)} would replace the input {shown}; "
                "give -o another file"
            )


def refuse_picture_name(output: str) -> None:
    """A usage error where `volley import` or `record` would write .volley text into a file
    named for a picture (`-o flow.svg`), which `volley render` makes of it."""
    suffix = os.path.splitext(output)[1].lower().lstrip(".")
    if suffix in FORMATS:
        raise click.UsageError(
            f"-o {shown_path(output)} names a .{suffix} file, but this writes .volley text: "
            f"name a .volley file ({shown_path(os.path.splitext(output)[0])}.volley), then "
            f"volley render it to .{suffix}"
        )


def _folder_output(output: str, count: int, many: bool) -> bool:
    """Whether -o names a folder; a usage error when it names a file several diagrams would
    have to share."""
    if is_folder(output):
        if os.path.exists(output) and not os.path.isdir(output):
            raise click.UsageError(f"-o {shown_path(output)} is a file, not a folder")
        return True
    if not many:
        return False
    if os.path.splitext(output)[1] or os.path.exists(output):
        raise click.UsageError(
            f"-o {shown_path(output)} names one file, but there are {count} diagrams; "
            f"give a folder, such as -o {shown_path(os.path.splitext(output)[0])}/"
        )
    return True


def _target(source: Source, output: str | None, fmt: str, folder: bool) -> str:
    if output == "-" or (not output and source.path == "-"):
        return "-"
    if not output and source.is_link:
        raise click.UsageError(
            "a swimlanes.io link has no file to write its picture beside: give -o FILE "
            "(or -o - for standard output)"
        )
    if not output:
        return f"{os.path.splitext(source.path)[0]}.{fmt}"
    if not folder:
        return output
    if source.path == "-":
        return os.path.join(output, f"stdin.{fmt}")
    if source.is_link:  # named by the link, so that several go into one folder
        digest = hashlib.sha256(source.path.encode("utf-8")).hexdigest()[:8]
        return os.path.join(output, f"swimlanes-{digest}.{fmt}")
    if source.folder is not None:  # keep the layout below the folder given
        inside = os.path.relpath(source.path, source.folder)
        return os.path.join(output, f"{os.path.splitext(inside)[0]}.{fmt}")
    return os.path.join(output, f"{os.path.splitext(os.path.basename(source.path))[0]}.{fmt}")
