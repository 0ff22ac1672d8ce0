/**
 * Whether a chat continues its final assistant message (an assistant prefill), as llama-server
 * 0.7.0 decides it with its default `prefill_assistant` (tools/server/server-common.cpp,
 * common/chat.cpp): a conversation that ends with an assistant message continues it, unless two
 * assistant messages end it (a 400); `continue_final_message` (true, `"content"` or
 * `"reasoning_content"`) asks for it, and cannot go with `add_generation_prompt` true (its default:
 * a 400); a message with tool calls cannot be continued (a 400). Asked as `true` or found, the
 * content is continued, or the reasoning where the message has reasoning and no content. Where the
 * last message is no assistant's, nothing is continued (llama-server would continue a user's).
 *
 * @example
 * readContinuation([{ role: 'user', content: 'hi' }, { role: 'assistant', content: 'Sure:' }], {}) // 'content'
 */
import { InvalidRequestError } from '#core/domain/errors';
import type { ChatMessage, Continuation } from '#core/domain/chat-prompt';

export interface ContinuationFields {
  continue_final_message?: unknown;
  add_generation_prompt?: boolean | null;
}

export function readContinuation(messages: readonly ChatMessage[], fields: ContinuationFields): Continuation | null {
  let asked = parse(fields.continue_final_message);
  const last = messages.at(-1);
  let generationPrompt = fields.add_generation_prompt ?? true;
  if (asked === null && last?.role === 'assistant') {
    if (messages.at(-2)?.role === 'assistant')
      throw new InvalidRequestError('Cannot have 2 or more assistant messages at the end of the list.', 'messages');
    asked = 'auto';
    generationPrompt = false;
  }
  if (asked === null) return null;
  if (generationPrompt)
    throw new InvalidRequestError(
      'Cannot set both add_generation_prompt and continue_final_message to true.',
      'continue_final_message',
    );
  if (last?.role !== 'assistant') return null;
  if ((last.tool_calls ?? []).length > 0)
    throw new InvalidRequestError('Cannot continue an assistant message that contains tool calls.', 'messages');
  if (asked !== 'auto') return asked;
  const reasoningOnly = (last.reasoning_content ?? '') !== '' && (last.content ?? '') === '';
  return reasoningOnly ? 'reasoning' : 'content';
}

/** `continue_final_message` as llama-server reads it: true, `"content"`, `"reasoning_content"`; anything else is none. */
function parse(value: unknown): Continuation | 'auto' | null {
  if (value === true) return 'auto';
  if (value === 'content') return 'content';
  if (value === 'reasoning_content') return 'reasoning';
  return null;
}

/** The text a continued message already has where it is continued: its content, or its reasoning. */
export function continuedText(messages: readonly ChatMessage[], continuation: Continuation | null): string {
  const last = messages.at(-1);
  if (continuation === null || last?.role !== 'assistant') return '';
  return (continuation === 'reasoning' ? last.reasoning_content : last.content) ?? '';
}
