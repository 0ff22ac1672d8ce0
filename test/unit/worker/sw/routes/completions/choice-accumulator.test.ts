import { describe, expect, it } from 'vitest';
import { ChoiceAccumulator } from '../../../../../../worker/sw/routes/completions/choice-accumulator';
import type { TokenLogprob } from '../../../../../../src/core/domain/generation';

/** One neutral token (logprob -1, itself its only alternative) at `offset`. */
const lp = (token: string, offset: number): TokenLogprob[] => [
  { id: 1, text: token, bytes: [], logprob: -1, top: [{ id: 1, text: token, bytes: [], logprob: -1 }], offset },
];

describe('ChoiceAccumulator', () => {
  it('starts empty', () => {
    expect(new ChoiceAccumulator(1).list()).toStrictEqual([]);
  });

  it('lists choices by index whatever order they arrive in, appending text', () => {
    const acc = new ChoiceAccumulator(1);
    acc.add(2, 'c', null);
    acc.add(0, 'a', null);
    acc.add(2, 'C', null);
    acc.add(1, '', null);
    acc.add(0, 'A', null);
    acc.end(1, 'length', null);
    acc.end(0, 'stop', '\n');
    acc.end(2, 'length', null);
    expect(acc.list()).toStrictEqual([
      { text: 'aA', index: 0, logprobs: null, finish_reason: 'stop', matched_stop: '\n' },
      { text: '', index: 1, logprobs: null, finish_reason: 'length' },
      { text: 'cC', index: 2, logprobs: null, finish_reason: 'length' },
    ]);
  });

  it('appends logprobs of successive deltas', () => {
    const acc = new ChoiceAccumulator(1);
    acc.add(0, 'He', lp('He', 0));
    acc.add(0, 'llo', lp('llo', 2));
    acc.end(0, 'length', null);
    expect(acc.list()[0]?.logprobs).toStrictEqual({
      tokens: ['He', 'llo'],
      token_logprobs: [-1, -1],
      top_logprobs: [{ He: -1 }, { llo: -1 }],
      text_offset: [0, 2],
    });
  });

  it('does not alias the first delta’s tokens', () => {
    const acc = new ChoiceAccumulator(1);
    const first = lp('a', 0);
    acc.add(0, 'a', first);
    acc.add(0, 'b', lp('b', 1));
    expect(first.map((t) => t.text)).toStrictEqual(['a']);
  });

  it('keeps no logprobs when the request asked for none', () => {
    const acc = new ChoiceAccumulator(null);
    acc.add(0, 'a', lp('a', 0));
    expect(acc.list()[0]?.logprobs).toBeNull();
  });

  it('has matched_stop only when non-null (token id 0 and "" count)', () => {
    const acc = new ChoiceAccumulator(1);
    acc.end(0, 'stop', 0);
    acc.end(1, 'stop', 'END');
    acc.end(2, 'length', null);
    const [a, b, c] = acc.list();
    expect(a?.matched_stop).toBe(0);
    expect(b?.matched_stop).toBe('END');
    expect(c).toBeDefined();
    expect(c && 'matched_stop' in c).toBe(false);
    expect(JSON.parse(JSON.stringify(acc.list()))).toStrictEqual([
      { text: '', index: 0, logprobs: null, finish_reason: 'stop', matched_stop: 0 },
      { text: '', index: 1, logprobs: null, finish_reason: 'stop', matched_stop: 'END' },
      { text: '', index: 2, logprobs: null, finish_reason: 'length' },
    ]);
  });

  it('keeps text that arrives after the end of another choice', () => {
    const acc = new ChoiceAccumulator(1);
    acc.add(0, 'x', null);
    acc.end(0, 'length', null);
    acc.add(1, 'y', null);
    expect(acc.list().map((c) => [c.text, c.finish_reason])).toStrictEqual([
      ['x', 'length'],
      ['y', null],
    ]);
  });
});
