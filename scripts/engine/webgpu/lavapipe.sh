#!/usr/bin/env bash
# The committed WebGPU engine, stock (its f16 shaders as shipped), in Node on Mesa's lavapipe: a
# software Vulkan driver on which Dawn offers `shader-f16`, in a sid chroot (bookworm's Mesa is
# too old for Dawn). The same packed check as a lent GPU's (pack-device.sh, node-engine.ts): each
# model's greedy answer from the `simd` engine, then the `webgpu` engine following its tokens.
# It checks the shaders' f16 arithmetic and the engine's plumbing on a conformant Vulkan driver;
# lavapipe runs on this machine's CPU, so its speed says nothing of a GPU's.
#   usage: scripts/engine/webgpu/lavapipe.sh [OUTDIR]   (default test-results/webgpu-lavapipe)
#   NODE_ENGINE_MODELS (inpage-test,small-q4_0,small-q8_0,inpage-test-vision), NODE_ENGINE_ENGINES
#   (simd,webgpu,webgpu@2: every layer on lavapipe, then the last layer and the output only, the
#   rest on the CPU in the same engine), NODE_ENGINE_BASELINES (wllama: wllama 3.13 on lavapipe too,
#   reported) and the other NODE_ENGINE_* of node-engine.ts pass through.
#   Linux, root; npm registry and Debian's apt.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../../.." && pwd)"
out="$(mkdir -p "${1:-$repo/test-results/webgpu-lavapipe}" && cd "${1:-$repo/test-results/webgpu-lavapipe}" && pwd)"
chroot_dir="$(bash "$here/make-vulkan-chroot.sh")"
bash "$here/pack-device.sh" "$repo/.device" >/dev/null
rm -rf "$chroot_dir/root/device" "$chroot_dir/root/out" && mkdir -p "$chroot_dir/root/out"
cp -r "$repo/.device" "$chroot_dir/root/device"
export NODE_ENGINE_MODELS="${NODE_ENGINE_MODELS:-inpage-test,small-q4_0,small-q8_0,inpage-test-vision}"
export NODE_ENGINE_ENGINES="${NODE_ENGINE_ENGINES:-simd,webgpu,webgpu@2}"
export NODE_ENGINE_BASELINES="${NODE_ENGINE_BASELINES-wllama}"
pass=()
for name in NODE_ENGINE_MODELS NODE_ENGINE_ENGINES NODE_ENGINE_BASELINES NODE_ENGINE_TOKENS NODE_ENGINE_PROMPT \
  NODE_ENGINE_TOLERANCE NODE_ENGINE_TIMEOUT_S; do
  [ -z "${!name+set}" ] || pass+=("$name=${!name}")
done
status=0
chroot "$chroot_dir" env -i PATH=/usr/bin:/bin HOME=/root OUT=/root/out "${pass[@]}" \
  NODE_ENGINE_VK=/usr/share/vulkan/icd.d/lvp_icd.json NODE_ENGINE_GPU_REQUIRED=1 \
  bash /root/device/run-node-engine.sh /root/device || status=$?
cp "$chroot_dir/root/out/node-engine.json" "$out/" 2>/dev/null || true
echo "lavapipe: $out/node-engine.json"
exit "$status"
