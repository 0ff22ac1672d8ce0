import { describe, expect, it } from 'vitest';
import { InvalidRequestError } from '../../../../../src/core/domain/errors';
import { checkLoraScales, scalesFrom } from '../../../../../src/core/domain/lora';

const refusal = (run: () => void) => {
  try {
    run();
  } catch (error) {
    if (error instanceof InvalidRequestError) return { param: error.param, message: error.message };
    throw error;
  }
  return null;
};

describe('LoRA scales', () => {
  it('takes ids the model has; an id past them is a 400 naming the field', () => {
    expect(refusal(() => checkLoraScales([{ id: 1, scale: 1 }], 2))).toBeNull();
    expect(refusal(() => checkLoraScales([], 0))).toBeNull();
    expect(refusal(() => checkLoraScales([{ id: 2, scale: 1 }], 2))).toEqual({
      param: 'lora',
      message: "'lora' names LoRA adapter 2, and this model has 2 (ids 0 to 1).",
    });
    expect(refusal(() => checkLoraScales([{ id: 0, scale: 0.5 }], 0, 'id'))?.message).toBe(
      "'id' names LoRA adapter 0, and this model has none loaded (startInpage({ lora })).",
    );
  });

  it('gives every adapter a scale: the listed ones, 0 for the rest, the last of an id listed twice', () => {
    expect(scalesFrom([{ id: 2, scale: 0.5 }], 3)).toEqual([0, 0, 0.5]);
    expect(
      scalesFrom(
        [
          { id: 0, scale: 1 },
          { id: 0, scale: -2 },
        ],
        2,
      ),
    ).toEqual([-2, 0]);
    expect(scalesFrom([], 2)).toEqual([0, 0]);
  });
});
