/**
 * How a chat template writes a tool call, as llama-server's template analysis finds it for the
 * JSON-native formats (common/chat-auto-parser: `JSON_NATIVE`, with or without a section tag): a
 * JSON object `{"name": <fn>, <args>: {...}}`, alone or after an opening text, one per call or all
 * in one array. The engine finds it from the template (worker/engine/chat/tool-call-format.ts);
 * the SW's parser reads calls in it, and strict tools' grammar writes them in it.
 *
 * @example
 * HERMES_TOOL_FORMAT // Qwen 2.5/3, Hermes: <tool_call>\n{"name": "f", "arguments": {...}}\n</tool_call>
 * { open: '', close: '', args: 'parameters', array: false } // Llama 3.x: {"name": "f", "parameters": {...}}
 * { open: '[TOOL_CALLS]', close: '', args: 'arguments', array: true } // Mistral Nemo: [TOOL_CALLS][{...}, {...}]
 */
export interface ToolCallFormat {
  /** The text before a call (before the array of calls where `array`); '' where a call is bare JSON. */
  readonly open: string;
  /** The text after a call (after the array); '' where the JSON's end ends it. */
  readonly close: string;
  /** The key of the call's arguments object: `arguments`, or `parameters` (Llama 3.x). */
  readonly args: string;
  /** The calls are one JSON array after `open` (`[{...}, {...}]`). */
  readonly array: boolean;
}

/** Hermes/Qwen's `<tool_call>` blocks: the format of a template that shows none (the default). */
export const HERMES_TOOL_FORMAT: ToolCallFormat = {
  open: '<tool_call>',
  close: '</tool_call>',
  args: 'arguments',
  array: false,
};

/** Whether two formats are the same. */
export function sameToolFormat(a: ToolCallFormat, b: ToolCallFormat): boolean {
  return a.open === b.open && a.close === b.close && a.args === b.args && a.array === b.array;
}
