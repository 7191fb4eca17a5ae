#!/usr/bin/env bash
# The README's test command: sets everything up, builds, and runs every suite: the Catch2
# suite natively under AddressSanitizer and UBSan (SIMD via SIMDe, and scalar), and as wasm
# under Node (SIMD; the baseline module's scalar kernels are the native scalar suite's, and
# the JavaScript tests run that module); the fuzz drivers under the sanitizers (the corpus of past
# failures, then ATTN_FUZZ_SECONDS of fuzzing per kernel set, 10 by default); the wasm build
# checks, the JavaScript API tests and the browser tests (one Chromium for all files).
#   bash scripts/test.sh           everything (what CI runs)
#   bash scripts/test.sh --quick   the native Catch2 suite (SIMD kernels), the JavaScript API tests
#                                  and a browser smoke test (tests/browser/smoke.test.mjs)
# Ends with one line "tests: N passed, N failed" (N counts Catch2 test cases, node tests and fuzz
# runs) and exits non-zero when anything failed. Each stage's log is in build/test-logs/, and the
# time of each stage is printed before that line.
set -uo pipefail
cd "$(dirname "$0")/.."
export CI="${CI:-}"

tier=full
case "${1:-}" in
  '') ;;
  --quick) tier=quick ;;
  *) echo "usage: bash scripts/test.sh [--quick]" >&2; exit 2 ;;
esac

jobs="$(nproc)"
passed=0
failed=0
stage_failed=()
stage_times=()
logdir=build/test-logs
mkdir -p "$logdir"

# Adds the counts of a ctest run in build dir $1, read from ctest's own record of every entry's
# output (Testing/Temporary/LastTest.log): an entry that ran a Catch2 program adds its test cases
# as Catch2 counted them (a per-file wasm entry runs many), any other entry (a fuzz run) adds one.
# An entry ctest failed counts at least one failure even when its Catch2 summary says all passed
# (a sanitizer report at exit, a timeout).
count_ctest_in() {
  local record="$1/Testing/Temporary/LastTest.log" counts
  [ -f "$record" ] || return 1
  counts=$(awk '
    function close_entry() {
      if (!open) return
      if (cp + cf == 0) { if (ok) p += 1; else f += 1 }
      else { p += cp; f += cf; if (!ok && cf == 0) f += 1 }
      open = 0
    }
    /^[0-9]+\/[0-9]+ Testing: / { close_entry(); open = 1; cp = 0; cf = 0; ok = 0; entries++ }
    /All tests passed \(.* in [0-9]+ test cases?\)/ {
      s = $0; sub(/.* in /, "", s); sub(/ test case.*/, "", s); cp += s
    }
    /^test cases: / {
      if (match($0, /[0-9]+ passed/)) cp += substr($0, RSTART, RLENGTH) + 0
      if (match($0, /\| *[0-9]+ failed/)) { s = substr($0, RSTART + 1, RLENGTH - 1); cf += s + 0 }
    }
    /^Test Passed\./ { ok = 1 }
    END { close_entry(); if (entries > 0) print p + 0, f + 0 }
  ' "$record")
  [ -n "$counts" ] || return 1
  passed=$((passed + ${counts% *}))
  failed=$((failed + ${counts#* }))
}
count_node() {
  local log="$1" p f
  # Every run's summary in the log (tests/browser/run.mjs runs its files in two node --test runs): the
  # "# pass" and "# fail" lines that follow a "# tests N" line, not a test's own output that looks alike.
  p=$(awk '/^# tests [0-9]+/ {in_summary = 1} in_summary && /^# pass [0-9]+/ {s += $3; n++; in_summary = 0} END {if (n) print s}' "$log")
  f=$(awk '/^# tests [0-9]+/ {in_summary = 1} in_summary && /^# fail [0-9]+/ {s += $3; in_summary = 0} END {print s + 0}' "$log")
  if [ -z "$p" ]; then return 1; fi
  passed=$((passed + p))
  failed=$((failed + ${f:-0}))
}

# run_stage NAME COUNTER COMMAND...: runs a stage, shows its output, adds its counts and its time.
# COUNTER is none, count_node (reads the stage's log) or "count_ctest_in DIR".
run_stage() {
  local name="$1" counter="$2"
  shift 2
  echo "=== $name"
  local log="$logdir/$name.log" start=$SECONDS
  "$@" 2>&1 | tee "$log"
  local status=${PIPESTATUS[0]}
  if [ "$counter" != none ]; then
    local -a count=($counter)
    [ "${count[0]}" = count_node ] && count+=("$log")
    if ! "${count[@]}"; then
      echo "!!! $name: no test results found"
      failed=$((failed + 1))
      status=1
    fi
  fi
  if [ "$status" -ne 0 ]; then
    stage_failed+=("$name")
    [ "$counter" = none ] && failed=$((failed + 1))
  fi
  stage_times+=("$(printf '%-15s %4d s' "$name" $((SECONDS - start)))")
  return 0
}

# The Catch2 programs: ctest runs two entries at once; the wasm ones are one entry per test file.
ctest_run() { ctest --test-dir "$1" -j "$jobs" --output-on-failure "${@:2}"; }

# The browser test files, one Chromium for all of them (tests/browser/run.mjs): the files marked
# "Runs alone" (their checks lean on the worker pool's timing) one at a time, then the others as many at a
# time as there are cores (a page open waits on the browser as much as on the CPU: on 2 cores 327 s one at
# a time, 275 s two at a time).
browser_tests() { node tests/browser/run.mjs --test-concurrency="$jobs" --test-timeout=300000 "$@"; }

# The JavaScript API tests, two files at a time (each loads both modules; none measures time).
js_tests() { node --test --test-concurrency="$jobs" --test-timeout=600000 tests/js/; }

total_start=$SECONDS
bash scripts/setup.sh || { echo "setup failed"; echo "tests: 0 passed, 1 failed"; exit 1; }

if [ "$tier" = quick ]; then
  # One native Catch2 build (the SIMD kernels through SIMDe), both wasm modules and dist/ for the
  # JavaScript and browser tests; the wasm Catch2 programs and the sanitizer build are the full run's.
  quick_native() {
    if [ -f build/native/CMakeCache.txt ]; then cmake --build build/native -j "$jobs" --target attn_tests_native_simde
    else bash scripts/build.sh native; fi
  }
  run_stage build-native none quick_native
  run_stage ctest-native "count_ctest_in build/native" ctest_run build/native -L native_simde
  run_stage build-page none bash scripts/build.sh page
  run_stage js-api count_node js_tests
  run_stage browser-smoke count_node browser_tests tests/browser/smoke.test.mjs
else
  # The native suite runs once, in the sanitizer build (clang: both kernel sets under ASan and UBSan, the
  # fuzz drivers, the CLI); the g++ build is the quick tier's (and `bash scripts/build.sh native`).
  run_stage build-sanitize none bash scripts/build.sh sanitize
  run_stage ctest-sanitize "count_ctest_in build/sanitize" ctest_run build/sanitize -LE fuzz
  # Verbose: each fuzz test prints its inputs run, time and findings. Both kernel sets at once.
  run_stage fuzz "count_ctest_in build/sanitize" ctest --test-dir build/sanitize -L fuzz -j "$jobs" -V
  run_stage build-wasm none bash scripts/build.sh wasm
  run_stage ctest-wasm "count_ctest_in build/wasm" ctest_run build/wasm
  run_stage build-dist none bash scripts/build.sh dist
  run_stage js-api count_node js_tests
  # Every browser test file but the smoke test, whose checks page.test.mjs makes too.
  mapfile -t browser_files < <(ls tests/browser/*.test.mjs | grep -v '/smoke\.test\.mjs$')
  run_stage browser count_node browser_tests "${browser_files[@]}"
fi

echo
echo "time per stage ($tier, $(nproc) cores):"
printf '  %s\n' "${stage_times[@]}"
echo "  total           $((SECONDS - total_start)) s"
if [ ${#stage_failed[@]} -gt 0 ]; then
  echo "failed stages: ${stage_failed[*]} (logs in $logdir/)"
fi
echo "tests: $passed passed, $failed failed"
[ "$failed" -eq 0 ] && [ ${#stage_failed[@]} -eq 0 ]
