#!/usr/bin/env bash
# Builds the WebAssembly targets (JS API module + ImGui app) and assembles the deployable folder.
# Installs what is missing (Debian packages, Dear ImGui sources); configures every time (cheap),
# builds incrementally. Usage: bash .ci/build-web.sh [BUILD_DIR]   (default: build-web; output: BUILD_DIR/dist)
set -euo pipefail
source "$(dirname "$0")/lib.sh"
web_build=$(realpath -m "${1:-$web_build}")
bash "$root/.ci/install-deps.sh" web
configure_web
build "$web_build"
echo "[build-web] deployable folder: $web_build/dist"
