/** A request's reasoning_end controls, as each running choice sees them. */
import { describe, expect, it } from 'vitest';
import { ReasoningEnd } from '../../../../worker/engine/reasoning-end';

describe('ReasoningEnd', () => {
  it('ends the reasoning of the choices running when asked, once each, and not of later ones', () => {
    const end = new ReasoningEnd();
    const first = end.watch();
    const second = end.watch();
    expect(first()).toBe(false);
    end.ask();
    const later = end.watch();
    expect([first(), first(), second(), later()]).toEqual([true, false, true, false]);
    end.ask();
    end.ask();
    expect([first(), first(), later()]).toEqual([true, false, true]);
  });
});
