#!/usr/bin/env bash
# Runs the packed WebGPU engine check (pack-device.sh) on a GPU host: unpacks Node, Dawn's Node
# binding, the engines and the Vulkan loader into /tmp/node-engine, points Vulkan at NVIDIA's driver,
# then runs node-engine.mjs under a timeout. Its JSON goes to $OUT (or the unpacked folder).
#   bash .device/run-node-engine.sh [.device]
# NVIDIA's Vulkan driver hides shader-f16 unless Dawn is told otherwise (NODE_ENGINE_DAWN below).
# Here, without a GPU: NODE_ENGINE_VK=/usr/lib/chromium/vk_swiftshader_icd.json (SwiftShader,
# no shader-f16: the stock engine finds no device; ENGINE_EXTRA's f16-rewrite probe does).
set -uo pipefail
dir="$(cd "${1:-.device}" && pwd)"
P=/tmp/node-engine; rm -rf "$P"; mkdir -p "$P"
for f in "$dir"/gl/*.deb; do dpkg -x "$f" "$P/gl"; done
export LD_LIBRARY_PATH="$P/gl/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
if [ -z "${NODE_ENGINE_VK:-}" ]; then
  export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
  export NODE_ENGINE_DAWN="${NODE_ENGINE_DAWN:-enable-dawn-features=vulkan_enable_f16_on_nvidia}"
  export NODE_ENGINE_GPU_REQUIRED="${NODE_ENGINE_GPU_REQUIRED:-1}"
  export NODE_ENGINE_BASELINES="${NODE_ENGINE_BASELINES-wllama}"
  nvidia-smi -L || true
else
  export VK_DRIVER_FILES="$NODE_ENGINE_VK"
fi
export VK_ICD_FILENAMES="$VK_DRIVER_FILES" XDG_RUNTIME_DIR=/tmp
xz -dc "$dir/node.xz" > "$P/node" && chmod +x "$P/node"
tar xJf "$dir/webgpu.tar.xz" -C "$P" && tar xJf "$dir/engines.tar.xz" -C "$P"
cp "$dir/node-engine.mjs" "$P/"
cd "$P" && timeout "${NODE_ENGINE_TIMEOUT_S:-480}" ./node node-engine.mjs "$P"
rc=$?; echo "rc=$rc"; exit $rc
