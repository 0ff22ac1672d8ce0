/**
 * The Messages API as a state machine fed with neutral events (one choice): yields Anthropic's
 * named stream events (message_start and a ping, then per content block content_block_start,
 * content_block_delta with text_delta / thinking_delta / input_json_delta, content_block_stop;
 * then message_delta with stop_reason and the whole usage, and message_stop), and keeps the
 * final `message` object for non-stream answers (`final()`). message_start's usage has the
 * prompt's token count, as Anthropic and llama-server report it, where the engine said it on
 * taking the prompt (the llamacpp backend; on WebLLM it is known only at the end, so 0 there);
 * message_delta carries the totals.
 */
import { ChatChoice, type ChoiceStep } from '../../conversation/chat-choice';
import type { ParserOptions } from '../../conversation/chat-output-parser';
import { promptFormat, type PromptEvent } from '../../conversation/chat-format-options';
import type { GenerationEvent, TokenCounts } from '../../conversation/neutral-types';
import { randomId } from '../../format/random-id';
import {
  messageObject,
  messageUsage,
  stopReason,
  toolInput,
  type ContentBlock,
  type MessageMeta,
} from './message-object';

export type MessageEvent = { type: string } & Record<string, unknown>;

type Open = { kind: 'text' | 'thinking'; text: string } | { kind: 'tool_use'; text: string; id: string; name: string };

export class MessageStream {
  private readonly content: ContentBlock[] = [];
  private open: Open | null = null;
  private choice: ChatChoice;
  private matched: string | number | null = null;
  private started = false;
  private last: ReturnType<typeof messageObject> | null = null;
  private readonly events: MessageEvent[] = [];

  constructor(
    private readonly meta: MessageMeta,
    private readonly parser: ParserOptions,
  ) {
    this.choice = new ChatChoice(0, this.options({ opens_reasoning: false }));
  }

  accept(event: GenerationEvent | { type: 'generation.done'; counts: TokenCounts }): MessageEvent[] {
    this.start(event.type === 'generation.prompt' ? (event.counts ?? null) : null);
    switch (event.type) {
      case 'generation.prompt':
        if (event.index === 0) {
          this.choice = new ChatChoice(0, this.options(event));
          // A continued message's own text: in the answer, not in the stream (llama-server's).
          if (this.parser.unstreamed && this.choice.prefilled) this.step(this.choice.prefilled);
        }
        break;
      case 'generation.piece':
        if (event.index === 0) this.step(this.choice.piece(event.text, event.tokens));
        break;
      case 'generation.choice-end':
        if (event.index === 0) {
          this.step(this.choice.end(event.finish_reason, event.tail));
          this.matched = event.matched_stop;
        }
        break;
      case 'generation.done': {
        this.close();
        const stop = stopReason(this.choice.finishReason, this.matched);
        this.last = messageObject(this.meta, this.content, stop, event.counts);
        this.emit({ type: 'message_delta', delta: stop, usage: messageUsage(event.counts) });
        this.emit({ type: 'message_stop' });
        break;
      }
      case 'generation.error':
        // The dialect's `event: error` frame ends the stream (engine-response writes it).
        break;
    }
    return this.events.splice(0);
  }

  /** The final message object (after generation.done). */
  final(): ReturnType<typeof messageObject> | null {
    return this.last;
  }

  private options(prompt: PromptEvent): ParserOptions {
    return {
      ...this.parser,
      ...promptFormat(prompt),
      startInReasoning: prompt.opens_reasoning,
      newId: () => randomId('toolu_'),
    };
  }

  private start(prompt: TokenCounts | null): void {
    if (this.started) return;
    this.started = true;
    const message = messageObject(this.meta, [], { stop_reason: null, stop_sequence: null }, prompt);
    this.emit({ type: 'message_start', message });
    this.emit({ type: 'ping' });
  }

  private step({ delta }: ChoiceStep): void {
    if (delta.reasoning !== '') this.text('thinking', delta.reasoning);
    if (delta.content !== '') this.text('text', delta.content);
    for (const call of delta.toolCalls) {
      if (call.id !== undefined) {
        this.close();
        const open = { kind: 'tool_use' as const, text: '', id: call.id, name: call.name ?? '' };
        this.open = open;
        this.emit({
          type: 'content_block_start',
          index: this.content.length,
          content_block: { type: 'tool_use', id: open.id, name: open.name, input: {} },
        });
      }
      if (this.open?.kind !== 'tool_use' || call.arguments === '') continue;
      this.open.text += call.arguments;
      this.delta({ type: 'input_json_delta', partial_json: call.arguments });
    }
  }

  private text(kind: 'text' | 'thinking', text: string): void {
    if (this.open?.kind !== kind) {
      this.close();
      this.open = kind === 'text' ? { kind: 'text', text: '' } : { kind: 'thinking', text: '' };
      const block = kind === 'text' ? { type: 'text', text: '' } : { type: 'thinking', thinking: '', signature: '' };
      this.emit({ type: 'content_block_start', index: this.content.length, content_block: block });
    }
    this.open.text += text;
    this.delta(kind === 'text' ? { type: 'text_delta', text } : { type: 'thinking_delta', thinking: text });
  }

  private delta(delta: Record<string, string>): void {
    this.emit({ type: 'content_block_delta', index: this.content.length, delta });
  }

  private close(): void {
    const open = this.open;
    if (open === null) return;
    this.open = null;
    this.emit({ type: 'content_block_stop', index: this.content.length });
    this.content.push(blockOf(open));
  }

  private emit(event: MessageEvent): void {
    this.events.push(event);
  }
}

function blockOf(open: Open): ContentBlock {
  switch (open.kind) {
    case 'text':
      return { type: 'text', text: open.text };
    case 'thinking':
      return { type: 'thinking', thinking: open.text, signature: '' };
    case 'tool_use':
      return { type: 'tool_use', id: open.id, name: open.name, input: toolInput(open.text) };
  }
}

/** One SSE frame as Anthropic sends its events: `event: <type>` then `data: <json>`. */
export function messageSseFrame(event: MessageEvent): string {
  return `event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`;
}
