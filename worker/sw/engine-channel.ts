import { AsyncQueue } from '../../src/core/async-queue';
import { KEEPALIVE_INTERVAL_MS } from '../../src/core/keepalive';
import { InternalServerError, OpenAIError } from '../../src/core/errors';
import { isEngineToSw, message, type EngineToSw, type MessageOf, type SwToEngine, type SwToPage } from '../../src/core/protocol';
import type { GenerationRequest } from '../../src/core/generation';

export type EngineEvent = MessageOf<EngineToSw>;

const gone = () =>
  new InternalServerError('The page running the engine went away during the request.', 'engine_gone').toWire();

/**
 * One request's MessageChannel to the engine (relayed by the page that owns it): engine
 * events arrive in order through `next()`, ending with exactly one `generation.done` or
 * `generation.error`; `cancel()` tells the engine to stop this request.
 */
export class EngineChannel {
  private readonly port: MessagePort;
  private readonly events = new AsyncQueue<EngineEvent>();
  private open = true;
  private readonly keepalive: ReturnType<typeof setInterval>;

  constructor(client: Client, request: GenerationRequest) {
    const channel = new MessageChannel();
    this.port = channel.port1;
    this.port.onmessage = (event: MessageEvent<unknown>) => {
      if (isEngineToSw(event.data)) this.push(event.data);
    };
    // Where MessagePort 'close' events exist (not in Chromium 156): the page went away mid-request.
    this.port.addEventListener('close', () => this.push({ type: 'generation.error', error: gone() }));
    client.postMessage(message<SwToPage, 'generation.start'>('generation.start', { request }), [channel.port2]);
    const keepalive = () => this.port.postMessage(message<SwToEngine, 'generation.keepalive'>('generation.keepalive', {}));
    keepalive();
    this.keepalive = setInterval(keepalive, KEEPALIVE_INTERVAL_MS);
  }

  /** The next engine event; a channel that ended without a terminal event reads as an error. */
  async next(): Promise<EngineEvent> {
    return (await this.events.next()) ?? { type: 'generation.error', error: gone() };
  }

  /** The events that already arrived, without waiting (lets a lagging reader catch up in one go). */
  drain(): EngineEvent[] {
    return this.events.drain();
  }

  /** Stops the engine's work on this request (client aborted); safe to call more than once. */
  cancel(reason: string): void {
    if (!this.open) return;
    this.port.postMessage(message<SwToEngine, 'generation.cancel'>('generation.cancel', { reason }));
    this.close();
  }

  /** Ends the channel after the engine's last event. */
  close(): void {
    this.open = false;
    clearInterval(this.keepalive);
    this.events.end();
    this.port.close();
  }

  private push(event: EngineEvent): void {
    this.events.push(event);
    // Nothing counts after the first terminal event (a 'close' may follow the 'done').
    if (event.type === 'generation.done' || event.type === 'generation.error') this.events.end();
  }
}

/** Throws the engine's error as an `OpenAIError`. */
export function raise(event: Extract<EngineEvent, { type: 'generation.error' }>): never {
  throw OpenAIError.fromWire(event.error);
}
