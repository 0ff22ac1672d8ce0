/**
 * The index of the prompt cache: which saved state holds which tokens, for which model and
 * context (`key`), how big it is and when it was last used. It lives beside the states
 * (`index.json` in the cache's folder) and is read and rewritten under one Web Lock, so the
 * engine workers of several models, or a reload's old and new worker, never drop each other's
 * entries. Eviction is here: a state whose prompt a newer state of the same key holds is
 * superseded; states unused for `maxAgeDays` go; then the least recently used, until the rest
 * fit in `maxMiB`.
 */
import type { PromptCacheSettings } from '#core/domain/prompt-cache';
import type { StateFolder } from './state-folder';

/** What the index needs of its folder. */
export type StateFiles = Pick<StateFolder, 'read' | 'write' | 'remove' | 'files'>;

export interface SavedPrefix {
  /** Its state file in the folder. */
  file: string;
  /** The model file and context settings it belongs to (state-key.ts). */
  key: string;
  /** The tokens whose KV entries it holds. */
  tokens: number[];
  /** How many of them were the request's prompt (the rest were generated). */
  prompt: number;
  bytes: number;
  usedAt: number;
}

export const INDEX_FILE = 'index.json';
const LOCK = 'inpage-prompt-cache';
const DAY_MS = 24 * 60 * 60 * 1000;

/** How many leading tokens `a` and `b` share. */
export function sharedPrefix(a: readonly number[], b: readonly number[]): number {
  const most = Math.min(a.length, b.length);
  let n = 0;
  while (n < most && a[n] === b[n]) n++;
  return n;
}

function isSavedPrefix(value: unknown): value is SavedPrefix {
  if (typeof value !== 'object' || value === null) return false;
  const tokens: unknown = Reflect.get(value, 'tokens');
  return (
    typeof Reflect.get(value, 'file') === 'string' &&
    typeof Reflect.get(value, 'key') === 'string' &&
    Array.isArray(tokens) &&
    tokens.every((id) => Number.isInteger(id)) &&
    typeof Reflect.get(value, 'prompt') === 'number' &&
    typeof Reflect.get(value, 'bytes') === 'number' &&
    typeof Reflect.get(value, 'usedAt') === 'number'
  );
}

export class SavedPrefixes {
  constructor(
    private readonly folder: StateFiles,
    private readonly settings: PromptCacheSettings,
  ) {}

  /** The entries (an unreadable index is an empty one: its states are then deleted as strays). */
  list(): Promise<SavedPrefix[]> {
    return navigator.locks.request(LOCK, { mode: 'shared' }, () => this.read());
  }

  /** The bytes of `entry`'s state, or null where its file is gone. */
  readState(entry: SavedPrefix): Promise<Uint8Array<ArrayBuffer> | null> {
    return navigator.locks.request(LOCK, { mode: 'shared' }, () => this.folder.read(entry.file));
  }

  /** The index as the folder holds it; only under the lock. */
  private async read(): Promise<SavedPrefix[]> {
    const bytes = await this.folder.read(INDEX_FILE);
    if (!bytes) return [];
    try {
      const parsed: unknown = JSON.parse(new TextDecoder().decode(bytes));
      return Array.isArray(parsed) ? parsed.filter(isSavedPrefix) : [];
    } catch {
      return [];
    }
  }

  /** Writes `bytes` as a new entry, evicting what it supersedes and what no longer fits. */
  async add(entry: Omit<SavedPrefix, 'usedAt'>, bytes: Uint8Array<ArrayBuffer>, now = Date.now()): Promise<void> {
    await this.update(async (entries) => {
      const added: SavedPrefix = { ...entry, usedAt: now };
      const superseded = (old: SavedPrefix) =>
        old.key === entry.key && sharedPrefix(old.tokens, entry.tokens) >= Math.min(old.prompt, old.tokens.length);
      const kept = entries.filter((old) => !superseded(old) && now - old.usedAt <= this.settings.maxAgeDays * DAY_MS);
      kept.push(added);
      kept.sort((a, b) => b.usedAt - a.usedAt);
      const budget = this.settings.maxMiB * 1024 * 1024;
      let total = 0;
      const fitting = kept.filter((e) => (total += e.bytes) <= budget);
      if (fitting.includes(added)) await this.folder.write(added.file, bytes);
      return fitting;
    });
  }

  /** Marks `file` used now (it is evicted last). */
  async touch(file: string, now = Date.now()): Promise<void> {
    await this.update(async (entries) => entries.map((e) => (e.file === file ? { ...e, usedAt: now } : e)));
  }

  /** Drops `file` (llama.cpp refused it, or it is gone). */
  async forget(file: string): Promise<void> {
    await this.update(async (entries) => entries.filter((e) => e.file !== file));
  }

  /** Rewrites the index with what `change` makes of it, deleting the state files it no longer lists. */
  private async update(change: (entries: SavedPrefix[]) => Promise<SavedPrefix[]>): Promise<void> {
    await navigator.locks.request(LOCK, async () => {
      const next = await change(await this.read());
      await this.folder.write(INDEX_FILE, new TextEncoder().encode(JSON.stringify(next)));
      const listed = new Set(next.map((e) => e.file));
      for (const file of await this.folder.files())
        if (file !== INDEX_FILE && !listed.has(file)) await this.folder.remove(file);
    });
  }
}
