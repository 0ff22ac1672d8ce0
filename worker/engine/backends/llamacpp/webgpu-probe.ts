/**
 * Where this worker's GGUF models run (src/core/domain/accelerator.ts): what the browser offers
 * a WebGPU engine, asked once per worker (Chromium logs "No available adapters." for each ask
 * that finds none), and never where the page asked for the CPU (`gpuLayers: 0`).
 */
import {
  chooseAccelerator,
  fitGpuLimits,
  hadAdapter,
  type AcceleratorChoice,
  type GpuLayers,
  type WebGpuFacts,
} from '#core/domain/accelerator';
import { WEBGPU_ENGINE_BUILT } from '#core/domain/engine-build';
import { withTimeout } from '#core/util/with-timeout';
import { testPlaceOnGpu } from './test-memory';

/** True only in test builds (vite.config.ts). */
declare const __INPAGE_TEST_HOOKS__: boolean;

/** How long an adapter may take: past it, the model loads on the CPU (`no WebGPU adapter`). */
export const ADAPTER_TIMEOUT_MS = 3000;

let asked: Promise<WebGpuFacts> | undefined;

/**
 * Where a model with `gpuLayers` runs in this worker; on the CPU, without asking, where an
 * engine of the page's crashed on the GPU before (`gpuCrashed`).
 */
export async function chooseModelAccelerator(gpuLayers: GpuLayers, gpuCrashed = false): Promise<AcceleratorChoice> {
  if (gpuLayers === 0) return chooseAccelerator(0, NOTHING_ASKED);
  if (gpuCrashed) return { accelerator: 'cpu', reason: 'the WebGPU engine crashed' };
  if (__INPAGE_TEST_HOOKS__ && testPlaceOnGpu()) return { accelerator: 'webgpu' };
  asked ??= askWebGpu();
  return chooseAccelerator(gpuLayers, await asked);
}

/**
 * `choice` for a model whose largest tensor on the GPU is `largestTensorBytes` (the GGUF's tensor
 * table, placed as llama.cpp places it: layer-placement.ts): the CPU where that tensor is larger
 * than the adapter lets a buffer binding be.
 */
export async function fitModelToGpu(choice: AcceleratorChoice, largestTensorBytes: number): Promise<AcceleratorChoice> {
  if (choice.accelerator !== 'webgpu' || !asked) return choice;
  return fitGpuLimits(choice, largestTensorBytes, (await asked).limits);
}

/**
 * Says in the console why `model` runs on the CPU where the browser has a WebGPU adapter (the
 * card says it too: `accelerator_reason`); nothing where the page asked for the CPU or has no GPU.
 */
export function tellPlacement(model: string, choice: AcceleratorChoice): void {
  if (choice.accelerator === 'cpu' && hadAdapter(choice.reason))
    console.info(`[inpage-llm] '${model}' runs on the CPU although this browser has WebGPU: ${choice.reason}.`);
}

const NOTHING_ASKED: WebGpuFacts = {
  gpu: false,
  adapter: false,
  shaderF16: false,
  jspi: false,
  engine: false,
  limits: null,
};

async function askWebGpu(): Promise<WebGpuFacts> {
  const jspi = 'Suspending' in WebAssembly;
  const gpu = 'gpu' in navigator ? navigator.gpu : undefined;
  const facts = { ...NOTHING_ASKED, jspi, engine: WEBGPU_ENGINE_BUILT };
  if (!gpu) return facts;
  const adapter = await withTimeout(
    gpu.requestAdapter().catch(() => null),
    ADAPTER_TIMEOUT_MS,
    () => null,
  );
  return {
    ...facts,
    gpu: true,
    adapter: adapter !== null,
    shaderF16: adapter?.features.has('shader-f16') ?? false,
    limits: adapter ? { maxStorageBufferBindingSize: adapter.limits.maxStorageBufferBindingSize } : null,
  };
}
