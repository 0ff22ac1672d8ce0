/**
 * A conversation as a prompt: what the engine renders with the model's own chat template
 * (GGUF `tokenizer.chat_template`). Endpoints that speak in messages (chat, responses) send
 * this; the engine turns it into the model's prompt text.
 */
export interface ToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

export type ChatMessage =
  | { role: 'system' | 'developer' | 'user'; content: string; name?: string }
  | { role: 'assistant'; content: string | null; name?: string; tool_calls?: ToolCall[]; reasoning_content?: string }
  | { role: 'tool'; content: string; tool_call_id: string };

export interface FunctionTool {
  type: 'function';
  function: { name: string; description?: string; parameters?: Record<string, unknown>; strict?: boolean };
}

export type ReasoningEffort = 'none' | 'minimal' | 'low' | 'medium' | 'high';

/** What of the final assistant message the answer continues (llama-server's `continue_final_message`). */
export type Continuation = 'content' | 'reasoning';

/** The template's inputs: messages, tools and the caller's template variables. */
export interface ChatPrompt {
  messages: ChatMessage[];
  tools: FunctionTool[];
  chat_template_kwargs: Record<string, unknown>;
  reasoning_effort: ReasoningEffort | null;
  /** Whether the rendering ends with the assistant's header (default true; llama-server's `/apply-template` takes false). */
  add_generation_prompt?: boolean;
  /**
   * The final message is an assistant's to continue (a prefill): the prompt ends with its content,
   * or inside its reasoning, as llama-server renders it; absent: none.
   */
  continue_final_message?: Continuation;
}
