/**
 * The engine-wide settings in this worker, as one record: what the page sent once before its
 * first load (`useSettings`, `EngineSettings` in src/core/protocol/engine-api.ts), each field
 * absent for its default. Read at each load, so a model loaded after the call takes them.
 */
import { DEFAULT_GPU_LAYERS, type GpuLayers } from '#core/domain/accelerator';
import { DEFAULT_CONNECTIONS } from '#core/domain/downloads';
import { DEFAULT_PROMPT_CACHE, type PromptCacheSettings } from '#core/domain/prompt-cache';
import { defaultThreads, type ThreadCounts } from '#core/domain/threads';
import type { EngineSettings } from '#core/protocol/engine-api';
import { NO_REASONING_BUDGET, type ReasoningBudgetDefault } from '#core/domain/reasoning-budget';

let requested: EngineSettings = {};

export function setEngineSettings(settings: EngineSettings): void {
  requested = settings;
}

export interface EngineThreads extends ThreadCounts {
  /** The pthreads build runs them (false: one thread, the single-threaded build). */
  pthreads: boolean;
}

/** Whether this worker has shared memory: a `crossOriginIsolated` page (COOP/COEP), where SharedArrayBuffer exists. */
export function hasSharedMemory(): boolean {
  return self.crossOriginIsolated && typeof SharedArrayBuffer === 'function';
}

/**
 * The llama.cpp engine's threads: the page's, or the default (src/core/domain/threads.ts), where
 * shared memory runs the pthreads build; one thread, in the single-threaded build, elsewhere.
 */
export function engineThreads(): EngineThreads {
  const want = requested.threads ?? defaultThreads(navigator.hardwareConcurrency || 1);
  if (Math.max(want.prefill, want.decode) <= 1 || !hasSharedMemory()) return { prefill: 1, decode: 1, pthreads: false };
  return { ...want, pthreads: true };
}

/** The llama.cpp engine's slots (src/core/domain/slot-count.ts): the page's, else one. */
export function engineSlots(): number {
  return requested.slots ?? 1;
}

/** How many of a GGUF model's layers go to the GPU (src/core/domain/accelerator.ts): the page's, else all. */
export function engineGpuLayers(): GpuLayers {
  return requested.gpuLayers ?? DEFAULT_GPU_LAYERS;
}

/** Whether an engine of the page's crashed while it ran a model on the GPU (src/core/domain/accelerator.ts). */
export function engineGpuCrashed(): boolean {
  return requested.gpuCrashed === true;
}

/** How many ranges of a model file are downloaded at once (src/core/domain/downloads.ts). */
export function downloadConnections(): number {
  return requested.downloads?.connections ?? DEFAULT_CONNECTIONS;
}

/** The reasoning budget of requests that set none (llama-server's `--reasoning-budget`): the page's, else none. */
export function engineReasoningBudget(): ReasoningBudgetDefault {
  return requested.reasoningBudget ?? NO_REASONING_BUDGET;
}

/** The prompt cache across page loads (src/core/domain/prompt-cache.ts). */
export function promptCacheSettings(): PromptCacheSettings {
  return requested.promptCache ?? DEFAULT_PROMPT_CACHE;
}
