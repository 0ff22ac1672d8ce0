/**
 * The prompt cache's index (saved-prefixes.ts) over an in-memory folder: a state whose prompt a
 * newer one of the same key holds is superseded, states unused for maxAgeDays go, then the least
 * recently used until the rest fit maxMiB; an entry that does not fit is not written; files
 * the index does not list are deleted; an unreadable index is an empty one; a read waits for a
 * rewrite in progress (OPFS has no file for a moment while `createWritable` replaces one).
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  INDEX_FILE,
  SavedPrefixes,
  sharedPrefix,
  type StateFiles,
} from '../../../../../worker/engine/prompt-cache/saved-prefixes';

const MIB = 1024 * 1024;
const DAY = 24 * 60 * 60 * 1000;

function memoryFolder(): StateFiles & { data: Map<string, Uint8Array<ArrayBuffer>> } {
  const data = new Map<string, Uint8Array<ArrayBuffer>>();
  return {
    data,
    read: async (file) => data.get(file) ?? null,
    write: async (file, bytes) => void data.set(file, bytes),
    remove: async (file) => data.delete(file),
    files: async () => [...data.keys()],
  };
}

const state = (size: number) => new Uint8Array(new ArrayBuffer(size));
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Web Locks, one holder at a time (shared requests too: enough to show who waits for whom). */
function oneAtATime() {
  let tail: Promise<unknown> = Promise.resolve();
  return {
    request: (_name: string, ...rest: unknown[]) => {
      const run = rest.at(-1) as () => Promise<unknown>;
      const result = tail.then(run);
      tail = result.catch(() => undefined);
      return result;
    },
  };
}

describe('SavedPrefixes', () => {
  beforeEach(() => {
    vi.stubGlobal('navigator', { locks: oneAtATime() });
  });
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('sharedPrefix counts the leading tokens two lists share', () => {
    expect(sharedPrefix([1, 2, 3], [1, 2, 4])).toBe(2);
    expect(sharedPrefix([1, 2], [1, 2, 3])).toBe(2);
    expect(sharedPrefix([], [1])).toBe(0);
  });

  it('a newer state of the same key that holds an older prompt supersedes it; other keys and prompts stay', async () => {
    const folder = memoryFolder();
    const index = new SavedPrefixes(folder, { enabled: true, maxMiB: 100, maxAgeDays: 7 });
    await index.add({ file: 'a', key: 'k', tokens: [1, 2, 3, 9], prompt: 3, bytes: 10 }, state(10), 1);
    await index.add({ file: 'b', key: 'other', tokens: [1, 2, 3], prompt: 3, bytes: 10 }, state(10), 2);
    await index.add({ file: 'c', key: 'k', tokens: [5, 6], prompt: 2, bytes: 10 }, state(10), 3);
    // Holds a's prompt [1, 2, 3] (not its generated 9): a goes.
    await index.add({ file: 'd', key: 'k', tokens: [1, 2, 3, 4, 5], prompt: 5, bytes: 10 }, state(10), 4);
    expect((await index.list()).map((e) => e.file)).toEqual(['d', 'c', 'b']);
    expect([...folder.data.keys()].sort()).toEqual(['b', 'c', 'd', INDEX_FILE].sort());
  });

  it('drops states unused for maxAgeDays, then the least recently used past maxMiB; touch keeps one', async () => {
    const folder = memoryFolder();
    const index = new SavedPrefixes(folder, { enabled: true, maxMiB: 3, maxAgeDays: 1 });
    await index.add({ file: 'old', key: 'k', tokens: [1], prompt: 1, bytes: MIB }, state(8), 0);
    await index.add({ file: 'a', key: 'k', tokens: [2], prompt: 1, bytes: MIB }, state(8), 2 * DAY);
    await index.add({ file: 'b', key: 'k', tokens: [3], prompt: 1, bytes: MIB }, state(8), 2 * DAY + 1);
    expect((await index.list()).map((e) => e.file)).toEqual(['b', 'a']);
    await index.touch('a', 2 * DAY + 2);
    await index.add({ file: 'c', key: 'k', tokens: [4], prompt: 1, bytes: MIB }, state(8), 2 * DAY + 3);
    await index.add({ file: 'd', key: 'k', tokens: [5], prompt: 1, bytes: MIB }, state(8), 2 * DAY + 4);
    expect((await index.list()).map((e) => e.file)).toEqual(['d', 'c', 'a']);
    expect(folder.data.has('b')).toBe(false);
  });

  it('a state larger than the budget is not written; strays and an unreadable index are cleared', async () => {
    const folder = memoryFolder();
    folder.data.set('stray', state(1));
    folder.data.set(INDEX_FILE, new TextEncoder().encode('not json'));
    const index = new SavedPrefixes(folder, { enabled: true, maxMiB: 1, maxAgeDays: 7 });
    expect(await index.list()).toEqual([]);
    await index.add({ file: 'big', key: 'k', tokens: [1], prompt: 1, bytes: 2 * MIB }, state(8), 1);
    expect(await index.list()).toEqual([]);
    expect([...folder.data.keys()]).toEqual([INDEX_FILE]);
    await index.add({ file: 'small', key: 'k', tokens: [1], prompt: 1, bytes: 10 }, state(10), 2);
    await index.forget('small');
    expect(await index.list()).toEqual([]);
    expect([...folder.data.keys()]).toEqual([INDEX_FILE]);
  });

  it('a read while the index is rewritten waits for the new index, not the moment without one', async () => {
    const folder = memoryFolder();
    const index = new SavedPrefixes(folder, { enabled: true, maxMiB: 100, maxAgeDays: 7 });
    await index.add({ file: 'a', key: 'k', tokens: [1, 2], prompt: 2, bytes: 10 }, state(10), 1);
    // As createWritable's close: the old file goes, then the new one is there.
    folder.write = async (file, bytes) => {
      folder.data.delete(file);
      await pause(20);
      folder.data.set(file, bytes);
    };
    const touched = index.touch('a', 5);
    await pause(5);
    expect((await index.list()).map((e) => [e.file, e.usedAt])).toEqual([['a', 5]]);
    expect(await index.readState((await index.list())[0]!)).toEqual(state(10));
    await touched;
  });
});
