/**
 * The slots `GET /slots` lists and `POST /slots/{id}` acts on: each model that an engine here has
 * ready, in the order the engines list them, has as many as its card's `slots` (one where it has
 * none); a slot's id is its index in that list, `slot` its index among its model's.
 */
import type { ModelCard } from '#core/domain/model-card';
import { modelCards, type EngineClient } from '../../engine-clients';

export interface ReadySlot {
  card: ModelCard;
  slot: number;
}

export function readySlots(engines: EngineClient[]): ReadySlot[] {
  return modelCards(engines)
    .filter((card) => card.status === 'ready')
    .flatMap((card) => Array.from({ length: Math.max(1, card.slots ?? 1) }, (_, slot) => ({ card, slot })));
}
