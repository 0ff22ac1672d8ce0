/** Why a choice ended. */
export type FinishReason = 'stop' | 'length';

/** OpenAI's usage object (`prompt_tokens_details` where prefix reuse happened). */
export interface Usage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
  prompt_tokens_details?: { cached_tokens: number };
}

/** One prompt: text, or token ids. */
export type PromptInput = string | number[];

/** Sampling parameters, every one with its "off" value applied when absent. */
export interface SamplingParams {
  temperature: number;
  top_p: number;
  /** 0 = off. */
  top_k: number;
  /** 0 = off. */
  min_p: number;
  /** 1 = off. */
  typical_p: number;
  /** 0 = off, 1 = Mirostat, 2 = Mirostat 2.0. */
  mirostat: 0 | 1 | 2;
  mirostat_tau: number;
  mirostat_eta: number;
  presence_penalty: number;
  frequency_penalty: number;
  /** 1 = off. */
  repetition_penalty: number;
  /** Token id (as a string key) -> bias in [-100, 100]. */
  logit_bias: Record<string, number>;
  seed: number | null;
}

/** A validated `/v1/completions` request, with every default applied. */
export interface CompletionRequest extends SamplingParams {
  model: string;
  /** One entry per prompt of the batch (a single prompt is a batch of one). */
  prompts: PromptInput[];
  /** null = up to the context. */
  max_tokens: number | null;
  min_tokens: number;
  ignore_eos: boolean;
  stop: string[];
  stop_token_ids: number[];
  include_stop_str_in_output: boolean;
  n: number;
  best_of: number;
  /** Number of top alternatives per token (0..5), or null for no logprobs. */
  logprobs: number | null;
  echo: boolean;
  suffix: string | null;
  stream: boolean;
  include_usage: boolean;
  continuous_usage_stats: boolean;
  cache_prompt: boolean;
}

/** The legacy completions logprobs shape. */
export interface LegacyLogprobs {
  tokens: string[];
  token_logprobs: Array<number | null>;
  top_logprobs: Array<Record<string, number> | null>;
  text_offset: number[];
}

/** One choice of a legacy completion (response or chunk). */
export interface CompletionChoice {
  text: string;
  index: number;
  logprobs: LegacyLogprobs | null;
  finish_reason: FinishReason | null;
  /** The stop string or stop token id that ended the choice (SGLang's field); present only when one did. */
  matched_stop?: string | number | null;
}

/** `object: "text_completion"`, both the whole response and each streamed chunk. */
export interface Completion {
  id: string;
  object: 'text_completion';
  created: number;
  model: string;
  choices: CompletionChoice[];
  usage?: Usage | null;
}

/** OpenAI's list shape. */
export interface ListResponse<T> {
  object: 'list';
  data: T[];
}
