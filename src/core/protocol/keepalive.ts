/**
 * How often each side of a generation's channel says it is still there, and how long silence
 * may last. Measured on a 2-core machine at load 7-10 (two busy loops beside Chromium), with
 * a 100 ms interval: the longest gap between two keepalives was 348 ms (150 ms unloaded).
 * 1,500 ms is over 4x that gap: a side that died is noticed within 1.5 s, a slow one never.
 */
export const KEEPALIVE_INTERVAL_MS = 250;
export const KEEPALIVE_TIMEOUT_MS = 1500;

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
    this.timer = setTimeout(() => {
      this.stopped = true;
      this.onSilence();
    }, timeoutMs);
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
  }
}
