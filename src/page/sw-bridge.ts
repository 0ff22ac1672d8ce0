import { transfer, type Remote } from 'comlink';
import { isSwToPage, message, type PageToSw, type Reply } from '../core/protocol';
import type { EngineApi } from '../core/engine-api';

/**
 * The page's side of the SW protocol: answers `engine.query` with this page's models and
 * hands each `generation.start` (and `embedding.start`) port straight to the engine worker,
 * so tokens flow worker -> SW without passing through this thread. A follower tab (`engine`
 * null: the engine runs in another tab) answers the query with no models, so the SW never
 * waits out its query timeout on it.
 */
export function bridgeServiceWorker(engine: Remote<EngineApi> | null, apiKey: string | null): () => void {
  const container = navigator.serviceWorker;
  let open = true;
  const onMessage = (event: MessageEvent<unknown>) => {
    const data = event.data;
    const port = event.ports[0];
    if (!isSwToPage(data) || !port) return;
    if (data.type === 'engine.query') {
      const models =
        !open || !engine
          ? Promise.resolve([])
          : data.catalogue
            ? Promise.all([engine.models(), engine.catalogue()]).then(([served, more]) => [...served, ...more])
            : engine.models();
      void models.then(
        (list) => port.postMessage(message<Reply, 'engine.info'>('engine.info', { models: list, apiKey })),
        () => port.postMessage(message<Reply, 'engine.info'>('engine.info', { models: [], apiKey })),
      );
    } else if (!open || !engine) {
      port.close();
    } else if (data.type === 'generation.start') {
      void engine.generate(data.request, transfer(port, [port]));
    } else {
      void engine.embed(data.request, transfer(port, [port]));
    }
  };
  container.addEventListener('message', onMessage);
  container.startMessages();
  const say = (type: 'client.hello' | 'client.goodbye') =>
    container.controller?.postMessage(message<PageToSw, typeof type>(type, {}));
  const goodbye = () => say('client.goodbye');
  // A page restored from the back/forward cache runs its engine again.
  const hello = (event: PageTransitionEvent) => event.persisted && say('client.hello');
  addEventListener('pagehide', goodbye);
  addEventListener('pageshow', hello);
  return () => {
    open = false;
    goodbye();
    removeEventListener('pagehide', goodbye);
    removeEventListener('pageshow', hello);
    container.removeEventListener('message', onMessage);
  };
}
