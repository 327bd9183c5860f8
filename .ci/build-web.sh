#!/usr/bin/env bash
# Builds the WebAssembly targets (JS API module + ImGui app) and assembles the deployable folder.
# Usage: bash .ci/build-web.sh [BUILD_DIR]   (default: build-web; output: BUILD_DIR/dist)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build-web}
bash "$root/.ci/install-deps.sh" web
if [ -x "$root/.ci/fetch-imgui.sh" ] || [ -f "$root/.ci/fetch-imgui.sh" ]; then bash "$root/.ci/fetch-imgui.sh"; fi
export NODE_PATH=/usr/share/nodejs  # Debian's emcc needs acorn from here at -O2+
if [ ! -f "$build/CMakeCache.txt" ]; then
  emcmake cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release -DCMAKE_CROSSCOMPILING_EMULATOR=/usr/bin/node >/dev/null
fi
cmake --build "$build" -j"$(nproc)"
echo "[build-web] deployable folder: $build/dist"
