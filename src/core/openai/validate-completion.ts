/**
 * Validates a `/v1/completions` body and turns it into the neutral generation request (plus
 * `stream` and `include_usage`, which only the edge reads). Shared by the Service Worker and
 * the page's direct API (`inpage.stream()`), so both refuse the same input the same way.
 */
import * as v from 'valibot';
import { InvalidRequestError } from '../errors';
import { LIMITS, PARAMETERS, SAMPLING, SAMPLING_DEFAULTS } from '../parameters';
import { completionSchema } from './completion-schema';
import { parameterField } from './fields';
import { normalizePrompt } from './prompt-input';
import type { CompletionBody } from './completion-schema';
import type { CompletionRequest } from './types';

/** OpenAI's default `max_tokens` for the legacy completions endpoint. */
export const DEFAULT_MAX_TOKENS = 16;

const aliases = new Map(Object.entries(PARAMETERS).flatMap(([name, row]) => (row.aliases ?? []).map((alias) => [alias, { name, row }])));
const knownKeys = new Set([...Object.keys(completionSchema.entries), ...aliases.keys()]);

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
  const parsed = v.safeParse(completionSchema, resolveAliases(body), { abortEarly: true });
  if (!parsed.success) {
    const issue = parsed.issues[0];
    throw new InvalidRequestError(issue.message, paramOf(v.getDotPath(issue)));
  }
  return toRequest(parsed.output);
}

/**
 * The body with each alias (`repeat_penalty`, `mirostat_mode`, `no_stop_trim`) under its table
 * name; an alias is checked under its own name, and disagreeing with the name is a 400.
 */
function resolveAliases(body: object): Record<string, unknown> {
  const out: Record<string, unknown> = { ...body };
  for (const [alias, { name, row }] of aliases) {
    const value: unknown = out[alias];
    delete out[alias];
    if (value == null) continue;
    const checked = v.safeParse(parameterField(alias, row.range), value);
    if (!checked.success) throw new InvalidRequestError(checked.issues[0].message, alias);
    const own = out[name];
    if (own != null && own !== value) throw new InvalidRequestError(`'${name}' and '${alias}' are the same parameter and disagree.`, alias);
    out[name] = value;
  }
  return out;
}

function toRequest(input: CompletionBody): CompletionRequest {
  const stream = input.stream ?? false;
  const n = input.n ?? 1;
  const bestOf = input.best_of ?? n;
  // Absent: OpenAI's 16. Explicit null or -1: up to the context.
  const maxTokens = input.max_tokens === undefined ? DEFAULT_MAX_TOKENS : input.max_tokens === null || input.max_tokens === -1 ? null : input.max_tokens;
  const minTokens = input.min_tokens ?? LIMITS.min_tokens.default;
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
  const topK = input.top_k ?? SAMPLING.top_k.default;
  const mirostat = input.mirostat ?? SAMPLING.mirostat.default;
  return {
    model: input.model,
    prompts: normalizePrompt(input.prompt),
    max_tokens: maxTokens,
    min_tokens: minTokens,
    ignore_eos: input.ignore_eos ?? LIMITS.ignore_eos.default,
    stop: stop.filter((s) => s.length > 0),
    stop_token_ids: input.stop_token_ids ?? LIMITS.stop_token_ids.default,
    include_stop_str_in_output: input.include_stop_str_in_output ?? LIMITS.include_stop_str_in_output.default,
    temperature: input.temperature ?? SAMPLING_DEFAULTS.temperature,
    top_p: input.top_p ?? SAMPLING_DEFAULTS.top_p,
    top_k: topK < 0 ? 0 : topK,
    min_p: input.min_p ?? SAMPLING_DEFAULTS.min_p,
    typical_p: input.typical_p ?? SAMPLING_DEFAULTS.typical_p,
    mirostat: mirostat === 1 || mirostat === 2 ? mirostat : 0,
    mirostat_tau: input.mirostat_tau ?? SAMPLING_DEFAULTS.mirostat_tau,
    mirostat_eta: input.mirostat_eta ?? SAMPLING_DEFAULTS.mirostat_eta,
    presence_penalty: input.presence_penalty ?? SAMPLING_DEFAULTS.presence_penalty,
    frequency_penalty: input.frequency_penalty ?? SAMPLING_DEFAULTS.frequency_penalty,
    repetition_penalty: input.repetition_penalty ?? SAMPLING_DEFAULTS.repetition_penalty,
    logit_bias: input.logit_bias ?? SAMPLING_DEFAULTS.logit_bias,
    seed: input.seed ?? SAMPLING_DEFAULTS.seed,
    n,
    best_of: bestOf,
    logprobs: input.logprobs ?? null,
    echo: input.echo ?? false,
    suffix: input.suffix ? input.suffix : null,
    stream,
    include_usage: input.stream_options?.include_usage ?? false,
    continuous_usage: input.stream_options?.continuous_usage_stats ?? false,
    cache_prompt: input.cache_prompt ?? true,
  };
}

/** The parameter an issue names: the field itself, or the sub-field of an object parameter. */
function paramOf(path: string | null): string | null {
  if (path === null) return null;
  const [field] = path.split('.');
  return field === 'stream_options' ? path : (field ?? null);
}
