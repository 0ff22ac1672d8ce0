/**
 * Reads one tagged tool call, incrementally, from the text after `<tool_call>`, as llama-server's
 * Qwen3-Coder parser reads it (common/parsers/qwen3-coder.cpp; Qwen3-Coder's and Qwen3.5's
 * templates): `<function=NAME>`, then per argument `<parameter=KEY>\nVALUE\n</parameter>`, then
 * `</function>` and `</tool_call>`. The call starts once its name is known; each argument goes out
 * as a piece of the JSON arguments once its value ends, typed by the tool's schema: a string
 * property's value is the text as written, any other is read as JSON (and is a string where it is
 * none). A block that is no tagged call is read by Hermes's reader: a JSON call (`{"name": …}`, as a
 * model may still write), else the block's text as content.
 */
import { valueTypes } from '#core/constraints/schema-kinds';
import { ToolCallReader, type ReadResult } from './tool-call-reader';

/** A tool's `parameters` schema: its properties, and the whole (where their `$ref`s resolve). */
export interface ToolParameters {
  readonly properties: Readonly<Record<string, unknown>>;
  readonly root: unknown;
}

/** Each tool's parameters, by tool name. */
export type ToolProperties = ReadonlyMap<string, ToolParameters>;

/** A tool not listed: no properties. */
export const NO_PARAMETERS: ToolParameters = { properties: {}, root: {} };

const FUNCTION = '<function=';
const PARAMETER = '<parameter=';
const VALUE_END = '\n</parameter>';
const FUNCTION_END = '</function>';
const CLOSE = '</tool_call>';

export class TaggedCallReader {
  private phase: 'head' | 'arguments' | 'tail' = 'head';
  private json: ToolCallReader | null = null;
  private parameters = NO_PARAMETERS;
  private written = 0;

  constructor(
    private readonly index: number,
    private readonly newId: () => string,
    private readonly tools: ToolProperties,
  ) {}

  /** Reads as much of `text` (the block's unread text) as can be decided; `final`: no more will come. */
  read(text: string, final: boolean): ReadResult {
    if (this.json) return this.json.read(text, final);
    const result: ReadResult = { consumed: 0, deltas: [], content: '', closed: false };
    if (this.phase === 'head' && !this.head(text, final, result)) return result;
    while (this.phase === 'arguments' && this.argument(text, final, result));
    if (this.phase === 'tail') {
      const end = text.indexOf(CLOSE, result.consumed);
      if (end >= 0) return { ...result, consumed: end + CLOSE.length, closed: true };
    }
    return final ? { ...result, consumed: text.length, closed: true } : result;
  }

  /**
   * `<function=NAME>`: the call's start; false where more text is needed, or where the block is no
   * tagged call: then Hermes's reader reads it (a JSON call, or else the block's text as content).
   */
  private head(text: string, final: boolean, result: ReadResult): boolean {
    const at = text.length - text.trimStart().length;
    const rest = text.slice(at);
    const close = rest.indexOf('>');
    const tagged = rest.startsWith(FUNCTION);
    if (!final && (FUNCTION.startsWith(rest) || (tagged && close < 0))) return false;
    if (!tagged || close < 0) {
      this.json = new ToolCallReader(this.index, this.newId);
      Object.assign(result, this.json.read(text, final));
      return false;
    }
    const name = rest.slice(FUNCTION.length, close);
    this.parameters = this.tools.get(name) ?? NO_PARAMETERS;
    result.deltas.push({ index: this.index, id: this.newId(), name, arguments: '' });
    result.consumed = at + close + 1;
    this.phase = 'arguments';
    return true;
  }

  /** One `<parameter=KEY>\nVALUE\n</parameter>`, or `</function>`; false where more text is needed. */
  private argument(text: string, final: boolean, result: ReadResult): boolean {
    const from = result.consumed;
    const rest = text.slice(from).trimStart();
    const at = text.length - rest.length;
    if (rest.startsWith(FUNCTION_END)) {
      this.piece(result, this.written === 0 ? '{}' : '}');
      result.consumed = at + FUNCTION_END.length;
      this.phase = 'tail';
      return false;
    }
    if (!rest.startsWith(PARAMETER)) {
      const waiting = !final && (rest === '' || PARAMETER.startsWith(rest) || FUNCTION_END.startsWith(rest));
      if (!waiting) this.phase = 'tail';
      return false;
    }
    const close = rest.indexOf('>');
    const end = close < 0 ? -1 : rest.indexOf(VALUE_END, close);
    if (end < 0) return false;
    const key = rest.slice(PARAMETER.length, close);
    const value = rest.slice(close + 1, end).replace(/^\n/, '');
    const json = `${JSON.stringify(key)}:${typedValue(value, this.parameters.properties[key], this.parameters.root)}`;
    this.piece(result, this.written === 0 ? `{${json}` : `,${json}`);
    this.written += 1;
    result.consumed = at + end + VALUE_END.length;
    return true;
  }

  private piece(result: ReadResult, text: string): void {
    result.deltas.push({ index: this.index, arguments: text });
  }
}

/**
 * `value` as JSON text, typed as llama-server's Qwen3-Coder parser types it by the property's
 * schema (`valueTypes`): the text as a string where only a string is allowed; its JSON where no
 * string is; else its JSON where that is of an allowed type other than a string, the text as a
 * string otherwise. Text that is no JSON is a string.
 */
export function typedValue(value: string, schema: unknown, root?: unknown): string {
  const types = valueTypes(schema, root);
  if (types.size === 1 && types.has('string')) return JSON.stringify(value);
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    return JSON.stringify(value);
  }
  if (!types.has('string') || allows(types, parsed)) return JSON.stringify(parsed);
  return JSON.stringify(value);
}

/** Whether a parsed JSON value is of one of `types` other than a string (a number for `number` or `integer`). */
function allows(types: ReadonlySet<string>, value: unknown): boolean {
  if (value === null) return types.has('null');
  if (Array.isArray(value)) return types.has('array');
  if (typeof value === 'number') return types.has('number') || types.has('integer');
  if (typeof value === 'boolean') return types.has('boolean');
  return typeof value === 'object' && types.has('object');
}
