/**
 * What `/completion` and `/infill` answers share in llama-server's shape: the `timings` of one
 * answer (measured in the Service Worker from the engine's events), how the generation stopped
 * (`stop_type`, `stopping_word`), and whether the context's end stopped it (`truncated`).
 */
import type { FinishReason } from '#core/domain/generation';
import type { DraftCounts } from '#core/domain/speculative';

/** `timings` from the prompt's and the generation's token counts and times (ms). */
export function nativeTimings(t: {
  prompt: number;
  cached: number;
  predicted: number;
  promptMs: number;
  predictedMs: number;
  /** Speculative decoding's counts: `draft_n` and `draft_n_accepted` where it drafted (llama-server gives them then). */
  draft?: DraftCounts | null;
}) {
  const promptN = t.prompt - t.cached;
  return {
    cache_n: t.cached,
    prompt_n: promptN,
    prompt_ms: t.promptMs,
    prompt_per_token_ms: promptN > 0 ? t.promptMs / promptN : 0,
    prompt_per_second: t.promptMs > 0 ? (promptN * 1000) / t.promptMs : 0,
    predicted_n: t.predicted,
    predicted_ms: t.predictedMs,
    predicted_per_token_ms: t.predicted > 0 ? t.predictedMs / t.predicted : 0,
    predicted_per_second: t.predictedMs > 0 ? (t.predicted * 1000) / t.predictedMs : 0,
    ...(t.draft && t.draft.drafted > 0 ? { draft_n: t.draft.drafted, draft_n_accepted: t.draft.accepted } : {}),
  };
}

/** llama-server's `stop_type` (`limit`, `word`, `eos`) and `stopping_word` of a choice's end. */
export function nativeStop(end: { finish_reason: FinishReason; matched_stop: string | number | null }): {
  stopType: 'limit' | 'word' | 'eos';
  stoppingWord: string;
} {
  const word = typeof end.matched_stop === 'string' ? end.matched_stop : null;
  return {
    stopType: end.finish_reason === 'length' ? 'limit' : word !== null ? 'word' : 'eos',
    stoppingWord: word ?? '',
  };
}

/** The context's end stopped it (llama-server's `truncated`), whether or not `n_predict` was reached too. */
export function truncatedAt(stopType: string, used: number, contextLength: number): boolean {
  return stopType === 'limit' && used >= contextLength;
}
