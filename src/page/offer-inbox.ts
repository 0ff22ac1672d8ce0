/**
 * Hands the Service Worker a job inbox into this page's engine worker: a MessageChannel whose
 * one end goes to the worker (`EngineApi.openInbox`) and the other to the SW with
 * `client.hello`. From then on the SW's queries and jobs for this page go straight to the
 * engine worker, and a job's port with them, without a hop through this thread. A SW that
 * restarted has lost its inbox and asks the page again; the page then offers a new one (at
 * most once per `OFFER_EVERY_MS`, however many messages it relays meanwhile).
 */
import { transfer, type Remote } from 'comlink';
import type { EngineApi } from '../core/protocol/engine-api';
import { message, type InboxInfo, type PageToSw } from '../core/protocol/protocol';

const OFFER_EVERY_MS = 1000;

/**
 * Returns `offer`: hands the current controller a new inbox, unless one was offered within
 * `OFFER_EVERY_MS` (`now`: regardless). Nothing is handed over once `serving()` is false (the
 * page said goodbye meanwhile: a dead inbox would hold the SW's queries up).
 */
export function inboxOffers(
  engine: Remote<EngineApi>,
  page: InboxInfo,
  serving: () => boolean,
): (now?: boolean) => void {
  let last = -Infinity;
  return (now = false) => {
    const sw = navigator.serviceWorker.controller;
    if (!sw || (!now && Date.now() - last < OFFER_EVERY_MS)) return;
    last = Date.now();
    const { port1, port2 } = new MessageChannel();
    engine.openInbox(transfer(port2, [port2]), page).then(
      () =>
        serving() ? sw.postMessage(message<PageToSw, 'client.hello'>('client.hello', {}), [port1]) : port1.close(),
      () => port1.close(),
    );
  };
}
