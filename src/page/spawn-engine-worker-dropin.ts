/**
 * The drop-in script's engine worker: `inpage-llm/engine-worker.js` beside the script. The
 * script URL is read while the classic script first runs (the only time `currentScript` is set).
 */
const scriptUrl =
  document.currentScript instanceof HTMLScriptElement && document.currentScript.src
    ? document.currentScript.src
    : document.baseURI;

export function spawnEngineWorker(): Worker {
  return new Worker(new URL('inpage-llm/engine-worker.js', scriptUrl), { type: 'module', name: 'inpage-engine' });
}
