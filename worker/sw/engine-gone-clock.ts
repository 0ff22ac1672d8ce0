/**
 * When an engine's page last went (its goodbye, its silence, or it was no longer open): for
 * a while after, a request for a model no page serves may be in a handover and waits for the
 * successor (`handover.ts`) instead of failing at once.
 */
/**
 * How long a request waits for a new engine. A handover measured 5.3-11.1 s on a 2-core test
 * machine (the lock passes in 20-110 ms; the rest is the engine's start and model load), about
 * a first start's time, and ~21 s with the machine at load 16; this leaves room for that and
 * for a real model's load from the browser's cache (GBs).
 */
export const HANDOVER_TIMEOUT_MS = 60_000;

let lastGoneAt = -Infinity;

/** An engine's page went (goodbye, silence, or no longer open): a handover may follow. */
export function markEngineGone(): void {
  lastGoneAt = Date.now();
}

/** Whether an engine's page went within the handover bound (so new requests may wait for a successor). */
export function handoverLikely(): boolean {
  return Date.now() - lastGoneAt < HANDOVER_TIMEOUT_MS;
}
