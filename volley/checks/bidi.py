"""Characters that change how a text looks without showing themselves: bidi controls, invisible
characters and control characters in names and labels.

`‮Admin‬` (U+202E RIGHT-TO-LEFT OVERRIDE … U+202C) is drawn as "nimdA"; a zero-width space
makes `admin` and `ad​min` two participants that look the same. `hidden_characters` finds them,
for a warning from `volley check`; `reveal` writes each one as an escape (`\\u202e`), for the
picture, so that what is drawn is what is there.

Right-to-left writing uses bidi controls on purpose: in a text that is plainly right-to-left
(letters of right-to-left scripts only, such as Arabic or Hebrew, and no left-to-right letters)
they are left alone, but for an override that turns what it covers around: a left-to-right
override anywhere, a right-to-left one over digits (`מחיר \u202e100` is drawn as "מחיר 001").
Joiners that shape a script or an emoji sequence (a zero-width joiner between two non-ASCII
characters, or beside an Arabic letter, or after a virama; the tag characters of a
subdivision flag; Mongolian's vowel separator between two of its letters) are left alone too.
In a label or a note (not a name, where they would make two names that look the same), so are
the directional marks in a text that holds right-to-left letters, beside punctuation, a space or
a right-to-left letter (`עברית \u200f(RLM) and English`; one inside a run of Latin letters or
digits would split it, `5\u200f00` drawn "005"), a zero-width space or word joiner between two
non-ASCII characters (the word breaks Khmer, Lao, Myanmar and Thai are written with; a line may
break at the space), and a non-joiner beside an Arabic letter (`درخواست\u200c پرداخت`).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Literal

from volley.errors import escaped
from volley.model import MARKED_UP, Diagram, TextKind

# Embeddings, overrides, isolates and their terminators, and the directional marks.
BIDI_CONTROLS = frozenset(
    "\u202a\u202b\u202c\u202d\u202e"  # LRE, RLE, PDF, LRO, RLO
    "\u2066\u2067\u2068\u2069"  # LRI, RLI, FSI, PDI
    "\u200e\u200f\u061c"  # LRM, RLM, ALM
)
# Joiners that are part of writing when they sit between two non-ASCII characters.
_JOINERS = frozenset("\u200c\u200d")  # ZWNJ, ZWJ
# Where a line may break, or may not, inside a word of a script written without spaces
# (Khmer, Lao, Myanmar, Thai, Tibetan, Chinese, Japanese): part of writing between two of its
# characters, in a label or a note.
_WORD_BREAKS = frozenset("\u200b\u2060")  # ZERO WIDTH SPACE, WORD JOINER
_SOFT_HYPHEN = "\u00ad"
# Format characters that are signs a font draws under the digits after them (Unicode's
# Prepended_Concatenation_Mark): ARABIC NUMBER SIGN … END OF AYAH, SYRIAC ABBREVIATION MARK
_SIGNS = frozenset("\u0600\u0601\u0602\u0603\u0604\u0605\u06dd\u070f\u0890\u0891\u08e2")
# Marks that draw nothing on a letter that takes none: the combining grapheme joiner, variation
# selectors (which pick an emoji's or an ideograph's form, and nothing of a Latin letter's).
_UNSEEN_MARKS = frozenset(
    "\u034f\u180b\u180c\u180d\u180f" + "".join(map(chr, range(0xFE00, 0xFE10)))
) | frozenset(map(chr, range(0xE0100, 0xE01F0)))
_KEYCAP = "\u20e3"
# The directional marks: they place the punctuation and digits beside them, and move no letter.
_MARKS = frozenset("\u200e\u200f\u061c")  # LRM, RLM, ALM
_VIRAMA = 9  # the canonical combining class of every script's virama (halant, coeng, ...)
# Letters that draw nothing: Hangul fillers, often used for blank-looking names.
_BLANK_LETTERS = frozenset("\u115f\u1160\u3164\uffa0")
_TAGS = range(0xE0020, 0xE0080)  # tag characters: only inside a flag's sequence
_MONGOLIAN_VOWEL_SEPARATOR = "\u180e"  # a format character of Mongolian spelling
_BLACK_FLAG = "\U0001f3f4"
_CANCEL_TAG = "\U000e007f"

Kind = Literal["bidi", "invisible", "control", "sign"]
# The texts drawn as text, where a hidden character is warned about and shown as an escape;
# a body is shown as written.
SHOWN: frozenset[TextKind] = MARKED_UP | {"participant", "display label"}


@dataclass(frozen=True)
class HiddenCharacter:
    """One character that is not shown as itself, where it is, and what it is."""

    index: int  # in the text
    char: str
    # bidi (reorders the text), invisible (draws nothing), control (C0/C1), sign (one drawn
    # over the digits after it, which volley cannot place)
    kind: Kind

    @property
    def code(self) -> str:
        """`U+202E`."""
        return f"U+{ord(self.char):04X}"

    @property
    def name(self) -> str:
        """`RIGHT-TO-LEFT OVERRIDE`; a control character has no name, its code says it."""
        return unicodedata.name(self.char, self.code)

    def describe(self) -> str:
        """For a warning: `U+202E RIGHT-TO-LEFT OVERRIDE, which reorders the text around it`."""
        effect = {
            "bidi": "which reorders the text around it",
            "invisible": "which is not drawn",
            "control": "a control character",
            "sign": "a sign drawn under the digits after it, which volley cannot draw so",
        }[self.kind]
        shown = self.code if self.name == self.code else f"{self.code} {self.name}"
        return f"{shown}, {effect}"


def plainly_right_to_left(text: str) -> bool:
    """Whether the text's letters are all of right-to-left scripts (and there is one: a
    right-to-left mark alone is no letter)."""
    directions = {unicodedata.bidirectional(c) for c in text}  # a left-to-right mark's too
    return "L" not in directions and _holds_right_to_left(text)


def hidden_characters(text: str, name: bool = False) -> list[HiddenCharacter]:
    """Every character `reveal` would escape, in text order; in a participant's `name`, a
    non-joiner that changes nothing drawn (after a word's last virama) too, since it makes
    two names that look the same. Each line is a paragraph of its own, as bidi text is
    drawn: one may be plainly right-to-left beside one that is not."""
    if text.isascii() and text.isprintable():
        return []  # the usual label: nothing to look at
    found: list[HiddenCharacter] = []
    start = 0
    for paragraph in text.split("\n"):
        keep_bidi = plainly_right_to_left(paragraph)
        turned = _turning_overrides(paragraph) if keep_bidi else set()
        # a label of mixed directions places its punctuation with marks on purpose
        keep_marks = keep_bidi or (not name and _holds_right_to_left(paragraph))
        in_flag = False
        for index, char in enumerate(paragraph):
            if char in _MARKS:
                keep = (keep_bidi or keep_marks) and not _inside_a_run(paragraph, index)
            else:
                keep = keep_bidi and index not in turned
            kind = _kind(paragraph, index, char, keep, in_flag, name)
            # A flag's tag characters follow the black flag, up to and with CANCEL TAG.
            in_flag = (
                (in_flag and char != _CANCEL_TAG) if ord(char) in _TAGS else char == _BLACK_FLAG
            )
            if kind is not None:
                found.append(HiddenCharacter(start + index, char, kind))
        start += len(paragraph) + 1
    return found


def _kind(
    text: str, index: int, char: str, keep_bidi: bool, in_flag: bool, name: bool
) -> Kind | None:
    if char in BIDI_CONTROLS:
        return None if keep_bidi else "bidi"
    if char in "\n\t":
        return None  # a label's line break and a tab are written on purpose
    category = unicodedata.category(char)
    if category == "Cc":
        return "control"
    before = text[index - 1] if index else ""
    after = text[index + 1] if index + 1 < len(text) else ""
    if char in _UNSEEN_MARKS and (not before or before.isascii()) and after != _KEYCAP:
        return "invisible"  # on no letter that takes it (`1\ufe0f\u20e3` is a keycap)
    if char == _SOFT_HYPHEN and not name and before.isalpha() and after.isalpha():
        return None  # where a long word may break (text from a CMS): drawn as nothing
    if char in _WORD_BREAKS and not name and before.strip() and after.strip():
        return None if not before.isascii() and not after.isascii() else "invisible"
    if char in _JOINERS:
        if before and after and not before.isascii() and not after.isascii():
            return None
        if (char == "\u200d" or not name) and (_joining(before) or _joining(after)):
            # beside a space too: `ب‍` shows the letter's form inside a word, and a Persian
            # word's non-joiner typed before a space changes nothing
            return None
        # After a virama, a joiner picks the letter's form wherever the word goes on: Malayalam's
        # chillu `ള്‍` (LLA, virama, ZWJ), a Tamil or Hindi word ending `ச்‌` (ZWNJ).
        after_virama = bool(before) and unicodedata.combining(before) == _VIRAMA
        return None if after_virama and not (name and char == "\u200c") else "invisible"
    if ord(char) in _TAGS:
        return None if in_flag else "invisible"
    if (
        char == _MONGOLIAN_VOWEL_SEPARATOR
        and 0 < index < len(text) - 1
        and _mongolian(text[index - 1])
        and _mongolian(text[index + 1])
    ):
        return None  # spelling: it picks the form of the vowel after it (`ᠬᠠᠷ᠎ᠠ`)
    if char in _SIGNS:
        return "sign"
    if category in ("Cf", "Zl", "Zp") or char in _BLANK_LETTERS:
        return "invisible"
    return None


def _turning_overrides(paragraph: str) -> set[int]:
    """Where the overrides are, in one paragraph, that draw what they cover in another order
    than the text alone would: a left-to-right override over right-to-left letters, a
    right-to-left one over digits or left-to-right letters (`מחיר \u202e100` is drawn
    "מחיר 001"). One over what it leaves in order (`\u202d+972-3-1234567\u202c` keeps a
    phone number together) is writing. An override covers what follows it up to the
    POP DIRECTIONAL FORMATTING that closes it, or the end of an isolate it is in; an
    embedding or isolate inside it covers its own text, as Unicode's bidi algorithm has it."""
    turned: set[int] = set()
    # the open embeddings, overrides and isolates: (the character, where it is)
    opened: list[tuple[str, int]] = []
    for index, char in enumerate(paragraph):
        if char in _OPENERS:
            opened.append((char, index))
        elif char == _POP_FORMATTING:
            if opened and opened[-1][0] not in _ISOLATES:
                opened.pop()
        elif char == _POP_ISOLATE:
            while opened and opened.pop()[0] not in _ISOLATES:
                pass
        elif opened and opened[-1][0] in _TURNS:
            opener, at = opened[-1]
            if unicodedata.bidirectional(char) in _TURNS[opener]:
                turned.add(at)
    return turned


_LEFT_TO_RIGHT_OVERRIDE, _RIGHT_TO_LEFT_OVERRIDE = "\u202d", "\u202e"
_POP_FORMATTING, _POP_ISOLATE = "\u202c", "\u2069"
_ISOLATES = frozenset("\u2066\u2067\u2068")  # LRI, RLI, FSI
_OPENERS = frozenset("\u202a\u202b\u202d\u202e") | _ISOLATES  # LRE, RLE, LRO, RLO, isolates
# what each override draws in another order: the bidi classes it turns around
_TURNS = {_LEFT_TO_RIGHT_OVERRIDE: ("R", "AL"), _RIGHT_TO_LEFT_OVERRIDE: ("L", "EN", "AN")}


def _mongolian(char: str) -> bool:
    """A letter of the Mongolian script (not its digits, separators or variation selectors)."""
    return "\u1820" <= char <= "\u18aa" and unicodedata.category(char) == "Lo"


# Letters of a left-to-right script and digits: a mark between two of them splits their run,
# which may turn digits round (`5\u200f00` drawn "005") or hide a token from the secrets check.
_RUN_CLASSES = frozenset(("L", "EN", "AN"))


def _inside_a_run(text: str, index: int) -> bool:
    """Whether the character at `index` stands between two letters or digits of a run."""
    before = text[index - 1] if index else ""
    after = text[index + 1] if index + 1 < len(text) else ""
    return (
        bool(before and after)
        and {
            unicodedata.bidirectional(before),
            unicodedata.bidirectional(after),
        }
        <= _RUN_CLASSES
    )


def _holds_right_to_left(text: str) -> bool:
    """Whether the text holds a letter of a right-to-left script (a mark is none)."""
    return any(
        unicodedata.bidirectional(char) in ("R", "AL") and char not in BIDI_CONTROLS
        for char in text
    )


def _joining(char: str) -> bool:
    """Whether a character is a letter of the Arabic script's kind (Arabic, Syriac), whose
    form a joiner picks: a text about letters writes one alone in the form it takes inside
    a word (`ب‍`, `‍ب‍`)."""
    return bool(char) and unicodedata.bidirectional(char) == "AL"


def reveal(text: str, name: bool = False) -> str:
    """The text with each hidden character written as its escape, everything else as it was.

    For what is drawn, after inline markup has been read (a backslash there is markup).
    """
    found = hidden_characters(text, name)
    if not found:
        return text
    out: list[str] = []
    position = 0
    for hidden in found:
        out.append(text[position : hidden.index])
        out.append(escaped(hidden.char))
        position = hidden.index + 1
    out.append(text[position:])
    return "".join(out)


def shown_texts(diagram: Diagram) -> Iterator[tuple[int, str, bool]]:
    """Each line of the diagram's names, labels and notes, with its source line and whether
    it is a participant's name."""
    for text in diagram.all_texts():
        if text.kind == "note":
            yield from ((line, said, False) for line, said in text.lines())
        elif text.kind in SHOWN:
            yield text.line, text.text, text.kind == "participant"


def reveal_diagram(diagram: Diagram) -> Diagram:
    """The diagram as it is drawn: hidden characters in names, labels and notes written as
    their escapes (bodies are shown as written). The same diagram when there are none."""
    if not any(hidden_characters(text, name) for _, text, name in shown_texts(diagram)):
        return diagram
    from volley.rewrite import Rewrites, rewrite_diagram  # only a diagram hiding some needs it

    names = {
        name: reveal(name, name=True)
        for name in diagram.participants
        if hidden_characters(name, name=True)
    }
    return rewrite_diagram(diagram, Rewrites(label=reveal, note=reveal, names=names))
