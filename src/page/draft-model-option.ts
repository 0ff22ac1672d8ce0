/**
 * `startInpage({ draftModel })`: the model's draft model for speculative decoding (llama-server's
 * `--model-draft`), named as a model is (`'inpage-test'`, a GGUF URL, an `hf:` id or a full
 * spec). It rides on the model's spec (`draft`), so a reload or a restart loads it again with the
 * model. A llama.cpp model only (with any number of slots: each drafts on its own); anything else
 * is a 400 naming `draftModel`.
 */
import { InvalidRequestError } from '../core/domain/errors';
import type { ModelSpec } from '../core/domain/model-spec';
import { resolveModel } from './resolve-model';

export function withDraftModel(
  model: ModelSpec,
  draftModel: string | ModelSpec,
  base: string,
  hfEndpoint?: string,
): ModelSpec {
  const refuse = (why: string) => new InvalidRequestError(`'draftModel' ${why}.`, 'draftModel', 'invalid_value');
  if (model.backend !== 'llamacpp') throw refuse(`needs a llama.cpp model, and '${model.id}' runs on ${model.backend}`);
  const draft = resolveModel(draftModel, base, hfEndpoint);
  if (draft.backend !== 'llamacpp') throw refuse(`must be a GGUF model, and '${draft.id}' runs on ${draft.backend}`);
  return { ...model, draft: { id: draft.id, source: draft.source } };
}
