/**
 * Proves the endpoint works without generating anything: one GET of the Service Worker's
 * internal readiness path under the route prefix (`READY_PATH`), which the SW answers only
 * with the engine serving this origin (this tab's, or the leader tab's) through the same
 * client choice and job channel as a generation, and never through the route table. That the
 * fetch is answered at all proves the SW controls this page and intercepts the prefix; the
 * answer's shape, that the SW is ours; its `model`, that the engine has the model loaded.
 */
import { isWireError, OpenAIError, ServiceUnavailableError } from '../core/domain/errors';
import { READY_OBJECT, READY_PATH } from '../core/domain/ready';
import { isRecord } from '../core/util/is-record';
import { withTimeout } from '../core/util/with-timeout';

/** Resolves once the engine answered that it serves `model`; rejects with the SW's `OpenAIError` otherwise. */
export async function probeEndpoint(
  prefix: string,
  model: string,
  apiKey: string | null,
  timeoutMs: number,
): Promise<void> {
  const controller = navigator.serviceWorker.controller;
  const error = await askReady(prefix, model, apiKey);
  if (error === null) return;
  if (error.code !== 'unknown_url') throw error;
  // A Service Worker from before the readiness path: the previous script, still in control while
  // the browser installs this one (an upgrade), or an old `sw.js` in the app's public folder.
  if (navigator.serviceWorker.controller === controller && !(await controllerChange(timeoutMs))) {
    throw new ServiceUnavailableError(
      `The Service Worker at ${controller?.scriptURL ?? '(none)'} predates this page runtime (it has no ${prefix}${READY_PATH}): ` +
        're-run `npx inpage-llm init` to copy the current worker into your public folder.',
      'service_worker_outdated',
    );
  }
  const again = await askReady(prefix, model, apiKey);
  if (again !== null) throw again;
}

/** Null when the engine answered for `model`; else the error the SW sent, or a 503 saying nothing like it answered. */
async function askReady(prefix: string, model: string, apiKey: string | null): Promise<OpenAIError | null> {
  const response = await fetch(`${prefix}${READY_PATH}?model=${encodeURIComponent(model)}`, {
    headers: apiKey === null ? {} : { authorization: `Bearer ${apiKey}` },
    cache: 'no-store',
  });
  const body: unknown = await response.json().catch(() => null);
  if (response.ok && isRecord(body) && body['object'] === READY_OBJECT && body['model'] === model) return null;
  const wire = { status: response.status, body };
  if (isWireError(wire)) return OpenAIError.fromWire(wire);
  return new ServiceUnavailableError(
    `The endpoint probe got HTTP ${response.status} without an OpenAI answer: is the Service Worker script served?`,
    'endpoint_unreachable',
  );
}

/** Whether a new Service Worker takes control of this page within `timeoutMs`. */
function controllerChange(timeoutMs: number): Promise<boolean> {
  const changed = new Promise<boolean>((resolve) =>
    navigator.serviceWorker.addEventListener('controllerchange', () => resolve(true), { once: true }),
  );
  return withTimeout(changed, timeoutMs, () => false);
}
