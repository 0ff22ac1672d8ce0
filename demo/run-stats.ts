/**
 * The numbers the playground shows for one request. Prefill and decode are measured apart: a
 * single tokens/s over a short run mostly measures the prompt and the round trip.
 * - prefill: prompt tokens ÷ time to the first token (the engine reads the prompt, then samples
 *   the first token; the round trip through the Service Worker is included);
 * - decode: tokens after the first ÷ the time from the first to the last.
 */
export interface RunStats {
  /** Time to the first text, ms. */
  ttftMs: number | null;
  /** Prompt tokens (from `usage`; null until it arrives). */
  promptTokens: number | null;
  /** Completion tokens: counted chunks while streaming, the usage figure at the end. */
  tokens: number;
  prefillTokensPerSecond: number | null;
  decodeTokensPerSecond: number | null;
  /** True once the figures come from the response's `usage`. */
  exact: boolean;
}

/** Timestamps (ms, one clock) and counts of a request so far. */
export interface RunTimes {
  started: number;
  /** When the first text arrived; null before (and for a non-streamed request). */
  first: number | null;
  last: number;
  promptTokens: number | null;
  tokens: number;
  exact: boolean;
}

/** The figures for `times`; a rate is null where it cannot be measured. */
export function runStats(times: RunTimes): RunStats {
  const ttftMs = times.first === null ? null : times.first - times.started;
  const prefill =
    ttftMs !== null && ttftMs > 0 && times.promptTokens !== null ? (times.promptTokens * 1000) / ttftMs : null;
  const decodeMs = times.first === null ? 0 : times.last - times.first;
  const decode = times.tokens > 1 && decodeMs > 0 ? ((times.tokens - 1) * 1000) / decodeMs : null;
  return {
    ttftMs,
    promptTokens: times.promptTokens,
    tokens: times.tokens,
    prefillTokensPerSecond: prefill,
    decodeTokensPerSecond: decode,
    exact: times.exact,
  };
}
