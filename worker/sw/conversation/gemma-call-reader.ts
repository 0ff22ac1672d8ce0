/**
 * Reads one Gemma 4 tool call, incrementally, from the text after `<|tool_call>call:`, as
 * llama-server's Gemma 4 parser reads it (common/parsers/gemma4.cpp): the name, then its
 * arguments in Gemma's notation (`{city:<|"|>Paris<|"|>,days:3}`), then `<tool_call|>`. The call
 * starts once its name is there; its arguments go out as JSON once their dict ends. A block that
 * is no such call is read by the JSON reader: a JSON call, else its text as content.
 */
import type { ToolCallFormat } from '#core/domain/tool-call-format';
import { readGemmaValue } from '#core/util/gemma-value';
import { ToolCallReader, type ReadResult } from './tool-call-reader';

/** The name, up to the arguments' `{`. */
const HEAD = /^\s*([\w.-]+)(?=\{)/;
/** What may still become a head. */
const PARTIAL_HEAD = /^\s*[\w.-]*$/;

export class GemmaCallReader {
  private phase: 'head' | 'arguments' | 'tail' = 'head';
  private json: ToolCallReader | null = null;

  constructor(
    private readonly index: number,
    private readonly newId: () => string,
    private readonly format: ToolCallFormat,
  ) {}

  /** Reads as much of `text` (the block's unread text) as can be decided; `final`: no more will come. */
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
      result.deltas.push({ index: this.index, id: this.newId(), name: head[1] ?? '', arguments: '' });
      result.consumed = head[0].length;
      this.phase = 'arguments';
    }
    if (this.phase === 'arguments') {
      const value = readGemmaValue(text, result.consumed, final);
      if (value === 'incomplete') return result;
      // Arguments that are no dict: the call has none.
      const args = value === null || !value.json.startsWith('{') ? '{}' : value.json;
      result.deltas.push({ index: this.index, arguments: args });
      result.consumed = value === null ? result.consumed : value.end;
      this.phase = 'tail';
    }
    const end = text.indexOf(this.format.close, result.consumed);
    if (end >= 0) return { ...result, consumed: end + this.format.close.length, closed: true };
    return final ? { ...result, consumed: text.length, closed: true } : result;
  }
}
