import { AsyncQueue } from '../../src/core/async-queue';
import { KEEPALIVE_INTERVAL_MS, KeepaliveWatch } from '../../src/core/keepalive';
import { OpenAIError, ServiceUnavailableError } from '../../src/core/errors';
import {
  isEngineToSw,
  message,
  type EngineToSw,
  type MessageOf,
  type SwToEngine,
  type SwToPage,
} from '../../src/core/protocol';
import type { GenerationRequest } from '../../src/core/generation';
import { markEngineGone } from './engine-gone-clock';
import { trackChannel } from './open-channels';

/** An engine event as a reader sees it (the `generation.alive` answers stay inside the channel). */
export type EngineEvent = Exclude<MessageOf<EngineToSw>, { type: 'generation.alive' }>;

/** How long the page may take to hand the request to its engine before the first `generation.alive`. */
export const FIRST_ALIVE_TIMEOUT_MS = 5000;

const gone = () =>
  new ServiceUnavailableError('The page running the engine went away during the request.', 'engine_gone').toWire();

/** Whether `event` is the error of an engine that went away (its page closed or stopped it). */
export function isEngineGone(event: EngineEvent): boolean {
  return event.type === 'generation.error' && event.error.body.error.code === 'engine_gone';
}

/**
 * One request's MessageChannel to the engine (relayed by the page that owns it): engine
 * events arrive in order through `next()`, ending with exactly one `generation.done` or
 * `generation.error`; `cancel()` tells the engine to stop this request. The page's goodbye,
 * or silence from its engine, ends it with `engine_gone`.
 */
export class EngineChannel {
  private readonly port: MessagePort;
  private readonly untrack: () => void;
  private readonly events = new AsyncQueue<EngineEvent>();
  private open = true;
  private readonly keepalive: ReturnType<typeof setInterval>;
  /** Silence from the engine (its page closed: its worker died) ends the request with `engine_gone`. */
  private readonly watch = new KeepaliveWatch(() => this.engineGone());

  constructor(client: Client, request: GenerationRequest) {
    this.untrack = trackChannel(client.id, this);
    const channel = new MessageChannel();
    this.port = channel.port1;
    this.port.onmessage = (event: MessageEvent<unknown>) => {
      if (!isEngineToSw(event.data)) return;
      if (event.data.type === 'generation.alive') this.watch.beat();
      else this.push(event.data);
    };
    // Where MessagePort 'close' events exist (not in Chromium 156): the page went away mid-request.
    this.port.addEventListener('close', () => this.engineGone());
    client.postMessage(message<SwToPage, 'generation.start'>('generation.start', { request }), [channel.port2]);
    const keepalive = () =>
      this.port.postMessage(message<SwToEngine, 'generation.keepalive'>('generation.keepalive', {}));
    keepalive();
    this.keepalive = setInterval(keepalive, KEEPALIVE_INTERVAL_MS);
    this.watch.beat(FIRST_ALIVE_TIMEOUT_MS);
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

  /** The engine's page went away: the request ends with `engine_gone` (after what already arrived). */
  engineGone(): void {
    markEngineGone();
    this.push({ type: 'generation.error', error: gone() });
  }

  /** Ends the channel after the engine's last event. */
  close(): void {
    this.open = false;
    this.untrack();
    clearInterval(this.keepalive);
    this.watch.stop();
    this.events.end();
    this.port.close();
  }

  private push(event: EngineEvent): void {
    this.events.push(event);
    // Nothing counts after the first terminal event (a 'close' may follow the 'done').
    if (event.type === 'generation.done' || event.type === 'generation.error') {
      this.watch.stop();
      this.events.end();
      this.untrack();
    }
  }
}

/** Throws the engine's error as an `OpenAIError`. */
export function raise(event: Extract<EngineEvent, { type: 'generation.error' }>): never {
  throw OpenAIError.fromWire(event.error);
}
