/**
 * The route ids of a page's table as `/v1/models` lists them, beside the engines' models: a
 * route whose id no engine serves (a remote-only route, or one whose device runs another id)
 * is one more model object, `owned_by: 'inpage-llm-route'`. The `*` route is not listed.
 */
import type { ModelCard } from '#core/domain/model-card';
import type { RouteInfo } from '#core/route-table/route-info';
import { ANY_MODEL_ROUTE } from '#core/route-table/route-table-schema';

export interface RouteCard {
  id: string;
  object: 'model';
  created: number;
  owned_by: 'inpage-llm-route';
  /** Its targets, in order. */
  targets: string[];
}

export function withRouteCards(cards: ModelCard[], info: RouteInfo | null): Array<ModelCard | RouteCard> {
  const routes = Object.entries(info?.table?.routes ?? {});
  const extra = routes
    // `*` is no model a client can name: it takes the names nothing else serves.
    .filter(([id]) => id !== ANY_MODEL_ROUTE && !cards.some((card) => card.id === id))
    .map(([id, route]): RouteCard => ({
      id,
      object: 'model',
      created: 0,
      owned_by: 'inpage-llm-route',
      targets: route.targets,
    }));
  return [...cards, ...extra];
}
