/**
 * How often each side of a generation's channel says it is still there, and how long silence
 * may last. Measured on a 2-core machine at load 7-10 (two busy loops beside Chromium), with
 * a 100 ms interval: the longest gap between two keepalives was 348 ms (150 ms unloaded).
 * 1,500 ms is over 4x that gap: a side that died is noticed within 1.5 s, a slow one never.
 */
export const KEEPALIVE_INTERVAL_MS = 250;
export const KEEPALIVE_TIMEOUT_MS = 1500;

/** A watch's timer this late ran after its thread was blocked, not after silence (see `beat`). */
const LATE_MS = 250;

/**
 * The engine says it will be busy when a blocking call is expected to take longer than this
 * (`generation.alive`'s `busy_ms`): well under KEEPALIVE_TIMEOUT_MS, so no step outlasts the
 * silence the SW allows unannounced even when the machine slows it twofold.
 */
export const BUSY_NOTICE_MS = 300;

/** The most silence one `busy_ms` buys (a bound on every wait, whatever the engine says). */
export const MAX_BUSY_MS = 120_000;

/**
 * Watches one request's channel for keepalives. It arms on the first one (the direct in-page
 * API sends none), then calls `onSilence` once if none arrives for `timeoutMs`: the SW that
 * was reading the request died (Chromium stopped it, or it crashed), so generating on is for
 * nobody. MessagePort has no 'close' event in Chromium to tell it otherwise.
 */
export class KeepaliveWatch {
  private timer: ReturnType<typeof setTimeout> | undefined;
  private stopped = false;

  constructor(
    private readonly onSilence: () => void,
    private readonly timeoutMs = KEEPALIVE_TIMEOUT_MS,
  ) {}

  /** A keepalive arrived: the next must come within `timeoutMs` (a first one may be given longer). */
  beat(timeoutMs = this.timeoutMs): void {
    if (this.stopped) return;
    clearTimeout(this.timer);
    const due = performance.now() + timeoutMs;
    this.timer = setTimeout(() => {
      // Fired late: this side's own thread was busy (the engine in a long step), and what the
      // other side sent meanwhile is still queued behind this timer. Silence counts from now.
      if (performance.now() - due > LATE_MS) return this.beat();
      this.stopped = true;
      this.onSilence();
    }, timeoutMs);
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
  }
}
