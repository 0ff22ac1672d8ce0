/**
 * Parses one tool call's JSON: `{"name": …, "arguments": {…}}` (Hermes/Qwen's `<tool_call>` body,
 * Mistral's array element), or `"parameters"` (Llama 3.x). Arguments are returned as a JSON string,
 * as OpenAI's `function.arguments` is.
 */
import { parseJsonObject } from '#core/util/parse-json-object';

export interface ParsedToolCall {
  id: string;
  name: string;
  arguments: string;
}

/** null when the body is not a JSON object with a string `name` (the block is then content). */
export function parseToolCall(body: string, newId: () => string): ParsedToolCall | null {
  const parsed = parseJsonObject(body);
  if (parsed === null) return null;
  const name = parsed['name'];
  const args = parsed['arguments'] ?? parsed['parameters'] ?? {};
  if (typeof name !== 'string' || name === '') return null;
  return { id: newId(), name, arguments: typeof args === 'string' ? args : JSON.stringify(args) };
}
