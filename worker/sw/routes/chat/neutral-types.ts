/**
 * The neutral engine protocol, declared locally until it lands in core (replace this file with
 * re-exports from core at merge time). The engine emits `GenerationEvent`s; the SW formats them.
 */
export type FinishReason = 'stop' | 'length';

/** One top-logprob alternative; `text` is the vocab spelling and may be partial UTF-8. */
export interface Candidate {
  id: number;
  text: string;
  bytes: number[];
  logprob: number;
}

export interface TokenLogprob {
  id: number;
  text: string;
  bytes: number[];
  logprob: number | null;
  top: Candidate[] | null;
  offset: number;
}

export interface TokenCounts {
  prompt: number;
  completion: number;
  cached: number;
}

export interface GenerationPiece {
  type: 'generation.piece';
  index: number;
  text: string;
  tokens: TokenLogprob[] | null;
  counts?: TokenCounts;
}

export interface GenerationChoiceEnd {
  type: 'generation.choice-end';
  index: number;
  finish_reason: FinishReason;
  matched_stop: string | number | null;
  counts?: TokenCounts;
}

export interface GenerationDone {
  type: 'generation.done';
  counts: TokenCounts;
}

export interface GenerationError {
  type: 'generation.error';
  error: { status: number; body: { error: { message: string; type: string; param: string | null; code: string | null } } };
}

/** Engine -> SW events, in order, per request. */
export type GenerationEvent = GenerationPiece | GenerationChoiceEnd | GenerationDone | GenerationError;

/** SW -> engine: a neutral generation request (prompts are rendered text or token ids). */
export interface GenerationRequest {
  model: string;
  prompts: Array<string | number[]>;
  max_tokens: number | null;
  min_tokens: number;
  ignore_eos: boolean;
  stop: string[];
  stop_token_ids: number[];
  include_stop_str_in_output: boolean;
  n: number;
  best_of: number;
  /** Top alternatives 0..20, or null for none. */
  logprobs: number | null;
  echo: boolean;
  suffix: string | null;
  cache_prompt: boolean;
  continuous_usage: boolean;
  temperature: number;
  top_p: number;
  top_k: number;
  min_p: number;
  typical_p: number;
  mirostat: 0 | 1 | 2;
  mirostat_tau: number;
  mirostat_eta: number;
  presence_penalty: number;
  frequency_penalty: number;
  repetition_penalty: number;
  logit_bias: Record<string, number>;
  seed: number | null;
}
