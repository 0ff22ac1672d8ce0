/**
 * The validated shape of a `/v1/chat/completions` request: messages with their content already
 * flattened to text, function tools, and every sampler resolved to a value.
 */
import type { SpeculativeRequest } from '#core/domain/speculative';
import type { LoraScale } from '#core/domain/lora';
import type { ChatMessage, Continuation, FunctionTool, ReasoningEffort } from '#core/domain/chat-prompt';
import type { OutputGrammar } from '#core/domain/generation';
import type { ParameterValues } from '#core/domain/parameters';
import type { ReasoningBudget } from '#core/domain/reasoning-budget';
import type { ChatMedia } from './chat-media';
import type { REASONING_FORMATS } from './chat-schema';

export type { ChatMessage, FunctionTool, ReasoningEffort, ToolCall } from '#core/domain/chat-prompt';

export type ChatRole = ChatMessage['role'];

export type ToolChoice = 'auto' | 'none' | 'required' | { type: 'function'; function: { name: string } };

/** Passed through opaque to the engine, which implements constrained decoding. */
export type ResponseFormat =
  | { type: 'text' }
  | { type: 'json_object' }
  | {
      type: 'json_schema';
      json_schema: { name: string; description?: string; schema?: Record<string, unknown>; strict?: boolean };
    };

/** The table's rows (samplers and limits) are its parameters; the rest is chat's own. */
export interface ChatRequest extends ParameterValues {
  model: string;
  messages: ChatMessage[];
  /** The user messages' images and audio (issue 32), whose marker their text holds; null: none. */
  media: ChatMedia | null;
  tools: FunctionTool[];
  tool_choice: ToolChoice;
  parallel_tool_calls: boolean;
  response_format: ResponseFormat;
  /** The output constraint (from `response_format` or llama.cpp/vLLM/SGLang's fields), as the engine takes it. */
  grammar: OutputGrammar | null;
  chat_template_kwargs: Record<string, unknown>;
  reasoning_effort: ReasoningEffort | null;
  /** The final assistant message continued (a prefill), or null (continuation.ts). */
  continue_final_message: Continuation | null;
  stream: boolean;
  include_usage: boolean;
  continuous_usage: boolean;
  n: number;
  /** null: up to the context. */
  max_tokens: number | null;
  stop: string[];
  logprobs: boolean;
  top_logprobs: number;
  cache_prompt: boolean;
  /** llama-server's `speculative.*` fields (null: off). */
  speculative: SpeculativeRequest | null;
  /** llama-server's `lora`: adapters' scales (empty: the model's own). */
  lora: LoraScale[];
  /** llama-server's `id_slot`: the model's slot to run on (absent: any). */
  id_slot?: number;
  /** llama-server's reasoning budget and its control (absent: none asked). */
  reasoning_budget?: ReasoningBudget;
  /**
   * llama-server's `reasoning_format`: `none` leaves `<think>…</think>` in the content (and a
   * constraint from the first token); `auto`, `deepseek` and `deepseek-legacy` split it out as
   * `reasoning_content` (0.7.0 answers the three alike).
   */
  reasoning_format: (typeof REASONING_FORMATS)[number];
  user: string | null;
}
