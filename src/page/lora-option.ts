/**
 * `startInpage({ lora })`: the model's LoRA adapters (llama-server's `--lora` and
 * `--lora-scaled`), each named as a model is (a GGUF URL, relative or absolute, an `hf:` id or
 * a full spec), alone (scale 1) or as `{ adapter, scale }` (0: loaded, off until a request or
 * `POST /lora-adapters` turns it on, llama-server's `--lora-init-without-apply`). They ride on
 * the model's spec (`lora`), so a reload loads them again with it. A llama.cpp model only:
 * anything else is a 400 naming `lora`.
 */
import { InvalidRequestError } from '../core/domain/errors';
import type { LoraAdapterSpec, ModelSpec } from '../core/domain/model-spec';
import { resolveModel } from './resolve-model';

/** One adapter: its GGUF alone (at scale 1), or with its scale. */
export type LoraOption = string | ModelSpec | { adapter: string | ModelSpec; scale?: number };

export function withLoraAdapters(
  model: ModelSpec,
  lora: readonly LoraOption[],
  base: string,
  hfEndpoint?: string,
): ModelSpec {
  const refuse = (why: string) => new InvalidRequestError(`'lora' ${why}.`, 'lora', 'invalid_value');
  if (!Array.isArray(lora)) throw refuse('must be an array of adapters');
  if (lora.length === 0) return model;
  if (model.backend !== 'llamacpp') throw refuse(`needs a llama.cpp model, and '${model.id}' runs on ${model.backend}`);
  const adapters = lora.map((option, i): LoraAdapterSpec => {
    const named = typeof option === 'object' && 'adapter' in option ? option : { adapter: option, scale: 1 };
    const scale = named.scale ?? 1;
    if (typeof scale !== 'number' || !Number.isFinite(scale)) throw refuse(`[${i}].scale must be a finite number`);
    const adapter = resolveModel(named.adapter, base, hfEndpoint);
    if (adapter.backend !== 'llamacpp' || adapter.source.kind === 'builtin')
      throw refuse(`[${i}] must be a GGUF file, and '${adapter.id}' is not one`);
    return { id: adapter.id, source: adapter.source, scale };
  });
  return { ...model, lora: adapters };
}
