/**
 * The targets a request tries, in order: the route's (its upstreams rotated when it balances
 * round-robin), reordered and filtered by the request's `provider`, minus targets that cannot
 * honour it (`require_parameters`) and targets cooling down (unless no other is left); just the
 * first when `allow_fallbacks` is false. None left is a 400 saying why.
 */
import { InvalidRequestError } from '#core/domain/errors';
import { DEVICE_TARGET, type RouteTable, type UpstreamFeature } from '#core/route-table/route-table-schema';
import type { ProviderRequest } from './provider-request';

export interface Selection {
  table: RouteTable;
  routeId: string;
  provider: ProviderRequest;
  needs: readonly UpstreamFeature[];
  isCooling(target: string): boolean;
  /** The route's round-robin turn (grows by one per request). */
  turn: number;
}

export function selectTargets({ table, routeId, provider, needs, isCooling, turn }: Selection): string[] {
  const route = table.routes[routeId];
  if (!route) return [];
  let list = route.balance === 'round-robin' ? rotateUpstreams(route.targets, turn) : [...route.targets];
  if (provider.order) list = [...provider.order, ...list.filter((name) => !provider.order?.includes(name))];
  if (provider.only) list = list.filter((name) => provider.only?.includes(name));
  if (provider.ignore) list = list.filter((name) => !provider.ignore?.includes(name));
  if (list.length === 0)
    throw new InvalidRequestError(
      `'provider' leaves no target of route '${routeId}' to try.`,
      'provider',
      'provider_no_targets',
    );
  if (provider.require_parameters) {
    const capable = list.filter((name) => supportsAll(table, name, needs));
    if (capable.length === 0)
      throw new InvalidRequestError(
        `No target of route '${routeId}' declares ${needs.join(', ')} (require_parameters).`,
        'provider',
        'provider_requirements_unmet',
      );
    list = capable;
  }
  const warm = list.filter((name) => !isCooling(name));
  if (warm.length > 0) list = warm;
  return provider.allow_fallbacks === false ? list.slice(0, 1) : list;
}

function supportsAll(table: RouteTable, name: string, needs: readonly UpstreamFeature[]): boolean {
  if (name === DEVICE_TARGET) return true;
  const supports = table.upstreams?.[name]?.supports ?? [];
  return needs.every((need) => supports.includes(need));
}

/** The upstreams' positions keep their place; which upstream sits in them turns. */
function rotateUpstreams(targets: readonly string[], turn: number): string[] {
  const upstreams = targets.filter((name) => name !== DEVICE_TARGET);
  if (upstreams.length < 2) return [...targets];
  let next = turn % upstreams.length;
  return targets.map((name) => (name === DEVICE_TARGET ? name : (upstreams[next++ % upstreams.length] ?? name)));
}
