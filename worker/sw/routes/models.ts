import type { ModelCard } from '#core/domain/model-card';
import type { ListResponse } from '#core/openai/types';
import { checkApiKey } from '../check-api-key';
import { engineClients, modelCards } from '../engine-clients';
import { OPENAI_DIALECT } from '../dialect/openai-dialect';
import type { Route } from '../route';

/**
 * `GET <prefix>/models`: every model the open pages' engines serve, then the ones they could
 * load (`status: 'available'`, e.g. WebLLM's catalogue), in OpenAI's list shape.
 */
export function modelsRoute(clients: Clients, prefix: string): Route {
  return {
    method: 'GET',
    dialect: OPENAI_DIALECT,
    path: `${prefix}/models`,
    async handle(event) {
      const engines = await engineClients(clients, event.clientId, true);
      checkApiKey(event.request, engines[0]?.apiKey ?? null);
      const list: ListResponse<ModelCard> = { object: 'list', data: modelCards(engines) };
      return new Response(JSON.stringify(list), { headers: { 'content-type': 'application/json' } });
    },
  };
}
