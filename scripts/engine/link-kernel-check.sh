#!/usr/bin/env bash
# Inside the chroot: links the kernel check (native/kernel-check/kernel-check.c) with a variant's
# libggml-cpu.a into a small standalone wasm (no JavaScript loader, WASI imports only) that
# test/unit/worker/engine/backends/llamacpp/engine-kernels.test.ts runs: that variant's dot-product kernels beside ggml's
# scalar reference from the same library, ggml-cpu's wasm F16 conversions (its headers from SRC) and
# its F32 dot product and tile, and llamafile_sgemm (F32 prefill).
#   usage (in the chroot): link-kernel-check.sh SRC BUILD_DIR CPU_BUILD_DIR CHECK_DIR OUT_WASM "EXTRA_CFLAGS"
set -euo pipefail
src="$1"; build="$2"; cpu="$3"; check="$4"; out="$5"; extra="$6"
emcc -O3 -msimd128 -fwasm-exceptions $extra \
  -I"$src/ggml/include" -I"$src/ggml/src" -I"$src/ggml/src/ggml-cpu" "$check/kernel-check.c" \
  "$cpu/ggml/src/libggml-cpu.a" "$build/ggml/src/libggml-base.a" \
  --no-entry -sSTANDALONE_WASM=1 -sINITIAL_MEMORY=16MB -sSTACK_SIZE=1MB \
  -sEXPORTED_FUNCTIONS=_kc_init,_kc_malloc,_kc_dot,_kc_dot2,_kc_convert,_kc_dot_f16,_kc_dot_f32,_kc_dot2_f32,_kc_sgemm_f32,_kc_softmax_f32,_kc_swiglu_f32 -o "$out"
