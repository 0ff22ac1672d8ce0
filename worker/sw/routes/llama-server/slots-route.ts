/**
 * `GET /slots` beside the route prefix, in llama-server's shape for an idle slot: each model that
 * an engine here has ready has its slots (one, or as many as it was loaded with), `{id, n_ctx,
 * speculative: false, is_processing}` plus `model` (its id; llama-server has one model, so no
 * such field). `is_processing` is true while the slot runs a request, as the engine announced it
 * (the card's `processing`; false where the backend does not say: WebLLM). The per-task fields
 * (`id_task`, `params`, `next_token`) are not given. `?fail_on_no_slot=1` is a 503 only when no
 * model is ready.
 */
import { ServiceUnavailableError } from '#core/domain/errors';
import { prefixParent } from '#core/domain/route-prefix';
import { checkApiKey } from '../../check-api-key';
import { LLAMA_SERVER_DIALECT } from '../../dialect/llama-server-dialect';
import { engineClients } from '../../engine-clients';
import type { Route } from '../../route';
import { readySlots } from './ready-slots';

const JSON_HEADERS = { 'content-type': 'application/json' };

export function slotsRoute(clients: Clients, prefix: string): Route {
  return {
    method: 'GET',
    dialect: LLAMA_SERVER_DIALECT,
    path: `${prefixParent(prefix)}/slots`,
    async handle(event) {
      const engines = await engineClients(clients, event.clientId);
      checkApiKey(event.request, engines[0]?.apiKey ?? null, LLAMA_SERVER_DIALECT);
      const ready = readySlots(engines);
      if (ready.length === 0 && new URL(event.request.url).searchParams.get('fail_on_no_slot'))
        throw new ServiceUnavailableError('no slot available', 'unavailable_error');
      const slots = ready.map(({ card, slot }, id) => ({
        id,
        n_ctx: card.context_length ?? card.capabilities?.context_length ?? 0,
        // llama-server's can_speculate(): a server-wide speculative setup; here, a draft model.
        speculative: card.draft_model !== undefined,
        is_processing: card.processing?.includes(slot) ?? false,
        model: card.id,
      }));
      return new Response(JSON.stringify(slots), { headers: JSON_HEADERS });
    },
  };
}
