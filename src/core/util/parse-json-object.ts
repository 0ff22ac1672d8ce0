/**
 * `text` read as a JSON object (not an array, not null), or null where it is no JSON or another
 * value: a tool call's body or arguments, on either side of the engine.
 *
 * @example
 * parseJsonObject('{"a": 1}') // { a: 1 }
 * parseJsonObject('[1]') // null
 */
import { isRecord } from './is-record';

export function parseJsonObject(text: string): Record<string, unknown> | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return null;
  }
  return isRecord(parsed) ? parsed : null;
}
