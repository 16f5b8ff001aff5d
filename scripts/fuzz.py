"""The long fuzz campaign: the CI properties with tens of thousands of examples, and counts.

    python scripts/fuzz.py                   # every property, default sizes (about 20 minutes)
    python scripts/fuzz.py --scale 0.1       # a tenth of the examples, for a quick look
    python scripts/fuzz.py --only parse      # the properties whose name holds "parse"
    python scripts/fuzz.py --scaling         # how time grows with pathological input size

It runs the same invariants as tests/test_fuzz_*.py (tests/fuzz_strategies.py), under the
`volley-campaign` Hypothesis profile with the example counts below, and prints per property
how many inputs it tried, how many were valid diagrams, the most common errors, and any
failure. The exit status is 1 if any invariant failed.

The last long run (2026-12-02, Hypothesis 6.155.2, two shared cores, `nice -n 15`, on commit
f10b11a, after the two findings of the CI run before it were fixed: a trace whose service.name
is a number such as -9223372036854775808 gave a lane name that did not parse, and a private key
block after a cut-off one was not masked):

    nice -n 15 python scripts/fuzz.py                       # 63,300 inputs, no failure

    parse generated diagrams                 10,000   8,993 valid   no failure
    parse mutated examples                   10,000   3,940 valid   no failure
    parse any text                           10,000      18 valid   no failure
    decode and parse any bytes                5,000       5 valid   no failure
    render svg of generated diagrams          3,000   2,689 valid   no failure
    render svg of mutated examples            2,000     816 valid   no failure
    render html of generated diagrams         1,500   1,298 valid   no failure
    render html fragments of mutated examples   500     236 valid   no failure
    render png of generated diagrams            300     274 valid   no failure
    import mutated Markdown (Mermaid blocks)  8,000   2,164 valid   no failure
    import mutated HAR and trace files        8,000   5,518 valid   no failure
    redact planted secrets                    5,000   5,000 masked  no failure

The PlantUML property came later (2026-12-05, on 7d8ab7c): `python scripts/fuzz.py --only
PlantUML` tried 5,000 inputs, 1,208 valid, no failure.

The CI run of the same properties draws the same few hundred examples every time
(derandomized); new examples are drawn here.
"""

from __future__ import annotations

import argparse
import collections
import contextlib
import sys
import time
import traceback
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

import volley  # noqa: E402
from tests import fuzz_strategies as fs  # noqa: E402
from volley.checks.secrets import redact_body  # noqa: E402
from volley.errors import VolleyError  # noqa: E402


class Tally:
    """What one property saw."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.tried = 0
        self.valid = 0
        self.errors: collections.Counter[str] = collections.Counter()
        self.crashes: collections.Counter[str] = collections.Counter()
        self.failure: str | None = None
        self.seconds = 0.0

    def saw(self, result: object) -> None:
        self.tried += 1
        if isinstance(result, Crash):
            self.crashes[str(result)] += 1
        elif isinstance(result, VolleyError):
            self.errors[_kind(result.message)] += 1
        else:
            self.valid += 1


def _kind(message: str) -> str:
    """An error message with the quoted user text taken out, so like errors count together."""
    words: list[str] = []
    for word in message.split():
        if word.startswith(('"', "'", "`")) or any(ch.isdigit() for ch in word):
            word = "…"
        if not words or words[-1] != word:
            words.append(word)
    return " ".join(words)[:70]


def _property(tally: Tally, strategy: st.SearchStrategy, check: Callable, examples: int):
    profile = settings(settings.get_profile("volley-campaign"), max_examples=examples)

    @profile
    @given(strategy)
    def run(value) -> None:
        tally.saw(check(value))

    return run


def _parse(text: str):
    return fs.check_parse(text)


def _decode(data: bytes):
    try:
        text = volley.decode(data)
    except VolleyError as exc:  # a byte's offset, a kind of file known by its first bytes,
        # or UTF-16 saved without its mark (as tests/test_fuzz_parse.py holds them)
        assert "offset" in exc.message or exc.message.endswith(
            (", not text", "UTF-16 without a byte-order mark")
        )
        return exc
    return fs.check_parse(text)


def _render(fmt: str, **options) -> Callable:
    def check(text: str):
        result = fs.check_parse(text)
        if not isinstance(result, VolleyError):
            fs.check_render(result, fmt, **options)
        return result

    return check


def _planted(args: tuple[list[str], str, int]):
    lines, value, at = args
    lines = list(lines)
    lines.insert(at % (len(lines) + 1), f"Authorization: Bearer {value}")
    lines.insert(at % (len(lines) + 1), f'{{"password": "{value}", "refresh_token": "{value}"}}')
    lines.insert(at % (len(lines) + 1), f"GET /cb?access_token={value}&x=1")
    masked = redact_body("\n".join(lines))
    assert value not in masked, "a planted secret survived redaction"
    assert redact_body(masked) == masked
    return None


def _imported(args: tuple[str, str] | str):
    """Import a mutated file; an exception other than a VolleyError (or text written that does
    not parse) is tallied as a crash by where it was raised, so one run counts every kind
    instead of stopping at the first."""
    source, text = ("mermaid", args) if isinstance(args, str) else args
    try:
        return fs.check_import(text, source)
    except AssertionError as exc:  # written text that does not parse
        return Crash(f"wrote unparsable text: {str(exc).splitlines()[0][:90]}")
    except Exception as exc:  # noqa: BLE001 - the campaign's finding, reported with its place
        frame = traceback.extract_tb(exc.__traceback__)[-1]
        where = f"{Path(frame.filename).name}:{frame.lineno}"
        return Crash(f"{type(exc).__name__} at {where}: {str(exc)[:60]}")


class Crash(Exception):
    """An importer raised something other than a clear error (tallied, not raised)."""


SECRET_VALUES = st.text("ABCDEFGHJKLMNPQRSTUVWYZabcdefghijkmnopqrstuvwyz0123456789", min_size=12)
PROPERTIES: dict[str, tuple[st.SearchStrategy, Callable, int]] = {
    "parse generated diagrams": (fs.diagram_text(), _parse, 10_000),
    "parse mutated examples": (fs.mutated_example(), _parse, 10_000),
    "parse any text": (st.text(max_size=400), _parse, 10_000),
    "decode and parse any bytes": (st.binary(max_size=400), _decode, 5_000),
    "render svg of generated diagrams": (
        fs.diagram_text(),
        _render("svg", bodies="appendix", theme="auto"),
        3_000,
    ),
    "render svg of mutated examples": (fs.mutated_example(), _render("svg"), 2_000),
    "render html of generated diagrams": (fs.diagram_text(), _render("html"), 1_500),
    "render html fragments of mutated examples": (
        fs.mutated_example(),
        _render("html", fragment=True, theme="dark"),
        500,
    ),
    "render png of generated diagrams": (fs.diagram_text(), _render("png"), 300),
    "import mutated Markdown (Mermaid blocks)": (fs.mutated_markdown(), _imported, 8_000),
    "import mutated PlantUML files": (
        fs.mutated_plantuml().map(lambda text: ("plantuml", text)),
        _imported,
        5_000,
    ),
    "import mutated HAR and trace files": (fs.mutated_capture(), _imported, 8_000),
    "import mutated JSON-RPC logs": (
        fs.mutated_log().map(lambda text: ("jsonrpc", text)),
        _imported,
        5_000,
    ),
    "redact planted secrets": (
        st.tuples(fs.body_lines(), SECRET_VALUES, st.integers(min_value=0)),
        _planted,
        5_000,
    ),
}


def campaign(scale: float, only: str | None) -> bool:
    total, ok = 0, True
    print(f"volley fuzz campaign: scale {scale:g}, Hypothesis {_hypothesis_version()}")
    for name, (strategy, check, examples) in PROPERTIES.items():
        if only and only not in name:
            continue
        tally = Tally(name)
        count = max(1, round(examples * scale))
        start = time.perf_counter()
        try:
            _property(tally, strategy, check, count)()
        except Exception:  # a falsified invariant: report it with its example, carry on
            tally.failure = traceback.format_exc(limit=-6)
            ok = False
        tally.seconds = time.perf_counter() - start
        if tally.crashes:
            ok = False
        total += tally.tried
        _report(tally)
    print(f"\n{total:,} inputs in all; " + ("no invariant failed" if ok else "FAILURES above"))
    return ok


def _report(tally: Tally) -> None:
    status = "FAILED" if tally.failure or tally.crashes else "ok"
    print(
        f"\n{tally.name}: {status}: {tally.tried:,} inputs, {tally.valid:,} valid, "
        f"{sum(tally.errors.values()):,} errors, {sum(tally.crashes.values()):,} crashes, "
        f"{tally.seconds:.0f} s"
    )
    for kind, count in tally.errors.most_common(5):
        print(f"    {count:7,}  {kind}")
    for kind, count in tally.crashes.most_common():
        print(f"    {count:7,}  CRASH {kind}")
    if tally.failure:
        print(tally.failure)


def _hypothesis_version() -> str:
    import hypothesis

    return hypothesis.__version__


# --- scaling ---------------------------------------------------------------------------------

SCALING: dict[str, Callable[[int], str]] = {
    "stars in a label": lambda n: "A -> B: " + "*" * n,
    "icon openers {fas-": lambda n: "A -> B: " + "{fas-" * (n // 5),
    "link openers [x](": lambda n: "A -> B: " + "[x](" * (n // 4),
    "underscores _a": lambda n: "A -> B: " + "_a" * (n // 2),
    "backticks": lambda n: "A -> B: " + "`" * n,
    "brackets [[[]]]": lambda n: "A -> B: " + "[" * (n // 2) + "]" * (n // 2),
    "words in one label": lambda n: "A -> B: " + "word " * (n // 5),
    "arrow-like name": lambda n: "A" + " -" * (n // 2) + " -> B",
    "messages": lambda n: "A -> B: ping\nB --> A: pong\n" * (n // 200),
    "participants": lambda n: "".join(f"P{i} -> P{i + 1}\n" for i in range(n // 500)),
    "note lines": lambda n: "note A: x\n" + "  - item *b*\n" * (n // 100),
    "JSON body": lambda n: 'A -> B\nin:\n```json\n{"a": [' + "1, " * (n // 3) + "1]}\n```",
    "secret-like body": lambda n: "A -> B\nin:\n```\n" + '"token":' * (n // 8) + "\n```",
}
SIZES = (20_000, 40_000, 80_000, 160_000)


def _timed(text: str) -> float:
    """CPU seconds of parse + SVG render with redaction, the best of three runs: CPU time of
    this process alone, so other work on a shared machine does not show as growth."""
    best = float("inf")
    for _ in range(3):
        start = time.process_time()
        with contextlib.suppress(VolleyError):  # a clear error is an answer too
            volley.render(volley.parse(text, limits=_RAISED), format="svg", redact=True)
        best = min(best, time.process_time() - start)
    return best


_RAISED = volley.Limits(
    input_bytes=100_000_000, messages=10**7, depth=150, label_chars=10**8, participants=10**6
)


def scaling() -> bool:
    """Time parse + render (SVG, with redaction) at doubling sizes; flag faster than linear."""
    print("how time grows: parse + SVG render (+ redaction), limits raised out of the way")
    print(f"{'input (characters)':24}" + "".join(f"{n:>10,}" for n in SIZES) + "   per doubling")
    ok = True
    for name, make in SCALING.items():
        times = [_timed(make(n)) for n in SIZES]
        # Over the whole range (16 times the input), so one noisy run cannot fake a trend:
        # linear work doubles per doubling, quadratic work quadruples.
        growth = (max(times[-1], 1e-4) / max(times[0], 1e-4)) ** (1 / (len(times) - 1))
        flag = "" if growth < 2.8 else "   SUPERLINEAR"
        ok &= not flag
        row = "".join(f"{t:9.3f}s" for t in times)
        print(f"{name:24}{row}   x{growth:.1f}{flag}")
    print("\nthe big pictures:")
    for label, text, fmt in [
        ("5,000 messages, PNG", "A -> B: ping\nB --> A: pong\n" * 2_500, "png"),
        ("5,000 messages, PDF", "A -> B: ping\nB --> A: pong\n" * 2_500, "pdf"),
        ("500 nested blocks", "loop: x\n" * 500 + "A -> B\n" + "end\n" * 500, "svg"),
        ("2,000 participants", "".join(f"P{i} -> P{i + 1}\n" for i in range(1999)), "svg"),
    ]:
        start = time.perf_counter()
        try:
            out = volley.render(text, format=fmt)
            what = f"{len(out):,} bytes"
        except VolleyError as exc:
            what = f"error: {exc.message} ({exc.hint})"
        print(f"  {label:22} {time.perf_counter() - start:6.2f}s  {what}")
    return ok


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--scale", type=float, default=1.0, help="multiply every example count")
    parser.add_argument("--only", help="run only properties whose name holds this text")
    parser.add_argument("--scaling", action="store_true", help="measure growth instead")
    args = parser.parse_args()
    if args.scaling:
        return 0 if scaling() else 1
    return 0 if campaign(args.scale, args.only) else 1


if __name__ == "__main__":
    sys.exit(main())
