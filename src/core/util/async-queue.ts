/**
 * A push-to-pull queue: producers `push`, then `end` or `fail`; one consumer awaits `next()`
 * (or iterates). Items that arrived while the consumer was busy can be taken at once with
 * `drain()`. Used wherever callbacks or port messages become an ordered stream.
 */
export class AsyncQueue<T> implements AsyncIterable<T> {
  private readonly items: T[] = [];
  private waiter: (() => void) | undefined;
  private closed = false;
  private failure: { error: unknown } | undefined;

  push(item: T): void {
    if (this.closed) return;
    this.items.push(item);
    this.wake();
  }

  /** No more items: the consumer ends after the queued ones. */
  end(): void {
    this.closed = true;
    this.wake();
  }

  /** The consumer throws `error` after the queued items. */
  fail(error: unknown): void {
    if (this.closed) return;
    this.failure = { error };
    this.end();
  }

  /** The next item, or `undefined` once ended and empty. */
  async next(): Promise<T | undefined> {
    for (;;) {
      if (this.items.length > 0) return this.items.shift();
      if (this.failure) throw this.failure.error;
      if (this.closed) return undefined;
      await new Promise<void>((resolve) => (this.waiter = resolve));
    }
  }

  /** Everything queued now, without waiting. */
  drain(): T[] {
    return this.items.splice(0);
  }

  async *[Symbol.asyncIterator](): AsyncIterator<T> {
    for (let item = await this.next(); item !== undefined; item = await this.next()) yield item;
  }

  private wake(): void {
    const waiter = this.waiter;
    this.waiter = undefined;
    waiter?.();
  }
}
