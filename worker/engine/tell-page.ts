/// <reference lib="webworker" />
/**
 * Posts to the page that runs this engine worker, on the worker's own port (beside comlink's
 * calls, which ignore it: the page's `isEngineToPage` reads it). Outside a worker, as in unit
 * tests, it does nothing.
 */
import type { EngineToPage, MessageOf } from '#core/protocol/protocol';

/** Whether this code runs in the engine's worker (not in a unit test's Node). */
export const inWorker = (): boolean => typeof WorkerGlobalScope !== 'undefined' && self instanceof WorkerGlobalScope;

export function tellPage(data: MessageOf<EngineToPage>): void {
  if (inWorker()) self.postMessage(data);
}
