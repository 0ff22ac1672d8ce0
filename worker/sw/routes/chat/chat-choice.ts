/**
 * The state of one chat choice, fed with its neutral events: parses the text into reasoning,
 * content and tool calls, and yields each step's delta (for chunks) while accumulating the
 * final message (for the non-stream object).
 */
import { ChatOutputParser, type ParsedDelta, type ParserOptions } from './chat-output-parser';
import { chatTokenLogprobs, type ChatTokenLogprob } from './chat-logprobs';
import type { ToolCall } from './chat-types';
import type { FinishReason, TokenLogprob } from './neutral-types';

export type ChatFinishReason = FinishReason | 'tool_calls';

export interface ChoiceStep {
  delta: ParsedDelta;
  /** Logprobs of the tokens behind this step (and of held-back tokens released by it). */
  logprobs: ChatTokenLogprob[];
}

export interface ChatMessageOut {
  role: 'assistant';
  content: string | null;
  reasoning_content?: string;
  tool_calls?: ToolCall[];
}

export class ChatChoice {
  private readonly parser: ChatOutputParser;
  private content = '';
  private reasoning = '';
  private readonly toolCalls: ToolCall[] = [];
  private readonly logprobs: ChatTokenLogprob[] = [];
  finishReason: ChatFinishReason | null = null;

  constructor(
    readonly index: number,
    options: ParserOptions,
  ) {
    this.parser = new ChatOutputParser(options);
  }

  piece(text: string, tokens: readonly TokenLogprob[] | null): ChoiceStep {
    return this.record(this.parser.push(text), tokens ?? []);
  }

  end(reason: FinishReason): ChoiceStep {
    const step = this.record(this.parser.finish(), []);
    this.finishReason = reason === 'stop' && this.toolCalls.length > 0 ? 'tool_calls' : reason;
    return step;
  }

  message(): ChatMessageOut {
    return {
      role: 'assistant',
      content: this.content === '' && this.toolCalls.length > 0 ? null : this.content,
      ...(this.reasoning === '' ? {} : { reasoning_content: this.reasoning }),
      ...(this.toolCalls.length === 0 ? {} : { tool_calls: this.toolCalls }),
    };
  }

  allLogprobs(): ChatTokenLogprob[] {
    return this.logprobs;
  }

  /** How many tool calls came before this step's (their `index` in tool_call deltas). */
  get toolCallCount(): number {
    return this.toolCalls.length;
  }

  private record(delta: ParsedDelta, tokens: readonly TokenLogprob[]): ChoiceStep {
    this.content += delta.content;
    this.reasoning += delta.reasoning;
    this.toolCalls.push(
      ...delta.toolCalls.map((c): ToolCall => ({
        id: c.id,
        type: 'function',
        function: { name: c.name, arguments: c.arguments },
      })),
    );
    const logprobs = chatTokenLogprobs(tokens);
    this.logprobs.push(...logprobs);
    return { delta, logprobs };
  }
}
