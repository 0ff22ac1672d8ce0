/**
 * The readiness proof (`startInpage`'s `ready`): a `ready` job that asks the engine serving this
 * origin whether it has `model` loaded, through the same dispatch, client choice and job channel
 * as a generation, and runs no forward pass. The Service Worker takes it at an internal path under
 * the route prefix (`READY_PATH`, a reserved name no OpenAI route has), outside the route table,
 * so it never reaches an upstream.
 */

/** The internal path under the route prefix (`/v1/.inpage/ready?model=<id>`, GET). */
export const READY_PATH = '/.inpage/ready';

/** What the SW's answer at `READY_PATH` says it is (`object`), beside the model's id. */
export const READY_OBJECT = 'inpage.ready';

/** Is `model` loaded in the engine that serves this origin? */
export interface ReadyRequest {
  model: string;
}

/** The engine's answer: the id of the model it has loaded. */
export interface ReadyResult {
  model: string;
}
