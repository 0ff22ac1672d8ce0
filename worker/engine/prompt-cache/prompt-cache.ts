/**
 * One loaded model's prompt cache across page loads: the saved state that shares the longest
 * prefix with a new prompt (`find`), and `save`, which writes the context's state after a
 * request. Saves go one at a time, in the background: while one is written, only the newest of
 * those that came meanwhile waits (it holds the others' tokens or supersedes them).
 */
import type { PromptCacheSettings } from '#core/domain/prompt-cache';
import { SavedPrefixes, sharedPrefix, type SavedPrefix } from './saved-prefixes';
import { StateFolder, hasStateStorage } from './state-folder';

/** The prompt cache's folder in the origin's OPFS. */
export const PROMPT_CACHE_DIR = 'inpage-prompt-cache';

/**
 * The fewest tokens worth saving or restoring: below it a prompt is read in one short step,
 * and a state's write and read would cost more than they save.
 */
export const MIN_SAVED_TOKENS = 32;

export interface FoundPrefix {
  entry: SavedPrefix;
  bytes: Uint8Array<ArrayBuffer>;
  /** How many of the prompt's tokens it holds. */
  shared: number;
}

interface PendingSave {
  tokens: number[];
  prompt: number;
  bytes: Uint8Array<ArrayBuffer>;
}

/**
 * The state a page load most likely wants: the most recently used one of any of `keys` (the
 * model's key for each cache type its load may choose), read while the model loads, so that
 * its bytes are at hand when the context is made. Null where there is none, or on any failure.
 */
export async function readLatestState(
  keys: readonly string[],
  settings: PromptCacheSettings,
): Promise<FoundPrefix | null> {
  if (!settings.enabled || !hasStateStorage()) return null;
  try {
    const index = new SavedPrefixes(new StateFolder(PROMPT_CACHE_DIR), settings);
    const entries = await index.list();
    const latest = entries.filter((entry) => keys.includes(entry.key)).sort((a, b) => b.usedAt - a.usedAt)[0];
    const bytes = latest ? await index.readState(latest) : null;
    return latest && bytes ? { entry: latest, bytes, shared: latest.tokens.length } : null;
  } catch {
    return null;
  }
}

export class PromptCache {
  private readonly index: SavedPrefixes;
  private writing: Promise<void> | null = null;
  private next: PendingSave | null = null;
  /** The tokens of the last state saved or restored (an unchanged context is not saved again). */
  private last: number[] = [];

  private constructor(
    readonly key: string,
    settings: PromptCacheSettings,
  ) {
    this.index = new SavedPrefixes(new StateFolder(PROMPT_CACHE_DIR), settings);
  }

  /** The cache for the model and context `key` names, or null where it is off or there is no storage. */
  static open(key: string, settings: PromptCacheSettings): PromptCache | null {
    return settings.enabled && hasStateStorage() ? new PromptCache(key, settings) : null;
  }

  /**
   * The saved state sharing the most leading tokens with `ids`, where it shares more than the
   * `have` the context already holds, and at least MIN_SAVED_TOKENS; else null. A listed state
   * whose file is gone is dropped from the index.
   */
  async find(ids: readonly number[], have: number): Promise<FoundPrefix | null> {
    let best: { entry: SavedPrefix; shared: number } | null = null;
    for (const entry of await this.index.list()) {
      if (entry.key !== this.key) continue;
      const shared = sharedPrefix(entry.tokens, ids);
      if (shared > (best?.shared ?? Math.max(have, MIN_SAVED_TOKENS - 1))) best = { entry, shared };
    }
    if (!best) return null;
    const bytes = await this.index.readState(best.entry);
    if (!bytes) {
      await this.index.forget(best.entry.file);
      return null;
    }
    return { ...best, bytes };
  }

  /** Marks a state restored into the context: used now, and the context's tokens (not saved again unchanged). */
  restored(entry: SavedPrefix): void {
    void this.index.touch(entry.file).catch(() => undefined);
    this.last = entry.tokens;
  }

  /** Drops a state llama.cpp refused to restore. */
  forget(entry: SavedPrefix): Promise<void> {
    return this.index.forget(entry.file).catch(() => undefined);
  }

  /** Whether a context holding `tokens` is worth saving (long enough, and changed since the last save or restore). */
  wants(tokens: readonly number[]): boolean {
    return (
      tokens.length >= MIN_SAVED_TOKENS &&
      !(tokens.length === this.last.length && sharedPrefix(tokens, this.last) === tokens.length)
    );
  }

  /** Saves a context's state (`bytes`, holding `tokens`, of which `prompt` were the prompt), in the background. */
  save(tokens: number[], prompt: number, bytes: Uint8Array<ArrayBuffer>): void {
    this.last = tokens;
    this.next = { tokens, prompt, bytes };
    this.writing ??= this.drain();
  }

  private async drain(): Promise<void> {
    try {
      for (let save = this.next; save; save = this.next) {
        this.next = null;
        const file = `${crypto.randomUUID()}.state`;
        await this.index
          .add({ file, key: this.key, tokens: save.tokens, prompt: save.prompt, bytes: save.bytes.length }, save.bytes)
          .catch((error: unknown) => console.warn('[inpage-llm] the prompt cache could not save a state:', error));
      }
    } finally {
      this.writing = null;
    }
  }
}
