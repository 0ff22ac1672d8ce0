/**
 * The Service Worker's per-model counters for `/metrics`: requests by outcome, prompt tokens
 * (evaluated and reused from the cache), generated tokens, the seconds spent on each, the
 * longest sequence, and the requests open now (deferred: not started by the engine yet). They
 * live in the Service Worker's memory: a restart of the Service Worker (the browser may stop an
 * idle one at any time) starts them at zero, as a llama-server restart does; Prometheus reads
 * a counter that went down as a reset. Requests the page's direct API sends to the engine
 * without the Service Worker are not counted.
 */

/** One model's counters; the `bucket` holds what finished since the last scrape (the throughput gauges). */
export interface ModelCounters {
  requests: { completed: number; failed: number; aborted: number };
  promptTokens: number;
  promptCached: number;
  promptSeconds: number;
  predictedTokens: number;
  predictedSeconds: number;
  maxTokens: number;
  /** Speculative decoding: draft tokens checked, those taken, and the checks (drafts). */
  draftTokens: number;
  draftAccepted: number;
  drafts: number;
  /** Drafts whose token at each position was kept (llama-server's per-position counter; empty: none checked). */
  draftAcceptedPerPos: number[];
  processing: number;
  deferred: number;
  /**
   * The model's engine's decodes and the slots they held (llama-server's `n_decode_total` and
   * `n_busy_slots`): not counted here but asked of the engine at each scrape (0 until then).
   */
  decodes: number;
  decodedSlots: number;
  bucket: { promptTokens: number; promptSeconds: number; predictedTokens: number; predictedSeconds: number };
}

const emptyBucket = () => ({ promptTokens: 0, promptSeconds: 0, predictedTokens: 0, predictedSeconds: 0 });

const counters = new Map<string, ModelCounters>();

/** `model`'s counters (made at zero on first use). */
export function countersOf(model: string): ModelCounters {
  let found = counters.get(model);
  if (!found) {
    found = {
      requests: { completed: 0, failed: 0, aborted: 0 },
      promptTokens: 0,
      promptCached: 0,
      promptSeconds: 0,
      predictedTokens: 0,
      predictedSeconds: 0,
      maxTokens: 0,
      draftTokens: 0,
      draftAccepted: 0,
      drafts: 0,
      draftAcceptedPerPos: [],
      processing: 0,
      deferred: 0,
      decodes: 0,
      decodedSlots: 0,
      bucket: emptyBucket(),
    };
    counters.set(model, found);
  }
  return found;
}

/**
 * Every model's counters, by id, or `only` that model's (at zero where it has none yet); the
 * buckets scraped are emptied (each scrape's gauges cover what finished since the last, as
 * llama-server's).
 */
export function scrapeCounters(only: string | null = null): Array<[string, ModelCounters]> {
  const scraped: Array<[string, ModelCounters]> = only === null ? [...counters.entries()] : [[only, countersOf(only)]];
  const snapshot = scraped.map(([model, c]): [string, ModelCounters] => [
    model,
    { ...c, requests: { ...c.requests }, bucket: { ...c.bucket } },
  ]);
  for (const [, c] of scraped) c.bucket = emptyBucket();
  return snapshot;
}
