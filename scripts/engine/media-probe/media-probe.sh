#!/usr/bin/env bash
# The media probe (media-probe.cpp): a projector's graph node by node, natively and in the
# engine's wasm, on the same llama.cpp source, to see where the two part (docs/multimodal.md has
# the image logprob gap it explained). The native side is a clang build of the llama.cpp bundle
# as it is (once, in the engine chroot's /src/native-<bundle>: ~15 min on 2 cores; the engine's
# patches only touch wasm paths); the wasm side links the last `npm run build:engine`'s simd
# libraries (~1.5 min) and runs in this machine's Node. One thread each.
#   usage: scripts/engine/media-probe/media-probe.sh MODEL.gguf MMPROJ.gguf MEDIA
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(bash "$here/../make-chroot.sh")"
source "$here/../engine-config.sh"
libs="$(cd "$root/src/build" && ls -t -- *.key 2>/dev/null | grep -E '^simd-[0-9a-f]{16}\.key$' | head -1)"
[ -n "$libs" ] || { echo "media-probe: no simd libraries in $root/src/build (run npm run build:engine)" >&2; exit 1; }
wasm="/src/build/${libs%.key}"
native="/src/native-${LLAMA_CPP_BUNDLE_SHA256:0:16}"
if [ ! -f "$root$native/build/tools/mtmd/libmtmd.a" ]; then
  rm -rf "$root$native" && git clone -q "$root/src/package/llama/gitRelease.bundle" "$root$native" 2>/dev/null
  chroot "$root" cmake -S "$native" -B "$native/build" -DCMAKE_BUILD_TYPE=Release -DCMAKE_C_COMPILER=clang-21 \
    -DCMAKE_CXX_COMPILER=clang++-21 -DGGML_NATIVE=OFF -DGGML_OPENMP=OFF -DBUILD_SHARED_LIBS=OFF -DLLAMA_CURL=OFF \
    -DLLAMA_OPENSSL=OFF -DLLAMA_BUILD_TESTS=OFF -DLLAMA_BUILD_EXAMPLES=OFF -DLLAMA_BUILD_SERVER=OFF >/dev/null
  chroot "$root" cmake --build "$native/build" --target mtmd -j"$(nproc)" >/dev/null
fi
mkdir -p "$root/src/media-probe"
cp "$here/media-probe.cpp" "$root/src/media-probe/"
archives() { echo "$1/tools/mtmd/libmtmd.a $1/vendor/hash/libvendor-hash.a $1/src/libllama.a $1/ggml/src/libggml.a $1/ggml/src/libggml-cpu.a $1/ggml/src/libggml-base.a"; }
chroot "$root" clang++-21 -O2 -std=c++17 -I"$native/include" -I"$native/ggml/include" -I"$native/tools/mtmd" \
  /src/media-probe/media-probe.cpp $(archives "$native/build") -lpthread -o /src/media-probe/media-probe-native
chroot "$root" env EM_COMPILER_WRAPPER=ccache CCACHE_DIR=/src/ccache em++ -O3 -msimd128 -fwasm-exceptions -std=c++17 \
  -I/src/llama.cpp/include -I/src/llama.cpp/ggml/include -I/src/llama.cpp/tools/mtmd /src/media-probe/media-probe.cpp \
  $(archives "$wasm") -sALLOW_MEMORY_GROWTH=1 -sMAXIMUM_MEMORY=4GB -sSTACK_SIZE=4MB -sNODERAWFS=1 -sENVIRONMENT=node \
  -o /src/media-probe/media-probe.js
for file in "$1" "$2" "$3"; do cp "$file" "$root/src/media-probe/"; done
inside() { echo "/src/media-probe/$(basename "$1")"; }
chroot "$root" /src/media-probe/media-probe-native "$(inside "$1")" "$(inside "$2")" "$(inside "$3")" 2>/dev/null \
  > "$root/src/media-probe/native.txt"
node "$root/src/media-probe/media-probe.js" "$root$(inside "$1")" "$root$(inside "$2")" "$root$(inside "$3")" 2>/dev/null \
  > "$root/src/media-probe/wasm.txt"
node "$here/compare.mjs" "$root/src/media-probe/native.txt" "$root/src/media-probe/wasm.txt"
