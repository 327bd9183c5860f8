#!/usr/bin/env bash
# Native build + Catch2 suite (ctest) + a short benchmark smoke run.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build-native}
bash "$root/.ci/install-deps.sh" native
cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$build" -j"$(nproc)"
(cd "$build" && ctest --output-on-failure)
