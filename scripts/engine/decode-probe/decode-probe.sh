#!/usr/bin/env bash
# Builds the decode probe (decode-probe.cpp) against the libraries of the last
# `npm run build:engine` (the engine chroot's /src/build: the simd variant's llama.cpp and, for
# VARIANT=relaxed (the default), the relaxed variant's kernels), then runs it in this machine's
# Node on MODEL. One thread; the link takes ~1.5 min.
#   usage: scripts/engine/decode-probe/decode-probe.sh MODEL.gguf PROMPT_TOKENS TOKENS B[,B...] [profile] [f16]
#   e.g.   scripts/engine/decode-probe/decode-probe.sh .bench/bench-qwen05-q4_0.gguf 16 32 1,4 profile
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(bash "$here/../make-chroot.sh")"
variant="${VARIANT:-relaxed}"
# The newest library folder of a variant (named <variant>-<16 hex digits>, stamped by its .key).
libs() {
  local found
  found="$(cd "$root/src/build" && ls -t -- *.key 2>/dev/null | grep -E "^$1-[0-9a-f]{16}\.key$" | head -1)"
  [ -n "$found" ] || { echo "decode-probe: no $1 libraries in $root/src/build (run npm run build:engine)" >&2; exit 1; }
  echo "/src/build/${found%.key}"
}
base="$(libs simd)"
cpu="$base"
flags=""
if [ "$variant" = relaxed ]; then cpu="$(libs relaxed)"; flags="-mrelaxed-simd"; fi
mkdir -p "$root/src/probe"
cp "$here/decode-probe.cpp" "$root/src/probe/"
chroot "$root" env EM_COMPILER_WRAPPER=ccache CCACHE_DIR=/src/ccache \
  em++ -O3 -msimd128 -fwasm-exceptions $flags -std=c++17 -I/src/llama.cpp/include -I/src/llama.cpp/ggml/include \
  /src/probe/decode-probe.cpp "$base/src/libllama.a" "$base/ggml/src/libggml.a" "$cpu/ggml/src/libggml-cpu.a" \
  "$base/ggml/src/libggml-base.a" -sALLOW_MEMORY_GROWTH=1 -sMAXIMUM_MEMORY=4GB -sSTACK_SIZE=4MB -sNODERAWFS=1 \
  -sENVIRONMENT=node -o "/src/probe/decode-probe-$variant.js"
model="$(realpath "$1")"
shift
exec node --experimental-wasm-relaxed-simd "$root/src/probe/decode-probe-$variant.js" "$model" "$@"
