/** The valibot schema of a `/v1/completions` body. */
import * as v from 'valibot';
import {
  booleanField,
  integerField,
  logitBiasField,
  numberField,
  stopField,
  stringField,
  tokenIdsField,
} from './fields';

const optional = <S extends v.GenericSchema>(schema: S) => v.nullish(schema);

export const MAX_LOGPROBS = 5;
export const MAX_N = 128;

export const completionSchema = v.object({
  model: v.pipe(stringField('model'), v.minLength(1, "Invalid value for 'model': must be a non-empty string.")),
  /** Shape-checked by `normalizePrompt`. */
  prompt: v.unknown(),
  max_tokens: optional(integerField('max_tokens', -1)),
  min_tokens: optional(integerField('min_tokens', 0)),
  temperature: optional(numberField('temperature', 0, 2)),
  top_p: optional(numberField('top_p', 0, 1, true)),
  top_k: optional(integerField('top_k', -1)),
  min_p: optional(numberField('min_p', 0, 1)),
  typical_p: optional(numberField('typical_p', 0, 1, true)),
  mirostat: optional(integerField('mirostat', 0, 2)),
  mirostat_mode: optional(integerField('mirostat_mode', 0, 2)),
  mirostat_tau: optional(numberField('mirostat_tau', 0, 100)),
  mirostat_eta: optional(numberField('mirostat_eta', 0, 1)),
  presence_penalty: optional(numberField('presence_penalty', -2, 2)),
  frequency_penalty: optional(numberField('frequency_penalty', -2, 2)),
  repetition_penalty: optional(numberField('repetition_penalty', 0, 10, true)),
  repeat_penalty: optional(numberField('repeat_penalty', 0, 10, true)),
  logit_bias: optional(logitBiasField('logit_bias')),
  seed: optional(integerField('seed', Number.MIN_SAFE_INTEGER)),
  ignore_eos: optional(booleanField('ignore_eos')),
  stop: optional(stopField('stop')),
  stop_token_ids: optional(tokenIdsField('stop_token_ids')),
  include_stop_str_in_output: optional(booleanField('include_stop_str_in_output')),
  no_stop_trim: optional(booleanField('no_stop_trim')),
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
});

export type CompletionBody = v.InferOutput<typeof completionSchema>;
