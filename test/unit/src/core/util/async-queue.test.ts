import { describe, expect, test } from 'vitest';
import { AsyncQueue } from '../../../../../src/core/util/async-queue';

describe('AsyncQueue', () => {
  test('delivers pushed items in order, to a consumer that waits before they arrive', async () => {
    const queue = new AsyncQueue<number>();
    const first = queue.next();
    queue.push(1);
    queue.push(2);
    expect(await first).toBe(1);
    expect(await queue.next()).toBe(2);
  });

  test('ends after the queued items; pushes after end are dropped', async () => {
    const queue = new AsyncQueue<string>();
    queue.push('a');
    queue.end();
    queue.push('b');
    const seen: string[] = [];
    for await (const item of queue) seen.push(item);
    expect(seen).toEqual(['a']);
    expect(await queue.next()).toBeUndefined();
  });

  test('fail() throws to the consumer after the queued items', async () => {
    const queue = new AsyncQueue<number>();
    queue.push(1);
    queue.fail(new Error('boom'));
    expect(await queue.next()).toBe(1);
    await expect(queue.next()).rejects.toThrow('boom');
  });

  test('drain() takes everything queued now without waiting', async () => {
    const queue = new AsyncQueue<number>();
    queue.push(1);
    queue.push(2);
    queue.push(3);
    expect(await queue.next()).toBe(1);
    expect(queue.drain()).toEqual([2, 3]);
    expect(queue.drain()).toEqual([]);
  });
});
