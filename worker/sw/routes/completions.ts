import { validateCompletion } from '../../../src/core/openai/validate-completion';
import { completionResponse } from '../completion-response';
import { NotFoundError } from '../../../src/core/errors';
import { checkApiKey, engineClients, pickEngineClient, type EngineClient } from '../engine-clients';
import { readJson } from '../read-json';
import type { Route } from '../route';

/**
 * `POST <prefix>/completions`: the key is checked first (401, as OpenAI), then the body is
 * validated here; only a valid request reaches the engine.
 */
export function completionsRoute(clients: Clients, prefix: string): Route {
  return {
    method: 'POST',
    path: `${prefix}/completions`,
    async handle(event) {
      const engines = await engineClients(clients, event.clientId);
      checkApiKey(event.request, engines[0]?.apiKey ?? null);
      const request = validateCompletion(await readJson(event.request));
      const { engine } = await pickOrExplain(clients, event.clientId, engines, request.model);
      checkApiKey(event.request, engine.apiKey);
      return completionResponse(engine.client, request, event.request.signal);
    },
  };
}

/**
 * The page serving `model`. A model no page serves is asked about once more, catalogues
 * included, so one that could be loaded is a 503 `model_not_loaded`, not a 404.
 */
async function pickOrExplain(clients: Clients, requesterId: string, engines: EngineClient[], model: string) {
  try {
    return pickEngineClient(engines, model);
  } catch (error) {
    if (!(error instanceof NotFoundError)) throw error;
    return pickEngineClient(await engineClients(clients, requesterId, true), model);
  }
}
