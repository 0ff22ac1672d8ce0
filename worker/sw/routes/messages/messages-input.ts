/**
 * Anthropic's `system` and `messages` as chat messages, the way llama.cpp's server converts them:
 * `system` (a string, or text blocks joined with nothing) is one system message; a message's
 * text blocks are its content (joined with '\n', as chat content parts are); `thinking` blocks are
 * its `reasoning_content` (`redacted_thinking` is dropped); `tool_use` blocks are its tool calls
 * (arguments: the `input` as JSON); each `tool_result` block becomes a `tool` message after it
 * (text blocks joined with nothing). A user message's `image` blocks stand in its text as the
 * request's media marker (issue 32), joined as chat parts are, and go to `media`; documents are a 400.
 */
import { InvalidRequestError } from '#core/domain/errors';
import { isRecord } from '#core/util/is-record';
import { rejectUnknownKeys, requireKey } from '#core/openai/parse-body';
import { typeError } from '../../conversation/validate-chat-tools';
import type { ChatMessage, ToolCall } from '../../conversation/chat-types';
import type { ChatMedia } from '../../conversation/chat-media';
import { joinMediaPieces } from '../../conversation/media-content';
import { imageBlockPart } from './messages-media';

/** Keys any block may carry that cannot change the text (prompt caching, citations). */
const ADVISORY = ['cache_control', 'citations'];
const BLOCK_KEYS: Readonly<Record<string, readonly string[]>> = {
  text: ['text'],
  thinking: ['thinking', 'signature'],
  redacted_thinking: ['data'],
  tool_use: ['id', 'name', 'input'],
  tool_result: ['tool_use_id', 'content', 'is_error'],
  image: ['source'],
};
const ROLE_BLOCKS = {
  user: ['text', 'image', 'tool_result'],
  assistant: ['text', 'thinking', 'redacted_thinking', 'tool_use'],
} as const;

/** The system message, if any: a string, or text blocks joined with nothing. */
export function systemMessages(system: unknown): ChatMessage[] {
  if (system == null) return [];
  if (typeof system === 'string') return [{ role: 'system', content: system }];
  if (!Array.isArray(system)) throw typeError('system', 'a string or an array of text blocks', system);
  const content = system.map((block: unknown, i) => textOf(block, `system[${i}]`)).join('');
  return [{ role: 'system', content }];
}

/** `messages` (user and assistant turns of strings or blocks) as chat messages; their images go to `media`. */
export function conversationMessages(messages: unknown, media: ChatMedia): ChatMessage[] {
  if (!Array.isArray(messages)) throw typeError('messages', 'an array', messages);
  if (messages.length === 0)
    throw new InvalidRequestError('messages: at least one message is required.', 'messages', 'empty_array');
  return messages.flatMap((message: unknown, i) => turn(message, `messages[${i}]`, media));
}

function turn(message: unknown, at: string, media: ChatMedia): ChatMessage[] {
  if (!isRecord(message)) throw typeError(at, 'an object', message);
  rejectUnknownKeys(message, new Set(['role', 'content']), `${at}.`);
  const role = requireKey(message, 'role', `${at}.`);
  if (role !== 'user' && role !== 'assistant') {
    throw new InvalidRequestError(
      `${at}.role: Input should be 'user' or 'assistant' (put system text in the top-level 'system').`,
      `${at}.role`,
    );
  }
  const content = requireKey(message, 'content', `${at}.`);
  if (typeof content === 'string') return [{ role, content }];
  if (!Array.isArray(content)) throw typeError(`${at}.content`, 'a string or an array of content blocks', content);
  // Texts, and null for each image (its part in `media`).
  const texts: Array<string | null> = [];
  const calls: ToolCall[] = [];
  const results: ChatMessage[] = [];
  let reasoning = '';
  content.forEach((block: unknown, i) => {
    const here = `${at}.content[${i}]`;
    const type = blockType(block, here, ROLE_BLOCKS[role]);
    if (type === 'text') texts.push(field(block, 'text', here));
    else if (type === 'image' && isRecord(block)) {
      media.parts.push(imageBlockPart(block, here));
      texts.push(null);
    } else if (type === 'thinking') reasoning += field(block, 'thinking', here);
    else if (type === 'tool_use') calls.push(toolCall(block, here));
    else if (type === 'tool_result') results.push(toolResult(block, here));
  });
  const out: ChatMessage[] = [];
  if (texts.length > 0 || calls.length > 0 || reasoning !== '') {
    const text = joinMediaPieces(texts, media.marker);
    if (role === 'user') out.push({ role, content: text });
    else
      out.push({
        role,
        content: text,
        ...(calls.length > 0 ? { tool_calls: calls } : {}),
        ...(reasoning === '' ? {} : { reasoning_content: reasoning }),
      });
  }
  return [...out, ...results];
}

/** The block's type, checked against those `role` may send, and its keys against the type's. */
function blockType(block: unknown, at: string, allowed: readonly string[]): string {
  if (!isRecord(block)) throw typeError(at, 'an object (a content block)', block);
  const type = requireKey(block, 'type', `${at}.`);
  if (typeof type !== 'string' || !allowed.includes(type)) {
    throw new InvalidRequestError(
      `${at}.type: ${JSON.stringify(type)} blocks are not supported here; supported: ${allowed.map((t) => `'${t}'`).join(', ')} (the models here read text only).`,
      `${at}.type`,
    );
  }
  rejectUnknownKeys(block, new Set(['type', ...ADVISORY, ...(BLOCK_KEYS[type] ?? [])]), `${at}.`);
  return type;
}

function textOf(block: unknown, at: string): string {
  blockType(block, at, ['text']);
  return field(block, 'text', at);
}

function field(block: unknown, key: string, at: string): string {
  const value = isRecord(block) ? requireKey(block, key, `${at}.`) : undefined;
  if (typeof value !== 'string') throw typeError(`${at}.${key}`, 'a string', value);
  return value;
}

function toolCall(block: unknown, at: string): ToolCall {
  const input = isRecord(block) ? requireKey(block, 'input', `${at}.`) : undefined;
  if (!isRecord(input)) throw typeError(`${at}.input`, 'an object', input);
  const id = field(block, 'id', at);
  return { id, type: 'function', function: { name: field(block, 'name', at), arguments: JSON.stringify(input) } };
}

function toolResult(block: unknown, at: string): ChatMessage {
  const id = field(block, 'tool_use_id', at);
  const content = isRecord(block) ? block.content : undefined;
  if (content == null) return { role: 'tool', tool_call_id: id, content: '' };
  if (typeof content === 'string') return { role: 'tool', tool_call_id: id, content };
  if (!Array.isArray(content)) throw typeError(`${at}.content`, 'a string or an array of text blocks', content);
  const text = content.map((part: unknown, i) => textOf(part, `${at}.content[${i}]`)).join('');
  return { role: 'tool', tool_call_id: id, content: text };
}
