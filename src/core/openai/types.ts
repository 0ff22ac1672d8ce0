/** OpenAI's request and response shapes (the neutral engine types live in `../generation`). */
import type { FinishReason, GenerationRequest } from '../domain/generation';

export type { FinishReason, PromptInput } from '../domain/generation';

/** OpenAI's usage object (`prompt_tokens_details` where prefix reuse happened). */
export interface Usage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
  prompt_tokens_details?: { cached_tokens: number };
}

/** A validated `/v1/completions` request: the neutral generation request plus what only the edge reads. */
export interface CompletionRequest extends GenerationRequest {
  stream: boolean;
  /** `stream_options.include_usage`: a last chunk with the usage. */
  include_usage: boolean;
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
