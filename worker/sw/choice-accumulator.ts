import { appendLogprobs, emptyLogprobs } from '../../src/core/openai/legacy-logprobs';
import type { CompletionChoice, FinishReason, LegacyLogprobs } from '../../src/core/openai/types';

/** Collects a non-streamed response's choices from engine deltas, by index. */
export class ChoiceAccumulator {
  private readonly choices = new Map<number, CompletionChoice>();

  add(index: number, text: string, logprobs: LegacyLogprobs | null): void {
    const choice = this.get(index);
    choice.text += text;
    if (logprobs) appendLogprobs((choice.logprobs ??= emptyLogprobs()), logprobs);
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
