import type { RawCompletionChunk, Wllama } from '@wllama/wllama';
import type { ChoiceRequest } from '../../backend';

/** The llama-server completion request (wllama embeds its request handling). */
export interface ServerParams {
  prompt: string;
  max_tokens: number;
  temperature: number;
  top_p: number;
  top_k: number;
  min_p: number;
  typical_p: number;
  mirostat: number;
  mirostat_tau: number;
  mirostat_eta: number;
  presence_penalty: number;
  frequency_penalty: number;
  repeat_penalty: number;
  logit_bias: Record<string, number>;
  seed?: number;
  ignore_eos: boolean;
  n_probs: number;
  cache_prompt: boolean;
  grammar?: string;
  grammar_lazy?: boolean;
  grammar_triggers?: Array<{ type: number; value: string }>;
  return_progress: boolean;
  /** Every chunk carries `timings.predicted_n`: the tokens generated so far. */
  timings_per_token: true;
  stream: true;
  stream_options: { include_usage: boolean };
  abortSignal: AbortSignal;
}

/**
 * Maps one choice to llama-server's parameters. Only names llama-server really reads (its
 * wllama typings also list `temp`, `penalty_repeat`..., which it ignores), and every sampler
 * set explicitly: llama-server's own defaults (top_k 40, min_p 0.05) are not OpenAI's.
 * Stop strings are not passed: the engine's shared layer applies them for every backend.
 */
export function toServerParams(request: ChoiceRequest, prompt: string, signal: AbortSignal): ServerParams {
  return {
    prompt,
    max_tokens: request.max_tokens ?? -1,
    temperature: request.temperature,
    top_p: request.top_p,
    top_k: request.top_k,
    min_p: request.min_p,
    typical_p: request.typical_p,
    mirostat: request.mirostat,
    mirostat_tau: request.mirostat_tau,
    mirostat_eta: request.mirostat_eta,
    presence_penalty: request.presence_penalty,
    frequency_penalty: request.frequency_penalty,
    repeat_penalty: request.repetition_penalty,
    logit_bias: request.logit_bias,
    ...(request.seed === null ? {} : { seed: request.seed >>> 0 }),
    ignore_eos: request.ignore_eos,
    n_probs: request.token_info === null ? 0 : Math.max(1, request.token_info),
    cache_prompt: request.cache_prompt,
    ...(request.grammar === null ? {} : { grammar: request.grammar.gbnf }),
    ...(request.grammar?.trigger === undefined ? {} : lazyGrammar(request.grammar.trigger)),
    return_progress: true,
    timings_per_token: true,
    stream: true,
    stream_options: { include_usage: true },
    abortSignal: signal,
  };
}

/** llama.cpp's `COMMON_GRAMMAR_TRIGGER_TYPE_PATTERN_FULL`: a regex the whole output so far must match. */
const PATTERN_FULL = 3;

/**
 * A lazy grammar, as llama-server takes it: a full-match pattern (its first capture group is
 * where the constrained text starts). A pattern rather than a word trigger, because llama-server
 * refuses a word that is one token unless it is also a preserved token.
 */
function lazyGrammar(trigger: string): Pick<ServerParams, 'grammar_lazy' | 'grammar_triggers'> {
  const escaped = trigger.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return { grammar_lazy: true, grammar_triggers: [{ type: PATTERN_FULL, value: `[\\s\\S]*?(${escaped})[\\s\\S]*` }] };
}

/** wllama's `logit_bias` type: the intersection its typings produce (no value has it). */
type WllamaBias = Record<string, number> & Array<{ token: number; bias: number }>;

/**
 * Starts a streamed completion with wllama's callback form. wllama's typings intersect two
 * incompatible `logit_bias` types (OpenAI's object and its sampler typings' array), which no
 * value satisfies; llama-server reads an object of token id -> bias, so that object is passed
 * through this one typed seam (the request is JSON-encoded for the wasm side).
 */
export function startCompletion(
  wllama: Wllama,
  params: ServerParams,
  onData: (chunk: RawCompletionChunk) => void,
): Promise<void> {
  const logitBias = params.logit_bias as WllamaBias;
  return wllama.createCompletion({ ...params, logit_bias: logitBias, onData });
}
