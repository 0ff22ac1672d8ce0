/**
 * Validates a llama-server `/completion` body: `prompt` (required: `native-prompt.ts`),
 * `n_predict` or `max_tokens` (-1, the default: up to the context), `stop`, `stream`, `n_probs`
 * (top candidates per token, 0..20), `post_sampling_probs` (not served: a 400 naming it),
 * `return_tokens`, `cache_prompt`, `id_slot` (the model's slot to run on; -1: any), `lora` (adapters' scales: lora-field.ts), `speculative.*` (speculative-fields.ts), every row of the parameter table and the constraint fields
 * (`grammar`, `json_schema`, ...). Unknown keys are ignored, as llama-server ignores them; a bad
 * value is a 400 naming its field.
 */
import * as v from 'valibot';
import { InvalidRequestError } from '#core/domain/errors';
import type { OutputGrammar, RequestPrompt } from '#core/domain/generation';
import { PARAMETERS, type ParameterValues } from '#core/domain/parameters';
import { booleanField, integerField, parameterFields, stopField, stringField } from '#core/openai/fields';
import { parseBody } from '#core/openai/parse-body';
import { readParameters } from '#core/openai/read-parameters';
import { CONSTRAINT_KEYS, readGrammar } from '#core/openai/read-grammar';
import { PARAMETER_ALIASES } from '#core/openai/resolve-aliases';
import { isRecord } from '#core/util/is-record';
import type { SpeculativeRequest } from '#core/domain/speculative';
import { readSpeculative, speculativeFields } from '#core/openai/speculative-fields';
import { loraField, readLora } from '#core/openai/lora-field';
import type { LoraScale } from '#core/domain/lora';
import { readNativePrompts, type NativePrompt } from './native-prompt';

const optional = <S extends v.GenericSchema>(schema: S) => v.nullish(schema);

/** The most top candidates a token may list (the engine's bound, OpenAI's `logprobs` range). */
export const MAX_N_PROBS = 20;

const completionSchema = v.object({
  model: v.pipe(stringField('model'), v.minLength(1, "No model is loaded here: load one, or name it in 'model'.")),
  /** Shape-checked by `readNativePrompts`. */
  prompt: v.unknown(),
  n_predict: optional(integerField('n_predict', -1)),
  max_tokens: optional(integerField('max_tokens', -1)),
  ...parameterFields(PARAMETERS),
  stop: optional(stopField('stop')),
  stream: optional(booleanField('stream')),
  n_probs: optional(integerField('n_probs', 0, MAX_N_PROBS)),
  post_sampling_probs: optional(booleanField('post_sampling_probs')),
  return_tokens: optional(booleanField('return_tokens')),
  cache_prompt: optional(booleanField('cache_prompt')),
  lora: optional(loraField('lora')),
  id_slot: optional(integerField('id_slot', -1)),
  ...speculativeFields,
});

const known = new Set([...Object.keys(completionSchema.entries), ...PARAMETER_ALIASES, ...CONSTRAINT_KEYS]);

/** A validated `/completion` request; `prompts` become `inputs` once resolved on the engine. */
export interface NativeCompletionBody extends ParameterValues {
  model: string;
  prompts: NativePrompt[];
  /** Each prompt as the engine takes it, and its text (the answer's `prompt`): see `resolve-prompts.ts`. */
  inputs: RequestPrompt[];
  texts: string[];
  /** null: up to the context. */
  max_tokens: number | null;
  stop: string[];
  stream: boolean;
  n_probs: number;
  return_tokens: boolean;
  cache_prompt: boolean;
  speculative: SpeculativeRequest | null;
  lora: LoraScale[];
  grammar: OutputGrammar | null;
  /** The model's slot to run on (-1: any). */
  id_slot: number;
}

export function validateNativeCompletion(json: unknown): NativeCompletionBody {
  if (!isRecord(json)) throw new InvalidRequestError('The request body must be a JSON object.', null, 'invalid_json');
  // llama-server ignores keys it does not know; so does this route.
  const body = Object.fromEntries(Object.entries(json).filter(([key]) => known.has(key)));
  const { output } = parseBody(completionSchema, body, {
    known,
    required: ['model', 'prompt'],
    objects: [],
  });
  if (output.post_sampling_probs)
    throw new InvalidRequestError(
      "'post_sampling_probs' is not supported: this engine reports the probabilities before sampling only.",
      'post_sampling_probs',
      'unsupported_parameter',
    );
  const predict = output.n_predict ?? output.max_tokens ?? -1;
  const stop = output.stop == null ? [] : typeof output.stop === 'string' ? [output.stop] : output.stop;
  const prompts = readNativePrompts(output.prompt);
  return {
    ...readParameters(output),
    model: output.model,
    prompts,
    // Strings and plain ids as they are; `resolvePrompts` fills in mixed prompts and the texts.
    inputs: prompts.map((prompt) =>
      Array.isArray(prompt) ? prompt.filter((part) => typeof part === 'number') : prompt,
    ),
    texts: prompts.map((prompt) => (typeof prompt === 'string' ? prompt : Array.isArray(prompt) ? '' : prompt.text)),
    max_tokens: predict === -1 ? null : predict,
    stop: stop.filter((s) => s.length > 0),
    stream: output.stream ?? false,
    n_probs: output.n_probs ?? 0,
    return_tokens: output.return_tokens ?? false,
    cache_prompt: output.cache_prompt ?? true,
    speculative: readSpeculative(output),
    lora: readLora(output.lora),
    grammar: readGrammar(body),
    id_slot: output.id_slot ?? -1,
  };
}
