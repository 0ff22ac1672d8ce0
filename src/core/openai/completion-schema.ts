/** The valibot schema of a `/v1/completions` body: the parameter table's rows plus this endpoint's own fields. */
import * as v from 'valibot';
import { PARAMETERS } from '../domain/parameters';
import { booleanField, integerField, parameterFields, stopField, stringField } from './fields';
import { llamaServerFields } from './llama-server-fields';

const optional = <S extends v.GenericSchema>(schema: S) => v.nullish(schema);

export const MAX_LOGPROBS = 5;
export const MAX_N = 128;

export const completionSchema = v.object({
  model: v.pipe(stringField('model'), v.minLength(1, "Invalid value for 'model': must be a non-empty string.")),
  /** Shape-checked by `normalizePrompt`. */
  prompt: v.unknown(),
  max_tokens: optional(integerField('max_tokens', -1)),
  ...parameterFields(PARAMETERS),
  stop: optional(stopField('stop')),
  n: optional(integerField('n', 1, MAX_N)),
  best_of: optional(integerField('best_of', 1, MAX_N)),
  logprobs: optional(integerField('logprobs', 0, MAX_LOGPROBS)),
  echo: optional(booleanField('echo')),
  suffix: optional(stringField('suffix')),
  stream: optional(booleanField('stream')),
  stream_options: optional(
    v.strictObject(
      {
        include_usage: optional(booleanField('stream_options.include_usage')),
        continuous_usage_stats: optional(booleanField('stream_options.continuous_usage_stats')),
      },
      (issue) =>
        issue.expected === 'never'
          ? `Unrecognized request argument supplied: stream_options.${String(issue.path?.at(-1)?.key ?? '')}`
          : "Invalid type for 'stream_options': expected an object.",
    ),
  ),
  cache_prompt: optional(booleanField('cache_prompt')),
  user: optional(stringField('user')),
  ...llamaServerFields,
});

export type CompletionBody = v.InferOutput<typeof completionSchema>;
