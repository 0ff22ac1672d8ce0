/**
 * Message content: a string, or an array of `{type:'text', text}` parts joined with '\n' (as
 * vLLM and llama.cpp's server flatten parts for text-only templates). Any other part type is a
 * 400 naming `messages[i].content`.
 */
import { InvalidRequestError } from '#core/domain/errors';
import { describeValue } from '#core/openai/describe-value';
import { isRecord } from '#core/util/is-record';

/** Flattens `content` to text; `partTypes` lists the accepted part types ('text', 'refusal'). */
export function flattenContent(content: unknown, param: string, partTypes: readonly string[] = ['text']): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) {
    throw new InvalidRequestError(
      `Invalid type for '${param}': expected a string or an array of content parts, but got ${describeValue(content)} instead.`,
      param,
    );
  }
  return content.map((part, i) => partText(part, `${param}[${i}]`, param, partTypes)).join('\n');
}

function partText(part: unknown, at: string, param: string, partTypes: readonly string[]): string {
  if (!isRecord(part)) {
    throw new InvalidRequestError(
      `Invalid type for '${at}': expected an object, but got ${describeValue(part)} instead.`,
      param,
    );
  }
  const type = part.type;
  if (typeof type !== 'string' || !partTypes.includes(type)) {
    throw new InvalidRequestError(
      `Invalid content part type in '${param}': ${typeof type === 'string' ? `'${type}'` : describeValue(type)} is not supported here; supported: ${partTypes.map((t) => `'${t}'`).join(', ')}.`,
      param,
    );
  }
  const text = part[type === 'refusal' ? 'refusal' : 'text'];
  if (typeof text !== 'string') {
    throw new InvalidRequestError(
      `Invalid type for '${at}.${type === 'refusal' ? 'refusal' : 'text'}': expected a string.`,
      param,
    );
  }
  return text;
}
