import type { BackendName } from './backend-name';
import type { WebLLMSource } from './webllm-source';

/** Where a model's weights come from. */
export type ModelSource =
  /** Generated in memory (the built-in `inpage-test` model): no download, works offline. */
  | { kind: 'builtin' }
  /** A GGUF file by absolute URL (for a split model, the first shard: `-00001-of-0000N.gguf`). */
  | { kind: 'url'; url: string; /** The file's sha256 (hex), checked before it is used. */ sha256?: string }
  /** A GGUF on Hugging Face (or a mirror), resolved as llama.cpp's `-hf` resolves it (src/core/domain/hf-id.ts). */
  | { kind: 'hf'; repo: string; quant?: string; file?: string; endpoint: string }
  /** A WebLLM model (`webllm` backend): its variants in order of preference (see `webllm-source.ts`). */
  | WebLLMSource;

/** What the engine needs to load one model. */
export interface ModelSpec {
  id: string;
  backend: BackendName;
  source: ModelSource;
  /** Context size to allocate (tokens); the backend picks a default when absent. */
  contextLength?: number;
  /**
   * A draft model for speculative decoding (llama-server's `--model-draft`; llamacpp, one slot):
   * a smaller GGUF of the same vocabulary, loaded with the model. Its requests then draft with it
   * unless they ask otherwise (`speculative.type`).
   */
  draft?: DraftModelSpec;
  /**
   * A multimodal projector (llama.cpp's mtmd, llama-server's `--mmproj`; llamacpp): the GGUF that
   * turns images or audio into the model's embeddings, loaded with the model.
   */
  mmproj?: ProjectorSpec;
  /**
   * LoRA adapters (llama-server's `--lora`, `--lora-scaled`; llamacpp): GGUF adapters made for
   * this model, loaded with it in this order (an adapter's id is its place), each at its `scale`
   * until `POST /lora-adapters` changes it (0: loaded, off: `--lora-init-without-apply`).
   */
  lora?: LoraAdapterSpec[];
  /**
   * More names a request may give the model (llama-server's `--alias`): it is served, listed
   * and answered under its `id`, and its card lists the id and these as `aliases`.
   */
  aliases?: string[];
}

/** A model's LoRA adapter: its id (for progress and errors), where its GGUF comes from, and its scale. */
export interface LoraAdapterSpec {
  id: string;
  source: ModelSource;
  scale: number;
}

/** A model's draft model: its id (for progress and errors) and where its GGUF comes from. */
export interface DraftModelSpec {
  id: string;
  source: ModelSource;
}

/** A model's projector: its id (for progress and errors) and where its GGUF comes from. */
export interface ProjectorSpec {
  id: string;
  source: ModelSource;
}

/** Load progress, reported as phase + fraction (+ bytes where known). */
export interface LoadProgress {
  model: string;
  /** `verify`: the stored file is checked against its publisher's sha256. `failed`: the model could not load (reported when a route table sends its requests elsewhere; `error` says why). */
  phase: 'download' | 'verify' | 'load' | 'ready' | 'failed';
  /**
   * 0..1 within the phase, never lower than an earlier fraction of the same phase; null while
   * how far the phase has come is not known (indeterminate: its total size is not known yet, or
   * the backend began another step of it).
   */
  fraction: number | null;
  /** Why the model failed to load (`phase: 'failed'`). */
  error?: string;
  loadedBytes?: number;
  totalBytes?: number;
  /** The file this report is about (absolute URL), where the backend reports per file. */
  file?: string;
  /** The file came from the browser's cache, not the network. */
  cached?: boolean;
  /** The backend's own words for this step (WebLLM's progress text). */
  text?: string;
}
