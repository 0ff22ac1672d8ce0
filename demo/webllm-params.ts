import type { BackendChoice, InpageOptions, WebLLMCacheBackend, WebLLMModelOptions } from '../src/index';

const BACKENDS: readonly BackendChoice[] = ['llamacpp', 'webllm', 'auto'];
const CACHES: readonly WebLLMCacheBackend[] = ['cache', 'indexeddb', 'opfs'];

/**
 * `?backend=webllm|auto|llamacpp`, `?fallback=<gguf url or inpage-test>`, `?cache=cache|indexeddb|opfs`.
 */
export function backendOptions(
  params: URLSearchParams,
): Pick<InpageOptions, 'backend' | 'fallbackModel' | 'webllmCache'> {
  const backend = BACKENDS.find((name) => name === params.get('backend'));
  const cache = CACHES.find((name) => name === params.get('cache'));
  const fallback = params.get('fallback');
  return {
    ...(backend ? { backend } : {}),
    ...(cache ? { webllmCache: cache } : {}),
    ...(fallback ? { fallbackModel: fallback } : {}),
  };
}

/**
 * A self-hosted WebLLM model from the query: `?model=<folder>&model_lib=<wasm>` (id: the
 * folder's name, or `?id=`), with an optional f32 build `?f32=<folder>&f32_lib=<wasm>`.
 */
export function webllmModel(params: URLSearchParams): WebLLMModelOptions | null {
  const url = params.get('model');
  const modelLib = params.get('model_lib');
  if (!url || !modelLib) return null;
  const id = params.get('id') ?? url.replace(/\/+$/, '').split('/').pop() ?? url;
  const f32 = params.get('f32');
  const f32Lib = params.get('f32_lib');
  return { id, url, modelLib, ...(f32 && f32Lib ? { f32: { url: f32, modelLib: f32Lib } } : {}) };
}
