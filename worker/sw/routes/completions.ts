import { validateCompletion } from '../../../src/core/openai/validate-completion';
import { completionResponse } from '../completion-response';
import { checkApiKey, engineClients, pickEngineClient } from '../engine-clients';
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
      const { engine } = pickEngineClient(engines, request.model);
      checkApiKey(event.request, engine.apiKey);
      return completionResponse(engine.client, request, event.request.signal);
    },
  };
}
