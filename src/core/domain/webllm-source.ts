/** Where WebLLM keeps downloaded models (the storage backends WebLLM offers). */
export type WebLLMCacheBackend = 'cache' | 'indexeddb' | 'opfs';

/** One concrete WebLLM build of a model. */
export interface WebLLMVariant {
  /** WebLLM's model id: a `prebuiltAppConfig` entry, or the id of a self-hosted build. */
  id: string;
  /**
   * Self-hosted: the absolute URL of the weights folder (`mlc-chat-config.json`, tokenizer,
   * `tensor-cache.json` + shards). Absent: the catalogue entry `id` (its URLs).
   */
  url?: string;
  /** Self-hosted: absolute URL of the model library (`.wasm`). */
  modelLib?: string;
  /** WebGPU features the build needs (an `f16` build needs `shader-f16` even when not listed). */
  requiredFeatures?: string[];
  /** Self-hosted: an embedding build (WebLLM's `ModelType.embedding`); catalogue entries say it themselves. */
  embedding?: boolean;
}

/** A model for the `webllm` backend. */
export interface WebLLMSource {
  kind: 'webllm';
  /** In order of preference; the first the GPU can run is loaded (catalogue ids gain their f32 twin). */
  variants: WebLLMVariant[];
  /** Storage for downloaded files (default: the Cache API, as WebLLM). */
  cache?: WebLLMCacheBackend;
}

/** WebGPU failure codes (503): with `backend: 'auto'` the runtime falls back to llama.cpp on these. */
export const WEBGPU_ERROR_CODES: ReadonlySet<string> = new Set([
  'webgpu_unavailable',
  'shader_f16_unavailable',
  'webgpu_feature_unavailable',
  'webgpu_limits_too_low',
  'device_lost',
]);

/** Load failures whose own code a model's 503s carry (others answer `model_load_failed`). */
export const DISTINCT_LOAD_CODES: ReadonlySet<string> = new Set([
  ...WEBGPU_ERROR_CODES,
  'model_library_failed',
  'storage_quota_exceeded',
  'model_too_large',
]);
