import * as v from 'valibot';
import { InvalidRequestError } from '../errors';
import { completionSchema } from './completion-schema';
import { normalizePrompt } from './prompt-input';
import type { CompletionBody } from './completion-schema';
import type { CompletionRequest } from './types';

/** OpenAI's defaults for the legacy completions endpoint; engine-specific samplers are off. */
export const COMPLETION_DEFAULTS = {
  max_tokens: 16,
  temperature: 1,
  top_p: 1,
  mirostat_tau: 5,
  mirostat_eta: 0.1,
} as const;

const knownKeys = new Set(Object.keys(completionSchema.entries));

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
  // valibot's record() and strictObject() take an array as an object with index keys.
  for (const param of ['logit_bias', 'stream_options']) {
    if (Array.isArray(Reflect.get(body, param))) {
      throw new InvalidRequestError(`Invalid type for '${param}': expected an object, but got an array instead.`, param);
    }
  }
  const parsed = v.safeParse(completionSchema, body, { abortEarly: true });
  if (!parsed.success) {
    const issue = parsed.issues[0];
    throw new InvalidRequestError(issue.message, paramOf(v.getDotPath(issue)));
  }
  return toRequest(parsed.output);
}

function alias<T>(a: T | null | undefined, b: T | null | undefined, names: [string, string]): T | undefined {
  if (a != null && b != null && a !== b) {
    throw new InvalidRequestError(`'${names[0]}' and '${names[1]}' are the same parameter and disagree.`, names[1]);
  }
  return a ?? b ?? undefined;
}

function toRequest(input: CompletionBody): CompletionRequest {
  const stream = input.stream ?? false;
  const n = input.n ?? 1;
  const bestOf = input.best_of ?? n;
  // Absent: OpenAI's 16. Explicit null or -1: up to the context.
  const maxTokens = input.max_tokens === undefined ? COMPLETION_DEFAULTS.max_tokens : input.max_tokens === null || input.max_tokens === -1 ? null : input.max_tokens;
  const minTokens = input.min_tokens ?? 0;
  if (bestOf < n) throw new InvalidRequestError("'best_of' must be greater than or equal to 'n'.", 'best_of');
  if (stream && bestOf > n) throw new InvalidRequestError("'best_of' greater than 'n' cannot be streamed.", 'best_of');
  if (input.stream_options != null && !stream) {
    throw new InvalidRequestError("'stream_options' is only allowed when 'stream' is true.", 'stream_options');
  }
  if (input.echo && input.suffix) {
    throw new InvalidRequestError("'echo' cannot be combined with 'suffix'.", 'suffix');
  }
  if (maxTokens !== null && minTokens > maxTokens) {
    throw new InvalidRequestError("'min_tokens' must not exceed 'max_tokens'.", 'min_tokens');
  }
  const stop = input.stop == null ? [] : typeof input.stop === 'string' ? [input.stop] : input.stop;
  const mirostat = alias(input.mirostat, input.mirostat_mode, ['mirostat', 'mirostat_mode']) ?? 0;
  const topK = input.top_k ?? 0;
  return {
    model: input.model,
    prompts: normalizePrompt(input.prompt),
    max_tokens: maxTokens,
    min_tokens: minTokens,
    ignore_eos: input.ignore_eos ?? false,
    stop: stop.filter((s) => s.length > 0),
    stop_token_ids: input.stop_token_ids ?? [],
    include_stop_str_in_output:
      alias(input.include_stop_str_in_output, input.no_stop_trim, ['include_stop_str_in_output', 'no_stop_trim']) ?? false,
    temperature: input.temperature ?? COMPLETION_DEFAULTS.temperature,
    top_p: input.top_p ?? COMPLETION_DEFAULTS.top_p,
    top_k: topK < 0 ? 0 : topK,
    min_p: input.min_p ?? 0,
    typical_p: input.typical_p ?? 1,
    mirostat: mirostat === 1 || mirostat === 2 ? mirostat : 0,
    mirostat_tau: input.mirostat_tau ?? COMPLETION_DEFAULTS.mirostat_tau,
    mirostat_eta: input.mirostat_eta ?? COMPLETION_DEFAULTS.mirostat_eta,
    presence_penalty: input.presence_penalty ?? 0,
    frequency_penalty: input.frequency_penalty ?? 0,
    repetition_penalty: alias(input.repetition_penalty, input.repeat_penalty, ['repetition_penalty', 'repeat_penalty']) ?? 1,
    logit_bias: input.logit_bias ?? {},
    seed: input.seed ?? null,
    n,
    best_of: bestOf,
    logprobs: input.logprobs ?? null,
    echo: input.echo ?? false,
    suffix: input.suffix ? input.suffix : null,
    stream,
    include_usage: input.stream_options?.include_usage ?? false,
    continuous_usage_stats: input.stream_options?.continuous_usage_stats ?? false,
    cache_prompt: input.cache_prompt ?? true,
  };
}

/** The parameter an issue names: the field itself, or the sub-field of an object parameter. */
function paramOf(path: string | null): string | null {
  if (path === null) return null;
  const [field] = path.split('.');
  return field === 'stream_options' ? path : (field ?? null);
}
