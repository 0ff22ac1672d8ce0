/**
 * Runs a `slot` job (llama-server's `POST /slots/{id}?action=...`) on its model's queue, so it
 * never lands inside a generation: the model's own slot action, or a 501 where its backend has
 * none (llama-server's answer without `--slot-save-path`). One result, unless aborted meanwhile.
 */
import { NotSupportedError } from '#core/domain/errors';
import { message, type EngineToSwTokens } from '#core/protocol/protocol';
import type { SlotActionRequest } from '#core/domain/slots';
import type { LoadedModel } from './backend';

export async function runSlotAction(
  model: LoadedModel,
  request: SlotActionRequest,
  port: MessagePort,
  signal: AbortSignal,
): Promise<{ prompt: number; completion: number }> {
  if (!model.slotAction)
    throw new NotSupportedError(
      `The model '${request.model}' runs on a backend without slot actions: they need the llamacpp backend.`,
    );
  const result = await model.slotAction(request);
  if (!signal.aborted) port.postMessage(message<EngineToSwTokens, 'slot.result'>('slot.result', result));
  return { prompt: 0, completion: 0 };
}
