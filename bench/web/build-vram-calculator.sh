#!/usr/bin/env bash
# Builds the page bench/web/bench.mjs compares vramcalc with: vram-calculator
# (https://github.com/furiousteabag/vram-calculator, MIT, by Alexander Smirnov; live at
# https://vram.asmirnov.xyz), a Next.js 14 + MUI page exported as static HTML (`output: "export"`,
# so its numbers are rendered into the HTML at build time). Its code is never committed here: this
# script copies it into a build folder, installs its locked npm dependencies and runs `next build`.
#
# Offline change: its layout loads Roboto through `next/font/google`, which downloads from Google
# Fonts at build time; that import is removed (the page already bundles Roboto from
# @fontsource/roboto, so it looks the same). Nothing else is changed.
#
# Usage: VRAM_CALCULATOR_SRC=<clone or bare git dir> bash bench/web/build-vram-calculator.sh [BUILD_DIR]
#   VRAM_CALCULATOR_SRC  a clone (working tree) or a git directory; unset: git clone from GitHub
#   VRAM_CALCULATOR_REF  the commit built (default: the one measured in docs/performance.md)
#   BUILD_DIR            default build-bench/vram-calculator; the site lands in BUILD_DIR/out
# Idempotent: skips the build when BUILD_DIR/out/index.html exists for the same commit.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-$root/build-bench/vram-calculator}
ref=${VRAM_CALCULATOR_REF:-ea7ab041c6c1995e1b1985f16b7175092601112e}
src=${VRAM_CALCULATOR_SRC:-}

if [ -f "$build/out/index.html" ] && [ "$(cat "$build/.built-ref" 2>/dev/null)" = "$ref" ]; then
  echo "[vram-calculator] already built: $build/out"
  exit 0
fi
command -v npm >/dev/null || { echo "[vram-calculator] npm is missing (Debian: apt-get install npm)" >&2; exit 1; }
rm -rf "$build" && mkdir -p "$build"

# ── the sources at $ref ──
gitdir=""
if [ -z "$src" ]; then
  git clone --quiet https://github.com/furiousteabag/vram-calculator "$build/clone"
  gitdir=$build/clone/.git
elif [ -d "$src/.git" ]; then
  gitdir=$src/.git
elif git --git-dir="$src" rev-parse --git-dir >/dev/null 2>&1; then
  gitdir=$src
elif [ -f "$src/package.json" ]; then
  gitdir=""  # a plain folder: taken as it is
else
  echo "[vram-calculator] $src is neither a clone, a git directory nor a source folder" >&2; exit 1
fi
mkdir -p "$build/src"
if [ -n "$gitdir" ]; then
  git --git-dir="$gitdir" archive "$ref" | tar -x -C "$build/src"
else
  (cd "$src" && tar -c --exclude=node_modules --exclude=.next --exclude=out .) | tar -x -C "$build/src"
fi
cd "$build/src"
[ -f app/layout.tsx ] && [ -f package-lock.json ] || { echo "[vram-calculator] unexpected layout: no app/layout.tsx or package-lock.json" >&2; exit 1; }

# ── offline build: no next/font/google ──
python3 - app/layout.tsx <<'EOF'
import re, sys
path = sys.argv[1]
text = open(path).read()
text = re.sub(r'import \{ *Roboto *\} from "next/font/google"\n', '', text)
text = re.sub(r'const roboto = Roboto\(\{.*?\}\)\n', '', text, flags=re.S)
text = text.replace('className={roboto.className}', 'style={{ fontFamily: "Roboto, sans-serif" }}')
if 'next/font' in text or 'roboto.' in text:
    sys.exit('[vram-calculator] could not remove next/font from app/layout.tsx')
open(path, 'w').write(text)
EOF

export NEXT_TELEMETRY_DISABLED=1
npm ci --no-audit --no-fund --loglevel=error
npx --no-install next build
[ -f out/index.html ] || { echo "[vram-calculator] next build produced no out/index.html" >&2; exit 1; }
mv out "$build/out"
echo "$ref" > "$build/.built-ref"
echo "[vram-calculator] built: $build/out"
