import { toOpenAIError } from '../../src/core/errors';
import { message, type EngineToSw } from '../../src/core/protocol';
import type { CompletionRequest, Usage } from '../../src/core/openai/types';
import type { LoadedModel } from './backend';
import { echoPrompt } from './echo-prompt';
import { checkCapabilities } from './request-capabilities';
import { runChoice, type ChoicePiece } from './run-choice';

/** Posts one typed engine event to the SW. */
export const postToSw = <K extends keyof EngineToSw>(port: MessagePort, type: K, payload: EngineToSw[K]) =>
  port.postMessage(message<EngineToSw, K>(type, payload));

type EndPiece = Extract<ChoicePiece, { type: 'end' }>;

/** Running token counts of one request. */
class UsageTally {
  prompt = 0;
  completion = 0;
  cached = 0;
  /** Tokens of the choice in progress (for continuous usage stats). */
  current = 0;

  snapshot(): Usage {
    const completion = this.completion + this.current;
    const usage: Usage = { prompt_tokens: this.prompt, completion_tokens: completion, total_tokens: this.prompt + completion };
    if (this.cached > 0) usage.prompt_tokens_details = { cached_tokens: this.cached };
    return usage;
  }
}

/**
 * Runs one request on `model` and streams its events to the SW over `port`. Prompts run one
 * after another; each has `n` choices (index = prompt * n + choice), or `best_of` candidates
 * of which the `n` with the highest cumulative logprob are returned. Events: deltas, one
 * `choice-end` per choice, then exactly one `completion.done` or `completion.error`.
 * Nothing is posted once `signal` aborted. Resolves with the tokens counted so far.
 */
export async function runCompletion(model: LoadedModel, request: CompletionRequest, port: MessagePort, signal: AbortSignal): Promise<Usage> {
  const usage = new UsageTally();
  const live = request.continuous_usage_stats;
  try {
    checkCapabilities(model, request);
    for (const [p, prompt] of request.prompts.entries()) {
      const echo = request.echo ? await echoPrompt(model, prompt, request.logprobs, signal) : null;
      const candidates = request.best_of > request.n ? request.best_of : request.n;
      const buffered = candidates > request.n;
      const finished: Array<{ pieces: ChoicePiece[]; end: EndPiece }> = [];
      for (let choice = 0; choice < candidates; choice++) {
        const index = p * request.n + choice;
        const pieces: ChoicePiece[] = [];
        for await (const piece of runChoice(model, request, prompt, choice, echo, signal)) {
          if (signal.aborted) return usage.snapshot();
          if (piece.type === 'end') {
            if (choice === 0) {
              usage.prompt += piece.promptTokens;
              usage.cached += piece.cachedTokens;
            }
            usage.current = 0;
            finished.push({ pieces, end: piece });
            if (!buffered) {
              usage.completion += piece.completionTokens;
              postToSw(port, 'completion.choice-end', { index, finish_reason: piece.finishReason, matched_stop: piece.matchedStop, ...(live ? { usage: usage.snapshot() } : {}) });
            }
          } else if (buffered) {
            pieces.push(piece);
          } else {
            usage.current = piece.tokens;
            postToSw(port, 'completion.delta', { index, text: piece.text, logprobs: piece.logprobs, ...(live ? { usage: usage.snapshot() } : {}) });
          }
        }
      }
      if (buffered) postBest(port, finished, p * request.n, request.n, usage);
    }
    postToSw(port, 'completion.done', { usage: usage.snapshot() });
  } catch (error) {
    if (!signal.aborted) postToSw(port, 'completion.error', { error: toOpenAIError(error).toWire() });
  }
  return usage.snapshot();
}

/** `best_of`: the `n` candidates with the highest cumulative logprob, best first. */
function postBest(port: MessagePort, finished: Array<{ pieces: ChoicePiece[]; end: EndPiece }>, first: number, n: number, usage: UsageTally): void {
  const best = [...finished].sort((a, b) => b.end.cumulativeLogprob - a.end.cumulativeLogprob).slice(0, n);
  for (const [offset, candidate] of best.entries()) {
    const index = first + offset;
    for (const piece of candidate.pieces) {
      if (piece.type === 'delta') postToSw(port, 'completion.delta', { index, text: piece.text, logprobs: piece.logprobs });
    }
    usage.completion += candidate.end.completionTokens;
    postToSw(port, 'completion.choice-end', { index, finish_reason: candidate.end.finishReason, matched_stop: candidate.end.matchedStop });
  }
}
