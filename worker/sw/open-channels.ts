/**
 * The generation channels open to each page, so that a page saying goodbye (its tab is going:
 * `pagehide`, or its runtime was disposed) or saying its engine crashed ends their requests at
 * once, instead of after the keepalive's silence bound.
 */

/** What the registry needs of a channel: to be told its page's engine is gone, or crashed. */
export interface GoneListener {
  engineGone(): void;
  engineCrashed(reason: string): void;
}

const byClient = new Map<string, Set<GoneListener>>();

/** Registers `channel` as served by the page `clientId`; the returned function unregisters it. */
export function trackChannel(clientId: string, channel: GoneListener): () => void {
  const open = byClient.get(clientId) ?? new Set<GoneListener>();
  byClient.set(clientId, open);
  open.add(channel);
  return () => {
    open.delete(channel);
    if (open.size === 0 && byClient.get(clientId) === open) byClient.delete(clientId);
  };
}

/** The page `clientId` stopped its engine: every channel it served ends with `engine_gone`. */
export function endChannelsOf(clientId: string): void {
  for (const channel of [...(byClient.get(clientId) ?? [])]) channel.engineGone();
}

/** The engine worker of page `clientId` died (`reason`): every channel it served ends with `engine_crashed`. */
export function crashChannelsOf(clientId: string, reason: string): void {
  for (const channel of [...(byClient.get(clientId) ?? [])]) channel.engineCrashed(reason);
}
