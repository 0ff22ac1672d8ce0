#!/usr/bin/env bash
# Checks that the engine build's compiles do not depend on where the compiler's heap is
# (heap-align.c, docs/engine.md "Byte for byte"): compiles one llama.cpp source as a variant's
# library folder does, through cc-wrapper.sh without its cache, with address-space randomization
# on and outputs at six path lengths, and fails unless every object is the same.
# Opt-in, after `npm run build:engine` (it reads that folder's compile_commands.json). Linux, root.
#   usage: INPAGE_ENGINE_CHROOT=DIR scripts/engine/check/same-object.sh [SOURCE]   (src/llama-kv-cache.cpp)
#   SAME_OBJECT_VARIANT=simd-mt: that variant's folder (the newest one), not `simd`'s.
#   SAME_OBJECT_SHIM=0: the same compiles without the shim (emcc runs clang itself), to see them differ.
set -euo pipefail
repo="$(cd "$(dirname "$0")/../../.." && pwd)"
root="$(bash "$repo/scripts/engine/make-chroot.sh")"
source_file="${1:-src/llama-kv-cache.cpp}"
variant="${SAME_OBJECT_VARIANT:-simd}"
folder="$(ls -td "$root"/src/build/*/ | grep -E "/$variant-[0-9a-f]{16}/\$" | head -1)"
[ -n "$folder" ] || { echo "same-object: no $variant library folder in $root/src/build (npm run build:engine)" >&2; exit 1; }
# The folder's command for that source, its output moved to /tmp/same-object/NAME.o.
command="$(node -e '
  const [file, source] = process.argv.slice(1);
  const entry = require(file).find((e) => e.file.endsWith("/" + source));
  if (!entry) { console.error(`same-object: no ${source} in ${file}`); process.exit(1); }
  console.log(`cd ${entry.directory} && ${entry.command.replace(/ -o \S+/, " -o /tmp/same-object/$1.o")}`);
' "${folder}compile_commands.json" "$source_file")"
wrapper=(EM_COMPILER_WRAPPER=/src/cc-wrapper.sh CCACHE_RECACHE=1 CCACHE_DIR=/tmp/same-object/ccache)
[ "${SAME_OBJECT_SHIM:-1}" != 0 ] || wrapper=()
rm -rf "$root/tmp/same-object" && mkdir -p "$root/tmp/same-object"
for name in a bbbbbbb ccccccccccccccccccccc dddddddddddddddddddddddddddddddddddddddddddddddd a2 bbbbbbb2; do
  chroot "$root" env "${wrapper[@]}" sh -c "$command" sh "$name"
  echo "same-object: $(sha256sum "$root/tmp/same-object/$name.o" | cut -c1-16) /tmp/same-object/$name.o"
done
objects="$(sha256sum "$root"/tmp/same-object/*.o | cut -d' ' -f1 | sort -u | wc -l)"
[ "$objects" = 1 ] || { echo "same-object: $source_file came out $objects ways" >&2; exit 1; }
echo "same-object: $source_file came out one way, six times"
