import { describe, expect, it } from 'vitest';
import { describeAccelerator } from '../../../demo/describe-accelerator';

describe("the picker's runs-on cell", () => {
  it('names the accelerator, with the reason where the model runs on the CPU', () => {
    expect(describeAccelerator({ accelerator: 'cpu', accelerator_reason: 'no shader-f16' })).toBe(
      'cpu (no shader-f16)',
    );
    expect(describeAccelerator({ accelerator: 'webgpu' })).toBe('webgpu');
    expect(describeAccelerator({})).toBe('');
  });
});
