#!/usr/bin/env bash
# Runs one libFuzzer driver of tests/fuzz (built by the sanitizer build, see fuzz.cmake).
#   run.sh replay FUZZER CORPUS               every case of the corpus of past failures, once
#   run.sh fuzz FUZZER CORPUS WORKDIR          fuzzing for $ATTN_FUZZ_SECONDS (default 10), starting
#                                              from the corpus (ATTN_FUZZ_SECONDS=60 for a longer hunt);
#                                              with $ATTN_FUZZ_RUNS, that many inputs instead (stopped
#                                              after $ATTN_FUZZ_SECONDS if given, else after 600 s)
# Prints one line with the inputs run, the time and the findings; exits non-zero on any finding
# (a crash, a sanitizer report, an oracle finding, a timeout of 30 s, a leak or running out of
# memory), whose input is then in WORKDIR/artifacts (replay it with: FUZZER FILE).
set -uo pipefail
mode="$1" fuzzer="$2" corpus="$3"
name="$(basename "$fuzzer")"
# UBSan must stop the run (the build also says -fno-sanitize-recover); stacks for the report.
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
export ASAN_OPTIONS="detect_leaks=1:abort_on_error=1"

if [ "$mode" = replay ]; then
  shopt -s nullglob
  cases=("$corpus"/*.txt)
  if [ ${#cases[@]} -eq 0 ]; then echo "$name: no cases in $corpus"; exit 1; fi
  log="$(mktemp)"
  start=$SECONDS
  FUZZ_STRICT=1 "$fuzzer" -timeout=30 -rss_limit_mb=2560 "${cases[@]}" > "$log" 2>&1
  status=$?
  run=$(grep -c '^Executed ' "$log")
  echo "$name corpus of past failures: ${#cases[@]} cases, $run run in $((SECONDS - start)) s, findings: $([ $status -eq 0 ] && echo 0 || echo 1)"
  [ $status -eq 0 ] || tail -40 "$log"
  rm -f "$log"
  exit $status
fi

# 10 s by default; the corpus replay above is the regression check. A number of inputs (ATTN_FUZZ_RUNS)
# makes a run as strong on a busy or slow machine as on an idle one: the full test command runs the
# drivers in its background lane, at nice 19 beside the browser tests, where 10 s would be a fraction
# of the inputs. Its time bound then only stops a run that hangs. (-timeout=30 below is per input, in
# wall time: an input takes milliseconds, so even the lane's small share of the CPU is far from it.)
# Both bounds: a whole number from 1 up, no leading zero, at most 9 digits (libFuzzer reads -runs=0 as
# "the corpus only" and -max_total_time=0 as "no limit"; a longer number would overflow bash's test).
whole() { [[ "$1" =~ ^[1-9][0-9]{0,8}$ ]]; }
runs="${ATTN_FUZZ_RUNS:-}" work="$4"
if [ -n "$runs" ]; then
  whole "$runs" || { echo "ATTN_FUZZ_RUNS must be a whole number of inputs from 1 to 999999999 (got '$runs')"; exit 2; }
  seconds="${ATTN_FUZZ_SECONDS:-600}"
else
  seconds="${ATTN_FUZZ_SECONDS:-10}"
fi
whole "$seconds" || { echo "ATTN_FUZZ_SECONDS must be a whole number of seconds from 1 to 999999999 (got '$seconds')"; exit 2; }
# A fresh working corpus each run: one kept from run to run grows until loading it takes the
# whole time. Inputs worth keeping go into the corpus of past failures by hand.
rm -rf "$work/corpus" "$work/artifacts"
mkdir -p "$work/corpus" "$work/artifacts"
log="$work/log"
start=$SECONDS
"$fuzzer" "$work/corpus" "$corpus" -max_total_time="$seconds" ${runs:+-runs="$runs"} -print_final_stats=1 -artifact_prefix="$work/artifacts/" \
  -rss_limit_mb=2560 -timeout=30 -report_slow_units=30 -max_len=4096 > "$log" 2>&1
status=$?
inputs=$(grep -E '^stat::number_of_executed_units:' "$log" | tail -1 | awk '{print $2}')
seed=$(grep -oE 'Seed: [0-9]+' "$log" | head -1 | awk '{print $2}')
# crash-, leak-, timeout- and oom- inputs are findings; slow-unit- ones are only slow (a busy machine).
findings=$(find "$work/artifacts" -type f ! -name 'slow-unit-*' | wc -l)
[ $status -ne 0 ] && [ "$findings" -eq 0 ] && findings=1
took=$((SECONDS - start))
echo "$name: ${inputs:-?} inputs in $took s (seed ${seed:-?}), findings: $findings"
# A run with no finding must say how many inputs it ran (print_final_stats): without that line it proves nothing.
if [ "$status" -eq 0 ] && [ "$findings" -eq 0 ] && ! [[ "$inputs" =~ ^[0-9]+$ ]]; then
  echo "$name: the driver printed no count of the inputs it ran (stat::number_of_executed_units)"
  tail -30 "$log"
  exit 1
fi
# Asked for a number of inputs and stopped short of it: the time bound ended a run that hung or crawled.
if [ -n "$runs" ] && [ "$status" -eq 0 ] && [ "$findings" -eq 0 ] && [ "$inputs" -lt "$runs" ]; then
  echo "$name: stopped after $took s (bound $seconds s) with $inputs of the $runs inputs asked (ATTN_FUZZ_RUNS)"
  tail -30 "$log"
  exit 1
fi
if [ $status -ne 0 ] || [ "$findings" -ne 0 ]; then
  grep -E 'FUZZ FINDING|ERROR: (AddressSanitizer|LeakSanitizer|libFuzzer)|runtime error|case:' "$log" | head -20
  tail -30 "$log"
  ls "$work/artifacts"
  exit 1
fi
