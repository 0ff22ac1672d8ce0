/**
 * Validates a `/v1/completions` body and turns it into the neutral generation request (plus
 * `stream` and `include_usage`, which only the edge reads). Shared by the Service Worker and
 * the page's direct API (`inpage.stream()`), so both refuse the same input the same way.
 */
import { InvalidRequestError } from '../domain/errors';
import { parseBody } from './parse-body';
import { PARAMETER_ALIASES } from './resolve-aliases';
import { MAX_LOGPROBS, completionSchema } from './completion-schema';
import { readLlamaServerFields } from './llama-server-fields';
import { normalizePrompt } from './prompt-input';
import { readParameters } from './read-parameters';
import { CONSTRAINT_KEYS, readGrammar } from './read-grammar';
import type { CompletionBody } from './completion-schema';
import type { CompletionRequest } from './types';

/** OpenAI's default `max_tokens` for the legacy completions endpoint. */
export const DEFAULT_MAX_TOKENS = 16;

const knownKeys = new Set([...Object.keys(completionSchema.entries), ...PARAMETER_ALIASES, ...CONSTRAINT_KEYS]);

/**
 * Validates a parsed JSON body for `POST /v1/completions` and applies defaults.
 * Throws `InvalidRequestError` (400) naming the offending parameter.
 */
export function validateCompletion(body: unknown): CompletionRequest {
  const parsed = parseBody(completionSchema, body, {
    known: knownKeys,
    required: ['model', 'prompt'],
    objects: ['stream_options'],
  });
  return { ...toRequest(parsed.output), grammar: readGrammar(parsed.body) };
}

function toRequest(input: CompletionBody): Omit<CompletionRequest, 'grammar'> {
  const stream = input.stream ?? false;
  const native = readLlamaServerFields(input);
  if (native.n !== undefined && input.n != null && native.n !== input.n)
    throw new InvalidRequestError("'n' and 'n_cmpl' are the same parameter and disagree.", 'n_cmpl');
  const n = input.n ?? native.n ?? 1;
  const bestOf = input.best_of ?? n;
  // llama-server's n_predict first. Absent: OpenAI's 16. Explicit null or -1: up to the context.
  const maxTokens =
    native.max_tokens !== undefined
      ? native.max_tokens
      : input.max_tokens === undefined
        ? DEFAULT_MAX_TOKENS
        : input.max_tokens === null || input.max_tokens === -1
          ? null
          : input.max_tokens;
  const table = readParameters(input);
  const minTokens = table.min_tokens;
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
  if (native.n_probs !== undefined && native.n_probs > MAX_LOGPROBS)
    throw new InvalidRequestError(`Invalid value for 'n_probs': expected a value <= ${MAX_LOGPROBS}.`, 'n_probs');
  const stop = input.stop == null ? [] : typeof input.stop === 'string' ? [input.stop] : input.stop;
  return {
    model: input.model,
    prompts: normalizePrompt(input.prompt),
    ...table,
    max_tokens: maxTokens,
    stop: stop.filter((s) => s.length > 0),
    n,
    best_of: bestOf,
    logprobs: native.n_probs ?? input.logprobs ?? null,
    echo: input.echo ?? false,
    suffix: input.suffix ? input.suffix : null,
    stream,
    include_usage: input.stream_options?.include_usage ?? false,
    continuous_usage: input.stream_options?.continuous_usage_stats ?? false,
    cache_prompt: input.cache_prompt ?? true,
    speculative: native.speculative,
    lora: native.lora,
    ...(native.id_slot === undefined ? {} : { id_slot: native.id_slot }),
  };
}
