"""Any text in, a Diagram or a VolleyError pointing inside the text out: nothing else escapes.

Bounded for CI (profile `volley-ci`); `scripts/fuzz.py` runs the same invariants for longer.
"""

from __future__ import annotations

from hypothesis import example, given
from hypothesis import strategies as st

import volley
from volley.errors import VolleyError

from .fuzz_strategies import FUZZ, check_parse, diagram_text, mutated_example


@FUZZ
@given(diagram_text())
def test_generated_diagrams_parse_or_fail_inside_the_input(text: str) -> None:
    check_parse(text)


@FUZZ
@given(mutated_example())
def test_mutated_examples_parse_or_fail_inside_the_input(text: str) -> None:
    check_parse(text)


@FUZZ
@given(st.text(alphabet=st.characters(codec=None), max_size=300))
@example("A\x1b[2J -> B\n")
@example("A -> B\n\ud800")
@example("\r\r\n\n\u2028")
def test_any_text_parses_or_fails_inside_the_input(text: str) -> None:
    check_parse(text)


@FUZZ
@given(st.binary(max_size=300))
@example(b"A -> B: caf\xe9\n")
@example(b"\xef\xbb\xbfA -> B\n\xed\xa0\x80")  # an encoded surrogate is not UTF-8
@example(b"A -> B\x00\n")
@example(b"\x89PNG\r\n\x1a\n")  # a picture: said to be one
def test_any_bytes_decode_or_name_the_offset(data: bytes) -> None:
    try:
        text = volley.decode(data)
    except VolleyError as exc:
        if exc.message.endswith(", not text"):  # a kind known by its first bytes, or NULs
            assert (exc.hint or "").startswith("give ")
            assert b"\x00" in data or "binary" not in exc.message
            # a binary file is said where its first NUL is (not its bytes, no line shown)
            nul = data.find(b"\x00")
            binary = "binary" in exc.message
            assert exc.line == (data.count(b"\n", 0, nul) + 1 if binary else 0)
            assert exc.source_line is None
            return
        if exc.message.endswith("UTF-16 without a byte-order mark"):  # a NUL every other byte
            assert exc.line == 0 and data.count(0) >= len(data) // 2 * 0.9
            return
        offset = _first_bad_offset(data)
        assert f"offset {offset}" in exc.message
        assert 1 <= exc.line <= data.count(b"\n") + 1
        return
    result = check_parse(text)
    if b"\x00" in data:
        assert isinstance(result, VolleyError) and "NUL" in result.message


def _first_bad_offset(data: bytes) -> int:
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as exc:
        return exc.start
    raise AssertionError("decode refused valid UTF-8")


def test_generated_diagrams_are_mostly_valid() -> None:
    """The grammar strategy must reach the renderers, not only the error paths."""
    valid = 0

    @FUZZ
    @given(diagram_text())
    def count(text: str) -> None:
        nonlocal valid
        valid += not isinstance(check_parse(text), VolleyError)

    count()
    assert valid >= FUZZ.max_examples // 2


def _strange(name: str) -> bool:
    """A name that holds an arrow, starts with a piece of one or a mark, or a note's place."""
    import re

    from volley.language.parser import grammar_parser

    arrow = re.compile(grammar_parser().get_terminal("ARROW").pattern.to_regexp())
    return bool(
        not name
        or name != name.strip()
        or set(name) & {":", ",", "\n"}
        or arrow.search(name)
        or name[0] in "+-=>"
        or name.endswith("<")
        or re.match(r"(?i)(over|left\s+of|right\s+of)\s", name)
    )


# Lines made of the pieces that arrows, marks and Mermaid's notes are built from.
_PIECES = st.sampled_from(
    ["A", "B", "x", " ", "-", "--", "=", ">", ">>", "<", "<<", "+", ":", "over ", "left of ",
     "note ", "activate ", "participant ", "loop ", "else", "end", "\n", "Cache (local)"]
)  # fmt: skip
_ARROWISH = st.lists(_PIECES, max_size=12).map("".join)


@FUZZ
@given(st.one_of(diagram_text(), mutated_example(), st.text(max_size=200), _ARROWISH))
@example("A ->>+ B\nB -->>- A\n")
@example("note over A: x\nA <-->> Cache (local)\n")
@example("A <<<- B\nA -->>> B\nleft of A -> B\n")
@example("participant -\nnote <: x\n")
def test_no_participant_ever_has_a_strange_name(text: str) -> None:
    result = check_parse(text)
    if isinstance(result, VolleyError):
        return
    strange = [name for name in result.participants if _strange(name)]
    assert not strange, strange
