/**
 * A conversation's messages as llama-server 0.7.0 hands them to a chat template (its workarounds
 * in common/chat.cpp): a `developer` message is a `system` one, but on gpt-oss's template, which
 * has a developer role of its own; where the template has no system role (Gemma 2's refuses one),
 * a first system message goes in front of the next message's content, after a newline, or goes
 * where nothing follows it.
 *
 * @example
 * handOver(QWEN3, { messages: [{ role: 'developer', content: 'Be brief.' }, …], … }) // [{ role: 'system', content: 'Be brief.' }, …]
 */
import type { ChatMessage } from '#core/domain/chat-prompt';
import type { SpecialTokens } from './render-chat-template';
import { supportsSystemRole } from './template-caps';
import type { TemplateRequest } from './template-inputs';
import { isHarmonyTemplate } from './tool-call-format';

export function handOver(request: TemplateRequest, source: string, tokens: SpecialTokens = {}): TemplateRequest {
  const developer = request.messages.some((message) => message.role === 'developer');
  let messages = developer && !isHarmonyTemplate(source) ? request.messages.map(asSystem) : request.messages;
  const [first, next, ...rest] = messages;
  if (first?.role === 'system' && !supportsSystemRole(source, tokens))
    messages = next === undefined ? [] : [{ ...next, content: `${first.content}\n${next.content ?? ''}` }, ...rest];
  return messages === request.messages ? request : { ...request, messages };
}

function asSystem(message: ChatMessage): ChatMessage {
  return message.role === 'developer' ? { ...message, role: 'system' } : message;
}
