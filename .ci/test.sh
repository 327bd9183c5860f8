#!/usr/bin/env bash
# The one test command (README): native suite, sanitizers, fuzzers (short), JS API in Node,
# browser end-to-end. Installs what it needs. Prints "N passed, N failed" and fails if any failed.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
suites=(native sanitize fuzz js browser)
passed=0 failed=0 failed_names=()
for suite in "${suites[@]}"; do
  script=".ci/test-$suite.sh"
  [ -f "$script" ] || continue
  echo "=== $suite ($script) ==="
  start=$(date +%s)
  if bash "$script"; then
    passed=$((passed + 1)); echo "=== $suite: passed in $(( $(date +%s) - start )) s ==="
  else
    failed=$((failed + 1)); failed_names+=("$suite"); echo "=== $suite: FAILED after $(( $(date +%s) - start )) s ==="
  fi
done
[ $failed -eq 0 ] || echo "failed suites: ${failed_names[*]}"
echo "$passed passed, $failed failed"
[ $failed -eq 0 ]
