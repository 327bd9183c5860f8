# Sourced by the .ci scripts: the three build trees and how each is configured.
#   build-native  g++ Release: the vramcalc CLI (CLI-parity tests) and the benchmarks
#   build-check   clang, ASan + UBSan, -O1: the Catch2 suite (VRAMCALC_TESTS=ON: Catch2 must be
#                 there), the CLI it drives, the fuzzers
#   build-web     Emscripten: the page and the JS API (dist/)
# Every configure runs every time (seconds when nothing changed), so a configure that failed or
# ran before a package was installed is redone; a failure prints CMake's message, which names the
# missing Debian package.
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
jobs=${JOBS:-$(nproc)}
native_build=${NATIVE_BUILD:-$root/build-native}
check_build=${CHECK_BUILD:-$root/build-check}
web_build=${WEB_BUILD:-$root/build-web}
export NODE_PATH=/usr/share/nodejs  # Debian's emcc needs acorn from here at -O2+

# run_configure NAME BUILD_DIR cmake-command...: runs it, output in BUILD_DIR/configure.log.
run_configure() {
  local name=$1 build=$2; shift 2
  mkdir -p "$build"
  if ! "$@" > "$build/configure.log" 2>&1; then
    grep -E -A4 "CMake Error|error:" "$build/configure.log" | head -40 >&2 || true
    echo "[$name] configuring $build failed (full output: $build/configure.log)" >&2
    return 1
  fi
}

configure_native() {
  run_configure native "$native_build" cmake -S "$root" -B "$native_build" -DCMAKE_BUILD_TYPE=Release \
    -DVRAMCALC_BENCH=ON
}

configure_check() {
  local clangxx
  clangxx=$(command -v clang++ || command -v clang++-14) ||
    { echo "[check] clang++ not found: bash .ci/install-deps.sh check" >&2; return 1; }
  run_configure check "$check_build" cmake -S "$root" -B "$check_build" -DCMAKE_CXX_COMPILER="$clangxx" \
    -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_FLAGS_DEBUG="-O1 -gline-tables-only" \
    -DVRAMCALC_SANITIZE=ON -DVRAMCALC_FUZZ=ON -DVRAMCALC_BENCH=OFF -DVRAMCALC_TESTS=ON
}

configure_web() {
  # src/app needs the Dear ImGui sources before it can be configured.
  if [ -f "$root/src/app/CMakeLists.txt" ]; then bash "$root/.ci/fetch-imgui.sh"; fi
  run_configure web "$web_build" emcmake cmake -S "$root" -B "$web_build" -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_CROSSCOMPILING_EMULATOR=/usr/bin/node
}

# build TREE_DIR target...: an incremental build of just these targets.
build() {
  local dir=$1; shift
  if [ $# -gt 0 ]; then set -- --target "$@"; fi
  cmake --build "$dir" -j"$jobs" "$@"
}

# npm_ci: the npm devDependencies (playwright-core) exactly as package-lock.json pins them; skipped
# when node_modules was installed from this very lockfile.
npm_ci() {
  local sum stamp=$root/node_modules/.vramcalc-lock.sha256
  sum=$(sha256sum "$root/package-lock.json" | cut -d' ' -f1)
  if [ -f "$root/node_modules/playwright-core/package.json" ] && [ "$(cat "$stamp" 2>/dev/null)" = "$sum" ]; then
    return 0
  fi
  echo "[npm] npm ci (package-lock.json)"
  (cd "$root" && npm ci --no-audit --no-fund --loglevel=error)
  echo "$sum" > "$stamp"
}
