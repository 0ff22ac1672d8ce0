/**
 * The slots `GET /slots` lists and `POST /slots/{id}` acts on: each model that an engine here has
 * ready, in the order the engines list them, has as many as its card's `slots` (one where it has
 * none); a slot's id is its index in that list, `slot` its index among its model's. With `model`
 * (`?model=`, or a POST body's `model`: llama-server's router mode, which hands the request to
 * that model's own server), only that model's slots, their ids its own (0 to its slots - 1); a
 * model no engine here serves is the 404 (or 503) every route gives it.
 */
import type { ModelCard } from '#core/domain/model-card';
import { modelCards, pickEngineClient, type EngineClient } from '../../engine-clients';

export interface ReadySlot {
  card: ModelCard;
  slot: number;
}

export function readySlots(engines: EngineClient[], model: string | null = null): ReadySlot[] {
  const id = model === null ? null : pickEngineClient(engines, model).card.id;
  return modelCards(engines)
    .filter((card) => card.status === 'ready' && (id === null || card.id === id))
    .flatMap((card) => Array.from({ length: Math.max(1, card.slots ?? 1) }, (_, slot) => ({ card, slot })));
}
