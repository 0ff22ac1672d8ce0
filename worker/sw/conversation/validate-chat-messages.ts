/**
 * Validates `messages` of a chat request, one role at a time, naming the offending field as
 * `messages[i].field`. Content parts are flattened to text (see `flattenContent`); a user
 * message's image and audio parts become the request's media marker in its text, collected in
 * `media` (see `flattenMediaContent`).
 */
import { InvalidRequestError } from '#core/domain/errors';
import { describeValue } from '#core/openai/describe-value';
import { isRecord } from '#core/util/is-record';
import { rejectUnknownKeys, requireKey } from '#core/openai/parse-body';
import { flattenContent } from './chat-content';
import type { ChatMedia } from './chat-media';
import { flattenMediaContent, isMediaPart } from './media-content';
import type { ChatMessage, ToolCall } from './chat-types';

const ROLES = ['system', 'developer', 'user', 'assistant', 'tool'] as const;

const KEYS: Record<(typeof ROLES)[number], ReadonlySet<string>> = {
  system: new Set(['role', 'content', 'name']),
  developer: new Set(['role', 'content', 'name']),
  user: new Set(['role', 'content', 'name']),
  assistant: new Set(['role', 'content', 'name', 'tool_calls', 'reasoning_content', 'refusal']),
  tool: new Set(['role', 'content', 'tool_call_id']),
};

/** Validates the `messages` array; throws `InvalidRequestError` (400). */
export function validateChatMessages(messages: unknown, media: ChatMedia): ChatMessage[] {
  if (!Array.isArray(messages)) {
    throw new InvalidRequestError(
      `Invalid type for 'messages': expected an array, but got ${describeValue(messages)} instead.`,
      'messages',
    );
  }
  if (messages.length === 0) {
    throw new InvalidRequestError(
      "Invalid 'messages': empty array. Expected an array with minimum length 1.",
      'messages',
      'empty_array',
    );
  }
  return messages.map((message, i) => validateMessage(message, `messages[${i}]`, media));
}

function validateMessage(message: unknown, at: string, media: ChatMedia): ChatMessage {
  if (!isRecord(message)) {
    throw new InvalidRequestError(
      `Invalid type for '${at}': expected an object, but got ${describeValue(message)} instead.`,
      at,
    );
  }
  const role = requireKey(message, 'role', `${at}.`);
  const known = ROLES.find((r) => r === role);
  if (known === undefined) {
    throw new InvalidRequestError(
      `Invalid value for '${at}.role': ${JSON.stringify(role)}; supported values are: ${ROLES.map((r) => `'${r}'`).join(', ')}.`,
      `${at}.role`,
    );
  }
  rejectUnknownKeys(message, KEYS[known], `${at}.`);
  const name = optionalString(message, 'name', at);
  const named = name === undefined ? {} : { name };
  switch (known) {
    case 'tool': {
      const toolCallId = requireKey(message, 'tool_call_id', `${at}.`);
      if (typeof toolCallId !== 'string') throw typeError(`${at}.tool_call_id`, 'a string', toolCallId);
      return {
        role: 'tool',
        content: flattenContent(requireKey(message, 'content', `${at}.`), `${at}.content`),
        tool_call_id: toolCallId,
      };
    }
    case 'assistant':
      return assistantMessage(message, at, named);
    case 'user':
      return {
        role: known,
        content: userContent(requireKey(message, 'content', `${at}.`), `${at}.content`, media),
        ...named,
      };
    case 'system':
    case 'developer':
      return {
        role: known,
        content: flattenContent(requireKey(message, 'content', `${at}.`), `${at}.content`),
        ...named,
      };
  }
}

/** A user message's content as text: its media parts (images, audio) as `media`'s marker, collected there. */
function userContent(content: unknown, param: string, media: ChatMedia): string {
  if (!Array.isArray(content) || !content.some(isMediaPart)) return flattenContent(content, param);
  const flat = flattenMediaContent(content, param, media.marker);
  media.parts.push(...flat.media);
  return flat.text;
}

function assistantMessage(message: Record<string, unknown>, at: string, named: { name?: string }): ChatMessage {
  const toolCalls = message.tool_calls == null ? [] : validateToolCalls(message.tool_calls, `${at}.tool_calls`);
  if (message.content == null && toolCalls.length === 0) {
    throw new InvalidRequestError(
      `Missing required parameter: '${at}.content'.`,
      `${at}.content`,
      'missing_required_parameter',
    );
  }
  const content =
    message.content == null ? null : flattenContent(message.content, `${at}.content`, ['text', 'refusal']);
  const reasoning = optionalString(message, 'reasoning_content', at);
  optionalString(message, 'refusal', at);
  return {
    role: 'assistant',
    content,
    ...named,
    ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}),
    ...(reasoning === undefined ? {} : { reasoning_content: reasoning }),
  };
}

function validateToolCalls(value: unknown, at: string): ToolCall[] {
  if (!Array.isArray(value)) throw typeError(at, 'an array', value);
  return value.map((call: unknown, i) => {
    const here = `${at}[${i}]`;
    if (!isRecord(call)) throw typeError(here, 'an object', call);
    rejectUnknownKeys(call, new Set(['id', 'type', 'function']), `${here}.`);
    const id = requireKey(call, 'id', `${here}.`);
    if (typeof id !== 'string') throw typeError(`${here}.id`, 'a string', id);
    if (call.type != null && call.type !== 'function') {
      throw new InvalidRequestError(
        `Invalid value for '${here}.type': only 'function' tool calls are supported.`,
        `${here}.type`,
      );
    }
    const fn = requireKey(call, 'function', `${here}.`);
    if (!isRecord(fn)) throw typeError(`${here}.function`, 'an object', fn);
    rejectUnknownKeys(fn, new Set(['name', 'arguments']), `${here}.function.`);
    const name = requireKey(fn, 'name', `${here}.function.`);
    const args = requireKey(fn, 'arguments', `${here}.function.`);
    if (typeof name !== 'string') throw typeError(`${here}.function.name`, 'a string', name);
    if (typeof args !== 'string') throw typeError(`${here}.function.arguments`, 'a string', args);
    return { id, type: 'function', function: { name, arguments: args } };
  });
}

function optionalString(message: Record<string, unknown>, key: string, at: string): string | undefined {
  const value = message[key];
  if (value == null) return undefined;
  if (typeof value !== 'string') throw typeError(`${at}.${key}`, 'a string', value);
  return value;
}

function typeError(param: string, expected: string, got: unknown): InvalidRequestError {
  return new InvalidRequestError(
    `Invalid type for '${param}': expected ${expected}, but got ${describeValue(got)} instead.`,
    param,
  );
}
