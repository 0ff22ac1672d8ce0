/**
 * What the page runtime knows of one backend: which models it serves as a user names them, how
 * it turns one into a `ModelSpec`, which load errors make `auto` fall back to another backend,
 * and whether `/v1/models` lists its catalogue. One file per backend, one registry.
 */
import type { BackendName } from '../../core/domain/backend-name';
import type { ModelSpec } from '../../core/domain/model-spec';
import type { WebLLMCacheBackend } from '../../core/domain/webllm-source';

/** A self-hosted WebLLM model: a weights folder and its model library, URLs relative to the page or absolute. */
export interface WebLLMModelOptions {
  /** The id clients pass as `model`. */
  id: string;
  /** Folder with `mlc-chat-config.json`, the tokenizer, `tensor-cache.json` and its shards. */
  url: string;
  /** The model library (`.wasm`) compiled for this WebLLM version. */
  modelLib: string;
  /** WebGPU features the build needs (an f16 build needs `shader-f16` whether listed or not). */
  requiredFeatures?: string[];
  /** An f32 build (q4f32/q0f32), used when the GPU lacks `shader-f16` (the main build then counts as f16). */
  f32?: { url: string; modelLib: string };
  /** An embedding build (WebLLM's `ModelType.embedding`): it serves `/v1/embeddings` and generates nothing. */
  embedding?: boolean;
}

/** A model as a user names it: an id or URL, or a self-hosted WebLLM model. */
export type NamedModel = string | WebLLMModelOptions;

export interface PageBackend {
  readonly name: BackendName;
  /** Whether this backend serves `model` (a GGUF URL is llama.cpp's; a catalogue id is WebLLM's). */
  claims(model: NamedModel): boolean;
  /** The spec of a model this backend claims (URLs made absolute against `base`). */
  resolve(model: NamedModel, base: string, options: { cache?: WebLLMCacheBackend; hfEndpoint?: string }): ModelSpec;
  /** Whether a failed load means this backend cannot run here, so `auto` falls back. */
  fallsBackOn(error: unknown): boolean;
  /** Whether `/v1/models` lists what it could load (`status: 'available'`). */
  readonly offersCatalogue: boolean;
}
