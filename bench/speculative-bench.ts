/**
 * Speculative decoding in n-gram mode (native/speculative.cpp, `speculative.type:
 * "ngram-simple"`): decode tok/s of one greedy generation with and without drafts, on the page's
 * one thread, through llama-server's `/completion` (its `timings`: `predicted_per_second`,
 * `draft_n`, `draft_n_accepted`). The generation is one that repeats: the bench models'
 * greedy output falls into a loop of a few tokens within ~200 tokens, so the measured request's
 * prompt is a seed and the model's own first 256 greedy tokens after it, and its generation
 * goes on with the loop from its first token, the case n-gram drafts are for (a model quoting,
 * copying or editing its context). Both runs must give the same tokens; a difference is
 * reported, not averaged away. Rounds alternate off and on.
 */
import type { Page } from 'playwright';
import type { Harness } from '../test/e2e/harness';
import type { BenchModel } from './bench-models';
import { ASCII_ONLY } from './prompts';
import { fmt, median } from './stats';

/** The prompt whose greedy continuation the bench models loop in. */
const SEED = 'The quick brown fox';

export interface SpeculativeResult {
  model: string;
  tokens: number;
  offPerSecond: number[];
  onPerSecond: number[];
  drafted: number;
  accepted: number;
  /** Rounds whose tokens differed between the two (must be 0). */
  differing: number;
}

interface Timed {
  tokens: number[];
  timings: { predicted_per_second: number; draft_n?: number; draft_n_accepted?: number };
}

/** One `/completion` from inside the page (its JSON; an error unless it is a 200). */
export function complete<T = Timed>(page: Page, body: Record<string, unknown>): Promise<T> {
  return page.evaluate(async (body) => {
    const response = await fetch('/completion', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (!response.ok) throw new Error(`/completion answered ${response.status}: ${await response.text()}`);
    return (await response.json()) as T;
  }, body);
}

/** What rounds of a generation with drafts off and on add up to (both must give the same tokens). */
export interface OffAndOn {
  offPerSecond: number[];
  onPerSecond: number[];
  drafted: number;
  accepted: number;
  /** Rounds whose tokens differed between the two (must be 0). */
  differing: number;
}

/** `rounds` rounds of `off` then `on` (each with `return_tokens`), added to `into`. */
export async function offAndOn(
  page: Page,
  rounds: number,
  off: Record<string, unknown>,
  on: Record<string, unknown>,
  into: OffAndOn,
): Promise<void> {
  for (let round = 0; round < rounds; round++) {
    const plain = await complete(page, { ...off, return_tokens: true });
    const drafted = await complete(page, { ...on, return_tokens: true });
    into.offPerSecond.push(plain.timings.predicted_per_second);
    into.onPerSecond.push(drafted.timings.predicted_per_second);
    into.drafted += drafted.timings.draft_n ?? 0;
    into.accepted += drafted.timings.draft_n_accepted ?? 0;
    if (JSON.stringify(drafted.tokens) !== JSON.stringify(plain.tokens)) into.differing += 1;
  }
}

export async function benchSpeculative(
  harness: Harness,
  model: BenchModel,
  { rounds, tokens }: { rounds: number; tokens: number },
): Promise<SpeculativeResult> {
  const { context, page } = await harness.openPage(`/?model=${model.url}`);
  const result: SpeculativeResult = {
    model: model.id,
    tokens,
    offPerSecond: [],
    onPerSecond: [],
    drafted: 0,
    accepted: 0,
    differing: 0,
  };
  try {
    const seed = {
      model: model.id,
      prompt: SEED,
      n_predict: 256,
      temperature: 0,
      logit_bias: ASCII_ONLY,
      cache_prompt: false,
    };
    // The model's own loop (byte vocabulary: the text is its tokens), then the measured request.
    const looped = await page.evaluate(async (body) => {
      const response = await fetch('/completion', { method: 'POST', body: JSON.stringify(body) });
      return ((await response.json()) as { content: string }).content;
    }, seed);
    const body = {
      model: model.id,
      prompt: SEED + looped,
      n_predict: tokens,
      temperature: 0,
      logit_bias: ASCII_ONLY,
      return_tokens: true,
      cache_prompt: false,
    };
    await offAndOn(page, rounds, body, { ...body, 'speculative.type': 'ngram-simple' }, result);
  } finally {
    await context.close();
  }
  return result;
}

export function speculativeTable(results: readonly SpeculativeResult[]): string {
  const rows = results.map((r) => {
    const off = median(r.offPerSecond);
    const on = median(r.onPerSecond);
    const rate = r.drafted > 0 ? r.accepted / r.drafted : NaN;
    return `| ${r.model} | ${r.tokens} | ${fmt(off, 1)} | ${fmt(on, 1)} | ${fmt(on / off, 2)}x | ${r.drafted} | ${fmt(rate * 100, 1)}% | ${r.differing === 0 ? 'yes' : `NO (${r.differing} rounds differ)`} |`;
  });
  return [
    "**Speculative decoding, n-gram mode (llama.cpp's ngram-simple), 1 thread: a repeating greedy generation**",
    '',
    '| model | tokens | decode tok/s off | on | on / off | drafted | accepted | same tokens |',
    '| --- | --- | --- | --- | --- | --- | --- | --- |',
    ...rows,
  ].join('\n');
}
