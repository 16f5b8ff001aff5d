"""Values in pasted traffic that look like live secrets: finding them, and masking them.

People paste real requests into diagrams that end up in READMEs and shared links. `find_secrets`
looks through a payload body for the places a credential usually sits: an `Authorization`
header that is not a placeholder, `Cookie` and `Set-Cookie` values, JSON keys and `key: value`
lines and query or form parameters named like `token`, `access_token`, `api_key`, `password`,
`secret`, `client_secret`, `private_key`; and values shaped like well-known tokens (JWTs, GitHub,
Slack, AWS, OpenAI-style keys, PEM private keys) wherever they appear.

`redact_diagram` masks each such value as `<redacted>` and keeps everything around it as it was
written, so a JSON body stays JSON, a header stays a header, and the tables and raw views built
from the masked body show the mask. Placeholders (`<token>`, `xxx`, `...`, `$TOKEN`,
`{{token}}`) are not secrets, so documented examples stay quiet and redacting twice changes
nothing.

Every pattern here is linear in the length of the text: no nested quantifiers, bounded keys,
and token shapes that can only start at the start of a run.
"""

from __future__ import annotations

import bisect
import dataclasses
import itertools
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from volley.errors import Diagnostic, VolleyError
from volley.model import Block, Diagram, Divider, Item, Message, Note, Payload, walk

MASK = "<redacted>"


class _Pattern:
    """A regular expression compiled on first use.

    Most texts are ruled out before any pattern runs (`_may_name_secret`, `_may_hold_shape`),
    and compiling them all would cost every cold `volley render` over a millisecond.
    """

    def __init__(self, pattern: str) -> None:
        self.pattern = pattern

    def __getattr__(self, name: str) -> Any:
        compiled = re.compile(self.pattern)
        for method in ("match", "fullmatch", "search", "finditer"):
            setattr(self, method, getattr(compiled, method))
        return getattr(compiled, name)


# Names (lower case, without `-` and `_`) whose value is a secret. A key also counts when it
# ends in one of SECRET_SUFFIXES: `github_token`, `db_password`, `x-api-key`, `aws_secret`.
SECRET_NAMES = frozenset(
    {
        "authorization", "proxyauthorization", "cookie", "setcookie", "token", "accesstoken",
        "refreshtoken", "idtoken", "apikey", "password", "passwd", "passphrase", "secret",
        "clientsecret", "privatekey", "secretkey", "secretaccesskey", "sessiontoken",
        "credentials", "xamzsecuritytoken",
    }
)  # fmt: skip
SECRET_SUFFIXES = ("token", "secret", "password", "passwd", "apikey", "privatekey", "secretkey")
# Values that hold their own secret-looking shape, recognised under any key or none.
TOKEN_SHAPES = _Pattern(
    r"(?<![A-Za-z0-9_\-])(?:"
    r"eyJ[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]+"  # a JWT
    r"|gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{30,}"  # GitHub
    r"|xox[abposr]-[A-Za-z0-9\-]{10,}"  # Slack
    r"|(?:AKIA|ASIA)[0-9A-Z]{16}"  # AWS access key id
    r"|AIza[0-9A-Za-z_\-]{35}"  # Google API key
    r"|sk-[A-Za-z0-9_\-]{20,}"  # OpenAI, Anthropic and similar
    r")"
)
PEM_BEGIN = _Pattern(r"-----BEGIN [A-Z0-9 ]{0,40}PRIVATE KEY-----")
PEM_END = _Pattern(r"-----END [A-Z0-9 ]{0,40}PRIVATE KEY-----")

# Cheap tests that rule most texts out before any pattern runs. Every name above, once folded
# as `secret_name` folds it, holds one of these words; every token shape and private key
# starts with one of these strings.
_NAME_WORDS = (
    "token", "secret", "pass", "apikey", "authorization", "cookie", "privatekey", "credentials"
)  # fmt: skip
_SHAPE_STARTS = (
    "eyJ", "ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_", "xox", "AKIA", "ASIA", "AIza",
    "sk-", "-----BEGIN ",
)  # fmt: skip

# JSON strings and numbers, each scanned once: a key is a string followed by `:`.
_STRING = _Pattern(r'"(?:[^"\\\n]|\\.)*"?')
_KEY_COLON = _Pattern(r"[ \t]*:[ \t]*")
_NUMBER = _Pattern(r"-?[0-9][0-9.eE+\-]{0,80}")
# `Key: value` or `key = value` at the start of a line (headers, YAML, .env, key: value bodies).
_LINE_PAIR = _Pattern(r"[ \t]*(?:-[ \t]+)?([A-Za-z][A-Za-z0-9_.\-]{0,79})[ \t]*([:=])[ \t]*")
# `key=value` in a query string, a form body, a cookie list, or quoted in an error message.
_PARAM = _Pattern(r"(?<![^?&;\s\"'(])([A-Za-z][A-Za-z0-9_.\-\[\]]{0,79})=([^&#;\s\"'<>]*)")
_SCHEME_VALUE = _Pattern(r"([A-Za-z][A-Za-z0-9_\-]{0,30})[ \t]+(\S.*)")

_PLACEHOLDER = _Pattern(
    r"<[^<>]*>"  # <redacted>, <token>
    r"|\[[^\[\]]*\]"  # [redacted]
    r"|[xX*•.…_\-]+"  # xxx, ***, ..., …
    r"|\$\{?[A-Za-z_][A-Za-z0-9_]*\}?|%[A-Za-z_][A-Za-z0-9_]*%"  # $TOKEN, ${TOKEN}, %TOKEN%
    r"|\{\{[^{}]*\}\}|\{[A-Za-z_][A-Za-z0-9_ .\-]*\}"  # {{token}}, {token}
    r"|(?i:redacted|masked|hidden|removed|placeholder|none|null|undefined|true|false)"
    r"|(?i:bearer|basic|digest|token)"  # a scheme with nothing after it
    r"|[^\n]*(?:…|\.\.\.)"  # cut short on purpose: eyJhbGciOi…
    r"|(?i:your)[_\- ][A-Za-z_\- ]*"  # your_api_key, YOUR-TOKEN
)


@dataclass(frozen=True)
class Secret:
    """One value that looks live: where it is in the text, and what names it."""

    start: int  # offsets of the value in the text
    end: int
    what: str  # for people: 'the "password" key', "the Authorization header", "a JWT"
    mask: str = MASK  # what replaces it: quoted where a bare mask would break JSON


def _fold(text: str) -> str:
    return text.lower().replace("-", "").replace("_", "").replace(".", "")


def secret_name(key: str) -> bool:
    """Whether a header, JSON key or parameter name is one that holds a secret."""
    folded = _fold(key).strip("\"'")
    folded = folded.rsplit("[", 1)[0] if folded.endswith("]") else folded
    return folded in SECRET_NAMES or folded.endswith(SECRET_SUFFIXES)


def _may_name_secret(text: str) -> bool:
    """False when no part of the text can be a `secret_name`: its folded form holds no name.

    Folding maps each character on its own, so a part's folded form is part of the text's.
    """
    folded = _fold(text)
    return any(word in folded for word in _NAME_WORDS)


def _may_hold_shape(text: str) -> bool:
    """False when `_shaped_secrets` cannot find anything in the text."""
    return any(start in text for start in _SHAPE_STARTS)


def is_placeholder(value: str) -> bool:
    """Whether a value is written as a stand-in rather than a real credential."""
    value = value.strip().strip("\"'").strip()
    return not value or bool(_PLACEHOLDER.fullmatch(value))


def _header_values(name: str, value: str, start: int) -> Iterator[tuple[int, int]]:
    """The secret parts of a header's value: after the scheme, or each cookie's value."""
    folded = name.lower()
    if folded in ("cookie", "set-cookie"):
        pairs = value.split(";")
        if folded == "set-cookie":
            pairs = pairs[:1]  # the rest are attributes: Path, HttpOnly, Expires
        offset = start
        for pair in pairs:
            key, eq, cookie = pair.partition("=")
            if eq and not is_placeholder(cookie):
                lead = len(cookie) - len(cookie.lstrip())
                yield offset + len(key) + 1 + lead, offset + len(pair.rstrip())
            offset += len(pair) + 1
        return
    scheme = _SCHEME_VALUE.fullmatch(value)
    if folded.endswith("authorization") and scheme:
        if not is_placeholder(scheme.group(2)):
            yield start + scheme.start(2), start + len(value)
    elif not is_placeholder(value):
        yield start, start + len(value)


def _line_secrets(text: str) -> Iterator[Secret]:
    """`Name: value` and `name = value` lines: headers, YAML, .env files."""
    offset = 0
    for line in text.split("\n"):
        match = _LINE_PAIR.match(line)
        if match and secret_name(match.group(1)):
            raw = line[match.end() :]
            value = raw.rstrip()
            if value[:1] in "\"'" and len(value) > 1 and value[-1] == value[0]:
                value = value[1:-1]
                start = offset + match.end() + 1
            else:
                start = offset + match.end()
            if match.group(2) == ":" and value.startswith(("{", "[")):
                pass  # a YAML or JSON container: its own keys are looked at
            elif match.group(2) == "=" and "&" in value:
                pass  # a form or query string: each parameter is looked at on its own
            else:
                what = _describe(match.group(1), header=match.group(2) == ":")
                for begin, end in _header_values(match.group(1), value, start):
                    yield Secret(begin, end, what)
        offset += len(line) + 1


def _json_secrets(text: str) -> Iterator[Secret]:
    """Values of JSON keys named like secrets, in valid JSON or not (a body cut short, NDJSON)."""
    for key in _STRING.finditer(text):  # each string starts where the one before it ended
        colon = _KEY_COLON.match(text, key.end())
        name = key.group()[1:-1]
        if colon is None or not name or not secret_name(name):
            continue
        what = f'the "{_short(name)}" key'
        start = colon.end()
        if text.startswith('"', start):
            value = _STRING.match(text, start)
            content = value.group()[1:-1]  # type: ignore[union-attr]
            if value.group().endswith('"') and len(value.group()) > 1:  # type: ignore[union-attr]
                for begin, end in _header_values(name, content, start + 1):
                    yield Secret(begin, end, what)
        elif number := _NUMBER.match(text, start):
            yield Secret(*number.span(), what, mask=f'"{MASK}"')


def _short(name: str) -> str:
    return name if len(name) <= 40 else name[:39] + "…"


def _param_secrets(text: str) -> Iterator[Secret]:
    for match in _PARAM.finditer(text):
        if secret_name(match.group(1)) and not is_placeholder(match.group(2)):
            yield Secret(*match.span(2), f'the "{_short(match.group(1))}" parameter')


def _shaped_secrets(text: str) -> Iterator[Secret]:
    for match in TOKEN_SHAPES.finditer(text):
        yield Secret(*match.span(), _shape_name(match.group()))
    position = 0
    while begin := PEM_BEGIN.search(text, position):
        end = PEM_END.search(text, begin.end())
        if end is None:
            return  # no later BEGIN can find an END either: stop, so the scan stays linear
        key = text[begin.end() : end.start()]
        if not is_placeholder(key):
            mask = f"\n{MASK}\n" if "\n" in key else MASK
            yield Secret(begin.end(), end.start(), "a private key", mask=mask)
        position = end.end()


def _shape_name(token: str) -> str:
    if token.startswith("eyJ"):
        return "a JWT"
    if token.startswith(("gh", "github_pat_")):
        return "a GitHub token"
    if token.startswith("xox"):
        return "a Slack token"
    if token.startswith(("AKIA", "ASIA")):
        return "an AWS access key"
    if token.startswith("AIza"):
        return "a Google API key"
    return "an API key"


def _describe(name: str, header: bool) -> str:
    if header and name.lower() in ("authorization", "proxy-authorization", "cookie", "set-cookie"):
        return f"the {name} header"
    return f'the "{_short(name)}" key'


def _merged(found: list[Secret]) -> list[Secret]:
    """Secrets in text order, without overlaps (the first found of two that overlap wins)."""
    kept: list[Secret] = []
    for secret in sorted(found, key=lambda s: (s.start, -s.end)):
        if secret.end <= secret.start:
            continue
        if kept and secret.start < kept[-1].end:
            continue
        kept.append(secret)
    return kept


def find_secrets(body: str) -> list[Secret]:
    """Every value in a payload body that looks like a live secret, in text order."""
    found: list[Secret] = []
    if _may_name_secret(body):
        found += _line_secrets(body)
        found += _json_secrets(body)
        found += _param_secrets(body)
    if _may_hold_shape(body):
        found += _shaped_secrets(body)
    return _merged(found) if found else found


def find_secrets_in_label(text: str) -> list[Secret]:
    """Secrets in a label, a title or a note: query parameters and token shapes only.

    Labels are prose; `password: at least 12 characters` there is advice, not a credential.
    """
    found: list[Secret] = []
    if "=" in text and _may_name_secret(text):
        found += _param_secrets(text)
    if _may_hold_shape(text):
        found += _shaped_secrets(text)
    return _merged(found) if found else found


def _masked(text: str, secrets: list[Secret]) -> str:
    out: list[str] = []
    position = 0
    for secret in secrets:
        out.append(text[position : secret.start])
        out.append(secret.mask)
        position = secret.end
    out.append(text[position:])
    return "".join(out)


def redact_body(body: str) -> str:
    """The body with every secret value replaced by `<redacted>`, everything else as written."""
    return _masked(body, find_secrets(body))


def redact_label(text: str) -> str:
    return _masked(text, find_secrets_in_label(text))


def redact_text(text: str) -> str:
    """Any text, masked as thoroughly as a body: for error messages and the lines they quote."""
    return redact_body(text)


def redact_error(error: VolleyError) -> VolleyError:
    """The error with secret-looking values masked in its message, quoted line and hint.

    A parse error quotes the line it points at; with `--redact` that line may be the very
    header or parameter the user asked to mask.
    """
    return VolleyError(
        redact_text(error.message),
        filename=error.filename,
        line=error.line,
        column=error.column,
        source_line=redact_text(error.source_line) if error.source_line is not None else None,
        hint=redact_text(error.hint) if error.hint else error.hint,
    )


def redact_diagnostic(diagnostic: Diagnostic) -> Diagnostic:
    """A warning or error about to be printed, with secret-looking values masked."""
    return dataclasses.replace(
        diagnostic,
        message=redact_text(diagnostic.message),
        source_line=None if diagnostic.source_line is None else redact_text(diagnostic.source_line),
        hint=redact_text(diagnostic.hint) if diagnostic.hint else diagnostic.hint,
    )


def _redact_payload(payload: Payload | None) -> Payload | None:
    if payload is None:
        return None
    return dataclasses.replace(
        payload, label=redact_label(payload.label), body=redact_body(payload.body)
    )


def _redact_item(item: Item) -> Item:
    """A shallow copy of one item with its own texts masked (a block's branches come later)."""
    if isinstance(item, Message):
        return dataclasses.replace(
            item,
            label=redact_label(item.label),
            request=_redact_payload(item.request),
            response=_redact_payload(item.response),
        )
    if isinstance(item, Note):
        return dataclasses.replace(item, over=list(item.over), text=_redact_note(item.text))
    if isinstance(item, Divider):
        return dataclasses.replace(item, label=redact_label(item.label))
    return dataclasses.replace(
        item,
        branches=[
            dataclasses.replace(b, label=redact_label(b.label), items=list(b.items))
            for b in item.branches
        ],
    )


def _redact_note(text: str) -> str:
    """A note's text; a fenced block inside it is pasted traffic, masked like a body."""
    if "```" not in text and "~~~" not in text:
        return redact_label(text)
    return redact_body(text)


def redact_diagram(diagram: Diagram) -> Diagram:
    """A copy of the diagram with every secret-looking value masked; the input is not changed.

    Iterative, so it holds for any nesting the parser accepts.
    """
    copy = dataclasses.replace(
        diagram,
        title=redact_label(diagram.title) if diagram.title is not None else None,
        participants=list(diagram.participants),
        items=list(diagram.items),
    )
    pending: list[list[Item]] = [copy.items]
    while pending:
        items = pending.pop()
        for index, item in enumerate(items):
            items[index] = _redact_item(item)
            if isinstance(items[index], Block):
                pending.extend(branch.items for branch in items[index].branches)
    return copy


def _texts(diagram: Diagram) -> Iterator[tuple[int, str, bool]]:
    """Every text of the diagram in document order: (its first source line, the text, whether
    it is read as a body rather than a label).

    Lines are counted the way the source is written: a fenced body starts two lines under its
    `in:`/`out:` line, an indented one a line under it.
    """
    if diagram.title:
        yield diagram.title_line, diagram.title, False
    for item in walk(diagram.items):
        if isinstance(item, Message):
            yield item.line, item.label, False
            for payload in (item.request, item.response):
                if payload is not None:
                    yield payload.line, payload.label, False
                    skip = 2 if payload.form == "fenced" else 1
                    yield payload.line + skip, payload.body, True
        elif isinstance(item, Note):
            yield item.line, item.text, "```" in item.text or "~~~" in item.text
        elif isinstance(item, Divider):
            yield item.line, item.label, False
        elif isinstance(item, Block):
            for branch in item.branches:
                yield branch.line, branch.label, False


def diagram_secrets(diagram: Diagram) -> Iterator[tuple[int, int, Secret, str]]:
    """(source line, offset in that line, secret, line text) for every secret in the diagram."""
    texts = list(_texts(diagram))
    labels = "\n".join(text for _, text, body in texts if not body)
    bodies = "\n".join(text for _, text, body in texts if body)
    if not (
        _may_hold_shape(labels)
        or _may_hold_shape(bodies)
        or _may_name_secret(bodies)
        or ("=" in labels and _may_name_secret(labels))
    ):
        return  # the usual case, settled by one look at all the text at once
    for first_line, text, body in texts:
        secrets = find_secrets(text) if body else find_secrets_in_label(text)
        if not secrets:
            continue
        lines = text.split("\n")
        starts = list(itertools.accumulate((len(line) + 1 for line in lines), initial=0))
        for secret in secrets:
            index = bisect.bisect_right(starts, secret.start) - 1
            yield first_line + index, secret.start - starts[index], secret, lines[index]
