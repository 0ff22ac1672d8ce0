import { validateCompletion } from '../../../src/core/openai/validate-completion';
import { completionResponse } from '../completion-response';
import { engineClients, pickEngineClient } from '../engine-clients';
import { readJson } from '../read-json';
import type { Route } from '../route';

/** `POST /v1/completions`: validated here; only a valid request wakes the engine. */
export function completionsRoute(clients: Clients): Route {
  return {
    method: 'POST',
    path: '/v1/completions',
    async handle(event) {
      const request = validateCompletion(await readJson(event.request));
      const { client } = pickEngineClient(await engineClients(clients, event.clientId), request.model);
      return completionResponse(client, request, event.request.signal);
    },
  };
}
