import { describe, expect, it } from 'vitest';
import { inputBatches } from '../../../../../../worker/engine/backends/llamacpp/input-batches';

describe('inputBatches', () => {
  it('puts consecutive inputs together up to the tokens and the inputs a batch holds, in order', () => {
    expect(inputBatches([10, 20, 30, 40], 60, 16)).toEqual([[0, 1, 2], [3]]);
    expect(inputBatches([60, 1, 60], 60, 16)).toEqual([[0], [1], [2]]);
    expect(inputBatches([1, 1, 1, 1, 1], 100, 2)).toEqual([[0, 1], [2, 3], [4]]);
    expect(inputBatches([], 100)).toEqual([]);
    expect(inputBatches(new Array<number>(40).fill(3), 512).map((batch) => batch.length)).toEqual([16, 16, 8]);
  });
});
