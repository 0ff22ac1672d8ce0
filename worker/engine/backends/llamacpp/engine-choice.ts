/**
 * Which engine build a GGUF model loads, with which threads and how many GPU layers, from where
 * it runs (webgpu-probe.ts's choice) and whether its heap needs memory64 (heap-choice.ts).
 */
import { MAX_GPU_LAYERS, type AcceleratorChoice, type GpuLayers } from '#core/domain/accelerator';
import type { EngineBuild } from '#core/domain/engine-build';
import type { EngineThreads } from '../../engine-settings';

export interface EngineChoice {
  build: EngineBuild;
  threads: EngineThreads;
  /** llama.cpp's `n_gpu_layers` (`ip_load`): 0 in the CPU builds, which have no GPU. */
  gpuLayers: number;
}

export interface EngineNeeds {
  /** Where the model runs (chooseModelAccelerator). */
  placement: AcceleratorChoice;
  /** The page's `gpuLayers`. */
  gpuLayers: GpuLayers;
  /** The page's threads, and whether the pthreads build runs them. */
  threads: EngineThreads;
  /** The model and its KV cache need a memory64 heap on the CPU (heap-choice.ts): the CPU build's heap. */
  memory64: boolean;
  /** The browser validates relaxed SIMD. */
  relaxed: boolean;
  /**
   * Test builds only (`__inpageTestWebGpuBuild`, test-memory.ts): the WebGPU build whatever the
   * placement, so its JSPI exports and its loader run in the e2e tests on a machine whose WebGPU
   * cannot run it (no shader-f16: ggml-webgpu finds no device, and llama.cpp keeps every layer on
   * the CPU).
   */
  forceWebGpu?: boolean;
}

/** One CPU thread: the WebGPU build is single-threaded (the GPU does the products). */
const ONE_THREAD: EngineThreads = { prefill: 1, decode: 1, pthreads: false };

/**
 * The WebGPU build where the model runs on the GPU (or a test asks for it), with every layer
 * the page allows offloaded (`'all'`: more than any model has, which llama.cpp reads as all of
 * them); else the CPU build for the browser's SIMD, threads and heap. A GPU placement already
 * fits the wasm32 WebGPU build's heap (fitWasm32Heap, with what stays on the CPU); `memory64` is
 * the whole model's need on the CPU, for the build a failed GPU load falls back to, and keeps a
 * build a test forced on the CPU.
 */
export function chooseEngine(needs: EngineNeeds): EngineChoice {
  const webgpu = needs.placement.accelerator === 'webgpu' || (needs.forceWebGpu === true && !needs.memory64);
  if (webgpu) {
    const gpuLayers = needs.gpuLayers === 'all' ? MAX_GPU_LAYERS : needs.gpuLayers;
    return { build: { webgpu: true }, threads: ONE_THREAD, gpuLayers };
  }
  const { threads, relaxed, memory64 } = needs;
  return { build: { relaxed, pthreads: threads.pthreads, memory64 }, threads, gpuLayers: 0 };
}

/**
 * Where a model placed on the GPU runs once its engine loaded (`gpuDevices`: the GPU devices the
 * engine's llama.cpp has): where the WebGPU build got no device from the adapter, the CPU, for
 * `no WebGPU device` (the caller loads it again in the CPU build, whose threads and relaxed SIMD
 * run it faster than the WebGPU build's one thread); else null, the placement holds.
 */
export function placementAfterLoad(
  needs: EngineNeeds,
  choice: EngineChoice,
  gpuDevices: number,
): AcceleratorChoice | null {
  if (needs.placement.accelerator !== 'webgpu' || choice.build.webgpu !== true || gpuDevices > 0) return null;
  return { accelerator: 'cpu', reason: 'no WebGPU device' };
}

/**
 * Where a model placed on the GPU runs once starting the WebGPU build or loading the model in it
 * threw: the CPU, for `the WebGPU engine failed to load` (the caller loads it again in the CPU
 * build; an error of that load is the load's answer). Else null: the error is the load's answer
 * (a CPU build's, or a WebGPU build a test forced).
 */
export function placementAfterFailure(needs: EngineNeeds, choice: EngineChoice): AcceleratorChoice | null {
  if (needs.placement.accelerator !== 'webgpu' || choice.build.webgpu !== true) return null;
  return { accelerator: 'cpu', reason: 'the WebGPU engine failed to load' };
}
