/**
 * Renders a model's Jinja chat template (`tokenizer.chat_template`) for a chat request with
 * @huggingface/jinja, returning SEGMENTS: text from the template may hold control tokens, text
 * from the request never does. The template runs twice, once on the real strings and once on
 * sentinels; `alignRender` segments the real text, `substituteRender` is the safe fallback.
 *
 * @example
 * renderChatTemplate(QWEN3, { messages: [{ role: 'user', content: 'abc' }], tools: [], chat_template_kwargs: {}, reasoning_effort: null })
 * // [{ text: '<|im_start|>user\n', special: true }, { text: 'abc', special: false }, { text: '<|im_end|>\n<|im_start|>assistant\n', special: true }]
 */
import { Template } from '@huggingface/jinja';
import { InvalidRequestError, InternalServerError } from '#core/domain/errors';
import { alignRender, substituteRender } from './align-render';
import { handOver } from './message-hand-over';
import { usePythonText } from './jinja-python-text';
import { SentinelTable } from './template-sentinels';
import { reasoningField, templateInputs, withThinkingDefault, type TemplateRequest } from './template-inputs';
import type { PromptSegment } from './prompt-segments';

export interface SpecialTokens {
  bos_token?: string;
  eos_token?: string;
}

export interface RenderedPrompt {
  segments: PromptSegment[];
  /** false when the fallback was used: the template saw sentinels where it branched on content. */
  exact: boolean;
}

const compiled = new Map<string, Template>();

/** `source` compiled, from a small cache (the engine's values written as llama-server's: usePythonText). */
export function compileTemplate(source: string): Template {
  usePythonText();
  let template = compiled.get(source);
  if (template === undefined) {
    try {
      template = new Template(source);
    } catch (error) {
      throw new InternalServerError(
        `The model's chat template cannot be parsed: ${messageOf(error)}`,
        'chat_template_error',
      );
    }
    if (compiled.size >= 4) compiled.clear();
    compiled.set(source, template);
  }
  return template;
}

export function renderChatTemplate(source: string, asked: TemplateRequest, tokens: SpecialTokens = {}): RenderedPrompt {
  const template = compileTemplate(source);
  const request = handOver(withThinkingDefault(asked, source), source, tokens);
  const globals = { bos_token: tokens.bos_token ?? '', eos_token: tokens.eos_token ?? '' };
  const field = reasoningField(source);
  const real = run(template, { ...templateInputs(request, undefined, undefined, field), ...globals });
  const table = new SentinelTable(JSON.stringify(request) + source);
  const wrap = (s: string) => table.wrap(s);
  let sentinels: string;
  try {
    sentinels = run(template, { ...templateInputs(request, wrap, wrap, field), ...globals });
  } catch (error) {
    // A template that checks call ids (Mistral's: 9 letters or digits) refuses a sentinel. Ids of
    // letters, digits, `_` and `-` hold no control token, so those go in as they are.
    if (!plainCallIds(request)) throw error;
    sentinels = run(template, { ...templateInputs(request, wrap, (s) => s, field), ...globals });
  }
  const parts = table.split(sentinels);
  const aligned = alignRender(real, parts, table.values);
  if (aligned !== null) return { segments: aligned, exact: true };
  if (parts.some((p) => typeof p === 'string' && table.leaks(p))) {
    throw new InternalServerError(
      'The chat template altered message text in a way that cannot be rendered safely.',
      'chat_template_error',
    );
  }
  return { segments: substituteRender(parts, table.values), exact: false };
}

/**
 * The text the template adds to open the answer (`add_generation_prompt`), as llama-server
 * finds it (common_chat_template_generation_prompt): `rendered` (the request's prompt, rendered
 * with it) past the longest prefix it shares with the render without it. '' where that render fails.
 */
export function renderGenerationPrompt(
  source: string,
  request: TemplateRequest,
  rendered: string,
  tokens: SpecialTokens = {},
): string {
  const globals = { bos_token: tokens.bos_token ?? '', eos_token: tokens.eos_token ?? '' };
  let without: string;
  try {
    without = compileTemplate(source).render({
      ...templateInputs(
        handOver(withThinkingDefault(request, source), source, tokens),
        undefined,
        undefined,
        reasoningField(source),
      ),
      ...globals,
      add_generation_prompt: false,
    });
  } catch {
    return '';
  }
  let shared = 0;
  while (shared < without.length && shared < rendered.length && without[shared] === rendered[shared]) shared += 1;
  return rendered.slice(shared);
}

/** Whether every tool-call id in the conversation is letters, digits, `_` and `-` only. */
function plainCallIds(request: TemplateRequest): boolean {
  const ids = request.messages.flatMap((message) =>
    message.role === 'tool'
      ? [message.tool_call_id]
      : message.role === 'assistant'
        ? (message.tool_calls ?? []).map((call) => call.id)
        : [],
  );
  return ids.length > 0 && ids.every((id) => /^[A-Za-z0-9_-]+$/.test(id));
}

function run(template: Template, variables: Record<string, unknown>): string {
  try {
    return template.render(variables);
  } catch (error) {
    // raise_exception() in templates reports conversation-shape errors ("roles must alternate").
    throw new InvalidRequestError(
      `The model's chat template rejected the messages: ${messageOf(error)}`,
      'messages',
      'chat_template_error',
    );
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
