#!/usr/bin/env bash
# Builds two probes of the WebGPU engine variant to come (docs/design/webgpu-engine.md, step 2),
# for `npm run test:webgpu-engine` (test/webgpu/engine-probe.ts runs them in headless Chromium).
# TEST-ONLY: nothing of this is shipped. Each is the engine's glue linked as the single-threaded
# `simd` engine is (link-engine.sh), with ggml-webgpu, `-sJSPI`, and the exports that may
# suspend (those engine-module.ts types `MaySuspend`) in `-sJSPI_EXPORTS`:
# - llama-engine-jspi: stock ggml-webgpu, the glue as it is (n_gpu_layers 0): the async engine
#   with real promises, on the CPU (SwiftShader lacks shader-f16: ggml-webgpu finds no device);
# - llama-engine-jspi-gpu: ggml-webgpu with build-backend-ops.sh's f16-as-f32 rewrite, and the
#   glue with every layer offloaded (n_gpu_layers 999): the engine's graph on SwiftShader's GPU.
#   usage: INPAGE_ENGINE_CHROOT=DIR [INPAGE_DAWN_SRC=DAWN] scripts/engine/webgpu/build-engine-probe.sh OUT_DIR
# Runs build-backend-ops.sh first (the emdawnwebgpu package and the rewritten ggml-webgpu, in the
# chroot's /src/webgpu-ops), then the engine's libraries with WebGPU on (/src/build/webgpu-probe,
# from the engine's tree; ccache and setarch -R as build-engine.sh has them) and the two links
# (/src/webgpu-probe). Writes both probes' .wasm and .mjs to OUT_DIR. Linux, root (chroot).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../../.." && pwd)"
out="$(mkdir -p "${1:?usage: $0 OUT_DIR}" && cd "$1" && pwd)"
root="$(bash "$here/../make-chroot.sh")"
bash "$here/build-backend-ops.sh" "$out/backend-ops" >&2
in_chroot() { nice -n 10 setarch "$(uname -m)" -R chroot "$root" env EM_COMPILER_WRAPPER=ccache CCACHE_DIR=/src/ccache-noaslr EM_CACHE=/src/webgpu-ops/em-cache "$@"; }
pkg=/src/webgpu-ops/emdawnwebgpu
probe=/src/webgpu-probe
mkdir -p "$root$probe"
cp "$repo/scripts/engine/build-libs.sh" "$repo/scripts/engine/link-engine.sh" "$root$probe/"

# The engine's libraries with ggml-webgpu: build-libs.sh's configure, WebGPU on (its last -D wins).
libs=/src/build/webgpu-probe
sed -e "s|-DGGML_BACKEND_DL=OFF|-DGGML_BACKEND_DL=OFF -DGGML_WEBGPU=ON -DGGML_WEBGPU_JSPI=ON -DEMDAWNWEBGPU_DIR=$pkg|" \
  "$root$probe/build-libs.sh" > "$root$probe/build-libs-webgpu.sh"
grep -q 'GGML_WEBGPU=ON' "$root$probe/build-libs-webgpu.sh" || { echo "build-engine-probe: the configure was not rewritten" >&2; exit 1; }
[ -f "$root/src/llama.cpp/ggml/ggml.pc.in" ] || : > "$root/src/llama.cpp/ggml/ggml.pc.in"
in_chroot bash $probe/build-libs-webgpu.sh /src/llama.cpp $libs "" "llama llama-common mtmd ggml-webgpu" >&2

# The exports that may suspend: engine-module.ts's `MaySuspend` ones.
jspi="$(awk '/^  _ip_[a-z0-9_]*\(/ { name = $1; sub(/\(.*/, "", name); sub(/^_/, "", name) }
  /\): MaySuspend(<[a-z]*>)?;/ && name != "" { print name } /;$/ { name = "" }' \
  "$repo/worker/engine/backends/llamacpp/engine-module.ts" | sort -u | paste -sd, -)"
echo "build-engine-probe: JSPI exports $jspi" >&2

link() {   # NAME GLUE WEBGPU_LIB
  local name="$1" glue="$2" lib="$3"
  mkdir -p "$root$probe/$name"
  in_chroot bash $probe/link-engine.sh /src/llama.cpp $libs $libs "$glue" "$probe/$name/llama-engine" \
    "-sJSPI -sJSPI_EXPORTS=$jspi --use-port=$pkg/emdawnwebgpu.port.py $lib" >&2
  cp "$root$probe/$name/llama-engine.wasm" "$out/llama-engine-$name.wasm"
  cp "$root$probe/$name/llama-engine.mjs" "$out/llama-engine-$name.mjs"
}
rm -rf "$root$probe/glue" "$root$probe/glue-gpu"
cp -r "$repo/native" "$root$probe/glue"
cp -r "$repo/native" "$root$probe/glue-gpu"
sed -i 's/^    mp.n_gpu_layers = 0;/    mp.n_gpu_layers = 999;/' "$root$probe/glue-gpu/load.cpp"
grep -q 'n_gpu_layers = 999;' "$root$probe/glue-gpu/load.cpp" || { echo "build-engine-probe: n_gpu_layers was not found in load.cpp" >&2; exit 1; }
link jspi $probe/glue $libs/ggml/src/ggml-webgpu/libggml-webgpu.a
link jspi-gpu $probe/glue-gpu /src/webgpu-ops/build/ggml/src/ggml-webgpu/libggml-webgpu.a
ls -l "$out"/llama-engine-*
