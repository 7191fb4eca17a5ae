#!/usr/bin/env bash
# Installs what the project needs on a fresh Debian 12 machine, skipping what is there:
# the Debian packages (compilers, CMake, Catch2, SIMDe, Emscripten, wabt, Chromium and its headless shell,
# which the browser tests use for less CPU (tests/browser/harness.mjs); clang-14
# with its sanitizer and libFuzzer runtimes for the sanitizer build; python3-torch and python3-numpy, which
# run the reproduce.py of an exported bundle in tests/browser/export.test.mjs) and the npm dependencies.
# The site generators course authors use (tests/browser/sites.test.mjs builds EMBED.md's snippets with
# them): MkDocs, Sphinx, pandoc (Quarto's raw blocks), and traitlets for the widget's Python class.
# Safe to run again: a no-op when everything is present.
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(cmake make ninja-build g++ clang-14 libclang-rt-14-dev catch2 libsimde-dev emscripten wabt chromium chromium-headless-shell python3-torch python3-numpy
  mkdocs python3-sphinx pandoc python3-traitlets)
# One dpkg-query for all (a dpkg -s each took ~0.3 CPU-s at every test run); "ii": installed, not
# only known (a removed package whose config files are left is "rc" and is installed again).
installed=$'\n'"$(dpkg-query -W -f='${Package} ${db:Status-Abbrev}\n' "${packages[@]}" 2> /dev/null || true)"
missing=()
for p in "${packages[@]}"; do
  [[ "$installed" == *$'\n'"$p ii"* ]] || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing Debian packages: ${missing[*]}"
  sudo_cmd=()
  [ "$(id -u)" -ne 0 ] && sudo_cmd=(sudo)
  "${sudo_cmd[@]}" apt-get update -q
  DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -q --no-install-recommends "${missing[@]}"
fi

# Node 20.16+ is needed (process.getBuiltinModule loads the wasm in Node). `node --version` exits before
# starting JavaScript (node -e took ~0.1 CPU-s).
node_version=$(node --version)
IFS=. read -r node_major node_minor _ <<< "${node_version#v}"
if [ "$node_major" -lt 20 ] || { [ "$node_major" -eq 20 ] && [ "$node_minor" -lt 16 ]; }; then
  echo "setup: Node >= 20.16 is required, found $node_version" >&2
  exit 1
fi

# npm ci only when package-lock.json changed since the last install.
stamp=node_modules/.attention-playground-lock
if [ ! -f "$stamp" ] || ! cmp -s package-lock.json "$stamp"; then
  echo "setup: installing npm dependencies (npm ci)"
  npm ci --no-audit --no-fund
  cp package-lock.json "$stamp"
fi
