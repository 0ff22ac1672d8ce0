/**
 * llama-server's `/lora-adapters` beside the route prefix, for the model named in `?model=` or
 * the first one ready: `GET` lists its LoRA adapters (`[{id, path, scale, task_name,
 * prompt_prefix}]`: `path` is where it came from, its URL or its id; an empty array for a model
 * without adapters); `POST` takes `[{id, scale}]`, the model's scales from then on for requests
 * that name none (adapters not listed: 0), and answers `{"success": true}`. A body that is not
 * an array is llama-server's 400; an entry without `id` or `scale`, or naming an adapter the
 * model does not have, is a 400 naming it (llama-server ignores such entries).
 */
import * as v from 'valibot';
import { prefixParent } from '#core/domain/route-prefix';
import { InvalidRequestError } from '#core/domain/errors';
import { checkLoraScales, type LoraScale } from '#core/domain/lora';
import { loraField, readLora } from '#core/openai/lora-field';
import { LLAMA_SERVER_DIALECT } from '../../dialect/llama-server-dialect';
import { routeToEngine } from '../../engine-for';
import { openJob } from '../../open-job';
import { readJson } from '../../read-json';
import type { Route } from '../../route';
import { readyModel } from './ready-card';

const JSON_HEADERS = { 'content-type': 'application/json' };

/** A `POST` body's scales; a 400 where it is not an array of `{id, scale}`. */
function readScales(json: unknown): LoraScale[] {
  if (!Array.isArray(json)) throw new InvalidRequestError('Request body must be an array', null);
  const parsed = v.safeParse(loraField('lora'), json);
  if (!parsed.success) {
    const issue = parsed.issues[0];
    const key = issue.path?.at(-1)?.key;
    throw new InvalidRequestError(issue.message, typeof key === 'string' ? key : null);
  }
  return readLora(parsed.output);
}

function loraAdaptersRoute(clients: Clients, prefix: string, method: 'GET' | 'POST'): Route {
  return {
    method,
    dialect: LLAMA_SERVER_DIALECT,
    path: `${prefixParent(prefix)}/lora-adapters`,
    async handle(event) {
      const named = new URL(event.request.url).searchParams.get('model');
      const routed = await routeToEngine(clients, event, {
        dialect: LLAMA_SERVER_DIALECT,
        validate: async () => ({
          model: await readyModel(clients, event.clientId, named),
          set: method === 'POST' ? readScales(await readJson(event.request)) : null,
        }),
        toRequest: (body) => body,
        check: (capabilities, request) => checkLoraScales(request.set ?? [], capabilities.lora_adapters ?? 0, 'id'),
      });
      const { channel, first } = await openJob.lora(routed, routed.generation, event.request.signal);
      channel.close();
      const answer = method === 'POST' ? { success: true } : first.adapters;
      return new Response(JSON.stringify(answer), { headers: JSON_HEADERS });
    },
  };
}

/** `GET` and `POST /lora-adapters`. */
export const loraAdaptersRoutes = (clients: Clients, prefix: string): Route[] => [
  loraAdaptersRoute(clients, prefix, 'GET'),
  loraAdaptersRoute(clients, prefix, 'POST'),
];
