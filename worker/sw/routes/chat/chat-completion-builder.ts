/**
 * The non-stream `chat.completion` object, built from neutral events: one ChatChoice per
 * index, then `{id, object, created, model, choices:[{index, message, logprobs, finish_reason}], usage}`.
 * An error event throws the engine's `OpenAIError`.
 */
import { OpenAIError } from '#core/domain/errors';
import { ChatChoice, type ChatFinishReason, type ChatMessageOut } from '../../conversation/chat-choice';
import { chatUsage, type ChatUsage } from './chat-usage';
import { parserForPrompt, type ChatFormatOptions } from '../../conversation/chat-format-options';
import type { ChatLogprobs } from '../../conversation/chat-logprobs';
import type { GenerationEvent } from '../../conversation/neutral-types';

export interface ChatCompletion {
  id: string;
  object: 'chat.completion';
  created: number;
  model: string;
  choices: Array<{
    index: number;
    message: ChatMessageOut;
    logprobs: ChatLogprobs | null;
    finish_reason: ChatFinishReason;
  }>;
  usage: ChatUsage;
}

export class ChatCompletionBuilder {
  private readonly choices = new Map<number, ChatChoice>();
  private usage: ChatUsage | null = null;

  constructor(private readonly options: ChatFormatOptions) {}

  /** Feeds one event; true once the request is done. */
  accept(event: GenerationEvent): boolean {
    switch (event.type) {
      case 'generation.prompt':
        this.options.parser = parserForPrompt(this.options.parser, event);
        return false;
      case 'generation.piece':
        this.choice(event.index).piece(event.text, event.tokens);
        return false;
      case 'generation.choice-end':
        this.choice(event.index).end(event.finish_reason, event.tail);
        return false;
      case 'generation.done':
        this.usage = chatUsage(event.counts);
        return true;
      case 'generation.error':
        throw OpenAIError.fromWire(event.error);
    }
  }

  result(): ChatCompletion {
    if (this.usage === null) throw new Error('ChatCompletionBuilder.result() before generation.done');
    const choices = [...this.choices.values()].sort((a, b) => a.index - b.index);
    return {
      id: this.options.id,
      object: 'chat.completion',
      created: this.options.created,
      model: this.options.model,
      choices: choices.map((c) => ({
        index: c.index,
        message: c.message(),
        logprobs: this.options.logprobs ? { content: c.allLogprobs(), refusal: null } : null,
        finish_reason: c.finishReason ?? 'stop',
      })),
      usage: this.usage,
    };
  }

  private choice(index: number): ChatChoice {
    let choice = this.choices.get(index);
    if (choice === undefined) {
      choice = new ChatChoice(index, this.options.parser);
      this.choices.set(index, choice);
    }
    return choice;
  }
}
