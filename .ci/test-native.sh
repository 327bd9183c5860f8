#!/usr/bin/env bash
# The C++ suite. 1. The Catch2 tests (core, codec, the CLI end to end), built once with clang,
# AddressSanitizer + UndefinedBehaviorSanitizer at -O1 in build-check (the tree the fuzzers share),
# run through ctest: a failed check or any sanitizer report (-fno-sanitize-recover=all,
# halt_on_error) fails its test. 2. The Release build (build-native, g++) of the CLI and the Google
# Benchmark binary, and a short benchmark run that must complete.
# Usage: bash .ci/test-native.sh   (env CHECK_BUILD, NATIVE_BUILD override the build folders)
set -euo pipefail
source "$(dirname "$0")/lib.sh"
bash "$root/.ci/install-deps.sh" native check

configure_check
build "$check_build" vramcalc_tests vramcalc vramcalc_gen_api vramcalc_gen_error_bands
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1:strict_string_checks=1:detect_stack_use_after_return=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
(cd "$check_build" && ctest --output-on-failure -j"$jobs")

configure_native
build "$native_build" vramcalc vramcalc_bench
echo "[native] benchmark smoke run (timings are not checked here; see bench/)"
"$native_build/bench/vramcalc_bench" --benchmark_min_time=0.01 >"$native_build/bench-smoke.txt" 2>&1 ||
  { cat "$native_build/bench-smoke.txt" >&2; echo "[native] vramcalc_bench failed" >&2; exit 1; }
echo "[native] $(grep -c '^BM_' "$native_build/bench-smoke.txt") benchmarks ran"
