/** The page runtime's options and the interface of a running endpoint (`startInpage`). */
import type { RequestRecord } from '../core/protocol/engine-api';
import type { BackendName } from '../core/domain/backend-name';
import type { ModelCard } from '../core/domain/model-card';
import type { LoadProgress, ModelSpec } from '../core/domain/model-spec';
import type { LoraOption } from './lora-option';
import type { WebLLMCacheBackend } from '../core/domain/webllm-source';
import type { OpenAIError } from '../core/domain/errors';
import type { RouteTable } from '../core/route-table/route-table-schema';
import type { IsolationMode } from '../core/domain/isolation';
import type { PromptCacheOption } from '../core/domain/prompt-cache';
import type { ThreadsOption } from '../core/domain/threads';
import type { GpuLayers } from '../core/domain/accelerator';
import type { DownloadSettings } from '../core/domain/downloads';
import type { DirectEvent } from './direct-stream';
import type { BackendChoice, WebLLMModelOptions } from './resolve-backend';

export interface InpageOptions {
  /**
   * `'inpage-test'` (default), a GGUF URL (relative to the page), a WebLLM catalogue id, a
   * self-hosted WebLLM model, or a full `ModelSpec`. A model that cannot be resolved makes
   * `ready` reject (`startInpage` does not throw).
   */
  model?: string | ModelSpec | WebLLMModelOptions;
  /**
   * `llamacpp` (CPU), `webllm` (WebGPU), or `auto`: WebLLM, else llama.cpp with `fallbackModel`.
   * Default: the model's own, `webllm` for a WebLLM catalogue id or self-hosted WebLLM model and
   * `llamacpp` otherwise. Named, it wins: `llamacpp` with a WebLLM model is an error.
   */
  backend?: BackendChoice;
  /** With `backend: 'auto'`: the GGUF model (or `'inpage-test'`, the default) served when WebGPU cannot. */
  fallbackModel?: string;
  /** Where WebLLM keeps downloaded models: `cache` (Cache API, default), `indexeddb` or `opfs`. */
  webllmCache?: WebLLMCacheBackend;
  /** URL of the Service Worker script (default `/sw.js`: it must be served from this origin). */
  serviceWorkerUrl?: string;
  /** Registration scope; must cover the route prefix (default `/`). */
  scope?: string;
  /**
   * Where the endpoint answers (default `/v1`: `/v1/completions`, `/v1/models`). The Service
   * Worker learns it from its registration URL (`sw.js?prefix=...`).
   */
  routePrefix?: string;
  /**
   * When set, every `/v1` request this page's engine serves must carry
   * `Authorization: Bearer <apiKey>` (else 401). When not set, any key is accepted.
   */
  apiKey?: string;
  /** Upper bound for each start-up wait (SW activation, control), in ms (default 15000). */
  timeoutMs?: number;
  /**
   * Ask the Service Worker for its version on start and, when it is not the one this runtime
   * was built with, `console.warn` and `registration.update()` (default true).
   */
  checkServiceWorker?: boolean;
  /**
   * A route table: public model ids mapped to ordered targets, the in-page engine (`device`)
   * and remote OpenAI-compatible servers (`upstreams`), with fallback (docs/routes.md); or the
   * URL of its JSON. Validated at start: a bad table makes `ready` reject with a 400
   * `invalid_route_table`. Without one
   * every request stays on the device. With a target other than `device`, request data can
   * leave the device, and `ready` resolves even if the device model fails to load (`device`).
   */
  routes?: RouteTable | string;
  /**
   * Cross-origin isolation without server headers: the Service Worker serves this origin's
   * documents and workers with `Cross-Origin-Opener-Policy: same-origin` and
   * `Cross-Origin-Embedder-Policy: <isolate>`, so the page's next load is `crossOriginIsolated`
   * (the current one cannot become so). `credentialless` breaks fewer cross-origin embeds;
   * `require-corp` makes every cross-origin image, script and iframe send CORP or CORS. It is
   * the origin's setting (the SW's registration URL): every page should pass the same, and a
   * page started without it turns it off again. See docs/isolation.md.
   */
  isolate?: IsolationMode;
  /**
   * The llama.cpp engine's threads: `{ prefill, decode }` (llama.cpp's `-tb` and `-t`), each
   * 1-16, or a number N: N for prompts and for decoding. More than one runs the
   * pthreads build, which needs a `crossOriginIsolated` page (`isolate`, or COOP/COEP headers);
   * elsewhere the engine runs one thread. Default: half the logical cores, at most 8, for both
   * (docs/threads.md). A bad value makes `ready` reject with a 400.
   */
  threads?: ThreadsOption;
  /**
   * The llama.cpp engine's slots (llama-server's `--parallel`, 1 to 16; default 1): how many
   * requests to a model run at once, their tokens decoded together in one batch over one KV cache
   * of the model's context, which they share. Each slot drafts on its own where speculative
   * decoding is asked for (docs/slots.md); the prompt cache across page loads works per slot. A
   * bad value makes `ready` reject with a 400.
   */
  slots?: number;
  /**
   * How many of a GGUF model's layers run on the GPU (llama.cpp's `-ngl`): `'all'` (the default)
   * or a count; `0` keeps the model on the CPU. A model takes the GPU only where the browser has a
   * WebGPU adapter with `shader-f16` and JSPI; its card says where it runs (`accelerator`) and,
   * on the CPU, why (`accelerator_reason`; docs/webgpu.md). A bad value makes `ready` reject
   * with a 400.
   */
  gpuLayers?: GpuLayers;
  /**
   * A draft model for speculative decoding (llama-server's `--model-draft`): a smaller GGUF of
   * the model's vocabulary, named as `model` is, loaded beside it (llama.cpp, with the model's slots). The
   * model's requests draft with it unless they send `speculative.type` (`none` turns it off);
   * the output is the model's own, token for token (docs/speculative.md). A vocabulary that is
   * not the model's fails the load (503 `model_load_failed`).
   */
  draftModel?: string | ModelSpec;
  /**
   * A multimodal projector (llama-server's `--mmproj`): the GGUF, named as `model` is, that
   * lets a llama.cpp model read images or audio (docs/multimodal.md). Loaded with the model; a
   * projector made for another model fails the load (503 `model_load_failed`, naming both).
   * `/props` and the model's card say which modalities it takes.
   */
  mmproj?: string | ModelSpec;
  /**
   * LoRA adapters (llama-server's `--lora`, `--lora-scaled`): GGUF adapters made for the model,
   * each named as `model` is, alone (scale 1) or as `{ adapter, scale }`, loaded with it in this
   * order (an adapter's id is its place: docs/lora.md). Requests run at these scales unless they
   * send `lora: [{id, scale}]`; `POST /lora-adapters` changes them. An adapter made for another
   * model fails the load (503 `model_load_failed`, with llama.cpp's reason).
   */
  lora?: LoraOption[];
  /**
   * More names for the model (llama-server's `--alias a,b`): a request naming one is served by
   * it, answered under its id; `/v1/models` lists the id and these as its `aliases`. A name that
   * is not a non-empty string makes `ready` reject with a 400 naming `alias`.
   */
  alias?: string | string[];
  /**
   * The reasoning budget of chat requests that set none (llama-server's `--reasoning-budget` and
   * `--reasoning-budget-message`; llama.cpp models): a token count (-1, the default: none) or
   * `{ tokens, message }`. Past it the engine writes the message and `</think>`, and the answer
   * follows (docs/chat.md#reasoning-budget). A bad value makes `ready` reject with a 400.
   */
  reasoningBudget?: number | { tokens: number; message?: string };
  /**
   * How GGUF models are downloaded into the model store (docs/models.md): `connections`, 1-16
   * (default 4), is how many ranges of a file, or parts of a split model, are fetched at once
   * where the server takes ranges. A bad value makes `ready` reject with a 400.
   */
  downloads?: DownloadSettings;
  /**
   * The llama.cpp engine's prompt cache across page loads (docs/prompt-cache.md): after a
   * request it saves the context's KV state to this origin's storage, and a request on a later
   * load that starts with the same tokens (a system prompt, a conversation) restores it instead
   * of reading them again. Default on, at most 1,024 MiB, states unused for 7 days deleted;
   * `false` turns it off, `{ maxMiB, maxAgeDays }` sets the bounds. A request with
   * `cache_prompt: false` never reads or writes it. A bad value makes `ready` reject with a 400.
   */
  promptCache?: PromptCacheOption;
  /** Where `hf:` model ids are resolved: a Hugging Face mirror's root URL (default `https://huggingface.co/`). */
  hfEndpoint?: string;
  /**
   * Ask the browser once, at start, to keep this origin's storage (`navigator.storage.persist()`),
   * so stored models are not evicted under storage pressure. The browser may refuse (Chromium
   * grants it to sites the user engages with or installed); then the runtime warns once and
   * carries on. `inpage.models.usage()` says whether it is granted.
   */
  persist?: boolean;
}

/** One model in the model store (`inpage.models.list()`). */
export interface StoredModelInfo {
  /** Its id (`/v1/models`); a folder without a readable record has its folder name. */
  readonly id: string;
  /** What named it (its GGUF URL, or its `hf:` id with the endpoint); `''` when unknown. */
  readonly source: string;
  /** The bytes stored now (less than `totalBytes` while partial). */
  readonly bytes: number;
  /** The size of all its files, or null while a server has not said it. */
  readonly totalBytes: number | null;
  /** How many files it has (a split GGUF's parts; 0 when unknown). */
  readonly parts: number;
  /** Every file is stored whole (and verified, where a hash is known); false for a paused download. */
  readonly complete: boolean;
  /** Milliseconds since the epoch. */
  readonly lastUsed: number;
  readonly created: number;
}

/** The model store's share of this origin's storage (`inpage.models.usage()`). */
export interface StoredModelsUsage {
  /** Bytes the stored models hold. */
  readonly bytes: number;
  readonly models: number;
  /** What `navigator.storage.estimate()` says of the whole origin. */
  readonly estimate: { readonly usage?: number; readonly quota?: number };
  /** Whether the browser keeps this origin's storage under pressure (`persist` option). */
  readonly persisted: boolean;
}

/**
 * The GGUF models this origin keeps (the model store, in the origin private file system): read
 * and deleted from the page, with no engine, so it works in every tab and after a failed start.
 */
export interface ModelManager {
  /** The stored models, most recently used first; paused downloads included (`complete: false`). */
  list(): Promise<StoredModelInfo[]>;
  /**
   * Deletes the stored model with this id (or folder name); false when there is none. A model
   * the engine is downloading cannot be deleted: that rejects with a 503 `model_in_use`. A
   * running model keeps running; its next load downloads it again.
   */
  delete(id: string): Promise<boolean>;
  usage(): Promise<StoredModelsUsage>;
}

/** Where the in-page model stands: `failed` (with why) when it could not load. */
export interface DeviceState {
  readonly model: string;
  readonly status: 'loading' | 'ready' | 'failed';
  readonly error: OpenAIError | null;
}

/** A running in-page endpoint. */
export interface Inpage extends EventTarget {
  /** The id clients pass as `model` (with `auto`, the fallback's once it took over). */
  readonly model: string;
  /** The key requests must carry (`Authorization: Bearer`), or null when any key is accepted. */
  readonly apiKey: string | null;
  /**
   * `'leader'` when this tab runs the engine for `model`; `'follower'` when another tab of the
   * origin does (one engine per model, elected with Web Locks; every tab leads without them).
   * A follower is served through the Service Worker; its direct-engine calls (`stream`,
   * `recentRequests`, `load`, `isCached`, `deleteCached`) fail with a 503 `engine_in_other_tab`.
   * When the leader's tab closes, or goes into the back/forward cache, one follower becomes the
   * leader (a `leader` event); a tab restored from that cache follows.
   * When this tab's engine worker dies (a trap, out of memory, closed or killed), a `crash`
   * event (its `detail`: why) is followed by a new worker loading the same models (a `restart`
   * event), or, after 3 restarts within a minute that did not bring it back, or a failed reload,
   * an `error` event: the model is given up to the next tab in line, and this tab stands by for
   * it again after a back-off (5 s, doubling to 60 s), so a lone tab takes it back.
   */
  readonly role: 'leader' | 'follower';
  /** The in-page model's state; with a route table, `ready` resolves even when it failed. */
  readonly device: DeviceState;
  /** The backend serving `model` (settled once `ready` resolved). */
  readonly backend: BackendName;
  /** Whether the model's files (all of them) are in the browser's cache (WebLLM models). */
  isCached(model?: string | WebLLMModelOptions): Promise<boolean>;
  /** Deletes the model's files from the browser's cache (WebLLM models). */
  deleteCached(model?: string | WebLLMModelOptions): Promise<void>;
  /** The stored GGUF models of this origin: list, delete, storage used (in any tab, engine or not). */
  readonly models: ModelManager;
  /**
   * Resolves once `fetch('/v1/completions')` from this page is answered by the engine; with
   * `llamacpp` the model has then loaded and run one tiny evaluation (a model that loads but
   * crashes on first use rejects it with a 503 `model_load_failed`).
   */
  readonly ready: Promise<void>;
  /** Calls `listener` with each load progress report; returns an unsubscribe function. */
  onProgress(listener: (progress: LoadProgress) => void): () => void;
  /**
   * Runs a completion body on the engine directly (no HTTP, no Service Worker; same validation
   * and queue). Yields the engine's neutral events: pieces, choice ends, then one `generation.done` with the token counts.
   */
  stream(body: Record<string, unknown>): AsyncIterable<DirectEvent>;
  /** How the engine's last requests ended (newest last): outcome, abort reason, token counts. */
  recentRequests(): Promise<RequestRecord[]>;
  /**
   * Loads one more model into this page's engine (a WebLLM catalogue id, a self-hosted WebLLM
   * model, a GGUF URL, `'inpage-test'`, or a full `ModelSpec`, e.g. to set its `contextLength`),
   * with progress through `onProgress`; then it is served under its id beside the first one. `GET /v1/models` lists WebLLM's catalogue as `available`
   * when the runtime was started with `backend: 'webllm' | 'auto'` and WebGPU is there.
   */
  load(model: string | ModelSpec | WebLLMModelOptions): Promise<ModelCard>;
  /** Stops the engine and detaches from the Service Worker (which stays for other tabs). */
  dispose(): Promise<void>;
}
