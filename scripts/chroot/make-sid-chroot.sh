#!/usr/bin/env bash
# Makes (once) a Debian sid chroot at DIR with PACKAGES installed, and prints DIR: the one chroot
# script of the engine's toolchain (scripts/engine/make-chroot.sh) and the tests' llama-server
# (make-server-chroot.sh).
# Linux, root. Idempotent: a chroot where MARKER (a path inside it) exists is reused.
#   usage: scripts/chroot/make-sid-chroot.sh DIR MARKER PACKAGE...
set -euo pipefail
dir="$1"
marker="$2"
shift 2
packages="$*"
# Everything but the chroot's path goes to stderr: the caller reads stdout.
if [ ! -e "$dir$marker" ]; then
  exec 3>&1 1>&2
  [ "$(id -u)" = 0 ] || { echo "make-sid-chroot: root is needed (debootstrap, chroot)" >&2; exit 1; }
  command -v debootstrap >/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq debootstrap; }
  mkdir -p "$dir"
  # From the archive this machine's apt uses (DEBIAN_MIRROR overrides it).
  if [ ! -x "$dir/usr/bin/apt-get" ]; then
    mirror="$(bash "$(dirname "$0")/apt-mirror.sh")"
    debootstrap --variant=minbase sid "$dir" "$mirror"
  fi
  # The mirror's sid Release file may be past its Valid-Until date.
  echo 'Acquire::Check-Valid-Until "false";' > "$dir/etc/apt/apt.conf.d/99novalid"
  mountpoint -q "$dir/proc" || mount -t proc proc "$dir/proc"
  chroot "$dir" apt-get update -qq
  # shellcheck disable=SC2086
  chroot "$dir" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $packages
  exec 1>&3 3>&-
fi
mountpoint -q "$dir/proc" || mount -t proc proc "$dir/proc"
echo "$dir"
