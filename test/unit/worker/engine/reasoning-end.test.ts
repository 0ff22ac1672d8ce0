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

describe("a request's budget over the engine's default", () => {
  it("reads -1 and a missing message as the default's, as llama-server reads them; checks the option", async () => {
    const { effectiveBudget, readReasoningBudgetOption, NO_REASONING_BUDGET } =
      await import('../../../../src/core/domain/reasoning-budget');
    const fallback = readReasoningBudgetOption({ tokens: 3, message: ' Enough.' }, 'reasoningBudget');
    expect(effectiveBudget(undefined, fallback)).toEqual({ tokens: 3, message: ' Enough.', control: false });
    expect(effectiveBudget({ tokens: -1, control: true }, fallback)).toEqual({
      tokens: 3,
      message: ' Enough.',
      control: true,
    });
    expect(effectiveBudget({ tokens: 7, message: '', control: false }, fallback)).toEqual({
      tokens: 7,
      message: '',
      control: false,
    });
    expect(effectiveBudget(undefined, NO_REASONING_BUDGET).tokens).toBe(-1);
    expect(readReasoningBudgetOption(5, 'reasoningBudget')).toEqual({ tokens: 5, message: '' });
    for (const bad of [-2, 1.5, '3', { tokens: 3, message: 4 }, 2 ** 31])
      expect(() => readReasoningBudgetOption(bad, 'reasoningBudget')).toThrow(/reasoningBudget/);
  });
});
