#!/usr/bin/env bash
# Installs every Debian package the project needs, idempotently (skips what is present).
# Usage: bash .ci/install-deps.sh [native|web|all]   (default: all)
set -euo pipefail
what=${1:-all}
native=(g++ cmake make catch2 nlohmann-json3-dev libbenchmark-dev pkg-config)
web=(emscripten dpkg-dev chromium fonts-dejavu-core python3-fonttools node-typescript)
fuzz=(clang libclang-rt-14-dev)
case "$what" in
  native) pkgs=("${native[@]}" "${fuzz[@]}") ;;
  web) pkgs=("${web[@]}") ;;
  all) pkgs=("${native[@]}" "${fuzz[@]}" "${web[@]}") ;;
  *) echo "usage: $0 [native|web|all]" >&2; exit 2 ;;
esac
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
# Node.js: keep whatever node/npm the machine has (e.g. NodeSource); Debian's npm conflicts with it.
if [ "$what" != native ] && ! command -v npm >/dev/null 2>&1; then missing+=(nodejs npm); fi
if [ ${#missing[@]} -gt 0 ]; then
  echo "[deps] installing: ${missing[*]}"
  sudo_cmd=""; [ "$(id -u)" -eq 0 ] || sudo_cmd="sudo"
  $sudo_cmd apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
