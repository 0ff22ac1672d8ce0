import { InvalidRequestError } from '../core/errors';
import type { ModelSpec } from '../core/model-spec';
import type { WebLLMCacheBackend, WebLLMVariant } from '../core/webllm-source';
import { INPAGE_TEST_MODEL_ID } from '../test-model/inpage-test-spec';
import { resolveModel } from './resolve-model';

/** Which backend runs the model: `auto` tries WebLLM and falls back to llama.cpp when WebGPU cannot serve. */
export type BackendChoice = 'llamacpp' | 'webllm' | 'auto';

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
}

/** What the runtime loads: the model, and with `auto` the llama.cpp model to fall back to. */
export interface ResolvedModels {
  primary: ModelSpec;
  fallback: ModelSpec | null;
}

const features = (model: WebLLMModelOptions) => {
  const required = [...(model.requiredFeatures ?? []), ...(model.f32 ? ['shader-f16'] : [])];
  return required.length > 0 ? { requiredFeatures: [...new Set(required)] } : {};
};

const isGguf = (model: string) => model === INPAGE_TEST_MODEL_ID || /\.gguf(?:[?#].*)?$/.test(model);

/** A WebLLM catalogue id or self-hosted model as a `webllm` spec (URLs made absolute against `base`). */
export function resolveWebLLM(model: string | WebLLMModelOptions, base: string, cache?: WebLLMCacheBackend): ModelSpec {
  const abs = (url: string) => new URL(url, base).href;
  const variants: WebLLMVariant[] =
    typeof model === 'string'
      ? [{ id: model }]
      : [
          { id: model.id, url: abs(model.url), modelLib: abs(model.modelLib), ...features(model) },
          ...(model.f32 ? [{ id: `${model.id}-f32`, url: abs(model.f32.url), modelLib: abs(model.f32.modelLib) }] : []),
        ];
  return { id: typeof model === 'string' ? model : model.id, backend: 'webllm', source: { kind: 'webllm', variants, ...(cache ? { cache } : {}) } };
}

/**
 * Resolves the runtime's model options. `llamacpp` (default): `'inpage-test'` or a GGUF URL.
 * `webllm`: a WebLLM catalogue id (`prebuiltAppConfig`) or a self-hosted model. `auto`: the
 * WebLLM model first, `fallbackModel` (default `'inpage-test'`) on llama.cpp when WebGPU
 * cannot serve; a GGUF model goes straight to llama.cpp.
 */
export function resolveModels(
  model: string | ModelSpec | WebLLMModelOptions,
  backend: BackendChoice,
  base: string,
  options: { fallbackModel?: string; cache?: WebLLMCacheBackend } = {},
): ResolvedModels {
  if (typeof model !== 'string' && 'source' in model) return { primary: model, fallback: null };
  if (backend === 'llamacpp') {
    if (typeof model !== 'string') throw new InvalidRequestError("A self-hosted WebLLM model needs backend: 'webllm' or 'auto'.", 'model', 'model_not_found');
    return { primary: resolveModel(model, base), fallback: null };
  }
  if (typeof model === 'string' && isGguf(model)) {
    if (backend === 'webllm') throw new InvalidRequestError(`'${model}' is a GGUF model: use backend 'llamacpp' or 'auto'.`, 'model', 'model_not_found');
    return { primary: resolveModel(model, base), fallback: null };
  }
  const primary = resolveWebLLM(model, base, options.cache);
  return { primary, fallback: backend === 'auto' ? resolveModel(options.fallbackModel ?? INPAGE_TEST_MODEL_ID, base) : null };
}
