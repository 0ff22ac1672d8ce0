/**
 * Reads one Python-style tool call, incrementally, from an element of LFM2's call list
 * (`<|tool_call_start|>[f(a='x', b=1), g()]<|tool_call_end|>`), as llama-server's LFM2 parser reads
 * it (common/parsers/lfm2.cpp): `NAME(`, then `KEY=VALUE` pairs split by commas, then `)`. The call
 * starts once its name and `(` are there; each argument goes out as a piece of the JSON arguments
 * once its value ends, the value a Python literal or JSON, written as JSON (`True` as `true`,
 * `'x'` as `"x"`). An element that is no such call is read by the JSON reader: a JSON call (as a
 * model may still write one), else its text as content.
 */
import type { ToolCallFormat } from '#core/domain/tool-call-format';
import { readPythonValue } from '#core/util/python-literal';
import { ToolCallReader, type ReadResult } from './tool-call-reader';

/** `NAME(`: a Python name (dots allowed, as in `math.sqrt`). */
const HEAD = /^\s*([A-Za-z_][\w.-]*)\s*\(/;
/** What may still become a head. */
const PARTIAL_HEAD = /^\s*(?:[A-Za-z_][\w.-]*\s*)?$/;
const KEY = /^\s*([A-Za-z_]\w*)\s*=/;
const PARTIAL_KEY = /^\s*(?:[A-Za-z_]\w*\s*)?$/;

export class PythonCallReader {
  private phase: 'head' | 'arguments' = 'head';
  private json: ToolCallReader | null = null;
  private written = 0;

  constructor(
    private readonly index: number,
    private readonly newId: () => string,
    private readonly format: ToolCallFormat,
  ) {}

  /** Reads as much of `text` (the element's unread text) as can be decided; `final`: no more will come. */
  read(text: string, final: boolean): ReadResult {
    if (this.json) return this.json.read(text, final);
    const result: ReadResult = { consumed: 0, deltas: [], content: '', closed: false };
    if (this.phase === 'head') {
      const head = HEAD.exec(text);
      if (head === null) {
        if (!final && PARTIAL_HEAD.test(text)) return result;
        this.json = new ToolCallReader(this.index, this.newId, this.format);
        return this.json.read(text, final);
      }
      result.deltas.push({ index: this.index, id: this.newId(), name: head[1] ?? '', arguments: '' });
      result.consumed = head[0].length;
      this.phase = 'arguments';
    }
    while (!result.closed && this.argument(text, final, result));
    if (final && !result.closed) {
      this.piece(result, this.written === 0 ? '{}' : '}');
      return { ...result, consumed: text.length, closed: true };
    }
    return result;
  }

  /** One `KEY=VALUE` (after a comma, but for the first), or the closing `)`; false where more text is needed. */
  private argument(text: string, final: boolean, result: ReadResult): boolean {
    // The comma after an argument may come in the next piece.
    const lead = (this.written > 0 ? /^\s*,?\s*/ : /^\s*/).exec(text.slice(result.consumed))?.[0] ?? '';
    const at = result.consumed + lead.length;
    const rest = text.slice(at);
    if (text[at] === ')') {
      this.piece(result, this.written === 0 ? '{}' : '}');
      result.consumed = at + 1;
      result.closed = true;
      return false;
    }
    const key = KEY.exec(rest);
    if (key === null) {
      if (!final && PARTIAL_KEY.test(rest)) return false;
      return this.broken(text, final, result);
    }
    const value = readPythonValue(text, at + key[0].length, final);
    if (value === 'incomplete') return false;
    if (value === null) return this.broken(text, final, result);
    const json = `${JSON.stringify(key[1])}:${value.json}`;
    this.piece(result, this.written === 0 ? `{${json}` : `,${json}`);
    this.written += 1;
    result.consumed = value.end;
    return true;
  }

  /** Text that is no argument: the call ends with what it has, up to the next `)` (or the text's end). */
  private broken(text: string, final: boolean, result: ReadResult): boolean {
    const end = text.indexOf(')', result.consumed);
    if (end < 0 && !final) return false;
    this.piece(result, this.written === 0 ? '{}' : '}');
    result.consumed = end < 0 ? text.length : end + 1;
    result.closed = true;
    return false;
  }

  private piece(result: ReadResult, text: string): void {
    result.deltas.push({ index: this.index, arguments: text });
  }
}
