#!/usr/bin/env bash
# Makes (once) the Debian sid chroot that holds the engine's toolchain: emscripten (clang,
# binaryen, Node), cmake, make and git, with the chroot script the tests' llama-server shares
# (scripts/chroot/make-sid-chroot.sh). Linux, root. Idempotent: an existing chroot is reused.
#   usage: scripts/engine/make-chroot.sh [DIR]   (default $INPAGE_ENGINE_CHROOT or /var/cache/inpage-llm/sid)
set -euo pipefail
dir="${1:-${INPAGE_ENGINE_CHROOT:-/var/cache/inpage-llm/sid}}"
exec bash "$(dirname "$0")/../chroot/make-sid-chroot.sh" "$dir" /usr/bin/ccache emscripten cmake make git ca-certificates ccache
