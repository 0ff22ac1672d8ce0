/**
 * The SSE stream of `chat.completion.chunk`s, as a state machine fed with neutral events: a role
 * chunk opens each choice, then reasoning/content deltas, tool-call deltas (index, id, type and
 * name with empty arguments, then argument pieces as the model writes them), a finish chunk; at the end an optional usage chunk (`choices: []`) and
 * `[DONE]`. An error event yields `{"error":{…}}` and ends the stream without `[DONE]`.
 */
import { SSE_DONE, sseFrame } from '../../sse';
import { ChatChoice } from '../../conversation/chat-choice';
import { chatUsage, type ChatUsage } from './chat-usage';
import { parserForPrompt, type ChatFormatOptions } from '../../conversation/chat-format-options';
import type { ChatTokenLogprob } from '../../conversation/chat-logprobs';
import type { GenerationEvent, TokenCounts } from '../../conversation/neutral-types';
import type { ChoiceStep, ChatFinishReason } from '../../conversation/chat-choice';

export interface ChunkDelta {
  role?: 'assistant';
  content?: string;
  reasoning_content?: string;
  tool_calls?: Array<{ index: number; id?: string; type?: 'function'; function: { name?: string; arguments: string } }>;
}

export interface ChatCompletionChunk {
  id: string;
  object: 'chat.completion.chunk';
  created: number;
  model: string;
  choices: Array<{
    index: number;
    delta: ChunkDelta;
    logprobs: { content: ChatTokenLogprob[]; refusal: null } | null;
    finish_reason: ChatFinishReason | null;
  }>;
  usage?: ChatUsage | null;
}

export const DONE = '[DONE]';
export type ChatStreamItem =
  | ChatCompletionChunk
  | { error: { message: string; type: string; param: string | null; code: string | null } }
  | typeof DONE;

export class ChatStream {
  private readonly choices = new Map<number, ChatChoice>();

  constructor(private readonly options: ChatFormatOptions) {}

  accept(event: GenerationEvent): ChatStreamItem[] {
    switch (event.type) {
      case 'generation.prompt':
        this.options.parser = parserForPrompt(this.options.parser, event);
        return [];
      case 'generation.piece': {
        const [choice, opened] = this.choice(event.index);
        return [...opened, ...this.deltas(choice, choice.piece(event.text, event.tokens), event.counts)];
      }
      case 'generation.choice-end': {
        const [choice, opened] = this.choice(event.index);
        const step = choice.end(event.finish_reason, event.tail);
        const finish = this.chunk(choice.index, {}, step.logprobs, choice.finishReason, event.counts);
        return [...opened, ...this.deltas(choice, { ...step, logprobs: [] }), finish];
      }
      case 'generation.done':
        return this.options.include_usage
          ? [{ ...this.envelope(), choices: [], usage: chatUsage(event.counts) }, DONE]
          : [DONE];
      case 'generation.error':
        return [event.error.body];
    }
  }

  private choice(index: number): [ChatChoice, ChatCompletionChunk[]] {
    const found = this.choices.get(index);
    if (found !== undefined) return [found, []];
    const choice = new ChatChoice(index, this.options.parser);
    this.choices.set(index, choice);
    return [choice, [this.chunk(index, { role: 'assistant', content: '' }, [], null)]];
  }

  /** The chunks of one step; its logprobs ride on the first, and wait for one if there is none. */
  private deltas(choice: ChatChoice, step: ChoiceStep, counts?: TokenCounts): ChatCompletionChunk[] {
    const { reasoning, content, toolCalls } = step.delta;
    const deltas: ChunkDelta[] = [];
    if (reasoning !== '') deltas.push({ reasoning_content: reasoning });
    if (content !== '') deltas.push({ content });
    for (const { index, id, name, arguments: args } of toolCalls) {
      deltas.push({
        tool_calls: [
          id === undefined
            ? { index, function: { arguments: args } }
            : { index, id, type: 'function', function: { name: name ?? '', arguments: args } },
        ],
      });
    }
    const held = this.heldFor(choice.index);
    held.push(...step.logprobs);
    return deltas.map((delta, i) => {
      const logprobs = i === 0 ? held.splice(0) : [];
      return this.chunk(choice.index, delta, logprobs, null, i === deltas.length - 1 ? counts : undefined);
    });
  }

  /** Per choice: logprobs of tokens whose text is still held back by the parser. */
  private readonly held = new Map<number, ChatTokenLogprob[]>();

  private heldFor(index: number): ChatTokenLogprob[] {
    const found = this.held.get(index);
    if (found !== undefined) return found;
    const held: ChatTokenLogprob[] = [];
    this.held.set(index, held);
    return held;
  }

  private chunk(
    index: number,
    delta: ChunkDelta,
    logprobs: ChatTokenLogprob[],
    finish: ChatFinishReason | null,
    counts?: TokenCounts,
  ): ChatCompletionChunk {
    const all = finish === null ? logprobs : [...this.heldFor(index).splice(0), ...logprobs];
    const chunk: ChatCompletionChunk = {
      ...this.envelope(),
      choices: [
        {
          index,
          delta,
          logprobs: this.options.logprobs && all.length > 0 ? { content: all, refusal: null } : null,
          finish_reason: finish,
        },
      ],
    };
    if (this.options.include_usage || this.options.continuous_usage) {
      chunk.usage = this.options.continuous_usage && counts !== undefined ? chatUsage(counts) : null;
    }
    return chunk;
  }

  private envelope() {
    return {
      id: this.options.id,
      object: 'chat.completion.chunk' as const,
      created: this.options.created,
      model: this.options.model,
    };
  }
}

/** SSE bytes for stream items (`data: {json}` frames; `data: [DONE]`). */
export function chatSseBytes(items: readonly ChatStreamItem[]): Uint8Array[] {
  return items.map((item) => (item === DONE ? SSE_DONE : sseFrame(item)));
}
