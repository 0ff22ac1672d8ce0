import type { ModelCard } from '#core/domain/model-card';
import type { ListResponse } from '#core/openai/types';
import { checkApiKey } from '../check-api-key';
import { engineClients, modelCards } from '../engine-clients';
import { OPENAI_DIALECT } from '../dialect/openai-dialect';
import type { Route, RouteEvent } from '../route';
import { DEVICE_TARGET } from '#core/route-table/route-table-schema';
import { answerFrom } from '../upstream/provider-header';
import { routeInfoFor } from '../upstream/route-state';
import { withRouteCards, type RouteCard } from '../upstream/route-cards';

/**
 * `GET <prefix>/models`: every model the open pages' engines serve, then the ones they could
 * load (`status: 'available'`, e.g. WebLLM's catalogue), then the page's route ids, in OpenAI's list shape.
 */
export function modelsRoute(clients: Clients, prefix: string): Route {
  return {
    method: 'GET',
    dialect: OPENAI_DIALECT,
    path: `${prefix}/models`,
    // Made here, from the engines' cards and the page's table: no upstream is asked (offline too).
    handle: (event) => answerFrom(DEVICE_TARGET, () => listModels(clients, event), OPENAI_DIALECT),
  };
}

async function listModels(clients: Clients, event: RouteEvent): Promise<Response> {
  const [engines, routing] = await Promise.all([
    engineClients(clients, event.clientId, true),
    routeInfoFor(clients, event.clientId),
  ]);
  checkApiKey(event.request, routing?.apiKey ?? engines[0]?.apiKey ?? null);
  const list: ListResponse<ModelCard | RouteCard> = {
    object: 'list',
    data: withRouteCards(modelCards(engines), routing),
  };
  return new Response(JSON.stringify(list), { headers: { 'content-type': 'application/json' } });
}
