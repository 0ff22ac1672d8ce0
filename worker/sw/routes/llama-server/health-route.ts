/**
 * `GET /health` beside the route prefix, as llama.cpp's server answers it (without a key, as
 * there): `{"status":"ok"}` once an engine here has a model ready, else a 503 in llama-server's
 * shape (`Loading model` while one loads).
 */
import { ServiceUnavailableError } from '#core/domain/errors';
import { prefixParent } from '#core/domain/route-prefix';
import { LLAMA_SERVER_DIALECT } from '../../dialect/llama-server-dialect';
import { engineClients, modelCards } from '../../engine-clients';
import type { Route } from '../../route';

export function healthRoute(clients: Clients, prefix: string): Route {
  return {
    method: 'GET',
    dialect: LLAMA_SERVER_DIALECT,
    path: `${prefixParent(prefix)}/health`,
    async handle(event) {
      const cards = modelCards(await engineClients(clients, event.clientId));
      if (cards.some((card) => card.status === 'ready'))
        return new Response(JSON.stringify({ status: 'ok' }), { headers: { 'content-type': 'application/json' } });
      const loading = cards.some((card) => card.status === 'loading');
      throw new ServiceUnavailableError(loading ? 'Loading model' : 'No model is loaded', 'unavailable_error');
    },
  };
}
