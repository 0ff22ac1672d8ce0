import { describe, expect, it } from 'vitest';
import { MIN_RANGE_BYTES, planRanges } from '../../../../../worker/engine/model-store/plan-ranges';

describe('planRanges', () => {
  it('cuts a file that takes ranges into `connections` ranges of at least MIN_RANGE_BYTES', () => {
    expect(planRanges(40 * 2 ** 20, true, 4)).toEqual([
      [0, 10 * 2 ** 20],
      [10 * 2 ** 20, 20 * 2 ** 20],
      [20 * 2 ** 20, 30 * 2 ** 20],
      [30 * 2 ** 20, 40 * 2 ** 20],
    ]);
    expect(planRanges(2 * MIN_RANGE_BYTES + 5, true, 8)).toHaveLength(2);
    expect(planRanges(MIN_RANGE_BYTES - 1, true, 8)).toEqual([[0, MIN_RANGE_BYTES - 1]]);
  });

  it('keeps one range without range support, one connection, or a known size', () => {
    expect(planRanges(40 * 2 ** 20, false, 4)).toEqual([[0, 40 * 2 ** 20]]);
    expect(planRanges(40 * 2 ** 20, true, 1)).toEqual([[0, 40 * 2 ** 20]]);
    expect(planRanges(null, true, 4)).toEqual([[0, null]]);
    expect(planRanges(0, true, 4)).toEqual([[0, 0]]);
  });

  it('covers every byte once, whatever the size', () => {
    for (const size of [MIN_RANGE_BYTES * 3 + 1, MIN_RANGE_BYTES * 7 - 3, 123_456_789]) {
      const ranges = planRanges(size, true, 5);
      expect(ranges[0]?.[0]).toBe(0);
      for (let i = 1; i < ranges.length; i++) expect(ranges[i]?.[0]).toBe(ranges[i - 1]?.[1]);
      expect(ranges.at(-1)?.[1]).toBe(size);
    }
  });
});
