"""The table runtime (`volley.language.lalr`) parses exactly as Lark does, and takes every valid text.

`volley.parse` runs Lark's tables with its own small runtime and hands rejected text to Lark
for the error. So for any text: either both parsers build the same model, or the runtime
rejects and Lark fails too (never a valid diagram parsed only by the slow path).
"""

from __future__ import annotations

import itertools
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from lark.exceptions import UnexpectedInput

import volley
import volley.language.parser as P
from volley.errors import VolleyError
from volley.language.lalr import Rejected, Token

from .fuzz_strategies import FUZZ, diagram_text, example_texts, mutated_example

ROOT = Path(__file__).resolve().parent.parent


def _model(items) -> str:
    diagram = P._Resolver(lambda *a: None).run(items)
    return json.dumps(diagram.to_json(), sort_keys=True)


def both(text: str) -> tuple[object, object]:
    """What each runtime makes of `text`: the model as JSON, or the kind of failure."""
    text = P.normalise(text)
    payload, note = P.keyword_matcher("IN", "OUT"), P.keyword_matcher("NOTE")
    try:
        blanked, bodies = P.lift_bodies(text, payload, note)
    except VolleyError:
        return "body error", "body error"
    source = "\n" + blanked + "\n"
    results = []
    for parser, failure in ((P.table_parser(), Rejected), (P.grammar_parser(), UnexpectedInput)):
        errors = []

        def error(message, token, at_end=False, errors=errors):
            errors.append((message, token.line, token.column))
            raise VolleyError(message)

        P.CALLBACKS.run = P._ParseRun(bodies, error)
        try:
            results.append(_model(parser.parse(source)))
        except failure:
            results.append("rejected")
        except VolleyError:
            results.append(("callback error", errors))
        finally:
            P.CALLBACKS.run = None
    return results[0], results[1]


def agree(text: str) -> None:
    fast, lark = both(text)
    assert fast == lark, text


@pytest.mark.parametrize(
    "text",
    [
        "else: x\n",
        "and: y\n",
        "in: x\n",
        "title: t\nin: x\n",
        "note A: x\nout: y\n",
        "end\n",
    ],
)
def test_a_terminal_the_state_lacks_is_read_again_by_its_own_scanner(
    text: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A state scans first with a larger scanner; where that one finds a keyword the state
    does not take (`else:` outside a block, `in:` with no message before it), the state's own
    scanner reads the text again, as Lark's contextual lexer would have, and both refuse it
    alike."""
    parser = P.table_parser()
    used: list[int] = []
    own = parser._own_lexer
    monkeypatch.setattr(parser, "_own_lexer", lambda state: used.append(state) or own(state))
    agree(text)
    assert used


@pytest.mark.parametrize("text", example_texts(), ids=lambda t: t.split("\n", 1)[0][:40])
def test_examples_parse_the_same_and_without_lark(text: str) -> None:
    fast, lark = both(text)
    assert fast == lark
    assert isinstance(fast, str) and fast.startswith("{")


@pytest.mark.parametrize(
    "text",
    [
        "A -> B\n",
        "A->B:\n",
        "title:\nA -> B: x\n",
        "order: C, B , A\nA -> B\n",
        "autonumber 7\nA -> B\nautonumber\nB -> A\n",
        "note: alone\nnote A, B: over\nnote A:\n",
        "=:\n-: line\n--:\n_: t\n...: later\n",
        "if: a\n  A -> B\nelse:\n  B -> A\nelse: c\nend\n",
        "par:\nand: x\n  A -> B\nend\n",
        "group:\nloop: l\nopt:\nend\nend\nend\n",
        "// only a comment\n\n",
        "",
        "A -> B: in: not a payload\n",
        "title page -> B\nnote taker -> end game\n",
        "A -x B: lost\nA --x B\nx-xray -> B\n",
        "A -> B\n  in: Request\n  ```json\n  {}\n  ```\n",
        # failures: both must fail
        "A -> \n",
        "A B\n",
        "if: x\nA -> B\n",
        "end\n",
        "A -> B: x\n out:\n",
        ":::\n",
        "A -> B, C\n",
        "order A\n",
    ],
)
def test_small_texts_agree(text: str) -> None:
    agree(text)


@FUZZ
@given(diagram_text())
def test_generated_diagrams_agree(text: str) -> None:
    agree(text)


@FUZZ
@given(mutated_example())
def test_mutated_examples_agree(text: str) -> None:
    agree(text)


@FUZZ
@given(st.text(alphabet="AB ->:,\n\t=-_.xifendlopgrtu/`", max_size=80))
def test_arbitrary_texts_agree(text: str) -> None:
    agree(text)


def test_tokens_carry_where_they_start() -> None:
    token = Token("NAME", "Agent", 3, 5)
    assert token == "Agent" and token.value == "Agent"
    assert (token.type, token.line, token.column) == ("NAME", 3, 5)


def test_tables_are_rebuilt_when_the_cache_is_damaged(tmp_path: Path) -> None:
    """A truncated tables file in the cache is rebuilt, not trusted or fatal."""
    script = (
        "import json, volley, volley.language.parser as P\n"
        "path = P.grammar_tables_file(\n"
        "    P._grammar(), P.TABLE_FORMAT, P._callback_names(), P._lark_release(),\n"
        "    P._runtime_source()\n"
        ")\n"
        "print(path)\n"
        "d = volley.parse('A -> B: hi\\n')\n"
        "assert d.messages()[0].label == 'hi'\n"
    )
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path), "HOME": str(tmp_path)}
    first = subprocess.run(
        [sys.executable, "-c", script], env=env, capture_output=True, text=True, check=True
    )
    path = Path(first.stdout.strip())
    assert json.loads(path.read_text())["format"] == P.TABLE_FORMAT
    path.write_text(f'{{"format": {P.TABLE_FORMAT}, "states": {{')
    subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, check=True)
    assert json.loads(path.read_text())["format"] == P.TABLE_FORMAT


def test_a_parse_does_not_import_lark_once_tables_are_cached() -> None:
    volley.parse("A -> B\n")  # the tables exist in the cache from here on
    code = (
        "import sys, volley\n"
        "volley.parse('A -> B: x\\nif: y\\n  B --> A\\nend\\n')\n"
        "print('lark' in sys.modules)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_a_name_stops_exactly_where_an_arrow_starts() -> None:
    """NAME's short lookahead excludes the same positions as the ARROW terminal, over every
    string of arrow characters, spaces and letters up to five long (arrows are at most 4+1)."""
    terminals = P.table_parser().terminals
    arrow = re.compile(terminals["ARROW"])
    grammar = (ROOT / "grammar" / "volley.lark").read_text(encoding="utf-8")
    lookahead = re.search(r"^NAME_START: /\(\?!(.*)\)\[", grammar, re.M).group(1)
    stops = re.compile(f"(?:{lookahead})")
    for size in range(1, 6):
        for letters in itertools.product("<->=x \tab", repeat=size):
            text = "".join(letters)
            for at in range(size):
                assert bool(arrow.match(text, at)) == bool(stops.match(text, at)), (text, at)


def test_a_scanner_lark_split_in_several_patterns_tries_them_in_order() -> None:
    from volley.language.lalr import _Scanner

    scanner = _Scanner({"patterns": ["(?P<A>ab)|(?P<B>a)", "(?P<C>b)"], "ignore": [], "unless": {}})
    assert scanner.match("ab", 0).lastgroup == "A"
    assert scanner.match("b", 0).lastgroup == "C"
    assert scanner.match("c", 0) is None


def test_a_scanner_with_a_numbered_group_reference_is_never_shared() -> None:
    from volley.language.lalr import _first_scanner

    def spec(*names: str) -> dict:
        return {"terminals": list(names), "ignore": [], "unless": {}}

    five = ("A", "B", "C", "D", "E")
    scanners = [spec(*five), spec(*five, "F")]
    assert _first_scanner(0, scanners, set()) == 1
    assert _first_scanner(0, scanners, {"F"}) == 0  # F's pattern refers to a group by number
    assert _first_scanner(1, scanners, set()) == 1
    assert _first_scanner(0, [spec(*five), spec("B", "A", "C", "D", "E", "F")], set()) == 0
    assert _first_scanner(0, [spec("A", "B"), spec(*five)], set()) == 0  # small: its own
