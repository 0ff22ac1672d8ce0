/** `electEngine` against an in-memory LockManager: one leader per model, FIFO takeover, leaving the queue. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { electEngine, engineLockName } from '../../../../src/page/engine-election';

type Callback = (lock: { name: string } | null) => unknown;

/** An in-memory exclusive LockManager: `ifAvailable`, a FIFO queue, and `signal` to leave it. */
function fakeLocks() {
  const held = new Set<string>();
  const queues = new Map<string, Array<() => void>>();
  const grant = (name: string, callback: Callback) =>
    new Promise<unknown>((resolve) => {
      held.add(name);
      void Promise.resolve(callback({ name })).then((value) => {
        held.delete(name);
        queues.get(name)?.shift()?.();
        resolve(value);
      });
    });
  return {
    held,
    request(name: string, options: { ifAvailable?: boolean; signal?: AbortSignal }, callback: Callback) {
      if (!held.has(name)) return grant(name, callback);
      if (options.ifAvailable) return Promise.resolve(callback(null));
      return new Promise<unknown>((resolve, reject) => {
        const turn = () => void grant(name, callback).then(resolve);
        const queue = queues.get(name) ?? [];
        queue.push(turn);
        queues.set(name, queue);
        // As the real one: aborting takes a request out of the queue, and does nothing once granted.
        options.signal?.addEventListener('abort', () => {
          if (!queue.includes(turn)) return;
          queue.splice(queue.indexOf(turn), 1);
          reject(new DOMException('aborted', 'AbortError'));
        });
      });
    },
  };
}

const settled = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('electEngine', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('names the lock after the model', () => {
    expect(engineLockName('inpage-test')).toBe('inpage-llm:engine:inpage-test');
  });

  it('leads at once without navigator.locks (an engine per tab)', async () => {
    vi.stubGlobal('navigator', {});
    const election = electEngine('m');
    expect(await election.first).toBe(true);
    await election.leads;
  });

  it('one leader; the followers take over in order as leaders release', async () => {
    const locks = fakeLocks();
    vi.stubGlobal('navigator', { locks });
    const [a, b, c] = [electEngine('m'), electEngine('m'), electEngine('m')];
    expect(await Promise.all([a.first, b.first, c.first])).toEqual([true, false, false]);
    const led: string[] = [];
    void b.leads.then(() => led.push('b'));
    void c.leads.then(() => led.push('c'));
    await settled();
    expect(led).toEqual([]);
    a.release();
    await settled();
    expect(led).toEqual(['b']);
    b.release();
    await settled();
    expect(led).toEqual(['b', 'c']);
  });

  it('a follower that leaves never leads, and the next one does', async () => {
    const locks = fakeLocks();
    vi.stubGlobal('navigator', { locks });
    const [a, b, c] = [electEngine('m'), electEngine('m'), electEngine('m')];
    await Promise.all([a.first, b.first, c.first]);
    const led: string[] = [];
    void b.leads.then(() => led.push('b'));
    void c.leads.then(() => led.push('c'));
    b.release();
    a.release();
    await settled();
    expect(led).toEqual(['c']);
  });

  it('models elect separately', async () => {
    vi.stubGlobal('navigator', { locks: fakeLocks() });
    expect(await Promise.all([electEngine('m').first, electEngine('n').first])).toEqual([true, true]);
  });
});
