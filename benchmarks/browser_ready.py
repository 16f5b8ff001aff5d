"""Time, in headless Chromium, until a diagram's page is ready to click, volley beside Mermaid.

The interactive HTML is what a reader opens; what they wait for is the moment the page lets
them click an arrow. For volley that is the first frame after the viewer script has set the
diagram up (its messages are buttons). For Mermaid, whose page draws the diagram in the
browser, it is the first frame after `mermaid.js` has put its picture in the page. Both pages
are files opened from disk with the same N-message diagram (written by generate.py in each
syntax), each run in a fresh browser profile; the median of --runs is printed, with the page
sizes and, for volley, the time from a click to the open panel.

Needs Playwright (`pip install playwright`, no browser download: Debian's chromium is used)
and, for the Mermaid side, mermaid's own package:

    npm install --prefix /tmp/volley-peers/mermaid mermaid

(`@mermaid-js/mermaid-cli`, which benchmarks/run.py uses, brings it too). Without it the
Mermaid side is skipped with a message. Not a test: it prints figures.

Usage: python benchmarks/browser_ready.py [--size 1000] [--runs 5] [--mermaid PATH/mermaid.min.js]
"""

from __future__ import annotations

import argparse
import html
import json
import math
import os
import statistics
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import chromium  # noqa: E402
import generate  # noqa: E402

PEERS_PREFIX = Path(os.environ.get("VOLLEY_PEERS", "/tmp/volley-peers"))
MERMAID_JS = PEERS_PREFIX / "mermaid" / "node_modules" / "mermaid" / "dist" / "mermaid.min.js"
FLAGS = ["--headless", *chromium.FLAGS]
CHROMIUM = chromium.CHROMIUM
TIMEOUT_MS = 120_000

# Runs in the page before any of its own scripts: checks once per frame whether the page is
# ready, and keeps the time (ms since navigation started) of the first frame where it is.
WATCH = """
(ready => {
  const look = () => {
    if (ready()) window.__readyAt = performance.now();
    else requestAnimationFrame(look);
  };
  requestAnimationFrame(look);
})(%s);
"""
VOLLEY_READY = "() => !!document.querySelector('.volley-diagram.vl-js [data-message][role=button]')"
MERMAID_READY = "() => !!document.querySelector('pre.mermaid[data-processed] svg')"

# Clicks a message near the middle and gives the time until the frame that shows its panel.
CLICK = """
async () => {
  const groups = document.querySelectorAll('.vl-canvas [data-message]');
  const target = groups[Math.floor(groups.length / 2)];
  const start = performance.now();
  target.dispatchEvent(new MouseEvent('click', {bubbles: true}));
  await new Promise(done => requestAnimationFrame(() => done()));
  if (document.querySelector('.vl-panel').hidden) throw new Error('the panel did not open');
  return performance.now() - start;
}
"""


def mermaid_page(source: str, script: Path) -> str:
    """A page that loads mermaid.js and lets it draw `source` on load, as its docs show."""
    config = {"startOnLoad": True, "maxTextSize": 100_000_000, "maxEdges": 1_000_000}
    return (
        '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">'
        "<title>Mermaid</title></head><body>"
        f'<pre class="mermaid">{html.escape(source)}</pre>'
        f'<script src="{script.as_uri()}"></script>'
        f"<script>mermaid.initialize({json.dumps(config)});</script>"
        "</body></html>"
    )


def time_page(browser, path: Path, ready: str, runs: int, click: bool) -> dict[str, float]:
    """Median ms until ready (and from a click to the open panel), each run a fresh profile."""
    readies, clicks = [], []
    for _ in range(runs):
        context = browser.new_context(viewport={"width": 1280, "height": 900})
        try:
            page = context.new_page()
            errors: list[str] = []
            page.on("pageerror", lambda error, seen=errors: seen.append(str(error)))
            page.add_init_script(WATCH % ready)
            page.goto(path.as_uri())
            page.wait_for_function("() => window.__readyAt !== undefined", timeout=TIMEOUT_MS)
            readies.append(page.evaluate("window.__readyAt"))
            if click:
                clicks.append(page.evaluate(CLICK))
            if errors:
                raise RuntimeError(f"{path.name}: {errors[0]}")
        finally:
            context.close()
    out = {"ready": statistics.median(readies)}
    if clicks:
        out["click"] = statistics.median(clicks)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--size", type=int, default=1_000, help="messages in the diagram")
    parser.add_argument("--runs", type=int, default=5, help="page loads per side (median)")
    parser.add_argument("--mermaid", type=Path, default=MERMAID_JS, help="mermaid.min.js")
    args = parser.parse_args()

    from playwright.sync_api import sync_playwright

    import volley

    with tempfile.TemporaryDirectory(prefix="volley-browser-") as folder:
        work = Path(folder)
        sources = generate.write(args.size, work, ("volley", "mermaid"))
        volley_page = work / "volley.html"
        drawn = volley.render(sources["volley"].read_text(encoding="utf-8"), format="html")
        assert isinstance(drawn, str)  # HTML is text
        volley_page.write_text(drawn, encoding="utf-8")
        pages = [("volley", volley_page, VOLLEY_READY, True)]
        script_size = ""
        if args.mermaid.is_file():
            page = work / "mermaid.html"
            page.write_text(
                mermaid_page(sources["mermaid"].read_text(encoding="utf-8"), args.mermaid),
                encoding="utf-8",
            )
            pages.append(("mermaid.js", page, MERMAID_READY, False))
            script_size = f" (+ mermaid.min.js {args.mermaid.stat().st_size / 1024:,.0f} KiB)"
        else:
            print(
                f"Mermaid skipped: no {args.mermaid}. Install it with\n"
                f"  npm install --prefix {PEERS_PREFIX / 'mermaid'} mermaid\n"
                "or name the file with --mermaid."
            )

        print(f"{args.size:,} messages, median of {args.runs} loads, Chromium at {CHROMIUM}")
        results = {}
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
            try:
                print(f"Chromium {browser.version}")
                for name, path, ready, click in pages:
                    results[name] = time_page(browser, path, ready, args.runs, click)
                    size = path.stat().st_size / 1024
                    extra = (
                        f", click to panel {results[name]['click']:.0f} ms"
                        if "click" in results[name]
                        else script_size
                    )
                    print(
                        f"  {name:<10} ready to click {results[name]['ready']:7.0f} ms"
                        f"   page {size:8,.0f} KiB{extra}"
                    )
            finally:
                browser.close()
        if "mermaid.js" in results:
            ratio = results["mermaid.js"]["ready"] / results["volley"]["ready"]
            cut = math.floor(ratio * 100) / 100  # 4.996 is not 5 times sooner
            print(f"  volley is ready {cut:.2f}x sooner than mermaid.js")


if __name__ == "__main__":
    main()
