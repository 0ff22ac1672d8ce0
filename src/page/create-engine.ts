import { wrap, type Remote } from 'comlink';
import { registerErrorTransfer } from '../core/protocol/comlink-errors';
import type { EngineApi, EngineSettings } from '../core/protocol/engine-api';
import { engineAssets, spawnEngineWorker } from './spawn-engine-worker';

/** Starts the engine Web Worker (with the `settings` the page set) and wraps its API with comlink. */
export function createEngine(settings: EngineSettings = {}): { worker: Worker; engine: Remote<EngineApi> } {
  registerErrorTransfer();
  const worker = spawnEngineWorker();
  const engine = wrap<EngineApi>(worker);
  // Posted before any other call, and the worker handles calls in order: it knows its files
  // before the first load asks for them.
  const assets = engineAssets();
  if (assets) void engine.useAssets(assets);
  void engine.useSettings(settings);
  return { worker, engine };
}
