/**
 * `GET /metrics` beside the route prefix, as llama-server answers it with `--metrics`: the
 * Prometheus text of the Service Worker's per-model counters (`worker/sw/metrics/`), with the
 * API key checked as on the other llama-server routes; `?model=` gives only that model's (llama-server's
 * router mode; a model no engine here serves is its 404 or 503). `n_decode_total` and
 * `n_busy_slots_per_decode` are the engines' own counts, asked at each scrape. The counters start at zero
 * whenever the Service Worker starts (docs/llama-server-endpoints.md).
 */
import { prefixParent } from '#core/domain/route-prefix';
import { checkApiKey } from '../../check-api-key';
import { LLAMA_SERVER_DIALECT } from '../../dialect/llama-server-dialect';
import { pickEngineClient } from '../../engine-clients';
import { scrapeCounters, type ModelCounters } from '../../metrics/model-metrics';
import { engineClientsWithSlots, slotsByModel } from './engine-slots';
import { prometheusText } from '../../metrics/prometheus-text';
import type { Route } from '../../route';

export function metricsRoute(clients: Clients, prefix: string): Route {
  return {
    method: 'GET',
    dialect: LLAMA_SERVER_DIALECT,
    path: `${prefixParent(prefix)}/metrics`,
    async handle(event) {
      // The decodes are the engines' own counts, asked now.
      const engines = await engineClientsWithSlots(clients, event.clientId);
      checkApiKey(event.request, engines[0]?.apiKey ?? null, LLAMA_SERVER_DIALECT);
      const named = new URL(event.request.url).searchParams.get('model');
      const model = named === null ? null : pickEngineClient(engines, named).card.id;
      const states = slotsByModel(engines);
      const counters = scrapeCounters(model).map(([id, c]): [string, ModelCounters] => {
        const state = states.get(id);
        return [id, { ...c, decodes: state?.decodes ?? 0, decodedSlots: state?.decodedSlots ?? 0 }];
      });
      return new Response(prometheusText(counters), {
        headers: { 'content-type': 'text/plain; version=0.0.4' },
      });
    },
  };
}
