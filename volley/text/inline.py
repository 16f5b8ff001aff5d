"""Inline formatting of titles, labels, notes, dividers and block labels, as styled runs.

The markup is a small Markdown subset (see the syntax reference): `**bold**`, `*italic*` and
`_italic_`, `~~strike~~`, `` `code` ``, `[text](url)`, `{fas-plug fa-lg}` icons, backslash
escapes, and `\\n` (a backslash and an "n") for a line break, as is `<br>` (`<br/>`, `<br />`),
which people bring from Mermaid and HTML, and character references (`&amp;`, `&#9829;`).
Emphasis follows CommonMark's delimiter rules, so `snake_case_name` stays as written and
unclosed markers are literal text.

The parser is a single left-to-right scan plus CommonMark's delimiter-stack pass: linear in the
length of the text, whatever the text is (no backtracking regular expressions).

Links: only http:, https:, mailto:, relative paths and `#anchors` become links (not `//host`,
which takes the scheme of wherever the picture is opened, `file:` from disk). Any other
`[text](url)` (javascript:, data:, a URL with whitespace or control characters, entity-like
`&#...;` tricks) is shown as plain text exactly as written, brackets and URL included, so the
reader can see what was refused. Code spans take no markup and no escapes, also not `\\n`.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache

from volley.errors import hidden
from volley.text.fences import FencedBlock, fence_open, read_block

__all__ = [
    "Span",
    "IconRef",
    "Paragraph",
    "ListItem",
    "CodeBlock",
    "Table",
    "Rule",
    "NoteBlock",
    "parse_inline",
    "parse_lines",
    "plain_text",
    "icon_refs",
    "parse_note",
    "link_targets",
    "note_link_targets",
    "safe_href",
    "escape_markup",
]


@dataclass(slots=True, frozen=True)
class IconRef:
    """A Font Awesome icon named in text: `{fas-plug fa-lg}` is ("fas", "plug", 1.25)."""

    prefix: str  # the short style prefix: fas, far, fab, or a Pro one such as fal
    name: str
    scale: float = 1.0
    source: str = ""  # the markup as written, for warnings
    turn: str = ""  # Font Awesome's rotate or flip class without its `fa-`: "rotate-90"


@dataclass(slots=True, frozen=True)
class Span:
    """A run of text in one style; an icon span has empty text and `icon` set."""

    text: str
    bold: bool = False
    italic: bool = False
    strike: bool = False
    code: bool = False
    href: str | None = None
    icon: IconRef | None = None


# --- icons -----------------------------------------------------------------------------------

FREE_PREFIXES = ("fas", "far", "fab")
PRO_PREFIXES = (
    "fal", "fat", "fad", "fak", "fakd",
    "fass", "fasr", "fasl", "fast", "fasds", "fadr", "fadl", "fadt",
)  # fmt: skip
# Font Awesome 6's long class names, `{fa-solid fa-plug}`.
LONG_PREFIXES = {
    "fa-solid": "fas", "fa-regular": "far", "fa-brands": "fab",
    "fa-light": "fal", "fa-thin": "fat", "fa-duotone": "fad",
}  # fmt: skip
SIZE_WORDS = {"fa-2xs": 0.625, "fa-xs": 0.75, "fa-sm": 0.875, "fa-lg": 1.25, "fa-xl": 1.5}
SIZE_WORDS.update({"fa-2xl": 2.0, **{f"fa-{n}x": float(n) for n in range(1, 11)}})

_ICON_PREFIXES = frozenset(FREE_PREFIXES + PRO_PREFIXES)
# Patterns of the rarer paths are strings, compiled by `re` (and cached there) on first use:
# compiling every pattern at import would cost each process that never meets an icon or a link.
_ICON_NAME = r"[a-z0-9]+(?:-[a-z0-9]+)*"
_FA_WORD = r"fa-[a-z0-9-]+"
_ICON_MAX = 80  # longest `{...}` looked at, which keeps the scan linear


def _scan_icon(text: str, start: int) -> IconRef | None:
    """The icon whose markup starts at `text[start] == "{"`, or None if it is not one."""
    end = text.find("}", start + 1, start + _ICON_MAX)
    if end < 0:
        return None
    source = text[start : end + 1]
    words = text[start + 1 : end].split()
    if not words:
        return None
    if words[0] in LONG_PREFIXES and len(words) > 1 and words[1].startswith("fa-"):
        prefix, name, extra = LONG_PREFIXES[words[0]], words[1][3:], words[2:]
    else:
        prefix, _, name = words[0].partition("-")
        prefix = "fas" if prefix == "fa" else prefix  # swimlanes.io: `{fa-name}` is solid
        extra = words[1:]
        if prefix not in _ICON_PREFIXES:
            return None
    if not re.fullmatch(_ICON_NAME, name):
        return None
    scale = 1.0
    for word in extra:
        if not re.fullmatch(_FA_WORD, word):
            return None
        scale = SIZE_WORDS.get(word, scale)  # other classes (fa-fw, fa-spin) are ignored
    return IconRef(prefix, name, scale, source, _turn(set(extra)))


def _turn(words: set[str]) -> str:
    """The turn Font Awesome's stylesheet gives an icon of these classes, about its centre,
    its place on the line unchanged (`{fas-arrow-right fa-rotate-90}` points down): a flip
    over a rotation, both flips as `flip-both`, of several rotations the one it defines last."""
    if "fa-flip-both" in words or {"fa-flip-horizontal", "fa-flip-vertical"} <= words:
        return "flip-both"
    for turn in ("flip-vertical", "flip-horizontal", "rotate-270", "rotate-180", "rotate-90"):
        if f"fa-{turn}" in words:
            return turn
    return ""


# --- links -----------------------------------------------------------------------------------

_SCHEME = r"[A-Za-z][A-Za-z0-9+.\-]*:"
_SAFE_SCHEMES = ("http", "https", "mailto")


def safe_href(url: str) -> str | None:
    """The URL if it may be a link target, else None.

    Allowed: http, https and mailto URLs, and relative references (paths, `#anchor`, `?query`).
    Refused: any other scheme in any case, and anything a browser could read differently from
    us — whitespace or control or format characters anywhere (`java\\tscript:`), and a first
    path segment with `:` or `&` (`&#106;avascript:`, `javascript&#58;`). A reference to
    another host with no scheme (`//host/x`) is refused too: it takes the scheme of wherever the
    picture is opened, and a page opened from disk would reach for `file://host/x`, a share on
    that host.
    """
    url = url.strip(" ")
    if not url:
        return None
    for ch in url:
        if ch.isspace() or unicodedata.category(ch) in ("Cc", "Cf", "Zl", "Zp"):
            return None
    match = re.match(_SCHEME, url)
    if match:
        return url if match.group()[:-1].lower() in _SAFE_SCHEMES else None
    first_segment = re.split(r"[/?#]", url, maxsplit=1)[0]
    if ":" in first_segment or "&" in first_segment or "\\" in url or url.startswith("//"):
        return None
    return url


def _match_parens(text: str) -> dict[int, int]:
    """Position of each `(` mapped to its balancing `)`, skipping backslash-escaped ones."""
    pairs: dict[int, int] = {}
    stack: list[int] = []
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        if ch == "\\":
            i += 2
            continue
        if ch == "(":
            stack.append(i)
        elif ch == ")" and stack:
            pairs[stack.pop()] = i
        i += 1
    return pairs


# --- code spans ------------------------------------------------------------------------------


class _BacktickRuns:
    """Finds the run of exactly N backticks that closes a code span, in amortised O(1)."""

    def __init__(self, text: str) -> None:
        self.starts: dict[int, list[int]] = {}
        self.cursor: dict[int, int] = {}
        for match in re.finditer(r"`+", text):
            self.starts.setdefault(len(match.group()), []).append(match.start())

    def closing(self, length: int, after: int) -> int | None:
        starts = self.starts.get(length)
        if not starts:
            return None
        k = self.cursor.get(length, 0)
        while k < len(starts) and starts[k] < after:
            k += 1
        self.cursor[length] = k
        return starts[k] if k < len(starts) else None


# --- tokens ----------------------------------------------------------------------------------


class _Delim:
    """A run of `*`, `_` or `~~`: literal text until emphasis matching claims its characters."""

    __slots__ = (
        "ch", "count", "length", "can_open", "can_close", "index", "prev", "next", "opens", "closes"
    )  # fmt: skip

    def __init__(self, ch: str, length: int, can_open: bool, can_close: bool, index: int):
        self.ch, self.count, self.length = ch, length, length
        self.can_open, self.can_close, self.index = can_open, can_close, index
        self.prev: _Delim | None = None
        self.next: _Delim | None = None
        self.opens: list[str] = []  # styles that start after this run's remaining characters
        self.closes: list[str] = []  # styles that end before them


class _Bracket:
    """A `[` that may become a link opening; `at` is where it is in the text; `image` when the
    link is Markdown's image, `![alt](url)`."""

    __slots__ = ("href", "at", "image", "target")

    def __init__(self, at: int, href: str | None = None) -> None:
        self.at = at
        self.href = href
        self.image = False
        self.target: int | None = None  # where the address starts in `(destination)`


class _LinkEnd:
    pass


class _Break:
    pass


class _Code:
    """A code span's text, taken literally."""

    __slots__ = ("text",)

    def __init__(self, text: str) -> None:
        self.text = text


_LINK_END = _LinkEnd()
_BREAK = _Break()
# Every character that may start markup; text without any is one plain span.
_KEYCAP = ("\ufe0f", "\u20e3")  # what makes a character a key's picture: `*️⃣`
_SPECIAL = re.compile(r"[*_~`\[\]{\\\n<&]")
# A character reference as Markdown reads one: `&amp;`, `&rarr;`, `&#9829;`, `&#x2665;`.
_REFERENCE = r"&(?:#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});"
# Mermaid's and HTML's line break in text, as `\n` is volley's.
LINE_BREAK_TAG = re.compile(r"<br[ \t]*/?>", re.IGNORECASE)
_AUTOLINK = r"(?i)<((?:https?|mailto):[^\s<>]+)>"
# What `escape_markup` escapes: each character that can start markup.
_MARKUP_START = re.compile(r"([\\*_~`\[\]{}<]|&(?=#?[A-Za-z0-9]+;))")
_ESCAPABLE = frozenset("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~")


def _is_punct(ch: str) -> bool:
    return ch in _ESCAPABLE or (ch > "\x7f" and unicodedata.category(ch)[0] in "PS")


def _flanking(before: str, after: str) -> tuple[bool, bool]:
    """CommonMark's left- and right-flanking tests for a delimiter run; a Chinese, Japanese
    or Korean character beside a run stands where a space would in text written with spaces,
    as markdown-cjk-friendly reads it (`**注意：**系统` is bold: the run closes after the
    full-width colon, before the next word, which has no space before it)."""
    left = not after.isspace() and (
        not _is_punct(after) or before.isspace() or _is_punct(before) or _wide(before)
    )
    right = not before.isspace() and (
        not _is_punct(before) or after.isspace() or _is_punct(after) or _wide(after)
    )
    return left, right


def _wide(ch: str) -> bool:
    """A character of the scripts written without spaces between words, Chinese and
    Japanese, and Korean beside them: East Asian wide, full-width or half-width (ｶﾀｶﾅ), as
    markdown-cjk-friendly counts them."""
    return ch > "\u10ff" and unicodedata.east_asian_width(ch) in ("W", "F", "H")


class _Scanner:
    """One left-to-right pass that splits text into literal strings, delimiter runs, code,
    icons, link ends and breaks. Each handler consumes from `self.i` and never looks back."""

    def __init__(self, text: str) -> None:
        self.text, self.n, self.i = text, len(text), 0
        self.tokens: list = []
        self.delims: list[_Delim] = []
        self.brackets: list[int] = []  # token indexes of `[` not yet closed
        self.buf: list[str] = []  # literal text not yet made a token
        self._backticks: _BacktickRuns | None = None
        self._parens: dict[int, int] | None = None
        self.line_start = 0  # where the line after the last break starts

    def run(self) -> tuple[list, list[_Delim]]:
        text, handlers = self.text, self._handlers()
        while self.i < self.n:
            match = _SPECIAL.search(text, self.i)
            if match is None:
                self.buf.append(text[self.i :])
                break
            j = match.start()
            if j > self.i:
                self.buf.append(text[self.i : j])
            self.i = j + 1
            handlers[text[j]](j)
        self.flush()
        return self.tokens, self.delims

    def _handlers(self) -> dict:
        return {
            "\\": self.escape,
            "\n": lambda j: self.line_break(),
            "<": self.angle,
            "&": self.reference,
            "`": self.code,
            "*": self.delimiter,
            "_": self.delimiter,
            "~": self.delimiter,
            "{": self.icon,
            "[": lambda j: self.emit(_Bracket(j)),
            "]": self.link,
        }

    def flush(self) -> None:
        if self.buf:
            self.tokens.append("".join(self.buf))
            self.buf.clear()

    def emit(self, token: object) -> None:
        self.flush()
        if isinstance(token, _Bracket):
            self.brackets.append(len(self.tokens))
        self.tokens.append(token)

    def run_end(self, j: int) -> int:
        """End of the run of the character at j."""
        end, ch, text = j, self.text[j], self.text
        while end < self.n and text[end] == ch:
            end += 1
        return end

    def line_break(self) -> None:
        """A break (`\\n`, `<br>`, a newline): what follows starts a line, as after a space."""
        self.emit(_BREAK)
        self.line_start = self.i

    def escape(self, j: int) -> None:
        nxt = self.text[self.i] if self.i < self.n else ""
        if nxt == "n":
            self.i += 1
            self.line_break()
        elif nxt and nxt in _ESCAPABLE:
            self.buf.append(nxt)
            self.i += 1
        else:
            self.buf.append("\\")  # not an escape: the backslash is text

    def angle(self, j: int) -> None:
        """`<br>` is a line break (Mermaid's and HTML's), `<https://…>` a link showing its
        address (Markdown's autolink); any other `<` is text."""
        tag = LINE_BREAK_TAG.match(self.text, j)
        if tag is not None:
            self.i = tag.end()
            self.line_break()
            return
        autolink = re.compile(_AUTOLINK).match(self.text, j)
        href = safe_href(autolink[1]) if autolink else None
        if autolink is None or href is None:
            self.buf.append("<")
            return
        self.flush()  # not an opening bracket: nothing later can close it
        self.tokens += [_Bracket(j, href), autolink[1], _LINK_END]
        self.i = autolink.end()

    def reference(self, j: int) -> None:
        """`&amp;`, `&rarr;`, `&#9829;`: the character, as Markdown (and swimlanes.io) shows
        it. One that names no character, or a hidden one (`&#x202E;` would reorder what is
        drawn, unseen), stays as written."""
        import html  # here: only text with an `&` needs it

        found = re.compile(_REFERENCE).match(self.text, j)
        decoded = html.unescape(found.group()) if found else ""
        if found is None or decoded == found.group() or any(hidden(ch) for ch in decoded):
            self.buf.append("&")
        else:
            self.buf.append(decoded)
            self.i = found.end()

    def code(self, j: int) -> None:
        end = self.run_end(j)
        self._backticks = self._backticks or _BacktickRuns(self.text)
        close = self._backticks.closing(end - j, end)
        if close is None:
            self.buf.append(self.text[j:end])
            self.i = end
        else:
            self.emit(_Code(_strip_code(self.text[end:close])))
            self.i = close + (end - j)

    def delimiter(self, j: int) -> None:
        end = self.i = self.run_end(j)
        ch, text = self.text[j], self.text
        if ch == "*" and end < self.n and text[end] in _KEYCAP:
            end -= 1  # the run's last is the emoji *️⃣, an asterisk on a key: no mark
            if end == j:
                self.buf.append("*")
                self.i = j + 1
                return
            self.i = end
        before = text[j - 1] if j > self.line_start else " "  # `\n_words_` starts a line
        after = text[end] if end < self.n else " "
        left, right = _flanking(before, after)
        if ch == "*" and end - j >= 2 and before.isspace() and not left:
            right = True  # `**1. Launch  **` is bold in swimlanes.io, as its pictures show
        if ch == "_":  # no intraword emphasis: snake_case_name stays as written
            left, right = (
                left and (not right or _is_punct(before)),
                right and (not left or _is_punct(after)),
            )
        if (ch == "~" and end - j != 2) or not (left or right):
            self.buf.append(text[j:end])
            return
        delim = _Delim(ch, end - j, left, right, len(self.delims))
        self.delims.append(delim)
        self.emit(delim)

    def icon(self, j: int) -> None:
        icon = _scan_icon(self.text, j)
        if icon is None:
            self.buf.append("{")
        else:
            self.emit(icon)
            self.i = j + len(icon.source)

    def link(self, j: int) -> None:
        """A `]`: the end of a link's text if `(destination)` follows, else text."""
        text, i = self.text, self.i
        opener = self.brackets.pop() if self.brackets else None
        close = None
        if opener is not None and i < self.n and text[i] == "(":
            if self._parens is None:
                self._parens = _match_parens(text)
            close = self._parens.get(i)
        if opener is None or close is None or "\n" in text[i:close]:
            self.buf.append("]")
            return
        href = safe_href(text[i + 1 : close])
        if href is None:
            self.buf.append(text[j : close + 1])  # refused: shown as written
        else:
            self.flush()
            bracket = self.tokens[opener]
            bracket.href = href
            bracket.target = text.index(href, i + 1)  # past the blanks before it
            self.tokens.append(_LINK_END)
            self._images_as_text(opener)
            if self._is_image(bracket, opener):
                self._image(bracket, opener)  # a link may still hold it: brackets stay open
            else:
                self.brackets.clear()  # no links inside links
        self.i = close + 1

    def _is_image(self, bracket: _Bracket, opener: int) -> bool:
        """Whether the link just closed was written `![alt](url)`: a `!` that is no escaped
        one (`\\![x](y)`) right before its `[`."""
        before, at = self.tokens[opener - 1] if opener else None, bracket.at
        if not isinstance(before, str) or not before.endswith("!") or self.text[at - 1] != "!":
            return False
        backslashes = at - 1 - len(self.text[: at - 1].rstrip("\\"))
        return backslashes % 2 == 0

    def _image(self, bracket: _Bracket, opener: int) -> None:
        """Markdown's image is drawn as a link to it whose text is the alt text (a picture never
        loads anything): the `!` goes, and an alt with nothing to see shows the address."""
        bracket.image = True
        self.tokens[opener - 1] = self.tokens[opener - 1][:-1]
        alt = self.tokens[opener + 1 : -1]
        if all(isinstance(token, str) and not token.strip() for token in alt):
            self.tokens[opener + 1 : -1] = [bracket.href]

    def _images_as_text(self, opener: int) -> None:
        """The images inside the link (or image) just closed are its text, as in a badge
        (`[![build](b.svg)](ci)`): their alt text goes to its address, not the picture's."""
        inside = False
        for k in range(opener + 1, len(self.tokens) - 1):
            token = self.tokens[k]
            if isinstance(token, _Bracket) and token.image:
                self.tokens[k], inside = "", True
            elif token is _LINK_END and inside:
                self.tokens[k], inside = "", False


def _strip_code(content: str) -> str:
    """CommonMark: one space is stripped from both ends, so `` ` `a` ` `` can show backticks."""
    if len(content) > 2 and content[0] == " " and content[-1] == " " and content.strip(" "):
        return content[1:-1]
    return content


def _match_emphasis(delims: list[_Delim]) -> None:
    """CommonMark's "process emphasis" over the whole delimiter list, in linear time."""
    for a, b in zip(delims, delims[1:], strict=False):
        a.next, b.prev = b, a
    bottoms: dict[tuple[str, bool, int], int] = {}
    closer = delims[0] if delims else None
    while closer is not None:
        if not closer.can_close:
            closer = closer.next
            continue
        key = (closer.ch, closer.can_open, closer.length % 3)
        bottom = bottoms.get(key, -1)
        opener = closer.prev
        while opener is not None and opener.index > bottom:
            if (
                opener.ch == closer.ch
                and opener.can_open
                and not (
                    (opener.can_close or closer.can_open)
                    and (opener.length + closer.length) % 3 == 0
                    and (opener.length % 3 or closer.length % 3)
                )
            ):
                break
            opener = opener.prev
        if opener is None or opener.index <= bottom:
            bottoms[key] = closer.prev.index if closer.prev else -1
            following = closer.next
            if not closer.can_open:
                _unlink(closer)
            closer = following
            continue
        used = 2 if opener.count >= 2 and closer.count >= 2 else 1
        style = "strike" if closer.ch == "~" else ("bold" if used == 2 else "italic")
        opener.count -= used
        closer.count -= used
        opener.opens.append(style)
        closer.closes.append(style)
        opener.next, closer.prev = closer, opener  # runs in between stay literal
        if opener.count == 0:
            _unlink(opener)
        if closer.count == 0:
            following = closer.next
            _unlink(closer)
            closer = following


def _unlink(delim: _Delim) -> None:
    if delim.prev is not None:
        delim.prev.next = delim.next
    if delim.next is not None:
        delim.next.prev = delim.prev


_Style = tuple[bool, bool, bool, bool, "str | None"]  # bold, italic, strike, code, href


class _LineBuilder:
    """Turns tokens into lines of spans, merging neighbours of the same style."""

    def __init__(self) -> None:
        self.lines: list[list[Span]] = [[]]
        self.depth = {"bold": 0, "italic": 0, "strike": 0}
        self.href: str | None = None
        self.pending: list[str] = []  # text of the span being built, in pieces
        self.pending_style: _Style = (False, False, False, False, None)

    def _style(self, code: bool) -> _Style:
        depth = self.depth
        return (depth["bold"] > 0, depth["italic"] > 0, depth["strike"] > 0, code, self.href)

    def flush(self) -> None:
        if self.pending:
            self.lines[-1].append(Span("".join(self.pending), *self.pending_style))
            self.pending.clear()

    def text(self, text: str, code: bool = False) -> None:
        if not text:
            return
        style = self._style(code)
        if style != self.pending_style:
            self.flush()
            self.pending_style = style
        self.pending.append(text)

    def add(self, token: object) -> None:
        if isinstance(token, str):
            self.text(token)
        elif isinstance(token, _Delim):
            for style in token.closes:
                self.depth[style] -= 1
            self.text(token.ch * token.count)
            for style in token.opens:
                self.depth[style] += 1
        elif isinstance(token, _Code):
            self.text(token.text, code=True)
        elif isinstance(token, IconRef):
            self.flush()
            self.lines[-1].append(Span("", *self._style(False), icon=token))
        elif isinstance(token, _Bracket):
            if token.href is None:
                self.text("[")
            else:
                self.href = token.href
        elif token is _LINK_END:
            self.href = None
        elif token is _BREAK:
            self.flush()
            self.lines.append([])


# Layout parses every label, and the SVG and HTML renderers parse them again: room for all of a
# 10,000-message diagram's texts keeps those hits (about 3 MB when full). Only texts with
# markup are kept, and only short ones, so a server's cache stays small whatever it is sent.
_CACHED_TEXT = 2000  # characters


def parse_lines(text: str) -> tuple[tuple[Span, ...], ...]:
    """`parse_inline` without the copy: the cached lines themselves, so never to be changed."""
    if not _SPECIAL.search(text):
        return ((Span(text),) if text else (),)
    if len(text) > _CACHED_TEXT:
        return _parse_lines(text)
    return _cached_lines(text)


@lru_cache(maxsize=16384)
def _cached_lines(text: str) -> tuple[tuple[Span, ...], ...]:
    return _parse_lines(text)


def _parse_lines(text: str) -> tuple[tuple[Span, ...], ...]:
    tokens, delims = _Scanner(text).run()
    _match_emphasis(delims)
    builder = _LineBuilder()
    for token in tokens:
        builder.add(token)
    builder.flush()
    return tuple(tuple(line) for line in builder.lines)


def parse_inline(text: str) -> list[list[Span]]:
    """Lines of styled spans; a line ends at each `\\n` escape (or real newline)."""
    return [list(line) for line in parse_lines(text)]


def link_targets(text: str) -> list[int]:
    """Where each link's address starts in `text`: the links the text draws, so none in a
    code span or behind an escaped bracket."""
    if not _SPECIAL.search(text):
        return []
    tokens, _ = _Scanner(text).run()
    return [t.target for t in tokens if isinstance(t, _Bracket) and t.target is not None and t.href]


def plain_text(text: str) -> str:
    """The visible text without markup, for `<title>`, aria-labels and search.

    Icons are dropped, line breaks become spaces, and runs of whitespace collapse to one.
    """
    if not _SPECIAL.search(text):
        return " ".join(text.split())  # no markup (most labels): what the general path gives
    return _spans_said(parse_lines(text))


def _spans_said(lines: Iterable[Sequence[Span]]) -> str:
    """Lines of spans as plain words on one line, whitespace collapsed."""
    return " ".join(" ".join("".join(span.text for span in line) for line in lines).split())


def ended(text: str) -> str:
    """Plain text as the end of a sentence: with a full stop, unless it ends with one of its
    own (a label "Done." or "Ready?" spoken as "Done." and "Ready?", not "Done..")."""
    return text if text.endswith((".", "!", "?", "…")) else text + "."


def escape_markup(text: str) -> str:
    """Plain text as markup that shows exactly that text: every character that could start
    markup (`*`, `_`, `~`, a backtick, brackets, braces, `<` of a `<br>`, a backslash) is
    escaped with a backslash."""
    return _MARKUP_START.sub(r"\\\1", text)


def icon_refs(text: str) -> list[IconRef]:
    """Every icon the text shows, in order (icons inside code spans are not icons)."""
    return [span.icon for line in parse_lines(text) for span in line if span.icon is not None]


# --- notes -----------------------------------------------------------------------------------


@dataclass(slots=True)
class Paragraph:
    """Consecutive lines of a note's text, run on as one; `kind` "heading" for a Markdown
    heading (`## Step 1`, drawn bold, a line of its own), "quote" for a quote (`> text`,
    drawn in italics, its marks left out), else "text"."""

    lines: list[list[Span]]
    kind: str = "text"


@dataclass(slots=True)
class ListItem:
    """One bullet or numbered item. `marker` is what to draw: "•" for `-`/`*`, or "3."."""

    marker: str
    lines: list[list[Span]]
    level: int = 0  # nesting depth, from the marker's indentation
    number: int | None = None  # for numbered items


@dataclass(slots=True)
class CodeBlock:
    """A fenced or indented block inside a note, kept verbatim (the fence's indentation, or
    the four columns that make an indented block, removed)."""

    lines: list[str]
    lang: str | None = None


@dataclass(slots=True)
class Table:
    """A GitHub-flavoured Markdown table: a header row, its delimiter row, then body rows.

    `align` holds each column's "left", "center" or "right" (from `:--`, `:-:`, `--:`; a
    column with no colon is "left"); every row has one cell per column, each cell its lines
    of spans (`<br>` breaks a line in a cell, as on GitHub).
    """

    header: list[list[list[Span]]]
    align: list[str]
    rows: list[list[list[list[Span]]]]


@dataclass(slots=True)
class Rule:
    """Markdown's thematic break (`---`, `***`, `___` on a line of its own): a line across."""


NoteBlock = Paragraph | ListItem | CodeBlock | Table | Rule

# A delimiter row: cells of hyphens with a colon at either end, between pipes.
_DELIMITER_CELL = r"[ \t]*(:?)-+(:?)[ \t]*"
# A line that can only be a table's: a row that starts with a pipe (no participant's name
# does), or a delimiter row (`--:|:-:`, whose first cell would otherwise read as a divider).
TABLE_LINE = re.compile(r"[ \t]*\||[ \t]*:?-+:?[ \t]*(?:\|[ \t]*:?-+:?[ \t]*)+\|?[ \t]*$")
_ALIGN = {("", ""): "left", (":", ""): "left", (":", ":"): "center", ("", ":"): "right"}

_LIST_MARKER = r"([ \t]*)([-*+]|(\d{1,9})[.)])[ \t]+(?=\S)"
# Markdown's heading (`## Step 1`, its closing `#`s left out) and quote (`> text`) lines
_HEADING = re.compile(r"([ \t]{0,3})#{1,6}(?:[ \t]+(.*?))??(?:[ \t]+#+)?[ \t]*$")
_QUOTE = re.compile(r"([ \t]{0,3})>[ \t]?(.*)$")
# Markdown's thematic break, three or more of one of `-`, `*`, `_` (spaces between), and the
# line of `=` (or of `-`) that makes the paragraph above it a heading
_RULE = re.compile(r"[ \t]{0,3}([-*_])[ \t]*(?:\1[ \t]*){2,}$")
_SETEXT = re.compile(r"[ \t]{0,3}=+[ \t]*$")
# The start of another of Markdown's blocks, which ends a table as on GitHub: a list item, a
# quote, a heading or a thematic break (fences are found on their own). Shared with the lexer.
BLOCK_START = re.compile(
    _LIST_MARKER
    + r"|[ \t]{0,3}(?:>|#{1,6}(?:[ \t]|$)"  # a quote, a heading
    + r"|(?:(?:-[ \t]*){3,}|(?:\*[ \t]*){3,}|(?:_[ \t]*){3,})$)"  # a thematic break
)


def _indent(whitespace: str) -> int:
    return len(whitespace.expandtabs(4))


def _stretches(
    lines: list[str],
) -> Iterator[tuple[int, int, FencedBlock | CodeBlock | list[str] | None]]:
    """A note's lines in the stretches its blocks take: `(start, end, what)`, where `what` is
    a fenced block, an indented one (as a CodeBlock), a table's column alignments (its header
    at `start`, its delimiter row next), or None for one line of text (a paragraph's or a
    list item's)."""
    i = 0
    listed = False  # the text above is a list item's: an indented line after it is its text
    while i < len(lines):
        opening = fence_open(lines[i])
        if opening is not None:
            block = read_block(lines, i, opening)
            yield i, block.end + 1, block
            i = block.end + 1
            listed = False
            continue
        align = table_start(lines[i], lines[i + 1] if i + 1 < len(lines) else "")
        if align is not None:
            end = i + 2
            while end < len(lines) and not ends_table(lines[end]):
                end += 1
            yield i, end, align
            i = end
            listed = False
            continue
        after_blank = i == 0 or not lines[i - 1].strip()
        if after_blank and not listed and _indent(_leading(lines[i])) >= 4 and lines[i].strip():
            end = _indented_end(lines, i)
            yield i, end, CodeBlock([line.expandtabs(4)[4:] for line in lines[i:end]])
            i = end
            continue
        if re.match(_LIST_MARKER, lines[i]):
            listed = True
        elif lines[i].strip() and after_blank:
            listed = False
        yield i, i + 1, None
        i += 1


def _leading(line: str) -> str:
    return line[: len(line) - len(line.lstrip(" \t"))]


def _indented_end(lines: list[str], start: int) -> int:
    """Where an indented code block that starts at `start` ends, as CommonMark reads one: at
    the first line indented less than four columns that is not blank, its blank lines at
    the end left out."""
    end = last = start
    while end < len(lines) and (not lines[end].strip() or _indent(_leading(lines[end])) >= 4):
        if lines[end].strip():
            last = end
        end += 1
    return last + 1


def parse_note(text: str, lines_kept: bool = False) -> list[NoteBlock]:
    """Blocks of a note's text: paragraphs, list items, code (fenced, or indented four
    columns after a blank line, as Markdown writes it), tables and rules (`---`).

    A paragraph's lines run on, as Markdown's do, unless a line ends in two spaces, a
    backslash, `<br>` or `\\n`, or the note's `lines_kept` (one ended by `end note`); a line
    indented deeper than the marker of the list item above it continues that item; a blank line
    ends a paragraph or item. An unclosed fence runs to the end of the note.
    """
    blocks: list[NoteBlock] = []
    lines = text.replace("\r\n", "\n").split("\n")
    current: list[list[Span]] | None = None  # the lines of the open paragraph or item
    item_indent = -1  # marker indentation of the open list item, or -1
    levels: list[int] = []  # content columns of the enclosing list items, outermost first
    for start, end, what in _stretches(lines):
        if isinstance(what, (FencedBlock, CodeBlock)):
            blocks.append(_code_block(what) if isinstance(what, FencedBlock) else what)
            current, item_indent = None, -1
            levels.clear()
            continue
        if what is not None:
            blocks.append(_table(lines[start:end], what))
            current, item_indent = None, -1
            levels.clear()
            continue
        line = lines[start]
        if not line.strip():
            current, item_indent = None, -1
            continue
        rule = _RULE.match(line)
        under = blocks[-1] if current is not None and item_indent < 0 else None  # a paragraph's
        underline = _SETEXT.match(line) or (rule and rule[1] == "-")
        if underline and isinstance(under, Paragraph) and under.kind == "text" and not lines_kept:
            under.kind = "heading"  # Markdown's other heading: its text underlined
            current = None
            continue
        if rule and (item_indent < 0 or _indent(line[: rule.start(1)]) <= item_indent):
            blocks.append(Rule())
            current, item_indent = None, -1
            levels.clear()
            continue
        heading = _HEADING.match(line)
        if heading and (item_indent < 0 or _indent(heading[1]) <= item_indent):
            # a heading is a line of its own, ending the paragraph or item above
            if heading[2]:
                blocks.append(Paragraph(parse_inline(heading[2]), "heading"))
            current, item_indent = None, -1
            levels.clear()
            continue
        quote = _QUOTE.match(line)
        if quote and (item_indent < 0 or _indent(quote[1]) <= item_indent):
            spans = parse_inline(quote[2])
            last = blocks[-1] if current is not None else None  # the block `current` is of
            if current is not None and isinstance(last, Paragraph) and last.kind == "quote":
                _run_on(current, spans, lines_kept, lines[start - 1])
            else:
                current, item_indent = spans, -1
                levels.clear()
                blocks.append(Paragraph(current, "quote"))
            continue
        marker = re.match(_LIST_MARKER, line)
        if marker:
            # nested in the items whose text starts at or before the marker (CommonMark's
            # rule: `- a` then ` - b`, one space in, is a second item, not a nested one)
            indent = _indent(marker.group(1))
            while levels and levels[-1] > indent:
                levels.pop()
            gap = _indent(line[: marker.end()]) - indent - len(marker.group(2))
            levels.append(indent + len(marker.group(2)) + (gap if gap <= 4 else 1))
            number = int(marker.group(3)) if marker.group(3) else None
            shown = "•" if number is None else marker.group(2)
            current = parse_inline(line[marker.end() :])
            item_indent = indent
            blocks.append(ListItem(shown, current, len(levels) - 1, number))
            continue
        indent = _indent(line[: len(line) - len(line.lstrip())])
        spans = parse_inline(line.strip())
        if current is not None and (item_indent < 0 or indent > item_indent):
            _run_on(current, spans, lines_kept, lines[start - 1])
            continue
        levels.clear()
        current, item_indent = spans, -1
        blocks.append(Paragraph(current))
    return blocks


def note_plain_text(text: str, lines_kept: bool = False) -> str:
    """A note's visible text without markup, for a screen reader: each block a sentence (a
    numbered item with its number; a bullet is heard as the sentence's start), a code block's
    lines, and a table's cells row by row."""
    parts = []
    for block in parse_note(text, lines_kept):
        if isinstance(block, CodeBlock):
            words = " ".join(" ".join(block.lines).split())
        elif isinstance(block, Table):
            rows = [block.header, *block.rows]
            words = "; ".join(", ".join(_spans_said(cell) for cell in row) for row in rows)
        elif isinstance(block, Rule):
            continue  # a line across: nothing to say
        else:
            words = _spans_said(block.lines)
            if isinstance(block, ListItem) and block.number is not None:
                words = f"{block.marker} {words}"
        if words:
            parts.append(ended(words))
    return " ".join(parts)


def _run_on(
    current: list[list[Span]], spans: list[list[Span]], lines_kept: bool, before: str
) -> None:
    """A line's `spans` added to the open paragraph, item or quote: a line break in the text
    is a space, as in Markdown and swimlanes.io; `<br>` or `\\n` break it, and so does the end
    of the line `before`, as in Markdown, when it is two spaces or a backslash (which the break
    takes), or the note's `lines_kept`."""
    # (not an escaped one, `\\`, nor one in a code span the line leaves open, `` `a\ ``)
    backslash = (len(before) - len(before.rstrip("\\"))) % 2 == 1 and before.count("`") % 2 == 0
    if backslash and not lines_kept and current[-1] and current[-1][-1].text.endswith("\\"):
        last = current[-1][-1]
        current[-1][-1:] = [replace(last, text=last.text[:-1])] if last.text != "\\" else []
    if not current[-1]:  # the line before ended in `<br>`
        current[-1] = spans[0]
    elif lines_kept or backslash or before.endswith("  "):
        current.append(spans[0])
    else:
        current[-1] = [*current[-1], Span(" "), *spans[0]]
    current.extend(spans[1:])


def note_link_targets(text: str) -> list[int]:
    """Where each link's address starts in a note's text: the links `parse_note` draws, so
    none in a fenced block or a code span, each table cell read on its own."""
    lines = text.split("\n")
    offsets = [0]
    for line in lines:
        offsets.append(offsets[-1] + len(line) + 1)
    found: list[int] = []
    for start, end, what in _stretches(lines):
        if isinstance(what, (FencedBlock, CodeBlock)):
            continue
        for k in range(start, end):
            line = lines[k]
            for first, last in _cell_bounds(line) if what else [(0, len(line))]:
                at = offsets[k] + first
                found += [at + offset for offset in link_targets(line[first:last])]
    return found


def _cell_bounds(line: str) -> list[tuple[int, int]]:
    """Where each cell of a table row is in `line`, as GitHub splits a row: at each `|` that
    no backslash escapes, the pipes at either end dropped."""
    bounds, start, k = [], 0, 0
    while k < len(line):
        if line[k] == "\\":
            k += 2
            continue
        if line[k] == "|":
            bounds.append((start, k))
            start = k + 1
        k += 1
    bounds.append((start, len(line)))
    if len(bounds) > 1 and not line[slice(*bounds[0])].strip():
        bounds.pop(0)  # before the leading pipe
    if len(bounds) > 1 and not line[slice(*bounds[-1])].strip():
        bounds.pop()  # after the trailing pipe
    return bounds


def _cells(line: str) -> list[str]:
    """A table row's cells, as GitHub reads them, `\\|` kept as a `|` of the cell's text."""
    return [line[first:last].strip().replace("\\|", "|") for first, last in _cell_bounds(line)]


def table_start(line: str, following: str) -> list[str] | None:
    """Each column's alignment, if `line` is a table's header row and `following` its
    delimiter row (a pipe in both, as many cells in each), else None."""
    if "|" not in line or "|" not in following or fence_open(following) is not None:
        return None
    delimiters = _cells(following)
    found = [re.compile(_DELIMITER_CELL).fullmatch(cell) for cell in delimiters]
    if not all(found) or len(_cells(line)) != len(delimiters):
        return None
    return [_ALIGN[(match[1], match[2])] for match in found if match is not None]


def ends_table(line: str) -> bool:
    """Whether `line` ends the table whose rows it follows: a blank line, or the start of
    another block (a fence, a list item, a quote, a heading, a thematic break), as on GitHub."""
    return not line.strip() or fence_open(line) is not None or bool(BLOCK_START.match(line))


def _table(lines: list[str], align: list[str]) -> Table:
    """The table of these lines: a header row, its delimiter row, then body rows. A row's
    cells past the header's are dropped, missing ones are empty, as GitHub draws them."""

    def row(line: str) -> list[list[list[Span]]]:
        cells = (_cells(line) + [""] * len(align))[: len(align)]
        return [parse_inline(cell) for cell in cells]

    return Table(row(lines[0]), align, [row(line) for line in lines[2:]])


def _code_block(block: FencedBlock) -> CodeBlock:
    """A fenced block as the note draws it: an unclosed fence runs to the end of the note,
    less trailing blank lines."""
    body = block.body
    while body and not block.closed and not body[-1].strip():
        body.pop()
    return CodeBlock(body, block.opening.lang)
