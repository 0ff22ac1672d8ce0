/**
 * Reads one tool call, incrementally, from the text after the format's opening text (Hermes's
 * `<tool_call>`; Llama 3.x's bare JSON starts at its `{`; in Mistral's array, each element). In
 * the canonical shape (`{"name": "f", "<args>": {...}}`, the only one a strict grammar allows,
 * `<args>` the format's key) the call starts as soon as its name is known, and its arguments stream
 * as they arrive, with JSON whitespace outside strings dropped (as OpenAI's compact `arguments`);
 * the rest of the call's object (Mistral's `id`) and, where the format closes each call, the text up
 * to its closing text are dropped. Any other body waits for its end (the closing text, or the
 * object's end where there is none) and is parsed whole (`parseToolCall`), or returned as content
 * when it is not a call.
 */
import { HERMES_TOOL_FORMAT, type ToolCallFormat } from '#core/domain/tool-call-format';
import { jsonValueEnd } from '#core/util/json-value-end';
import { parseToolCall } from './parse-tool-call';
import { escapeRegExp } from '#core/util/escape-regexp';

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

/** `{"name": "<name>", "<args>": ` followed by an object (`args` a key the template wrote). */
const head = (args: string) =>
  new RegExp(`^\\s*\\{\\s*"name"\\s*:\\s*"((?:[^"\\\\]|\\\\.)*)"\\s*,\\s*"${escapeRegExp(args)}"\\s*:\\s*(?=\\{)`);

/** `<name><args>` followed by an object (Mistral's `f[ARGS]`; with `[CALL_ID]<id>` between where the format has it). */
const namedHead = ({ args, idTag }: ToolCallFormat) =>
  new RegExp(
    `^\\s*([\\w.-]+)${idTag === undefined ? '()' : `(?:${escapeRegExp(idTag)}([A-Za-z0-9]+))?`}${escapeRegExp(args)}\\s*(?=\\{)`,
  );

/** The most text a named call's head waits for before it is taken as no call. */
const HEAD_LIMIT = 256;

export class ToolCallReader {
  private phase: 'head' | 'arguments' | 'rest' | 'tail' = 'head';
  private depth = 0;
  private inString = false;
  private escaped = false;
  private readonly head: RegExp;
  /** The text that closes this call ('' where the object's end does: a bare call, an array's element). */
  private readonly close: string;

  constructor(
    private readonly index: number,
    private readonly newId: () => string,
    private readonly format: ToolCallFormat = HERMES_TOOL_FORMAT,
  ) {
    this.head = format.syntax === 'named' ? namedHead(format) : head(format.args);
    this.close = format.array ? '' : format.close;
  }

  /** Reads as much of `text` (the block's unread text) as can be decided; `final`: no more will come. */
  read(text: string, final: boolean): ReadResult {
    const result: ReadResult = { consumed: 0, deltas: [], content: '', closed: false };
    if (this.phase === 'head') {
      const head = this.head.exec(text);
      if (head === null)
        return this.format.syntax === 'named' ? this.unnamed(result, text, final) : this.whole(result, text, final);
      this.start(result, head[1] ?? '', head[0].length, head[2] || undefined);
    }
    if (this.phase === 'arguments') this.scan(text, result);
    // The call's object after its arguments (`}`, Mistral's `, "id": "…"}`): depth 1 until it closes.
    if (this.phase === 'rest') this.skipObject(text, result);
    if (this.phase === 'tail') {
      if (this.close === '') return { ...result, closed: true };
      const end = text.indexOf(this.close, result.consumed);
      if (end >= 0) return { ...result, consumed: end + this.close.length, closed: true };
      if (final) return { ...result, consumed: text.length, closed: true };
    }
    if (final && !result.closed) return { ...result, consumed: text.length, closed: true };
    return result;
  }

  private start(result: ReadResult, escapedName: string, length: number, id?: string): void {
    let name: string;
    try {
      name = JSON.parse(`"${escapedName}"`) as string;
    } catch {
      name = escapedName;
    }
    result.deltas.push({ index: this.index, id: id ?? this.newId(), name, arguments: '' });
    result.consumed = length;
    this.phase = 'arguments';
  }

  /** One character of JSON outside or inside a string; returns whether it is whitespace outside one. */
  private track(c: string): boolean {
    if (this.inString) {
      if (this.escaped) this.escaped = false;
      else if (c === '\\') this.escaped = true;
      else if (c === '"') this.inString = false;
      return false;
    }
    if (c === ' ' || c === '\n' || c === '\r' || c === '\t') return true;
    if (c === '"') this.inString = true;
    else if (c === '{' || c === '[') this.depth++;
    else if (c === '}' || c === ']') this.depth--;
    return false;
  }

  /** Streams the arguments object from `result.consumed` on; stops at its end (or at a `<` outside a string: broken JSON). */
  private scan(text: string, result: ReadResult): void {
    let args = '';
    let i = result.consumed;
    for (; i < text.length && this.phase === 'arguments'; i++) {
      const c = text[i] ?? '';
      if (!this.inString && c === '<') {
        this.phase = 'tail';
        break;
      }
      if (this.track(c)) continue;
      args += c;
      // The arguments' end: a named call's end too, else the rest of the call's object comes.
      if (this.depth === 0 && this.format.syntax === 'named') this.phase = 'tail';
      else if (this.depth === 0) {
        this.phase = 'rest';
        this.depth = 1;
      }
    }
    result.consumed = i;
    if (args !== '') result.deltas.push({ index: this.index, arguments: args });
  }

  /** Drops the rest of the call's object, up to its closing `}` (or a `<` outside a string: broken JSON). */
  private skipObject(text: string, result: ReadResult): void {
    let i = result.consumed;
    while (i < text.length && this.phase === 'rest') {
      const c = text[i] ?? '';
      if (!this.inString && c === '<') {
        this.phase = 'tail';
        break;
      }
      this.track(c);
      i += 1;
      if (this.depth === 0) this.phase = 'tail';
    }
    result.consumed = i;
  }

  /**
   * A named call's head that is not there: wait while it may still come (no `{` yet); else the
   * opening text was the model's text, given back as content (the rest is read again as content).
   */
  private unnamed(result: ReadResult, text: string, final: boolean): ReadResult {
    if (!final && !text.includes('{') && text.length < HEAD_LIMIT) return result;
    return { ...result, content: this.format.open, closed: true };
  }

  /**
   * A block in another shape, read whole once its end is there (the closing text, or the end of
   * the JSON value it starts with where the format has none): a call, or the model's text as it is.
   */
  private whole(result: ReadResult, text: string, final: boolean): ReadResult {
    const open = this.format.array ? '' : this.format.open;
    // Where the format has no closing text, the JSON value the block starts with ends it.
    const at = this.close === '' ? jsonValueEnd(text, text.search(/\S/)) : text.indexOf(this.close);
    if (at < 0) return final ? { ...result, consumed: text.length, content: open + text, closed: true } : result;
    const body = text.slice(0, at);
    const consumed = at + this.close.length;
    const call = parseToolCall(body, this.newId);
    if (call === null) return { ...result, consumed, content: open + body + this.close, closed: true };
    result.deltas.push({ index: this.index, id: call.id, name: call.name, arguments: '' });
    result.deltas.push({ index: this.index, arguments: call.arguments });
    return { ...result, consumed, closed: true };
  }
}
