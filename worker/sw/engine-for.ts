/**
 * What every generating route does before the engine is woken: check the API key (401 first,
 * as OpenAI), validate the body, find the page that serves its model, and check the neutral
 * request against the model's capabilities (400s for what it cannot honour, over-long prompts).
 */
import type { ModelCapabilities } from '#core/domain/capabilities';
import { NotFoundError, ServiceUnavailableError } from '#core/domain/errors';
import type { GenerationRequest } from '#core/domain/generation';
import { checkApiKey } from './check-api-key';
import { engineClients, pickEngineClient, type EngineClient } from './engine-clients';
import { awaitSuccessor } from './handover';
import type { Dialect } from './dialect/dialect';
import type { RouteEvent } from './route';

/** A validated request, its neutral form, and the page whose engine will run it. */
export interface Routed<B, R = GenerationRequest> {
  body: B;
  generation: R;
  client: Client;
  /** Whether its model was still loading (its job may wait behind the load, which blocks the engine's answers). */
  loading: boolean;
  /** The page that serves the model after its engine's page went (a handover), by `deadline`; null if none will. */
  successor(deadline: number): Promise<Client | null>;
}

/** How a route's request becomes a job: its dialect (for the key), validation, the job's request, its capability check. */
export interface JobIntake<B, R> {
  dialect: Dialect;
  /** Validates the body; `engines` are the pages with an engine, as the route found them. */
  validate(engines: EngineClient[]): Promise<B>;
  toRequest(body: B): R;
  check(capabilities: ModelCapabilities, request: R): void;
}

/** Validates, maps and routes a request to the page whose engine serves its model (see the file's comment). */
export async function routeToEngine<B extends { model: string }, R>(
  clients: Clients,
  event: RouteEvent,
  intake: JobIntake<B, R>,
): Promise<Routed<B, R>> {
  const { dialect } = intake;
  const engines = await engineClients(clients, event.clientId);
  checkApiKey(event.request, engines[0]?.apiKey ?? null, dialect);
  const named = await intake.validate(engines);
  const asked = intake.toRequest(named);
  const { engine, card } = await pickOrExplain(clients, event, engines, named.model);
  // A request naming an alias (llama-server's --alias) is run and answered under the model's id.
  const body = card.id === named.model ? named : { ...named, model: card.id };
  const generation = body === named ? asked : intake.toRequest(body);
  checkApiKey(event.request, engine.apiKey, dialect);
  if (card.capabilities) intake.check(card.capabilities, generation);
  const successor = async (deadline: number) => {
    const next = await awaitSuccessor(clients, body.model, event.request.signal, deadline);
    if (next) checkApiKey(event.request, next.apiKey, dialect);
    return next?.client ?? null;
  };
  return { body, generation, client: engine.client, loading: card.status === 'loading', successor };
}

/**
 * The page serving `model`. A model no page serves is asked about once more, catalogues
 * included, so one that could be loaded is a 503 `model_not_loaded`, not a 404; one whose
 * engine is being handed over to a tab standing by, or restarted after a crash, waits for the
 * new engine. Whether one stands by is asked of the pages every time, not taken from this SW
 * instance's memory of an engine that went: a SW stopped and started again meanwhile (Chromium
 * stops idle ones) had forgotten it, and answered 503 `engine_not_loaded` at once while the
 * page's new engine loaded.
 */
async function pickOrExplain(clients: Clients, event: RouteEvent, engines: EngineClient[], model: string) {
  try {
    return pickEngineClient(engines, model);
  } catch (error) {
    const notLoaded = error instanceof ServiceUnavailableError && error.code === 'engine_not_loaded';
    if (!(error instanceof NotFoundError) && !notLoaded) throw error;
    const successor = await awaitSuccessor(clients, model, event.request.signal);
    if (successor) return pickEngineClient([successor], model);
    if (notLoaded) throw error;
    return pickEngineClient(await engineClients(clients, event.clientId, true), model);
  }
}
