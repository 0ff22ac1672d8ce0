/**
 * The routing step of every generating and embedding route: a request whose `model` is a route
 * of the page's table goes to that route's targets in turn (see `select-targets.ts`), the
 * in-page engine (`device`, under the page's model id) or an upstream (`forward.ts`), moving on
 * only before the first byte and only for the failures the route's `fallbackOn` names. Any
 * other request goes to the device as without a table. Every answer, errors included, carries
 * `X-Inpage-Provider` (the target that answered, or the last one tried).
 */
import { OpenAIError, toOpenAIError } from '#core/domain/errors';
import { isRecord } from '#core/util/is-record';
import {
  ANY_MODEL_ROUTE,
  DEVICE_TARGET,
  FALLBACK_CAUSES,
  type RouteConfig,
  type UpstreamConfig,
} from '#core/route-table/route-table-schema';
import type { RouteInfo } from '#core/route-table/route-info';
import { checkApiKey } from '../check-api-key';
import { engineClients, modelCards } from '../engine-clients';
import { errorResponse, type Dialect } from '../dialect/dialect';
import type { Route, RouteEvent } from '../route';
import { coolDown, isCooling } from './cool-down';
import { forwardToUpstream } from './forward';
import { answerFrom, tagged } from './provider-header';
import { applyParamPolicy } from './param-policy';
import { readProvider } from './provider-request';
import { requiredFeatures } from './required-features';
import { routeInfoFor } from './route-state';
import { selectTargets } from './select-targets';
import { failureOf } from './target-failure';

const turns = new Map<string, number>();

/** `device` wrapped in the routing step for the route at `path` (under the prefix). */
export function withRoutes(clients: Clients, path: string, dialect: Dialect, device: Route['handle']): Route['handle'] {
  return async (event) => {
    const info = await routeInfoFor(clients, event.clientId);
    if (!info) return answerFrom(DEVICE_TARGET, () => device(event), dialect);
    // Read once, never cloned: a cloned body is teed through script, ~2 ms here per request.
    const text = await event.request.text();
    const routed = await routedBody(text, info, () => servedIds(clients, event.clientId));
    if (!routed) return answerFrom(DEVICE_TARGET, () => device(withText(event, text)), dialect);
    try {
      checkApiKey(event.request, info.apiKey, dialect);
      return await runRoute(info, routed.id, routed.body, { event, path, dialect, device });
    } catch (error) {
      return tagged(errorResponse(dialect, toOpenAIError(error)), routed.route.targets[0] ?? DEVICE_TARGET);
    }
  };
}

interface Context {
  event: RouteEvent;
  path: string;
  dialect: Dialect;
  device: Route['handle'];
}

async function runRoute(
  info: RouteInfo,
  id: string,
  raw: Record<string, unknown>,
  context: Context,
): Promise<Response> {
  const table = info.table;
  const route = table?.routes[id];
  if (!table || !route) throw new Error(`route '${id}' vanished`);
  const { provider: providerField, ...rest } = applyParamPolicy(raw, route.params);
  const provider = readProvider(providerField, route.targets);
  const turn = turns.get(id) ?? 0;
  turns.set(id, turn + 1);
  const targets = selectTargets({ table, routeId: id, provider, needs: requiredFeatures(rest), isCooling, turn });
  let last: { target: string; error: OpenAIError } | null = null;
  for (const target of targets) {
    try {
      const response =
        target === DEVICE_TARGET
          ? await context.device(withBody(context.event, { ...rest, model: info.device }))
          : await forward(table.upstreams?.[target], target, route, rest, context);
      return tagged(response, target);
    } catch (thrown) {
      const failure = failureOf(thrown, target === DEVICE_TARGET);
      if (!failure) throw thrown;
      last = { target, error: failure.error };
      if (failure.fallback === null || !(route.fallbackOn ?? FALLBACK_CAUSES).includes(failure.fallback))
        return tagged(errorResponse(context.dialect, failure.error), target);
      if (target !== DEVICE_TARGET) coolDown(target);
      if (context.event.request.signal.aborted) break;
    }
  }
  if (!last) throw new Error(`route '${id}' has no target`);
  return tagged(errorResponse(context.dialect, last.error), last.target);
}

function forward(
  upstream: UpstreamConfig | undefined,
  name: string,
  route: RouteConfig,
  body: Record<string, unknown>,
  context: Context,
): Promise<Response> {
  if (!upstream) throw new Error(`upstream '${name}' vanished`);
  return forwardToUpstream({
    name,
    upstream,
    path: context.path,
    body,
    signal: context.event.request.signal,
    timeoutMs: route.timeoutMs,
    dialect: context.dialect,
  });
}

/**
 * The body and its route, when its `model` is a route of the table, or no route and no engine
 * serves it (by id or alias) and the table has the `*` route (else null: the device answers as without one).
 */
async function routedBody(text: string, info: RouteInfo, served: () => Promise<Set<string>>) {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return null;
  }
  if (!isRecord(body) || typeof body['model'] !== 'string' || !info.table) return null;
  const { routes } = info.table;
  const model = body['model'];
  const id = Object.hasOwn(routes, model)
    ? model
    : Object.hasOwn(routes, ANY_MODEL_ROUTE) && model !== info.device && !(await served()).has(model)
      ? ANY_MODEL_ROUTE
      : null;
  const route = id === null ? undefined : routes[id];
  return id !== null && route ? { id, route, body } : null;
}

/**
 * The model names the open pages' engines answer to: ids and aliases (their catalogues' loadable
 * ids too: a request may load one).
 */
async function servedIds(clients: Clients, requesterId: string): Promise<Set<string>> {
  const cards = modelCards(await engineClients(clients, requesterId, true));
  return new Set(cards.flatMap((card) => [card.id, ...(card.aliases ?? [])]));
}

/** The same request with another JSON body (the device reads the route's body, under the page's model id). */
function withBody(event: RouteEvent, body: Record<string, unknown>): RouteEvent {
  return withText(event, JSON.stringify(body));
}

/** The same request with the body `text` (the original's body has been read). */
function withText(event: RouteEvent, text: string): RouteEvent {
  const { request } = event;
  const headers = new Headers(request.headers);
  headers.delete('content-length');
  const next = new Request(request.url, {
    method: 'POST',
    headers,
    body: text,
    signal: request.signal,
  });
  return { request: next, clientId: event.clientId };
}
