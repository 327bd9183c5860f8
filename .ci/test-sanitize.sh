#!/usr/bin/env bash
# The whole native Catch2 suite (and the CLI it drives) built with AddressSanitizer +
# UndefinedBehaviorSanitizer (-DVRAMCALC_SANITIZE=ON, g++), run through ctest. Any sanitizer report
# aborts its test (-fno-sanitize-recover=all, halt_on_error) and fails the run.
# Usage: bash .ci/test-sanitize.sh   (env ASAN_BUILD overrides the build folder, default build-asan)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${ASAN_BUILD:-$root/build-asan}
jobs=$(( $(nproc) < 2 ? $(nproc) : 2 ))
bash "$root/.ci/install-deps.sh" native
cmake -S "$root" -B "$build" -DVRAMCALC_SANITIZE=ON -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_COMPILER=g++ \
  -DCMAKE_CXX_FLAGS_DEBUG="-O1 -g" >/dev/null
cmake --build "$build" --target vramcalc_tests vramcalc -j"$jobs"
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1:strict_string_checks=1:detect_stack_use_after_return=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
cd "$build"
ctest --output-on-failure -j"$jobs"
