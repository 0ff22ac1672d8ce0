/**
 * Which heap a model loads into: wasm32 (the default: faster), or memory64 where the model's
 * weights and its context's KV cache need more than wasm32's room for them (`MAX_MODEL_BYTES`:
 * 4 GiB less room for the compute buffers). A 3 GiB model with a long context is such a model:
 * its cache alone can be gigabytes. The cache is estimated from the GGUF's own numbers, as
 * native/attention.cpp does (its type too: F32 where that fits the budget and 3 GiB with the
 * weights, else llama.cpp's F16).
 */
import { archNumber, type Metadata } from './arch-metadata';
import { placeLayers } from './layer-placement';
import { MAX_MODEL_BYTES } from './memory-limit';
import { slidingCells, slidingLayers } from './sliding-window';

/** native/attention.cpp's `kMaxWeightsAndCache`: an F32 cache only where the weights and it stay within 3 GiB. */
const MAX_WEIGHTS_AND_F32_CACHE = 3 * 2 ** 30;

/** native/attention.cpp's micro-batch with an F32 cache, else the engine's batch (native/engine.h). */
const F32_MICRO_BATCH = 64;
const MICRO_BATCH = 512;
/** native/checkpoints.cpp: at most 8 context checkpoints a slot, 256 MiB in all; one larger is not saved. */
const CHECKPOINTS_PER_SLOT = 8;
const CHECKPOINT_BUDGET = 256 * 2 ** 20;

/** The cache's layout as the engine makes it: a cell's bytes in one layer, and its layers' cells. */
interface CacheShape {
  cell: number;
  layers: number;
  /** The sliding-window layers among them, and the cells each keeps in each slot's stream. */
  sliding: number;
  window: number;
}

function cacheShape(
  metadata: Metadata,
  modelBytes: number,
  contextLength: number,
  f32CacheMib: number,
  slots: number,
): CacheShape | null {
  const heads = archNumber(metadata, 'attention.head_count') ?? 0;
  if (heads <= 0) return null;
  const layers = archNumber(metadata, 'block_count') ?? 0;
  const kvHeads = archNumber(metadata, 'attention.head_count_kv') ?? heads;
  const key =
    archNumber(metadata, 'attention.key_length') ?? Math.floor((archNumber(metadata, 'embedding_length') ?? 0) / heads);
  const value = archNumber(metadata, 'attention.value_length') ?? key;
  const f32 = layers * contextLength * kvHeads * (key + value) * 4;
  const f32Fits = f32 <= f32CacheMib * 2 ** 20 && modelBytes + f32 <= MAX_WEIGHTS_AND_F32_CACHE;
  const perStream = Math.floor(contextLength / slots);
  return {
    cell: kvHeads * (key + value) * (f32Fits ? 4 : 2),
    layers,
    sliding: slidingLayers(metadata, layers),
    window: Math.min(perStream, slidingCells(metadata, perStream, f32Fits ? F32_MICRO_BATCH : MICRO_BATCH)),
  };
}

/**
 * What the engine's heap holds for the model's attention, for `contextLength` tokens over `slots`
 * sequences:
 * - `cache`, the KV cache: per layer and token, a key and a value of each KV head (their widths
 *   from the GGUF, else the embedding over the heads); a sliding-window layer only for its window
 *   and a micro-batch in each slot (sliding-window.ts). Its type is decided on the full-size
 *   cache, as native/attention.cpp decides it.
 * - `checkpoints`, the most a sliding-window model's context checkpoints may take
 *   (native/checkpoints.cpp), in the heap wherever its layers run: each a slot's sliding cells, as
 *   many as the budget holds, at most 8 a slot (one larger than the budget is never saved). 0
 *   without a window. (A recurrent state's checkpoints are its state's size, not estimated: small.)
 * Both 0 for a model without attention heads.
 */
export function attentionBytes(
  metadata: Metadata,
  modelBytes: number,
  contextLength: number,
  f32CacheMib: number,
  slots = 1,
): { cache: number; checkpoints: number } {
  const shape = cacheShape(metadata, modelBytes, contextLength, f32CacheMib, slots);
  if (!shape) return { cache: 0, checkpoints: 0 };
  const { cell, layers, sliding, window } = shape;
  const one = sliding * window * cell;
  return {
    cache: (layers - sliding) * contextLength * cell + sliding * window * slots * cell,
    checkpoints: one > 0 ? Math.min(CHECKPOINTS_PER_SLOT * slots, Math.floor(CHECKPOINT_BUDGET / one)) * one : 0,
  };
}

/** The KV cache's bytes (`attentionBytes`' `cache`). */
export const kvCacheBytes = (...args: Parameters<typeof attentionBytes>): number => attentionBytes(...args).cache;

/** The context checkpoints' most (`attentionBytes`' `checkpoints`). */
export const checkpointBytes = (...args: Parameters<typeof attentionBytes>): number =>
  attentionBytes(...args).checkpoints;

/** Whether a model of `modelBytes` with a cache of `cacheBytes` needs the memory64 heap. */
export const needsMemory64 = (modelBytes: number, cacheBytes: number): boolean =>
  modelBytes + cacheBytes > MAX_MODEL_BYTES;

/** The part of a model and its KV cache that stays in the engine's heap, and the largest tensor offloaded. */
export interface HostShare {
  weights: number;
  cache: number;
  largestOnGpu: number;
}

/**
 * What stays in the WebGPU engine's heap with `gpuLayers` of the model's layers on the GPU, as
 * llama.cpp places them (layer-placement.ts), each offloaded layer with its share of the KV cache
 * (`offload_kqv`). Weights on the GPU keep no copy in the heap (measured: docs/webgpu.md, "Host
 * memory with the weights on the device"), so a model larger than wasm32's heap can run on the GPU
 * in the wasm32 WebGPU build; llama.cpp's loader reads each of them through one heap buffer as
 * large as the largest (`read_buf`: no mmap under Emscripten), which is counted.
 */
export function hostShare(
  tensors: readonly { name: string; bytes: bigint }[],
  metadata: Metadata,
  gpuLayers: number,
  cacheBytes: number,
): HostShare {
  const layers = archNumber(metadata, 'block_count') ?? 0;
  const { cpuBytes, largestOnGpu, cpuLayers } = placeLayers(tensors, layers, gpuLayers);
  return {
    weights: cpuBytes + largestOnGpu,
    cache: layers > 0 ? (cacheBytes * cpuLayers) / layers : cacheBytes,
    largestOnGpu,
  };
}
