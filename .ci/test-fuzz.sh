#!/usr/bin/env bash
# libFuzzer targets of every decoder and the CLI (tests/fuzz): builds them with clang (-fsanitize=fuzzer,
# address,undefined) in build-check (shared with the sanitized Catch2 suite of test-native.sh), then
# runs each for a bounded time on its seed corpus (tests/fuzz/corpus/<target>, read-only) plus a
# work corpus kept in the build folder, as many targets at a time as there are cores.
# Any crash, leak, timeout, sanitizer report or broken invariant fails the run; the input is saved
# as build-check/fuzz-artifacts/<target>-crash-* (reproduce: build-check/tests/fuzz/<target> FILE).
# Usage: bash .ci/test-fuzz.sh [SECONDS_PER_TARGET]   (default 20; env CHECK_BUILD overrides the folder;
#        env FUZZ_RUNS=N also stops each target after N executions: the long runs of docs/reliability.md)
# Prints "N passed, N failed" and exits non-zero when any target failed.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
seconds=${1:-20}
runs_limit=${FUZZ_RUNS:--1}
targets=(fuzz_decode_link fuzz_scenario_json fuzz_scenario_fields fuzz_import_hf fuzz_import_gguf fuzz_import_deepspeed fuzz_cli)
declare -A dicts=([fuzz_decode_link]=link [fuzz_scenario_json]=scenario_json [fuzz_scenario_fields]=scenario_fields [fuzz_import_hf]=import_hf [fuzz_import_gguf]=import_gguf
                  [fuzz_import_deepspeed]=import_deepspeed [fuzz_cli]=cli)

bash "$root/.ci/install-deps.sh" check
configure_check
build "$check_build" fuzzers

export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
artifacts="$check_build/fuzz-artifacts"
mkdir -p "$artifacts"

run_target() {  # writes fuzz-work/<target>.log and .rc
  local target=$1 work="$check_build/fuzz-work/$1" rc=0
  mkdir -p "$work"
  timeout $((seconds + 300)) "$check_build/tests/fuzz/$target" \
    -max_total_time="$seconds" -runs="$runs_limit" -timeout=10 -rss_limit_mb=2048 -max_len=16384 -print_final_stats=1 \
    -dict="$root/tests/fuzz/dict/${dicts[$target]}.dict" -artifact_prefix="$artifacts/$target-" \
    "$work" "$root/tests/fuzz/corpus/$target" >"$work.log" 2>&1 || rc=$?
  echo "$rc" > "$work.rc"
}
running=()
for target in "${targets[@]}"; do
  rm -f "$check_build/fuzz-work/$target.rc"
  run_target "$target" &
  running+=($!)
  if [ ${#running[@]} -ge "$jobs" ]; then wait "${running[0]}" || true; running=("${running[@]:1}"); fi
done
wait || true

passed=0 failed=0 total_runs=0
for target in "${targets[@]}"; do
  work="$check_build/fuzz-work/$target"
  rc=$(cat "$work.rc" 2>/dev/null || echo "no result")
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$work.log" 2>/dev/null | tail -1)
  total_runs=$((total_runs + ${runs:-0}))
  if [ "$rc" = 0 ]; then
    passed=$((passed + 1))
    echo "[fuzz] $target: ok, ${runs:-?} executions in at most ${seconds} s, corpus $(ls "$work" | wc -l) units"
  else
    failed=$((failed + 1))
    echo "[fuzz] $target: FAILED (exit $rc) after ${runs:-?} executions; log $work.log"
    grep -E "INVARIANT|ERROR|SUMMARY|runtime error|what\(\)|Test unit written" "$work.log" | head -20 || true
  fi
done
echo "[fuzz] $total_runs executions in total"
echo "$passed passed, $failed failed"
[ $failed -eq 0 ]
