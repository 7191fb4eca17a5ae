#!/usr/bin/env bash
# The README's run command: sets everything up, builds the wasm modules and the static page,
# and serves it on 127.0.0.1 until stopped (Ctrl-C). PORT=8080 by default.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash scripts/build.sh page
exec node scripts/serve.mjs dist
