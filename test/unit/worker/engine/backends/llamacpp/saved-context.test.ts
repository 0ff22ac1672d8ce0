/**
 * SavedContext's save after a request (saved-context.ts): the state is copied out of the engine
 * in a task of its own, after the request's answer, not in it; a job that uses the context
 * first (`drop`) cancels it; with slots, each slot's own. The engine, guard and cache are
 * stand-ins with only what it calls.
 */
import { describe, expect, it } from 'vitest';
import { SavedContext, type StateEngine } from '../../../../../../worker/engine/backends/llamacpp/saved-context';
import type { EngineGuard } from '../../../../../../worker/engine/backends/llamacpp/engine-guard';
import type { PromptCache } from '../../../../../../worker/engine/prompt-cache/prompt-cache';

function setUp() {
  const saves: Array<{ tokens: number; prompt: number }> = [];
  let copies = 0;
  /** Slot s holds 40 + s tokens. */
  const tokens = (slot: number) => Array.from({ length: 40 + slot }, (_, i) => i);
  const engine: StateEngine = {
    slotTokens: (slot) => tokens(slot),
    saveState: async () => {
      copies++;
      return new Uint8Array(8);
    },
    restoreState: async () => 0,
  };
  const guard = {
    call: <T>(step: () => T) => step(),
    onSlot: async <T>(_slot: number, work: () => T | Promise<T>) => work(),
  } as unknown as EngineGuard;
  const cache = {
    wants: () => true,
    save: (held: number[], prompt: number) => saves.push({ tokens: held.length, prompt }),
  } as unknown as PromptCache;
  return { saved: new SavedContext(engine, guard, cache), saves, copies: () => copies };
}

const nextTask = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('SavedContext.saveAfter', () => {
  it('copies the state in a later task, not in the call', async () => {
    const { saved, saves, copies } = setUp();
    saved.saveAfter(30);
    expect(copies()).toBe(0);
    await nextTask();
    expect(copies()).toBe(1);
    expect(saves).toEqual([{ tokens: 40, prompt: 30 }]);
  });

  it('a job that uses the context first cancels it; a later save still runs', async () => {
    const { saved, saves, copies } = setUp();
    saved.saveAfter(30);
    saved.drop();
    await nextTask();
    expect(copies()).toBe(0);
    saved.saveAfter(20);
    saved.saveAfter(35);
    await nextTask();
    expect(saves).toEqual([{ tokens: 40, prompt: 35 }]);
  });
});

describe('SavedContext with slots', () => {
  it("saves each slot's own tokens, and a slot's new job cancels only that slot's save", async () => {
    const { saved, saves } = setUp();
    saved.saveAfter(30, 1);
    saved.saveAfter(31, 2);
    saved.drop(1);
    await nextTask();
    expect(saves).toEqual([{ tokens: 42, prompt: 31 }]);
  });
});
