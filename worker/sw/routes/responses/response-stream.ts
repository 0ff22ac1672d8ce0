/**
 * The Responses API as a state machine fed with neutral events (one choice): yields the streamed
 * events, each with its `sequence_number` (response.created, response.in_progress, then per
 * output item: output_item.added, content_part.added, output_text.delta…, output_text.done,
 * content_part.done, output_item.done; function calls with their arguments events; then
 * response.completed / response.incomplete, or error + response.failed), and keeps the final
 * `response` object for non-stream answers (`final()`).
 */
import { randomId } from '../../format/random-id';
import { ChatChoice } from '../chat/chat-choice';
import { responseObject, type OutputItem, type ResponseMeta, type ResponseObject } from './response-object';
import type { ParserOptions } from '../chat/chat-output-parser';
import type { GenerationEvent } from '../chat/neutral-types';
import type { ParsedDelta } from '../chat/chat-output-parser';

export type ResponseEvent = { type: string; sequence_number: number } & Record<string, unknown>;

type Open = { kind: 'message' | 'reasoning'; index: number; id: string; text: string };

export class ResponseStream {
  private sequence = 0;
  private readonly output: OutputItem[] = [];
  private open: Open | null = null;
  private choice: ChatChoice;
  private last: ResponseObject | null = null;
  private readonly events: ResponseEvent[] = [];

  constructor(
    private readonly meta: ResponseMeta,
    private readonly parser: ParserOptions,
  ) {
    this.choice = new ChatChoice(0, parser);
  }

  /** The opening events (response.created, response.in_progress). */
  start(): ResponseEvent[] {
    const response = responseObject(this.meta, 'in_progress', [], null);
    this.emit('response.created', { response });
    this.emit('response.in_progress', { response });
    return this.events.splice(0);
  }

  accept(event: GenerationEvent): ResponseEvent[] {
    switch (event.type) {
      case 'generation.prompt':
        if (event.index === 0)
          this.choice = new ChatChoice(0, { ...this.parser, startInReasoning: event.opens_reasoning });
        break;
      case 'generation.piece':
        if (event.index === 0) this.step(this.choice.piece(event.text, event.tokens).delta);
        break;
      case 'generation.choice-end':
        if (event.index === 0) this.step(this.choice.end(event.finish_reason).delta);
        break;
      case 'generation.done': {
        this.close();
        const status = this.choice.finishReason === 'length' ? 'incomplete' : 'completed';
        this.last = responseObject(this.meta, status, this.output, event.counts);
        this.emit(status === 'completed' ? 'response.completed' : 'response.incomplete', { response: this.last });
        break;
      }
      case 'generation.error': {
        const { message, code, param } = event.error.body.error;
        this.emit('error', { code, message, param });
        this.last = responseObject(this.meta, 'failed', this.output, null, { code: code ?? 'server_error', message });
        this.emit('response.failed', { response: this.last });
        break;
      }
    }
    return this.events.splice(0);
  }

  /** The final response object (after generation.done or generation.error). */
  final(): ResponseObject | null {
    return this.last;
  }

  private step(delta: ParsedDelta): void {
    if (delta.reasoning !== '') this.text('reasoning', delta.reasoning);
    if (delta.content !== '') this.text('message', delta.content);
    for (const call of delta.toolCalls) {
      this.close();
      const item: OutputItem = {
        type: 'function_call',
        id: randomId('fc_'),
        call_id: call.id,
        name: call.name,
        arguments: '',
        status: 'in_progress',
      };
      const at = { output_index: this.output.length };
      this.emit('response.output_item.added', { ...at, item: { ...item } });
      this.emit('response.function_call_arguments.delta', { ...at, item_id: item.id, delta: call.arguments });
      this.emit('response.function_call_arguments.done', {
        ...at,
        item_id: item.id,
        name: call.name,
        arguments: call.arguments,
      });
      const done: OutputItem = { ...item, arguments: call.arguments, status: 'completed' };
      this.output.push(done);
      this.emit('response.output_item.done', { ...at, item: done });
    }
  }

  private text(kind: Open['kind'], delta: string): void {
    if (this.open?.kind !== kind) {
      this.close();
      this.open = { kind, index: this.output.length, id: randomId(kind === 'message' ? 'msg_' : 'rs_'), text: '' };
      const at = { output_index: this.open.index };
      this.emit('response.output_item.added', { ...at, item: this.item(this.open, 'in_progress', false) });
      if (kind === 'message')
        this.emit('response.content_part.added', { ...at, item_id: this.open.id, content_index: 0, part: part('') });
    }
    this.open.text += delta;
    const at = { item_id: this.open.id, output_index: this.open.index, content_index: 0, delta };
    this.emit(
      kind === 'message' ? 'response.output_text.delta' : 'response.reasoning_text.delta',
      kind === 'message' ? { ...at, logprobs: [] } : at,
    );
  }

  private close(): void {
    const open = this.open;
    if (open === null) return;
    this.open = null;
    const at = { item_id: open.id, output_index: open.index, content_index: 0 };
    if (open.kind === 'message') {
      this.emit('response.output_text.done', { ...at, text: open.text, logprobs: [] });
      this.emit('response.content_part.done', { ...at, part: part(open.text) });
    } else {
      this.emit('response.reasoning_text.done', { ...at, text: open.text });
    }
    const item = this.item(open, 'completed', true);
    this.output.push(item);
    this.emit('response.output_item.done', { output_index: open.index, item });
  }

  private item(open: Open, status: 'in_progress' | 'completed', full: boolean): OutputItem {
    if (open.kind === 'reasoning')
      return {
        type: 'reasoning',
        id: open.id,
        summary: [],
        content: full ? [{ type: 'reasoning_text', text: open.text }] : [],
      };
    return { type: 'message', id: open.id, status, role: 'assistant', content: full ? [part(open.text)] : [] };
  }

  private emit(type: string, fields: Record<string, unknown>): void {
    this.events.push({ type, sequence_number: this.sequence++, ...fields });
  }
}

function part(text: string) {
  return { type: 'output_text' as const, text, annotations: [] as [], logprobs: [] as [] };
}

/** One SSE frame as OpenAI sends Responses events: `event: <type>` then `data: <json>`. */
export function responseSseFrame(event: ResponseEvent): string {
  return `event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`;
}
