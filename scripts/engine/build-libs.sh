#!/usr/bin/env bash
# Inside the chroot: llama.cpp's static libraries for wasm (llama, ggml, ggml-cpu, common, mtmd).
#   usage (in the chroot): build-libs.sh SRC BUILD_DIR "EXTRA_CFLAGS" [TARGETS]
#   TARGETS: the CMake targets to build (default: llama llama-common mtmd, which pull in ggml).
# mtmd (tools/mtmd: images and audio through a projector) is llama.cpp's standalone library build
# (LLAMA_BUILD_MTMD, without its command-line tools); its video path needs a subprocess and is off.
# With -sMEMORY64=1 in EXTRA_CFLAGS the objects are wasm64 (llama.cpp's LLAMA_WASM_MEM64, its
# own default); without it, wasm32. With -sJSPI (the WebGPU variant) ggml-webgpu is built too,
# against the emdawnwebgpu package in EMDAWNWEBGPU_DIR, waiting on the GPU through JSPI
# (GGML_WEBGPU_JSPI); -sJSPI itself is a link setting (link-engine.sh), left out of the compiles.
set -euo pipefail
src="$1"; build="$2"; extra="$3"; targets="${4:-llama llama-common mtmd}"
mem64=OFF
case " $extra " in *" -sMEMORY64=1 "*) mem64=ON ;; esac
webgpu=(-DGGML_WEBGPU=OFF)
case " $extra " in
  *" -sJSPI "*)
    webgpu=(-DGGML_WEBGPU=ON -DGGML_WEBGPU_JSPI=ON "-DEMDAWNWEBGPU_DIR=${EMDAWNWEBGPU_DIR:?the package}")
    extra="$(echo " $extra " | sed 's/ -sJSPI / /; s/^ *//; s/ *$//')"
    # ggml's CMake lists ggml.pc.in, which node-llama-cpp's bundle lacks; nothing here installs it.
    [ -f "$src/ggml/ggml.pc.in" ] || : > "$src/ggml/ggml.pc.in"
    ;;
esac
flags="-O3 -msimd128 -fwasm-exceptions $extra"
emcmake cmake -S "$src" -B "$build" -G "Unix Makefiles" \
  -DCMAKE_BUILD_TYPE=Release -DBUILD_SHARED_LIBS=OFF \
  -DCMAKE_C_FLAGS="$flags" -DCMAKE_CXX_FLAGS="$flags" \
  -DLLAMA_WASM_MEM64=$mem64 -DLLAMA_BUILD_HTML=OFF -DLLAMA_CURL=OFF -DLLAMA_OPENSSL=OFF \
  -DLLAMA_BUILD_TESTS=OFF -DLLAMA_BUILD_EXAMPLES=OFF -DLLAMA_BUILD_TOOLS=OFF -DLLAMA_BUILD_SERVER=OFF \
  -DLLAMA_BUILD_MTMD=ON -DMTMD_VIDEO=OFF \
  "${webgpu[@]}" -DGGML_OPENMP=OFF -DGGML_NATIVE=OFF -DGGML_LLAMAFILE=ON \
  -DGGML_BACKEND_DL=OFF -DGGML_CPU_ALL_VARIANTS=OFF > "$build.configure.log"
cmake --build "$build" -j"$(nproc)" --target $targets > "$build.build.log"
