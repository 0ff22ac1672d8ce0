/**
 * The page's one listener for what the Service Worker asks its main thread (`SwToPageMain`),
 * leader or follower alike:
 * - `routes.query`: a restarted SW asks for this page's route table (`routes.set` on the port);
 * - `sw.stay`: the SW is writing a response and asks for `client.stay`, a message event there,
 *   which Firefox counts as the SW being in use (worker/sw/keep-awake.ts).
 */
import { isSwToPageMain, message, type PageToSw, type Reply } from '../core/protocol/protocol';
import type { RouteInfo } from '../core/route-table/route-info';

/** Answers the SW's questions (`routeInfo`: the current route table); returns the detach function. */
export function answerServiceWorker(routeInfo: () => RouteInfo): () => void {
  const container = navigator.serviceWorker;
  const onMessage = (event: MessageEvent<unknown>) => {
    if (!isSwToPageMain(event.data)) return;
    switch (event.data.type) {
      case 'routes.query':
        event.ports[0]?.postMessage(message<Reply, 'routes.set'>('routes.set', routeInfo()));
        break;
      case 'sw.stay': {
        const sw = event.source instanceof ServiceWorker ? event.source : container.controller;
        sw?.postMessage(message<PageToSw, 'client.stay'>('client.stay', {}));
        break;
      }
    }
  };
  container.addEventListener('message', onMessage);
  container.startMessages();
  return () => container.removeEventListener('message', onMessage);
}
