import { wrap, type Remote } from 'comlink';
import { registerErrorTransfer } from '../core/protocol/comlink-errors';
import type { EngineApi } from '../core/protocol/engine-api';
import type { ThreadCounts } from '../core/domain/threads';
import { engineAssets, spawnEngineWorker } from './spawn-engine-worker';

/** Starts the engine Web Worker (with `threads` when the page set them) and wraps its API with comlink. */
export function createEngine(threads?: ThreadCounts): { worker: Worker; engine: Remote<EngineApi> } {
  registerErrorTransfer();
  const worker = spawnEngineWorker();
  const engine = wrap<EngineApi>(worker);
  // Posted before any other call, and the worker handles calls in order: it knows its files
  // before the first load asks for them.
  const assets = engineAssets();
  if (assets) void engine.useAssets(assets);
  if (threads) void engine.useThreads(threads);
  return { worker, engine };
}
