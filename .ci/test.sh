#!/usr/bin/env bash
# The one test command (README): every suite below, in order; each installs and builds what it
# needs. A suite whose script is missing counts as failed. Prints each suite's time, then
# "N passed, N failed", and exits non-zero if any failed.
#   native   Catch2 (core, codec, CLI) under ASan + UBSan via ctest; Release CLI + benchmark smoke run
#   fuzz     libFuzzer on every decoder, 20 s each
#   js       the JS API in Node, against the CLI
#   browser  the page in headless Chromium
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
suites=(native fuzz js browser)
passed=0 failed=0 failed_names=() times=()
all_start=$(date +%s)
for suite in "${suites[@]}"; do
  script=".ci/test-$suite.sh"
  start=$(date +%s)
  if [ ! -f "$script" ]; then
    failed=$((failed + 1)); failed_names+=("$suite"); times+=("$suite: missing")
    echo "=== $suite: FAILED: $script is missing ==="
    continue
  fi
  echo "=== $suite ($script) ==="
  if bash "$script"; then
    passed=$((passed + 1)); echo "=== $suite: passed in $(( $(date +%s) - start )) s ==="
    times+=("$suite $(( $(date +%s) - start )) s")
  else
    failed=$((failed + 1)); failed_names+=("$suite"); echo "=== $suite: FAILED after $(( $(date +%s) - start )) s ==="
    times+=("$suite FAILED $(( $(date +%s) - start )) s")
  fi
done
echo "=== times: ${times[*]/%/,} total $(( $(date +%s) - all_start )) s ==="
[ $failed -eq 0 ] || echo "failed suites: ${failed_names[*]}"
echo "$passed passed, $failed failed"
[ $failed -eq 0 ]
