/**
 * `GET /slots` beside the route prefix, in llama-server's shape: each model that an engine here
 * has ready has its slots (one, or as many as it was loaded with), `{id, n_ctx, speculative,
 * is_processing}` plus `model` (its id; llama-server has one model, so no such field).
 * `is_processing` is true while the slot runs a request, as the engine announced it (the card's
 * `processing`; false where the backend does not say: WebLLM). A slot that ran a generation has
 * llama-server's per-task fields too, of the one it runs or ran last (`SlotTask`): `id_task`, its
 * tokens, `params` (llama-server's set without `--slots-debug`: no `prompt` or `generated`) and
 * `next_token`; the engines are asked for them now, not read from their last announcement.
 * `?model=` lists only that model's slots, numbered from 0 (llama-server's router mode:
 * ready-slots.ts). `?fail_on_no_slot=1` is a 503 only when no model is ready.
 */
import { ServiceUnavailableError } from '#core/domain/errors';
import { prefixParent } from '#core/domain/route-prefix';
import type { SlotTask } from '#core/domain/slots';
import { checkApiKey } from '../../check-api-key';
import { LLAMA_SERVER_DIALECT } from '../../dialect/llama-server-dialect';
import type { Route } from '../../route';
import { slotParams } from './generation-settings';
import { engineClientsWithSlots, slotsByModel } from './engine-slots';
import { readySlots } from './ready-slots';

const JSON_HEADERS = { 'content-type': 'application/json' };

/** A slot's task as llama-server's `server_slot::to_json` has it. */
function taskFields(task: SlotTask) {
  return {
    id_task: task.id,
    n_prompt_tokens: task.tokens,
    n_prompt_tokens_processed: task.processed,
    n_prompt_tokens_cache: task.cached,
    params: slotParams(task.settings),
    next_token: [
      {
        has_next_token: task.has_next_token,
        has_new_line: task.has_new_line,
        n_remain: task.remaining,
        n_decoded: task.decoded,
      },
    ],
  };
}

export function slotsRoute(clients: Clients, prefix: string): Route {
  return {
    method: 'GET',
    dialect: LLAMA_SERVER_DIALECT,
    path: `${prefixParent(prefix)}/slots`,
    async handle(event) {
      const engines = await engineClientsWithSlots(clients, event.clientId);
      checkApiKey(event.request, engines[0]?.apiKey ?? null, LLAMA_SERVER_DIALECT);
      const query = new URL(event.request.url).searchParams;
      const ready = readySlots(engines, query.get('model'));
      if (ready.length === 0 && query.get('fail_on_no_slot'))
        throw new ServiceUnavailableError('no slot available', 'unavailable_error');
      const states = slotsByModel(engines);
      const slots = ready.map(({ card, slot }, id) => {
        const task = states.get(card.id)?.tasks[slot];
        return {
          id,
          n_ctx: card.context_length ?? card.capabilities?.context_length ?? 0,
          // llama-server's can_speculate(): a server-wide speculative setup; here, a draft model.
          speculative: card.draft_model !== undefined,
          is_processing: card.processing?.includes(slot) ?? false,
          ...(task ? taskFields(task) : {}),
          model: card.id,
        };
      });
      return new Response(JSON.stringify(slots), { headers: JSON_HEADERS });
    },
  };
}
