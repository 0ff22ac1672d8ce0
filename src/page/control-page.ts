import { message, type PageToSw } from '../core/protocol/protocol';
import { ServiceUnavailableError } from '../core/domain/errors';
import { withTimeout } from '../core/util/with-timeout';

/** Rejects with a 503 naming `what` when `promise` takes longer than `ms`. */
function withDeadline<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  return withTimeout(promise, ms, () => {
    throw new ServiceUnavailableError(`Timed out after ${ms} ms waiting for ${what}.`, 'startup_timeout');
  });
}

/**
 * Registers the Service Worker and waits until it controls this page. Fetches made before
 * control go to the network, so nothing may claim readiness earlier. After a hard reload the
 * page stays uncontrolled and `activate` does not run again: then we ask the SW to claim us.
 * `hello`: tell the SW this page runs an engine (a follower tab, whose engine is elsewhere, does not).
 * An isolated page says so, leader or follower (a follower may lead later): the SW then stores the
 * pthreads build for offline use, since it cannot tell from its own isolation in Firefox.
 */
export async function controlPage(
  scriptUrl: string,
  scope: string,
  timeoutMs: number,
  hello = true,
): Promise<ServiceWorkerRegistration> {
  const container = navigator.serviceWorker;
  const controlled = new Promise<void>((resolve) => {
    if (container.controller) resolve();
    else container.addEventListener('controllerchange', () => resolve(), { once: true });
  });
  const registration = await container.register(scriptUrl, { scope });
  const active = (await withDeadline(container.ready, timeoutMs, 'the Service Worker to activate')).active;
  if (hello) active?.postMessage(message<PageToSw, 'client.hello'>('client.hello', {}));
  if (self.crossOriginIsolated) active?.postMessage(message<PageToSw, 'client.isolated'>('client.isolated', {}));
  if (!container.controller) active?.postMessage(message<PageToSw, 'client.claim'>('client.claim', {}));
  await withDeadline(controlled, timeoutMs, 'the Service Worker to control this page');
  return registration;
}
