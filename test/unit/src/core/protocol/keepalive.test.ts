import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { KeepaliveWatch } from '../../../../../src/core/protocol/keepalive';

describe('KeepaliveWatch', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('stays unarmed until the first keepalive (the direct API sends none)', () => {
    const silence = vi.fn();
    new KeepaliveWatch(silence, 100);
    vi.advanceTimersByTime(1000);
    expect(silence).not.toHaveBeenCalled();
  });

  it('fires once when keepalives stop for the timeout', () => {
    const silence = vi.fn();
    const watch = new KeepaliveWatch(silence, 100);
    watch.beat();
    vi.advanceTimersByTime(90);
    watch.beat();
    vi.advanceTimersByTime(90);
    expect(silence).not.toHaveBeenCalled();
    vi.advanceTimersByTime(20);
    expect(silence).toHaveBeenCalledTimes(1);
    watch.beat();
    vi.advanceTimersByTime(500);
    expect(silence).toHaveBeenCalledTimes(1);
  });

  it('never fires after stop()', () => {
    const silence = vi.fn();
    const watch = new KeepaliveWatch(silence, 100);
    watch.beat();
    watch.stop();
    vi.advanceTimersByTime(500);
    expect(silence).not.toHaveBeenCalled();
  });
});
