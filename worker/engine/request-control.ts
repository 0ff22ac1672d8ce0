/**
 * One request's control channel, the same for every job kind: the job is acknowledged at once
 * (a first `generation.alive`, before it waits its turn: the SW sends a job again when no engine
 * took it), a `generation.cancel` or the SW's keepalives stopping aborts it, and each keepalive
 * is answered with `generation.alive` (Chromium has no MessagePort `close` event, so the SW
 * learns that this engine, or its page, went away only when these answers stop).
 */
import { BUSY_NOTICE_MS, KeepaliveWatch } from '#core/protocol/keepalive';
import { isSwToEngine, message, type EngineToSw } from '#core/protocol/protocol';
import { ReasoningEnd } from './reasoning-end';

export interface RequestControl {
  /** Aborts when the client cancels or the SW goes silent. */
  readonly signal: AbortSignal;
  /** The request ended: stop watching for the SW's keepalives. */
  stop(): void;
  /** Its `generation.control` asks to end the reasoning (generations only). */
  readonly reasoningEnd: ReasoningEnd;
}

/** The ports of the requests this worker holds (queued or running), for `announceBusy`. */
const held = new Set<MessagePort>();

/**
 * Tells the SW, on every request this worker holds, that its thread is about to block for
 * about `expectedMs` (a prompt step, a decode step of a large model), during which it answers no
 * keepalive: the SW allows three times that. Shorter calls are not announced (BUSY_NOTICE_MS).
 */
export function announceBusy(expectedMs: number): void {
  const allowance = Math.ceil(3 * expectedMs);
  if (allowance < BUSY_NOTICE_MS) return;
  const busy = message<EngineToSw, 'generation.alive'>('generation.alive', { busy_ms: allowance });
  for (const port of held) port.postMessage(busy);
}

export function requestControl(port: MessagePort): RequestControl {
  const controller = new AbortController();
  const reasoningEnd = new ReasoningEnd();
  const watch = new KeepaliveWatch(() => controller.abort('the Service Worker went silent'));
  held.add(port);
  const release = () => {
    held.delete(port);
    watch.stop();
  };
  controller.signal.addEventListener('abort', release, { once: true });
  port.onmessage = (event: MessageEvent<unknown>) => {
    if (!isSwToEngine(event.data)) return;
    if (event.data.type === 'generation.cancel') controller.abort(event.data.reason);
    else if (event.data.type === 'generation.control') reasoningEnd.ask();
    else {
      watch.beat();
      port.postMessage(message<EngineToSw, 'generation.alive'>('generation.alive', {}));
    }
  };
  // Where MessagePort 'close' events exist (not in Chromium 156): the SW side vanished.
  port.addEventListener('close', () => controller.abort('channel closed'));
  port.postMessage(message<EngineToSw, 'generation.alive'>('generation.alive', {}));
  return { signal: controller.signal, stop: release, reasoningEnd };
}
