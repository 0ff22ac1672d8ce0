import { describe, expect, it } from 'vitest';
import { buildInpageTestModel } from '../../../../src/builtin-model/inpage-test-model';
import { largestTensorBytes } from '../../../../src/gguf/largest-tensor';
import { validateGguf } from '../../../../src/gguf/validate-gguf';

describe('largestTensorBytes', () => {
  it("is the largest of the model's tensors, by the bytes its table gives", async () => {
    const { header } = await validateGguf(new Blob([buildInpageTestModel()]));
    const sizes = header.tensors.map((tensor) => Number(tensor.bytes));
    expect(largestTensorBytes(header.tensors)).toBe(Math.max(...sizes));
    expect(sizes.filter((size) => size < largestTensorBytes(header.tensors)).length).toBeGreaterThan(0);
  });

  it('is 0 for no tensors', () => {
    expect(largestTensorBytes([])).toBe(0);
  });
});
