#!/usr/bin/env bash
# Builds the probe of the WebGPU engine on SwiftShader, for `npm run test:webgpu-engine`
# (test/webgpu/engine-probe.ts runs it in headless Chromium beside the committed `webgpu` engine).
# TEST-ONLY: nothing of this is shipped. `llama-engine-jspi-gpu` is the committed `webgpu`
# variant's link (build-libs.sh and link-engine.sh with -sJSPI) with build-backend-ops.sh's
# f16-as-f32 rewrite of ggml-webgpu in place of the stock one, so that SwiftShader (no
# shader-f16) gets a device and the engine's graph runs on its GPU (the page asks for every layer).
#   usage: INPAGE_ENGINE_CHROOT=DIR [INPAGE_DAWN_SRC=DAWN] scripts/engine/webgpu/build-engine-probe.sh OUT_DIR
# Runs build-backend-ops.sh first (the emdawnwebgpu package and the rewritten ggml-webgpu, in the
# chroot's /src/webgpu-ops), then the engine's libraries with WebGPU on (/src/build/webgpu-probe,
# from the engine's tree; ccache and setarch -R, not build-engine.sh's heap shim: the probe's
# bytes are not committed) and the link (/src/webgpu-probe). Writes the probe's .wasm and .mjs
# to OUT_DIR. Linux, root (chroot).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../../.." && pwd)"
out="$(mkdir -p "${1:?usage: $0 OUT_DIR}" && cd "$1" && pwd)"
root="$(bash "$here/../make-chroot.sh")"
bash "$here/build-backend-ops.sh" "$out/backend-ops" >&2
pkg=/src/webgpu-ops/emdawnwebgpu
in_chroot() { nice -n 10 setarch "$(uname -m)" -R chroot "$root" env EM_COMPILER_WRAPPER=ccache CCACHE_DIR=/src/ccache-noaslr EM_CACHE=/src/webgpu-ops/em-cache EMDAWNWEBGPU_DIR=$pkg "$@"; }
probe=/src/webgpu-probe
mkdir -p "$root$probe"
cp "$repo/scripts/engine/build-libs.sh" "$repo/scripts/engine/link-engine.sh" "$root$probe/"

# The engine's libraries as the `webgpu` variant has them, then the rewritten ggml-webgpu in place
# of the stock one (this folder serves the probe only).
libs=/src/build/webgpu-probe
in_chroot bash $probe/build-libs.sh /src/llama.cpp $libs "-sJSPI" "llama llama-common mtmd ggml-webgpu" >&2
cp "$root/src/webgpu-ops/build/ggml/src/ggml-webgpu/libggml-webgpu.a" "$root$libs/ggml/src/ggml-webgpu/libggml-webgpu.a"

rm -rf "$root$probe/glue" && cp -r "$repo/native" "$root$probe/glue"
# A projector asked onto the GPU runs without flash attention. Left to itself (mtmd's default,
# `auto`), clip turns it on where the backend has FLASH_ATTN_EXT, casting K and V to F16 first,
# and the rewrite's F16 is not F16: its shaders read and write those tensors' 2-byte elements as
# 4-byte floats, past the ends of their buffers (docs/webgpu.md, "The projector on the GPU").
# The text models' attention is F32 already (attention.cpp: an F32 cache, flash attention off).
glue_media="$root$probe/glue/media.cpp"
sed -i 's/^\(  *\)params\.warmup = false;$/&\n\1if (params.use_gpu) params.flash_attn_type = LLAMA_FLASH_ATTN_TYPE_DISABLED;/' "$glue_media"
grep -q 'if (params.use_gpu) params.flash_attn_type = LLAMA_FLASH_ATTN_TYPE_DISABLED;' "$glue_media" ||
  { echo "build-engine-probe: the projector's flash attention could not be turned off" >&2; exit 1; }
mkdir -p "$root$probe/jspi-gpu"
in_chroot bash $probe/link-engine.sh /src/llama.cpp $libs $libs $probe/glue "$probe/jspi-gpu/llama-engine" "-sJSPI" >&2
cp "$root$probe/jspi-gpu/llama-engine.wasm" "$out/llama-engine-jspi-gpu.wasm"
cp "$root$probe/jspi-gpu/llama-engine.mjs" "$out/llama-engine-jspi-gpu.mjs"
ls -l "$out"/llama-engine-*
