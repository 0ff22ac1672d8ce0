/**
 * The state of one chat choice, fed with its neutral events: parses the text into reasoning,
 * content and tool calls, and yields each step's delta (for chunks) while accumulating the
 * final message (for the non-stream object).
 */
import { ChatOutputParser, type ParsedDelta, type ParserOptions } from './chat-output-parser';
import { HarmonyOutputParser } from './harmony-output-parser';
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
  private readonly parser: ChatOutputParser | HarmonyOutputParser;
  private content = '';
  private reasoning = '';
  private readonly toolCalls: ToolCall[] = [];
  private readonly logprobs: ChatTokenLogprob[] = [];
  finishReason: ChatFinishReason | null = null;
  /** The step of a continued message's own text (in `message()` already), for answers built from steps. */
  readonly prefilled: ChoiceStep | null = null;

  constructor(
    readonly index: number,
    options: ParserOptions,
  ) {
    // gpt-oss's harmony messages have a parser of their own.
    this.parser =
      options.toolFormat?.syntax === 'harmony' ? new HarmonyOutputParser(options) : new ChatOutputParser(options);
    // A continued message's own text: read first, in the message, never streamed (llama-server's).
    const prefill = options.prefill;
    if (prefill && prefill.text !== '' && (!prefill.reasoning || options.startInReasoning))
      this.prefilled = this.record(this.parser.push(prefill.text), []);
  }

  piece(text: string, tokens: readonly TokenLogprob[] | null): ChoiceStep {
    return this.record(this.parser.push(text), tokens ?? []);
  }

  /**
   * Ends the choice. `tail`: the text of a character the generation ended inside (unstreamed
   * answers only), its open character last as U+FFFD: llama-server's chat parser keeps the text
   * before that character and drops the character.
   */
  end(reason: FinishReason, tail = ''): ChoiceStep {
    const step = this.record(this.parser.finish(tail.slice(0, -1)), []);
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

  private record(delta: ParsedDelta, tokens: readonly TokenLogprob[]): ChoiceStep {
    this.content += delta.content;
    this.reasoning += delta.reasoning;
    for (const call of delta.toolCalls) {
      const known = this.toolCalls[call.index];
      if (known !== undefined) known.function.arguments += call.arguments;
      else
        this.toolCalls.push({
          id: call.id ?? '',
          type: 'function',
          function: { name: call.name ?? '', arguments: call.arguments },
        });
    }
    const logprobs = chatTokenLogprobs(tokens);
    this.logprobs.push(...logprobs);
    return { delta, logprobs };
  }
}
