#!/usr/bin/env bash
# libFuzzer targets of every decoder (tests/fuzz): builds them with clang (-fsanitize=fuzzer,
# address,undefined) in build-fuzz, then runs each for a bounded time on its seed corpus
# (tests/fuzz/corpus/<target>, read-only) plus a work corpus kept in the build folder.
# Any crash, leak, timeout, sanitizer report or broken invariant fails the run; the input is saved
# as build-fuzz/fuzz-artifacts/<target>-crash-* (reproduce: build-fuzz/tests/fuzz/<target> FILE).
# Usage: bash .ci/test-fuzz.sh [SECONDS_PER_TARGET]   (default 20; env FUZZ_BUILD overrides the folder;
#        env FUZZ_RUNS=N also stops each target after N executions: the long runs of docs/reliability.md)
# Prints "N passed, N failed" and exits non-zero when any target failed.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${FUZZ_BUILD:-$root/build-fuzz}
seconds=${1:-20}
runs_limit=${FUZZ_RUNS:--1}
jobs=$(( $(nproc) < 2 ? $(nproc) : 2 ))
targets=(fuzz_decode_link fuzz_scenario_json fuzz_import_hf fuzz_import_deepspeed fuzz_cli)
declare -A dicts=([fuzz_decode_link]=link [fuzz_scenario_json]=scenario_json [fuzz_import_hf]=import_hf
                  [fuzz_import_deepspeed]=import_deepspeed [fuzz_cli]=cli)

bash "$root/.ci/install-deps.sh" native || exit 1
clangxx=$(command -v clang++ || command -v clang++-14) || { echo "[fuzz] clang++ not found" >&2; exit 1; }
cmake -S "$root" -B "$build" -DVRAMCALC_FUZZ=ON -DCMAKE_CXX_COMPILER="$clangxx" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g" >/dev/null || exit 1
cmake --build "$build" --target fuzzers -j"$jobs" || exit 1

export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
artifacts="$build/fuzz-artifacts"
mkdir -p "$artifacts"
passed=0 failed=0 total_runs=0
for target in "${targets[@]}"; do
  work="$build/fuzz-work/$target"
  log="$build/fuzz-work/$target.log"
  mkdir -p "$work"
  timeout $((seconds + 300)) "$build/tests/fuzz/$target" \
    -max_total_time="$seconds" -runs="$runs_limit" -timeout=10 -rss_limit_mb=2048 -max_len=16384 -print_final_stats=1 \
    -dict="$root/tests/fuzz/dict/${dicts[$target]}.dict" -artifact_prefix="$artifacts/$target-" \
    "$work" "$root/tests/fuzz/corpus/$target" >"$log" 2>&1
  rc=$?
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  total_runs=$((total_runs + ${runs:-0}))
  if [ $rc -eq 0 ]; then
    passed=$((passed + 1))
    echo "[fuzz] $target: ok, ${runs:-?} executions in at most ${seconds} s, corpus $(ls "$work" | wc -l) units"
  else
    failed=$((failed + 1))
    echo "[fuzz] $target: FAILED (exit $rc) after ${runs:-?} executions; log $log"
    grep -E "INVARIANT|ERROR|SUMMARY|runtime error|what\(\)|Test unit written" "$log" | head -20
  fi
done
echo "[fuzz] $total_runs executions in total"
echo "$passed passed, $failed failed"
[ $failed -eq 0 ]
