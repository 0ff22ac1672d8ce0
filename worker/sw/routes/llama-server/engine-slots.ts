/**
 * What `GET /slots` and `/metrics` read of the models' slots from their engines: each engine is
 * asked again (`engine.query` with `slots`; an engine worker answers from its own memory, no turn
 * on a model's queue), as a page's announcement says only which slots are busy.
 */
import type { ModelSlots } from '#core/domain/slots';
import { queryClient, type EngineClient } from '../../engine-clients';

/** Each engine with its models' slots (as it answered before, without them, where it is silent now). */
export function withSlots(engines: EngineClient[]): Promise<EngineClient[]> {
  return Promise.all(
    engines.map(async (engine) => (await queryClient(engine.client, false, undefined, true)) ?? engine),
  );
}

/** Each model's slots, from the first engine that lists it (as its card: modelCards). */
export function slotsByModel(engines: EngineClient[]): Map<string, ModelSlots> {
  return new Map(engines.flatMap((engine) => Object.entries(engine.slots ?? {})).reverse());
}
