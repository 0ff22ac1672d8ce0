/**
 * A per-model FIFO: one job runs at a time, the others wait their turn in arrival order.
 * A job whose signal aborted while it waited is skipped without running.
 */
export class ModelQueue {
  private tail: Promise<void> = Promise.resolve();
  private waiting = 0;

  /** How many jobs are queued or running. */
  get size(): number {
    return this.waiting;
  }

  run(signal: AbortSignal, job: () => Promise<void>): Promise<void> {
    this.waiting += 1;
    const result = this.tail.then(async () => {
      try {
        if (!signal.aborted) await job();
      } finally {
        this.waiting -= 1;
      }
    });
    this.tail = result.catch(() => undefined);
    return result;
  }
}
