/**
 * The llama.cpp model's side of the prompt cache across page loads (worker/engine/prompt-cache/):
 * before a prompt is read, the saved state that holds more of it than the context does is
 * restored; after a request, the context's state is handed to the cache to save. Storage that
 * fails never fails a request: the prompt is then read as if nothing were saved. With slots, each
 * slot's sequence is saved and restored on its own (the calls select the slot first, in one
 * section of the engine's lock: other slots' steps run between sections), and a state longer
 * than a slot's context is left for a page whose slots hold it.
 */
import { MIN_SAVED_TOKENS, type FoundPrefix, type PromptCache } from '../../prompt-cache/prompt-cache';
import { sharedPrefix } from '../../prompt-cache/saved-prefixes';
import { EngineError } from './engine-error';
import type { EngineGuard } from './engine-guard';

/** What it needs of the engine (LlamaWasm's methods). */
export interface StateEngine {
  slotTokens(slot: number): number[];
  saveState(): Promise<Uint8Array<ArrayBuffer>>;
  restoreState(bytes: Uint8Array): Promise<number>;
}

export class SavedContext {
  /** Per slot: the save waiting for its task (saveAfter). */
  private readonly pending = new Map<number, { prompt: number }>();

  /** `slotContext`: the tokens one slot holds (a longer state is not restored into it). */
  constructor(
    private readonly engine: StateEngine,
    private readonly guard: EngineGuard,
    private readonly cache: PromptCache | null,
    private readonly slotContext = Infinity,
  ) {}

  /** Restores into `slot` the saved state sharing the most of `ids`, where it holds more of them than the slot. */
  async restoreFor(ids: readonly number[], slot = 0): Promise<void> {
    if (!this.cache || ids.length < MIN_SAVED_TOKENS) return;
    const have = sharedPrefix(
      this.guard.call(() => this.engine.slotTokens(slot)),
      ids,
    );
    if (have >= ids.length - 1) return;
    const found = await this.cache.find(ids, have).catch((error: unknown) => {
      console.warn('[inpage-llm] the prompt cache could not be read:', error);
      return null;
    });
    if (found) await this.restore(this.cache, found, slot);
  }

  /**
   * Right after the model loads: restores the state read meanwhile (readLatestState), the one
   * of its key used last, so that a reload's first request finds its prefix in the context.
   */
  async warmStart(found: FoundPrefix | null): Promise<void> {
    if (this.cache && found && found.entry.key === this.cache.key) await this.restore(this.cache, found);
  }

  private async restore(cache: PromptCache, found: FoundPrefix, slot = 0): Promise<void> {
    if (found.entry.tokens.length > this.slotContext) return;
    try {
      await this.guard.onSlot(slot, () => this.engine.restoreState(found.bytes));
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
  saveAfter(prompt: number, slot = 0): void {
    if (!this.cache) return;
    const pending = { prompt };
    this.pending.set(slot, pending);
    setTimeout(() => {
      if (this.pending.get(slot) !== pending) return;
      this.pending.delete(slot);
      void this.save(pending.prompt, slot);
    }, 0);
  }

  /** Cancels a save not made yet: the slot's context is about to change (another job), or go (no slot: all). */
  drop(slot?: number): void {
    if (slot === undefined) this.pending.clear();
    else this.pending.delete(slot);
  }

  private async save(prompt: number, slot: number): Promise<void> {
    if (!this.cache) return;
    try {
      const tokens = this.guard.call(() => this.engine.slotTokens(slot));
      if (!this.cache.wants(tokens)) return;
      const bytes = await this.guard.onSlot(slot, () => this.engine.saveState());
      this.cache.save(tokens, Math.min(prompt, tokens.length), bytes);
    } catch (error) {
      // A state that cannot be saved costs the next load its prompt's prefill, nothing else.
      console.warn('[inpage-llm] the prompt cache could not save the context:', error);
    }
  }
}
