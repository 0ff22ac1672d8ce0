/**
 * What every generating route does before the engine is woken: check the API key (401 first,
 * as OpenAI), validate the body, find the page that serves its model, and check the neutral
 * request against the model's capabilities (400s for what it cannot honour, over-long prompts).
 */
import { checkCapabilities, type ModelCapabilities } from '../../src/core/capabilities';
import { NotFoundError } from '../../src/core/errors';
import type { GenerationRequest } from '../../src/core/generation';
import { checkApiKey, engineClients, pickEngineClient, type EngineClient } from './engine-clients';
import type { RouteEvent } from './route';

/** A validated request, its neutral form, and the page whose engine will run it. */
export interface Routed<B, R = GenerationRequest> {
  body: B;
  generation: R;
  client: Client;
}

/** Validates with `validate`, maps with `toGeneration`, and routes the request to a page's engine. */
export function engineFor<B extends { model: string }>(
  clients: Clients,
  event: RouteEvent,
  validate: () => Promise<B>,
  toGeneration: (body: B) => GenerationRequest,
): Promise<Routed<B>> {
  return routeToEngine(clients, event, validate, toGeneration, checkCapabilities);
}

/** `engineFor` for any neutral request, checked against the model's capabilities by `check`. */
export async function routeToEngine<B extends { model: string }, R>(
  clients: Clients,
  event: RouteEvent,
  validate: () => Promise<B>,
  toRequest: (body: B) => R,
  check: (capabilities: ModelCapabilities, request: R) => void,
): Promise<Routed<B, R>> {
  const engines = await engineClients(clients, event.clientId);
  checkApiKey(event.request, engines[0]?.apiKey ?? null);
  const body = await validate();
  const generation = toRequest(body);
  const { engine, card } = await pickOrExplain(clients, event.clientId, engines, body.model);
  checkApiKey(event.request, engine.apiKey);
  if (card.capabilities) check(card.capabilities, generation);
  return { body, generation, client: engine.client };
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
