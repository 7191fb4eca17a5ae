#!/usr/bin/env bash
# Builds everything the page and the tests need: the native targets, both wasm modules
# (SIMD and baseline) copied to web/wasm/, and the self-contained static folder dist/.
# Usage: scripts/build.sh [native|wasm|page|dist|sanitize|profile|all]   (default: all)
#   wasm: the modules and the wasm Catch2 programs; page: only the modules, then dist/. The modules:
#   the core's (attention_simd, attention_scalar) and the labs' (attention_labs_simd, _scalar).
#   sanitize: the native Catch2 suite again under ASan + UBSan, and the fuzz drivers (clang-14,
#   build/sanitize; not part of "all", the test command builds it as its own stage).
#   profile: both modules again with their function names kept, in build/wasm-profile/wasm/, for
#   bench/profile.mjs (not part of "all").
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/emsdk_python.sh
what="${1:-all}"
jobs="$(nproc)"

# The generator of build folder $1: Ninja when it is installed (CMake's Makefiles spent ~6 CPU-s of a
# build in make and its per-target cmake calls, Ninja ~1), the one a folder was made with when it exists
# (CMake refuses to change it).
generator() {
  local cached
  cached=$(sed -n 's/^CMAKE_GENERATOR:INTERNAL=//p' "$1/CMakeCache.txt" 2> /dev/null || true)
  if [ -n "$cached" ]; then echo "$cached"
  elif command -v ninja > /dev/null; then echo Ninja
  else echo "Unix Makefiles"; fi
}

build_native() {
  cmake -G "$(generator build/native)" -S . -B build/native -DCMAKE_BUILD_TYPE=Release > build/native-configure.log
  cmake --build build/native -j "$jobs"
}

build_wasm() {
  # emcmake's default emulator flag is rejected by Node 20: name node itself.
  emcmake cmake -G "$(generator build/wasm)" -S . -B build/wasm -DCMAKE_BUILD_TYPE=Release -DCMAKE_CROSSCOMPILING_EMULATOR="$(command -v node)" \
    > build/wasm-configure.log
  cmake --build build/wasm -j "$jobs" "$@"
  mkdir -p web/wasm
  local m
  for m in attention_simd attention_scalar attention_labs_simd attention_labs_scalar; do
    cp "build/wasm/wasm/$m.mjs" "build/wasm/wasm/$m.wasm" web/wasm/
  done
}

build_sanitize() {
  # Release with line tables: sanitizer reports name file and line. -O1, not Release's -O3: under ASan and
  # UBSan the build took 129 CPU-s instead of 151 and the suites 82 instead of 79 (the level ASan's own
  # documentation suggests; the g++ build keeps -O3). The fuzz drivers' core is the same -O1 library.
  cmake -G "$(generator build/sanitize)" -S . -B build/sanitize -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_COMPILER=clang++-14 -DATTN_SANITIZE=ON \
    -DCMAKE_CXX_FLAGS=-gline-tables-only "-DCMAKE_CXX_FLAGS_RELEASE=-O1 -DNDEBUG" > build/sanitize-configure.log
  cmake --build build/sanitize -j "$jobs"
}

build_profile() {
  emcmake cmake -G "$(generator build/wasm-profile)" -S . -B build/wasm-profile -DCMAKE_BUILD_TYPE=Release -DATTN_WASM_PROFILING=ON \
    -DCMAKE_CROSSCOMPILING_EMULATOR="$(command -v node)" > build/wasm-profile-configure.log
  cmake --build build/wasm-profile -j "$jobs" --target attention_simd attention_scalar attention_labs_simd attention_labs_scalar
}

build_dist() {
  node scripts/make_dist.mjs
}

mkdir -p build
case "$what" in
  native) build_native ;;
  wasm) build_wasm ;;
  page) build_wasm --target attention_simd attention_scalar attention_labs_simd attention_labs_scalar; build_dist ;;
  dist) build_dist ;;
  sanitize) build_sanitize ;;
  profile) build_profile ;;
  all) build_native; build_wasm; build_dist ;;
  *) echo "usage: $0 [native|wasm|page|dist|sanitize|profile|all]" >&2; exit 2 ;;
esac
