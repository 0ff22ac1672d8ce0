/**
 * `GET <prefix>/.inpage/ready?model=<id>`: the page runtime's readiness proof (`startInpage`'s
 * `ready`), not an API route. It goes where a generation of `model` on the device would (the
 * key check, the same client choice and handover, the job channel to that page's engine inbox
 * or bridge) as a `ready` job, which runs no forward pass; and never through the route table,
 * so no upstream sees it, whatever the table says of `model`. The answer:
 * `{"object":"inpage.ready","model":<id>}`.
 */
import { InvalidRequestError } from '#core/domain/errors';
import { READY_OBJECT, READY_PATH, type ReadyRequest } from '#core/domain/ready';
import { OPENAI_DIALECT } from '../../dialect/openai-dialect';
import { routeToEngine } from '../../engine-for';
import { openJob } from '../../open-job';
import type { Route } from '../../route';

const JSON_HEADERS = { 'content-type': 'application/json' };

export function readyRoute(clients: Clients, prefix: string): Route {
  return {
    method: 'GET',
    dialect: OPENAI_DIALECT,
    path: `${prefix}${READY_PATH}`,
    async handle(event) {
      const routed = await routeToEngine(clients, event, {
        dialect: OPENAI_DIALECT,
        validate: () => Promise.resolve(readyRequest(event.request)),
        toRequest: (body) => body,
        check: () => undefined,
      });
      const { channel, first } = await openJob.ready(routed, routed.generation, event.request.signal);
      channel.close();
      return new Response(JSON.stringify({ object: READY_OBJECT, model: first.model }), { headers: JSON_HEADERS });
    },
  };
}

function readyRequest(request: Request): ReadyRequest {
  const model = new URL(request.url).searchParams.get('model');
  if (!model)
    throw new InvalidRequestError("Name the model to check with '?model='.", 'model', 'missing_required_parameter');
  return { model };
}
