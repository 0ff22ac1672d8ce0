#!/usr/bin/env bash
# Builds llama.cpp's test-backend-ops for the web with the WebGPU backend (ggml-webgpu), for
# `npm run test:webgpu-ops` (test/webgpu/backend-ops.ts runs it in headless Chromium). TEST-ONLY:
# nothing of this goes into the engine. SwiftShader (Chromium's software WebGPU) has no
# `shader-f16`, which stock ggml-webgpu requires, so the copy of llama.cpp built here has its
# WGSL rewritten to compute f16 as f32 and its device no longer asks for the feature (rewrite()
# below): the suite then proves the plumbing and the shaders, not f16 numerics.
# WEBGPU_OPS_F16=native keeps the shaders and the device's shader-f16 as upstream has them, for an
# adapter that has the feature (Mesa's lavapipe: lavapipe-ops.sh runs that build in Node), and
# links for Node as well as the web; it is kept in /src/webgpu-ops-f16 beside the rewritten one.
# Both log a WebGPU validation error instead of aborting (below).
#   usage: INPAGE_ENGINE_CHROOT=DIR [INPAGE_DAWN_SRC=DAWN] [WEBGPU_OPS_F16=native] scripts/engine/webgpu/build-backend-ops.sh OUT_DIR
# Takes the engine's llama.cpp tree (the chroot's /src/llama.cpp, made by `npm run build:engine`)
# and keeps everything in the chroot's /src/webgpu-ops between runs: the emdawnwebgpu package
# (made by make-emdawnwebgpu.sh from INPAGE_DAWN_SRC when missing), the rewritten copy of the
# source, the CMake build folder and Emscripten's cache. Writes test-backend-ops.js and .wasm to
# OUT_DIR, and f16-block-types.txt (below). Linux, root (chroot).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
out="${1:?usage: $0 OUT_DIR}"
root="$(bash "$here/../make-chroot.sh")"
native_f16=0
[ "${WEBGPU_OPS_F16:-rewrite}" = native ] && native_f16=1
c=/src/webgpu-ops$([ $native_f16 = 1 ] && echo -f16 || true)   # in the chroot
cache="$root$c"
mkdir -p "$cache" "$out"
in_chroot() { nice -n 10 chroot "$root" env EM_CACHE=$c/em-cache "$@"; }

# 1. The emdawnwebgpu package (Dawn's WebGPU binding for Emscripten), made once.
if [ ! -f "$cache/emdawnwebgpu/emdawnwebgpu.port.py" ]; then
  rm -rf "$cache/emdawnwebgpu.new"
  bash "$here/../make-emdawnwebgpu.sh" "$cache/emdawnwebgpu.new" >&2
  mv "$cache/emdawnwebgpu.new" "$cache/emdawnwebgpu"
fi

# 2. A copy of the engine's source (made anew when the engine's tree changed: build-engine.sh's
# llama.cpp.key), rewritten for a device without shader-f16. Files keep their times (a rewritten
# one its original's, or this script's where that is newer), so make rebuilds only what changed.
[ -f "$root/src/llama.cpp.key" ] || { echo "build-backend-ops: no $root/src/llama.cpp (npm run build:engine makes it)" >&2; exit 1; }
if ! cmp -s "$root/src/llama.cpp.key" "$cache/llama.cpp.key"; then
  rm -rf "$cache/llama.cpp" "$cache/llama.cpp.key"
fi
mkdir -p "$cache/llama.cpp"
tar -C "$root/src/llama.cpp" --exclude=./.git -cf - . | tar -C "$cache/llama.cpp" -xf -
cp "$root/src/llama.cpp.key" "$cache/llama.cpp.key"
# ggml.pc.in is missing from node-llama-cpp's bundle; an empty one lets the configure pass.
[ -f "$cache/llama.cpp/ggml/ggml.pc.in" ] || : > "$cache/llama.cpp/ggml/ggml.pc.in"
rewrite() {   # FILE COMMAND...: FILE becomes what COMMAND... FILE prints, keeping its time
  local file="$1" stamp; shift
  stamp="$(stat -c %y "$file")"
  [ "$file" -nt "$0" ] || stamp="$(stat -c %y "$0")"
  "$@" "$file" > "$file.new"
  mv "$file.new" "$file"
  touch -d "$stamp" "$file"
}
webgpu="$cache/llama.cpp/ggml/src/ggml-webgpu"
# The shaders: f16 is an alias of f32 (so an f16 buffer is read 4 bytes an element: F16 tensors
# come out wrong, and test/webgpu/backend-ops.ts expects those cases to fail). The alias, a
# declaration, goes after the file's last directive (enable, requires, diagnostic; and after the
# #endif of one inside an #ifdef), where WGSL allows it. The packed half-precision scales of
# quantized blocks are unpacked with unpack2x16float (vec2<f32>, the same values as
# bitcast<vec2<f16>> widened).
f16_as_f32() {
  awk 'NR == FNR { if ($0 ~ /^(enable|requires|diagnostic)[ (]/) last = FNR; next }
    { if ($0 ~ /^enable f16;[ \t\r]*$/) $0 = ""
      if (pending && $0 !~ /^(#endif.*)?$/) { print "alias f16 = f32;"; pending = 0 }
      print
      if (FNR == last) pending = 1 }
    END { if (pending) print "alias f16 = f32;" }' "$1" "$1" | sed -e 's/bitcast<vec2<f16>>(/unpack2x16float(/g'
}
if [ $native_f16 = 0 ]; then
  for shader in "$webgpu"/wgsl-shaders/*.wgsl "$webgpu"/wgsl-shaders/*.tmpl; do
    if grep -q 'enable f16;\|bitcast<vec2<f16>>(' "$shader"; then rewrite "$shader" f16_as_f32; fi
  done
  ! grep -rq 'enable f16\|bitcast<vec2<f16>>' "$webgpu/wgsl-shaders" || { echo "build-backend-ops: a shader still needs shader-f16" >&2; exit 1; }
fi
# The device: counted without shader-f16, and created without asking for it. A WebGPU validation
# error (the uncaptured-error callback) is logged, not an abort, so that one bad case does not end
# the run: the runner fails on any such line it does not expect (backend-ops-output.ts).
# (WEBGPU_OPS_F16=native: only the error is logged; shader-f16 stays asked for.)
cpp="$webgpu/ggml-webgpu.cpp"
edits=(-e 's/GGML_ABORT("ggml_webgpu: Device error!/GGML_LOG_ERROR("ggml_webgpu: Device error!/')
[ $native_f16 = 1 ] || edits+=(-e 's/adapter != nullptr && adapter.HasFeature(wgpu::FeatureName::ShaderF16)/adapter != nullptr/'
  -e 's/required_features *= { wgpu::FeatureName::ShaderF16 };/required_features = {};/')
rewrite "$cpp" sed "${edits[@]}"
asks_f16="$(grep -c 'FeatureName::ShaderF16' "$cpp" || true)"
! grep -q 'GGML_ABORT("ggml_webgpu: Device error' "$cpp" && [ $((asks_f16 > 0)) = $native_f16 ] ||
  { echo "build-backend-ops: the rewrite of ggml-webgpu.cpp did not apply" >&2; exit 1; }

# 3. Configure (build-libs.sh's flags, WebGPU on, tests on) when the flags changed, then build
# the one target. The link makes a classic script that waits for callMain (the runner's page
# calls it with each op's arguments) and leaves the runtime when main returns (Module.onExit).
flags="-O3 -msimd128 -fwasm-exceptions"
link="-sALLOW_MEMORY_GROWTH=1 -sMAXIMUM_MEMORY=4GB -sSTACK_SIZE=8MB -sENVIRONMENT=web$([ $native_f16 = 1 ] && echo ,node || true) -sINVOKE_RUN=0 -sEXIT_RUNTIME=1 -sEXPORTED_RUNTIME_METHODS=callMain"
config="$flags|$link|$c/emdawnwebgpu"
if [ "$(cat "$cache/build.config" 2>/dev/null)" != "$config" ]; then
  rm -f "$cache/build.config"
  in_chroot emcmake cmake -S $c/llama.cpp -B $c/build -G "Unix Makefiles" \
    -DCMAKE_BUILD_TYPE=Release -DBUILD_SHARED_LIBS=OFF \
    -DCMAKE_C_FLAGS="$flags" -DCMAKE_CXX_FLAGS="$flags" -DCMAKE_EXE_LINKER_FLAGS="$link" \
    -DLLAMA_WASM_MEM64=OFF -DLLAMA_BUILD_HTML=OFF -DLLAMA_CURL=OFF -DLLAMA_OPENSSL=OFF \
    -DLLAMA_BUILD_TESTS=ON -DLLAMA_BUILD_EXAMPLES=OFF -DLLAMA_BUILD_TOOLS=OFF -DLLAMA_BUILD_SERVER=OFF \
    -DLLAMA_BUILD_MTMD=OFF -DGGML_OPENMP=OFF -DGGML_NATIVE=OFF -DGGML_LLAMAFILE=ON \
    -DGGML_BACKEND_DL=OFF -DGGML_CPU_ALL_VARIANTS=OFF \
    -DGGML_WEBGPU=ON -DGGML_WEBGPU_JSPI=ON -DEMDAWNWEBGPU_DIR=$c/emdawnwebgpu > "$cache/configure.log"
  echo "$config" > "$cache/build.config"
fi
in_chroot cmake --build $c/build -j"$(nproc)" --target test-backend-ops > "$cache/build.log" ||
  { tail -n 40 "$cache/build.log" >&2; exit 1; }
cp "$cache/build/bin/test-backend-ops.js" "$cache/build/bin/test-backend-ops.wasm" "$out/"
# The quantized blocks that have a WGSL struct with an f16 field (q4_1 { d: f16, m: f16, … }):
# with f16 an alias of f32 that struct's layout is not the block's, so where a shader reads the
# block through it (GET_ROWS) these types come out wrong too. The runner expects those cases to
# fail, as an F16 tensor's. (Not with WEBGPU_OPS_F16=native, whose runner allows no f16 failure.)
[ $native_f16 = 1 ] || awk '/^struct [A-Za-z0-9_]+ *\{/ { name = $2; sub(/\{.*/, "", name); f16 = 0; next }
  name != "" && /: *f16/ { f16 = 1 }
  name != "" && /^\}/ { if (f16) print tolower(name); name = "" }' \
  "$webgpu"/wgsl-shaders/*.wgsl "$webgpu"/wgsl-shaders/*.tmpl | sort -u > "$out/f16-block-types.txt"
ls -l "$out"/test-backend-ops.*
