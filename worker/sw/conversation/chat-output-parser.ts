/**
 * Splits a choice's streamed text, incrementally, into reasoning (`<think>…</think>`, as
 * llama.cpp's server and DeepSeek report it in `reasoning_content`), content, and Hermes/Qwen
 * `<tool_call>{"name":…, "arguments":{…}}</tool_call>` blocks. Only text that might start a tag
 * (and whitespace that might precede one) is held back between pieces.
 */
import { randomId } from '../format/random-id';
import { partialTagLength, trailingSpace } from '../format/partial-tag';
import { TOOL_OPEN, ToolCallReader, type ToolCallDelta } from './tool-call-reader';

export type { ToolCallDelta } from './tool-call-reader';

export interface ParsedDelta {
  reasoning: string;
  content: string;
  /** Calls as they stream: a call's start (id, name), then pieces of its arguments. */
  toolCalls: ToolCallDelta[];
}

export interface ParserOptions {
  /** Recognise `<think>` at the start of the output. */
  reasoning: boolean;
  /** The prompt already opened `<think>` (the template's generation prompt ends with it). */
  startInReasoning: boolean;
  /** Recognise `<tool_call>` blocks (tools given and tool_choice is not 'none'). */
  tools: boolean;
  newId?: () => string;
}

const THINK = '<think>';
const END_THINK = '</think>';

type State = 'start' | 'reasoning' | 'content' | 'tool';

export class ChatOutputParser {
  private state: State;
  private pending = '';
  /** Drop whitespace at the start of the next reasoning/content run. */
  private skipSpace: boolean;
  private readonly newId: () => string;
  private tool: ToolCallReader | null = null;
  private calls = 0;

  constructor(private readonly options: ParserOptions) {
    this.state = options.startInReasoning ? 'reasoning' : options.reasoning ? 'start' : 'content';
    this.skipSpace = options.startInReasoning;
    this.newId = options.newId ?? (() => randomId('call_'));
  }

  push(text: string): ParsedDelta {
    this.pending += text;
    const out: ParsedDelta = { reasoning: '', content: '', toolCalls: [] };
    while (this.step(out, false));
    return out;
  }

  /** Flushes held-back text at the end of the choice. */
  finish(): ParsedDelta {
    const out: ParsedDelta = { reasoning: '', content: '', toolCalls: [] };
    while (this.step(out, true));
    return out;
  }

  /** One transition; false when nothing more can be decided. */
  private step(out: ParsedDelta, final: boolean): boolean {
    if (this.skipSpace) {
      this.pending = this.pending.trimStart();
      if (this.pending === '' && !final) return false;
      this.skipSpace = false;
    }
    switch (this.state) {
      case 'start': {
        const head = this.pending.trimStart();
        if (head.startsWith(THINK)) return this.enter('reasoning', this.pending.indexOf(THINK) + THINK.length);
        if (!final && THINK.startsWith(head)) return false;
        this.state = 'content';
        return true;
      }
      case 'reasoning': {
        const end = this.pending.indexOf(END_THINK);
        if (end >= 0) {
          out.reasoning += this.pending.slice(0, end).trimEnd();
          return this.enter('content', end + END_THINK.length);
        }
        // Whitespace before a (possible) `</think>` is held: it is trimmed if the tag follows.
        const tag = final ? 0 : partialTagLength(this.pending, END_THINK);
        return this.emit(out, 'reasoning', tag + trailingSpace(this.pending.slice(0, this.pending.length - tag)));
      }
      case 'content': {
        const start = this.options.tools ? this.pending.indexOf(TOOL_OPEN) : -1;
        if (start >= 0) {
          out.content += this.pending.slice(0, start);
          this.tool = new ToolCallReader(this.calls, this.newId);
          return this.enter('tool', start + TOOL_OPEN.length);
        }
        const keep = final || !this.options.tools ? 0 : partialTagLength(this.pending, TOOL_OPEN);
        return this.emit(out, 'content', keep);
      }
      case 'tool':
        return this.readTool(out, final);
    }
  }

  /** Feeds the open tool-call block; its call deltas (merged per call) and any content go to `out`. */
  private readTool(out: ParsedDelta, final: boolean): boolean {
    if (this.tool === null) throw new Error('ChatOutputParser: a tool block without its reader');
    const read = this.tool.read(this.pending, final);
    out.content += read.content;
    for (const delta of read.deltas) {
      const last = out.toolCalls.at(-1);
      if (delta.id === undefined && last?.index === delta.index && last.id === undefined)
        last.arguments += delta.arguments;
      else out.toolCalls.push(delta);
      if (delta.id !== undefined) this.calls++;
    }
    if (!read.closed) {
      this.pending = this.pending.slice(read.consumed);
      return false;
    }
    this.tool = null;
    return this.enter('content', read.consumed);
  }

  private enter(state: State, consumed: number): boolean {
    this.pending = this.pending.slice(consumed);
    this.state = state;
    this.skipSpace = true;
    return true;
  }

  /** Emits all pending text but the last `keep` characters; never loops. */
  private emit(out: ParsedDelta, field: 'reasoning' | 'content', keep: number): boolean {
    const cut = this.pending.length - keep;
    out[field] += this.pending.slice(0, cut);
    this.pending = this.pending.slice(cut);
    return false;
  }
}
