/**
 * Splits a choice's streamed text, incrementally, into reasoning (`<think>…</think>`, as
 * llama.cpp's server and DeepSeek report it in `reasoning_content`), content, and tool calls in
 * the model's format (`ToolCallFormat`: Hermes/Qwen's `<tool_call>{"name":…, "arguments":{…}}</tool_call>`
 * blocks unless its template writes another, such as Llama 3.x's bare JSON, Mistral's
 * `[TOOL_CALLS]` array, Qwen3.5's tagged calls or LFM2's Python-style list). Only text that might start a tag (and whitespace that might precede one) is
 * held back between pieces.
 *
 * Whitespace as llama-server 0.7.0's parser leaves it (its reasoning is `<think>`, an optional
 * newline, the text up to `</think>`, then up to two newlines): the reasoning keeps its own
 * whitespace, leading and trailing; one of only whitespace is none; the content after `</think>`
 * starts past up to two newlines, and keeps any other whitespace (a reasoning cut short keeps its
 * trailing whitespace too). Where the parse gives nothing at all, an unstreamed answer's content is
 * the text as it came, as llama-server's (its `content` where the parsed message is empty).
 * With other tags (`thinking`), as llama-server's parser for them reads them (`ThinkingTags`):
 * Ministral's `[THINK]` only where the output starts with it, all its whitespace kept, and the
 * content's leading whitespace dropped; Gemma 4's `<|channel>thought` anywhere, the whitespace
 * after it dropped, the content after `<channel|>` as it comes.
 */
import { randomId } from '../format/random-id';
import { partialTagLength, trailingSpace } from '../format/partial-tag';
import { HERMES_TOOL_FORMAT, type ToolCallFormat } from '#core/domain/tool-call-format';
import { THINK_TAGS, type ThinkingTags } from '#core/domain/thinking-tags';
import { ToolCallReader, type ToolCallDelta } from './tool-call-reader';
import { TaggedCallReader, type ToolProperties } from './tagged-call-reader';
import { PythonCallReader } from './python-call-reader';
import { GemmaCallReader } from './gemma-call-reader';
import { XmlCallReader } from './xml-call-reader';

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
  /**
   * The prompt's text from that `<think>` on (`<think>\n`): with `reasoning` off, the content
   * starts with it, as llama-server's does (the reasoning stays in the content, opened).
   */
  opener?: string;
  /** Recognise tool calls (tools given and tool_choice is not 'none'). */
  tools: boolean;
  /** How the model writes them (absent: Hermes's `<tool_call>` blocks): from the engine's `generation.prompt`. */
  toolFormat?: ToolCallFormat;
  /** The tags the model writes its reasoning between (absent: `<think>` and `</think>`): from the engine's `generation.prompt`. */
  thinking?: ThinkingTags;
  /** The tools' schema properties, by name: a tagged call's values are typed by them. */
  toolProperties?: ToolProperties;
  /**
   * The content is a JSON constraint's: the whitespace the grammar allows around the JSON is not
   * content, nor the ```` ```json ```` fence it allows around it, as llama-server's parser leaves
   * them out (engine: chat-json-grammar.ts).
   */
  json?: boolean;
  /**
   * The answer is one JSON body: where the parse gives nothing at all (no reasoning, content or
   * call: a reasoning cut short that is only whitespace, a JSON fence cut short), the text as it
   * came is the content, as llama-server's unstreamed answer has it (its stream shows nothing).
   */
  unstreamed?: boolean;
  /**
   * The text of the final assistant message the answer continues (its content, or its reasoning:
   * read only where the prompt ends inside it, `startInReasoning`), read before the model's output,
   * as llama-server parses the message whole; its deltas go into the unstreamed message, not into
   * the stream (chat-choice.ts).
   */
  prefill?: { text: string; reasoning: boolean };
  newId?: () => string;
}

/** The fence a chat answer's JSON may open with (engine: chat-json-grammar.ts). */
const FENCE_OPEN = '```json';
/** Whitespace and the closing fence, or its start, at the end of fenced JSON. */
const FENCE_TAIL = /\s*`{0,3}$/;

/** `section`: after an array format's opening text (its `[` next); `between`: after one of its calls (`,` or `]` next). */
type State = 'start' | 'reasoning' | 'content' | 'tool' | 'section' | 'between';

export class ChatOutputParser {
  private state: State;
  private pending = '';
  /** Drop whitespace at the start of the next content run (after a tool call). */
  private skipSpace = false;
  /** Newlines still to drop at the start of the next run (after `<think>` and `</think>`). */
  private skipNewlines = 0;
  /** Reasoning other than whitespace was emitted (before it, whitespace is held). */
  private reasoningText = false;
  /** A JSON constraint's content began (before it, whitespace and the opening fence go). */
  private jsonStarted = false;
  /** The JSON opened with the fence (its closing fence goes too). */
  private fenced = false;
  /** The prompt's opener, still to go before a JSON constraint's content (which is read after it). */
  private opener = '';
  /** The text as it came (`unstreamed`: the content where the parse gives nothing). */
  private raw = '';
  /** The parse gave some reasoning, content or call. */
  private said = false;
  private readonly newId: () => string;
  private readonly format: ToolCallFormat;
  private readonly tags: ThinkingTags;
  /** Reasoning blocks may come anywhere in the output (Gemma 4's), not only first. */
  private readonly thinksAnywhere: boolean;
  /** The text a call (or an array format's calls) starts with: `{` for bare JSON calls. */
  private readonly callStart: string;
  private tool: ToolCallReader | TaggedCallReader | PythonCallReader | GemmaCallReader | XmlCallReader | null = null;
  private calls = 0;

  constructor(private readonly options: ParserOptions) {
    this.state = !options.reasoning ? 'content' : options.startInReasoning ? 'reasoning' : 'start';
    if (!options.reasoning && options.startInReasoning) {
      if (options.json) this.opener = options.opener ?? '';
      else this.pending = options.opener ?? '';
    }
    this.format = options.toolFormat ?? HERMES_TOOL_FORMAT;
    this.tags = options.thinking ?? THINK_TAGS;
    this.thinksAnywhere = options.reasoning && this.tags.at === 'anywhere';
    // Gemma 4's reasoning is found in the content, wherever it comes.
    if (this.thinksAnywhere && this.state === 'start') this.state = 'content';
    // Ministral's parser drops the content's leading whitespace (with the reasoning off too).
    if (this.tags.at === 'exact' && this.state === 'content') this.skipSpace = true;
    // The ids the template takes back in the next turn (Mistral's: 9 letters or digits).
    const { ids } = this.format;
    this.newId = options.newId ?? (ids === undefined ? () => randomId('call_') : () => randomId('', ids));
    this.callStart = this.format.open === '' ? '{' : this.format.open;
  }

  push(text: string): ParsedDelta {
    this.pending += text;
    this.raw += text;
    const out: ParsedDelta = { reasoning: '', content: '', toolCalls: [] };
    while (this.step(out, false));
    return this.told(out);
  }

  /** Flushes held-back text at the end of the choice. */
  finish(last = ''): ParsedDelta {
    this.pending += last;
    this.raw += last;
    const out: ParsedDelta = { reasoning: '', content: '', toolCalls: [] };
    while (this.step(out, true));
    this.told(out);
    if (!this.said && this.options.unstreamed) out.content = this.raw;
    return out;
  }

  /** `out`, noting whether the parse gave anything so far. */
  private told(out: ParsedDelta): ParsedDelta {
    this.said ||= out.reasoning !== '' || out.content !== '' || out.toolCalls.length > 0;
    return out;
  }

  /** One transition; false when nothing more can be decided. */
  private step(out: ParsedDelta, final: boolean): boolean {
    if (this.skipSpace) {
      this.pending = this.pending.trimStart();
      if (this.pending === '' && !final) return false;
      this.skipSpace = false;
    }
    while (this.skipNewlines > 0 && this.pending.startsWith('\n')) {
      this.pending = this.pending.slice(1);
      this.skipNewlines -= 1;
    }
    if (this.skipNewlines > 0) {
      if (this.pending === '' && !final) return false;
      this.skipNewlines = 0;
    }
    switch (this.state) {
      case 'start': {
        const { start, at, afterStart } = this.tags;
        // `<think>` after any whitespace; Ministral's `[THINK]` only first (then the content's leading whitespace goes).
        const head = at === 'exact' ? this.pending : this.pending.trimStart();
        if (head.startsWith(start))
          return this.enter('reasoning', this.pending.indexOf(start) + start.length, afterStart);
        if (!final && start.startsWith(head)) return false;
        return this.enter('content', 0, at === 'exact' ? 'space' : 0);
      }
      case 'reasoning': {
        const { end: endTag, afterEnd } = this.tags;
        const end = this.pending.indexOf(endTag);
        if (end >= 0) {
          this.reason(out, this.pending.slice(0, end));
          return this.enter('content', end + endTag.length, afterEnd);
        }
        // Whitespace before a (possible) closing tag is held until the text goes on or the tag comes.
        const tag = final ? 0 : partialTagLength(this.pending, endTag);
        const space = final ? 0 : trailingSpace(this.pending.slice(0, this.pending.length - tag));
        const ready = this.pending.slice(0, this.pending.length - tag - space);
        if (!this.reasoningText && ready.trim() === '' && !final) return false;
        this.reason(out, ready);
        this.pending = final ? '' : this.pending.slice(ready.length);
        return false;
      }
      case 'content': {
        const start = this.options.tools ? this.pending.indexOf(this.callStart) : -1;
        // Gemma 4's reasoning blocks come anywhere in the output.
        const think = this.thinksAnywhere ? this.pending.indexOf(this.tags.start) : -1;
        if (think >= 0 && (start < 0 || think < start)) {
          out.content += this.pending.slice(0, think);
          return this.enter('reasoning', think + this.tags.start.length, this.tags.afterStart);
        }
        if (start >= 0) {
          out.content += this.pending.slice(0, start);
          if (this.format.array) return this.enter('section', start + this.format.open.length, 0);
          return this.call(start + this.format.open.length);
        }
        const held = (on: boolean, tag: string) => (on ? partialTagLength(this.pending, tag) : 0);
        const keep = final
          ? 0
          : Math.max(held(this.options.tools, this.callStart), held(this.thinksAnywhere, this.tags.start));
        if (this.options.json) return this.emitJson(out, keep, final);
        return this.emit(out, 'content', keep);
      }
      case 'tool':
        return this.readTool(out, final);
      case 'section': {
        const rest = this.pending.trimStart();
        if (rest === '' && !final) return false;
        if (rest.startsWith('[')) return this.call(this.pending.length - rest.length + 1);
        // No array after the opening text: it was text.
        out.content += this.format.open;
        this.state = 'content';
        return true;
      }
      case 'between':
        return this.afterCall(final);
    }
  }

  /** A call begins past `consumed` characters. */
  private call(consumed: number): boolean {
    const { syntax } = this.format;
    this.tool =
      syntax === 'tagged'
        ? new TaggedCallReader(this.calls, this.newId, this.options.toolProperties ?? new Map())
        : syntax === 'python'
          ? new PythonCallReader(this.calls, this.newId, this.format)
          : syntax === 'gemma'
            ? new GemmaCallReader(this.calls, this.newId, this.format)
            : syntax === 'xml'
              ? new XmlCallReader(this.calls, this.newId, this.format, this.options.toolProperties ?? new Map())
              : new ToolCallReader(this.calls, this.newId, this.format);
    return this.enter('tool', consumed);
  }

  /** After a call in an array format: the next one (`,`), or the array's end (`]`, then the format's closing text). */
  private afterCall(final: boolean): boolean {
    const { close } = this.format;
    if (this.pending.startsWith(',')) return this.call(1);
    if (this.pending.startsWith(']')) {
      const rest = this.pending.slice(1).trimStart();
      if (close !== '' && !final && close.startsWith(rest) && rest.length < close.length) return false;
      const skip = close !== '' && rest.startsWith(close) ? this.pending.length - rest.length + close.length : 1;
      return this.enter('content', skip);
    }
    if (this.pending === '' && !final) return false;
    this.state = 'content';
    return true;
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
    // Whitespace after a call goes; after a block that was no call (content), it is content too.
    const next = this.format.array ? 'between' : 'content';
    return this.enter(next, read.consumed, read.content === '' ? 'space' : 0);
  }

  /** Enters `state` past `consumed` characters, dropping all whitespace next or up to `newlines` newlines. */
  private enter(state: State, consumed: number, newlines: number | 'space' = 'space'): boolean {
    this.pending = this.pending.slice(consumed);
    this.state = state;
    if (newlines === 'space') this.skipSpace = true;
    else this.skipNewlines = newlines;
    return true;
  }

  /** Reasoning text, unless all the reasoning so far is whitespace. */
  private reason(out: ParsedDelta, text: string): void {
    if (!this.reasoningText && text.trim() === '') return;
    out.reasoning += text;
    this.reasoningText = true;
  }

  /**
   * `emit` for a JSON constraint's content: whitespace and the opening fence before it go (a fence
   * cut short gives nothing; `unstreamed`, the text then); whitespace and the closing fence after
   * it wait, and go at the end.
   */
  private emitJson(out: ParsedDelta, keep: number, final: boolean): boolean {
    out.content += this.opener;
    this.opener = '';
    if (!this.jsonStarted) {
      this.pending = this.pending.trimStart();
      if (!this.fenced && this.pending.startsWith(FENCE_OPEN)) {
        this.fenced = true;
        return this.enter('content', FENCE_OPEN.length, 0);
      }
      if (!this.fenced && this.pending !== '' && FENCE_OPEN.startsWith(this.pending)) {
        if (!final) return false;
        this.pending = '';
      }
      this.jsonStarted = this.pending !== '';
    }
    const ready = this.pending.slice(0, this.pending.length - keep);
    const tail = this.fenced ? (FENCE_TAIL.exec(ready)?.[0].length ?? 0) : trailingSpace(ready);
    if (final) this.pending = this.pending.slice(0, this.pending.length - tail);
    return this.emit(out, 'content', final ? 0 : keep + tail);
  }

  /** Emits all pending text but the last `keep` characters; never loops. */
  private emit(out: ParsedDelta, field: 'reasoning' | 'content', keep: number): boolean {
    const cut = this.pending.length - keep;
    out[field] += this.pending.slice(0, cut);
    this.pending = this.pending.slice(cut);
    return false;
  }
}
