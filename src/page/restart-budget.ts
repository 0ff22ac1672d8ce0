/**
 * How often a tab restarts a crashed engine before it gives the model up: a model that crashes
 * again on every load (or on every request) must not restart forever. At most `limit` restarts
 * within `windowMs`; the next crash in that window gives up (the lock passes to another tab).
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
}
