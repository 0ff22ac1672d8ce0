/**
 * The model a llama-server GET endpoint (`/props`, `/slots`) speaks of: the one named in
 * `?model=`, else the first an engine here has ready; none ready is llama-server's 503
 * (`Loading model` while one loads), as `/health` answers it.
 */
import { ServiceUnavailableError } from '#core/domain/errors';
import type { ModelCard } from '#core/domain/model-card';
import { engineClients, modelCards } from '../../engine-clients';

/** The ready (or loading) models of the engines here, in their pages' order. */
export async function servedCards(clients: Clients, clientId: string): Promise<ModelCard[]> {
  const cards = modelCards(await engineClients(clients, clientId));
  return cards.filter((card) => card.status === 'ready' || card.status === 'loading');
}

/** The model `named`, or the first ready one; a 503 when none is ready. */
export async function readyModel(clients: Clients, clientId: string, named: string | null): Promise<string> {
  if (named) return named;
  const cards = await servedCards(clients, clientId);
  const ready = cards.find((card) => card.status === 'ready');
  if (ready) return ready.id;
  throw new ServiceUnavailableError(cards.length > 0 ? 'Loading model' : 'No model is loaded', 'unavailable_error');
}
