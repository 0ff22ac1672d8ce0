/** The page's side of the `webllm` backend: WebLLM catalogue ids and self-hosted WebLLM models. */
import { OpenAIError } from '../../core/domain/errors';
import type { ModelSpec } from '../../core/domain/model-spec';
import { WEBGPU_ERROR_CODES, type WebLLMCacheBackend, type WebLLMVariant } from '../../core/domain/webllm-source';
import type { PageBackend, WebLLMModelOptions } from './page-backend';
import { WEBLLM_CATALOGUE_IDS } from './webllm-catalogue-ids';

const CATALOGUE = new Set(WEBLLM_CATALOGUE_IDS);

/** Whether `model` is in the prebuilt catalogue of the WebLLM this package was built with. */
export const isWebLLMCatalogueId = (model: string): boolean => CATALOGUE.has(model);

const features = (model: WebLLMModelOptions) => {
  const required = [...(model.requiredFeatures ?? []), ...(model.f32 ? ['shader-f16'] : [])];
  return required.length > 0 ? { requiredFeatures: [...new Set(required)] } : {};
};

const kind = (model: WebLLMModelOptions) => (model.embedding ? { embedding: true } : {});

/** A WebLLM catalogue id or self-hosted model as a `webllm` spec (URLs made absolute against `base`). */
export function resolveWebLLM(model: string | WebLLMModelOptions, base: string, cache?: WebLLMCacheBackend): ModelSpec {
  const abs = (url: string) => new URL(url, base).href;
  const variants: WebLLMVariant[] =
    typeof model === 'string'
      ? [{ id: model }]
      : [
          { id: model.id, url: abs(model.url), modelLib: abs(model.modelLib), ...features(model), ...kind(model) },
          ...(model.f32
            ? [{ id: `${model.id}-f32`, url: abs(model.f32.url), modelLib: abs(model.f32.modelLib), ...kind(model) }]
            : []),
        ];
  return {
    id: typeof model === 'string' ? model : model.id,
    backend: 'webllm',
    source: { kind: 'webllm', variants, ...(cache ? { cache } : {}) },
  };
}

export const webllmBackend: PageBackend = {
  name: 'webllm',
  // A catalogue id (as of the WebLLM this package was built with) or a self-hosted model. With
  // backend 'webllm' any other id still goes to the engine, whose WebLLM has the last word.
  claims: (model) => typeof model !== 'string' || isWebLLMCatalogueId(model),
  resolve: (model, base, options) => resolveWebLLM(model, base, options.cache),
  // No WebGPU, no adapter, no shader-f16 build, limits too low, device lost: WebGPU cannot serve here.
  fallsBackOn: (error) => error instanceof OpenAIError && error.code !== null && WEBGPU_ERROR_CODES.has(error.code),
  offersCatalogue: true,
};
