/**
 * Reads one XML tool call, incrementally, from the text after `<function name="`, as llama-server's
 * MiniCPM5 parser reads it (common/parsers/minicpm5.cpp): the name and `">`, then per argument
 * `<param name="KEY">VALUE</param>` (whitespace between them allowed), then `</function>`. The call
 * starts once its name is there; each argument goes out as a piece of the JSON arguments once its
 * value ends: a value whose property may be a string is its text as written (the text inside a
 * `<![CDATA[…]]>`, which the template writes for text with `<`, `&` or a newline), any other is read
 * as JSON (and is a string where it is none). A call with no name is read by the JSON reader: a
 * JSON call, else its text as content.
 */
import type { ToolCallFormat } from '#core/domain/tool-call-format';
import { mayBeString } from '#core/constraints/schema-kinds';
import { NO_PARAMETERS, typedValue, type ToolProperties } from './tagged-call-reader';
import { ToolCallReader, type ReadResult } from './tool-call-reader';

/** The name, up to `">`. */
const HEAD = /^([^"<>]+)">/;
/** What may still become a head. */
const PARTIAL_HEAD = /^[^"<>]*"?$/;
const PARAM = '<param name="';
const PARAM_END = '</param>';
const CDATA = '<![CDATA[';
const CDATA_END = ']]>';
const FUNCTION_END = '</function>';

export class XmlCallReader {
  private phase: 'head' | 'arguments' | 'tail' = 'head';
  private json: ToolCallReader | null = null;
  private parameters = NO_PARAMETERS;
  private written = 0;

  constructor(
    private readonly index: number,
    private readonly newId: () => string,
    private readonly format: ToolCallFormat,
    private readonly tools: ToolProperties,
  ) {}

  /** Reads as much of `text` (the call's unread text) as can be decided; `final`: no more will come. */
  read(text: string, final: boolean): ReadResult {
    if (this.json) return this.json.read(text, final);
    const result: ReadResult = { consumed: 0, deltas: [], content: '', closed: false };
    if (this.phase === 'head') {
      const head = HEAD.exec(text);
      if (head === null) {
        if (!final && PARTIAL_HEAD.test(text)) return result;
        this.json = new ToolCallReader(this.index, this.newId, { ...this.format, args: 'arguments' });
        return this.json.read(text, final);
      }
      const name = head[1] ?? '';
      this.parameters = this.tools.get(name) ?? NO_PARAMETERS;
      result.deltas.push({ index: this.index, id: this.newId(), name, arguments: '' });
      result.consumed = head[0].length;
      this.phase = 'arguments';
    }
    while (this.phase === 'arguments' && this.argument(text, final, result));
    if (this.phase === 'tail') {
      const end = text.indexOf(FUNCTION_END, result.consumed);
      if (end >= 0) return { ...result, consumed: end + FUNCTION_END.length, closed: true };
    }
    if (!final) return result;
    // Cut short: the arguments read so far, closed.
    if (this.phase === 'arguments') this.piece(result, this.written === 0 ? '{}' : '}');
    return { ...result, consumed: text.length, closed: true };
  }

  /** One `<param name="KEY">VALUE</param>`, or `</function>`; false where more text is needed or the call ends. */
  private argument(text: string, final: boolean, result: ReadResult): boolean {
    const rest = text.slice(result.consumed).trimStart();
    const at = text.length - rest.length;
    if (rest.startsWith(FUNCTION_END)) {
      this.piece(result, this.written === 0 ? '{}' : '}');
      this.phase = 'tail';
      return false;
    }
    if (!rest.startsWith(PARAM)) {
      const waiting = !final && (PARAM.startsWith(rest) || FUNCTION_END.startsWith(rest));
      if (!waiting) {
        this.piece(result, this.written === 0 ? '{}' : '}');
        this.phase = 'tail';
      }
      return false;
    }
    const open = rest.indexOf('">', PARAM.length);
    if (open < 0) return false;
    const key = rest.slice(PARAM.length, open);
    const value = readValue(rest, open + 2);
    if (value === null) return false;
    const { properties, root } = this.parameters;
    const schema = properties[key];
    const json = mayBeString(schema, root) ? JSON.stringify(value.text) : typedValue(value.text, schema, root);
    this.piece(result, `${this.written === 0 ? '{' : ','}${JSON.stringify(key)}:${json}`);
    this.written += 1;
    result.consumed = at + value.end;
    return true;
  }

  private piece(result: ReadResult, text: string): void {
    result.deltas.push({ index: this.index, arguments: text });
  }
}

/** The value at `from` (a CDATA section's text, or the text up to `</param>`) and where its `</param>` ends; null until it is there. */
function readValue(text: string, from: number): { text: string; end: number } | null {
  if (text.startsWith(CDATA, from)) {
    const close = text.indexOf(CDATA_END, from + CDATA.length);
    const end = close < 0 ? -1 : text.indexOf(PARAM_END, close + CDATA_END.length);
    return end < 0 ? null : { text: text.slice(from + CDATA.length, close), end: end + PARAM_END.length };
  }
  const end = text.indexOf(PARAM_END, from);
  return end < 0 ? null : { text: text.slice(from, end), end: end + PARAM_END.length };
}
