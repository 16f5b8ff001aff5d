"""Where one cold `volley render FILE -o OUT.svg` spends its time, stage by stage.

Runs in a fresh interpreter what the CLI runs (imports, parse, lint, id prefix, layout, SVG
paint, write), with the cyclic garbage collector off as the CLI has it, and prints each
stage's milliseconds. With `--profile`, prints cProfile's top functions of the same work
instead (the imports excluded).

    python benchmarks/stages.py /tmp/volley-bench/bench-1000.volley
    python benchmarks/stages.py /tmp/volley-bench/bench-10000.volley --profile 25

Run it several times: the first run after an install builds the caches in ~/.cache/volley.
"""

from __future__ import annotations

import gc
import os
import sys
import tempfile
import time

gc.disable()
_CLOCK = [("start", time.perf_counter())]


def mark(name: str) -> None:
    _CLOCK.append((name, time.perf_counter()))


def main() -> None:
    args = sys.argv[1:]
    if not args or args[0].startswith("-"):
        sys.exit(__doc__)
    source, profile = args[0], None
    if "--profile" in args:
        where = args.index("--profile")
        profile = int(args[where + 1]) if where + 1 < len(args) else 30
    import volley.cli  # noqa: F401  (what the console script loads first)

    mark("import cli")
    from volley.api import default_id_prefix
    from volley.checks.bidi import reveal_diagram
    from volley.checks.lint import lint
    from volley.language.parser import parse
    from volley.layout.engine import layout_diagram
    from volley.output.svg import render_svg
    from volley.textio import read_source, write_atomic

    mark("import stages")
    out = os.path.join(tempfile.gettempdir(), "volley-stages.svg")

    def work() -> None:
        text = read_source(source, None)
        diagram = parse(text, filename=source)
        mark("parse")
        list(lint(diagram, text))
        mark("lint")
        diagram = reveal_diagram(diagram)
        mark("reveal")
        prefix = default_id_prefix(diagram)
        mark("id prefix")
        picture = layout_diagram(diagram, bodies="markers")
        mark("layout")
        svg = render_svg(picture, diagram, theme="light", id_prefix=prefix)
        mark("svg")
        write_atomic(out, svg)
        mark("write")

    if profile is not None:
        import cProfile
        import pstats

        profiler = cProfile.Profile()
        profiler.runcall(work)
        pstats.Stats(profiler).sort_stats("tottime").print_stats(profile)
        return
    work()
    steps = [
        f"{name} {1000 * (at - before):.1f}"
        for (_, before), (name, at) in zip(_CLOCK, _CLOCK[1:], strict=False)
    ]
    total = 1000 * (_CLOCK[-1][1] - _CLOCK[0][1])
    print(" | ".join(steps) + f" | total {total:.1f} ms")


if __name__ == "__main__":
    main()
    sys.stdout.flush()
    os._exit(0)  # as the console script leaves: no interpreter teardown
