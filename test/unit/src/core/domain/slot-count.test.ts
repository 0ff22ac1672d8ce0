import { describe, expect, it } from 'vitest';
import { InvalidRequestError } from '../../../../../src/core/domain/errors';
import { MAX_SLOTS, parseSlots, readSlots } from '../../../../../src/core/domain/slot-count';

describe('slot counts', () => {
  it('takes integers from 1 to MAX_SLOTS', () => {
    expect(readSlots(1, 'slots')).toBe(1);
    expect(readSlots(MAX_SLOTS, 'slots')).toBe(MAX_SLOTS);
    expect(parseSlots(' 4 ', '&slots')).toBe(4);
  });

  it('refuses anything else with a 400 naming the field', () => {
    for (const bad of [0, -1, 1.5, MAX_SLOTS + 1, '4', null, {}]) {
      expect(() => readSlots(bad, 'slots')).toThrow(InvalidRequestError);
      expect(() => readSlots(bad, 'slots')).toThrow(/^slots: /);
    }
    for (const bad of ['', 'four', '2/2', '-1', '0', '17'])
      expect(() => parseSlots(bad, 'data-slots')).toThrow(/data-slots/);
  });
});
