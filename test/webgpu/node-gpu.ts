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

/**
 * Counts the bytes of the GPU buffers created on `gpu`'s devices (ggml-webgpu's weights, KV cache
 * and compute buffers, and its small parameter and staging buffers): how much of a model went to
 * the GPU. The count covers every device requested after the call; `take()` returns it and starts
 * again from 0.
 */
export function countGpuBuffers(gpu: GPU): { take: () => number } {
  let bytes = 0;
  const requestAdapter = gpu.requestAdapter.bind(gpu);
  gpu.requestAdapter = async (options) => {
    const adapter = await requestAdapter(options);
    if (!adapter) return adapter;
    const requestDevice = adapter.requestDevice.bind(adapter);
    adapter.requestDevice = async (descriptor) => {
      const device = await requestDevice(descriptor);
      const createBuffer = device.createBuffer.bind(device);
      device.createBuffer = (buffer) => {
        bytes += buffer.size;
        return createBuffer(buffer);
      };
      return device;
    };
    return adapter;
  };
  return {
    take: () => {
      const taken = bytes;
      bytes = 0;
      return taken;
    },
  };
}
