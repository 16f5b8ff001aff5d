"""Each character's embedding level by the Unicode Bidirectional Algorithm (UAX #9), and the
order a line's runs are seen in.

A line of a label or note is drawn as runs of one style each, every run at its own x, so
volley, not the renderer, puts the runs in the order they are seen: a bold Hebrew word beside
plain text in brackets (`**שלום** (world) עולם`) must stand where a browser puts it, its
brackets paired and mirrored, a hyphen (`ל-API`) on the side of its Hebrew letter. That takes
the level of every character, which python-bidi (used for PNG and PDF, `volley.output.rtl`)
works out but does not give: its one function returns the reordered string alone. The
algorithm is short and fixed by the standard; this module follows its rules by their names
(X1-X10, W1-W7, N0-N2, I1-I2, L1-L2), the paragraph's level given (rules P2-P3 are
`volley.layout.typeset.right_to_left`). The tests hold it to python-bidi's reordering.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence

__all__ = ["embedding_levels", "has_right_to_left", "visual_order"]

_RIGHT_TO_LEFT = frozenset({"R", "AL", "RLE", "RLO", "RLI"})  # letters, and the controls
_MAX_DEPTH = 125
_REMOVED = frozenset({"RLE", "LRE", "RLO", "LRO", "PDF", "BN"})  # rule X9
_INITIATORS = frozenset({"LRI", "RLI", "FSI"})
_NEUTRAL = frozenset({"B", "S", "WS", "ON", "LRI", "RLI", "FSI", "PDI"})  # NI of rules N1-N2
_BRACKETS = 63  # the deepest nesting of brackets rule BD16 pairs


def has_right_to_left(text: str) -> bool:
    """Whether `text` holds a right-to-left letter (or a control that turns text so): text
    without one keeps its order, whatever else it holds."""
    return not text.isascii() and any(
        unicodedata.bidirectional(ch) in _RIGHT_TO_LEFT for ch in text
    )


def embedding_levels(text: str, rtl: bool) -> list[int]:
    """The level of each character of `text`, one paragraph whose direction is right to left
    when `rtl`: even levels read left to right, odd ones right to left. A character that
    only steers the others (an embedding's mark, a joiner) gets the level of the one before
    it, and white space at the end the paragraph's level (rule L1)."""
    base = 1 if rtl else 0
    types = [unicodedata.bidirectional(ch) or "L" for ch in text]
    original = list(types)
    explicit = _explicit_levels(text, types, base)
    levels = list(explicit)
    kept = [i for i, kind in enumerate(types) if kind not in _REMOVED]
    for sequence in _isolating_sequences(kept, types, explicit, _matching_pdis(types)):
        _resolve(sequence, text, types, explicit, levels, base)
    for i, kind in enumerate(original):  # removed characters: the level beside them
        if kind in _REMOVED:
            levels[i] = levels[i - 1] if i else base
    _reset_trailing(original, levels, base)
    return levels


def visual_order(levels: Sequence[int]) -> list[int]:
    """The indices of items at `levels`, in the order they are seen from the left (rule
    L2): from the highest level to the lowest odd one, every stretch at that level or
    higher turned round."""
    order = list(range(len(levels)))
    if not levels:
        return order
    lowest_odd = min(level for level in levels) | 1
    for level in range(max(levels), lowest_odd - 1, -1):
        i = 0
        while i < len(order):
            if levels[order[i]] < level:
                i += 1
                continue
            j = i
            while j < len(order) and levels[order[j]] >= level:
                j += 1
            order[i:j] = reversed(order[i:j])
            i = j
    return order


# --- explicit levels (X1-X8) -----------------------------------------------------------------


def _explicit_levels(text: str, types: list[str], base: int) -> list[int]:
    """Rules X1-X8: the levels that embeddings, overrides and isolates set; an override's
    direction is written into `types`, and an FSI becomes the LRI or RLI its content makes
    it."""
    stack: list[tuple[int, str, bool]] = [(base, "", False)]  # level, override, isolate
    overflow_isolates = overflow_embeddings = valid_isolates = 0
    levels = [base] * len(text)
    for i, kind in enumerate(types):
        level, override, _ = stack[-1]
        if kind in ("RLE", "LRE", "RLO", "LRO"):
            levels[i] = level
            wanted = _next_level(level, odd=kind[0] == "R")
            if wanted <= _MAX_DEPTH and not overflow_isolates and not overflow_embeddings:
                stack.append((wanted, kind[0] if kind[2] == "O" else "", False))
            elif not overflow_isolates:
                overflow_embeddings += 1
        elif kind in _INITIATORS:
            levels[i] = level
            if override:
                types[i] = override
            if kind == "FSI":
                kind = "RLI" if _first_strong(types, i + 1) == "R" else "LRI"
            wanted = _next_level(level, odd=kind == "RLI")
            if wanted <= _MAX_DEPTH and not overflow_isolates and not overflow_embeddings:
                valid_isolates += 1
                stack.append((wanted, "", True))
            else:
                overflow_isolates += 1
        elif kind == "PDI":
            if overflow_isolates:
                overflow_isolates -= 1
            elif valid_isolates:
                overflow_embeddings = 0
                while not stack[-1][2]:
                    stack.pop()
                stack.pop()
                valid_isolates -= 1
            level, override, _ = stack[-1]
            levels[i] = level
            if override:
                types[i] = override
        elif kind == "PDF":
            levels[i] = level
            if overflow_isolates:
                pass
            elif overflow_embeddings:
                overflow_embeddings -= 1
            elif not stack[-1][2] and len(stack) > 1:
                stack.pop()
        elif kind == "B":
            levels[i] = base
        else:
            levels[i] = level
            if override and kind != "BN":
                types[i] = override
    return levels


def _next_level(level: int, odd: bool) -> int:
    return (level + 1) | 1 if odd else (level + 2) & ~1


def _first_strong(types: Sequence[str], start: int) -> str:
    """The direction of the first strong letter from `start` up to the PDI that ends the
    isolate it is in (rules P2-P3 for an FSI); L if there is none."""
    depth = 0
    for kind in types[start:]:
        if kind in _INITIATORS:
            depth += 1
        elif kind == "PDI":
            if not depth:
                break
            depth -= 1
        elif not depth and kind == "L":
            return "L"
        elif not depth and kind in ("R", "AL"):
            return "R"
    return "L"


def _matching_pdis(types: Sequence[str]) -> dict[int, int]:
    """Each isolate initiator's matching PDI (rule BD9), by index."""
    matches: dict[int, int] = {}
    open_: list[int] = []
    for i, kind in enumerate(types):
        if kind in _INITIATORS:
            open_.append(i)
        elif kind == "PDI" and open_:
            matches[open_.pop()] = i
    return matches


# --- isolating run sequences (X10) -----------------------------------------------------------


def _isolating_sequences(
    kept: list[int], types: list[str], levels: list[int], matches: dict[int, int]
) -> list[list[int]]:
    """Rule X10: the level runs of the characters that stay, each chained to the run after
    its isolate's matching PDI."""
    runs: list[list[int]] = []
    for i in kept:
        if runs and levels[runs[-1][-1]] == levels[i]:
            runs[-1].append(i)
        else:
            runs.append([i])
    run_of = {run[0]: run for run in runs}
    pdis = set(matches.values())
    sequences = []
    for run in runs:
        if types[run[0]] == "PDI" and run[0] in pdis:
            continue  # it goes on the sequence its isolate's initiator ends
        sequence = list(run)
        while types[sequence[-1]] in _INITIATORS and sequence[-1] in matches:
            after = run_of.get(matches[sequence[-1]])
            if after is None:
                break
            sequence += after
        sequences.append(sequence)
    return sequences


# --- resolving a sequence (W1-W7, N0-N2, I1-I2) ------------------------------------------


def _resolve(
    sequence: list[int],
    text: str,
    types: list[str],
    explicit: list[int],
    levels: list[int],
    base: int,
) -> None:
    """Rules W1-I2 on one isolating run sequence at its `explicit` level: the resolved
    levels go into `levels`."""
    level = explicit[sequence[0]]
    first, last = sequence[0], sequence[-1]
    before = next((explicit[i] for i in range(first - 1, -1, -1) if types[i] not in _REMOVED), base)
    after = base
    if types[last] not in _INITIATORS:
        after = next(
            (explicit[i] for i in range(last + 1, len(types)) if types[i] not in _REMOVED), base
        )
    sos = "R" if max(before, level) % 2 else "L"
    eos = "R" if max(after, level) % 2 else "L"
    kinds = [types[i] for i in sequence]
    originals = list(kinds)
    _weak(kinds, sos)
    embedding = "R" if level % 2 else "L"
    _brackets(kinds, originals, [text[i] for i in sequence], sos, embedding)
    _neutrals(kinds, sos, eos, embedding)
    for i, kind in zip(sequence, kinds, strict=True):
        if level % 2 == 0:
            levels[i] = level + (1 if kind == "R" else 2 if kind in ("AN", "EN") else 0)
        else:
            levels[i] = level + (1 if kind in ("L", "EN", "AN") else 0)


def _weak(kinds: list[str], sos: str) -> None:
    """Rules W1-W7 on a sequence's types."""
    previous = sos
    for i, kind in enumerate(kinds):  # W1
        if kind == "NSM":
            kinds[i] = "ON" if previous in _INITIATORS or previous == "PDI" else previous
        previous = kinds[i]
    strong = sos
    for i, kind in enumerate(kinds):  # W2, W3
        if kind in ("L", "R", "AL"):
            strong = kind
            if kind == "AL":
                kinds[i] = "R"
        elif kind == "EN" and strong == "AL":
            kinds[i] = "AN"
    for i in range(1, len(kinds) - 1):  # W4
        left, kind, right = kinds[i - 1], kinds[i], kinds[i + 1]
        if kind == "ES" and left == right == "EN":
            kinds[i] = "EN"
        elif kind == "CS" and left == right and left in ("EN", "AN"):
            kinds[i] = left
    i = 0
    while i < len(kinds):  # W5
        if kinds[i] != "ET":
            i += 1
            continue
        j = i
        while j < len(kinds) and kinds[j] == "ET":
            j += 1
        if (i and kinds[i - 1] == "EN") or (j < len(kinds) and kinds[j] == "EN"):
            kinds[i:j] = ["EN"] * (j - i)
        i = j
    for i, kind in enumerate(kinds):  # W6
        if kind in ("ES", "ET", "CS"):
            kinds[i] = "ON"
    strong = sos
    for i, kind in enumerate(kinds):  # W7
        if kind in ("L", "R"):
            strong = kind
        elif kind == "EN" and strong == "L":
            kinds[i] = "L"


def _strong_of(kind: str) -> str | None:
    """A resolved type's direction as rules N0-N2 read it: numbers read as right to left."""
    return "L" if kind == "L" else "R" if kind in ("R", "EN", "AN") else None


def _brackets(
    kinds: list[str], originals: list[str], chars: list[str], sos: str, embedding: str
) -> None:
    """Rule N0: a pair of brackets takes the direction of what it holds, or of what stands
    before it, as a whole (BD16 pairs them)."""
    for start, end in _bracket_pairs(kinds, chars):
        inside = {_strong_of(kind) for kind in kinds[start + 1 : end]} - {None}
        if not inside:
            continue
        if embedding in inside:
            direction = embedding
        else:  # only the other direction inside: the one before the pair decides
            direction = next(
                (d for kind in reversed(kinds[:start]) if (d := _strong_of(kind))), sos
            )
        for at in (start, end):
            kinds[at] = direction
            follower = at + 1  # marks written on a bracket take its direction (W1 gave ON)
            while follower < len(kinds) and originals[follower] == "NSM":
                kinds[follower] = direction
                follower += 1


def _bracket_pairs(kinds: list[str], chars: list[str]) -> list[tuple[int, int]]:
    """Rule BD16: the sequence's bracket pairs, by the place of the opening one."""
    from bidi.mirror import MIRRORED  # the mirror of each bracket (python-bidi's table)

    pairs: list[tuple[int, int]] = []
    stack: list[tuple[str, int]] = []
    for i, (kind, ch) in enumerate(zip(kinds, chars, strict=True)):
        if kind != "ON":
            continue
        ch = _CANONICAL.get(ch, ch)
        category = unicodedata.category(ch)
        if category == "Ps" and ch in MIRRORED:
            if len(stack) == _BRACKETS:
                return sorted(pairs)
            stack.append((MIRRORED[ch], i))
        elif category == "Pe":
            for depth in range(len(stack) - 1, -1, -1):
                if stack[depth][0] == ch:
                    pairs.append((stack[depth][1], i))
                    del stack[depth:]
                    break
    return sorted(pairs)


# The angle brackets that are one another's canonical equivalents pair as one (BD16)
_CANONICAL = {"\u2329": "\u3008", "\u232a": "\u3009"}


def _neutrals(kinds: list[str], sos: str, eos: str, embedding: str) -> None:
    """Rules N1-N2: a stretch of neutrals between two of one direction takes it; any other
    takes the embedding's."""
    i = 0
    while i < len(kinds):
        if kinds[i] not in _NEUTRAL:
            i += 1
            continue
        j = i
        while j < len(kinds) and kinds[j] in _NEUTRAL:
            j += 1
        left = (_strong_of(kinds[i - 1]) or embedding) if i else sos
        right = (_strong_of(kinds[j]) or embedding) if j < len(kinds) else eos
        kinds[i:j] = [left if left == right else embedding] * (j - i)
        i = j


def _reset_trailing(types: list[str], levels: list[int], base: int) -> None:
    """Rule L1: segment separators, and white space and isolate marks before one or at the
    end of the line, at the paragraph's level."""
    trailing = True
    for i in range(len(types) - 1, -1, -1):
        kind = types[i]
        if kind in ("S", "B"):
            levels[i] = base
            trailing = True
        elif trailing and (
            kind == "WS" or kind in _INITIATORS or kind == "PDI" or kind in _REMOVED
        ):
            levels[i] = base
        else:
            trailing = False
