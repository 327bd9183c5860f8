#!/usr/bin/env bash
# Installs the Debian packages a path needs, idempotently: only what is missing, one apt-get run.
# Usage: bash .ci/install-deps.sh [GROUP...]   (default: all)
#   native   g++ Release build (build-native): the CLI (g++, cmake, nlohmann-json), the Catch2 suite
#            when built there (catch2) and the benchmarks (libbenchmark-dev)
#   check    clang build with ASan + UBSan + libFuzzer: Catch2 suite and fuzzers (build-check)
#   web      Emscripten build of the page and the JS API (build-web), Dear ImGui sources, serving
#   js       Node tests of the JS API (web + native + tsc + Chromium + npm: the package test packs and installs)
#   browser  headless Chromium end-to-end tests (web + Chromium + npm)
#   all      every group
set -euo pipefail
base=(ca-certificates python3)  # HTTPS to the npm registry; serve.sh, test servers, font subsetting
native=(g++ cmake make pkg-config nlohmann-json3-dev catch2 libbenchmark-dev)
check=(clang libclang-rt-14-dev cmake make nlohmann-json3-dev catch2)
# Debian's emscripten only suggests cmake/make; nlohmann-json is included by src/codec.
web=(emscripten cmake make nlohmann-json3-dev dpkg-dev fonts-dejavu-core python3-fonttools node-terser)
js=(node-typescript chromium)
browser=(chromium)
[ $# -gt 0 ] || set -- all
pkgs=("${base[@]}")
need_node=0 need_npm=0
for group in "$@"; do
  case "$group" in
    native) pkgs+=("${native[@]}") ;;
    check) pkgs+=("${check[@]}") ;;
    web) pkgs+=("${web[@]}"); need_node=1 ;;
    js) pkgs+=("${web[@]}" "${native[@]}" "${js[@]}"); need_node=1 need_npm=1 ;;
    browser) pkgs+=("${web[@]}" "${browser[@]}"); need_node=1 need_npm=1 ;;
    all) pkgs+=("${native[@]}" "${check[@]}" "${web[@]}" "${js[@]}" "${browser[@]}"); need_node=1 need_npm=1 ;;
    *) echo "usage: $0 [native|check|web|js|browser|all]..." >&2; exit 2 ;;
  esac
done
missing=()
declare -A seen=()
for p in "${pkgs[@]}"; do
  [ -z "${seen[$p]:-}" ] || continue
  seen[$p]=1
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
# Node.js: keep whatever node/npm the machine has (e.g. NodeSource's, which bundles npm and
# conflicts with Debian's npm); otherwise Debian's (bookworm: Node 18, npm 9).
if [ $need_node -eq 1 ] && ! command -v node >/dev/null 2>&1; then missing+=(nodejs); fi
if [ $need_npm -eq 1 ] && ! command -v npm >/dev/null 2>&1; then missing+=(npm); fi
if [ ${#missing[@]} -gt 0 ]; then
  echo "[deps] installing: ${missing[*]}"
  sudo_cmd=()
  [ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
  apt_opts=(-o DPkg::Lock::Timeout=600 -qq)
  "${sudo_cmd[@]}" apt-get "${apt_opts[@]}" update
  "${sudo_cmd[@]}" env DEBIAN_FRONTEND=noninteractive apt-get "${apt_opts[@]}" install -y --no-install-recommends \
    "${missing[@]}" >/dev/null
fi
