import { describe, expect, test } from 'vitest';
import { concatBytes } from '#core/util/concat-bytes';

describe('concatBytes', () => {
  test('puts the parts end to end', () => {
    const joined = concatBytes([Uint8Array.of(1, 2), new Uint8Array(0), Uint8Array.of(3)]);
    expect([...joined]).toEqual([1, 2, 3]);
  });

  test('gives the one part itself, and an empty array for none', () => {
    const only = Uint8Array.of(7);
    expect(concatBytes([only])).toBe(only);
    expect(concatBytes([]).length).toBe(0);
  });
});
