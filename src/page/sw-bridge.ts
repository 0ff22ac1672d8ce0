import { transfer, type Remote } from 'comlink';
import { ServiceUnavailableError } from '../core/domain/errors';
import { isSwToPage, message, type EngineToSw, type PageToSw, type Reply } from '../core/protocol/protocol';
import type { EngineApi } from '../core/protocol/engine-api';
import type { ModelCard } from '../core/domain/model-card';
import { withTimeout } from '../core/util/with-timeout';
import { inboxOffers } from './offer-inbox';

/**
 * How long a query waits for an engine worker that is still starting before it is answered
 * "no models yet" (with `standby`): the SW, waiting out a handover, asks again, instead of
 * taking the silence for a page without a runtime.
 */
const BOOT_REPLY_MS = 200;

const engineGone = () => new ServiceUnavailableError('This page no longer runs the engine.', 'engine_gone').toWire();

/**
 * The page's side of the SW protocol: answers `engine.query` with this page's models and
 * hands each `job`'s port straight to the engine worker, so its events flow worker -> SW
 * without passing through this thread. A page with an engine also hands the SW a job inbox
 * into the worker (`offer-inbox.ts`), after which the SW's messages skip this thread too;
 * until then, and after a SW restart, they come here. A follower tab (`engine` null: the
 * engine runs in another tab) answers the query with no models, so the SW never waits out its
 * query timeout on it, and names the models it stands by for (`standby`, asked at each query).
 */
export function bridgeServiceWorker(
  engine: Remote<EngineApi> | null,
  apiKey: string | null,
  standby: () => string[] = () => [],
): (goodbye?: boolean) => void {
  const container = navigator.serviceWorker;
  let open = true;
  // Until the engine worker first answers (it is still starting), queries get a quick "none yet".
  let booted = engine === null;
  const offer = engine ? inboxOffers(engine, { apiKey, standby: standby() }, () => open) : () => undefined;
  const onMessage = (event: MessageEvent<unknown>) => {
    const data = event.data;
    const port = event.ports[0];
    if (!isSwToPage(data) || !port) return;
    // The SW asks here, so it holds no inbox into the engine (it restarted since): offer one.
    if (open) offer();
    if (data.type === 'engine.query') {
      const models =
        !open || !engine
          ? Promise.resolve([])
          : data.catalogue
            ? Promise.all([engine.models(), engine.catalogue()]).then(([served, more]) => [...served, ...more])
            : engine.models();
      const answered = models.then((list) => ((booted = true), list));
      const reply = booted ? answered : withTimeout<ModelCard[]>(answered, BOOT_REPLY_MS, () => []);
      const slots = open && engine && data.slots ? engine.slotStates() : null;
      void Promise.all([reply, slots]).then(
        ([list, byModel]) =>
          port.postMessage(
            message<Reply, 'engine.info'>('engine.info', {
              models: list,
              apiKey,
              standby: standby(),
              ...(byModel ? { slots: byModel } : {}),
            }),
          ),
        () =>
          port.postMessage(message<Reply, 'engine.info'>('engine.info', { models: [], apiKey, standby: standby() })),
      );
    } else if (!open || !engine) {
      // Detached (this page is going) or never serving: the SW runs it elsewhere at once.
      port.postMessage(message<EngineToSw, 'generation.error'>('generation.error', { error: engineGone() }));
      port.close();
    } else {
      void engine.run(data.job, transfer(port, [port]));
    }
  };
  container.addEventListener('message', onMessage);
  container.startMessages();
  // A new controller (an updated SW) has no inbox either.
  const onControllerChange = () => open && offer(true);
  container.addEventListener('controllerchange', onControllerChange);
  offer(true);
  const say = (type: 'client.hello' | 'client.goodbye') =>
    container.controller?.postMessage(message<PageToSw, typeof type>(type, {}));
  const goodbye = () => say('client.goodbye');
  // A page restored from the back/forward cache runs its engine again.
  const hello = (event: PageTransitionEvent) => event.persisted && say('client.hello');
  addEventListener('pagehide', goodbye);
  addEventListener('pageshow', hello);
  // Detached: this page no longer serves from this engine (`goodbye`: tell the SW; a crashed
  // engine's page says `client.crashed` instead).
  return (farewell = true) => {
    open = false;
    if (farewell) goodbye();
    removeEventListener('pagehide', goodbye);
    removeEventListener('pageshow', hello);
    container.removeEventListener('message', onMessage);
    container.removeEventListener('controllerchange', onControllerChange);
  };
}
