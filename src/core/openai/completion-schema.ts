/** The valibot schema of a `/v1/completions` body (first cut: string prompts). */
import * as v from 'valibot';
import { booleanField, integerField, numberField, stopField, stringField } from './fields';

const optional = <S extends v.GenericSchema>(schema: S) => v.nullish(schema);

export const completionSchema = v.object({
  model: v.pipe(stringField('model'), v.minLength(1, "Invalid value for 'model': must be a non-empty string.")),
  prompt: v.string(
    (issue) =>
      Array.isArray(issue.input)
        ? "Invalid value for 'prompt': arrays of prompts and token-id prompts are not supported yet; send one string."
        : "Invalid type for 'prompt': expected a string.",
  ),
  max_tokens: optional(integerField('max_tokens', 1)),
  temperature: optional(numberField('temperature', 0, 2)),
  top_p: optional(numberField('top_p', 0, 1, true)),
  stop: optional(stopField('stop')),
  seed: optional(integerField('seed', Number.MIN_SAFE_INTEGER)),
  stream: optional(booleanField('stream')),
  stream_options: optional(
    v.strictObject(
      { include_usage: optional(booleanField('stream_options.include_usage')) },
      "Invalid type for 'stream_options': expected an object.",
    ),
  ),
  user: optional(stringField('user')),
});

export type CompletionBody = v.InferOutput<typeof completionSchema>;

/**
 * OpenAI parameters this endpoint knows but cannot honour yet, with the one value each may
 * take (their default). Any other value is a 400 naming the parameter, never a silent ignore.
 */
export const unsupportedAtNonDefault: Record<string, (value: unknown) => boolean> = {
  n: (value) => value === 1,
  best_of: (value) => value === 1,
  echo: (value) => value === false,
  logprobs: () => false,
  suffix: (value) => value === '',
  presence_penalty: (value) => value === 0,
  frequency_penalty: (value) => value === 0,
  logit_bias: (value) => typeof value === 'object' && value !== null && Object.keys(value).length === 0,
};
