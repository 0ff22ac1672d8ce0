/**
 * Where a template's reasoning starts and ends, for a reasoning budget (llama-server's
 * `thinking_start_tag`, `thinking_end_tags` and `generation_prompt`): `<think>` and `</think>`,
 * the tags this engine's chat parser knows, where the template writes both; null for any other
 * template (llama-server, whose template analysis finds no reasoning there, sets no budget either).
 */
import type { ChatPrompt } from '#core/domain/chat-prompt';
import type { ChatTemplate } from '#gguf/chat-template';
import { renderGenerationPrompt } from './render-chat-template';

export interface ReasoningTags {
  start_tag: string;
  end_tags: string[];
  /** What the template wrote to open the answer: a budget counts from a start tag there. */
  generation_prompt: string;
}

export const START = '<think>';
export const END = '</think>';

/** Whether `template` writes reasoning in the tags this engine knows. */
export const templateThinks = (template: ChatTemplate | null): template is ChatTemplate =>
  template !== null && template.source.includes(START) && template.source.includes(END);

/** The tags of `template`, whose render of `prompt` is `rendered` (the prompt the engine reads). */
export function reasoningTags(
  template: ChatTemplate | null,
  prompt: ChatPrompt,
  rendered: string,
): ReasoningTags | null {
  if (!templateThinks(template)) return null;
  const generation_prompt = renderGenerationPrompt(template.source, prompt, rendered, {
    bos_token: template.bos_token,
    eos_token: template.eos_token,
  });
  return { start_tag: START, end_tags: [END], generation_prompt };
}
