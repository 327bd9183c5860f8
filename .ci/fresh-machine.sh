#!/usr/bin/env bash
# Proves the README's two commands on a really fresh Debian 12: a `debootstrap --variant=minbase
# bookworm` root (nothing preinstalled), a clean clone of the repository inside it, then, as root
# in that root: `bash .ci/serve.sh` in the background until http://127.0.0.1:PORT/ serves the page
# (index.html and the wasm, byte for byte), then `bash .ci/test.sh`. Prints how long each took.
#
# Usage (as root, on a Debian/Ubuntu host): bash .ci/fresh-machine.sh [REF]
#   REF      commit or branch to clone (default: HEAD of this checkout; commit your work first)
#   env FRESH_DIR      work folder (default build-fresh/ in this checkout; ignored by git)
#   env FRESH_PORT     port for serve.sh (default 8000; the next free one if taken)
#   env FRESH_SERVE_LIMIT / FRESH_TEST_LIMIT   time limits in seconds (default 3600 / 5400)
#   env FRESH_SKIP_TEST=1   stop after the serve check
#   --base-only        only make the debootstrap base (reused by later runs), then exit
#
# The base (FRESH_DIR/base.tar) is made once and reused; every run unpacks it into a clean
# FRESH_DIR/root. The root gets only what any machine on this network has: the host's Debian apt
# sources (the same mirror, including bookworm-security where Chromium lives), its resolv.conf,
# its apt Acquire settings (proxy, date checks) and its local CA certificates (an HTTPS proxy's CA,
# needed to reach the npm registry). /proc, /sys, /dev, /dev/pts and a tmpfs /dev/shm (Chromium
# needs it) are mounted and always unmounted on exit, even on failure.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
base_only=0
ref=HEAD
for arg in "$@"; do
  case "$arg" in
    --base-only) base_only=1 ;;
    -h|--help) sed -n '2,22p' "$0"; exit 0 ;;
    *) ref=$arg ;;
  esac
done
[ "$(id -u)" -eq 0 ] || { echo "[fresh] must run as root (debootstrap, chroot, mount)" >&2; exit 1; }
work=${FRESH_DIR:-$here/build-fresh}
base_tar=$work/base.tar
rootfs=$work/root
logs=$work/logs
serve_limit=${FRESH_SERVE_LIMIT:-3600}
test_limit=${FRESH_TEST_LIMIT:-5400}
mkdir -p "$work" "$logs"

log() { echo "[fresh $(date +%H:%M:%S)] $*"; }

# ── the Debian mirror this machine uses ──
mirror=""
if [ -f /etc/apt/sources.list.d/debian.sources ]; then
  # deb822: the URIs of the stanza whose Suites include plain "bookworm".
  mirror=$(awk 'BEGIN{RS=""} /Suites:[^\n]*bookworm( |\n|$)/ && /Types:[^\n]*deb( |\n|$)/ {
             if (match($0, /URIs: *[^ \n]+/)) { u = substr($0, RSTART, RLENGTH); sub(/URIs: */, "", u); print u; exit } }' \
             /etc/apt/sources.list.d/debian.sources)
fi
if [ -z "$mirror" ] && [ -f /etc/apt/sources.list ]; then
  mirror=$(awk '$1 == "deb" && $3 == "bookworm" { print $2; exit }' /etc/apt/sources.list)
fi
mirror=${mirror:-http://deb.debian.org/debian}

# ── the base: debootstrap once, reuse afterwards ──
if [ ! -f "$base_tar" ]; then
  if ! command -v debootstrap >/dev/null; then
    log "installing debootstrap"
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends debootstrap
  fi
  tmp=$work/base-tmp
  rm -rf "$tmp"
  log "debootstrap --variant=minbase bookworm from $mirror (once; reused afterwards)"
  start=$(date +%s)
  debootstrap --variant=minbase bookworm "$tmp" "$mirror" > "$logs/debootstrap.log" 2>&1 ||
    { tail -20 "$logs/debootstrap.log" >&2; echo "[fresh] debootstrap failed; log $logs/debootstrap.log" >&2; exit 1; }
  tar -C "$tmp" -cf "$base_tar.part" . && mv "$base_tar.part" "$base_tar"
  rm -rf "$tmp"
  log "base ready in $(( $(date +%s) - start )) s: $base_tar"
fi
[ "$base_only" -eq 0 ] || exit 0

# ── a clean root from the base ──
mounted=()
server_pid=""
cleanup() {
  local rc=$?
  if [ -n "$server_pid" ] && kill -0 "$server_pid" 2>/dev/null; then
    kill -TERM -- "-$server_pid" 2>/dev/null || true
    sleep 1
    kill -KILL -- "-$server_pid" 2>/dev/null || true
  fi
  local i
  for (( i=${#mounted[@]}-1; i>=0; i-- )); do
    umount "${mounted[$i]}" 2>/dev/null || umount -l "${mounted[$i]}" 2>/dev/null ||
      echo "[fresh] could not unmount ${mounted[$i]}" >&2
  done
  exit $rc
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# A leftover mount from a run that was killed hard: unmount before deleting anything.
if [ -d "$rootfs" ]; then
  { grep -o " $rootfs/[^ ]*" /proc/mounts || true; } | sort -r | while read -r m; do umount -l "$m" || true; done
  if grep -q " $rootfs/" /proc/mounts; then echo "[fresh] $rootfs still has mounts" >&2; exit 1; fi
  rm -rf "$rootfs"
fi
mkdir -p "$rootfs"
tar -C "$rootfs" -xf "$base_tar"

# Network settings of this machine (not software): apt sources, DNS, apt Acquire settings, local CAs.
rm -f "$rootfs/etc/apt/sources.list"
if [ -f /etc/apt/sources.list.d/debian.sources ]; then
  cp /etc/apt/sources.list.d/debian.sources "$rootfs/etc/apt/sources.list.d/"
else
  grep -E "^deb .*(debian|debian-security) " /etc/apt/sources.list > "$rootfs/etc/apt/sources.list"
fi
cp -L /etc/resolv.conf "$rootfs/etc/resolv.conf"
for f in /etc/apt/apt.conf /etc/apt/apt.conf.d/*; do
  [ -f "$f" ] || continue
  if grep -qiE 'Acquire::([a-z]+::)?(proxy|check-valid-until|check-date)' "$f"; then
    cp "$f" "$rootfs/etc/apt/apt.conf.d/$(basename "$f")"
  fi
done
if compgen -G "/usr/local/share/ca-certificates/*" >/dev/null; then
  mkdir -p "$rootfs/usr/local/share/ca-certificates"
  cp -r /usr/local/share/ca-certificates/. "$rootfs/usr/local/share/ca-certificates/"
fi

mount_in() {  # mount_in TARGET mount-args...
  local target=$rootfs$1; shift
  mkdir -p "$target"
  mount "$@" "$target"
  mounted+=("$target")
}
mount_in /proc -t proc proc
mount_in /sys --bind /sys
mount_in /dev --bind /dev
mount_in /dev/pts --bind /dev/pts
mount_in /dev/shm -t tmpfs -o mode=1777,size=2g tmpfs

# ── a fresh clone of the repository ──
commit=$(git -C "$here" rev-parse --verify "$ref^{commit}")
if [ "$ref" = HEAD ] && [ -n "$(git -C "$here" status --porcelain --untracked-files=no)" ]; then
  log "note: uncommitted changes in $here are not part of the test (cloning $commit)"
fi
src=/root/vramcalc
git clone -q --no-hardlinks --no-checkout "$here" "$rootfs$src"
git -C "$rootfs$src" checkout -q --detach "$commit"
log "cloned $(git -C "$here" log -1 --format='%h %s' "$commit") into $rootfs$src"

in_root() {  # runs a command as root in the fresh system, with a plain login environment
  chroot "$rootfs" /usr/bin/env -i HOME=/root TERM=dumb LANG=C.UTF-8 \
    PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin "$@"
}

port=${FRESH_PORT:-8000}
port_busy() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
while port_busy "$port"; do port=$((port + 1)); done

# ── serve.sh: cold, in the background, until the page and its wasm are served ──
log "bash .ci/serve.sh (PORT=$port), log $logs/serve.log"
serve_start=$(date +%s)
setsid chroot "$rootfs" /usr/bin/env -i HOME=/root TERM=dumb LANG=C.UTF-8 PORT="$port" \
  PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
  bash -c "cd $src && exec bash .ci/serve.sh" > "$logs/serve.log" 2>&1 &
server_pid=$!
dist=$rootfs$src/build-web/dist
served=0
while [ $(( $(date +%s) - serve_start )) -lt "$serve_limit" ]; do
  if ! kill -0 "$server_pid" 2>/dev/null; then
    tail -30 "$logs/serve.log" >&2; echo "[fresh] serve.sh exited before serving" >&2; exit 1
  fi
  if [ -f "$dist/index.html" ] &&
     curl -fsS --max-time 10 "http://127.0.0.1:$port/" -o "$work/index.got" 2>/dev/null; then
    served=1; break
  fi
  sleep 5
done
serve_s=$(( $(date +%s) - serve_start ))
[ "$served" -eq 1 ] || { tail -30 "$logs/serve.log" >&2; echo "[fresh] nothing served on port $port within $serve_limit s" >&2; exit 1; }
cmp -s "$work/index.got" "$dist/index.html" || { echo "[fresh] / is not dist/index.html" >&2; exit 1; }
# The page names its wasm with a content hash (src/app/hash_assets.cmake): take the name it links.
wasm=$(grep -o 'vramcalc-app\.[0-9a-f]\{10\}\.wasm' "$work/index.got" | head -1)
[ -n "$wasm" ] || { echo "[fresh] index.html names no vramcalc-app.<hash>.wasm" >&2; exit 1; }
curl -fsS --max-time 30 "http://127.0.0.1:$port/$wasm" -o "$work/wasm.got"
cmp -s "$work/wasm.got" "$dist/$wasm" || { echo "[fresh] /$wasm differs from dist/$wasm" >&2; exit 1; }
head -c 4 "$work/wasm.got" | od -An -c | grep -q '\\0   a   s   m' || { echo "[fresh] /$wasm is not WebAssembly" >&2; exit 1; }
log "serve.sh: page served after $serve_s s (index.html $(wc -c < "$work/index.got") B, $wasm $(wc -c < "$work/wasm.got") B)"
kill -TERM -- "-$server_pid" 2>/dev/null || true
wait "$server_pid" 2>/dev/null || true
server_pid=""

[ "${FRESH_SKIP_TEST:-0}" = 1 ] && { log "FRESH_SKIP_TEST=1: skipping test.sh"; exit 0; }

# ── test.sh ──
log "bash .ci/test.sh, log $logs/test.log"
test_start=$(date +%s)
set +e
in_root timeout "$test_limit" bash -c "cd $src && bash .ci/test.sh" > "$logs/test.log" 2>&1
test_rc=$?
set -e
test_s=$(( $(date +%s) - test_start ))
grep -E '^=== |passed, .* failed|tests passed' "$logs/test.log" | tail -20
log "serve.sh: $serve_s s until the page was served (fresh root, nothing installed)"
log "test.sh: $test_s s (after serve.sh), exit $test_rc"
[ "$test_rc" -eq 0 ]
