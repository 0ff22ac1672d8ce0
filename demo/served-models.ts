import type { ModelCard } from '../src/index';

/** What `GET /v1/models` returns right now (the cards only; empty when it fails). */
export async function fetchServedModels(): Promise<ModelCard[]> {
  const response = await fetch('/v1/models').catch(() => null);
  const list: unknown = await response?.json().catch(() => null);
  const data: unknown = typeof list === 'object' && list !== null ? Reflect.get(list, 'data') : null;
  return Array.isArray(data) ? data.filter(isModelCard) : [];
}

function isModelCard(value: unknown): value is ModelCard {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof Reflect.get(value, 'id') === 'string' &&
    typeof Reflect.get(value, 'status') === 'string'
  );
}
