import { describe, expect, it } from 'vitest';
import { PrefillSteps, STEP_BUDGET_MS } from '../../../../../../worker/engine/backends/llamacpp/prefill-steps';

describe('PrefillSteps', () => {
  it('starts at 64, then takes as many whole micro-batches (64) as the measured speed fits in the budget', () => {
    const steps = new PrefillSteps();
    expect(steps.next()).toBe(64);
    steps.record(64, 32); // 0.5 ms a token: 400 fit in 200 ms, 6 micro-batches
    expect(steps.next()).toBe(384);
    const near = new PrefillSteps();
    near.record(64, 160); // 2.5 ms a token: 80 fit, one micro-batch (no 16-token remainder)
    expect(near.next()).toBe(64);
    expect(STEP_BUDGET_MS).toBe(200);
  });

  it('gives a slow model small steps and a fast one the glue batch at most', () => {
    const slow = new PrefillSteps();
    slow.record(32, 640); // 20 ms a token (a big model on a busy machine): 10 fit, at least 16
    expect(slow.next()).toBe(16);
    const slower = new PrefillSteps();
    slower.record(64, 320); // 5 ms a token: 40 fit, in 16s
    expect(slower.next()).toBe(32);
    const fast = new PrefillSteps();
    fast.record(32, 1); // 0.03 ms a token
    expect(fast.next()).toBe(512);
  });

  it('follows a change of speed (a deeper context, a busier machine) within a few steps', () => {
    const steps = new PrefillSteps();
    steps.record(100, 50);
    for (let i = 0; i < 6; i++) steps.record(100, 400); // 4 ms a token now
    expect(steps.next()).toBeLessThanOrEqual(64);
    expect(steps.next() * 4).toBeLessThanOrEqual(STEP_BUDGET_MS * 1.5);
  });

  it('ignores a step that read nothing', () => {
    const steps = new PrefillSteps();
    steps.record(0, 100);
    expect(steps.next()).toBe(64);
  });
});
