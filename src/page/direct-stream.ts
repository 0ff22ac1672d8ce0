import { transfer, type Remote } from 'comlink';
import { AsyncQueue } from '../core/util/async-queue';
import { OpenAIError } from '../core/domain/errors';
import { validateCompletion } from '../core/openai/validate-completion';
import { isEngineToSw, message, type EngineToSw, type MessageOf, type SwToEngine } from '../core/protocol/protocol';
import type { EngineApi } from '../core/protocol/engine-api';

/** An engine event as the direct API yields it (neutral pieces and choice ends, then one `generation.done`). */
export type DirectEvent = Exclude<MessageOf<EngineToSw>, { type: 'generation.error' | 'generation.alive' }>;

/**
 * Runs a completion on the engine without HTTP or the Service Worker (same validation, same
 * queue). Breaking out of the loop cancels the request. Used by the benchmark as the
 * "direct from the engine" baseline, and by apps that want no fetch at all.
 */
export async function* directStream(engine: Remote<EngineApi>, body: unknown): AsyncGenerator<DirectEvent> {
  const request = validateCompletion(body);
  const channel = new MessageChannel();
  const events = new AsyncQueue<Exclude<MessageOf<EngineToSw>, { type: 'generation.alive' }>>();
  channel.port1.onmessage = (event: MessageEvent<unknown>) => {
    // No keepalives are sent here, so no `generation.alive` answers come back.
    if (isEngineToSw(event.data) && event.data.type !== 'generation.alive') events.push(event.data);
  };
  await engine.run({ kind: 'generation', request }, transfer(channel.port2, [channel.port2]));
  let finished = false;
  try {
    for await (const event of events) {
      if (event.type === 'generation.error') throw OpenAIError.fromWire(event.error);
      yield event;
      if (event.type === 'generation.done') {
        finished = true;
        return;
      }
    }
  } finally {
    if (!finished)
      channel.port1.postMessage(
        message<SwToEngine, 'generation.cancel'>('generation.cancel', { reason: 'consumer stopped' }),
      );
    channel.port1.close();
  }
}
