#!/usr/bin/env bash
# Node tests of the JS API (tests/js/*.test.mjs, node:test): builds what they need first, so it
# works on a fresh clone and is idempotent (incremental builds, installs only what is missing).
#   1. Debian packages (emscripten, chromium, g++, cmake, nlohmann-json, ...)
#   2. the wasm API (target vramcalc_api) in build-web, configured as .ci/build-web.sh does
#   3. the native CLI (target vramcalc) in build-native, for the CLI-parity tests
#   4. node --test; prints "N passed, N failed" and exits non-zero on any failure.
# Usage: bash .ci/test-js.sh   (env: WEB_BUILD, NATIVE_BUILD override the build folders)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
web_build=${WEB_BUILD:-$root/build-web}
native_build=${NATIVE_BUILD:-$root/build-native}
jobs=$(( $(nproc) < 2 ? $(nproc) : 2 ))

bash .ci/install-deps.sh native
bash .ci/install-deps.sh web
command -v node >/dev/null || { echo "[test-js] node is missing" >&2; exit 1; }

# ── wasm API ── (the top CMakeLists also configures src/app, which needs the Dear ImGui sources)
if [ -f .ci/fetch-imgui.sh ] && [ -f src/app/CMakeLists.txt ]; then bash .ci/fetch-imgui.sh; fi
export NODE_PATH=/usr/share/nodejs  # Debian's emcc needs acorn from here at -O2+
if [ ! -f "$web_build/CMakeCache.txt" ]; then
  emcmake cmake -S "$root" -B "$web_build" -DCMAKE_BUILD_TYPE=Release -DCMAKE_CROSSCOMPILING_EMULATOR=/usr/bin/node >/dev/null
fi
echo "[test-js] building the wasm API (vramcalc_api) in $web_build"
cmake --build "$web_build" -j"$jobs" --target vramcalc_api

# ── native CLI ──
if [ ! -f "$native_build/CMakeCache.txt" ]; then
  cmake -S "$root" -B "$native_build" -DCMAKE_BUILD_TYPE=Release >/dev/null
fi
echo "[test-js] building the native CLI (vramcalc) in $native_build"
cmake --build "$native_build" -j"$jobs" --target vramcalc

dist=$web_build/dist
sizes=""
total=0
for f in vramcalc.mjs vramcalc-wasm.mjs vramcalc-wasm.wasm; do
  gz=$(gzip -9c "$dist/$f" | wc -c)
  sizes+="$f $(wc -c < "$dist/$f") B ($gz B gzip -9), "
  total=$((total + gz))
done
echo "[test-js] JS API size: ${sizes}total $total B gzip -9"

# ── tests ──
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
