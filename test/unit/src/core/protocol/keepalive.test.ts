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

  it('counts no silence while its own thread was blocked: a late timer waits once more', () => {
    const silence = vi.fn();
    const watch = new KeepaliveWatch(silence, 100);
    let now = 0;
    vi.spyOn(performance, 'now').mockImplementation(() => now);
    watch.beat();
    // The thread was busy for 2 s (an engine step): the timer runs 1.9 s late.
    now = 2000;
    vi.advanceTimersByTime(100);
    expect(silence).not.toHaveBeenCalled();
    // The other side's queued keepalive arrives: armed again, as usual.
    watch.beat();
    now = 2050;
    vi.advanceTimersByTime(50);
    expect(silence).not.toHaveBeenCalled();
    // Then true silence, on time: it fires.
    now = 2150;
    vi.advanceTimersByTime(50);
    expect(silence).toHaveBeenCalledTimes(1);
    vi.restoreAllMocks();
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
