import * as v from 'valibot';
import { InvalidRequestError } from '../errors';
import { completionSchema, unsupportedAtNonDefault } from './completion-schema';
import type { CompletionRequest } from './types';

/** OpenAI's defaults for the legacy completions endpoint. */
export const COMPLETION_DEFAULTS = { max_tokens: 16, temperature: 1, top_p: 1 } as const;

const knownKeys = new Set([...Object.keys(completionSchema.entries), ...Object.keys(unsupportedAtNonDefault)]);

/**
 * Validates a parsed JSON body for `POST /v1/completions` and applies defaults.
 * Throws `InvalidRequestError` (400) naming the offending parameter.
 */
export function validateCompletion(body: unknown): CompletionRequest {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new InvalidRequestError('The request body must be a JSON object.', null, 'invalid_json');
  }
  for (const key of Object.keys(body)) {
    if (!knownKeys.has(key)) {
      throw new InvalidRequestError(`Unrecognized request argument supplied: ${key}`, key, 'unknown_parameter');
    }
  }
  for (const param of ['model', 'prompt']) {
    if (Reflect.get(body, param) == null) {
      throw new InvalidRequestError(`Missing required parameter: '${param}'.`, param, 'missing_required_parameter');
    }
  }
  const parsed = v.safeParse(completionSchema, body, { abortEarly: true });
  if (!parsed.success) {
    const issue = parsed.issues[0];
    throw new InvalidRequestError(issue.message, v.getDotPath(issue) ?? null);
  }
  for (const [param, isDefault] of Object.entries(unsupportedAtNonDefault)) {
    const value: unknown = Reflect.get(body, param);
    if (value !== undefined && value !== null && !isDefault(value)) {
      throw new InvalidRequestError(`'${param}' is not supported by this endpoint yet.`, param, 'unsupported_parameter');
    }
  }
  const input = parsed.output;
  if (input.stream_options != null && input.stream !== true) {
    throw new InvalidRequestError("'stream_options' is only allowed when 'stream' is true.", 'stream_options');
  }
  const stop = input.stop == null ? [] : typeof input.stop === 'string' ? [input.stop] : input.stop;
  return {
    model: input.model,
    prompt: input.prompt,
    max_tokens: input.max_tokens ?? COMPLETION_DEFAULTS.max_tokens,
    temperature: input.temperature ?? COMPLETION_DEFAULTS.temperature,
    top_p: input.top_p ?? COMPLETION_DEFAULTS.top_p,
    stop: stop.filter((s) => s.length > 0),
    seed: input.seed ?? null,
    stream: input.stream ?? false,
    include_usage: input.stream_options?.include_usage ?? false,
  };
}
