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

# The libraries and the engine, one variant per entry of VARIANTS (name and extra flags).
rm -rf "$work/glue" "$work/out" && mkdir -p "$work/out"
cp -r "$repo/native" "$work/glue"
cp "$repo"/scripts/engine/build-libs.sh "$repo"/scripts/engine/link-engine.sh "$repo"/scripts/engine/link-kernel-check.sh "$work/"
first="${VARIANTS[0]%%:*}"
for variant in "${VARIANTS[@]}"; do
  name="${variant%%:*}"; flags="${variant#*:}"
  if [ "$name" = "$first" ]; then
    chroot "$root" bash /src/build-libs.sh /src/llama.cpp "/src/build-$name" "$flags"
  else
    chroot "$root" bash /src/build-libs.sh /src/llama.cpp "/src/build-$name" "$flags" ggml-cpu
  fi
  # Linked under one name in a folder per variant: the loader names its wasm, and must not differ.
  mkdir -p "$work/out/$name"
  chroot "$root" bash /src/link-engine.sh /src/llama.cpp "/src/build-$first" "/src/build-$name" /src/glue "/src/out/$name/llama-engine" "$flags"
  chroot "$root" bash /src/link-kernel-check.sh /src/llama.cpp "/src/build-$first" "/src/build-$name" /src/glue/kernel-check "/src/out/kernel-check-$name.wasm" "$flags"
done

# One loader serves every variant (the same glue and exports): it must come out the same for each.
dest="$repo/worker/engine/backends/llamacpp/wasm"
mkdir -p "$dest"
rm -f "$dest"/*.wasm
for variant in "${VARIANTS[@]}"; do
  name="${variant%%:*}"
  cmp -s "$work/out/$first/llama-engine.mjs" "$work/out/$name/llama-engine.mjs" ||
    { echo "build-engine: the $name variant's loader differs from the $first variant's" >&2; exit 1; }
  cp "$work/out/$name/llama-engine.wasm" "$dest/llama-engine-$name.wasm"
  cp "$work/out/kernel-check-$name.wasm" "$dest/"
done
cp "$work/out/$first/llama-engine.mjs" "$dest/llama-engine.mjs"
toolchain="$(chroot "$root" emcc --version | head -n 1)"
node "$repo/scripts/engine/write-manifest.mjs" "$dest" "$toolchain" "$work/package/llama/llama.cpp.info.json"
echo "built $(ls "$dest" | paste -sd' ')"
