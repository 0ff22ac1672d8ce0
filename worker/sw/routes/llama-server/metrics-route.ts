/**
 * `GET /metrics` beside the route prefix, as llama-server answers it with `--metrics`: the
 * Prometheus text of the Service Worker's per-model counters (`worker/sw/metrics/`), with the
 * API key checked as on the other llama-server routes. The counters start at zero whenever the
 * Service Worker starts (docs/llama-server-endpoints.md).
 */
import { prefixParent } from '#core/domain/route-prefix';
import { checkApiKey } from '../../check-api-key';
import { LLAMA_SERVER_DIALECT } from '../../dialect/llama-server-dialect';
import { engineClients } from '../../engine-clients';
import { scrapeCounters } from '../../metrics/model-metrics';
import { prometheusText } from '../../metrics/prometheus-text';
import type { Route } from '../../route';

export function metricsRoute(clients: Clients, prefix: string): Route {
  return {
    method: 'GET',
    dialect: LLAMA_SERVER_DIALECT,
    path: `${prefixParent(prefix)}/metrics`,
    async handle(event) {
      const engines = await engineClients(clients, event.clientId);
      checkApiKey(event.request, engines[0]?.apiKey ?? null, LLAMA_SERVER_DIALECT);
      return new Response(prometheusText(scrapeCounters()), {
        headers: { 'content-type': 'text/plain; version=0.0.4' },
      });
    },
  };
}
