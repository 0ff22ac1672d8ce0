/**
 * The bound of a handover: how long a request waits for the engine that takes over (a tab
 * standing by, or the same tab restarting its crashed engine, `handover.ts`). Whether one is
 * under way is asked of the pages (their `standby`), not remembered here: a Service Worker
 * that Chromium stopped and started again had forgotten it.
 */
/**
 * How long a request waits for a new engine. A handover measured 5.3-11.1 s on a 2-core test
 * machine (the lock passes in 20-110 ms; the rest is the engine's start and model load), about
 * a first start's time, and ~21 s with the machine at load 16; this leaves room for that and
 * for a real model's load from the browser's cache (GBs).
 */
export const HANDOVER_TIMEOUT_MS = 60_000;
