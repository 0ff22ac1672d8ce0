/**
 * `startInpage({ mmproj })`: the model's multimodal projector (llama-server's `--mmproj`), named
 * as a model is (a GGUF URL, relative or absolute, an `hf:` id or a full spec). It rides on the
 * model's spec (`mmproj`), so a reload or a restart loads it again with the model. A llama.cpp
 * model only: anything else is a 400 naming `mmproj`.
 */
import { InvalidRequestError } from '../core/domain/errors';
import type { ModelSpec } from '../core/domain/model-spec';
import { resolveModel } from './resolve-model';

export function withProjector(
  model: ModelSpec,
  mmproj: string | ModelSpec,
  base: string,
  hfEndpoint?: string,
): ModelSpec {
  const refuse = (why: string) => new InvalidRequestError(`'mmproj' ${why}.`, 'mmproj', 'invalid_value');
  if (model.backend !== 'llamacpp') throw refuse(`needs a llama.cpp model, and '${model.id}' runs on ${model.backend}`);
  const projector = resolveModel(mmproj, base, hfEndpoint);
  if (projector.backend !== 'llamacpp' || projector.source.kind === 'builtin')
    throw refuse(`must be a GGUF file, and '${projector.id}' is not one`);
  return { ...model, mmproj: { id: projector.id, source: projector.source } };
}
