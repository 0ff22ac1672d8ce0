#!/usr/bin/env bash
# Makes (once) the Debian sid chroot that holds the real `llama-server` (package llama.cpp-tools;
# bookworm has none) that the route tests forward to. Same script as the engine's toolchain chroot.
#   usage: scripts/chroot/make-server-chroot.sh [DIR]   (default $INPAGE_SERVER_CHROOT or /var/cache/inpage-llm/sid-server)
set -euo pipefail
dir="${1:-${INPAGE_SERVER_CHROOT:-/var/cache/inpage-llm/sid-server}}"
exec bash "$(dirname "$0")/make-sid-chroot.sh" "$dir" /usr/bin/llama-server llama.cpp-tools ca-certificates
