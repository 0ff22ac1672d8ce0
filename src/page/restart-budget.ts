/**
 * How often a tab restarts a crashed engine before it gives the model up: a model that crashes
 * again on every load must not restart forever. At most `limit` restarts within `windowMs` that
 * did not bring the engine back; the next crash in that window gives up (the lock passes to
 * another tab, and this one tries again later). A restart that served again clears the count:
 * crashes of an engine that was serving (killed from outside, a request that traps it) are not
 * a crash loop, and counting them made a lone tab give its model up for good.
 */
export class RestartBudget {
  private readonly restarts: number[] = [];

  constructor(
    private readonly limit = 3,
    private readonly windowMs = 60_000,
    private readonly now: () => number = Date.now,
  ) {}

  /** Whether one more restart is allowed now (and counts it if so). */
  take(): boolean {
    const at = this.now();
    while (this.restarts.length > 0 && at - (this.restarts[0] ?? at) >= this.windowMs) this.restarts.shift();
    if (this.restarts.length >= this.limit) return false;
    this.restarts.push(at);
    return true;
  }

  /** A restart brought the engine back (its models loaded): the next crash starts a new count. */
  clear(): void {
    this.restarts.length = 0;
  }
}
