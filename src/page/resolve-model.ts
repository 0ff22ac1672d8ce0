import { InvalidRequestError } from '../core/domain/errors';
import type { ModelSpec } from '../core/domain/model-spec';
import { INPAGE_TEST_MODEL_ID } from '../builtin-model/inpage-test-spec';
import { hfModelId, parseHfId } from '../core/domain/hf-id';

/** Where `hf:` ids are resolved unless `hfEndpoint` names a mirror. */
export const HF_ENDPOINT = 'https://huggingface.co/';

/** The built-in generated test model: no download, works offline. */
export const INPAGE_TEST_MODEL: ModelSpec = {
  id: INPAGE_TEST_MODEL_ID,
  backend: 'llamacpp',
  source: { kind: 'builtin' },
};

/**
 * Turns what a user names (`'inpage-test'`, a GGUF URL, relative or absolute, or a full spec)
 * into a `ModelSpec`. A GGUF URL gets its file name (without `.gguf`) as model id; a Hugging
 * Face id (`hf:owner/repo:Q4_K_M`) is resolved by the engine, against `hfEndpoint`.
 */
export function resolveModel(model: string | ModelSpec, base: string, hfEndpoint = HF_ENDPOINT): ModelSpec {
  if (typeof model !== 'string') return model;
  if (model === INPAGE_TEST_MODEL_ID) return INPAGE_TEST_MODEL;
  const hf = parseHfId(model);
  if (hf) {
    const endpoint = parseUrl(hfEndpoint, base);
    if (!endpoint || !/^https?:$/.test(endpoint.protocol))
      throw new InvalidRequestError(
        `'hfEndpoint' must be an http(s) URL, got '${hfEndpoint}'.`,
        'hfEndpoint',
        'invalid_value',
      );
    const root = endpoint.href.endsWith('/') ? endpoint.href : `${endpoint.href}/`;
    return { id: hfModelId(hf), backend: 'llamacpp', source: { kind: 'hf', ...hf, endpoint: root } };
  }
  const url = parseUrl(model, base);
  if (!url?.pathname.endsWith('.gguf')) {
    throw new InvalidRequestError(
      `Unknown model '${model}': use '${INPAGE_TEST_MODEL_ID}' or the URL of a .gguf file.`,
      'model',
      'model_not_found',
    );
  }
  const file = url.pathname.split('/').pop() ?? model;
  return {
    id: decodeURIComponent(file).replace(/\.gguf$/, ''),
    backend: 'llamacpp',
    source: { kind: 'url', url: url.href },
  };
}

function parseUrl(value: string, base: string): URL | null {
  try {
    return new URL(value, base);
  } catch {
    return null;
  }
}
