# The engine build's pins (sourced by build-engine.sh; recorded in the manifest).
NODE_LLAMA_CPP_VERSION=3.22.1
NODE_LLAMA_CPP_TARBALL_SHA256=a0d9dd80eacd2ab1cfe71aee57ac8a806487fd70b3d2a38fbec637752d9e5c5f
LLAMA_CPP_BUNDLE_SHA256=5f5d1105d5df040738d87b8290e5d17e7362131cdcfdb0831618e0ea528b4a51
# name:extra compiler flags. simd: SIMD128, the floor every current browser has. relaxed: adds
# relaxed SIMD (patches/ggml-cpu-wasm-relaxed-dot.patch's int8 dot products), chosen at load
# time where WebAssembly.validate accepts it. The first variant builds every library; the
# others rebuild only ggml-cpu (the kernels) with their flags and share the rest. The -mt
# variants are the same two with pthreads (-pthread: shared memory, ggml's threadpool), chosen
# where the page is crossOriginIsolated and the engine is given more than one thread; their
# libraries are built apart (build-engine.sh). The -m64 variants are the same four with a
# memory64 heap (up to 16 GiB), loaded only for a model too large for wasm32's 4 GiB: memory64
# costs 10-35% prefill and 15-50% decode here (docs/engine.md), so it is not the default.
# webgpu: SIMD128, single-threaded wasm32, with llama.cpp's ggml-webgpu beside ggml-cpu (the
# layers left on the CPU), waiting on the GPU through JSPI (-sJSPI: its exports that may wait
# return promises); loaded only where WebGPU has shader-f16 and JSPI exists (docs/webgpu.md).
VARIANTS=("simd:" "relaxed:-mrelaxed-simd" "simd-mt:-pthread" "relaxed-mt:-mrelaxed-simd -pthread"
  "simd-m64:-sMEMORY64=1" "relaxed-m64:-mrelaxed-simd -sMEMORY64=1"
  "simd-m64-mt:-sMEMORY64=1 -pthread" "relaxed-m64-mt:-mrelaxed-simd -sMEMORY64=1 -pthread"
  "webgpu:-sJSPI")
# The WebGPU variant's binding: Dawn's emdawnwebgpu package, generated from Dawn's source at this
# tag (make-emdawnwebgpu.sh; the tag wllama builds with). The generator's inputs and the package
# it makes, each as the sha256 of its files' `sha256sum` listing.
DAWN_TAG=v20260317.182325
DAWN_COMMIT=18eb229ef5f707c1464cc581252e7603c73a3ef0
DAWN_INPUTS_SHA256=813c75923b74e0bed29d6150cc28264017e34ca95e8d58be879a68e308fc8217
DAWN_PACKAGE_SHA256=c5de9be0164528912a6fbbda256da4ff95aa183a22e3648400849fd933ff62cb
