import type { ModelCard } from '#core/domain/model-card';
import type { ListResponse } from '#core/openai/types';
import { checkApiKey } from '../check-api-key';
import { engineClients, modelCards } from '../engine-clients';
import { OPENAI_DIALECT } from '../dialect/openai-dialect';
import type { Route } from '../route';
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
    async handle(event) {
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
    },
  };
}
