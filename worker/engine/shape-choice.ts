import { codePoints } from '#core/util/code-points';
import type { FinishReason, TokenLogprob } from '#core/domain/generation';
import type { GenerationEvent, TokenInfo } from './backend';
import { StopText } from './stop-text';
import { Utf8Hold } from './utf8-hold';

export interface ShapeOptions {
  stops: string[];
  stopTokenIds: number[];
  includeStop: boolean;
  /** Stops (strings and token ids) only count once this many tokens were generated. */
  minTokens: number;
  /** Alternatives per token in the output, or null for no per-token logprobs. */
  logprobs: number | null;
  /** Code points already in the choice's text before the completion (the echoed prompt). */
  offset: number;
}

export type ChoiceOutput =
  /** `tokens`: the tokens that start in this piece (null when no logprobs were asked). */
  | { type: 'delta'; text: string; tokens: TokenLogprob[] | null }
  | {
      type: 'end';
      finishReason: FinishReason;
      matchedStop: string | number | null;
      /** Generated tokens (up to and including the one that completed a stop). */
      completionTokens: number;
      /** Sum of the generated tokens' logprobs (ranks `best_of` candidates; 0 without tokens). */
      cumulativeLogprob: number;
      /** Text of a character the generation ended inside (GenerationEnd's `tail`). */
      tail?: string;
    };

/**
 * Turns one backend generation into the choice's output. It applies stop strings, matched
 * across token boundaries and never emitted unless `includeStop`, and (with per-token info, which
 * the backend gives when logprobs, stop token ids or `best_of` need it) stop token ids; it holds
 * back only a tail that could still begin a stop (from the start of the token it begins in),
 * releases known tokens one delta each with their logprobs, and calls `halt` when a stop ends
 * the choice early.
 */
export async function* shapeChoice(
  events: AsyncIterable<GenerationEvent>,
  options: ShapeOptions,
  halt: () => void,
): AsyncGenerator<ChoiceOutput> {
  const text = new StopText(options.stops, options.includeStop);
  const utf8 = new Utf8Hold();
  let releasedPoints = 0;
  const pending: Array<{ token: TokenInfo; start: number }> = [];
  let released = 0;
  let tokens = 0;
  let cumulative = 0;

  /** Releases text up to `end`, with the tokens that start before it (all of them when `final`). */
  const release = (end: number, final = false): ChoiceOutput | null => {
    const from = released;
    const piece = text.take(end);
    const entries: TokenLogprob[] = [];
    while (pending.length > 0 && (final || (pending[0]?.start ?? Infinity) < end)) {
      const item = pending.shift();
      if (!item) break;
      const within = codePoints(piece.slice(0, Math.max(0, item.start - from)));
      const { id, text: spelling, bytes, logprob, top } = item.token;
      entries.push({
        id,
        text: spelling,
        bytes,
        logprob,
        top: options.logprobs === null ? top : top.slice(0, options.logprobs),
        offset: options.offset + releasedPoints + within,
      });
    }
    releasedPoints += codePoints(piece);
    released = Math.max(released, end);
    if (!piece && entries.length === 0) return null;
    return { type: 'delta', text: piece, tokens: options.logprobs === null ? null : entries };
  };
  /**
   * Releases text up to `end` (all pending tokens when `final`): one delta per token where the
   * tokens are known, so a token's text and its logprobs entry go out together.
   */
  function* releaseTo(end: number, final = false): Generator<ChoiceOutput> {
    for (const { start } of [...pending]) {
      if (start <= released || start >= end) continue;
      const out = release(start);
      if (out) yield out;
    }
    const out = release(end, final);
    if (out) yield out;
  }
  /** Where text can be released to now: not past a tail that could begin a stop, nor into a token. */
  const safeEnd = (): number => {
    const safe = text.safeEnd();
    let cut = safe;
    for (const { start } of pending) if (start < safe) cut = start;
    // `cut` is the start of the token `safe` falls in (its text runs to the next start or the end).
    const next = pending.find(({ start }) => start > cut)?.start ?? text.length;
    return safe < next && safe < text.length ? cut : safe;
  };
  const end = (
    finishReason: FinishReason,
    matchedStop: string | number | null,
    completionTokens: number,
  ): ChoiceOutput => ({ type: 'end', finishReason, matchedStop, completionTokens, cumulativeLogprob: cumulative });

  /** After text was appended: ends the choice if a stop string completed (then true), else releases what is safe. */
  function* afterAppend(): Generator<ChoiceOutput, boolean> {
    const match = text.match(released);
    if (match) {
      halt();
      yield* releaseTo(match.end);
      yield end('stop', match.stop, tokens);
      return true;
    }
    yield* releaseTo(Math.max(released, safeEnd()));
    return false;
  }

  for await (const event of events) {
    if (event.type === 'prompt') continue;
    if (event.type === 'end') {
      // A generation that ends inside a character (max_tokens) keeps its open tail out of the text;
      // it goes as `tail` (llama-server's /completion sends it, as U+FFFD; the OpenAI routes drop it).
      // The tokens that brought it are released with no text (the OpenAI routes' logprobs list
      // every generated token; /completion leaves them out of its probabilities, as llama-server).
      const tail = (event.tail ?? '') + utf8.flush();
      yield* releaseTo(text.length, true);
      yield { ...end(event.finishReason, null, event.completionTokens), ...(tail ? { tail } : {}) };
      return;
    }
    if (event.tokens === null) {
      // Text only: stop strings are matched on the text; one piece may hold several tokens.
      tokens = event.generated ?? tokens + 1;
      text.append(event.text, tokens > options.minTokens);
      if (yield* afterAppend()) return;
      continue;
    }
    for (const token of event.tokens) {
      const piece = utf8.push(token.bytes);
      tokens += 1;
      cumulative += token.logprob;
      const active = tokens > options.minTokens;
      if (active && options.stopTokenIds.includes(token.id)) {
        if (options.includeStop) {
          pending.push({ token, start: text.length });
          text.append(piece);
        }
        halt();
        yield* releaseTo(text.length);
        yield end('stop', token.id, tokens);
        return;
      }
      pending.push({ token, start: text.length });
      text.append(piece, active);
      if (yield* afterAppend()) return;
    }
  }
}
