/**
 * Tells the page when the worker starts an engine build and when it has started, so that the
 * page's watch (src/page/watch-engine.ts) checks meanwhile that the worker still answers its
 * pings. In Firefox 153, `new Worker()` for a pthread, called inside the engine worker by
 * Emscripten's `PThread.init`, sometimes never returns (4 loads of `&threads=2` in 91 after
 * another page in the same tab, measured): the worker is blocked for good, no error is raised,
 * and the page's `ready` waited forever. A start does nothing else that blocks the worker for
 * long (the wasm is fetched and compiled asynchronously), so a silent worker there is a hung one.
 */
import { message, type EngineToPage } from '#core/protocol/protocol';
import { tellPage } from './tell-page';

/** Runs `start`, announced to the page before and after (outside a worker, as in unit tests, just runs it). */
export async function announceStart<T>(start: () => Promise<T>): Promise<T> {
  tellPage(message<EngineToPage, 'engine.starting'>('engine.starting', {}));
  try {
    return await start();
  } finally {
    tellPage(message<EngineToPage, 'engine.started'>('engine.started', {}));
  }
}
