"""The words that start volley's elements, as a reader of a mistake needs them: which words are
keywords, which take a colon, and what a word a letter off was most likely meant as.

The grammar (`grammar/volley.lark`) reads them; these lists are for saying what went wrong.
"""

from __future__ import annotations

import re

# PlantUML's kinds of participant (`database Supabase`), which declare one in volley too (on
# a line with no colon), drawn as a box.
PLANTUML_PARTICIPANTS = ("boundary", "control", "entity", "database", "collections", "queue")
# The words that start an element of volley's own (a slip with one is said otherwise).
VOLLEY_WORDS = frozenset(
    {"title", "order", "autonumber", "note", "in", "out", "if", "alt", "else", "and", "loop",
     "opt", "par", "critical", "option", "break", "rect", "box", "group", "end", "participant",
     "actor", "activate", "deactivate", *PLANTUML_PARTICIPANTS}
)  # fmt: skip
_IN_ORDER = sorted(VOLLEY_WORDS)  # the same word is suggested for the same slip, every run
# Words whose line is told its colon when written without one (`if ok` was meant as `if:
# ok`), and whose misspelling is said only with a colon after it ("Ifs are …" are words). Of
# them only `if`, `in`, `out` and `order` always take one; `title`, `alt`, `loop`, `opt`,
# `par` and `group` do on a line that holds an arrow.
COLON_WORDS = ("if", "group", "title", "order", "in", "out", "alt", "loop", "opt", "par")
# sequencediagram.org's settings of how its picture looks (`linear`, `space 3`, `fontfamily
# Times New Roman`), which volley has none of: a line of its own, the word and what it takes
# (a number, on or off, `equal`; words for a font, a colour, a line's style), no colon
# (`Space Station: docked` is a label) and no arrow (`Space ->B` is a message)
LOOK_SETTING = re.compile(
    r"(?im)^[ \t]*(?P<word>entryspacing|participantspacing|autoactivation|linear|parallel"
    r"|bottomparticipants|space)(?:[ \t]+(?:-?[0-9.]+|on|off|equal))?[ \t]*$"
    r"|^[ \t]*(?P<wordy>lifelinestyle|activecolor|fontfamily)(?:[ \t]+[^:<>\n]*)?$"
)
# A line's first word and what follows it: a colon and words, words, or nothing
_STARTING_WORD = re.compile(r"[ \t]*(?P<word>[A-Za-z]+)(?P<rest>[ \t]*:.*|[ \t]+\S.*|[ \t]*)")


def misspelt_keyword(
    line: str, shortest: int = 3, *, typo_only: bool = False
) -> tuple[str, str, str] | None:
    """A line whose first word is a keyword misspelt (a letter off, two swapped, one missing
    or one too many: `tilte: Login`, `partcipant C`, `autonumbr`) and that stands where the
    keyword would: (the word, the keyword as written, with its colon where it takes one, the
    line as meant). None for any other line, and for words shorter than `shortest`.

    With `typo_only` (a note's line, which may be any words), only a slip of one letter that
    keeps the keyword's first: "Border:", "Active:" and "Optional:" are words of their own."""
    found = _STARTING_WORD.fullmatch(line)
    if found is None or len(found["word"]) < shortest:
        return None
    word = found["word"]
    if word.lower() in VOLLEY_WORDS or word.lower().removesuffix("s") in VOLLEY_WORDS:
        return None  # a keyword, or its plural: a word (`Notes: see below`, `Orders`)
    if typo_only:
        close = [k for k in _IN_ORDER if _a_letter_off(word.lower(), k)]
    else:
        import difflib  # only a line that may be a mistake needs it

        close = difflib.get_close_matches(word.lower(), _IN_ORDER, n=1, cutoff=0.8)
    if not close:
        return None
    keyword = close[0]
    rest = found["rest"]
    colon = keyword in COLON_WORDS or keyword == "note"
    if colon and not rest.lstrip(" \t").startswith(":") and keyword != "note":
        return None  # `Ifs are …`: words, not a keyword without its colon
    meant = line[: found.start("word")] + keyword + rest
    return word, keyword + (":" if colon else ""), meant


def _a_letter_off(typed: str, keyword: str) -> bool:
    """Whether `typed` is `keyword` with one slip of the hand, its first letter kept: a letter
    missing, added, changed, or two neighbours swapped."""
    if typed[:1] != keyword[:1] or abs(len(typed) - len(keyword)) > 1:
        return False
    if len(typed) == len(keyword):
        apart = [k for k, (a, b) in enumerate(zip(typed, keyword, strict=True)) if a != b]
        return len(apart) == 1 or (
            len(apart) == 2
            and apart[1] == apart[0] + 1
            and typed[apart[0]] == keyword[apart[1]]
            and typed[apart[1]] == keyword[apart[0]]
        )
    short, long = sorted((typed, keyword), key=len)
    return any(long[:k] + long[k + 1 :] == short for k in range(len(long)))
