#!/usr/bin/env bash
# Builds the llama.cpp engine (npm run build:engine): Linux, root. Makes the Debian sid chroot
# with Emscripten (make-chroot.sh), takes llama.cpp's source from the node-llama-cpp npm
# package (a git bundle of a tagged release), applies patches/*.patch, builds llama.cpp's
# static libraries (build-libs.sh) and links the project's glue (native/) into
# worker/engine/backends/llamacpp/wasm/, then writes its manifest.json (write-manifest.mjs).
# `npm install && npm test` never run this: its outputs are committed.
# Everything is kept in the chroot's /src between runs and redone only where its inputs changed:
# the source tree (patched in place, an unchanged file keeps its time), each variant's libraries
# (a folder named by the bundle, the flags and the toolchain's Debian versions; make rebuilds
# what a changed patch touched), the glue's objects and each link. ccache (EM_COMPILER_WRAPPER)
# keeps every compile besides.
#   ENGINE_VARIANTS="relaxed-mt simd": builds and writes only these variants (names from
#   engine-config.sh); the manifest test fails until all of them are built from the same inputs.
#   INPAGE_DAWN_SRC=DIR: a copy of Dawn's source (docs/webgpu.md), read once per chroot to make
#   the WebGPU variant's emdawnwebgpu package (make-emdawnwebgpu.sh); checked against the pins.
set -euo pipefail
repo="$(cd "$(dirname "$0")/../.." && pwd)"
source "$repo/scripts/engine/engine-config.sh"
root="$(bash "$repo/scripts/engine/make-chroot.sh")"
work="$root/src"
dest="$repo/worker/engine/backends/llamacpp/wasm"
mkdir -p "$work/build" "$work/out" "$dest"
key() { sha256sum | cut -c1-16; }
# Every compile goes through cc-wrapper.sh: ccache, with heap-align.so preloaded into the
# compiler. clang 21's WebAssembly exception codegen walks a map keyed by pointers
# (llvm/llvm-project#204883), so one llama.cpp file (llama-kv-cache.cpp) came out two ways from
# the same inputs wherever the heap moved: with address-space randomization, and, without it
# (setarch -R), with a path of another length. The shim starts the compiler's slabs on 64 KiB
# boundaries, so that map's order no longer follows the heap (heap-align.c). setarch -R stays,
# for any other pointer order. Its own ccache folder and library folders (below, `heapalign` and
# the shim's sha256 in their keys), so nothing compiled without it is reused.
# The WebGPU variant's emdawnwebgpu package, in the chroot (below).
package="/src/emdawnwebgpu-${DAWN_COMMIT:0:12}"
in_chroot() { setarch "$(uname -m)" -R chroot "$root" env EM_COMPILER_WRAPPER=/src/cc-wrapper.sh CCACHE_DIR=/src/ccache-heapalign EMDAWNWEBGPU_DIR="$package" "$@"; }

# The toolchain: the Debian versions of emscripten and what it runs (recorded in the manifest; a
# build with others says so first, as its bytes may differ from the committed ones).
deps="$(chroot "$root" dpkg-query -W -f='${Depends}' emscripten | grep -o '\b\(clang\|lld\|llvm\)-[0-9]*\b' | sort -u)"
toolchain="$(chroot "$root" dpkg-query -W -f='${Package}=${Version}\n' emscripten binaryen $deps | sort | paste -sd' ')"
recorded="$(node -e 'try { const t = require(process.argv[1]).toolchain; console.log(Object.entries(t.debian ?? {}).map(([p, v]) => `${p}=${v}`).sort().join(" ")) } catch { console.log("") }' "$dest/manifest.json")"
[ "$toolchain" = "$recorded" ] || echo "build-engine: this toolchain ($toolchain) is not the manifest's (${recorded:-none}): the bytes may differ from the committed ones" >&2
echo "build-engine: $toolchain"

# The variants to build: all of VARIANTS, or those ENGINE_VARIANTS names.
declare -A flags_of=() base=()
names=()
mode_of() {
  case " $1 " in *" -sJSPI "*) echo webgpu; return ;; esac
  local mode=st
  case " $1 " in *" -sMEMORY64=1 "*) mode=m64 ;; esac
  case " $1 " in *" -pthread "*) mode="${mode/st/}-mt"; mode="${mode#-}" ;; esac
  echo "$mode"
}
for variant in "${VARIANTS[@]}"; do
  name="${variant%%:*}"; flags_of[$name]="${variant#*:}"; names+=("$name")
  mode="$(mode_of "${flags_of[$name]}")"; [ -n "${base[$mode]:-}" ] || base[$mode]="$name"
done
selected=(${ENGINE_VARIANTS:-${names[*]}})
for name in "${selected[@]}"; do
  [ -n "${flags_of[$name]+set}" ] || { echo "build-engine: no variant $name in engine-config.sh (${names[*]})" >&2; exit 1; }
done

# The source: llama.cpp's bundle in node-llama-cpp's tarball, checked against the manifest's pin.
tarball="$work/node-llama-cpp-$NODE_LLAMA_CPP_VERSION.tgz"
bundle="$work/package/llama/gitRelease.bundle"
[ -f "$tarball" ] || (cd "$work" && npm pack --silent "node-llama-cpp@$NODE_LLAMA_CPP_VERSION" >/dev/null)
echo "$NODE_LLAMA_CPP_TARBALL_SHA256  $tarball" | sha256sum -c --quiet
if ! echo "$LLAMA_CPP_BUNDLE_SHA256  $bundle" | sha256sum -c --quiet >/dev/null 2>&1; then
  rm -rf "$work/package"
  tar -xzf "$tarball" -C "$work" package/llama/gitRelease.bundle package/llama/llama.cpp.info.json
  echo "$LLAMA_CPP_BUNDLE_SHA256  $bundle" | sha256sum -c --quiet
fi
# Cloned once per bundle; the patches are applied again only when one changed, and a file that
# comes out as it was keeps its time, so make rebuilds only what the change touched.
tree="$work/llama.cpp"
patches_key="$(cat "$repo"/scripts/engine/patches/*.patch | key)"
source_key="$LLAMA_CPP_BUNDLE_SHA256 $patches_key"
if [ "$(cat "$tree.key" 2>/dev/null)" != "$source_key" ]; then
  rm -f "$tree.key"
  if [ "$(cat "$tree.bundle" 2>/dev/null)" != "$LLAMA_CPP_BUNDLE_SHA256" ]; then
    rm -rf "$tree" "$tree.bundle" && git clone -q "$bundle" "$tree" 2>/dev/null
    echo "$LLAMA_CPP_BUNDLE_SHA256" > "$tree.bundle"
  fi
  touched() { git -C "$tree" diff --name-only HEAD; git -C "$tree" ls-files --others --exclude-standard; }
  before="$work/llama.cpp.before" && rm -rf "$before" && mkdir -p "$before"
  touched | while read -r file; do
    [ ! -e "$tree/$file" ] || { mkdir -p "$before/$(dirname "$file")" && cp -p "$tree/$file" "$before/$file"; }
  done
  git -C "$tree" checkout -q -- . && git -C "$tree" clean -fdq
  for patch in "$repo"/scripts/engine/patches/*.patch; do git -C "$tree" apply "$patch"; done
  (cd "$before" && find . -type f) | while read -r file; do
    if cmp -s "$before/$file" "$tree/$file"; then touch -r "$before/$file" "$tree/$file"; fi
  done
  rm -rf "$before"
  echo "$source_key" > "$tree.key"
fi

# The WebGPU variant's binding: Dawn's emdawnwebgpu package, made once per chroot from
# INPAGE_DAWN_SRC (make-emdawnwebgpu.sh), and checked against the pin each time.
digest() { (cd "$1" && find . -type f -not -path './__pycache__/*' | LC_ALL=C sort | xargs -d '\n' sha256sum | sha256sum | cut -c1-64); }
for name in "${selected[@]}"; do
  [ "$(mode_of "${flags_of[$name]}")" = webgpu ] || continue
  if [ ! -f "$root$package/emdawnwebgpu.port.py" ]; then
    rm -rf "$root$package.new"
    bash "$repo/scripts/engine/make-emdawnwebgpu.sh" "$root$package.new"
    mv "$root$package.new" "$root$package"
  fi
  [ "$(digest "$root$package")" = "$DAWN_PACKAGE_SHA256" ] ||
    { echo "build-engine: $package is not the emdawnwebgpu package of engine-config.sh (remove it to make it again)" >&2; exit 1; }
  break
done

# The glue, copied where it changed (an unchanged file keeps its time: its object is kept).
glue="$work/glue"
mkdir -p "$glue"
(cd "$repo/native" && find . -type f) | while read -r file; do
  cmp -s "$repo/native/$file" "$glue/$file" || { mkdir -p "$glue/$(dirname "$file")" && cp "$repo/native/$file" "$glue/$file"; }
done
(cd "$glue" && find . -type f) | while read -r file; do [ -e "$repo/native/$file" ] || rm "$glue/$file"; done
for script in build-libs.sh link-engine.sh link-kernel-check.sh threads-post.js export-signatures.mjs cc-wrapper.sh; do
  cmp -s "$repo/scripts/engine/$script" "$work/$script" || cp "$repo/scripts/engine/$script" "$work/$script"
done
# The compiler's shim (heap-align.c), built with the chroot's clang for the chroot's own
# programs; -nostdlib: glibc's functions resolve in the compiler's process.
if ! cmp -s "$repo/scripts/engine/heap-align.c" "$work/heap-align.c" || [ ! -f "$work/heap-align.so" ]; then
  cp "$repo/scripts/engine/heap-align.c" "$work/heap-align.c"
  chroot "$root" "$(echo "$deps" | grep '^clang-')" -O2 -fPIC -shared -nostdlib -o /src/heap-align.so /src/heap-align.c
fi

# The libraries, one folder per variant, named by its key (the bundle, its flags, the toolchain):
# a variant's mode is whether its flags hold -pthread (every object of a shared-memory wasm is
# built with atomics) and -sMEMORY64=1 (wasm64 objects): the mode's first variant builds every
# library, the mode's others rebuild only ggml-cpu (the kernels) and link against its libraries.
# The WebGPU variant (-sJSPI) is a mode of its own: its ggml is built with GGML_USE_WEBGPU, and
# ggml-webgpu besides, against the package (its sha256 in the stamp).
# A folder whose stamp (its key, the patches, build-libs.sh) matches is not built again.
declare -A dir_of=() libs_key=()
libs() {
  local name="$1" targets="$2" flags="${flags_of[$1]}"
  local dir="/src/build/$name-$(echo "$LLAMA_CPP_BUNDLE_SHA256 $flags $toolchain heapalign $(key < "$repo/scripts/engine/heap-align.c")" | key)"
  local stamp="$patches_key $(key < "$repo/scripts/engine/build-libs.sh") $targets"
  [ "$(mode_of "$flags")" != webgpu ] || stamp="$stamp $DAWN_PACKAGE_SHA256"
  dir_of[$name]="$dir"; libs_key[$name]="$dir $stamp"
  [ "$(cat "$root$dir.key" 2>/dev/null)" = "$stamp" ] && return 0
  rm -f "$root$dir.key"
  echo "build-engine: libraries of $name ($targets)"
  in_chroot bash /src/build-libs.sh /src/llama.cpp "$dir" "$flags" "$targets"
  echo "$stamp" > "$root$dir.key"
}
for name in "${selected[@]}"; do
  mode="$(mode_of "${flags_of[$name]}")"; first="${base[$mode]}"
  targets="llama llama-common mtmd"
  [ "$mode" != webgpu ] || targets="$targets ggml-webgpu"
  [ -n "${dir_of[$first]:-}" ] || libs "$first" "$targets"
  [ "$name" = "$first" ] || libs "$name" ggml-cpu
done

# The links, as many at once as the machine has cores. Each variant is linked under one name in
# its own folder (the loader names its wasm, and must not differ), its glue's objects kept there;
# a link whose inputs (its libraries, its sources, its link scripts) are unchanged is not redone.
# The kernel check is a standalone wasm without shared memory: the single-threaded builds have it
# (the pthreads builds compile the same kernel sources, with atomics). It reads none of the
# engine's glue, so a glue change relinks the engine only (the engine's stamp also covers the
# kernel check's sources and script, as it did before the check had a stamp of its own).
glue_key="$(cd "$work" && find glue -type f | sort | xargs sha256sum | key)"
scripts_key="$(cd "$work" && cat link-engine.sh link-kernel-check.sh threads-post.js export-signatures.mjs | key)"
check_key="$(cd "$work" && { find glue/kernel-check -type f | sort | xargs sha256sum; cat link-kernel-check.sh; } | key)"
link() {
  local name="$1" flags="${flags_of[$1]}" mode first out
  mode="$(mode_of "$flags")"; first="${base[$mode]}"; out="/src/out/$name"
  local stamp="${libs_key[$first]} ${libs_key[$name]} $glue_key $scripts_key $flags"
  if [ "$(cat "$root$out.key" 2>/dev/null)" != "$stamp" ]; then
    rm -f "$root$out.key"
    mkdir -p "$root$out"
    in_chroot bash /src/link-engine.sh /src/llama.cpp "${dir_of[$first]}" "${dir_of[$name]}" /src/glue "$out/llama-engine" "$flags"
    echo "$stamp" > "$root$out.key"
  fi
  [ "$mode" = st ] || return 0
  local check_stamp="${libs_key[$first]} ${libs_key[$name]} $check_key $flags"
  [ "$(cat "$root$out.check-key" 2>/dev/null)" = "$check_stamp" ] && return 0
  rm -f "$root$out.check-key"
  mkdir -p "$root$out"
  in_chroot bash /src/link-kernel-check.sh /src/llama.cpp "${dir_of[$first]}" "${dir_of[$name]}" \
    /src/glue/kernel-check "$out/kernel-check.wasm" "$flags"
  echo "$check_stamp" > "$root$out.check-key"
}
rm -rf "$work/logs" && mkdir -p "$work/logs"
for name in "${selected[@]}"; do
  while [ "$(jobs -rp | wc -l)" -ge "$(nproc)" ]; do wait -n || true; done
  (link "$name" > "$work/logs/$name.log" 2>&1; touch "$work/logs/$name.ok") &
done
wait
for name in "${selected[@]}"; do
  [ -e "$work/logs/$name.ok" ] || { cat "$work/logs/$name.log" >&2; echo "build-engine: the $name link failed" >&2; exit 1; }
done

# One loader serves every variant of a mode (the same glue and exports): it must come out the same
# for each. llama-engine.mjs is the single-threaded wasm32 one, llama-engine-<mode>.mjs the others
# (mt: pthreads; m64: memory64; m64-mt: both; webgpu: the WebGPU one). Only the selected variants' files are written.
loader_of() { if [ "$1" = st ]; then echo llama-engine.mjs; else echo "llama-engine-$1.mjs"; fi; }
written=()
for name in "${selected[@]}"; do
  mode="$(mode_of "${flags_of[$name]}")"; loader="$(loader_of "$mode")"
  cp "$work/out/$name/llama-engine.wasm" "$dest/llama-engine-$name.wasm"; written+=("llama-engine-$name.wasm")
  if [ "$mode" = st ]; then cp "$work/out/$name/kernel-check.wasm" "$dest/kernel-check-$name.wasm"; written+=("kernel-check-$name.wasm"); fi
  if [[ " ${written[*]} " == *" $loader "* ]]; then
    cmp -s "$work/out/$name/llama-engine.mjs" "$dest/$loader" ||
      { echo "build-engine: the $name variant's loader differs from its mode's other variants'" >&2; exit 1; }
  else
    cp "$work/out/$name/llama-engine.mjs" "$dest/$loader"; written+=("$loader")
  fi
done
emcc="$(chroot "$root" emcc --version | head -n 1)"
node "$repo/scripts/engine/write-manifest.mjs" "$dest" "$emcc" "$toolchain" "$work/package/llama/llama.cpp.info.json" "${written[@]}"
echo "built ${written[*]}"
