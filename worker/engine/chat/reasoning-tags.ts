/**
 * Where a template's reasoning starts and ends (`thinkingTags`: `<think>` and `</think>`,
 * Ministral's `[THINK]` and `[/THINK]` or Gemma 4's channel, where the template writes both; for a
 * budget, gpt-oss's analysis message too (`<|channel|>analysis<|message|>` to `<|end|>`); null for any other
 * template, which llama-server finds no reasoning in either), and those tags for a reasoning budget
 * (llama-server's `thinking_start_tag`, `thinking_end_tags` and `generation_prompt`).
 */
import type { ChatPrompt } from '#core/domain/chat-prompt';
import { THINK_TAGS, thinkingTagsIn, type ThinkingTags } from '#core/domain/thinking-tags';
import type { ChatTemplate } from '#gguf/chat-template';
import { renderGenerationPrompt } from './render-chat-template';
import { isHarmonyTemplate } from './tool-call-format';

export interface ReasoningTags {
  start_tag: string;
  end_tags: string[];
  /** What the template wrote to open the answer: a budget counts from a start tag there. */
  generation_prompt: string;
}

/** gpt-oss's reasoning: its analysis message's opening and its end (llama-server's `thinking_start_tag`, `thinking_end_tags`). */
const HARMONY_ANALYSIS = { start: '<|channel|>analysis<|message|>', end: '<|end|>' };

/** The tags `template` writes its reasoning between, where it writes both of a pair this engine knows. */
export function thinkingTags(template: ChatTemplate | null): ThinkingTags | null {
  return template === null ? null : thinkingTagsIn(template.source);
}

/**
 * The tag a prompt opens the reasoning with: the template's, else `<think>` (a template that opens
 * `<think>` but never closes it still opens the reasoning).
 */
export const reasoningStart = (template: ChatTemplate | null): string => (thinkingTags(template) ?? THINK_TAGS).start;

/** The tags of `template`, whose render of `prompt` is `rendered` (the prompt the engine reads). */
export function reasoningTags(
  template: ChatTemplate | null,
  prompt: ChatPrompt,
  rendered: string,
): ReasoningTags | null {
  if (template === null) return null;
  // gpt-oss's analysis message, as llama-server's gpt-oss parser names its bounds.
  const tags = isHarmonyTemplate(template.source) ? HARMONY_ANALYSIS : thinkingTags(template);
  if (tags === null) return null;
  const generation_prompt = renderGenerationPrompt(template.source, prompt, rendered, {
    bos_token: template.bos_token,
    eos_token: template.eos_token,
  });
  return { start_tag: tags.start, end_tags: [tags.end], generation_prompt };
}
