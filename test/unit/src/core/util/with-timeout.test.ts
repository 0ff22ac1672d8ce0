import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { withTimeout } from '../../../../../src/core/util/with-timeout';

describe('withTimeout', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('settles like the promise when it is in time', async () => {
    const value = withTimeout(new Promise<string>((resolve) => setTimeout(() => resolve('ok'), 50)), 100, () => 'late');
    vi.advanceTimersByTime(60);
    await expect(value).resolves.toBe('ok');
    await expect(withTimeout(Promise.reject(new Error('no')), 100, () => 'late')).rejects.toThrow('no');
  });

  it('gives the fallback, or the thrown deadline error, when it is late', async () => {
    const never = new Promise<string | null>(() => undefined);
    const fallback = withTimeout(never, 100, () => null);
    const deadline = withTimeout(never, 100, () => {
      throw new Error('deadline');
    });
    vi.advanceTimersByTime(100);
    await expect(fallback).resolves.toBeNull();
    await expect(deadline).rejects.toThrow('deadline');
  });
});
