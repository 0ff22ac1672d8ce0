#!/usr/bin/env bash
# Inside the chroot: links the kernel check (native/kernel-check/kernel-check.c) with a variant's
# libggml-cpu.a into a small standalone wasm (no JavaScript loader, WASI imports only) that
# test/unit/worker/engine/backends/llamacpp/engine-kernels.test.ts runs: that variant's dot-product kernels beside ggml's
# scalar reference from the same library.
#   usage (in the chroot): link-kernel-check.sh BUILD_DIR CPU_BUILD_DIR CHECK_DIR OUT_WASM "EXTRA_CFLAGS"
set -euo pipefail
build="$1"; cpu="$2"; check="$3"; out="$4"; extra="$5"
emcc -O3 -msimd128 -fwasm-exceptions $extra "$check/kernel-check.c" \
  "$cpu/ggml/src/libggml-cpu.a" "$build/ggml/src/libggml-base.a" \
  --no-entry -sSTANDALONE_WASM=1 -sINITIAL_MEMORY=16MB -sSTACK_SIZE=1MB \
  -sEXPORTED_FUNCTIONS=_kc_init,_kc_malloc,_kc_dot -o "$out"
