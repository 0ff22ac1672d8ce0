/**
 * One request's control channel, the same for every job kind: the job is acknowledged at once
 * (a first `generation.alive`, before it waits its turn: the SW sends a job again when no engine
 * took it), a `generation.cancel` or the SW's keepalives stopping aborts it, and each keepalive
 * is answered with `generation.alive` (Chromium has no MessagePort `close` event, so the SW
 * learns that this engine, or its page, went away only when these answers stop).
 */
import { KeepaliveWatch } from '#core/protocol/keepalive';
import { isSwToEngine, message, type EngineToSw } from '#core/protocol/protocol';

export interface RequestControl {
  /** Aborts when the client cancels or the SW goes silent. */
  readonly signal: AbortSignal;
  /** The request ended: stop watching for the SW's keepalives. */
  stop(): void;
}

export function requestControl(port: MessagePort): RequestControl {
  const controller = new AbortController();
  const watch = new KeepaliveWatch(() => controller.abort('the Service Worker went silent'));
  controller.signal.addEventListener('abort', () => watch.stop(), { once: true });
  port.onmessage = (event: MessageEvent<unknown>) => {
    if (!isSwToEngine(event.data)) return;
    if (event.data.type === 'generation.cancel') controller.abort(event.data.reason);
    else {
      watch.beat();
      port.postMessage(message<EngineToSw, 'generation.alive'>('generation.alive', {}));
    }
  };
  // Where MessagePort 'close' events exist (not in Chromium 156): the SW side vanished.
  port.addEventListener('close', () => controller.abort('channel closed'));
  port.postMessage(message<EngineToSw, 'generation.alive'>('generation.alive', {}));
  return { signal: controller.signal, stop: () => watch.stop() };
}
