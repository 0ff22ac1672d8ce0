/**
 * keep-awake.ts: while a response's body is open the SW posts `sw.stay` to its window clients
 * every STAY_INTERVAL_MS; it stops when the last open body ends, errs or is cancelled; the body
 * passes through unchanged, with the status and headers; a failed answer releases its hold.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { KeepAwake, STAY_INTERVAL_MS } from '../../../../worker/sw/keep-awake';

function windowClients() {
  const posted: unknown[] = [];
  const clients = {
    matchAll: async (options: { type: string }) =>
      options.type === 'window' ? [{ postMessage: (m: unknown) => posted.push(m) }] : [],
  };
  return { posted, clients: clients as unknown as Clients };
}

/** A body whose chunks the test pushes, and ends. */
function openBody() {
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  const stream = new ReadableStream<Uint8Array>({ start: (c) => void (controller = c) });
  return { stream, controller };
}

async function ticks(n: number) {
  for (let i = 0; i < n; i++) await vi.advanceTimersByTimeAsync(STAY_INTERVAL_MS);
}

describe('KeepAwake', () => {
  beforeEach(() => void vi.useFakeTimers());
  afterEach(() => void vi.useRealTimers());

  it('asks the pages to stay while a body is open, and stops when it ends; the body and head pass through', async () => {
    const { posted, clients } = windowClients();
    const awake = new KeepAwake(clients);
    const { stream, controller } = openBody();
    const response = await awake.during(
      Promise.resolve(new Response(stream, { status: 201, statusText: 'Made', headers: { 'x-a': 'b' } })),
    );
    expect([response.status, response.statusText, response.headers.get('x-a')]).toEqual([201, 'Made', 'b']);
    const reading = response.text();
    controller.enqueue(new TextEncoder().encode('data: 1\n\n'));
    await ticks(3);
    expect(posted).toEqual(Array(3).fill({ type: 'sw.stay' }));
    controller.enqueue(new TextEncoder().encode('data: [DONE]\n\n'));
    controller.close();
    expect(await reading).toBe('data: 1\n\ndata: [DONE]\n\n');
    await ticks(3);
    expect(posted).toHaveLength(3);
  });

  it('a cancelled body, a failed answer and a bodiless one release their hold; two bodies hold until both end', async () => {
    const { posted, clients } = windowClients();
    const awake = new KeepAwake(clients);
    await expect(awake.during(Promise.reject(new Error('no')))).rejects.toThrow('no');
    await awake.during(Promise.resolve(new Response(null, { status: 204 })));
    await ticks(2);
    expect(posted).toHaveLength(0);
    const first = openBody();
    const second = openBody();
    const one = await awake.during(Promise.resolve(new Response(first.stream)));
    const two = await awake.during(Promise.resolve(new Response(second.stream)));
    const reader = one.body!.getReader();
    void two.text();
    await reader.cancel('client gone');
    await ticks(2);
    expect(posted).toHaveLength(2);
    second.controller.close();
    await ticks(2);
    expect(posted).toHaveLength(2);
  });
});
