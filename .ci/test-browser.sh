#!/usr/bin/env bash
# Browser end-to-end tests of the page in headless Debian Chromium (playwright-core): installs what
# is missing (Debian packages, npm devDependencies), builds the page, runs tests/browser/*.test.mjs.
# Prints "N passed, N failed" and exits non-zero on failure.
# Usage: bash .ci/test-browser.sh [BUILD_DIR] [test name filter]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build-web}
bash "$root/.ci/build-web.sh" "$build"
if [ ! -f "$root/node_modules/playwright-core/package.json" ]; then
  (cd "$root" && npm install --no-audit --no-fund --no-package-lock)
fi
cd "$root"
VRAMCALC_DIST="$build/dist" node tests/browser/run.mjs "${2:-}"
