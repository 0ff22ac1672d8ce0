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
import { ToolCallReader, type ReadResult } from './tool-call-reader';

/** The properties of each tool's `parameters` schema, by tool name. */
export type ToolProperties = ReadonlyMap<string, Readonly<Record<string, unknown>>>;

const FUNCTION = '<function=';
const PARAMETER = '<parameter=';
const VALUE_END = '\n</parameter>';
const FUNCTION_END = '</function>';
const CLOSE = '</tool_call>';

export class TaggedCallReader {
  private phase: 'head' | 'arguments' | 'tail' = 'head';
  private json: ToolCallReader | null = null;
  private properties: Readonly<Record<string, unknown>> = {};
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
    this.properties = this.tools.get(name) ?? {};
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
    const json = `${JSON.stringify(key)}:${typedValue(value, this.properties[key])}`;
    this.piece(result, this.written === 0 ? `{${json}` : `,${json}`);
    this.written += 1;
    result.consumed = at + end + VALUE_END.length;
    return true;
  }

  private piece(result: ReadResult, text: string): void {
    result.deltas.push({ index: this.index, arguments: text });
  }
}

/** `value` as JSON text, typed as llama-server types it by the property's schema. */
export function typedValue(value: string, schema: unknown): string {
  const types = typesOf(schema);
  if (types.size === 1 && types.has('string')) return JSON.stringify(value);
  try {
    const parsed: unknown = JSON.parse(value);
    if (typeof parsed !== 'string' || !types.has('string')) return JSON.stringify(parsed);
  } catch {
    // Not JSON: the text as a string.
  }
  return JSON.stringify(value);
}

/** The JSON types a schema allows (`type`, `enum` and `const` values, `anyOf`/`oneOf`); none where it says none. */
function typesOf(schema: unknown): Set<string> {
  const types = new Set<string>();
  if (typeof schema !== 'object' || schema === null) return types;
  const type: unknown = Reflect.get(schema, 'type');
  for (const name of Array.isArray(type) ? type : [type]) if (typeof name === 'string') types.add(name);
  const values: unknown = Reflect.get(schema, 'enum');
  for (const value of Array.isArray(values) ? values : []) types.add(value === null ? 'null' : typeof value);
  if (Reflect.has(schema, 'const')) types.add(typeof Reflect.get(schema, 'const'));
  for (const key of ['anyOf', 'oneOf']) {
    const options: unknown = Reflect.get(schema, key);
    for (const option of Array.isArray(options) ? options : []) for (const name of typesOf(option)) types.add(name);
  }
  return types;
}
