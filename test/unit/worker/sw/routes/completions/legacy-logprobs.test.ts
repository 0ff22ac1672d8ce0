import { describe, expect, it } from 'vitest';
import { codePoints } from '../../../../../../src/core/util/code-points';
import {
  appendLogprobs,
  emptyLogprobs,
  toLegacyLogprobs,
} from '../../../../../../worker/sw/routes/completions/legacy-logprobs';
import type { LogprobEntry } from '../../../../../../worker/sw/routes/completions/legacy-logprobs';

const entry = (text: string, logprob: number | null, offset: number, top: LogprobEntry['top'] = []): LogprobEntry => ({
  text,
  logprob,
  top,
  offset,
});

describe('toLegacyLogprobs', () => {
  it('lays entries out as the four parallel legacy arrays', () => {
    const out = toLegacyLogprobs(
      [
        entry('He', -0.5, 3, [
          { text: 'He', logprob: -0.5 },
          { text: 'Hi', logprob: -1.5 },
        ]),
        entry('llo', -0.25, 5, [{ text: 'llo', logprob: -0.25 }]),
      ],
      5,
    );
    expect(out).toStrictEqual({
      tokens: ['He', 'llo'],
      token_logprobs: [-0.5, -0.25],
      top_logprobs: [{ He: -0.5, Hi: -1.5 }, { llo: -0.25 }],
      text_offset: [3, 5],
    });
  });

  it('keeps only `count` alternatives, in order', () => {
    const top = [
      { text: 'a', logprob: -1 },
      { text: 'b', logprob: -2 },
      { text: 'c', logprob: -3 },
    ];
    expect(toLegacyLogprobs([entry('a', -1, 0, top)], 2).top_logprobs).toStrictEqual([{ a: -1, b: -2 }]);
    expect(Object.keys(toLegacyLogprobs([entry('a', -1, 0, top)], 2).top_logprobs[0] ?? {})).toStrictEqual(['a', 'b']);
    expect(toLegacyLogprobs([entry('a', -1, 0, top)], 9).top_logprobs).toStrictEqual([{ a: -1, b: -2, c: -3 }]);
  });

  it('always lists the sampled token among its top logprobs (as vLLM does), after the alternatives', () => {
    const top = [
      { text: 'a', logprob: -1 },
      { text: 'b', logprob: -2 },
      { text: 'c', logprob: -3 },
    ];
    expect(toLegacyLogprobs([entry('a', -1, 0, top)], 0).top_logprobs).toStrictEqual([{ a: -1 }]);
    const sampledLow = toLegacyLogprobs([entry('c', -3, 0, top)], 1).top_logprobs[0];
    expect(sampledLow).toStrictEqual({ a: -1, c: -3 });
    expect(Object.keys(sampledLow ?? {})).toStrictEqual(['a', 'c']);
    expect(toLegacyLogprobs([entry('z', -7, 0, [])], 2).top_logprobs).toStrictEqual([{ z: -7 }]);
  });

  it('two alternatives with the same text keep the higher logprob, whichever comes first', () => {
    const lowFirst = [
      { text: ' x', logprob: -3 },
      { text: ' x', logprob: -0.5 },
      { text: 'y', logprob: -4 },
    ];
    const highFirst = [
      { text: ' x', logprob: -0.5 },
      { text: 'y', logprob: -4 },
      { text: ' x', logprob: -3 },
    ];
    expect(toLegacyLogprobs([entry(' x', -0.5, 0, lowFirst)], 5).top_logprobs).toStrictEqual([{ ' x': -0.5, y: -4 }]);
    expect(toLegacyLogprobs([entry(' x', -0.5, 0, highFirst)], 5).top_logprobs).toStrictEqual([{ ' x': -0.5, y: -4 }]);
  });

  it('keeps null logprob and null top (an unscored first prompt token)', () => {
    const out = toLegacyLogprobs([entry('<s>', null, 0, null), entry('a', -1, 0, [{ text: 'a', logprob: -1 }])], 1);
    expect(out).toStrictEqual({
      tokens: ['<s>', 'a'],
      token_logprobs: [null, -1],
      top_logprobs: [null, { a: -1 }],
      text_offset: [0, 0],
    });
  });

  it('gives empty arrays for no entries', () => {
    expect(toLegacyLogprobs([], 3)).toStrictEqual(emptyLogprobs());
    expect(emptyLogprobs()).toStrictEqual({ tokens: [], token_logprobs: [], top_logprobs: [], text_offset: [] });
  });
});

describe('appendLogprobs', () => {
  it('appends every array in place, leaving `more` unchanged', () => {
    const into = toLegacyLogprobs([entry('a', -1, 0, [{ text: 'a', logprob: -1 }])], 1);
    const more = toLegacyLogprobs([entry('b', -2, 1, null), entry('c', -3, 2, [{ text: 'c', logprob: -3 }])], 1);
    const copy = structuredClone(more);
    appendLogprobs(into, more);
    expect(into).toStrictEqual({
      tokens: ['a', 'b', 'c'],
      token_logprobs: [-1, -2, -3],
      top_logprobs: [{ a: -1 }, null, { c: -3 }],
      text_offset: [0, 1, 2],
    });
    expect(more).toStrictEqual(copy);
  });

  it('emptyLogprobs gives a fresh object each time', () => {
    const a = emptyLogprobs();
    appendLogprobs(a, toLegacyLogprobs([entry('x', -1, 0)], 0));
    expect(emptyLogprobs().tokens).toHaveLength(0);
  });
});

describe('codePoints', () => {
  it.each([
    ['', 0],
    ['abc', 3],
    ['é', 1],
    ['😀', 1],
    ['a😀b', 3],
    ['👍🏽', 2],
    ['\u{10FFFF}x', 2],
  ])('%j has %i code points', (text, count) => {
    expect(codePoints(text)).toBe(count);
  });
});
