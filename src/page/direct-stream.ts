import { transfer, type Remote } from 'comlink';
import { AsyncQueue } from '../core/util/async-queue';
import { OpenAIError } from '../core/domain/errors';
import { validateCompletion } from '../core/openai/validate-completion';
import { isEngineToSw, message, type EngineToSw, type MessageOf, type SwToEngine } from '../core/protocol/protocol';
import type { EngineApi } from '../core/protocol/engine-api';
import { crashed } from './watch-engine';

/** An engine event as the direct API yields it (neutral pieces and choice ends, then one `generation.done`). */
export type DirectEvent = Exclude<MessageOf<EngineToSw>, { type: 'generation.error' | 'generation.alive' }>;

/** Subscribes to the engine worker's death (`whenDead` of tab-engine.ts); returns the unsubscribe. */
export type DeathWatch = (listener: (reason: string) => void) => () => void;

/**
 * Runs a completion on the engine without HTTP or the Service Worker (same validation, same
 * queue). Breaking out of the loop cancels the request. Used by the benchmark as the
 * "direct from the engine" baseline, and by apps that want no fetch at all. The port carries no
 * keepalive, so `whenDead` ends the loop with a 503 `engine_crashed` if the worker dies first.
 */
export async function* directStream(
  engine: Remote<EngineApi>,
  body: unknown,
  whenDead: DeathWatch,
): AsyncGenerator<DirectEvent> {
  const request = validateCompletion(body);
  const channel = new MessageChannel();
  const events = new AsyncQueue<Exclude<MessageOf<EngineToSw>, { type: 'generation.alive' }>>();
  channel.port1.onmessage = (event: MessageEvent<unknown>) => {
    // The engine's acknowledgement (`generation.alive`) is not an event (no keepalives are sent here).
    if (isEngineToSw(event.data) && event.data.type !== 'generation.alive') events.push(event.data);
  };
  // A dead worker answers nothing: neither the call that starts the run nor its events.
  let died!: (error: Error) => void;
  const death = new Promise<never>((_, reject) => (died = reject));
  death.catch(() => undefined);
  const unwatch = whenDead((reason) => {
    const error = crashed(reason);
    died(error);
    events.push(message<EngineToSw, 'generation.error'>('generation.error', { error: error.toWire() }));
  });
  let finished = false;
  try {
    await Promise.race([engine.run({ kind: 'generation', request }, transfer(channel.port2, [channel.port2])), death]);
    for await (const event of events) {
      if (event.type === 'generation.error') throw OpenAIError.fromWire(event.error);
      yield event;
      if (event.type === 'generation.done') {
        finished = true;
        return;
      }
    }
  } finally {
    unwatch();
    if (!finished)
      channel.port1.postMessage(
        message<SwToEngine, 'generation.cancel'>('generation.cancel', { reason: 'consumer stopped' }),
      );
    channel.port1.close();
  }
}
