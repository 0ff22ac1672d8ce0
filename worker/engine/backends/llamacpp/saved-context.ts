/**
 * The llama.cpp model's side of the prompt cache across page loads (worker/engine/prompt-cache/):
 * before a prompt is read, the saved state that holds more of it than the context does is
 * restored; after a request, the context's state is handed to the cache to save. Storage that
 * fails never fails a request: the prompt is then read as if nothing were saved.
 */
import { MIN_SAVED_TOKENS, type FoundPrefix, type PromptCache } from '../../prompt-cache/prompt-cache';
import { sharedPrefix } from '../../prompt-cache/saved-prefixes';
import { EngineError } from './engine-error';
import type { EngineGuard } from './engine-guard';

/** What it needs of the engine (LlamaWasm's methods). */
export interface StateEngine {
  cachedTokens(): number[];
  saveState(): Uint8Array<ArrayBuffer>;
  restoreState(bytes: Uint8Array): number;
}

export class SavedContext {
  private pending: { prompt: number } | null = null;

  constructor(
    private readonly engine: StateEngine,
    private readonly guard: EngineGuard,
    private readonly cache: PromptCache | null,
  ) {}

  /** Restores the saved state sharing the most of `ids`, where it holds more of them than the context. */
  async restoreFor(ids: readonly number[]): Promise<void> {
    if (!this.cache || ids.length < MIN_SAVED_TOKENS) return;
    const have = sharedPrefix(
      this.guard.call(() => this.engine.cachedTokens()),
      ids,
    );
    if (have >= ids.length - 1) return;
    const found = await this.cache.find(ids, have).catch((error: unknown) => {
      console.warn('[inpage-llm] the prompt cache could not be read:', error);
      return null;
    });
    if (found) await this.restore(this.cache, found);
  }

  /**
   * Right after the model loads: restores the state read meanwhile (readLatestState), the one
   * of its key used last, so that a reload's first request finds its prefix in the context.
   */
  async warmStart(found: FoundPrefix | null): Promise<void> {
    if (this.cache && found && found.entry.key === this.cache.key) await this.restore(this.cache, found);
  }

  private async restore(cache: PromptCache, found: FoundPrefix): Promise<void> {
    try {
      this.guard.call(() => this.engine.restoreState(found.bytes));
      cache.restored(found.entry);
    } catch (error) {
      if (!(error instanceof EngineError)) throw error;
      console.warn(`[inpage-llm] a saved prompt state was refused and is deleted: ${error.message}`);
      await cache.forget(found.entry);
    }
  }

  /**
   * Hands the context's state to the cache after a request whose prompt had `prompt` tokens:
   * not in the request (the copy out of the heap took ~0.5 s for a 63 MiB state, which held back
   * the answer's last frames), but in a task of its own once the request's answer is posted. A
   * job that uses the context before then (`drop`) cancels it: that job saves its own state.
   */
  saveAfter(prompt: number): void {
    if (!this.cache) return;
    const pending = { prompt };
    this.pending = pending;
    setTimeout(() => {
      if (this.pending !== pending) return;
      this.pending = null;
      this.save(pending.prompt);
    }, 0);
  }

  /** Cancels a save not made yet: the context is about to change (another job), or go. */
  drop(): void {
    this.pending = null;
  }

  private save(prompt: number): void {
    if (!this.cache) return;
    try {
      const tokens = this.guard.call(() => this.engine.cachedTokens());
      if (!this.cache.wants(tokens)) return;
      const bytes = this.guard.call(() => this.engine.saveState());
      this.cache.save(tokens, Math.min(prompt, tokens.length), bytes);
    } catch (error) {
      // A state that cannot be saved costs the next load its prompt's prefill, nothing else.
      console.warn('[inpage-llm] the prompt cache could not save the context:', error);
    }
  }
}
