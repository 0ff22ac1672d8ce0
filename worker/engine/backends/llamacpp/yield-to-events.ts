/**
 * Lets the worker's event loop run (an abort, the next request's message) between two engine
 * steps. A message to itself rather than setTimeout, which browsers clamp to 4 ms when nested.
 */
export function yieldToEvents(): Promise<void> {
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      channel.port1.close();
      resolve();
    };
    channel.port2.postMessage(null);
  });
}

/** Yields at most every `intervalMs` of work: `await pacer.maybeYield()` inside a loop. */
export class Pacer {
  private last = performance.now();

  constructor(private readonly intervalMs = 4) {}

  async maybeYield(): Promise<void> {
    if (performance.now() - this.last < this.intervalMs) return;
    await yieldToEvents();
    this.last = performance.now();
  }
}
