#!/usr/bin/env bash
# Runs the packed WebGPU engine check (pack-device.sh) on a GPU host: unpacks the Vulkan loader and
# glvnd into /, Node, Dawn's Node binding and the engines into /tmp/node-engine, points Vulkan at
# NVIDIA's driver, then runs node-engine.mjs under a timeout. Its JSON goes to $OUT (or the unpacked folder).
#   bash .device/run-node-engine.sh [.device]
# NVIDIA's Vulkan driver hides shader-f16 unless Dawn is told otherwise (NODE_ENGINE_DAWN below).
# Here, without a GPU: NODE_ENGINE_VK=/usr/lib/chromium/vk_swiftshader_icd.json (SwiftShader,
# no shader-f16: the stock engine finds no device; ENGINE_EXTRA's f16-rewrite probe does).
set -uo pipefail
dir="$(cd "${1:-.device}" && pwd)"
P=/tmp/node-engine; rm -rf "$P"; mkdir -p "$P"
if [ -z "${NODE_ENGINE_VK:-}" ]; then
  # The GPU host (a bare machine, given back after the call): the loaders into / and ldconfig, as the
  # device tool's notes and ../shared/gpu-node do (measured on an H200), and NVIDIA's driver where
  # the host has it.
  for f in "$dir"/gl/*.deb; do dpkg -x "$f" /; done; ldconfig
  icd=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
  for c in "$icd" /usr/share/vulkan/icd.d/nvidia_icd.json /etc/vulkan/icd.d/nvidia_icd.json; do
    [ -f "$c" ] && { icd="$c"; break; }
  done
  export VK_DRIVER_FILES="$icd"
  export NODE_ENGINE_DAWN="${NODE_ENGINE_DAWN:-enable-dawn-features=vulkan_enable_f16_on_nvidia}"
  export NODE_ENGINE_GPU_REQUIRED="${NODE_ENGINE_GPU_REQUIRED:-1}"
  export NODE_ENGINE_BASELINES="${NODE_ENGINE_BASELINES-wllama}"
  nvidia-smi -L || true
  # The driver's library and what it cannot find (a missing library leaves Dawn without an adapter).
  lib="$(sed -n 's/.*"library_path": *"\([^"]*\)".*/\1/p' "$icd" 2>/dev/null)"
  case "$lib" in /*) ;; ?*) lib="$(ldconfig -p | awk -v l="$lib" '$1 == l { print $NF; exit }')" ;; esac
  echo "vulkan driver: $icd ($([ -f "$icd" ] || echo 'missing; ')library ${lib:-not found})"
  [ -z "$lib" ] || ! ldd "$lib" | grep 'not found' || echo "the driver misses the libraries above"
else
  # A rehearsal here (lavapipe's chroot, SwiftShader): the loaders beside the run, not into /.
  for f in "$dir"/gl/*.deb; do dpkg -x "$f" "$P/gl"; done
  export LD_LIBRARY_PATH="$P/gl/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
  export VK_DRIVER_FILES="$NODE_ENGINE_VK"
fi
export VK_ICD_FILENAMES="$VK_DRIVER_FILES" XDG_RUNTIME_DIR=/tmp
xz -dc "$dir/node.xz" > "$P/node" && chmod +x "$P/node"
tar xJf "$dir/webgpu.tar.xz" -C "$P" && tar xJf "$dir/engines.tar.xz" -C "$P"
cp "$dir/node-engine.mjs" "$P/"
cd "$P" && timeout "${NODE_ENGINE_TIMEOUT_S:-390}" ./node node-engine.mjs "$P"
rc=$?; echo "rc=$rc"; exit $rc
