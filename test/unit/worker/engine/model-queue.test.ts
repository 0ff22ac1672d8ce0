import { describe, expect, it } from 'vitest';
import { ModelQueue } from '../../../../worker/engine/model-queue';

/** A promise resolved from outside. */
function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve = (): void => undefined;
  const promise = new Promise<void>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

const tick = (): Promise<void> => new Promise((r) => setTimeout(r, 0));
const live = (): AbortSignal => new AbortController().signal;

describe('ModelQueue', () => {
  it('runs overlapping jobs one at a time in FIFO order', async () => {
    const queue = new ModelQueue();
    const log: string[] = [];
    let running = 0;
    let maxRunning = 0;
    const job = (name: string, delay: number) => async (): Promise<void> => {
      running += 1;
      maxRunning = Math.max(maxRunning, running);
      log.push(`start ${name}`);
      await new Promise((r) => setTimeout(r, delay));
      log.push(`end ${name}`);
      running -= 1;
    };
    await Promise.all([
      queue.run(live(), job('a', 15)),
      queue.run(live(), job('b', 1)),
      queue.run(live(), job('c', 5)),
    ]);
    expect(log).toEqual(['start a', 'end a', 'start b', 'end b', 'start c', 'end c']);
    expect(maxRunning).toBe(1);
    expect(queue.size).toBe(0);
  });

  it('does not start the next job before the running one settles', async () => {
    const queue = new ModelQueue();
    const gate = deferred();
    let secondStarted = false;
    const first = queue.run(live(), () => gate.promise);
    const second = queue.run(live(), async () => {
      secondStarted = true;
    });
    await tick();
    expect(secondStarted).toBe(false);
    gate.resolve();
    await first;
    await second;
    expect(secondStarted).toBe(true);
  });

  it('skips a job whose signal aborted while it waited', async () => {
    const queue = new ModelQueue();
    const gate = deferred();
    const ran: string[] = [];
    const controller = new AbortController();
    const first = queue.run(live(), async () => {
      await gate.promise;
      ran.push('first');
    });
    const skipped = queue.run(controller.signal, async () => {
      ran.push('skipped');
    });
    const third = queue.run(live(), async () => {
      ran.push('third');
    });
    controller.abort();
    gate.resolve();
    await expect(skipped).resolves.toBeUndefined();
    await Promise.all([first, third]);
    expect(ran).toEqual(['first', 'third']);
    expect(queue.size).toBe(0);
  });

  it('skips a job whose signal is already aborted', async () => {
    const queue = new ModelQueue();
    let ran = false;
    await queue.run(AbortSignal.abort(), async () => {
      ran = true;
    });
    expect(ran).toBe(false);
  });

  it('a throwing job rejects its own promise but does not block later ones', async () => {
    const queue = new ModelQueue();
    const ran: string[] = [];
    const failing = queue.run(live(), async () => {
      ran.push('fail');
      throw new Error('boom');
    });
    const later = queue.run(live(), async () => {
      ran.push('later');
    });
    await expect(failing).rejects.toThrow('boom');
    await later;
    expect(ran).toEqual(['fail', 'later']);
    expect(queue.size).toBe(0);
    await queue.run(live(), async () => {
      ran.push('after');
    });
    expect(ran).toEqual(['fail', 'later', 'after']);
  });

  it('size counts queued and running jobs', async () => {
    const queue = new ModelQueue();
    expect(queue.size).toBe(0);
    const gates = [deferred(), deferred(), deferred()];
    const runs = gates.map((gate) => queue.run(live(), () => gate.promise));
    expect(queue.size).toBe(3);
    await tick();
    expect(queue.size).toBe(3);
    gates[0]?.resolve();
    await runs[0];
    expect(queue.size).toBe(2);
    gates[1]?.resolve();
    await runs[1];
    expect(queue.size).toBe(1);
    gates[2]?.resolve();
    await runs[2];
    expect(queue.size).toBe(0);
  });
});

describe('ModelQueue with a limit', () => {
  it('runs up to `limit` jobs at once, starting the waiting ones in FIFO order', async () => {
    const queue = new ModelQueue();
    queue.limit = 2;
    const gates = [deferred(), deferred(), deferred(), deferred()];
    const started: number[] = [];
    const runs = gates.map((gate, i) =>
      queue.run(live(), async () => {
        started.push(i);
        await gate.promise;
      }),
    );
    await tick();
    expect(started).toEqual([0, 1]);
    gates[1]?.resolve();
    await runs[1];
    await tick();
    expect(started).toEqual([0, 1, 2]);
    // A job queued after the woken one does not pass the one still waiting.
    const late = queue.run(live(), async () => {
      started.push(9);
    });
    gates[0]?.resolve();
    await runs[0];
    await tick();
    expect(started).toEqual([0, 1, 2, 3]);
    gates[2]?.resolve();
    gates[3]?.resolve();
    await Promise.all([runs[2], runs[3], late]);
    expect(started).toEqual([0, 1, 2, 3, 9]);
    expect(queue.size).toBe(0);
  });
});
