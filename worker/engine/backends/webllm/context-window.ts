/**
 * The context a WebLLM model is served with, and the KV window it is loaded with. WebLLM ends a
 * generation on the token it samples once its KV cache is full (`processedSeqLen ==
 * context_window_size`; that token is never read back), so its prompt + completion reaches
 * window + 1; and it refuses only a prompt longer than the window. Loaded with a window one
 * short of the context, a model ends where llama-server at that `n_ctx` ends: prompt +
 * completion = n_ctx at most, and a prompt of n_ctx tokens is refused (400
 * `context_length_exceeded`, as a longer one).
 */

/** What a model reports when neither the spec nor its mlc-chat-config.json says (WebLLM's own window then applies). */
export const DEFAULT_CONTEXT = 4096;

export interface WebLLMContext {
  /** The context the model is served with (its card's `context_length`, the SW's checks). */
  contextLength: number;
  /** `context_window_size` for `reload()`, or null to leave WebLLM's own (a sliding window, or not known). */
  window: number | null;
}

/**
 * `requested`: the spec's `contextLength`; `configured`: mlc-chat-config.json's
 * `context_window_size` (-1 when absent or a sliding-window model).
 */
export function webllmContext(requested: number | undefined, configured: number): WebLLMContext {
  const context = requested ?? (configured > 0 ? configured : null);
  if (context === null) return { contextLength: DEFAULT_CONTEXT, window: null };
  return { contextLength: context, window: Math.max(1, context - 1) };
}
