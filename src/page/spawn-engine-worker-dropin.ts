/**
 * The drop-in script's engine worker: `inpage-llm/engine-worker.js` beside the script. The
 * script URL is read while the classic script first runs (the only time `currentScript` is set).
 */
import type { EngineAssets } from '../core/protocol/engine-api';

const scriptUrl =
  document.currentScript instanceof HTMLScriptElement && document.currentScript.src
    ? document.currentScript.src
    : document.baseURI;

export function spawnEngineWorker(): Worker {
  return new Worker(new URL('inpage-llm/engine-worker.js', scriptUrl), { type: 'module', name: 'inpage-engine' });
}

/** The worker finds its wasm and WebLLM module beside it. */
export function engineAssets(): EngineAssets | null {
  return null;
}
