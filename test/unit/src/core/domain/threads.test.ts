import { describe, expect, it } from 'vitest';
import { InvalidRequestError } from '../../../../../src/core/domain/errors';
import { defaultThreads, parseThreads, readThreads } from '../../../../../src/core/domain/threads';

describe('threads', () => {
  it('defaults to half the logical cores (at most 8), for prompts and decoding', () => {
    expect([1, 2, 4, 8, 16, 32].map((cores) => defaultThreads(cores))).toEqual([
      { prefill: 1, decode: 1 },
      { prefill: 1, decode: 1 },
      { prefill: 2, decode: 2 },
      { prefill: 4, decode: 4 },
      { prefill: 8, decode: 8 },
      { prefill: 8, decode: 8 },
    ]);
  });

  it('reads a count (prompts and decoding) or each', () => {
    expect(readThreads(2, 'threads')).toEqual({ prefill: 2, decode: 2 });
    expect(readThreads(1, 'threads')).toEqual({ prefill: 1, decode: 1 });
    expect(readThreads(8, 'threads')).toEqual({ prefill: 8, decode: 8 });
    expect(readThreads({ prefill: 4, decode: 1 }, 'threads')).toEqual({ prefill: 4, decode: 1 });
    expect(readThreads({ prefill: 2, decode: 2 }, 'threads')).toEqual({ prefill: 2, decode: 2 });
    expect(parseThreads('3', 'data-threads')).toEqual({ prefill: 3, decode: 3 });
    expect(parseThreads(' 2/1 ', '&threads')).toEqual({ prefill: 2, decode: 1 });
  });

  it('refuses anything else with a 400 naming the field', () => {
    const bad: Array<[unknown, string]> = [
      [0, 'threads'],
      [1.5, 'threads'],
      [17, 'threads'],
      ['2', 'threads'],
      [{ prefill: 2 }, 'threads.decode'],
      [{ prefill: 2, decode: 1, batch: 2 }, 'threads.batch'],
      [[2], 'threads'],
    ];
    for (const [value, named] of bad) {
      const error = (() => {
        try {
          readThreads(value, 'threads');
        } catch (thrown) {
          return thrown;
        }
        return null;
      })();
      expect(error).toBeInstanceOf(InvalidRequestError);
      expect(error instanceof InvalidRequestError && error.message).toContain(named);
      expect(error instanceof InvalidRequestError && error.status).toBe(400);
    }
    for (const text of ['', 'two', '2/1/1', '2/', '-1'])
      expect(() => parseThreads(text, 'data-threads')).toThrow(/data-threads/);
  });
});
