/**
 * Runs a `ready` job (`startInpage`'s readiness proof, `#core/domain/ready`): the model is
 * loaded here (`serveJob` found its entry and awaited its load), so the answer is its id. No
 * forward pass, no backend call: the same on every backend (llamacpp, webllm).
 */
import { message, type EngineToSwReady } from '#core/protocol/protocol';
import type { ReadyRequest } from '#core/domain/ready';
import type { LoadedModel } from './backend';

export function runReady(
  _model: LoadedModel,
  request: ReadyRequest,
  port: MessagePort,
  signal: AbortSignal,
): Promise<{ prompt: number; completion: number }> {
  if (!signal.aborted)
    port.postMessage(message<EngineToSwReady, 'ready.result'>('ready.result', { model: request.model }));
  return Promise.resolve({ prompt: 0, completion: 0 });
}
