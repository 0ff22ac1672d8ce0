/**
 * A route table as `startInpage` takes it: the object, validated now, or the URL of its JSON
 * (the drop-in's `data-routes`, the playground's `&routes=`), fetched and validated at start.
 * Either way a bad table is a 400 `invalid_route_table` (param `routes`) saying where.
 */
import { InvalidRequestError } from '../core/domain/errors';
import { parseRouteTable } from '../core/route-table/parse-route-table';
import type { RouteTable } from '../core/route-table/route-table-schema';

const invalid = (message: string) => new InvalidRequestError(message, 'routes', 'invalid_route_table');

export function checkRouteTable(table: unknown): RouteTable {
  try {
    return parseRouteTable(table);
  } catch (error) {
    throw invalid(error instanceof Error ? error.message : String(error));
  }
}

export async function fetchRouteTable(url: string): Promise<RouteTable> {
  let response: Response;
  try {
    response = await fetch(new URL(url, document.baseURI), { cache: 'no-store' });
  } catch {
    throw invalid(`The route table at ${url} could not be fetched.`);
  }
  if (!response.ok) throw invalid(`The route table at ${url} answered HTTP ${response.status}.`);
  const json: unknown = await response.json().catch(() => {
    throw invalid(`The route table at ${url} is not JSON.`);
  });
  return checkRouteTable(json);
}
