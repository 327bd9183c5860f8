#!/usr/bin/env bash
# Node tests of the JS API (tests/js/*.test.mjs, node:test): builds what they need first, so it
# works on a fresh clone and is idempotent (incremental builds, installs only what is missing).
#   1. Debian packages (emscripten, chromium, g++, cmake, nlohmann-json, node-typescript, ...)
#   2. the wasm API (target vramcalc_api) in build-web, configured as .ci/build-web.sh does
#   3. the Release CLI (target vramcalc) in build-native, for the CLI-parity tests
#   4. node --test; prints "N passed, N failed" and exits non-zero on any failure.
# Usage: bash .ci/test-js.sh   (env: WEB_BUILD, NATIVE_BUILD override the build folders)
set -euo pipefail
source "$(dirname "$0")/lib.sh"
cd "$root"
bash .ci/install-deps.sh js

echo "[test-js] building the wasm API (vramcalc_api) in $web_build"
configure_web
build "$web_build" vramcalc_api
echo "[test-js] building the Release CLI (vramcalc) in $native_build"
configure_native
build "$native_build" vramcalc

dist=$web_build/dist
sizes=""
total=0
for f in vramcalc.mjs vramcalc-wasm.mjs vramcalc-wasm.wasm; do
  gz=$(gzip -9c "$dist/$f" | wc -c)
  sizes+="$f $(wc -c < "$dist/$f") B ($gz B gzip -9), "
  total=$((total + gz))
done
echo "[test-js] JS API size: ${sizes}total $total B gzip -9"

# ── tests ── (node:test reporters: Node >= 18.15, so Debian bookworm's Node 18 runs them)
tap=$(mktemp)
trap 'rm -f "$tap"' EXIT
status=0
VRAMCALC_DIST="$dist" VRAMCALC_CLI="$native_build/src/cli/vramcalc" \
  node --test --test-reporter=spec --test-reporter-destination=stdout \
  --test-reporter=tap --test-reporter-destination="$tap" tests/js/*.test.mjs || status=$?
pass=$(sed -n 's/^# pass \([0-9]*\)$/\1/p' "$tap" | tail -1)
fail=$(sed -n 's/^# fail \([0-9]*\)$/\1/p' "$tap" | tail -1)
cancelled=$(sed -n 's/^# cancelled \([0-9]*\)$/\1/p' "$tap" | tail -1)
fail=$(( ${fail:-0} + ${cancelled:-0} ))
echo "[test-js] JS API tests: ${pass:-0} passed, $fail failed"
echo "${pass:-0} passed, $fail failed"
if [ "$status" -ne 0 ] || [ "$fail" -ne 0 ] || [ "${pass:-0}" -eq 0 ]; then exit 1; fi
