/**
 * `POST /slots/{id}?action=save|restore|erase` beside the route prefix, as llama-server answers
 * it with `--slot-save-path`: save writes the slot's context to `{filename}` of the origin's
 * storage, restore reads one back, erase empties the slot (no body needed). The slot ids are
 * `GET /slots`'s (ready-slots.ts); with a `model` (the body's, else `?model=`), that model's own,
 * as llama-server's router mode has them. A bad id, action
 * or filename is llama-server's 400 ("Invalid slot ID", "Invalid action", "Invalid filename");
 * a file that is missing or that llama.cpp refuses is a 400 from the engine; a model whose
 * backend has no slot state (WebLLM) is a 501, llama-server's answer without a save path.
 */
import { InvalidRequestError } from '#core/domain/errors';
import { prefixParent } from '#core/domain/route-prefix';
import { isSlotFilename } from '#core/domain/slot-filename';
import type { SlotAction, SlotActionRequest, SlotActionResult } from '#core/domain/slots';
import { isRecord } from '#core/util/is-record';
import { LLAMA_SERVER_DIALECT } from '../../dialect/llama-server-dialect';
import type { EngineClient } from '../../engine-clients';
import { routeToEngine } from '../../engine-for';
import { openJob } from '../../open-job';
import { readJson, readOptionalJson } from '../../read-json';
import type { Route, RouteEvent } from '../../route';
import { readySlots } from './ready-slots';

const JSON_HEADERS = { 'content-type': 'application/json' };
const ACTIONS: readonly SlotAction[] = ['save', 'restore', 'erase'];

interface SlotActionBody extends SlotActionRequest {
  id: number;
}

const invalid = (message: string, param: string) => new InvalidRequestError(message, param, 'invalid_value');

async function parse(event: RouteEvent, engines: EngineClient[]): Promise<SlotActionBody> {
  const url = new URL(event.request.url);
  const idText = decodeURIComponent(url.pathname.slice(url.pathname.lastIndexOf('/') + 1));
  if (!/^\d{1,9}$/.test(idText)) throw invalid('Invalid slot ID', 'id_slot');
  const action = ACTIONS.find((known) => known === url.searchParams.get('action'));
  if (!action) throw invalid('Invalid action', 'action');
  // Erase needs no body; one it has is read for its `model`, as save's and restore's are.
  const json = action === 'erase' ? await readOptionalJson(event.request) : await readJson(event.request);
  let filename: string | null = null;
  if (action !== 'erase') {
    const name = isRecord(json) ? json.filename : undefined;
    if (typeof name !== 'string' || !isSlotFilename(name)) throw invalid('Invalid filename', 'filename');
    filename = name;
  }
  const named = isRecord(json) && typeof json.model === 'string' ? json.model : url.searchParams.get('model');
  const id = Number(idText);
  const ready = readySlots(engines, named)[id];
  if (!ready) throw invalid('Invalid slot ID', 'id_slot');
  return { id, model: ready.card.id, slot: ready.slot, action, filename };
}

function answer(body: SlotActionBody, result: SlotActionResult): unknown {
  if (body.action === 'erase') return { id_slot: body.id, n_erased: result.tokens };
  if (body.action === 'save')
    return {
      id_slot: body.id,
      filename: body.filename,
      n_saved: result.tokens,
      n_written: result.bytes,
      timings: { save_ms: result.ms },
    };
  return {
    id_slot: body.id,
    filename: body.filename,
    n_restored: result.tokens,
    n_read: result.bytes,
    timings: { restore_ms: result.ms },
  };
}

export function slotActionRoute(clients: Clients, prefix: string): Route {
  return {
    method: 'POST',
    dialect: LLAMA_SERVER_DIALECT,
    path: `${prefixParent(prefix)}/slots/*`,
    async handle(event) {
      const routed = await routeToEngine(clients, event, {
        dialect: LLAMA_SERVER_DIALECT,
        validate: (engines) => parse(event, engines),
        toRequest: ({ model, slot, action, filename }): SlotActionRequest => ({ model, slot, action, filename }),
        check: () => undefined,
      });
      const { channel, first } = await openJob.slot(routed, routed.generation, event.request.signal);
      channel.close();
      return new Response(JSON.stringify(answer(routed.body, first)), { headers: JSON_HEADERS });
    },
  };
}
