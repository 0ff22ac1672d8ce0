/**
 * The Responses API as a state machine fed with neutral events (one choice): yields the streamed
 * events, each with its `sequence_number` (response.created, response.in_progress, then per
 * output item: output_item.added, content_part.added, output_text.delta…, output_text.done,
 * content_part.done, output_item.done; function calls with their arguments events; then
 * response.completed / response.incomplete, or error + response.failed), and keeps the final
 * `response` object for non-stream answers (`final()`).
 */
import { randomId } from '../../format/random-id';
import { ChatChoice } from '../../conversation/chat-choice';
import {
  responseObject,
  type ItemStatus,
  type OutputItem,
  type ResponseMeta,
  type ResponseObject,
} from './response-object';
import type { ParserOptions } from '../../conversation/chat-output-parser';
import { promptFormat } from '../../conversation/chat-format-options';
import type { GenerationEvent } from '../../conversation/neutral-types';
import type { ChoiceStep } from '../../conversation/chat-choice';
import type { ChatTokenLogprob } from '../../conversation/chat-logprobs';

export type ResponseEvent = { type: string; sequence_number: number } & Record<string, unknown>;

type Open =
  | { kind: 'message' | 'reasoning'; index: number; id: string; text: string; logprobs: ChatTokenLogprob[] }
  | { kind: 'function_call'; index: number; id: string; text: string; call_id: string; name: string };

export class ResponseStream {
  private sequence = 0;
  private readonly output: OutputItem[] = [];
  private open: Open | null = null;
  private choice: ChatChoice;
  private last: ResponseObject | null = null;
  private readonly events: ResponseEvent[] = [];
  /** Logprobs of tokens whose text the parser still holds back. */
  private readonly held: ChatTokenLogprob[] = [];

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
          this.choice = new ChatChoice(0, {
            ...this.parser,
            ...promptFormat(event),
            startInReasoning: event.opens_reasoning,
          });
        break;
      case 'generation.piece':
        if (event.index === 0) this.step(this.choice.piece(event.text, event.tokens));
        break;
      case 'generation.choice-end':
        if (event.index === 0) this.step(this.choice.end(event.finish_reason, event.tail));
        break;
      case 'generation.done': {
        const status = this.choice.finishReason === 'length' ? 'incomplete' : 'completed';
        this.close(status);
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

  /**
   * One parsed step. Its tokens' logprobs (with those of tokens whose text the parser held back)
   * go to the output text it shows; tokens that only wrote reasoning or a tool call have none.
   */
  private step({ delta, logprobs }: ChoiceStep): void {
    if (this.meta.request.chat.logprobs) this.held.push(...logprobs);
    if (delta.reasoning !== '') this.text('reasoning', delta.reasoning, []);
    if (delta.content !== '') this.text('message', delta.content, this.held.splice(0));
    else if (delta.reasoning !== '' || delta.toolCalls.length > 0) this.held.length = 0;
    for (const call of delta.toolCalls) {
      if (call.id !== undefined) {
        this.close();
        const id = randomId('fc_');
        this.open = {
          kind: 'function_call',
          index: this.output.length,
          id,
          text: '',
          call_id: call.id,
          name: call.name ?? '',
        };
        this.emit('response.output_item.added', {
          output_index: this.open.index,
          item: this.item(this.open, 'in_progress', false),
        });
      }
      if (this.open?.kind !== 'function_call' || call.arguments === '') continue;
      this.open.text += call.arguments;
      const at = { item_id: this.open.id, output_index: this.open.index };
      this.emit('response.function_call_arguments.delta', { ...at, delta: call.arguments });
    }
  }

  private text(kind: 'message' | 'reasoning', delta: string, logprobs: ChatTokenLogprob[]): void {
    let open = this.open;
    if (open?.kind !== kind) {
      this.close();
      const id = randomId(kind === 'message' ? 'msg_' : 'rs_');
      open = { kind, index: this.output.length, id, text: '', logprobs: [] };
      this.open = open;
      const at = { output_index: open.index };
      this.emit('response.output_item.added', { ...at, item: this.item(open, 'in_progress', false) });
      if (kind === 'message')
        this.emit('response.content_part.added', { ...at, item_id: open.id, content_index: 0, part: part('') });
    }
    open.text += delta;
    open.logprobs.push(...logprobs);
    const at = { item_id: open.id, output_index: open.index, content_index: 0, delta };
    this.emit(
      kind === 'message' ? 'response.output_text.delta' : 'response.reasoning_text.delta',
      kind === 'message' ? { ...at, logprobs: logprobs.map(deltaLogprob) } : at,
    );
  }

  /** Ends the open item; `status`: 'incomplete' when the output was cut at max_output_tokens. */
  private close(status: 'completed' | 'incomplete' = 'completed'): void {
    const open = this.open;
    if (open === null) return;
    this.open = null;
    const at = { item_id: open.id, output_index: open.index, content_index: 0 };
    if (open.kind === 'message') {
      this.emit('response.output_text.done', { ...at, text: open.text, logprobs: open.logprobs });
      this.emit('response.content_part.done', { ...at, part: part(open.text, open.logprobs) });
    } else if (open.kind === 'function_call') {
      const { item_id, output_index } = at;
      this.emit('response.function_call_arguments.done', {
        item_id,
        output_index,
        name: open.name,
        arguments: open.text,
      });
    } else {
      this.emit('response.reasoning_text.done', { ...at, text: open.text });
    }
    const item = this.item(open, status, true);
    this.output.push(item);
    this.emit('response.output_item.done', { output_index: open.index, item });
  }

  private item(open: Open, status: ItemStatus, full: boolean): OutputItem {
    if (open.kind === 'function_call') {
      const { id, call_id, name } = open;
      return { type: 'function_call', id, call_id, name, arguments: full ? open.text : '', status };
    }
    if (open.kind === 'reasoning')
      return {
        type: 'reasoning',
        id: open.id,
        summary: [],
        content: full ? [{ type: 'reasoning_text', text: open.text }] : [],
      };
    const content = full ? [part(open.text, open.logprobs)] : [];
    return { type: 'message', id: open.id, status, role: 'assistant', content };
  }

  private emit(type: string, fields: Record<string, unknown>): void {
    this.events.push({ type, sequence_number: this.sequence++, ...fields });
  }
}

function part(text: string, logprobs: ChatTokenLogprob[] = []) {
  return { type: 'output_text' as const, text, annotations: [] as [], logprobs };
}

/** A token's logprob as `response.output_text.delta` carries it (OpenAI's delta shape has no bytes). */
function deltaLogprob({ token, logprob, top_logprobs }: ChatTokenLogprob) {
  return { token, logprob, top_logprobs: top_logprobs.map((top) => ({ token: top.token, logprob: top.logprob })) };
}

/** One SSE frame as OpenAI sends Responses events: `event: <type>` then `data: <json>`. */
export function responseSseFrame(event: ResponseEvent): string {
  return `event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`;
}
