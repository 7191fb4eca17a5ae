#!/usr/bin/env bash
# The README's test command: sets everything up, builds, and runs every suite: the Catch2 suite in six
# builds (natively with g++ and under clang's AddressSanitizer and UBSan, each with the SIMD kernels via
# SIMDe and the scalar kernels; as wasm under Node, SIMD and baseline), the fuzz drivers under the
# sanitizers (the corpus of past failures, then ATTN_FUZZ_RUNS inputs per kernel set, 6,000 by default;
# ATTN_FUZZ_SECONDS alone fuzzes for that long instead), the wasm build checks, the JavaScript API tests
# and the browser tests (one Chromium per lane of files).
#   bash scripts/test.sh           everything (what CI runs)
#   bash scripts/test.sh --quick   the native Catch2 suite (g++, SIMD kernels), the JavaScript API tests
#                                  and a browser smoke test (tests/browser/smoke.test.mjs)
# The full run keeps both cores busy without running a compiler beside Chromium: the builds one after
# another in the foreground (the modules and dist/, g++, the sanitizers, the wasm Catch2 programs), then the
# JavaScript and browser tests, with the six Catch2 suites and then the fuzz drivers beside them in one
# background lane at the lowest priority (nice 19), which takes only the CPU the tests leave idle (the
# browser stage waits on Chromium) and never slows them.
# Ends with a line per stage (its time, its CPU time, and per suite its passed and failed counts), then one line
# "tests: N passed, N failed" (N counts Catch2 test cases, node tests and fuzz runs), and exits non-zero
# when anything failed. Each stage's log is in build/test-logs/.
set -uo pipefail
cd "$(dirname "$0")/.."
. scripts/emsdk_python.sh # the wasm Catch2 programs' build below calls em++ through cmake
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
stage_lines=()
counted=""   # what the last counter found, per suite: "native_simde 250 passed, 0 failed; ..."
logdir=build/test-logs
mkdir -p "$logdir"

# Adds the counts of a ctest run in build dir $1, read from ctest's own record of every entry's output
# (Testing/Temporary/LastTest.log), one suite per further argument (the entries' name prefix: ctest names
# them SUITE:case or SUITE:file; none: every entry, as "all"). An entry that ran a Catch2 program adds its
# test cases as Catch2 counted them (an entry runs many: tests/cpp/catch_files.cmake), any other entry (a fuzz run) adds
# one. An entry ctest failed counts at least one failure even when its Catch2 summary says all passed (a
# sanitizer report at exit, a timeout). A suite with no entry fails the count.
count_ctest_in() {
  local record="$1/Testing/Temporary/LastTest.log" suite counts
  [ -f "$1" ] && record="$1" # a copy of the record (a lane's, which a later ctest run in the folder replaces)
  shift
  [ -f "$record" ] || return 1
  [ $# -gt 0 ] || set -- ""
  counted=""
  for suite in "$@"; do
    counts=$(awk -v suite="$suite" '
      function close_entry() {
        if (!open) return
        if (cp + cf == 0) { if (ok) p += 1; else f += 1 }
        else { p += cp; f += cf; if (!ok && cf == 0) f += 1 }
        open = 0
      }
      /^[0-9]+\/[0-9]+ Testing: / {
        close_entry()
        name = $0; sub(/^[0-9]+\/[0-9]+ Testing: /, "", name)
        if (suite != "" && index(name, suite ":") != 1) next
        open = 1; cp = 0; cf = 0; ok = 0; entries++
      }
      !open { next }
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
    [ -n "$counts" ] || { counted+="${counted:+; }${suite:-all}: no entries"; return 1; }
    passed=$((passed + ${counts% *}))
    failed=$((failed + ${counts#* }))
    counted+="${counted:+; }${suite:-all} ${counts% *} passed, ${counts#* } failed"
  done
}
count_node() {
  local log="$1" p f
  counted=""
  # tests/browser/run.mjs ends its output with its "N files in" line: without it the log was cut short
  # (a summary may be missing with it), and the stage fails.
  if grep -q '^# run\.mjs: ' "$log" && ! grep -q '^# run\.mjs: [0-9]* files\{0,1\} in ' "$log"; then
    counted="the output ended before run.mjs's last line"
    return 1
  fi
  # Every run's summary in the log (tests/browser/run.mjs runs its files in lanes, a node:test process each): the
  # "# pass" and "# fail" lines that follow a "# tests N" line, not a test's own output that looks alike.
  p=$(awk '/^# tests [0-9]+/ {in_summary = 1} in_summary && /^# pass [0-9]+/ {s += $3; n++; in_summary = 0} END {if (n) print s}' "$log")
  f=$(awk '/^# tests [0-9]+/ {in_summary = 1} in_summary && /^# fail [0-9]+/ {s += $3; in_summary = 0} END {print s + 0}' "$log")
  if [ -z "$p" ]; then return 1; fi
  passed=$((passed + p))
  failed=$((failed + ${f:-0}))
  counted="${p} passed, ${f:-0} failed"
}

# The CPU time (user + system, in tenths of a second) of every child this shell has waited for so far: bash's
# `times`, second line. A stage's CPU is the difference across it. A process its parent never waited for is
# not counted: Chromium's renderers are not, so a browser stage takes tests/browser/run.mjs's own figure
# (it reads every process of its Chromium). The run is CPU-bound, so this is what a stage costs.
uncounted_cpu=0 # what run.mjs counted and `times` did not (Chromium's renderers), in tenths of a second
# Sets cpu_now; call it as a plain command: `times` must run in this very shell (in a pipe or in $(...) it
# would run in a fresh subshell, which has no children).
cpu_tenths() {
  local record="$logdir/.times.$BASHPID" # one per lane: each lane is a subshell of its own
  times > "$record"
  cpu_now=$(awk 'NR == 2 {
    t = 0
    for (i = 1; i <= 2; i++) { split($i, a, /[ms]/); t += a[1] * 60 + a[2] }
    printf "%d\n", t * 10 + 0.5
  }' "$record")
  rm -f "$record"
}

# finish_stage NAME COUNTER STATUS SECONDS [NOTE] [CPU]: adds a stage's counts (COUNTER: none, count_node, which
# reads the stage's log, or "count_ctest_in DIR SUITE...") and its line in the summary.
finish_stage() {
  local name="$1" counter="$2" status="$3" seconds="$4" note="${5:-}" cpu="${6:-}"
  counted=""
  if [ "$counter" != none ]; then
    local -a count=($counter)
    [ "${count[0]}" = count_node ] && count+=("$logdir/$name.log")
    if ! "${count[@]}"; then
      echo "!!! $name: no test results found${counted:+ ($counted)}"
      failed=$((failed + 1))
      status=1
    fi
  fi
  if [ "$status" -ne 0 ]; then
    stage_failed+=("$name")
    [ "$counter" = none ] && failed=$((failed + 1))
  fi
  local result
  if [ -n "$counted" ]; then result="$counted"
  elif [ "$status" -eq 0 ]; then result="ok"
  else result="FAILED (exit status $status)"; fi
  [ -n "$cpu" ] && note+=" $(printf '%5d.%d CPU-s' $((cpu / 10)) $((cpu % 10)))"
  stage_lines+=("$(printf '%-17s %4d s%s  %s' "$name" "$seconds" "$note" "$result")")
}

# run_stage NAME COUNTER COMMAND...: runs a stage in the foreground, shows its output, adds its counts.
run_stage() {
  local name="$1" counter="$2"
  shift 2
  echo "=== $name"
  local start=$SECONDS cpu_start status
  cpu_tenths; cpu_start=$cpu_now
  "$@" 2>&1 | tee "$logdir/$name.log"
  status=${PIPESTATUS[0]}
  cpu_tenths
  local cpu=$((cpu_now - cpu_start)) browser_cpu
  browser_cpu=$(sed -n 's/^# run\.mjs: [0-9]* files\{0,1\} in .* s, \([0-9]*\)\.\([0-9]\) s of CPU.*/\1\2/p' "$logdir/$name.log" | tail -1)
  if [ -n "$browser_cpu" ]; then uncounted_cpu=$((uncounted_cpu + 10#$browser_cpu - cpu)); cpu=$((10#$browser_cpu)); fi
  finish_stage "$name" "$counter" "$status" $((SECONDS - start)) "" "$cpu"
}

# A background lane: its stages run one after another at nice 19 with their output in their logs only,
# each leaving "STATUS SECONDS CPU" in build/test-logs/NAME.status; lane_stage NAME COMMAND... is one of them.
# finish_lane_stage NAME COUNTER (after `wait`) adds it to the summary as run_stage does.
lane_stage() {
  local name="$1" start=$SECONDS cpu_start status
  shift
  cpu_tenths; cpu_start=$cpu_now
  "$@" > "$logdir/$name.log" 2>&1
  status=$?
  cpu_tenths
  echo "$status $((SECONDS - start)) $((cpu_now - cpu_start))" > "$logdir/$name.status"
}
# start_lane FUNCTION STAGE...: runs FUNCTION (its stages, named STAGE..., each a lane_stage) in the
# background at nice 19; wait_lanes waits for every lane started. A lane's last step is to wait, idle,
# until wait_lanes releases it: bash collects a finished background child at once, and from then on its
# CPU is in `times`, so a lane that ended during a foreground stage would add its CPU to that stage's
# figure, or, in the browser stage (whose figure is run.mjs's), drop out of the total line. Held, it is
# collected only in wait_lanes, outside every stage, and counted once, in the total. It stops holding if
# this shell is gone.
start_lane() {
  local body="$1" stage
  shift
  echo "=== in the background at nice 19: $* (logs in $logdir/)"
  for stage in "$@"; do rm -f "$logdir/$stage.status"; done
  rm -f "$logdir/.lanes-released"
  (
    renice -n 19 -p "$BASHPID" > /dev/null
    "$body"
    while [ ! -e "$logdir/.lanes-released" ] && kill -0 $$ 2>/dev/null; do sleep 1; done
  ) &
  lanes+=($!)
}
wait_lanes() {
  touch "$logdir/.lanes-released"
  wait "${lanes[@]}"
  lanes=()
}
# Stops a background lane and everything it started (a cancelled run leaves no build running).
stop_tree() {
  local child children
  children=$(ps -o pid= --ppid "$1" 2>/dev/null)
  kill "$1" 2>/dev/null # first, so that it starts nothing more
  for child in $children; do stop_tree "$child"; done
}
lanes=()
trap 'for lane in "${lanes[@]}"; do stop_tree "$lane"; done; exit 143' TERM INT
finish_lane_stage() {
  local name="$1" counter="$2" status=1 seconds=0 cpu=""
  [ -f "$logdir/$name.status" ] && read -r status seconds cpu < "$logdir/$name.status"
  finish_stage "$name" "$counter" "$status" "$seconds" " (bg)" "$cpu"
  if [ "$status" -ne 0 ] || [[ " ${stage_failed[*]} " == *" $name "* ]]; then
    echo "=== $name failed: the end of $logdir/$name.log"
    tail -n 60 "$logdir/$name.log"
  fi
}

# The Catch2 programs: ctest runs two entries at once, two per program (tests/cpp/catch_files.cmake).
ctest_run() { ctest --test-dir "$1" -j "$jobs" --output-on-failure "${@:2}"; }

# The browser test files, in lanes with a Chromium each (tests/browser/run.mjs): as many at a time as there
# are cores, the longest first (a file marked "Runs alone" would run before them, one at a time; none is
# today). Screenshots are saved only with ATTN_SCREENSHOTS=1 (harness.mjs).
browser_tests() { node tests/browser/run.mjs --test-concurrency="$jobs" --test-timeout=900000 "$@"; } # a file may take 15 min (visible_effect walks every control of every step)

# The JavaScript API tests in lanes, as the browser tests (tests/browser/run.mjs --no-browser: a Node
# process per lane runs file after file; tests/js/modules.mjs then loads both modules once per lane, not once
# per file): 64-69 CPU-s and 37-40 s against 91-104 CPU-s and 56-63 s for `node --test`, a process per file
# (2026-11-29). A file that needs modules no other file has touched says "Runs in a process of its own".
js_tests() { node tests/browser/run.mjs --no-browser --test-concurrency="$jobs" --test-timeout=600000 tests/js/*.test.mjs; }

total_start=$SECONDS
# The setup is a stage of its own: on a fresh machine it is the installs (Debian's packages, npm ci),
# whose time is the network's; the total line gives the run's time after it too.
run_stage setup none bash scripts/setup.sh
if [ ${#stage_failed[@]} -gt 0 ]; then echo "setup failed"; echo "tests: 0 passed, 1 failed"; exit 1; fi
setup_seconds=$SECONDS

if [ "$tier" = quick ]; then
  # One native Catch2 build (the SIMD kernels through SIMDe), both wasm modules and dist/ for the
  # JavaScript and browser tests; the wasm Catch2 programs and the sanitizer build are the full run's.
  quick_native() {
    if [ -f build/native/CMakeCache.txt ]; then cmake --build build/native -j "$jobs" --target attn_tests_native_simde
    else bash scripts/build.sh native; fi
  }
  run_stage build-native none quick_native
  run_stage ctest-native "count_ctest_in build/native native_simde" ctest_run build/native -L native_simde
  run_stage build-page none bash scripts/build.sh page
  run_stage js-api count_node js_tests
  run_stage browser-smoke count_node browser_tests tests/browser/smoke.test.mjs
else
  # The builds one at a time in the foreground, each with both cores (-j2): the two modules and dist/, the
  # g++ build, the sanitizer build, the wasm Catch2 programs. Then the JavaScript and browser tests in the
  # foreground, and beside them one background lane at nice 19 that runs the six Catch2 suites, one build
  # after another, in the CPU the tests leave idle (the browser stage waits on Chromium about an eighth of
  # its time), and after them the fuzz drivers, bounded by a number of inputs, not seconds, so that the
  # lane's share of the CPU does not thin them: 6,000 per kernel set, more inputs than the 10 s the stage
  # had in the foreground gave (6,882 and 2,195 there, 23.7 CPU-s; 6,000 each take 6.2 and 11.4 CPU-s on
  # an idle machine, 30-40 CPU-s in the lane beside the browser tests). In the foreground last, the fuzz
  # stage took 12 s of the run; in the lane it ends long before the browser stage (2026-11-29).
  # Why the builds are not beside the tests: a compiler beside Chromium costs both CPU, and the run is
  # CPU-bound. With three build lanes at nice 19 beside the tests (up to six compilers on two cores) the g++
  # build took 108 CPU-s and the sanitizer build 135, against 82 and 93 alone, and the browser stage 790
  # CPU-s against 717 with only the suites beside it (2026-11-29, same machine). The time after the setup
  # was about the same (718 s then; 679, 732, 696 and 677 s in four runs of this layout: the machine varies
  # by ±5%), but a build beside the browser tests also slows their timing checks: with only the wasm
  # programs' build moved beside them, the browser stage took 894 CPU-s and 570 s, and a frame-height
  # check timed out.
  run_stage build-page none bash scripts/build.sh page
  run_stage build-native none bash scripts/build.sh native
  run_stage build-sanitize none bash scripts/build.sh sanitize
  wasm_tests_build() {
    # The baseline module's suite too (ATTN_WASM_SCALAR_TESTS, on by default; set here for an older cache).
    cmake -DATTN_WASM_SCALAR_TESTS=ON build/wasm > /dev/null && cmake --build build/wasm -j "$jobs"
  }
  run_stage build-wasm-tests none wasm_tests_build
  suites_lane() {
    lane_stage ctest-native ctest_run build/native
    lane_stage ctest-sanitize ctest_run build/sanitize -LE fuzz
    # The fuzz stage's ctest run below writes the same record: the suites' one is kept for the count.
    cp build/sanitize/Testing/Temporary/LastTest.log "$logdir/ctest-sanitize.LastTest.log" 2>/dev/null
    lane_stage ctest-wasm ctest_run build/wasm
    # Verbose: each fuzz run prints its inputs, time and findings. Both kernel sets at once.
    lane_stage fuzz env "${fuzz_bound[@]}" ctest --test-dir build/sanitize -L fuzz -j "$jobs" -V
  }
  # ATTN_FUZZ_SECONDS alone (a longer hunt) fuzzes for that long, as tests/fuzz/run.sh does by itself.
  fuzz_bound=(ATTN_FUZZ_RUNS="${ATTN_FUZZ_RUNS:-6000}")
  [ -n "${ATTN_FUZZ_SECONDS:-}" ] && [ -z "${ATTN_FUZZ_RUNS:-}" ] && fuzz_bound=(ATTN_FUZZ_RUNS=)
  rm -f "$logdir/ctest-sanitize.LastTest.log"
  start_lane suites_lane ctest-native ctest-sanitize ctest-wasm fuzz
  run_stage js-api count_node js_tests
  # Every browser test file but the smoke test, whose checks page.test.mjs makes too.
  mapfile -t browser_files < <(ls tests/browser/*.test.mjs | grep -v '/smoke\.test\.mjs$')
  run_stage browser count_node browser_tests "${browser_files[@]}"
  echo "=== waiting for the Catch2 suites and the fuzz drivers"
  wait_lanes
  finish_lane_stage ctest-native "count_ctest_in build/native native_simde native_scalar"
  finish_lane_stage ctest-sanitize "count_ctest_in $logdir/ctest-sanitize.LastTest.log native_simde native_scalar"
  finish_lane_stage ctest-wasm "count_ctest_in build/wasm wasm_simd wasm_scalar"
  finish_lane_stage fuzz "count_ctest_in build/sanitize fuzz-corpus fuzz"
fi

echo
echo "per stage ($tier, $(nproc) cores; bg: in the background, its time overlaps the others'):"
printf '  %s\n' "${stage_lines[@]}"
cpu_tenths
cpu_now=$((cpu_now + uncounted_cpu))
echo "  total             $((SECONDS - total_start)) s, $((cpu_now / 10)).$((cpu_now % 10)) CPU-s (every stage and the setup); after the setup: $((SECONDS - setup_seconds)) s"
if [ ${#stage_failed[@]} -gt 0 ]; then
  echo "failed stages: ${stage_failed[*]} (logs in $logdir/)"
fi
echo "tests: $passed passed, $failed failed"
[ "$failed" -eq 0 ] && [ ${#stage_failed[@]} -eq 0 ]
