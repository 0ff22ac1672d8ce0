#!/usr/bin/env bash
# Makes (once) the Debian sid chroot that holds the engine's toolchain: emscripten (clang,
# binaryen, Node), cmake, make and git. Linux, root. Idempotent: an existing chroot is reused.
#   usage: scripts/engine/make-chroot.sh [DIR]   (default $INPAGE_ENGINE_CHROOT or /var/cache/inpage-llm/sid)
set -euo pipefail
dir="${1:-${INPAGE_ENGINE_CHROOT:-/var/cache/inpage-llm/sid}}"
mirror="${DEBIAN_MIRROR:-http://deb.debian.org/debian}"
packages="emscripten cmake make git ca-certificates"
# Everything but the chroot's path goes to stderr: the caller reads stdout.
if [ ! -x "$dir/usr/bin/emcc" ]; then
  exec 3>&1 1>&2
  [ "$(id -u)" = 0 ] || { echo "make-chroot: root is needed (debootstrap, chroot)" >&2; exit 1; }
  command -v debootstrap >/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq debootstrap; }
  mkdir -p "$dir"
  [ -x "$dir/usr/bin/apt-get" ] || debootstrap --variant=minbase sid "$dir" "$mirror"
  # The mirror's sid Release file may be past its Valid-Until date.
  echo 'Acquire::Check-Valid-Until "false";' > "$dir/etc/apt/apt.conf.d/99novalid"
  mountpoint -q "$dir/proc" || mount -t proc proc "$dir/proc"
  chroot "$dir" apt-get update -qq
  chroot "$dir" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $packages
  exec 1>&3 3>&-
fi
mountpoint -q "$dir/proc" || mount -t proc proc "$dir/proc"
echo "$dir"
