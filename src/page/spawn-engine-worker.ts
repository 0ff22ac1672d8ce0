/**
 * Starts the engine worker from its source: Vite (the demo build, a dev server) bundles it.
 * The packaged builds swap this module for `spawn-engine-worker-packaged.ts` (ES library) or
 * `spawn-engine-worker-dropin.ts` (script tag), which start the prebuilt
 * `inpage-llm/engine-worker.js` instead (see scripts/build/page-bundles.mjs).
 */
import type { EngineAssets } from '../core/protocol/engine-api';

export function spawnEngineWorker(): Worker {
  return new Worker(new URL('../../worker/engine/engine-worker.ts', import.meta.url), {
    type: 'module',
    name: 'inpage-engine',
  });
}

/** Vite bundled the wasm and WebLLM's chunk with the worker. */
export function engineAssets(): EngineAssets | null {
  return null;
}
