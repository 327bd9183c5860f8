#!/usr/bin/env bash
# Fetches the Dear ImGui 1.86 upstream sources (core + backends) from Debian's source package into
# third_party/imgui (gitignored). Idempotent: does nothing when the sources are already there.
# Uses a private apt state (deb-src list, package lists, cache) under third_party/.apt so /etc/apt
# is left alone. Usage: bash .ci/fetch-imgui.sh
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
dest=$root/third_party/imgui
version=1.86+ds-1
if [ -f "$dest/imgui.cpp" ] && [ -f "$dest/imconfig.h" ] && [ -f "$dest/backends/imgui_impl_opengl3.cpp" ] && grep -q '"1.86"' "$dest/imgui.h"; then
  exit 0
fi
command -v dpkg-source >/dev/null || { echo "[imgui] dpkg-dev is missing (bash .ci/install-deps.sh web)" >&2; exit 1; }
state=$root/third_party/.apt
rm -rf "$state" && mkdir -p "$state/sources.list.d" "$state/lists/partial" "$state/cache/archives/partial" "$state/work"
# The machine's deb sources, turned into deb-src entries.
src_file=/etc/apt/sources.list.d/debian.sources
if [ -f "$src_file" ]; then
  sed 's/^Types:.*/Types: deb-src/' "$src_file" > "$state/sources.list.d/debian-src.sources"
elif [ -f /etc/apt/sources.list ]; then
  grep -E '^deb ' /etc/apt/sources.list | sed 's/^deb /deb-src /' > "$state/sources.list.d/debian-src.list"
else
  echo "[imgui] no apt sources found" >&2; exit 1
fi
apt_opts=(-o Dir::Etc::SourceList=/dev/null -o Dir::Etc::SourceParts="$state/sources.list.d"
  -o Dir::State::Lists="$state/lists" -o Dir::Cache="$state/cache" -o APT::Sandbox::User=root
  -o Debug::NoLocking=1)
echo "[imgui] fetching Debian source package imgui=$version"
apt-get "${apt_opts[@]}" -qq update
(cd "$state/work" && apt-get "${apt_opts[@]}" -qq source "imgui=$version" >/dev/null)
srcdir=$(find "$state/work" -maxdepth 1 -mindepth 1 -type d -name 'imgui-*' | head -n1)
[ -n "$srcdir" ] && [ -f "$srcdir/imgui.cpp" ] || { echo "[imgui] unpacked sources not found" >&2; exit 1; }
rm -rf "$dest" && mkdir -p "$dest/backends"
cp "$srcdir"/imgui*.cpp "$srcdir"/imgui*.h "$srcdir"/imconfig.h "$srcdir"/imstb_*.h "$srcdir/LICENSE.txt" "$dest/"
cp "$srcdir"/backends/imgui_impl_opengl3.* "$dest/backends/"
cp "$srcdir"/backends/imgui_impl_opengl3_loader.h "$dest/backends/" 2>/dev/null || true
rm -rf "$state"
echo "[imgui] sources in $dest"
