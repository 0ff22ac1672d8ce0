/**
 * The slots `GET /slots` lists and `POST /slots/{id}` acts on: one per model that an engine
 * here has ready, in the order the engines list them; a slot's id is its index.
 */
import type { ModelCard } from '#core/domain/model-card';
import { modelCards, type EngineClient } from '../../engine-clients';

export function readySlots(engines: EngineClient[]): ModelCard[] {
  return modelCards(engines).filter((card) => card.status === 'ready');
}
