/** Why a choice ended. */
export type FinishReason = 'stop' | 'length';

/** OpenAI's usage object. */
export interface Usage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
}

/** A validated `/v1/completions` request, with every default applied. */
export interface CompletionRequest {
  model: string;
  prompt: string;
  max_tokens: number;
  temperature: number;
  top_p: number;
  stop: string[];
  seed: number | null;
  stream: boolean;
  include_usage: boolean;
}

/** One choice of a legacy completion (response or chunk). */
export interface CompletionChoice {
  text: string;
  index: number;
  logprobs: null;
  finish_reason: FinishReason | null;
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
