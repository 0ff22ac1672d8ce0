/**
 * The ES library's engine worker: the prebuilt `dist/inpage-llm/engine-worker.js`, by a URL
 * relative to this module. Left as `new Worker(new URL(..., import.meta.url))` on purpose: an
 * app's bundler (Vite, webpack 5, esbuild with a plugin) sees the pattern and emits the worker
 * and its wasm; without a bundler the browser resolves it natively.
 */
export function spawnEngineWorker(): Worker {
  return new Worker(new URL('../inpage-llm/engine-worker.js', import.meta.url), {
    type: 'module',
    name: 'inpage-engine',
  });
}
