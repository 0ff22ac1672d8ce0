/** Collects a non-streamed legacy completion's choices from the engine's pieces, by index. */
import type { FinishReason, TokenLogprob } from '#core/domain/generation';
import type { CompletionChoice } from '#core/openai/types';
import { appendLogprobs, emptyLogprobs, toLegacyLogprobs } from './legacy-logprobs';

export class ChoiceAccumulator {
  private readonly choices = new Map<number, CompletionChoice>();

  /** `top`: alternatives per token in the legacy shape (the request's `logprobs`). */
  constructor(private readonly top: number | null) {}

  add(index: number, text: string, tokens: TokenLogprob[] | null): void {
    const choice = this.get(index);
    choice.text += text;
    if (tokens && this.top !== null)
      appendLogprobs((choice.logprobs ??= emptyLogprobs()), toLegacyLogprobs(tokens, this.top));
  }

  end(index: number, finishReason: FinishReason, matchedStop: string | number | null): void {
    const choice = this.get(index);
    choice.finish_reason = finishReason;
    if (matchedStop !== null) choice.matched_stop = matchedStop;
  }

  /** The choices in index order. */
  list(): CompletionChoice[] {
    return [...this.choices.values()].sort((a, b) => a.index - b.index);
  }

  private get(index: number): CompletionChoice {
    let choice = this.choices.get(index);
    if (!choice) {
      choice = { text: '', index, logprobs: null, finish_reason: null };
      this.choices.set(index, choice);
    }
    return choice;
  }
}
