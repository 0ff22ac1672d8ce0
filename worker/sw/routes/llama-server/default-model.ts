/**
 * llama-server serves one model, so its clients send no `model`: a body without one is for the
 * first model an engine here has ready (else it stays without, and the route's 400 names `model`).
 */
import { isRecord } from '#core/util/is-record';
import { engineClients, modelCards } from '../../engine-clients';

export async function withDefaultModel(json: unknown, clients: Clients, clientId: string): Promise<unknown> {
  if (!isRecord(json) || json.model != null) return json;
  const ready = modelCards(await engineClients(clients, clientId)).find((card) => card.status === 'ready');
  return ready ? { ...json, model: ready.id } : json;
}
