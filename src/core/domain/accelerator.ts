/**
 * Where a model's layers run (issue 36): on the GPU through WebGPU, or on the CPU. A page asks
 * with `startInpage({ gpuLayers })`, the drop-in's `data-gpu-layers`, the playground's
 * `&gpu_layers=` (llama.cpp's `-ngl`: `'all'` by default, `0` for the CPU). A GGUF model takes
 * the GPU only where the browser has all a WebGPU engine needs; its card says where it runs
 * (`accelerator`) and, on the CPU, why (`accelerator_reason`). docs/webgpu.md.
 */
import { InvalidRequestError } from './errors';

/** What a model runs on: WebLLM always on `webgpu`; a GGUF model on `webgpu` where it can, else `cpu`. */
export type Accelerator = 'webgpu' | 'cpu';

/** How many of a GGUF model's layers go to the GPU (llama.cpp's `n_gpu_layers`): a count, or all. */
export type GpuLayers = number | 'all';

/** llama.cpp's default: every layer the GPU takes. */
export const DEFAULT_GPU_LAYERS: GpuLayers = 'all';

/** More layers than any model has (a count above a model's layers means all of them, as in llama.cpp). */
export const MAX_GPU_LAYERS = 10_000;

/**
 * Why a GGUF model runs on the CPU, in the first of these that holds:
 * - `gpu_layers is 0`: the page asked for the CPU;
 * - `the WebGPU engine crashed`: an engine of this tab crashed (a trap or an `abort()` in its
 *   wasm: ggml-webgpu aborts when its device is lost) while it ran a model on the GPU; the
 *   engines started after it keep every model on the CPU (nothing is probed);
 * - `no WebGPU`: the browser has no `navigator.gpu` in the engine's worker;
 * - `no WebGPU adapter`: it has, but gives no adapter (none, blocklisted, or no answer in time);
 * - `no shader-f16`: the adapter lacks the feature llama.cpp's WebGPU shaders need (SwiftShader);
 * - `no JSPI`: the browser cannot suspend wasm on a promise, which the WebGPU engine waits with;
 * - `no WebGPU engine build`: all of the above are there, and this build of the library has no
 *   WebGPU engine yet;
 * - `a tensor past maxStorageBufferBindingSize`: all is there, but one of the model's tensors is
 *   larger than the adapter lets one buffer binding be (`fitGpuLimits`);
 * - `a heap past 4 GiB`: all is there, but what stays on the CPU (the input layer, the layers
 *   not offloaded, their KV cache) needs the memory64 build, and the WebGPU build is wasm32
 *   (`fitWasm32Heap`);
 * - `no WebGPU device`: the model was placed on the GPU, and the WebGPU engine then got no device
 *   from the adapter (llama.cpp's ggml-webgpu registered none): it loads again on the CPU;
 * - `the WebGPU engine failed to load`: the model was placed on the GPU, and starting the WebGPU
 *   engine or loading the model in it threw (its files missing, a trap or an `abort()` in the wasm:
 *   ggml-webgpu aborts on a device error, a failed pipeline or a wait that fails): it loads again
 *   on the CPU.
 */
export type AcceleratorReason =
  | 'gpu_layers is 0'
  | 'the WebGPU engine crashed'
  | 'no WebGPU'
  | 'no WebGPU adapter'
  | 'no shader-f16'
  | 'no JSPI'
  | 'no WebGPU engine build'
  | 'a tensor past maxStorageBufferBindingSize'
  | 'a heap past 4 GiB'
  | 'no WebGPU device'
  | 'the WebGPU engine failed to load';

/** Where a model runs, and why not on the GPU where it does not. */
export type AcceleratorChoice = { accelerator: 'webgpu' } | { accelerator: 'cpu'; reason: AcceleratorReason };

/** What the engine's worker found (worker/engine/backends/llamacpp/webgpu-probe.ts). */
export interface WebGpuFacts {
  /** `navigator.gpu` exists. */
  gpu: boolean;
  /** `requestAdapter()` gave an adapter in time. */
  adapter: boolean;
  /** The adapter has `shader-f16`. */
  shaderF16: boolean;
  /** `WebAssembly.Suspending` exists (JSPI). */
  jspi: boolean;
  /** This library ships a WebGPU engine. */
  engine: boolean;
  /** The adapter's limits (null without an adapter). */
  limits: GpuLimits | null;
}

/** The adapter's limits a model's tensors must fit (ggml-webgpu asks its device for the adapter's own). */
export interface GpuLimits {
  /** The most bytes one storage buffer binding may hold: ggml-webgpu's largest buffer. */
  maxStorageBufferBindingSize: number;
}

/** Where a GGUF model with `gpuLayers` runs, given `facts` (pure; unit-tested). */
export function chooseAccelerator(gpuLayers: GpuLayers, facts: WebGpuFacts): AcceleratorChoice {
  const cpu = (reason: AcceleratorReason): AcceleratorChoice => ({ accelerator: 'cpu', reason });
  if (gpuLayers === 0) return cpu('gpu_layers is 0');
  if (!facts.gpu) return cpu('no WebGPU');
  if (!facts.adapter) return cpu('no WebGPU adapter');
  if (!facts.shaderF16) return cpu('no shader-f16');
  if (!facts.jspi) return cpu('no JSPI');
  if (!facts.engine) return cpu('no WebGPU engine build');
  return { accelerator: 'webgpu' };
}

/** The reasons given only where the browser had a WebGPU adapter (past `chooseAccelerator`'s adapter check, or a crash on it). */
const AFTER_THE_ADAPTER: ReadonlySet<AcceleratorReason> = new Set([
  'the WebGPU engine crashed',
  'no shader-f16',
  'no JSPI',
  'no WebGPU engine build',
  'a tensor past maxStorageBufferBindingSize',
  'a heap past 4 GiB',
  'no WebGPU device',
  'the WebGPU engine failed to load',
]);

/** Whether a model on the CPU for `reason` ran where the browser has a WebGPU adapter. */
export const hadAdapter = (reason: AcceleratorReason): boolean => AFTER_THE_ADAPTER.has(reason);

/**
 * `choice`, once the model's tensors are known: a model placed on the GPU whose largest tensor
 * there (`largestTensorBytes`: the input layer's stays on the CPU) is larger than the adapter's
 * `maxStorageBufferBindingSize` runs on the
 * CPU. ggml-webgpu's buffers are each at most one binding (its buffer type's largest size), so
 * llama.cpp could not place that tensor on the GPU, and the load would fail (pure; unit-tested).
 */
export function fitGpuLimits(
  choice: AcceleratorChoice,
  largestTensorBytes: number,
  limits: GpuLimits | null,
): AcceleratorChoice {
  if (choice.accelerator !== 'webgpu' || limits === null) return choice;
  if (largestTensorBytes > limits.maxStorageBufferBindingSize)
    return { accelerator: 'cpu', reason: 'a tensor past maxStorageBufferBindingSize' };
  return choice;
}

/**
 * `choice`, once the model's heap is known: a model placed on the GPU whose share on the CPU
 * needs the memory64 build (`hostMemory64`: heap-choice.ts's `hostShare` past wasm32's heap) runs
 * on the CPU, in that build, since the WebGPU build is wasm32 (pure; unit-tested). Without this
 * its card would say `webgpu` while the CPU build ran it.
 */
export function fitWasm32Heap(choice: AcceleratorChoice, hostMemory64: boolean): AcceleratorChoice {
  if (choice.accelerator !== 'webgpu' || !hostMemory64) return choice;
  return { accelerator: 'cpu', reason: 'a heap past 4 GiB' };
}

function invalid(field: string, shown: string): InvalidRequestError {
  return new InvalidRequestError(
    `${field}: ${shown} is not a layer count: use 'all', or an integer from 0 (the CPU) to ${MAX_GPU_LAYERS}.`,
    field,
  );
}

/** `value` as GPU layers; throws a 400 naming `field` for anything else. */
export function readGpuLayers(value: unknown, field: string): GpuLayers {
  if (value === 'all') return value;
  if (typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= MAX_GPU_LAYERS) return value;
  throw invalid(field, JSON.stringify(value));
}

/** `&gpu_layers=` and `data-gpu-layers`: `all` or a decimal count. */
export function parseGpuLayers(text: string, field: string): GpuLayers {
  const trimmed = text.trim().toLowerCase();
  if (trimmed === 'all') return 'all';
  if (/^\d+$/.test(trimmed)) return readGpuLayers(Number(trimmed), field);
  throw invalid(field, `"${text}"`);
}
