import { InternalServerError, OpenAIError } from '../../src/core/errors';
import { isEngineToSw, message, type EngineToSw, type MessageOf, type SwToEngine, type SwToPage } from '../../src/core/protocol';
import type { CompletionRequest } from '../../src/core/openai/types';

type EngineEvent = MessageOf<EngineToSw>;

/**
 * One request's MessageChannel to the engine (relayed by the page that owns it): engine
 * events arrive one by one through `next()`; `cancel()` tells the engine to stop this request.
 */
export class EngineChannel {
  private readonly port: MessagePort;
  private readonly queue: EngineEvent[] = [];
  private waiter: ((event: EngineEvent) => void) | undefined;
  private finished = false;
  private ended = false;

  constructor(client: Client, request: CompletionRequest) {
    const channel = new MessageChannel();
    this.port = channel.port1;
    this.port.onmessage = (event: MessageEvent<unknown>) => {
      if (isEngineToSw(event.data)) this.push(event.data);
    };
    // Fires when the page (and its side of the channel) goes away mid-request.
    this.port.addEventListener('close', () => {
      const error = new InternalServerError('The page running the engine went away during the request.', 'engine_gone');
      this.push({ type: 'completion.error', error: error.toWire() });
    });
    client.postMessage(message<SwToPage, 'completion.start'>('completion.start', { request }), [channel.port2]);
  }

  /** The next engine event (in order). */
  next(): Promise<EngineEvent> {
    const queued = this.queue.shift();
    if (queued) return Promise.resolve(queued);
    return new Promise((resolve) => (this.waiter = resolve));
  }

  /** Stops the engine's work on this request (client aborted); safe to call more than once. */
  cancel(reason: string): void {
    if (this.finished) return;
    this.finished = true;
    this.port.postMessage(message<SwToEngine, 'completion.cancel'>('completion.cancel', { reason }));
    this.port.close();
  }

  /** Ends the channel after the engine's last event. */
  close(): void {
    this.finished = true;
    this.port.close();
  }

  private push(event: EngineEvent): void {
    // Nothing counts after the first terminal event (a 'close' may follow the 'done').
    if (this.finished || this.ended) return;
    this.ended = event.type !== 'completion.delta';
    const waiter = this.waiter;
    this.waiter = undefined;
    if (waiter) waiter(event);
    else this.queue.push(event);
  }
}

/** Throws the engine's error as an `OpenAIError`. */
export function raise(event: Extract<EngineEvent, { type: 'completion.error' }>): never {
  throw OpenAIError.fromWire(event.error);
}
