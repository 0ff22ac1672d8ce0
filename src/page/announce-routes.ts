/**
 * The page's side of routing: tells the Service Worker its route table (`routes.set`, awaited,
 * so `ready` never resolves before the SW routes), and answers a restarted SW that asks for it
 * again (`routes.query`). A page without a table announces null: device-only.
 */
import { ask } from '../core/protocol/ask';
import { ServiceUnavailableError } from '../core/domain/errors';
import { isSwToPageMain, message, type PageToSw, type Reply } from '../core/protocol/protocol';
import type { RouteInfo } from '../core/route-table/route-info';

export async function announceRoutes(info: RouteInfo, timeoutMs: number): Promise<void> {
  const controller = navigator.serviceWorker.controller;
  if (!controller)
    throw new ServiceUnavailableError('No Service Worker controls this page: routes not set.', 'sw_not_controlling');
  const ack = await ask<PageToSw, 'routes.set', 'routes.ack'>(controller, 'routes.set', info, 'routes.ack', timeoutMs);
  if (!ack) throw new ServiceUnavailableError('The Service Worker did not take the route table in time.', 'sw_timeout');
  if (ack.error !== null)
    throw new ServiceUnavailableError(
      `The Service Worker refused the route table: ${ack.error}`,
      'invalid_route_table',
    );
}

/** Answers `routes.query` with the current info (`get`); returns the detach function. */
export function serveRouteQueries(get: () => RouteInfo): () => void {
  const container = navigator.serviceWorker;
  const onMessage = (event: MessageEvent<unknown>) => {
    if (!isSwToPageMain(event.data) || event.data.type !== 'routes.query' || !event.ports[0]) return;
    event.ports[0].postMessage(message<Reply, 'routes.set'>('routes.set', get()));
  };
  container.addEventListener('message', onMessage);
  container.startMessages();
  return () => container.removeEventListener('message', onMessage);
}
