#!/usr/bin/env bash
# Generates the emdawnwebgpu package (Dawn's WebGPU binding for Emscripten, which llama.cpp's
# ggml-webgpu is built against) from Dawn's own source at the pinned tag (engine-config.sh's
# DAWN_TAG, DAWN_COMMIT and DAWN_INPUTS_SHA256), as Dawn's CMake target
# emdawnwebgpu_pkg makes it (src/emdawnwebgpu/CMakeLists.txt), in the engine's chroot. Emscripten's
# remote port downloads a zip at build time instead; this needs no network.
#   usage: INPAGE_DAWN_SRC=DIR scripts/engine/make-emdawnwebgpu.sh OUT_DIR
# DIR is a git repository of google/dawn (bare or not) that has the tag DAWN_TAG, or a plain copy
# of Dawn's source at that tag. OUT_DIR must be new or empty. Prints the package's files and
# their sha256, and one sha256 of the whole package (engine-config.sh's DAWN_PACKAGE_SHA256: the
# WebGPU engine build checks it). build-engine.sh runs it for the `webgpu` variant. Linux, root (chroot).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"

source "$here/engine-config.sh"
# The generator's inputs, taken from Dawn at the tag (DAWN_INPUTS_SHA256: the sha256 of their
# `sha256sum` listing).
INPUTS=(generator src/dawn/dawn.json src/dawn/dawn_wire.json src/dawn/dawn_kotlin.json
  src/dawn/webgpu_kt_docs.json src/emdawnwebgpu third_party/emdawnwebgpu include/webgpu)

src="${INPAGE_DAWN_SRC:?set INPAGE_DAWN_SRC to a copy of Dawn at $DAWN_TAG (docs/webgpu.md)}"
out="${1:?usage: INPAGE_DAWN_SRC=DIR $0 OUT_DIR}"
[ -d "$src" ] || { echo "make-emdawnwebgpu: no folder $src" >&2; exit 1; }
if [ -e "$out" ] && [ -n "$(ls -A "$out")" ]; then echo "make-emdawnwebgpu: $out is not empty" >&2; exit 1; fi

# One digest for a folder: the sha256 of its files' sorted `sha256sum` listing (Python's bytecode
# cache, which Emscripten writes beside the port when it reads it, left out).
digest() { (cd "$1" && find . -type f -not -path './__pycache__/*' | LC_ALL=C sort | xargs -d '\n' sha256sum | sha256sum | cut -c1-64); }

root="$(bash "$here/make-chroot.sh")"
# Dawn's generator renders Jinja templates.
if ! chroot "$root" python3 -c 'import jinja2, markupsafe' 2>/dev/null; then
  chroot "$root" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
    python3-jinja2 python3-markupsafe >&2
fi
# A scratch folder in the chroot's /src/dawn (beside the Emscripten cache of step 3).
mkdir -p "$root/src/dawn"
work="$(mktemp -d "$root/src/dawn/work.XXXXXX")"
trap 'rm -rf "$work"' EXIT
w="/src/dawn/${work##*/}"   # the same folder, seen from inside the chroot
mkdir -p "$work/dawn" "$work/gen" "$work/pkg"

# 1. The inputs, from the tag (a git repository) or as they are (a plain copy).
if commit="$(git -C "$src" rev-parse -q --verify "refs/tags/$DAWN_TAG^{commit}" 2>/dev/null)"; then
  [ "$commit" = "$DAWN_COMMIT" ] || { echo "make-emdawnwebgpu: $DAWN_TAG is $commit in $src, not $DAWN_COMMIT" >&2; exit 1; }
  for p in "${INPUTS[@]}"; do   # one archive per folder, not the whole tree (a partial clone may lack blobs)
    if [ "$(git -C "$src" cat-file -t "$DAWN_TAG:$p")" = tree ]; then
      git -C "$src" archive --prefix="$p/" "$DAWN_TAG:$p" | tar -x -C "$work/dawn"
    else
      git -C "$src" archive --prefix="${p%/*}/" "$DAWN_TAG:${p%/*}" "${p##*/}" | tar -x -C "$work/dawn"
    fi
  done
else
  (cd "$src" && cp -r --parents -- "${INPUTS[@]}" "$work/dawn/")
fi
inputs="$(digest "$work/dawn")"
[ "$inputs" = "$DAWN_INPUTS_SHA256" ] || { echo "make-emdawnwebgpu: the inputs in $src are not Dawn's $DAWN_TAG (sha256 $inputs)" >&2; exit 1; }

# 2. Dawn's generator: the headers, then the JS helpers and struct_info_webgpu.json (arguments as
# generator/CMakeLists.txt's DawnJSONGenerator passes them).
for target in emdawnwebgpu_headers emdawnwebgpu_js; do
  chroot "$root" env PYTHONDONTWRITEBYTECODE=1 python3 "$w/dawn/generator/dawn_json_generator.py" \
    --template-dir "$w/dawn/generator/templates" --root-dir "$w/dawn" --output-dir "$w/gen" \
    --dawn-json "$w/dawn/src/dawn/dawn.json" --wire-json "$w/dawn/src/dawn/dawn_wire.json" \
    --kotlin-json "$w/dawn/src/dawn/dawn_kotlin.json" --targets "$target" \
    --webgpu-kt-docs "$w/dawn/src/dawn/webgpu_kt_docs.json"
done
gen="$w/gen/src/emdawnwebgpu"   # what it wrote (in the chroot; $root$gen here)

# 3. Emscripten's struct offsets for wasm32 and wasm64, joined by Dawn's snippets into one JS file.
# gen_struct_info.py compiles and runs a probe with emcc: its own Emscripten cache (/src/dawn/em-cache,
# ~2 min to fill on 2 busy cores, then kept) leaves the engine build's cache as it was.
for bits in 32 64; do
  wasm64=()
  [ "$bits" = 64 ] && wasm64=(--wasm64)
  chroot "$root" env EM_CACHE=/src/dawn/em-cache python3 /usr/share/emscripten/tools/gen_struct_info.py -q \
    "$gen/struct_info_webgpu.json" "-I=$gen/include" "${wasm64[@]}" "-o=$gen/webgpu_generated_struct_info$bits.json"
done
snippets="$w/dawn/src/emdawnwebgpu/snippets"
chroot "$root" python3 "$w/dawn/src/emdawnwebgpu/concat.py" "$gen/library_webgpu_generated_struct_info.js" \
  "$snippets/library_webgpu_struct_info_part1.txt" "$gen/webgpu_generated_struct_info32.json" \
  "$snippets/library_webgpu_struct_info_part2.txt" "$gen/webgpu_generated_struct_info64.json" \
  "$snippets/library_webgpu_struct_info_part3.txt"

# 4. The package, laid out as emdawnwebgpu_pkg's POST_BUILD copies it.
pkg="$work/pkg"
g="$root$gen"
cp -r "$work/dawn/third_party/emdawnwebgpu/pkg/." "$work/dawn/src/emdawnwebgpu/pkg/." "$pkg/"
mkdir -p "$pkg/webgpu/include/webgpu" "$pkg/webgpu_cpp/include/webgpu" "$pkg/webgpu_cpp/include/dawn"
cp "$work/dawn/include/webgpu/webgpu_enum_class_bitmasks.h" "$pkg/webgpu_cpp/include/webgpu/"
cp "$work/dawn/include/webgpu/webgpu_glfw.h" "$g/include/webgpu/webgpu.h" "$pkg/webgpu/include/webgpu/"
cp "$g/library_webgpu_enum_tables.js" "$g/library_webgpu_generated_struct_info.js" \
  "$g/library_webgpu_generated_sig_info.js" "$pkg/webgpu/src/"
cp "$g/include/webgpu/webgpu_cpp.h" "$g/include/webgpu/webgpu_cpp_chained_struct.h" "$pkg/webgpu_cpp/include/webgpu/"
cp "$g/include/dawn/webgpu_cpp_print.h" "$pkg/webgpu_cpp/include/dawn/"

mkdir -p "$out"
cp -r "$pkg/." "$out/"
echo "emdawnwebgpu $DAWN_TAG ($DAWN_COMMIT), inputs sha256 $inputs, in $out:"
(cd "$out" && find . -type f | LC_ALL=C sort | xargs -d '\n' sha256sum)
echo "package sha256 $(digest "$out")"
