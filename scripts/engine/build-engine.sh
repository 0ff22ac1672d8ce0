#!/usr/bin/env bash
# Builds the llama.cpp engine (npm run build:engine): Linux, root. Makes the Debian sid chroot
# with Emscripten (make-chroot.sh), takes llama.cpp's source from the node-llama-cpp npm
# package (a git bundle of a tagged release), applies patches/*.patch, builds llama.cpp's
# static libraries (build-libs.sh) and links the project's glue (native/) into
# worker/engine/backends/llamacpp/wasm/, then writes its manifest.json (write-manifest.mjs).
# `npm install && npm test` never run this: its outputs are committed.
set -euo pipefail
repo="$(cd "$(dirname "$0")/../.." && pwd)"
source "$repo/scripts/engine/engine-config.sh"
root="$(bash "$repo/scripts/engine/make-chroot.sh")"
work="$root/src"
mkdir -p "$work"

# The source: llama.cpp's bundle in node-llama-cpp's tarball, checked against the manifest's pin.
tarball="$work/node-llama-cpp-$NODE_LLAMA_CPP_VERSION.tgz"
[ -f "$tarball" ] || (cd "$work" && npm pack --silent "node-llama-cpp@$NODE_LLAMA_CPP_VERSION" >/dev/null)
echo "$NODE_LLAMA_CPP_TARBALL_SHA256  $tarball" | sha256sum -c --quiet
rm -rf "$work/package" "$work/llama.cpp"
tar -xzf "$tarball" -C "$work" package/llama/gitRelease.bundle package/llama/llama.cpp.info.json
echo "$LLAMA_CPP_BUNDLE_SHA256  $work/package/llama/gitRelease.bundle" | sha256sum -c --quiet
git clone -q "$work/package/llama/gitRelease.bundle" "$work/llama.cpp" 2>/dev/null
for patch in "$repo"/scripts/engine/patches/*.patch; do git -C "$work/llama.cpp" apply "$patch"; done

# The libraries and the engine, one variant per entry of VARIANTS (name and extra flags). A
# variant's mode is whether its flags hold -pthread (every object of a shared-memory wasm is built
# with atomics) and -sMEMORY64=1 (wasm64 objects): the first variant of each mode builds every
# library, the mode's others rebuild only ggml-cpu (the kernels) and link against its libraries.
# Each mode has one loader.
rm -rf "$work/glue" "$work/out" && mkdir -p "$work/out"
cp -r "$repo/native" "$work/glue"
cp "$repo"/scripts/engine/build-libs.sh "$repo"/scripts/engine/link-engine.sh "$repo"/scripts/engine/link-kernel-check.sh \
  "$repo"/scripts/engine/threads-post.js "$repo"/scripts/engine/export-signatures.mjs "$work/"
mode_of() {
  local mode=st
  case " $1 " in *" -sMEMORY64=1 "*) mode=m64 ;; esac
  case " $1 " in *" -pthread "*) mode="${mode/st/}-mt"; mode="${mode#-}" ;; esac
  echo "$mode"
}
declare -A base=()
for variant in "${VARIANTS[@]}"; do
  name="${variant%%:*}"; flags="${variant#*:}"; mode="$(mode_of "$flags")"
  if [ -z "${base[$mode]:-}" ]; then
    base[$mode]="$name"
    chroot "$root" bash /src/build-libs.sh /src/llama.cpp "/src/build-$name" "$flags"
  else
    chroot "$root" bash /src/build-libs.sh /src/llama.cpp "/src/build-$name" "$flags" ggml-cpu
  fi
  # Linked under one name in a folder per variant: the loader names its wasm, and must not differ.
  mkdir -p "$work/out/$name"
  chroot "$root" bash /src/link-engine.sh /src/llama.cpp "/src/build-${base[$mode]}" "/src/build-$name" /src/glue "/src/out/$name/llama-engine" "$flags"
  # The kernel check is a standalone wasm without shared memory: the single-threaded builds have it
  # (the pthreads builds compile the same kernel sources, with atomics).
  if [ "$mode" = st ]; then
    chroot "$root" bash /src/link-kernel-check.sh /src/llama.cpp "/src/build-${base[$mode]}" "/src/build-$name" \
      /src/glue/kernel-check "/src/out/kernel-check-$name.wasm" "$flags"
  fi
done

# One loader serves every variant of a mode (the same glue and exports): it must come out the same
# for each. llama-engine.mjs is the single-threaded wasm32 one, llama-engine-<mode>.mjs the others
# (mt: pthreads; m64: memory64; m64-mt: both).
loader_of() { if [ "$1" = st ]; then echo llama-engine.mjs; else echo "llama-engine-$1.mjs"; fi; }
dest="$repo/worker/engine/backends/llamacpp/wasm"
mkdir -p "$dest"
rm -f "$dest"/*.wasm "$dest"/llama-engine*.mjs
for variant in "${VARIANTS[@]}"; do
  name="${variant%%:*}"; mode="$(mode_of "${variant#*:}")"; first="${base[$mode]}"
  cmp -s "$work/out/$first/llama-engine.mjs" "$work/out/$name/llama-engine.mjs" ||
    { echo "build-engine: the $name variant's loader differs from the $first variant's" >&2; exit 1; }
  cp "$work/out/$name/llama-engine.wasm" "$dest/llama-engine-$name.wasm"
  if [ "$mode" = st ]; then cp "$work/out/kernel-check-$name.wasm" "$dest/"; fi
done
for mode in "${!base[@]}"; do cp "$work/out/${base[$mode]}/llama-engine.mjs" "$dest/$(loader_of "$mode")"; done
toolchain="$(chroot "$root" emcc --version | head -n 1)"
node "$repo/scripts/engine/write-manifest.mjs" "$dest" "$toolchain" "$work/package/llama/llama.cpp.info.json"
echo "built $(ls "$dest" | paste -sd' ')"
