/**
 * Converts Responses API `input` (a string, or message / function_call / function_call_output
 * items) and `instructions` into chat messages. Stateless: `item_reference` is a 400, and
 * `reasoning` items are dropped (templates drop past reasoning anyway). A user message's
 * `input_image`, `input_audio` and `input_file` parts stand in its text as the request's media marker (issue
 * 32), joined as chat parts are, and go to `media`.
 */
import { InvalidRequestError } from '#core/domain/errors';
import { describeValue } from '#core/openai/describe-value';
import { isRecord } from '#core/util/is-record';
import { requireKey } from '#core/openai/parse-body';
import { flattenContent } from '../../conversation/chat-content';
import type { ChatMessage } from '../../conversation/chat-types';
import type { ChatMedia } from '../../conversation/chat-media';
import { joinMediaPieces } from '../../conversation/media-content';
import { inputAudioPart, inputFilePart, inputImagePart } from './responses-media';

const ROLES = ['system', 'developer', 'user', 'assistant'] as const;

export function responsesMessages(input: unknown, instructions: string | null, media: ChatMedia): ChatMessage[] {
  const messages: ChatMessage[] = instructions === null ? [] : [{ role: 'system', content: instructions }];
  if (typeof input === 'string') return [...messages, { role: 'user', content: input }];
  if (!Array.isArray(input)) {
    throw new InvalidRequestError(
      `Invalid type for 'input': expected a string or an array of input items, but got ${describeValue(input)} instead.`,
      'input',
    );
  }
  input.forEach((item: unknown, i) => addItem(messages, item, `input[${i}]`, media));
  return messages;
}

function addItem(messages: ChatMessage[], item: unknown, at: string, media: ChatMedia): void {
  if (!isRecord(item)) throw new InvalidRequestError(`Invalid type for '${at}': expected an object.`, at);
  const type = item.type ?? 'message';
  switch (type) {
    case 'message': {
      const role = ROLES.find((r) => r === item.role);
      if (role === undefined)
        throw new InvalidRequestError(
          `Invalid value for '${at}.role': ${JSON.stringify(item.role ?? null)}.`,
          `${at}.role`,
        );
      const parts = role === 'assistant' ? ['output_text', 'refusal'] : ['input_text'];
      const raw = requireKey(item, 'content', `${at}.`);
      const content =
        role === 'user' && hasMedia(raw)
          ? withMedia(raw, `${at}.content`, media)
          : flattenContent(raw, `${at}.content`, parts);
      messages.push(role === 'assistant' ? { role, content } : { role, content });
      return;
    }
    case 'function_call': {
      const call = {
        id: text(item, 'call_id', at),
        type: 'function' as const,
        function: { name: text(item, 'name', at), arguments: text(item, 'arguments', at) },
      };
      const last = messages.at(-1);
      if (last?.role === 'assistant') last.tool_calls = [...(last.tool_calls ?? []), call];
      else messages.push({ role: 'assistant', content: null, tool_calls: [call] });
      return;
    }
    case 'function_call_output': {
      const output = requireKey(item, 'output', `${at}.`);
      const content = typeof output === 'string' ? output : flattenContent(output, `${at}.output`, ['input_text']);
      messages.push({ role: 'tool', tool_call_id: text(item, 'call_id', at), content });
      return;
    }
    case 'reasoning':
      return;
    case 'item_reference':
      throw new InvalidRequestError(
        `'${at}' is an item_reference: this endpoint is stateless and stores nothing, so send the items themselves (with the AI SDK, set store: false).`,
        at,
        'stateless_endpoint',
      );
    default:
      throw new InvalidRequestError(
        `Invalid value for '${at}.type': ${JSON.stringify(type)} items are not supported here.`,
        `${at}.type`,
      );
  }
}

const MEDIA_TYPES = ['input_image', 'input_audio', 'input_file'];
const MEDIA_PARTS: ReadonlySet<unknown> = new Set(MEDIA_TYPES);

const hasMedia = (content: unknown): content is unknown[] =>
  Array.isArray(content) && content.some((part) => isRecord(part) && MEDIA_PARTS.has(part.type));

/** A user message's text, image and audio parts as text, each medium as `media`'s marker (collected there). */
function withMedia(content: unknown[], param: string, media: ChatMedia): string {
  const pieces = content.map((part, j) => {
    const at = `${param}[${j}]`;
    if (isRecord(part) && MEDIA_PARTS.has(part.type)) {
      const read =
        part.type === 'input_image' ? inputImagePart : part.type === 'input_audio' ? inputAudioPart : inputFilePart;
      media.parts.push(read(part, at));
      return null;
    }
    return flattenContent([part], param, ['input_text', ...MEDIA_TYPES]);
  });
  return joinMediaPieces(pieces, media.marker);
}

function text(item: Record<string, unknown>, key: string, at: string): string {
  const value = requireKey(item, key, `${at}.`);
  if (typeof value !== 'string')
    throw new InvalidRequestError(
      `Invalid type for '${at}.${key}': expected a string, but got ${describeValue(value)} instead.`,
      `${at}.${key}`,
    );
  return value;
}
