/**
 * The job inboxes pages hand over (`client.hello` with a port): the other end lives in the
 * page's engine worker, which answers `engine.query` and runs `job` itself, so a request's
 * messages reach the engine without a hop through the page's main thread, and which tells
 * its models unasked whenever they change. A page with no inbox here (a follower, or this SW
 * instance started after the hello) is asked directly; it relays to its engine and offers a
 * new inbox.
 */
import type { MessageTarget } from '#core/protocol/ask';
import { typeGuard, type EngineToSwInbox, type Reply } from '#core/protocol/protocol';
import type { EngineClient } from './engine-clients';

interface Held {
  port: MessagePort;
  client: Client;
  /** What its engine last announced. */
  info: Reply['engine.info'] | null;
}

const inboxes = new Map<string, Held>();
const isAnnouncement = typeGuard<EngineToSwInbox, 'engine.info'>('engine.info');

/** `client`'s engine takes jobs on `port` from now on (a newer inbox replaces an older one). */
export function takeInbox(client: Client, port: MessagePort): void {
  dropInbox(client.id);
  const held: Held = { port, client, info: null };
  port.onmessage = (event: MessageEvent<unknown>) => {
    if (isAnnouncement(event.data)) held.info = event.data;
  };
  inboxes.set(client.id, held);
}

/** The page `clientId` stopped its engine, or is gone: its inbox is not used again. */
export function dropInbox(clientId: string): void {
  inboxes.get(clientId)?.port.close();
  inboxes.delete(clientId);
}

/** Where a message for `client`'s engine goes: its engine worker's inbox, else the page itself. */
export function jobTarget(client: Client): MessageTarget {
  return inboxes.get(client.id)?.port ?? client;
}

/** What `clientId`'s engine last announced on its inbox (null without one, or before its first word). */
export function lastAnnouncement(clientId: string): Reply['engine.info'] | null {
  return inboxes.get(clientId)?.info ?? null;
}

/**
 * The page `clientId` as its engine last announced it, when that names models: no need to ask
 * (a requesting page is alive; its engine's silence would still end a job with `engine_gone`).
 */
export function announced(clientId: string): EngineClient | null {
  const held = inboxes.get(clientId);
  if (!held?.info || held.info.models.length === 0) return null;
  const { models, apiKey, standby } = held.info;
  return { client: held.client, models, apiKey, standby };
}
