import { describe, expect, test } from 'vitest';
import { EngineLock } from '../../../../../../worker/engine/backends/llamacpp/engine-lock';

const tick = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

describe('EngineLock', () => {
  test('a section asked for while none runs starts inside the call', () => {
    const lock = new EngineLock();
    let ran = false;
    void lock.exclusive(() => {
      ran = true;
    });
    expect(ran).toBe(true);
  });

  test('sections run one at a time, in the order asked, each to its end across awaits', async () => {
    const lock = new EngineLock();
    const log: string[] = [];
    let release = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    const first = lock.exclusive(async () => {
      log.push('first begins');
      await gate;
      log.push('first ends');
      return 1;
    });
    const second = lock.exclusive(() => {
      log.push('second');
      return 2;
    });
    const third = lock.exclusive(async () => {
      log.push('third');
      await tick();
      return 3;
    });
    await tick();
    expect(log).toEqual(['first begins']);
    expect(lock.held).toBe(true);
    release();
    expect(await Promise.all([first, second, third])).toEqual([1, 2, 3]);
    expect(log).toEqual(['first begins', 'first ends', 'second', 'third']);
    expect(lock.held).toBe(false);
  });

  test('a failed section rejects with what it threw, as thrown, and the next one runs', async () => {
    const lock = new EngineLock();
    const thrown = { notAnError: true };
    const failed = lock.exclusive(() => {
      throw thrown;
    });
    const next = lock.exclusive(async () => 'ran');
    await expect(failed).rejects.toBe(thrown);
    await expect(next).resolves.toBe('ran');
    await expect(lock.exclusive(() => Promise.reject(new Error('async failure')))).rejects.toThrow('async failure');
    expect(lock.held).toBe(false);
  });

  test('held is true only while a section runs', async () => {
    const lock = new EngineLock();
    let inside = false;
    await lock.exclusive(async () => {
      await tick();
      inside = lock.held;
    });
    expect(inside).toBe(true);
    expect(lock.held).toBe(false);
  });
});
