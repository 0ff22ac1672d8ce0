import { InvalidRequestError, NotFoundError } from '#core/domain/errors';
import { checkApiKey } from '../check-api-key';
import { engineClients, modelCards } from '../engine-clients';
import { OPENAI_DIALECT } from '../dialect/openai-dialect';
import type { Route, RouteEvent } from '../route';
import { DEVICE_TARGET } from '#core/route-table/route-table-schema';
import { answerFrom } from '../upstream/provider-header';
import { routeInfoFor } from '../upstream/route-state';
import { withRouteCards } from '../upstream/route-cards';

/**
 * `GET <prefix>/models/{model}`: one model of the open pages' engines (served first, then
 * loadable ones, then route ids), as OpenAI's retrieve answers it, found by its id or else by one
 * of its aliases (llama-server 0.7.0 has no such route: 404 for every name); an unknown name is a 404.
 */
export function modelRoute(clients: Clients, prefix: string): Route {
  return {
    method: 'GET',
    dialect: OPENAI_DIALECT,
    path: `${prefix}/models/*`,
    // Made here, from the engines' cards and the page's table: no upstream is asked (offline too).
    handle: (event) => answerFrom(DEVICE_TARGET, () => retrieveModel(clients, event), OPENAI_DIALECT),
  };
}

async function retrieveModel(clients: Clients, event: RouteEvent): Promise<Response> {
  const id = modelIdOf(event.request.url);
  const [engines, routing] = await Promise.all([
    engineClients(clients, event.clientId, true),
    routeInfoFor(clients, event.clientId),
  ]);
  checkApiKey(event.request, routing?.apiKey ?? engines[0]?.apiKey ?? null);
  const served = modelCards(engines);
  // An id (a model's or a route's) first, then a model's alias, as a request naming one is served.
  const card =
    withRouteCards(served, routing).find((candidate) => candidate.id === id) ??
    served.find((candidate) => candidate.aliases?.includes(id));
  if (!card) throw new NotFoundError(`The model '${id}' does not exist or is not available in this page.`, 'model');
  return new Response(JSON.stringify(card), { headers: { 'content-type': 'application/json' } });
}

/** The model id of the path's last segment; malformed percent-encoding (`%`, `%zz`, `%FF`) is a 400. */
function modelIdOf(url: string): string {
  const segment = new URL(url).pathname.split('/').pop() ?? '';
  try {
    return decodeURIComponent(segment);
  } catch {
    throw new InvalidRequestError(
      `The model id in the path is not valid percent-encoded UTF-8: '${segment}'.`,
      'model',
      'invalid_model_id',
    );
  }
}
