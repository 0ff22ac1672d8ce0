/**
 * Turns a conversation into the model's prompt text with its chat template (Jinja, as the
 * GGUF ships it), and tells whether the prompt ends by opening its reasoning (`<think>`, or the
 * template's own tag: the model's output then starts as reasoning). A final assistant message to
 * continue (a prefill) ends the prompt (continue-message.ts).
 */
import type { ChatPrompt } from '#core/domain/chat-prompt';
import { InvalidRequestError } from '#core/domain/errors';
import type { ChatTemplate } from '#gguf/chat-template';
import { promptText, type PromptSegment } from './prompt-segments';
import { renderChatTemplate } from './render-chat-template';
import { reasoningStart } from './reasoning-tags';
import { continuedSegments, reasoningMarks } from './continue-message';

export type { ChatTemplate } from '#gguf/chat-template';

export interface RenderedChat {
  text: string;
  opensReasoning: boolean;
}

/** The rendered prompt in pieces: the template's own text (`special`) and the request's. */
export interface RenderedSegments {
  segments: PromptSegment[];
  opensReasoning: boolean;
}

export function renderChatPrompt(template: ChatTemplate | null, prompt: ChatPrompt): RenderedChat {
  const { segments, opensReasoning } = renderChatSegments(template, prompt);
  return { text: promptText(segments), opensReasoning };
}

export function renderChatSegments(template: ChatTemplate | null, prompt: ChatPrompt): RenderedSegments {
  if (!template)
    throw new InvalidRequestError(
      'This model has no chat template (tokenizer.chat_template), so it cannot answer conversations; use /v1/completions with a prompt.',
      'model',
      'chat_template_missing',
    );
  const continuation = prompt.continue_final_message;
  if (continuation !== undefined) {
    // The prompt ends inside the reasoning it continues, or after the content.
    const segments = continuedSegments(template, prompt, continuation);
    return { segments, opensReasoning: continuation === 'reasoning' && reasoningMarks(template) !== null };
  }
  const { segments } = renderChatTemplate(template.source, prompt, {
    bos_token: template.bos_token,
    eos_token: template.eos_token,
  });
  const last = segments.at(-1);
  const text = promptText(segments);
  const opensReasoning = last !== undefined && last.special && text.trimEnd().endsWith(reasoningStart(template));
  return { segments, opensReasoning };
}
