/**
 * llama-server's `POST <prefix>/chat/completions/control`: `{id, action: 'reasoning_end'}` ends
 * the reasoning of the running chat completion `id` (a `chatcmpl-...` of this Service Worker's)
 * from its next token: the engine's budget sampler forces the template's end tag, and the answer
 * follows. Answered as llama-server answers it: `{success: true}`, or `{success: false, message}`
 * for an id that runs nowhere here (queued, ended, unknown) or a completion without
 * `reasoning_control`; a missing id or another action is a 400 in its words and error shape.
 */
import { InvalidRequestError } from '#core/domain/errors';
import { isRecord } from '#core/util/is-record';
import { checkEnginesKey } from '../../check-api-key';
import { LLAMA_SERVER_DIALECT } from '../../dialect/llama-server-dialect';
import { readJson } from '../../read-json';
import type { Route } from '../../route';
import { endReasoning } from '../../running-chats';

export function chatControlRoute(clients: Clients, prefix: string): Route {
  return {
    method: 'POST',
    path: `${prefix}/chat/completions/control`,
    dialect: LLAMA_SERVER_DIALECT,
    handle: async (event) => {
      await checkEnginesKey(clients, event, LLAMA_SERVER_DIALECT);
      const body = await readJson(event.request);
      const id = isRecord(body) ? body.id : undefined;
      if (typeof id !== 'string' || id === '') throw new InvalidRequestError('missing completion id', 'id');
      if (!isRecord(body) || body.action !== 'reasoning_end')
        throw new InvalidRequestError('unknown control action', 'action');
      return new Response(JSON.stringify(endReasoning(id)), { headers: { 'content-type': 'application/json' } });
    },
  };
}
