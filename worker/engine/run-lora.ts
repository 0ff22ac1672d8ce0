/**
 * Runs a `lora` job (llama-server's `/lora-adapters`): the model's LoRA adapters at its scales,
 * after setting those where the request says (`POST`). In the model's queue like every job, so
 * a change lands between requests. A backend that loads none lists none, and refuses scales
 * for any (a 400 naming `id`). Scales set are told to the page too (`model.lora`), which keeps
 * them in the model's spec: an engine restarted after a crash loads the model at them, as
 * llama-server keeps them until it stops.
 */
import { checkLoraScales, type LoraAdaptersRequest } from '#core/domain/lora';
import { message, type EngineToPage, type EngineToSwTokens } from '#core/protocol/protocol';
import type { LoadedModel } from './backend';
import { tellPage } from './tell-page';

export function runLora(
  model: LoadedModel,
  request: LoraAdaptersRequest,
  port: MessagePort,
  signal: AbortSignal,
): Promise<{ prompt: number; completion: number }> {
  if (!model.loraAdapters) checkLoraScales(request.set ?? [], 0, 'id');
  const adapters = model.loraAdapters ? model.loraAdapters(request.set) : [];
  if (request.set && adapters.length > 0) {
    const scales = adapters.map((adapter) => adapter.scale);
    tellPage(message<EngineToPage, 'model.lora'>('model.lora', { model: request.model, scales }));
  }
  if (!signal.aborted) port.postMessage(message<EngineToSwTokens, 'lora.result'>('lora.result', { adapters }));
  return Promise.resolve({ prompt: 0, completion: 0 });
}
