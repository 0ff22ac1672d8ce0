/**
 * Splits a choice's streamed text, incrementally, into reasoning (`<think>…</think>`, as
 * llama.cpp's server and DeepSeek report it in `reasoning_content`), content, and Hermes/Qwen
 * `<tool_call>{"name":…, "arguments":{…}}</tool_call>` blocks. Only text that might start a tag
 * (and whitespace that might precede one) is held back between pieces.
 */
import { randomId } from '../../format/random-id';
import { partialTagLength, trailingSpace } from '../../format/partial-tag';
import { parseToolCall, type ParsedToolCall } from './parse-tool-call';

export interface ParsedDelta {
  reasoning: string;
  content: string;
  toolCalls: ParsedToolCall[];
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
const TOOL = '<tool_call>';
const END_TOOL = '</tool_call>';

type State = 'start' | 'reasoning' | 'content' | 'tool';

export class ChatOutputParser {
  private state: State;
  private pending = '';
  /** Drop whitespace at the start of the next reasoning/content run. */
  private skipSpace: boolean;
  private readonly newId: () => string;

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
        const start = this.options.tools ? this.pending.indexOf(TOOL) : -1;
        if (start >= 0) {
          out.content += this.pending.slice(0, start);
          return this.enter('tool', start + TOOL.length);
        }
        const keep = final || !this.options.tools ? 0 : partialTagLength(this.pending, TOOL);
        return this.emit(out, 'content', keep);
      }
      case 'tool': {
        const end = this.pending.indexOf(END_TOOL);
        if (end < 0) {
          if (!final) return false;
          out.content += TOOL + this.pending; // unterminated: the model's text, as it is
          this.pending = '';
          return false;
        }
        const body = this.pending.slice(0, end);
        const call = parseToolCall(body, this.newId);
        if (call === null) out.content += TOOL + body + END_TOOL;
        else out.toolCalls.push(call);
        return this.enter('content', end + END_TOOL.length);
      }
    }
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
