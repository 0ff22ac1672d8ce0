/** The page's side of the `llamacpp` backend: `'inpage-test'`, GGUF URLs and Hugging Face ids (`hf:`). */
import { InvalidRequestError } from '../../core/domain/errors';
import { INPAGE_TEST_MODEL_ID } from '../../builtin-model/inpage-test-spec';
import { resolveModel } from '../resolve-model';
import type { PageBackend } from './page-backend';

const isGguf = (model: string) =>
  model === INPAGE_TEST_MODEL_ID || model.startsWith('hf:') || /\.gguf(?:[?#].*)?$/.test(model);

export const llamacppBackend: PageBackend = {
  name: 'llamacpp',
  claims: (model) => typeof model === 'string' && isGguf(model),
  resolve(model, base, options) {
    if (typeof model !== 'string')
      throw new InvalidRequestError(
        "A self-hosted WebLLM model needs backend: 'webllm' or 'auto'.",
        'model',
        'model_not_found',
      );
    return resolveModel(model, base, options.hfEndpoint);
  },
  // The CPU backend has no other backend to fall back to.
  fallsBackOn: () => false,
  offersCatalogue: false,
};
