/**
 * llama-server's own request fields on its OpenAI routes (`/v1/completions`,
 * `/v1/chat/completions`) that are not rows of the parameter table: llama-server 0.7.0 accepts
 * them there (its web client, SimpleChat, sends `n_predict` and `cache_prompt`), so these
 * routes accept them too. Each is honoured, has nothing to do here, or is refused with a 400
 * naming it:
 * - `n_predict` (-1: up to the context) wins over `max_tokens`, as in llama-server.
 * - `n_probs` is `logprobs` (completions) or `logprobs: true` + `top_logprobs` (chat); 0 is off.
 * - `n_cmpl` is `n`.
 * - `id_slot`: the model's slot to run on (GenerationRequest's `id_slot`); -1, the default: any.
 * - No effect on an OpenAI-shaped answer, there or here: `return_tokens` (llama-server's OpenAI
 *   routes add no `tokens`), `response_fields`, `n_keep`/`n_discard` (context shift, which neither does by default: a prompt
 *   past the context is a 400), `n_cache_reuse`, `sse_ping_interval`, `backend_sampling`.
 * - `speculative.*`: speculative decoding (speculative-fields.ts).
 * - `lora`: the LoRA adapters' scales for this request (lora-field.ts, src/core/domain/lora.ts).
 * - Refused unless off: `timings_per_token`, `return_progress`, `post_sampling_probs`,
 *   `verbose`, `n_indent`, `t_max_predict_ms`.
 */
import * as v from 'valibot';
import { InvalidRequestError } from '../domain/errors';
import type { SpeculativeRequest } from '../domain/speculative';
import type { LoraScale } from '../domain/lora';
import { booleanField, integerField } from './fields';
import { readSpeculative, speculativeFields } from './speculative-fields';
import { loraField, readLora } from './lora-field';

const optional = <S extends v.GenericSchema>(schema: S) => v.nullish(schema);

export const llamaServerFields = {
  n_predict: optional(integerField('n_predict', -1, 2 ** 31 - 1)),
  n_probs: optional(integerField('n_probs', 0)),
  n_cmpl: optional(integerField('n_cmpl', 1)),
  return_tokens: optional(booleanField('return_tokens')),
  response_fields: optional(v.array(v.string(), "Invalid type for 'response_fields': expected an array of strings.")),
  id_slot: optional(integerField('id_slot', -1)),
  n_keep: optional(integerField('n_keep', -1)),
  n_discard: optional(integerField('n_discard', 0)),
  n_cache_reuse: optional(integerField('n_cache_reuse', 0)),
  sse_ping_interval: optional(integerField('sse_ping_interval', -1)),
  backend_sampling: optional(booleanField('backend_sampling')),
  timings_per_token: optional(booleanField('timings_per_token')),
  return_progress: optional(booleanField('return_progress')),
  post_sampling_probs: optional(booleanField('post_sampling_probs')),
  verbose: optional(booleanField('verbose')),
  n_indent: optional(integerField('n_indent', 0)),
  t_max_predict_ms: optional(integerField('t_max_predict_ms', -1)),
  lora: optional(loraField('lora')),
  ...speculativeFields,
};

export type LlamaServerInput = {
  [K in keyof typeof llamaServerFields]?: v.InferOutput<(typeof llamaServerFields)[K]>;
};

/** Why each refused field cannot be honoured, when it is not off. */
const REFUSED: Array<[keyof LlamaServerInput, (input: LlamaServerInput) => boolean, string]> = [
  ['timings_per_token', (i) => i.timings_per_token === true, 'per-chunk timings are not reported here'],
  ['return_progress', (i) => i.return_progress === true, 'prompt progress events are not streamed here'],
  ['post_sampling_probs', (i) => i.post_sampling_probs === true, 'logprobs here are of the raw distribution'],
  ['verbose', (i) => i.verbose === true, "llama-server's debug output is not produced here"],
  ['n_indent', (i) => (i.n_indent ?? 0) > 0, 'indentation stops are not supported here'],
  ['t_max_predict_ms', (i) => (i.t_max_predict_ms ?? 0) > 0, 'a time limit on generation is not supported here'],
];

/** What the OpenAI routes take from llama-server's fields (after the refusals). */
export interface LlamaServerOptions {
  /** `n_predict`'s limit (null: up to the context), or undefined when it was not given. */
  max_tokens: number | null | undefined;
  /** `n_probs` when > 0. */
  n_probs: number | undefined;
  /** `n_cmpl`, when given. */
  n: number | undefined;
  /** The `speculative.*` fields (speculative-fields.ts). */
  speculative: SpeculativeRequest | null;
  /** The LoRA adapters' scales it asks for (empty: the model's own). */
  lora: LoraScale[];
  /** `id_slot`, when given (-1: any slot; the engine reads it: GenerationRequest's `id_slot`). */
  id_slot: number | undefined;
}

export function readLlamaServerFields(input: LlamaServerInput): LlamaServerOptions {
  for (const [param, active, why] of REFUSED) {
    if (active(input))
      throw new InvalidRequestError(`'${param}' is not supported: ${why}.`, param, 'unsupported_parameter');
  }
  const predict = input.n_predict;
  return {
    max_tokens: predict == null ? undefined : predict === -1 ? null : predict,
    n_probs: input.n_probs != null && input.n_probs > 0 ? input.n_probs : undefined,
    n: input.n_cmpl ?? undefined,
    speculative: readSpeculative(input),
    lora: readLora(input.lora),
    id_slot: input.id_slot ?? undefined,
  };
}
