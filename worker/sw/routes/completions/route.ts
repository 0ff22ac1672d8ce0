/**
 * `POST <prefix>/completions`: the key is checked first (401, as OpenAI), then the body is
 * validated and checked against the model's capabilities here; only a request the model can
 * serve reaches the engine.
 */
import { validateCompletion } from '#core/openai/validate-completion';
import { engineFor } from '../../engine-for';
import { jsonResponse, openGeneration, sseResponse } from '../../engine-response';
import { readJson } from '../../read-json';
import type { Route } from '../../route';
import { completionMeta } from './completion-builder';
import { completionJson, completionStream } from './format';

export function completionsRoute(clients: Clients, prefix: string): Route {
  return {
    method: 'POST',
    path: `${prefix}/completions`,
    async handle(event) {
      const request = await engineFor(
        clients,
        event,
        async () => validateCompletion(await readJson(event.request)),
        (body) => body,
      );
      const generation = await openGeneration(request, event.request.signal);
      const meta = completionMeta(request.body.model);
      return request.body.stream
        ? sseResponse(generation, completionStream(meta, request.body))
        : jsonResponse(generation, completionJson(meta, request.body));
    },
  };
}
