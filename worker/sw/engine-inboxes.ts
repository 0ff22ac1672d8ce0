/**
 * The job inboxes pages hand over (`client.hello` with a port): the other end lives in the
 * page's engine worker, which answers `engine.query` and runs `job` itself, so a request's
 * messages reach the engine without a hop through the page's main thread. A page with no
 * inbox here (a follower, or this SW instance started after the hello) is asked directly;
 * it relays to its engine and offers a new inbox.
 */
import type { MessageTarget } from '../../src/core/ask';

const inboxes = new Map<string, MessagePort>();

/** The page `clientId`'s engine takes jobs on `port` from now on (a newer inbox replaces an older one). */
export function takeInbox(clientId: string, port: MessagePort): void {
  inboxes.get(clientId)?.close();
  inboxes.set(clientId, port);
}

/** The page `clientId` stopped its engine, or is gone: its inbox is not used again. */
export function dropInbox(clientId: string): void {
  inboxes.get(clientId)?.close();
  inboxes.delete(clientId);
}

/** Where a message for `client`'s engine goes: its engine worker's inbox, else the page itself. */
export function jobTarget(client: Client): MessageTarget {
  return inboxes.get(client.id) ?? client;
}
