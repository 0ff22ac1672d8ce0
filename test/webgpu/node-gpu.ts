/**
 * Gives Node the `navigator.gpu` a page has, from Dawn's Node binding (npm `webgpu`), with
 * WebGPU's constants (`GPUBufferUsage`, ...) as globals: what node-engine.ts and
 * backend-ops-node.ts run wasm built with emdawnwebgpu on. The instance is kept referenced from
 * the global scope: dawn.node crashes once it is collected. Dawn's toggles (e.g.
 * `enable-dawn-features=vulkan_enable_f16_on_nvidia`) come space-separated.
 */
import { create, globals } from 'webgpu';

export function installNodeGpu(toggles: string | undefined): GPU {
  const gpu = create((toggles ?? '').split(' ').filter(Boolean));
  Object.assign(globalThis, globals, { keptGpu: gpu });
  Object.defineProperty(globalThis.navigator, 'gpu', { value: gpu, configurable: true });
  return gpu;
}
