"""Syntax colouring of raw bodies, done once at render time with Pygments.

The page gets tokens, not markup: a list of `(class, text)` pairs whose texts join back to the
body exactly. The viewer's script builds a `<span>` per token with `textContent`, and the
no-script fallback writes them through the autoescaping template, so highlighting never puts
user text into markup. Classes are a small vocabulary of our own (`key`, `str`, `num`...)
rather than Pygments' dozens, so the stylesheet colours them for both themes in a few lines.
"""

from __future__ import annotations

from pygments.lexer import Lexer
from pygments.lexers import get_lexer_by_name
from pygments.token import (
    Comment,
    Keyword,
    Literal,
    Name,
    Number,
    Operator,
    Punctuation,
    String,
    _TokenType,
)
from pygments.util import ClassNotFound

Token = tuple[str, str]  # (class, text); class "" is plain text

# Bodies larger than this are shown plain: colouring is a nicety, not worth a slow render.
MAX_HIGHLIGHT_CHARS = 256 * 1024

# Fence languages we colour, and the Pygments lexer for each. Only these reach Pygments: a
# fence language is user input, a short list of well-exercised lexers keeps odd inputs from
# finding a slow one, and a name Pygments does not know would make it scan its plugins.
LANGUAGES: dict[str, str] = {
    **{name: name for name in (
        "json", "http", "yaml", "xml", "html", "javascript", "typescript", "python", "sql",
        "graphql", "bash", "toml", "ini", "css", "protobuf", "go", "rust", "java", "kotlin",
        "ruby", "php", "csharp",
    )},
    "yml": "yaml", "js": "javascript", "ts": "typescript", "py": "python", "sh": "bash",
    "shell": "bash", "proto": "protobuf",
}  # fmt: skip

# What an unlabelled body was recognised as (`Table.source`) → the lexer that fits it.
SOURCE_LEXERS = {"json": "json", "http": "http", "keyvalue": "yaml"}

# Most specific first: the first token type that contains a token names its class.
_CLASSES: tuple[tuple[_TokenType, str], ...] = (
    (Name.Tag, "key"),  # JSON and YAML keys
    (Name.Attribute, "attr"),  # HTTP header names
    (Name.Function, "method"),  # HTTP method
    (Name.Namespace, "target"),  # HTTP request target
    (Name.Exception, "reason"),  # HTTP reason phrase
    (Keyword.Constant, "const"),  # true, false, null
    (Keyword, "kw"),
    (String, "str"),
    (Number, "num"),
    (Literal, "val"),  # HTTP header values, YAML scalars
    (Comment, "com"),
    (Punctuation, "pun"),
    (Operator, "pun"),
)


def token_class(ttype: _TokenType) -> str:
    for parent, name in _CLASSES:
        if ttype in parent:
            return name
    return ""


def lexer_name(lang: str | None, source: str) -> str | None:
    """The lexer for a fence language, or for what an unlabelled body was recognised as."""
    words = (lang or "").split()
    if words:
        return LANGUAGES.get(words[0].lower())
    return SOURCE_LEXERS.get(source)


def _lexer(name: str) -> Lexer | None:
    try:
        # stripnl=False keeps leading and trailing blank lines: the raw view is the body as written.
        return get_lexer_by_name(name, stripnl=False, ensurenl=True)
    except ClassNotFound:
        return None


def highlight(body: str, lang: str | None, source: str = "none") -> list[Token]:
    """The body as coloured tokens; one plain token when there is nothing to colour.

    Never raises and never changes the text: if the tokens would not join back to the body
    exactly, the body is returned plain.
    """
    plain = [("", body)] if body else []
    name = lexer_name(lang, source)
    lexer = _lexer(name) if name and len(body) <= MAX_HIGHLIGHT_CHARS else None
    if lexer is None:
        return plain
    try:
        tokens = _merge((token_class(ttype), text) for ttype, text in lexer.get_tokens(body))
    except Exception:  # a lexer bug must not cost the reader the body
        return plain
    if not body.endswith("\n"):
        tokens = _trim_final_newline(tokens)
    return tokens if "".join(text for _, text in tokens) == body else plain


def _merge(tokens) -> list[Token]:
    """Join neighbours of one class, so the page carries fewer, longer runs."""
    merged: list[Token] = []
    for cls, text in tokens:
        if not text:
            continue
        if merged and merged[-1][0] == cls:
            merged[-1] = (cls, merged[-1][1] + text)
        else:
            merged.append((cls, text))
    return merged


def _trim_final_newline(tokens: list[Token]) -> list[Token]:
    """Drop the newline that the lexer added (`ensurenl`), which the body did not have."""
    if tokens and tokens[-1][1].endswith("\n"):
        cls, text = tokens[-1]
        tokens = tokens[:-1] + ([(cls, text[:-1])] if text[:-1] else [])
    return tokens
