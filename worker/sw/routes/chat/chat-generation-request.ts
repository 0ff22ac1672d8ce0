/**
 * Maps a validated `ChatRequest` to the neutral `GenerationRequest` the engine runs: its prompt
 * is the conversation, which the engine renders with the model's chat template (chat never
 * echoes, has no suffix, and best_of = n).
 */
import type { ChatRequest } from './chat-types';
import type { GenerationRequest } from './neutral-types';

export function chatGenerationRequest(chat: ChatRequest): GenerationRequest {
  const { messages, tools, chat_template_kwargs, reasoning_effort } = chat;
  return {
    model: chat.model,
    prompts: [{ chat: { messages, tools, chat_template_kwargs, reasoning_effort } }],
    max_tokens: chat.max_tokens,
    min_tokens: chat.min_tokens,
    ignore_eos: chat.ignore_eos,
    stop: chat.stop,
    stop_token_ids: chat.stop_token_ids,
    include_stop_str_in_output: chat.include_stop_str_in_output,
    n: chat.n,
    best_of: chat.n,
    logprobs: chat.logprobs ? chat.top_logprobs : null,
    echo: false,
    suffix: null,
    grammar: chat.grammar,
    cache_prompt: chat.cache_prompt,
    continuous_usage: chat.continuous_usage,
    temperature: chat.temperature,
    top_p: chat.top_p,
    top_k: chat.top_k,
    min_p: chat.min_p,
    typical_p: chat.typical_p,
    mirostat: chat.mirostat,
    mirostat_tau: chat.mirostat_tau,
    mirostat_eta: chat.mirostat_eta,
    presence_penalty: chat.presence_penalty,
    frequency_penalty: chat.frequency_penalty,
    repetition_penalty: chat.repetition_penalty,
    logit_bias: chat.logit_bias,
    seed: chat.seed,
  };
}
