/**
 * This worker's prompt cache across page loads: what the page asked (`startInpage({
 * promptCache })`, `usePromptCache`), else `DEFAULT_PROMPT_CACHE` (src/core/domain/prompt-cache.ts).
 * Read at each load.
 */
import { DEFAULT_PROMPT_CACHE, type PromptCacheSettings } from '#core/domain/prompt-cache';

let requested: PromptCacheSettings | null = null;

export function setRequestedPromptCache(settings: PromptCacheSettings): void {
  requested = settings;
}

export function promptCacheSettings(): PromptCacheSettings {
  return requested ?? DEFAULT_PROMPT_CACHE;
}
