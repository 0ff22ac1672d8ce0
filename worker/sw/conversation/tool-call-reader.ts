/**
 * Reads one Hermes/Qwen tool-call block, incrementally, from the text after `<tool_call>`. In
 * the canonical shape (`{"name": "f", "arguments": {...}}`, the only one a strict grammar
 * allows) the call starts as soon as its name is known, and its arguments stream as they
 * arrive, with JSON whitespace outside strings dropped (as OpenAI's compact `arguments`); the
 * rest up to `</tool_call>` is dropped. Any other body waits for `</tool_call>` and is parsed
 * whole (`parseToolCall`), or returned as content when it is not a call.
 */
import { parseToolCall } from './parse-tool-call';

export const TOOL_OPEN = '<tool_call>';
export const TOOL_CLOSE = '</tool_call>';

/** `{"name": "<name>", "arguments": ` followed by an object. */
const HEAD = /^\s*\{\s*"name"\s*:\s*"((?:[^"\\]|\\.)*)"\s*,\s*"arguments"\s*:\s*(?=\{)/;

/** One step of a call: its start (id and name, `arguments: ''`), or a piece of its arguments. */
export interface ToolCallDelta {
  /** The call's position among the choice's calls. */
  index: number;
  id?: string;
  name?: string;
  arguments: string;
}

/** What one read decided: text consumed, call deltas, content (a block that is no call), and whether the block ended. */
export interface ReadResult {
  consumed: number;
  deltas: ToolCallDelta[];
  content: string;
  closed: boolean;
}

export class ToolCallReader {
  private phase: 'head' | 'arguments' | 'tail' = 'head';
  private depth = 0;
  private inString = false;
  private escaped = false;

  constructor(
    private readonly index: number,
    private readonly newId: () => string,
  ) {}

  /** Reads as much of `text` (the block's unread text) as can be decided; `final`: no more will come. */
  read(text: string, final: boolean): ReadResult {
    const result: ReadResult = { consumed: 0, deltas: [], content: '', closed: false };
    if (this.phase === 'head') {
      const head = HEAD.exec(text);
      if (head !== null) {
        this.start(result, head[1] ?? '', head[0].length);
      } else {
        const end = text.indexOf(TOOL_CLOSE);
        return end < 0 && !final ? result : this.whole(result, text, end);
      }
    }
    if (this.phase === 'arguments') this.scan(text, result);
    if (this.phase === 'tail') {
      const end = text.indexOf(TOOL_CLOSE, result.consumed);
      if (end >= 0) return { ...result, consumed: end + TOOL_CLOSE.length, closed: true };
      if (final) return { ...result, consumed: text.length, closed: true };
    }
    return result;
  }

  private start(result: ReadResult, escapedName: string, length: number): void {
    let name: string;
    try {
      name = JSON.parse(`"${escapedName}"`) as string;
    } catch {
      name = escapedName;
    }
    result.deltas.push({ index: this.index, id: this.newId(), name, arguments: '' });
    result.consumed = length;
    this.phase = 'arguments';
  }

  /** Streams the arguments object from `result.consumed` on; stops at its end (or at a `<` outside a string: broken JSON). */
  private scan(text: string, result: ReadResult): void {
    let args = '';
    let i = result.consumed;
    for (; i < text.length && this.phase === 'arguments'; i++) {
      const c = text[i] ?? '';
      if (this.inString) {
        if (this.escaped) this.escaped = false;
        else if (c === '\\') this.escaped = true;
        else if (c === '"') this.inString = false;
      } else if (c === ' ' || c === '\n' || c === '\r' || c === '\t') {
        continue;
      } else if (c === '<') {
        this.phase = 'tail';
        break;
      } else if (c === '"') {
        this.inString = true;
      } else if (c === '{' || c === '[') {
        this.depth++;
      } else if (c === '}' || c === ']') {
        if (--this.depth === 0) this.phase = 'tail';
      }
      args += c;
    }
    result.consumed = i;
    if (args !== '') result.deltas.push({ index: this.index, arguments: args });
  }

  /** A block in another shape, read whole (`end`: where `</tool_call>` is, -1 if it never came): a call, or the model's text as it is. */
  private whole(result: ReadResult, text: string, end: number): ReadResult {
    if (end < 0) return { ...result, consumed: text.length, content: TOOL_OPEN + text, closed: true };
    const body = text.slice(0, end);
    const consumed = end + TOOL_CLOSE.length;
    const call = parseToolCall(body, this.newId);
    if (call === null) return { ...result, consumed, content: TOOL_OPEN + body + TOOL_CLOSE, closed: true };
    result.deltas.push({ index: this.index, id: call.id, name: call.name, arguments: '' });
    result.deltas.push({ index: this.index, arguments: call.arguments });
    return { ...result, consumed, closed: true };
  }
}
