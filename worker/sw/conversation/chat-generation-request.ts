/**
 * Maps a validated `ChatRequest` to the neutral `GenerationRequest` the engine runs: its prompt
 * is the conversation, which the engine renders with the model's chat template (chat never
 * echoes, has no suffix, and best_of = n), with its images and audio where it has some.
 */
import { pickParameters } from '#core/domain/parameters';
import type { ChatRequest } from './chat-types';
import { promptMedia } from './chat-media';
import type { GenerationRequest } from './neutral-types';
import type { OutputGrammar } from '#core/domain/generation';
import type { ChatPrompt } from '#core/domain/chat-prompt';

export function chatGenerationRequest(chat: ChatRequest): GenerationRequest {
  return {
    model: chat.model,
    prompts: [
      {
        chat: chatPrompt(chat),
        ...(chat.media ? { media: promptMedia(chat.media) } : {}),
      },
    ],
    max_tokens: chat.max_tokens,
    stop: chat.stop,
    n: chat.n,
    best_of: chat.n,
    logprobs: chat.logprobs ? chat.top_logprobs : null,
    echo: false,
    suffix: null,
    grammar: chat.reasoning_format === 'none' ? fromFirstToken(chat.grammar) : chat.grammar,
    cache_prompt: chat.cache_prompt,
    speculative: chat.speculative,
    lora: chat.lora,
    continuous_usage: chat.continuous_usage,
    ...(chat.id_slot === undefined ? {} : { id_slot: chat.id_slot }),
    ...(chat.reasoning_budget === undefined ? {} : { reasoning_budget: chat.reasoning_budget }),
    ...pickParameters(chat),
  };
}

/** The conversation the engine renders with the model's template. */
export function chatPrompt(chat: ChatRequest): ChatPrompt {
  const { messages, tools, chat_template_kwargs, reasoning_effort, continue_final_message } = chat;
  return {
    messages,
    tools,
    chat_template_kwargs,
    reasoning_effort,
    ...(continue_final_message === null ? {} : { continue_final_message }),
  };
}

/** `grammar` from the first token: with the reasoning left in the content, llama-server's grammar leaves it no room. */
function fromFirstToken(grammar: OutputGrammar | null): OutputGrammar | null {
  if (!grammar?.afterReasoning) return grammar;
  const { afterReasoning: _, ...rest } = grammar;
  return rest;
}
