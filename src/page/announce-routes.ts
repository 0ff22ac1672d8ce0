/**
 * The page's side of routing: tells the Service Worker its route table (`routes.set`, awaited,
 * so `ready` never resolves before the SW routes; a restarted SW that asks for it again is
 * answered by answer-service-worker.ts). A page without a table announces null: device-only.
 */
import { ask } from '../core/protocol/ask';
import { ServiceUnavailableError } from '../core/domain/errors';
import type { PageToSw } from '../core/protocol/protocol';
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
