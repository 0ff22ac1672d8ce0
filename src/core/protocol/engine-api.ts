/**
 * The engine worker's API as the page calls it through comlink. Declared here, in the shared
 * core, so that the page depends on no engine internals; the engine host implements it.
 */
import type { BackendName } from '../domain/backend-name';
import type { EngineFile } from '../domain/engine-build';
import type { ModelCard } from '../domain/model-card';
import type { LoadProgress, ModelSpec } from '../domain/model-spec';
import type { DownloadSettings } from '../domain/downloads';
import type { ThreadCounts } from '../domain/threads';
import type { GpuLayers } from '../domain/accelerator';
import type { PromptCacheSettings } from '../domain/prompt-cache';
import type { InboxInfo, Job, SlotsByModel } from './protocol';
import type { ReasoningBudgetDefault } from '../domain/reasoning-budget';

/**
 * What the page sets in a new engine worker before its first load, as one record (each absent:
 * the worker's default; worker/engine/engine-settings.ts reads it).
 */
export interface EngineSettings {
  /** The llama.cpp engine's threads (src/core/domain/threads.ts). */
  threads?: ThreadCounts;
  /** The llama.cpp engine's slots (src/core/domain/slot-count.ts). */
  slots?: number;
  /** How many of a GGUF model's layers go to the GPU (src/core/domain/accelerator.ts). */
  gpuLayers?: GpuLayers;
  /**
   * An engine of this tab crashed while it ran a model on the GPU (`engine.crashed`'s `onGpu`):
   * GGUF models load on the CPU (`the WebGPU engine crashed`).
   */
  gpuCrashed?: boolean;
  /** How models are downloaded (src/core/domain/downloads.ts). */
  downloads?: DownloadSettings;
  /** The prompt cache across page loads (src/core/domain/prompt-cache.ts). */
  promptCache?: PromptCacheSettings;
  /** The reasoning budget of requests that set none (src/core/domain/reasoning-budget.ts). */
  reasoningBudget?: ReasoningBudgetDefault;
}

/** How one request ended, as the engine saw it. */
export interface RequestRecord {
  model: string;
  outcome: 'completed' | 'aborted' | 'failed';
  /** Why it was aborted (client cancel, SW silence, ...). */
  reason?: string;
  /** Prompt tokens of the prompts whose first choice ended (0 for a request aborted in its first choice). */
  promptTokens: number;
  /** Generated tokens, including those of a choice cut short by the abort. */
  completionTokens: number;
}

/** Where the prebuilt engine worker finds its large files (absolute URLs; an app's bundler renames them). */
export interface EngineAssets {
  /**
   * The llama.cpp engine's wasm builds and their loaders, by the name the package ships each under
   * (src/core/domain/engine-build.ts: SIMD128 or relaxed SIMD, pthreads, memory64; WebGPU).
   */
  llama: Record<EngineFile, string>;
  webllm: string;
}

export interface EngineApi {
  /** Sent first by the ES library: the prebuilt worker's wasm and WebLLM URLs (builds that bundle the worker ignore it). */
  useAssets(assets: EngineAssets): void;
  /** Sent first too, once: the engine-wide settings, for the models loaded after it. */
  useSettings(settings: EngineSettings): void;
  /** Loads `spec` (once; a second call waits for the first) and resolves with its card. */
  load(spec: ModelSpec, onProgress: (progress: LoadProgress) => void): Promise<ModelCard>;
  /** The models this engine knows, with their status. */
  models(): ModelCard[] | Promise<ModelCard[]>;
  /**
   * Queues `job` on its model's queue (FIFO, every kind together); its events (`JobEvents`)
   * go to `port`, and a cancel on `port`, or the keepalives on it stopping, stops only this job.
   */
  run(job: Job, port: MessagePort): void;
  /**
   * Takes `inbox` as a job inbox: it answers the page's protocol (`SwToPage`, each message with
   * its port) as the page would, with `page`'s key and standby list, and runs each `job` as
   * `run` does. The page hands the other end to the Service Worker.
   */
  openInbox(inbox: MessagePort, page: InboxInfo): void;
  /** The last requests' outcomes, newest last. */
  recent(): RequestRecord[] | Promise<RequestRecord[]>;
  /** Each loaded model's slots: their last generations and the engine's decodes (`GET /slots`, `/metrics`), by model id. */
  slotStates(): SlotsByModel | Promise<SlotsByModel>;
  /** Unloads every model. */
  dispose(): Promise<void>;
  /**
   * Takes the Web Lock `name` for the rest of the worker's life (resolves once held): the page
   * asks for the same lock, and gets it the moment the worker ends.
   */
  holdLife(name: string): Promise<void>;
  /** Answers at once (the page's keepalive: a worker that stops answering is hung). */
  ping(): boolean;
  /** Whether `spec`'s files are all cached (false where its backend does not cache). */
  isCached(spec: ModelSpec): Promise<boolean>;
  /** Deletes `spec`'s files from the browser's cache. */
  deleteCached(spec: ModelSpec): Promise<void>;
  /** Backends whose catalogues `/v1/models` lists. */
  offerCatalogue(backends: BackendName[]): void;
  /** What the offered backends could load here, minus what is loaded: `available` cards. */
  catalogue(): Promise<ModelCard[]>;
}
