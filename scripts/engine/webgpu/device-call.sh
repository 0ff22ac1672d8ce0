#!/usr/bin/env bash
# Fits the one device call of a GPU session (docs/webgpu.md, "On a lent GPU") into what the device
# tool sends: the tracked files, the untracked ones git does not ignore, shared/ and the carried
# paths, 64 MiB in all. The pack (.device/, ~34 MB, pack-device.sh) holds the engines the call
# runs, so the committed ones (~45 MB) need not travel: `prepare` takes them out of the working
# tree and out of the index (a tool that lists `git ls-files` then finds no missing file), checks
# the size, and `restore` puts both back as HEAD has them.
#   usage, in the repository (after pack-device.sh):
#     scripts/engine/webgpu/device-call.sh size [CARRY...]   what would travel; exit 1 if over
#     scripts/engine/webgpu/device-call.sh prepare [CARRY...] (default carry: .device)
#     scripts/engine/webgpu/device-call.sh restore
# The engines wait in DEVICE_CALL_HELD (default: a folder beside the repository, never inside).
set -euo pipefail
repo="$(git rev-parse --show-toplevel)"
cd "$repo"
LIMIT=$((64 * 1024 * 1024))
FOLDER=worker/engine/backends/llamacpp/wasm
held="${DEVICE_CALL_HELD:-$(dirname "$repo")/.$(basename "$repo")-device-held}"

# The byte count of the NUL-separated paths on stdin that exist (apparent sizes, as copied).
bytes() { xargs -0 -r stat -c %s -- 2>/dev/null | awk '{ s += $1 } END { print s + 0 }'; }
mib() { awk -v b="$1" 'BEGIN { printf "%.1f MiB", b / 1048576 }'; }

# Prints what would travel with CARRY and returns 1 when it is over the limit.
size() {
  local tracked untracked shared=0 carried=0 path total
  tracked="$(git ls-files -z --cached | bytes)"
  untracked="$(git ls-files -z --others --exclude-standard | bytes)"
  [ ! -d shared ] || shared="$(find shared -type f -print0 | bytes)"
  for path in "$@"; do
    [ -e "$path" ] || { echo "device-call: no $path to carry" >&2; return 1; }
    carried=$((carried + $(find "$path" -type f -print0 | bytes)))
  done
  total=$((tracked + untracked + shared + carried))
  echo "device-call: tracked $(mib "$tracked"), untracked $(mib "$untracked"), shared/ $(mib "$shared"), carried $(mib "$carried"): $(mib "$total") of 64 MiB"
  [ "$total" -le "$LIMIT" ] || { echo "device-call: over the device tool's 64 MiB" >&2; return 1; }
}

restore() {
  if [ -e "$held" ]; then
    [ ! -e "$FOLDER" ] || { echo "device-call: both $FOLDER and $held exist; resolve by hand" >&2; return 1; }
    mv "$held" "$FOLDER"
  fi
  git reset -q -- "$FOLDER"
  [ -e "$FOLDER" ] || git checkout -q HEAD -- "$FOLDER"
  [ -z "$(git status --porcelain -- "$FOLDER")" ] ||
    { echo "device-call: $FOLDER differs from HEAD after restore" >&2; return 1; }
  echo "device-call: $FOLDER restored"
}

prepare() {
  [ "$#" -gt 0 ] || set -- .device
  [ ! -e "$held" ] || { echo "device-call: $held exists (prepared already?); run restore" >&2; return 1; }
  [ -z "$(git status --porcelain -- "$FOLDER")" ] ||
    { echo "device-call: $FOLDER has changes; commit them first" >&2; return 1; }
  mkdir -p "$(dirname "$held")"
  git rm -r -q --cached -- "$FOLDER"
  mv "$FOLDER" "$held"
  size "$@" || { restore >&2; return 1; }
  echo "device-call: prepared; after the call: $0 restore"
}

command="${1:-}"
shift || true
case "$command" in
  size) size "$@" ;;
  prepare) prepare "$@" ;;
  restore) restore ;;
  *) sed -n '9,12p' "$0" >&2; exit 2 ;;
esac
