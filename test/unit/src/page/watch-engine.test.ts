import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { RestartBudget } from '../../../../src/page/restart-budget';
import { PING_EVERY_MS, STARTING_HANG_MS, watchEngine } from '../../../../src/page/watch-engine';

/** A worker stand-in (an EventTarget) and an engine whose ping answers when `answering`. */
function fakes(answering: () => boolean) {
  const worker = new EventTarget();
  const engine = {
    ping: () => (answering() ? Promise.resolve(true) : new Promise<boolean>(() => undefined)),
    holdLife: () => Promise.resolve(),
  };
  return { worker, engine };
}

describe('watchEngine', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('takes a worker that stops answering for hangMs for dead, once; not while a load runs', async () => {
    let answering = true;
    const { worker, engine } = fakes(() => answering);
    const dead: string[] = [];
    const watch = watchEngine(worker, engine, (reason) => dead.push(reason), 5000);
    await vi.advanceTimersByTimeAsync(10 * PING_EVERY_MS);
    expect(dead).toEqual([]);
    answering = false;
    let finish!: () => void;
    const load = watch.during(new Promise<void>((resolve) => (finish = resolve)));
    await vi.advanceTimersByTimeAsync(20_000);
    expect(dead).toEqual([]);
    finish();
    await load;
    await vi.advanceTimersByTimeAsync(7000);
    expect(dead).toEqual(['the engine worker did not answer for 5 s']);
    await vi.advanceTimersByTimeAsync(7000);
    expect(dead).toHaveLength(1);
  });

  it('within a load, a worker silent while it starts an engine build is hung after STARTING_HANG_MS; once started, not', async () => {
    let answering = true;
    const { worker, engine } = fakes(() => answering);
    const dead: string[] = [];
    const watch = watchEngine(worker, engine, (reason) => dead.push(reason));
    const say = (type: string) => worker.dispatchEvent(new MessageEvent('message', { data: { type } }));
    // A start that answers its pings, then a long load call that does not: alive.
    void watch.during(new Promise<void>(() => undefined));
    say('engine.starting');
    await vi.advanceTimersByTimeAsync(3 * STARTING_HANG_MS);
    say('engine.started');
    answering = false;
    await vi.advanceTimersByTimeAsync(3 * STARTING_HANG_MS);
    expect(dead).toEqual([]);
    // A start that stops answering (Firefox's nested `new Worker` that never returns): hung.
    const other = fakes(() => false);
    const hung: string[] = [];
    const watched = watchEngine(other.worker, other.engine, (reason) => hung.push(reason));
    const load = watched.during(new Promise<void>(() => undefined));
    const failed = expect(load).rejects.toMatchObject({ code: 'engine_crashed' });
    other.worker.dispatchEvent(new MessageEvent('message', { data: { type: 'engine.starting' } }));
    // The engine's other news (scales a POST set) neither ends the start nor counts as an answer.
    const lora = { type: 'model.lora', model: 'm', scales: [1] };
    other.worker.dispatchEvent(new MessageEvent('message', { data: lora }));
    await vi.advanceTimersByTimeAsync(STARTING_HANG_MS - PING_EVERY_MS);
    expect(hung).toEqual([]);
    await vi.advanceTimersByTimeAsync(3 * PING_EVERY_MS);
    expect(hung).toEqual(['the engine worker stopped answering while it started the engine (10 s)']);
    await failed;
  });

  it("hears the worker's crash message and its error event; a call in flight then fails with engine_crashed", async () => {
    const { worker, engine } = fakes(() => true);
    const dead: Array<[string, boolean]> = [];
    const watch = watchEngine(worker, engine, (reason, onGpu) => dead.push([reason, onGpu]));
    const pending = watch.during(new Promise<never>(() => undefined));
    const failed = expect(pending).rejects.toMatchObject({ code: 'engine_crashed' });
    const data = { type: 'engine.crashed', reason: 'a trap', onGpu: false };
    worker.dispatchEvent(new MessageEvent('message', { data }));
    await vi.advanceTimersByTimeAsync(1000);
    await failed;
    expect(dead).toEqual([['a trap', false]]);
    // An engine that ran its model on the GPU says so: the tab keeps its next engines on the CPU.
    const onGpu = fakes(() => true);
    const lost: Array<[string, boolean]> = [];
    watchEngine(onGpu.worker, onGpu.engine, (reason, gpu) => lost.push([reason, gpu]));
    onGpu.worker.dispatchEvent(new MessageEvent('message', { data: { ...data, reason: 'device lost', onGpu: true } }));
    expect(lost).toEqual([['device lost', true]]);
    const other = fakes(() => true);
    const more: string[] = [];
    watchEngine(other.worker, other.engine, (reason) => more.push(reason));
    // Node 20 has no ErrorEvent: an Event with its `message`.
    other.worker.dispatchEvent(Object.assign(new Event('error', { cancelable: true }), { message: 'boom' }));
    expect(more).toEqual(['the engine worker failed: boom']);
  });
});

describe('watchEngine.whenDead', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it("tells each listener once the worker's last answers had their time; not one that unsubscribed; at once after death", async () => {
    const { worker, engine } = fakes(() => true);
    const watch = watchEngine(worker, engine, () => undefined);
    const heard: string[] = [];
    watch.whenDead((reason) => heard.push(`a: ${reason}`));
    const unsubscribe = watch.whenDead((reason) => heard.push(`b: ${reason}`));
    unsubscribe();
    worker.dispatchEvent(new MessageEvent('message', { data: { type: 'engine.crashed', reason: 'a trap' } }));
    await vi.advanceTimersByTimeAsync(100);
    expect(heard).toEqual([]);
    await vi.advanceTimersByTimeAsync(1000);
    expect(heard).toEqual(['a: a trap']);
    watch.whenDead((reason) => heard.push(`c: ${reason}`));
    await vi.advanceTimersByTimeAsync(1);
    expect(heard).toEqual(['a: a trap', 'c: a trap']);
  });
});

describe('RestartBudget', () => {
  it('allows 3 restarts within a minute, then none until the oldest is a minute old', () => {
    let now = 0;
    const budget = new RestartBudget(3, 60_000, () => now);
    expect([budget.take(), budget.take(), budget.take(), budget.take()]).toEqual([true, true, true, false]);
    now = 60_000;
    expect(budget.take()).toBe(true);
  });

  it('starts a new count once a restart brought the engine back (clear)', () => {
    const budget = new RestartBudget(3, 60_000, () => 0);
    expect([budget.take(), budget.take(), budget.take()]).toEqual([true, true, true]);
    budget.clear();
    expect([budget.take(), budget.take(), budget.take(), budget.take()]).toEqual([true, true, true, false]);
  });
});
