/**
 * A per-model FIFO: `limit` jobs run at once (one, or a model's slots: its generations are then
 * batched), the others wait their turn in arrival order. A job whose signal aborted while it
 * waited is skipped without running.
 */
export class ModelQueue {
  /** How many jobs run at once. */
  limit = 1;
  private running = 0;
  private readonly waiting: Array<() => void> = [];

  /** How many jobs are queued or running. */
  get size(): number {
    return this.running + this.waiting.length;
  }

  async run(signal: AbortSignal, job: () => Promise<void>): Promise<void> {
    if (this.running < this.limit && this.waiting.length === 0) this.running += 1;
    else await new Promise<void>((resolve) => this.waiting.push(resolve)); // counted by next()
    try {
      if (!signal.aborted) await job();
    } finally {
      this.running -= 1;
      this.next();
    }
  }

  private next(): void {
    while (this.running < this.limit) {
      const start = this.waiting.shift();
      if (!start) return;
      // Counted here, before the woken job runs: a job queued meanwhile cannot pass it.
      this.running += 1;
      start();
    }
  }
}
