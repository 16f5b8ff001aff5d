"""The headless Chromium the browser benchmarks drive, and the flags every launch gets: no
sandbox (containers), no GPU, and none of the background traffic a first run makes, so a
measurement sees the page's own work only."""

from __future__ import annotations

import os

CHROMIUM = os.environ.get("VOLLEY_CHROMIUM", "/usr/bin/chromium")
FLAGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
