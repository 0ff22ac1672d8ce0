/// <reference lib="webworker" />
/**
 * What the engine worker does when its engine's state is broken (a trap or an `abort()` inside
 * the wasm, out of memory): it tells the page why (`engine.crashed`, posted on the worker's own
 * port beside comlink's messages) and closes itself once the errors already posted for its
 * requests have gone out. The page's watch (`src/page/watch-engine.ts`) then ends what the
 * worker held and starts a new one, which loads the model again.
 */
import { message, type EngineToPage } from '#core/protocol/protocol';
import { inWorker, tellPage } from './tell-page';

let retiring = false;

/**
 * Retires this worker because of `reason` (once; outside a worker, as in unit tests, it does
 * nothing). `onGpu`: the engine that crashed ran its model on the GPU (the page's next engines
 * keep models on the CPU).
 */
export function retireWorker(reason: string, onGpu = false): void {
  if (retiring || !inWorker()) return;
  retiring = true;
  console.error(`[inpage-llm] The engine crashed (${reason}); its worker closes and the page starts a new one.`);
  // The page hears it first (it tells the SW before the failed load's caller can send again);
  // the request's own error, or the load's, still goes out before the worker closes.
  tellPage(message<EngineToPage, 'engine.crashed'>('engine.crashed', { reason, onGpu }));
  setTimeout(() => self.close(), 0);
}
