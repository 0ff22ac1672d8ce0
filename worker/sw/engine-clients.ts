import { NotFoundError, ServiceUnavailableError } from '#core/domain/errors';
import type { ModelCard } from '#core/domain/model-card';
import { ask } from '#core/protocol/ask';
import type { SlotsByModel, SwToPage } from '#core/protocol/protocol';
import { announced, dropInbox, jobTarget } from './engine-inboxes';

const QUERY_TIMEOUT_MS = 2000;

/** A window client that owns an engine, with the models it serves. */
export interface EngineClient {
  client: Client;
  models: ModelCard[];
  /** The key its runtime was started with; requests it serves must carry it. */
  apiKey: string | null;
  /** The models whose engine it starts when their tab goes (a follower in line for the lock). */
  standby: string[];
  /** Its models' slots, where it was asked (`GET /slots`, `/metrics`). */
  slots?: SlotsByModel;
}

/**
 * Asks one page which models its engine serves (its engine worker answers, when the page handed
 * this SW its inbox), with what their slots run where `slots`; null if it has no engine or does
 * not answer.
 */
export async function queryClient(
  client: Client,
  catalogue = false,
  timeoutMs = QUERY_TIMEOUT_MS,
  slots = false,
): Promise<EngineClient | null> {
  const info = await ask<SwToPage, 'engine.query', 'engine.info'>(
    jobTarget(client),
    'engine.query',
    { catalogue, ...(slots ? { slots } : {}) },
    'engine.info',
    timeoutMs,
  );
  if (!info) return null;
  const { models, apiKey, standby = [], slots: states } = info;
  return { client, models, apiKey, standby, ...(states ? { slots: states } : {}) };
}

/**
 * Which pages run an engine, as far as this SW instance knows: pages say `client.hello` when
 * their runtime starts and `client.goodbye` when it stops. Only a hint: the pages are still
 * asked for their models on every request, and a restarted SW (Chromium stops idle ones)
 * starts with no hints and asks every window instead.
 */
export const engineHints = new Set<string>();

/**
 * The pages with engines, the requesting page first (with `catalogue`, their loadable models too;
 * with `slots`, their models' slots: `GET /slots`, `/metrics`).
 */
export async function engineClients(
  clients: Clients,
  requesterId: string,
  catalogue = false,
  slots = false,
): Promise<EngineClient[]> {
  // A page that runs the engine itself, as its engine announced it: no question needed, but for
  // its slots (an announcement says only which are busy), which it is asked for.
  const announcedOwn = catalogue ? null : announced(requesterId);
  if (announcedOwn)
    return [
      slots ? ((await queryClient(announcedOwn.client, false, QUERY_TIMEOUT_MS, true)) ?? announcedOwn) : announcedOwn,
    ];
  const windows = await clients.matchAll({ type: 'window', includeUncontrolled: true });
  const live = new Set(windows.map((client) => client.id));
  for (const id of engineHints) {
    if (live.has(id)) continue;
    engineHints.delete(id);
    dropInbox(id);
  }
  // With hints, ask only the pages that have a runtime (a page without one never answers).
  const candidates = engineHints.size > 0 ? windows.filter((client) => engineHints.has(client.id)) : windows;
  const requester = candidates.find((client) => client.id === requesterId);
  if (requester) {
    const own = await queryClient(requester, catalogue, QUERY_TIMEOUT_MS, slots);
    if (own && own.models.length > 0) return [own];
  }
  const answers = await Promise.all(
    candidates
      .filter((client) => client !== requester)
      .map((client) => queryClient(client, catalogue, QUERY_TIMEOUT_MS, slots)),
  );
  const engines = answers.filter((answer): answer is EngineClient => answer !== null && answer.models.length > 0);
  for (const engine of engines) engineHints.add(engine.client.id);
  return engines;
}

/**
 * The page that serves `model` (a model's id, else one of its aliases) and its card: 404 if no
 * engine knows it, 503 if none is open or it failed.
 */
export function pickEngineClient(engines: EngineClient[], model: string): { engine: EngineClient; card: ModelCard } {
  if (engines.length === 0) {
    throw new ServiceUnavailableError(
      'No page with an in-page engine is open: the engine is not loaded.',
      'engine_not_loaded',
    );
  }
  // A model's id wins over another model's alias, in whichever page either is.
  const byId = engines.some((engine) => engine.models.some((card) => card.id === model));
  const names = (card: ModelCard) => (byId ? card.id === model : (card.aliases?.includes(model) ?? false));
  let failed: ModelCard | undefined;
  for (const engine of engines) {
    const card = engine.models.find(names);
    if (card?.status === 'available') {
      throw new ServiceUnavailableError(
        `The model '${model}' is in the catalogue but not loaded: load it first (inpage.load('${model}')).`,
        'model_not_loaded',
      );
    }
    if (card && card.status !== 'failed') return { engine, card };
    failed ??= card;
  }
  if (failed) {
    throw new ServiceUnavailableError(
      `The model '${model}' failed to load: ${failed.error ?? 'unknown error'}`,
      failed.error_code ?? 'model_load_failed',
    );
  }
  throw new NotFoundError(`The model '${model}' does not exist or is not available in this page.`, 'model');
}

/**
 * Every model of these engines, once per id, as `/v1/models` lists it: a model some page serves
 * (or failed to load) wins over the same id listed only as loadable (`available`). The
 * capabilities the SW checks requests against stay internal.
 */
export function modelCards(engines: EngineClient[]): ModelCard[] {
  const byId = new Map<string, ModelCard>();
  for (const engine of engines) {
    for (const card of engine.models)
      if (!byId.has(card.id) || byId.get(card.id)?.status === 'available') byId.set(card.id, card);
  }
  return [...byId.values()].map(({ capabilities: _internal, ...card }) => card);
}
