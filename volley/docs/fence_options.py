"""The options a ```volley fence line may carry (```` ```volley theme=dark name=login ````), as
README mode, the MkDocs plugin and Sphinx's MyST pages read them: one vocabulary, one reading of
their values, one error for a name volley does not know."""

from __future__ import annotations

import re
from typing import Any

from volley.options import BODIES, THEMES, OptionError, require_known

__all__ = [
    "FENCE_OPTIONS",
    "FLAGS",
    "myst_options",
    "open_quote",
    "typed_options",
    "yes_or_no",
]

FENCE_OPTIONS = ("name", "theme", "interactive", "bodies", "appendix_lines", "redact")
# Options a fence shared with another reader carries for it, which change no picture: Sphinx's
# `alt` (the picture's words for those who cannot see it), and the `file` a fence names.
OTHER_READERS = ("alt", "file")
# The options that are on or off: written alone (```volley redact), or as HTML writes such an
# attribute (`redact="redact"`, as superfences hands it over), they are on.
FLAGS = ("interactive", "redact")
_TRUE = ("true", "yes", "on", "1")
_FALSE = ("false", "no", "off", "0")
_WHOLE_NUMBER = re.compile(r"[0-9]+")  # ASCII digits: int() also takes "1_0", " 7", "٣"
# A MyST directive option line at the top of a block: `:theme: dark`, `:redact:`
_MYST_OPTION = re.compile(r"[ \t]*:(?P<key>[A-Za-z][\w-]*):(?:[ \t]+(?P<value>\S.*?))?[ \t]*")


def named_file(argument: str) -> tuple[str | None, str]:
    """The file a fence line names, its words up to the first option (```` ```volley
    flows/login.volley theme=dark ````, as MyST's ```` ```{volley} ```` writes it; a name may
    hold spaces, as a Sphinx directive's does, and words such as "name": an option after it
    holds a `=` or is a flag), and the options written after it."""
    words = argument.split()
    count = next(
        (
            i
            for i, word in enumerate(words)
            if ("=" in word and not looks_like_a_path(word.partition("=")[0]))
            or word in FLAGS
            or (i == 0 and word in FENCE_OPTIONS)
        ),
        None,
    )
    named = words[:count]
    if not named:
        return None, argument.strip()
    return " ".join(named).strip("\"'"), " ".join(words[len(named) :])


def file_and_diagram(file: str) -> tuple[str, str]:
    """What is said of a fence that names a file and holds a diagram too, and what to do."""
    return (
        f"this ```volley fence names a file ({file}) and holds a diagram",
        "keep one: the file's name on the fence line, or the diagram inside it",
    )


def myst_options(body: list[str]) -> tuple[dict[str, str], int]:
    """The options a MyST page writes at the top of a block (`:theme: dark`, `:redact:`,
    `:alt: Sign-in flow`, then a blank line), as fence options, and how many lines they take.
    No line of a diagram starts with a colon, so these are never a diagram's own."""
    options: dict[str, str] = {}
    count = 0
    for line in body:
        found = _MYST_OPTION.fullmatch(line)
        if found is None:
            break
        key = found["key"].replace("-", "_")
        options[key] = found["value"] if found["value"] is not None else "true"
        count += 1
    if count and count < len(body) and not body[count].strip():
        count += 1
    return options, count


def looks_like_a_path(word: str) -> bool:
    """A word of a fence line that names a file (`flows/login.volley`), not an option."""
    return any(sign in word for sign in "./\\")


def typed_options(overrides: dict[str, str]) -> dict[str, Any]:
    """A fence's options, but `name`, as the values they stand for (`redact=true` is True); a
    name volley does not know, or a value that is not one of its option's, is an OptionError
    naming the option: the diagram is not drawn (a misspelt `redact` must not publish what it
    was written to mask)."""
    require_known(overrides, FENCE_OPTIONS + OTHER_READERS, where=" on the ```volley fence")
    values: dict[str, Any] = {}
    for key, value in overrides.items():
        if key in OTHER_READERS:
            continue
        if isinstance(value, str) and open_quote(value):  # `theme="dark`, read bare
            raise OptionError(
                key,
                f"{key}={value} on the ```volley fence opens a quote it does not close",
                hint=f"write {key}={value}{value[0]}",
            )
        if key in FLAGS:
            values[key] = _boolean(key, value)
        elif value in ("", key, None):  # a word alone (as superfences hands it over: `name="name"`)
            raise OptionError(key, f"{key} on the ```volley fence needs a value: {key}=…")
        elif key == "name":
            continue
        elif key == "appendix_lines":
            values["appendix_lines"] = _whole_number(key, value)
        else:
            allowed = THEMES if key == "theme" else BODIES
            if value not in allowed:
                import difflib  # only a mistake needs it

                close = difflib.get_close_matches(value.lower(), allowed, n=1)
                raise OptionError(
                    key,
                    f'{key}="{value}" on the ```volley fence is not one of: ' + ", ".join(allowed),
                    hint=f'did you mean "{close[0]}"?' if close else None,
                )
            values[key] = value
    return values


def open_quote(value: str) -> bool:
    """Whether an option's value, as a fence line's reader took it, is a quote never closed
    (`theme="dark`): a word that starts with a quote that does not come again. A value
    quoted whole arrives without its quotes (`name="'90s checkout"` is `'90s checkout`); one
    with a space in it is such a value, as a word left unquoted holds none."""
    return (
        value[:1] in ('"', "'")
        and value[0] not in value[1:]
        and not any(ch.isspace() for ch in value)
    )


def yes_or_no(value: str) -> bool | None:
    """What an option says with `true`/`yes`/`on`/`1` or `false`/`no`/`off`/`0` (any case);
    None for any other word. Fences and Sphinx's directive options take the same words."""
    word = value.strip().lower()
    return True if word in _TRUE else False if word in _FALSE else None


def _boolean(key: str, value: str | bool | None) -> bool:
    # written alone (`redact`; None in superfences' braced form, ```{ .volley redact }), or as
    # HTML writes it (`redact="redact"`)
    if value in ("", key, None):
        return True
    answer = value if isinstance(value, bool) else yes_or_no(value)
    if answer is None:
        raise OptionError(key, f'{key}="{value}" on the ```volley fence is not true or false')
    return answer


def _whole_number(key: str, value: str) -> int:
    if not _WHOLE_NUMBER.fullmatch(value):
        raise OptionError(
            key, f'{key}="{value}" on the ```volley fence is not a whole number of 1 or more'
        )
    return int(value)
