import { wrap, type Remote } from 'comlink';
import { registerErrorTransfer } from '../core/comlink-errors';
import type { EngineApi } from '../core/engine-api';
import { spawnEngineWorker } from './spawn-engine-worker';

/** Starts the engine Web Worker and wraps its API with comlink. */
export function createEngine(): { worker: Worker; engine: Remote<EngineApi> } {
  registerErrorTransfer();
  const worker = spawnEngineWorker();
  return { worker, engine: wrap<EngineApi>(worker) };
}
