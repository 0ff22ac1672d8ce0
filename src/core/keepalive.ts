/** How often the SW tells the engine a request's client is still there, and how long silence may last. */
export const KEEPALIVE_INTERVAL_MS = 500;
export const KEEPALIVE_TIMEOUT_MS = 3000;

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

  /** A keepalive arrived. */
  beat(): void {
    if (this.stopped) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.stopped = true;
      this.onSilence();
    }, this.timeoutMs);
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
  }
}
