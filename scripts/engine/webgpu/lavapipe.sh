#!/usr/bin/env bash
# The committed WebGPU engine, stock (its f16 shaders as shipped), in Node on Mesa's lavapipe: a
# software Vulkan driver on which Dawn offers `shader-f16`, in a sid chroot (bookworm's Mesa is
# too old for Dawn). The same packed check as a lent GPU's (pack-device.sh, node-engine.ts): each
# model's greedy answer from the `simd` engine, then the `webgpu` engine following its tokens.
# It checks the shaders' f16 arithmetic and the engine's plumbing on a conformant Vulkan driver;
# lavapipe runs on this machine's CPU, so its speed says nothing of a GPU's. It runs as on a lent
# GPU, through the device call's command in a throwaway overlay of the chroot.
#   usage: scripts/engine/webgpu/lavapipe.sh [OUTDIR]   (default test-results/webgpu-lavapipe)
#   NODE_ENGINE_MODELS (inpage-test,inpage-test-lora,small-q4_0,small-q8_0,inpage-test-vision), NODE_ENGINE_ENGINES
#   (simd,webgpu,webgpu@2: every layer on lavapipe, then the last layer and the output only, the
#   rest on the CPU in the same engine), NODE_ENGINE_BASELINES (a GPU host's default: wllama 3.13 on
#   lavapipe too, reported) and the other NODE_ENGINE_* of node-engine.ts pass through.
#   Linux, root; npm registry and Debian's apt.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../../.." && pwd)"
out="$(mkdir -p "${1:-$repo/test-results/webgpu-lavapipe}" && cd "${1:-$repo/test-results/webgpu-lavapipe}" && pwd)"
chroot_dir="$(bash "$here/make-vulkan-chroot.sh")"
bash "$here/pack-device.sh" "$repo/.device" >/dev/null
# A bare GPU host to throw away: an overlay of the chroot (it stays as made), where lavapipe stands
# in for NVIDIA's driver (its ICD file named and placed as a host may have NVIDIA's), so that the
# run takes the GPU host's own path in run-node-engine.sh: the loaders unpacked into /, the driver
# looked up, Dawn's NVIDIA f16 toggle, a GPU required, wllama beside the engines.
host="$(mktemp -d)"
cleanup() {
  umount -l "$host/root/proc" 2>/dev/null || true
  umount -l "$host/root" 2>/dev/null || true
  rm -rf --one-file-system "$host"
}
trap cleanup EXIT
mkdir -p "$host/upper" "$host/work" "$host/root"
mount -t overlay overlay -o "lowerdir=$chroot_dir,upperdir=$host/upper,workdir=$host/work" "$host/root"
mount -t proc proc "$host/root/proc"
cp "$host/root/usr/share/vulkan/icd.d/lvp_icd.json" "$host/root/usr/share/vulkan/icd.d/nvidia_icd.json"
mkdir -p "$host/root/repo" "$host/root/out" && cp -r "$repo/.device" "$host/root/repo/.device"
export NODE_ENGINE_MODELS="${NODE_ENGINE_MODELS:-inpage-test,inpage-test-lora,small-q4_0,small-q8_0,inpage-test-vision}"
export NODE_ENGINE_ENGINES="${NODE_ENGINE_ENGINES:-simd,webgpu,webgpu@2}"
pass=()
for name in NODE_ENGINE_MODELS NODE_ENGINE_ENGINES NODE_ENGINE_BASELINES NODE_ENGINE_TOKENS NODE_ENGINE_PROMPT \
  NODE_ENGINE_TOLERANCE NODE_ENGINE_TIMEOUT_S; do
  [ -z "${!name+set}" ] || pass+=("$name=${!name}")
done
status=0
# The device call's command, from the repository's root as the device tool runs it.
chroot "$host/root" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root OUT=/out "${pass[@]}" \
  bash -c 'cd /repo && bash .device/run-node-engine.sh .device' || status=$?
cp "$host/root/out/node-engine.json" "$out/" 2>/dev/null || true
echo "lavapipe: $out/node-engine.json"
exit "$status"
