#!/usr/bin/env bash
# llama.cpp's test-backend-ops with its f16 kept (WEBGPU_OPS_F16=native build-backend-ops.sh: the
# shaders and the device's shader-f16 as upstream has them), in Node on Mesa's lavapipe, which has
# shader-f16 (make-vulkan-chroot.sh): the F16 cases that the SwiftShader suite (npm run
# test:webgpu-ops, f16 rewritten as f32) must leave failing are counted here. TEST-ONLY.
# test/webgpu/backend-ops-node.ts runs each op in a child Node and judges it.
#   usage: scripts/engine/webgpu/lavapipe-ops.sh [OUTDIR]   (default test-results/webgpu-ops-f16)
#   WEBGPU_OPS, WEBGPU_OPS_PARAMS (backend-ops-cases.ts), WEBGPU_OPS_TIMEOUT_S pass through.
#   Needs the engine chroot's llama.cpp tree (npm run build:engine), as build-backend-ops.sh does;
#   Linux, root; npm registry and Debian's apt.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../../.." && pwd)"
out="$(mkdir -p "${1:-$repo/test-results/webgpu-ops-f16}" && cd "${1:-$repo/test-results/webgpu-ops-f16}" && pwd)"
WEBGPU_OPS_F16=native bash "$here/build-backend-ops.sh" "$out/dist" >&2
chroot_dir="$(bash "$here/make-vulkan-chroot.sh")"
bash "$here/pack-device.sh" "$repo/.device" >/dev/null   # Node 24 (JSPI) and Dawn's Node binding
(cd "$repo" && npx esbuild test/webgpu/backend-ops-node.ts --bundle --platform=node --format=esm \
  --external:webgpu --log-level=warning --outfile="$out/dist/backend-ops-node.mjs")
w="$chroot_dir/root/webgpu-ops"
rm -rf "$w" && mkdir -p "$w/out"
xz -dc "$repo/.device/node.xz" > "$w/node" && chmod +x "$w/node"
tar xJf "$repo/.device/webgpu.tar.xz" -C "$w"
cp "$out/dist/test-backend-ops.js" "$out/dist/test-backend-ops.wasm" "$out/dist/backend-ops-node.mjs" "$w/"
pass=()
for name in WEBGPU_OPS WEBGPU_OPS_PARAMS WEBGPU_OPS_TIMEOUT_S; do
  [ -z "${!name+set}" ] || pass+=("$name=${!name}")
done
status=0
chroot "$chroot_dir" env -i PATH=/usr/bin:/bin HOME=/root XDG_RUNTIME_DIR=/tmp OUT=/root/webgpu-ops/out \
  VK_DRIVER_FILES=/usr/share/vulkan/icd.d/lvp_icd.json VK_ICD_FILENAMES=/usr/share/vulkan/icd.d/lvp_icd.json \
  "${pass[@]}" /root/webgpu-ops/node /root/webgpu-ops/backend-ops-node.mjs /root/webgpu-ops || status=$?
cp "$w"/out/* "$out/" 2>/dev/null || true
echo "lavapipe-ops: $out/results.json"
exit "$status"
