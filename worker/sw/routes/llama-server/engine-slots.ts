/**
 * What `GET /slots` and `/metrics` read of the models' slots from their engines: the pages with
 * engines, each asked for its models' slots (`engine.query` with `slots`; an engine worker answers
 * from its own memory, no turn on a model's queue), as a page's announcement says only which
 * slots are busy.
 */
import type { ModelSlots } from '#core/domain/slots';
import { engineClients, type EngineClient } from '../../engine-clients';

/** The pages with engines (engineClients), with their models' slots. */
export function engineClientsWithSlots(clients: Clients, requesterId: string): Promise<EngineClient[]> {
  return engineClients(clients, requesterId, false, true);
}

/** Each model's slots, from the first engine that lists it (as its card: modelCards). */
export function slotsByModel(engines: EngineClient[]): Map<string, ModelSlots> {
  return new Map(engines.flatMap((engine) => Object.entries(engine.slots ?? {})).reverse());
}
