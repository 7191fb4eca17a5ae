#!/usr/bin/env bash
# The README's test command: sets everything up, builds, and runs every suite: the Catch2
# suite natively (SIMD via SIMDe, and scalar), again under AddressSanitizer and UBSan, and as
# wasm under Node (SIMD and baseline); the fuzz drivers under the sanitizers (the corpus of past
# failures, then ATTN_FUZZ_SECONDS of fuzzing per kernel set); the wasm build checks, the
# JavaScript API tests and the browser tests. Ends with one line "tests: N passed, N failed"
# and exits non-zero when anything failed.
set -uo pipefail
cd "$(dirname "$0")/.."
export CI="${CI:-}"

passed=0
failed=0
stage_failed=()
logdir=build/test-logs
mkdir -p "$logdir"

# Adds a stage's counts, parsed from ctest's or node --test's closing lines.
count_ctest() {
  local log="$1" line total fails
  line=$(grep -E 'tests passed, [0-9]+ tests? failed out of [0-9]+' "$log" | tail -1)
  if [ -z "$line" ]; then return 1; fi
  total=$(sed -E 's/.*out of ([0-9]+).*/\1/' <<< "$line")
  fails=$(sed -E 's/.*tests passed, ([0-9]+) tests? failed.*/\1/' <<< "$line")
  passed=$((passed + total - fails))
  failed=$((failed + fails))
}
count_node() {
  local log="$1" p f
  p=$(grep -E '^# pass [0-9]+' "$log" | tail -1 | awk '{print $3}')
  f=$(grep -E '^# fail [0-9]+' "$log" | tail -1 | awk '{print $3}')
  if [ -z "$p" ]; then return 1; fi
  passed=$((passed + p))
  failed=$((failed + ${f:-0}))
}

# run_stage NAME COUNTER COMMAND...: runs a stage, shows its output, adds its counts.
run_stage() {
  local name="$1" counter="$2"
  shift 2
  echo "=== $name"
  local log="$logdir/$name.log"
  "$@" 2>&1 | tee "$log"
  local status=${PIPESTATUS[0]}
  if [ "$counter" != none ]; then
    if ! "$counter" "$log"; then
      echo "!!! $name: no test results found"
      failed=$((failed + 1))
      status=1
    fi
  fi
  if [ "$status" -ne 0 ]; then
    stage_failed+=("$name")
    [ "$counter" = none ] && failed=$((failed + 1))
  fi
  return 0
}

bash scripts/setup.sh || { echo "setup failed"; echo "tests: 0 passed, 1 failed"; exit 1; }

run_stage build-native none bash scripts/build.sh native
run_stage ctest-native count_ctest ctest --test-dir build/native --output-on-failure
run_stage build-sanitize none bash scripts/build.sh sanitize
run_stage ctest-sanitize count_ctest ctest --test-dir build/sanitize -LE fuzz --output-on-failure
# Verbose: each fuzz test prints its inputs run, time and findings. Both kernel sets at once (-j2).
run_stage fuzz count_ctest ctest --test-dir build/sanitize -L fuzz -j2 -V
run_stage build-wasm none bash scripts/build.sh wasm
run_stage ctest-wasm count_ctest ctest --test-dir build/wasm --output-on-failure
run_stage build-dist none bash scripts/build.sh dist
run_stage js-api count_node node --test --test-timeout=600000 tests/js/
run_stage browser count_node node --test --test-concurrency=1 --test-timeout=300000 tests/browser/

echo
if [ ${#stage_failed[@]} -gt 0 ]; then
  echo "failed stages: ${stage_failed[*]} (logs in $logdir/)"
fi
echo "tests: $passed passed, $failed failed"
[ "$failed" -eq 0 ] && [ ${#stage_failed[@]} -eq 0 ]
