/**
 * The one request/reply helper across a message boundary (MSW's `sendToClient`): posts a
 * message with a fresh MessageChannel's port and resolves with the reply, or null when none
 * of the expected type comes within the time limit.
 */
import { message, typeGuard, type Reply } from './protocol';
import { withTimeout } from '../util/with-timeout';

/** Anything that takes a message with transferred ports (a Client, a ServiceWorker). */
export interface MessageTarget {
  postMessage(message: unknown, transfer: Transferable[]): void;
}

/** Sends `type` + `payload` to `target` and awaits its `reply` on the port (null after `timeoutMs`). */
export function ask<M, K extends keyof M & string, R extends keyof Reply & string>(
  target: MessageTarget,
  type: K,
  payload: M[K],
  reply: R,
  timeoutMs: number,
): Promise<({ type: R } & Reply[R]) | null> {
  const channel = new MessageChannel();
  const isReply = typeGuard<Reply, R>(reply);
  const answer = new Promise<({ type: R } & Reply[R]) | null>((resolve) => {
    channel.port1.onmessage = (event: MessageEvent<unknown>) => resolve(isReply(event.data) ? event.data : null);
  });
  target.postMessage(message<M, K>(type, payload), [channel.port2]);
  return withTimeout(answer, timeoutMs, () => null).finally(() => channel.port1.close());
}
