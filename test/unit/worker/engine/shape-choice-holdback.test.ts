/**
 * Stop strings hold back only a tail that could begin a stop, and a known token's text goes out
 * whole with its logprobs entry (issue 21: with `stop: [" setColor"]` the token " barcelona"
 * streamed as " b" / "ar" / "c" / "elona", its entry riding on " b").
 */
import { describe, expect, it } from 'vitest';
import type { GenerationEvent, TokenInfo } from '../../../../worker/engine/backend';
import { shapeChoice, type ChoiceOutput, type ShapeOptions } from '../../../../worker/engine/shape-choice';

const bytesOf = (text: string): number[] => Array.from(new TextEncoder().encode(text));
const tok = (text: string, id = 1): TokenInfo => ({ id, text, bytes: bytesOf(text), logprob: -1, top: [] });
const end = (completionTokens: number): GenerationEvent => ({
  type: 'end',
  finishReason: 'length',
  promptTokens: 1,
  completionTokens,
  cachedTokens: 0,
});

const options = (stops: string[], logprobs: number | null = 0): ShapeOptions => ({
  stops,
  stopTokenIds: [],
  includeStop: false,
  minTokens: 0,
  logprobs,
  offset: 0,
});

/**
 * Feeds `pieces` one event each (per-token events unless `textOnly`); after each event, what
 * had been released by then: [text, tokens named by its deltas' entries] per delta.
 */
async function steps(pieces: string[], stops: string[], textOnly = false) {
  const seen: Array<Array<[string, string[] | null]>> = [];
  let current: Array<[string, string[] | null]> = [];
  async function* source(): AsyncGenerator<GenerationEvent> {
    for (const piece of pieces) {
      yield textOnly
        ? { type: 'text', text: piece, tokens: null }
        : { type: 'text', text: piece, tokens: [tok(piece)] };
      seen.push(current);
      current = [];
    }
    yield end(pieces.length);
  }
  const outputs: ChoiceOutput[] = [];
  for await (const out of shapeChoice(source(), options(stops, textOnly ? null : 0), () => undefined)) {
    outputs.push(out);
    if (out.type === 'delta') current.push([out.text, out.tokens?.map((t) => t.text) ?? null]);
  }
  seen.push(current);
  return { seen, outputs };
}

describe('shapeChoice: holding back for stops', () => {
  it('a token that begins no stop goes out at once, whole, with its entry', async () => {
    const { seen } = await steps([' barcelona', ' is'], [' setColor']);
    expect(seen).toStrictEqual([[[' barcelona', [' barcelona']]], [[' is', [' is']]], []]);
  });

  it('a token whose tail begins a stop waits whole until the stop is ruled out, then goes out token by token', async () => {
    const { seen } = await steps(['Hel', 'lo s', 'et', 'up'], [' setColor']);
    expect(seen).toStrictEqual([
      [['Hel', ['Hel']]],
      [],
      [],
      [
        ['lo s', ['lo s']],
        ['et', ['et']],
        ['up', ['up']],
      ],
      [],
    ]);
  });

  it('a completed stop cuts the token it begins in; the tokens before it are whole', async () => {
    const { seen, outputs } = await steps(['ab', 'cX', 'Y'], ['cXY']);
    expect(seen).toStrictEqual([[['ab', ['ab']]], [], []]);
    const inside = await steps(['ab', 'cdX', 'Y'], ['XY']);
    expect(inside.seen).toStrictEqual([[['ab', ['ab']]], [], [['cd', ['cdX']]]]);
    expect(outputs.at(-1)).toMatchObject({ type: 'end', finishReason: 'stop', matchedStop: 'cXY' });
  });

  it('text without tokens is held from where a stop could begin, not by the longest stop', async () => {
    const { seen } = await steps(['d', 'e', 'f', 'g', 'h'], ['ZZZZZZ', '\nuser:'], true);
    expect(seen).toStrictEqual([[['d', null]], [['e', null]], [['f', null]], [['g', null]], [['h', null]], []]);
    const held = await steps(['ab\nu', 'x'], ['\nuser:'], true);
    expect(held.seen).toStrictEqual([[['ab', null]], [['\nux', null]], []]);
  });
});
