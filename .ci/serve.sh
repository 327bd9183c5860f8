#!/usr/bin/env bash
# Builds whatever is missing (Debian packages, Dear ImGui sources, the wasm app, dist/) and serves
# the page on 127.0.0.1 (port 8000, or $PORT), printing the URL. Ctrl+C stops it.
# Usage: bash .ci/serve.sh [BUILD_DIR]
set -euo pipefail
source "$(dirname "$0")/lib.sh"
web_build=$(realpath -m "${1:-$web_build}")
port=${PORT:-8000}
# build-web.sh is incremental: it installs missing packages, fetches ImGui once and rebuilds only
# what changed, so running it every time costs seconds once everything is there.
bash "$root/.ci/build-web.sh" "$web_build"
dist=$web_build/dist
[ -f "$dist/index.html" ] || { echo "[serve] $dist/index.html is missing after the build" >&2; exit 1; }
echo "[serve] vramcalc at http://127.0.0.1:$port/  (embed mode: http://127.0.0.1:$port/embed.html)"
exec python3 -m http.server "$port" --bind 127.0.0.1 --directory "$dist"
