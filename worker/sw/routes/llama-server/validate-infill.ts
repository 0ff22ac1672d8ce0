/**
 * Validates a llama-server `/infill` body: `input_prefix` and `input_suffix` (required strings,
 * as there), `input_extra` (`[{filename, text}]`, filename `tmp` when left out), `prompt` (text
 * after the prefix), `n_predict` or `max_tokens` (-1: up to the context, the default there),
 * `stop`, `stream`, `return_tokens`, `cache_prompt`, `lora`, `id_slot` (the model's slot to run on;
 * -1: any), the parameter table's rows and the
 * constraint fields (`grammar`, `json_schema`, ...). Unknown keys are ignored, as llama-server
 * ignores them; a bad value is a 400 naming its field.
 */
import * as v from 'valibot';
import type { InfillFile } from '#core/domain/generation';
import { InvalidRequestError } from '#core/domain/errors';
import { PARAMETERS, type ParameterValues } from '#core/domain/parameters';
import { booleanField, integerField, parameterFields, stopField, stringField } from '#core/openai/fields';
import { parseBody } from '#core/openai/parse-body';
import { readParameters } from '#core/openai/read-parameters';
import { CONSTRAINT_KEYS, readGrammar } from '#core/openai/read-grammar';
import { PARAMETER_ALIASES } from '#core/openai/resolve-aliases';
import type { OutputGrammar } from '#core/domain/generation';
import { isRecord } from '#core/util/is-record';
import { loraField, readLora } from '#core/openai/lora-field';
import type { LoraScale } from '#core/domain/lora';

const optional = <S extends v.GenericSchema>(schema: S) => v.nullish(schema);

const infillSchema = v.object({
  model: v.pipe(stringField('model'), v.minLength(1, "No model is loaded here: load one, or name it in 'model'.")),
  input_prefix: stringField('input_prefix'),
  input_suffix: stringField('input_suffix'),
  /** Shape-checked by `readExtra`. */
  input_extra: v.optional(v.unknown()),
  prompt: optional(stringField('prompt')),
  n_predict: optional(integerField('n_predict', -1)),
  max_tokens: optional(integerField('max_tokens', -1)),
  ...parameterFields(PARAMETERS),
  stop: optional(stopField('stop')),
  stream: optional(booleanField('stream')),
  return_tokens: optional(booleanField('return_tokens')),
  cache_prompt: optional(booleanField('cache_prompt')),
  lora: optional(loraField('lora')),
  id_slot: optional(integerField('id_slot', -1)),
});

const known = new Set([...Object.keys(infillSchema.entries), ...PARAMETER_ALIASES, ...CONSTRAINT_KEYS]);

/** A validated `/infill` request. */
export interface InfillBody extends ParameterValues {
  model: string;
  input_prefix: string;
  input_suffix: string;
  input_extra: InfillFile[];
  prompt: string;
  /** null: up to the context. */
  max_tokens: number | null;
  stop: string[];
  stream: boolean;
  return_tokens: boolean;
  cache_prompt: boolean;
  lora: LoraScale[];
  grammar: OutputGrammar | null;
  /** The model's slot to run on (-1: any). */
  id_slot: number;
}

function readExtra(value: unknown): InfillFile[] {
  if (value == null) return [];
  const shape = '\'input_extra\' must be an array of {"filename": string, "text": string}.';
  if (!Array.isArray(value)) throw new InvalidRequestError(shape, 'input_extra');
  return value.map((chunk: unknown, i) => {
    if (!isRecord(chunk) || typeof chunk.text !== 'string')
      throw new InvalidRequestError(`'input_extra[${i}].text' must be a string. ${shape}`, 'input_extra');
    if (chunk.filename != null && typeof chunk.filename !== 'string')
      throw new InvalidRequestError(`'input_extra[${i}].filename' must be a string. ${shape}`, 'input_extra');
    return { filename: chunk.filename ?? 'tmp', text: chunk.text };
  });
}

export function validateInfill(json: unknown): InfillBody {
  if (!isRecord(json)) throw new InvalidRequestError('The request body must be a JSON object.', null, 'invalid_json');
  // llama-server ignores keys it does not know; so does this route.
  const body = Object.fromEntries(Object.entries(json).filter(([key]) => known.has(key)));
  const { output } = parseBody(infillSchema, body, {
    known,
    required: ['model', 'input_prefix', 'input_suffix'],
    objects: [],
  });
  const predict = output.n_predict ?? output.max_tokens ?? -1;
  const stop = output.stop == null ? [] : typeof output.stop === 'string' ? [output.stop] : output.stop;
  return {
    ...readParameters(output),
    model: output.model,
    input_prefix: output.input_prefix,
    input_suffix: output.input_suffix,
    input_extra: readExtra(output.input_extra),
    prompt: output.prompt ?? '',
    max_tokens: predict === -1 ? null : predict,
    stop: stop.filter((s) => s.length > 0),
    stream: output.stream ?? false,
    return_tokens: output.return_tokens ?? false,
    cache_prompt: output.cache_prompt ?? true,
    lora: readLora(output.lora),
    grammar: readGrammar(body),
    id_slot: output.id_slot ?? -1,
  };
}
