#!/usr/bin/env bash
# Makes (once) the Debian sid chroot that holds Mesa's lavapipe: a software Vulkan driver with
# shaderFloat16 and 16-bit storage, on which Dawn offers WebGPU's `shader-f16` (bookworm's Mesa
# is too old for Dawn; SwiftShader has no f16). The stock WebGPU engine runs there in Node
# (lavapipe.sh beside it). Not a GPU: it checks the f16 shaders, not a GPU's speed.
#   usage: scripts/engine/webgpu/make-vulkan-chroot.sh [DIR]   (default $INPAGE_VULKAN_CHROOT or /var/cache/inpage-llm/sid-vulkan)
set -euo pipefail
dir="${1:-${INPAGE_VULKAN_CHROOT:-/var/cache/inpage-llm/sid-vulkan}}"
exec bash "$(dirname "$0")/../../chroot/make-sid-chroot.sh" "$dir" /usr/share/vulkan/icd.d/lvp_icd.json \
  mesa-vulkan-drivers libvulkan1 xz-utils
