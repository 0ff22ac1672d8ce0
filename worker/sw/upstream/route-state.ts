/**
 * The route tables in this Service Worker's memory, one per page that announced one (keys live
 * only here and in that page). A restarted SW (Chromium stops idle ones) knows none: it asks the
 * requesting page once, briefly; a page without a runtime never answers, and then takes the
 * first runtime page's table (a same-origin tool such as llama.cpp's SimpleChat, in a tab of
 * its own), as a request without a client does; with no table anywhere it is device-only.
 */
import { ask } from '#core/protocol/ask';
import type { SwToPageMain } from '#core/protocol/protocol';
import { parseRouteTable } from '#core/route-table/parse-route-table';
import type { RouteInfo } from '#core/route-table/route-info';

const QUERY_TIMEOUT_MS = 250;
const tables = new Map<string, RouteInfo | null>();

/** Takes a page's announcement, re-validated here (it crossed a message boundary); throws a `RouteTableError`. */
export function setRouteInfo(clientId: string, info: { table: unknown; device: unknown; apiKey: unknown }): void {
  if (typeof info.device !== 'string') throw new TypeError('routes.set: device must be a model id');
  if (info.apiKey !== null && typeof info.apiKey !== 'string')
    throw new TypeError('routes.set: apiKey must be a string or null');
  const table = info.table === null ? null : parseRouteTable(info.table);
  tables.set(clientId, { table, device: info.device, apiKey: info.apiKey });
}

/** The routing of the page `clientId`: null when it has no route table (device-only). */
export async function routeInfoFor(clients: Clients, clientId: string): Promise<RouteInfo | null> {
  if (!clientId) return firstTable();
  if (!tables.has(clientId)) {
    const client = await clients.get(clientId);
    const answer = client
      ? await ask<SwToPageMain, 'routes.query', 'routes.set'>(
          client,
          'routes.query',
          {},
          'routes.set',
          QUERY_TIMEOUT_MS,
        )
      : null;
    try {
      if (answer) setRouteInfo(clientId, answer);
    } catch (error) {
      console.error(
        '[inpage-llm] a page answered an invalid route table:',
        error instanceof Error ? error.message : error,
      );
    }
    if (!tables.has(clientId)) tables.set(clientId, null);
  }
  const info = tables.get(clientId) ?? null;
  if (info === null) return firstTable();
  return info.table ? info : null;
}

/** A request with no client (a worker's): the first page's table that has one. */
function firstTable(): RouteInfo | null {
  for (const info of tables.values()) if (info?.table) return info;
  return null;
}
