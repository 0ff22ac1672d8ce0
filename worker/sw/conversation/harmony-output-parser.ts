/**
 * Splits a choice's streamed text, incrementally, as llama-server 0.7.0's gpt-oss parser reads
 * OpenAI's harmony format (common/parsers/gpt-oss.cpp). The prompt ends `<|start|>assistant`; the
 * model writes messages, each a header up to `<|message|>`, a body, then `<|end|>` and the next
 * `<|start|>assistant`:
 * - `<|channel|>analysis`: its body is reasoning (with `reasoning_format: none`, the whole message
 *   `<|channel|>analysis<|message|>…<|end|>` is content);
 * - `<|channel|>commentary` (a preamble): its body is content;
 * - `<|channel|>final` (a constraint such as ` <|constrain|>json` may follow): its body up to
 *   `<|end|>` is content, and the last thing read;
 * - a call to a listed tool, ` to=functions.NAME<|channel|>commentary json` or
 *   `<|channel|>commentary to=functions.NAME json`: its body is the arguments' JSON, and the last
 *   thing read (one call a turn);
 * - any other recipient (` to=browser.search`, an unlisted function, or any with tools off) is
 *   dropped, as are the messages after it.
 *
 * A continued final message (a prefill) starts in its analysis message's body where the prompt
 * opened it, else in its final message's body, as llama-server's prompt ends there.
 *
 * A header of no such message ends the parse: the rest, header included, is content.
 * llama-server answers such an output (a plain text, say) with an HTTP 500; here it is content,
 * never an error. Whitespace is kept as written; the arguments lose their trailing whitespace.
 */
import { randomId } from '../format/random-id';
import { partialTagLength, trailingSpace } from '../format/partial-tag';
import type { ParsedDelta, ParserOptions } from './chat-output-parser';
import { escapeRegExp } from '#core/util/escape-regexp';

const MESSAGE = '<|message|>';
const ANALYSIS_OPEN = '<|channel|>analysis<|message|>';
const END = '<|end|>';
const NEXT = '<|start|>assistant';
/** A call's end: the model's end-of-turn token for a call (its text, where a model writes it out). */
const CALL_END = '<|call|>';
/** `<|channel|>commentary` (with ` to=assistant`) before another channel: gpt-oss-20b writes it at times. */
const STRAY = /^<\|channel\|>commentary(?: to=assistant)?(?=<\|channel\|>)/;
/** A message's constraint after its channel or recipient (` json`, ` <|constrain|>json`). */
const CONSTRAINT = String.raw`(?:\s*(?:<\|constrain\|>)?[A-Za-z0-9_-]+)?`;
const FINAL = new RegExp(String.raw`^<\|channel\|>final${CONSTRAINT}$`);

/** A call's header to `name`: the recipient in the role (before the channel) or in the channel, then any constraint. */
function callHeader(name: string): RegExp {
  const to = String.raw` to=functions\.${escapeRegExp(name)}`;
  const channel = String.raw`<\|channel\|>(?:commentary|analysis)`;
  return new RegExp(`^(?:${to}${channel}|${channel}${to})${CONSTRAINT}$`);
}

/**
 * `header`: before a message's `<|message|>`; `next`: after its `<|end|>`, before `<|start|>assistant`;
 * `body`: in a reasoning, content or call body; `done`: past the last message read; `text`: the rest is content.
 */
type State = 'header' | 'next' | 'body' | 'done' | 'text';
type Body = 'reasoning' | 'content' | 'final' | 'arguments' | 'dropped';

export class HarmonyOutputParser {
  private state: State = 'header';
  private body: Body = 'content';
  private pending = '';
  private raw = '';
  private said = false;
  private called = 0;
  private readonly newId: () => string;
  /** The listed tools' names, each with its headers' pattern, in the tools' order (llama-server tries them so). */
  private readonly calls: ReadonlyArray<readonly [string, RegExp]>;
  /** The body is a reasoning-off analysis message's, whose `<|end|>` is content too. */
  private analysisAsContent = false;

  constructor(private readonly options: ParserOptions) {
    this.newId = options.newId ?? (() => randomId('call_'));
    const names = options.tools ? [...(options.toolProperties?.keys() ?? [])] : [];
    this.calls = names.map((name) => [name, callHeader(name)] as const);
    // A continued message: its reasoning (the prompt opened the analysis message), or its answer.
    if (options.startInReasoning) {
      this.state = 'body';
      this.body = options.reasoning ? 'reasoning' : 'content';
      this.analysisAsContent = !options.reasoning;
      if (!options.reasoning) this.pending = ANALYSIS_OPEN;
    } else if (options.prefill?.reasoning === false) {
      this.state = 'body';
      this.body = 'final';
    }
  }

  push(text: string): ParsedDelta {
    return this.read(text, false);
  }

  /** Flushes held-back text at the end of the choice. */
  finish(last = ''): ParsedDelta {
    const out = this.read(last, true);
    if (!this.said && this.options.unstreamed) out.content = this.raw;
    return out;
  }

  private read(text: string, final: boolean): ParsedDelta {
    this.pending += text;
    this.raw += text;
    const out: ParsedDelta = { reasoning: '', content: '', toolCalls: [] };
    while (this.step(out, final));
    this.said ||= out.reasoning !== '' || out.content !== '' || out.toolCalls.length > 0;
    return out;
  }

  /** One transition; false when nothing more can be decided. */
  private step(out: ParsedDelta, final: boolean): boolean {
    switch (this.state) {
      case 'header':
        return this.header(out, final);
      case 'next': {
        if (this.pending.startsWith(NEXT)) return this.enter('header', NEXT.length);
        if (!final && NEXT.startsWith(this.pending)) return false;
        this.state = 'text';
        return true;
      }
      case 'body':
        return this.readBody(out, final);
      case 'done':
        this.pending = '';
        return false;
      case 'text':
        out.content += this.pending;
        this.pending = '';
        return false;
    }
  }

  /** A message's header, once its `<|message|>` came: what its body is. */
  private header(out: ParsedDelta, final: boolean): boolean {
    const at = this.pending.indexOf(MESSAGE);
    if (at < 0) {
      // Held until it is known; a text that opens no header is content.
      if (!final && this.mayOpen(this.pending)) return false;
      this.state = 'text';
      return true;
    }
    const written = this.pending.slice(0, at);
    const header = written.replace(STRAY, '');
    const name = this.calls.find(([, pattern]) => pattern.test(header))?.[0];
    if (name !== undefined) {
      out.toolCalls.push({ index: this.called, id: this.newId(), name, arguments: '' });
      this.called += 1;
      return this.open('arguments', at);
    }
    if (header.includes(' to=')) return this.open('dropped', at);
    if (`${header}${MESSAGE}` === ANALYSIS_OPEN) {
      if (this.options.reasoning) return this.open('reasoning', at);
      // Reasoning off: the whole message is content, its marks included.
      out.content += ANALYSIS_OPEN;
      this.analysisAsContent = true;
      return this.open('content', at);
    }
    if (header === '<|channel|>commentary') return this.open('content', at);
    if (FINAL.test(header)) return this.open('final', at);
    this.state = 'text';
    return true;
  }

  /** Whether `text` may still become a header (or its start). */
  private mayOpen(text: string): boolean {
    const heads = ['<|channel|>', ' to='];
    return heads.some((head) => head.startsWith(text) || text.startsWith(head));
  }

  private open(body: Body, at: number): boolean {
    this.body = body;
    return this.enter('body', at + MESSAGE.length);
  }

  private enter(state: State, consumed: number): boolean {
    this.pending = this.pending.slice(consumed);
    this.state = state;
    return true;
  }

  /** A body up to its end (`<|end|>`, or a call's `<|call|>`); partial end tags and a call's trailing whitespace held back. */
  private readBody(out: ParsedDelta, final: boolean): boolean {
    const ends = this.body === 'arguments' ? [END, CALL_END] : [END];
    const end = Math.min(...ends.map((tag) => this.pending.indexOf(tag)).filter((at) => at >= 0), Infinity);
    if (end !== Infinity) {
      this.emit(out, this.pending.slice(0, end), true);
      if (this.analysisAsContent) out.content += END;
      this.analysisAsContent = false;
      // After a reasoning or a preamble, the next message; after the answer, a call or a dropped message, nothing.
      const more = this.body === 'reasoning' || this.body === 'content';
      return this.enter(more ? 'next' : 'done', end + END.length);
    }
    const held = final ? 0 : Math.max(...ends.map((tag) => partialTagLength(this.pending, tag)));
    const ready = this.pending.slice(0, this.pending.length - held);
    const space = this.body === 'arguments' && !final ? trailingSpace(ready) : 0;
    this.emit(out, ready.slice(0, ready.length - space), final);
    this.pending = this.pending.slice(ready.length - space);
    if (final) this.pending = '';
    return false;
  }

  private emit(out: ParsedDelta, text: string, last: boolean): void {
    switch (this.body) {
      case 'reasoning':
        out.reasoning += text;
        return;
      case 'content':
      case 'final':
        out.content += text;
        return;
      case 'arguments': {
        const piece = last ? text.trimEnd() : text;
        const index = this.called - 1;
        const before = out.toolCalls.at(-1);
        if (piece === '') return;
        if (before?.index === index && before.id === undefined) before.arguments += piece;
        else out.toolCalls.push({ index, arguments: piece });
        return;
      }
      case 'dropped':
        return;
    }
  }
}
