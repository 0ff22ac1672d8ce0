import { wrap, type Remote } from 'comlink';
import { registerErrorTransfer } from '../core/comlink-errors';
import type { EngineApi } from '../../worker/engine/engine-api';

/** Starts the engine Web Worker and wraps its API with comlink. */
export function createEngine(): { worker: Worker; engine: Remote<EngineApi> } {
  registerErrorTransfer();
  const worker = new Worker(new URL('../../worker/engine/engine-worker.ts', import.meta.url), {
    type: 'module',
    name: 'inpage-engine',
  });
  return { worker, engine: wrap<EngineApi>(worker) };
}
