import { describe, expect, it } from 'vitest';
import { PrefillSteps } from '../../../../../../worker/engine/backends/llamacpp/prefill-steps';

/** The sizes a model's steps take, each step costing `msPerToken` per token read. */
function sizes(msPerToken: number, steps: number): number[] {
  const prefill = new PrefillSteps(250, 64);
  const seen: number[] = [];
  for (let i = 0; i < steps; i++) {
    const size = prefill.size;
    seen.push(size);
    prefill.took(size, size * msPerToken);
  }
  return seen;
}

describe('PrefillSteps', () => {
  it('starts at one token and doubles up to the most while steps stay short (a small model)', () => {
    expect(sizes(0.05, 9)).toEqual([1, 2, 4, 8, 16, 32, 64, 64, 64]);
  });

  it('settles where a step takes about the target: 250 ms at 20 ms a token is 12 tokens', () => {
    expect(sizes(20, 8)).toEqual([1, 2, 4, 8, 12, 12, 12, 12]);
  });

  it('stays at one token a step for a model slower than the target per token (a 7B model on one thread)', () => {
    expect(sizes(700, 4)).toEqual([1, 1, 1, 1]);
  });

  it('shrinks at once when steps get slower (a loaded machine), and ignores a step that read nothing', () => {
    const prefill = new PrefillSteps(250, 64);
    for (let i = 0; i < 8; i++) prefill.took(prefill.size, prefill.size * 0.1);
    expect(prefill.size).toBe(64);
    prefill.took(0, 5000);
    expect(prefill.size).toBe(64);
    prefill.took(64, 1600);
    expect(prefill.size).toBe(10);
  });
});
