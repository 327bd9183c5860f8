#!/usr/bin/env bash
# Browser end-to-end tests of the page in headless Debian Chromium, driven by playwright-core (the
# version package-lock.json pins, installed with npm ci): installs what is missing (Debian
# packages, npm devDependencies), builds the page and its test build, runs tests/browser/*.test.mjs.
# Prints "N passed, N failed" and exits non-zero on failure.
# Usage: bash .ci/test-browser.sh [BUILD_DIR] [test name filter]
set -euo pipefail
source "$(dirname "$0")/lib.sh"
web_build=$(realpath -m "${1:-$web_build}")
bash "$root/.ci/install-deps.sh" browser
configure_web
# The shipped page (dist/) and its test build (dist-test/: the same page with the test hooks).
build "$web_build" all vramcalc_dist_test
npm_ci
cd "$root"
VRAMCALC_DIST="$web_build/dist-test" VRAMCALC_SHIPPED_DIST="$web_build/dist" node tests/browser/run.mjs "${2:-}"
