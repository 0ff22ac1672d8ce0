/**
 * Resolves the runtime's model options to specs through the backend registry. With no backend
 * named, the model says which: a WebLLM catalogue id or a self-hosted WebLLM model runs on
 * `webllm`, anything else (`'inpage-test'`, a GGUF URL) on `llamacpp`. `llamacpp`: `'inpage-test'`
 * or a GGUF URL. `webllm`: a WebLLM catalogue id or a self-hosted model. `auto`: the WebLLM model
 * first, `fallbackModel` (default `'inpage-test'`) on llama.cpp when WebGPU cannot serve; a GGUF
 * model goes straight to llama.cpp.
 */
import { InvalidRequestError } from '../core/domain/errors';
import type { ModelSpec } from '../core/domain/model-spec';
import type { WebLLMCacheBackend } from '../core/domain/webllm-source';
import { INPAGE_TEST_MODEL_ID } from '../builtin-model/inpage-test-spec';
import type { NamedModel, PageBackend, WebLLMModelOptions } from './backends/page-backend';
import { PAGE_BACKENDS } from './backends/registry';

export { resolveWebLLM } from './backends/webllm';
export type { WebLLMModelOptions };

/** Which backend runs the model: `auto` tries WebLLM and falls back to llama.cpp when WebGPU cannot serve. */
export type BackendChoice = 'llamacpp' | 'webllm' | 'auto';

/** What the runtime loads: the model, and with `auto` the llama.cpp model to fall back to. */
export interface ResolvedModels {
  primary: ModelSpec;
  fallback: ModelSpec | null;
}

/** The backends a choice may load models on. */
export function backendsOf(choice: BackendChoice): PageBackend[] {
  return choice === 'auto' ? [PAGE_BACKENDS.webllm, PAGE_BACKENDS.llamacpp] : [PAGE_BACKENDS[choice]];
}

/** The backend named, else the one the model implies: `webllm` for a WebLLM model, else `llamacpp`. */
export function chooseBackend(model: NamedModel | ModelSpec | undefined, backend?: BackendChoice): BackendChoice {
  if (backend) return backend;
  if (model === undefined) return 'llamacpp';
  if (typeof model !== 'string' && 'source' in model) return model.backend;
  return PAGE_BACKENDS.webllm.claims(model) ? 'webllm' : 'llamacpp';
}

const nameOf = (model: NamedModel) => (typeof model === 'string' ? model : model.id);

/** `backend` undefined: chosen by `chooseBackend`. */
export function resolveModels(
  model: NamedModel | ModelSpec,
  backend: BackendChoice | undefined,
  base: string,
  options: { fallbackModel?: string; cache?: WebLLMCacheBackend; hfEndpoint?: string } = {},
): ResolvedModels {
  if (typeof model !== 'string' && 'source' in model) return { primary: model, fallback: null };
  const { llamacpp, webllm } = PAGE_BACKENDS;
  if (llamacpp.claims(model)) {
    if (backend === 'webllm')
      throw new InvalidRequestError(
        `'${nameOf(model)}' is a GGUF model: use backend 'llamacpp' or 'auto', or name no backend.`,
        'model',
        'model_not_found',
      );
    return { primary: llamacpp.resolve(model, base, options), fallback: null };
  }
  if (backend === 'llamacpp' && webllm.claims(model))
    throw new InvalidRequestError(
      `'${nameOf(model)}' is a WebLLM model and backend 'llamacpp' runs only 'inpage-test' and GGUF files: use backend 'webllm' or 'auto', or name no backend.`,
      'model',
      'model_not_found',
    );
  if (backend === undefined && !webllm.claims(model))
    throw new InvalidRequestError(
      `Unknown model '${nameOf(model)}': use '${INPAGE_TEST_MODEL_ID}', the URL of a .gguf file, or a WebLLM catalogue id (one newer than this package's WebLLM catalogue needs backend 'webllm').`,
      'model',
      'model_not_found',
    );
  if (backend === 'llamacpp') return { primary: llamacpp.resolve(model, base, options), fallback: null };
  const primary = webllm.resolve(model, base, options);
  return {
    primary,
    fallback:
      backend === 'auto' ? llamacpp.resolve(options.fallbackModel ?? INPAGE_TEST_MODEL_ID, base, options) : null,
  };
}
