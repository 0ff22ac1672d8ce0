/**
 * The prompt of a chat that continues its final assistant message (a prefill), as llama-server
 * 0.7.0 renders it (common/chat-auto-parser-generator.cpp): the conversation before that message
 * with the template's generation prompt, then, where the template writes reasoning, that prompt
 * cut before its reasoning's opening mark, the mark, the message's reasoning and (continuing the
 * content) the closing mark; then the content. The marks are the template's own with the
 * whitespace it writes around a reasoning (`reasoningMarks`: Qwen3's `<think>\n` and
 * `\n</think>\n\n`), as llama-server's template analysis finds them (Gemma 4's, which its
 * template's history does not show: `<|channel>thought\n` and `<channel|>`, as its Gemma 4 parser
 * writes them; gpt-oss's, its analysis message and the final message's header, as its parser
 * writes them). A reasoning continued where the template writes none continues nothing: the prompt
 * ends with the generation prompt, as there.
 *
 * @example
 * // Qwen3, [user 'hi', assistant 'Sure'] continuing the content:
 * // '<|im_start|>user\nhi<|im_end|>\n<|im_start|>assistant\n<think>\n\n</think>\n\nSure'
 */
import type { ChatPrompt, Continuation } from '#core/domain/chat-prompt';
import { GEMMA_THINK_TAGS, type ThinkingTags } from '#core/domain/thinking-tags';
import type { ChatTemplate } from '#gguf/chat-template';
import { promptText, pushSegment, type PromptSegment } from './prompt-segments';
import { compileTemplate, renderChatTemplate, renderGenerationPrompt } from './render-chat-template';
import { thinkingTags } from './reasoning-tags';
import { isHarmonyTemplate } from './tool-call-format';

/** The marks around a reasoning as the template writes them, whitespace included. */
export interface ReasoningMarks {
  start: string;
  end: string;
}

export function continuedSegments(
  template: ChatTemplate,
  prompt: ChatPrompt,
  continuation: Continuation,
): PromptSegment[] {
  const last = prompt.messages.at(-1);
  const tokens = { bos_token: template.bos_token, eos_token: template.eos_token };
  if (last?.role !== 'assistant') return renderChatTemplate(template.source, prompt, tokens).segments;
  const before: ChatPrompt = {
    messages: prompt.messages.slice(0, -1),
    tools: prompt.tools,
    chat_template_kwargs: prompt.chat_template_kwargs,
    reasoning_effort: prompt.reasoning_effort,
  };
  const { segments } = renderChatTemplate(template.source, before, tokens);
  const opener = renderGenerationPrompt(template.source, before, promptText(segments), tokens);
  const marks = reasoningMarks(template);
  const out = withoutTail(segments, opener.length);
  if (marks === null) {
    pushSegment(out, opener, true);
  } else {
    const at = opener.indexOf(marks.start);
    pushSegment(out, (at < 0 ? opener : opener.slice(0, at)) + marks.start, true);
    pushSegment(out, last.reasoning_content ?? '', false);
    if (continuation === 'content') pushSegment(out, marks.end, true);
  }
  if (continuation === 'content') pushSegment(out, last.content ?? '', false);
  return out;
}

const USER = 'zq_user';
const THINKING = 'zq_thinking';
const ANSWER = 'zq_answer';

/**
 * The marks `template` writes around an assistant message's reasoning, with the whitespace between
 * them and the reasoning and after the closing one, found as llama-server's analysis finds them: a
 * render of one reasoning and answer, the text from the opening tag to the reasoning and from the
 * reasoning to the answer. The bare tags where that render does not show them so; null where the
 * template writes no reasoning this engine reads.
 */
export function reasoningMarks(template: ChatTemplate): ReasoningMarks | null {
  const known = found.get(template.source);
  if (known !== undefined) return known;
  const marks = findMarks(template);
  if (found.size >= 8) found.clear();
  found.set(template.source, marks);
  return marks;
}

const found = new Map<string, ReasoningMarks | null>();

function findMarks(template: ChatTemplate): ReasoningMarks | null {
  // gpt-oss's: its analysis message, then the final message's header (llama-server's gpt-oss parser's).
  if (isHarmonyTemplate(template.source)) return HARMONY_MARKS;
  const tags = thinkingTags(template);
  if (tags === null) return null;
  // Gemma 4's template leaves reasoning out of the history: llama-server's Gemma 4 parser's own marks.
  if (tags === GEMMA_THINK_TAGS) return { start: `${tags.start}\n`, end: tags.end };
  let rendered: string;
  try {
    rendered = compileTemplate(template.source).render({
      bos_token: template.bos_token ?? '',
      eos_token: template.eos_token ?? '',
      enable_thinking: true,
      add_generation_prompt: false,
      messages: [
        { role: 'user', content: USER },
        { role: 'assistant', content: ANSWER, reasoning_content: THINKING },
      ],
    });
  } catch {
    return bare(tags);
  }
  const reasoning = rendered.indexOf(THINKING);
  const answer = rendered.indexOf(ANSWER, reasoning);
  const start = rendered.lastIndexOf(tags.start, reasoning);
  if (reasoning < 0 || answer < 0 || start < 0) return bare(tags);
  const marks = { start: rendered.slice(start, reasoning), end: rendered.slice(reasoning + THINKING.length, answer) };
  const spaced = (mark: string, tag: string) => mark.trim() === tag;
  return spaced(marks.start, tags.start) && spaced(marks.end, tags.end) ? marks : bare(tags);
}

const HARMONY_MARKS: ReasoningMarks = {
  start: '<|channel|>analysis<|message|>',
  end: '<|end|><|start|>assistant<|channel|>final<|message|>',
};

const bare = (tags: ThinkingTags): ReasoningMarks => ({ start: tags.start, end: tags.end });

/** `segments` without their last `length` characters (the template's own text). */
function withoutTail(segments: readonly PromptSegment[], length: number): PromptSegment[] {
  const out = segments.map((segment) => ({ ...segment }));
  let left = length;
  while (left > 0 && out.length > 0) {
    const last = out[out.length - 1];
    if (last === undefined) break;
    if (last.text.length <= left) {
      left -= last.text.length;
      out.pop();
    } else {
      last.text = last.text.slice(0, last.text.length - left);
      left = 0;
    }
  }
  return out;
}
