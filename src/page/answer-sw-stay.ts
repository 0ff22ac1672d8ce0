/**
 * The page's half of keeping the Service Worker alive while it writes a response
 * (worker/sw/keep-awake.ts): each `sw.stay` is answered with `client.stay`, a message event in
 * the SW, which Firefox counts as the SW being in use (its idle time starts again). Every page
 * runtime answers, leader or follower: the SW asks the pages it controls, whichever they are.
 */
import { isSwToPageMain, message, type PageToSw } from '../core/protocol/protocol';

/** Answers the SW's `sw.stay`; returns the detach function. */
export function answerSwStay(): () => void {
  const container = navigator.serviceWorker;
  const onMessage = (event: MessageEvent<unknown>) => {
    if (!isSwToPageMain(event.data) || event.data.type !== 'sw.stay') return;
    const sw = event.source instanceof ServiceWorker ? event.source : container.controller;
    sw?.postMessage(message<PageToSw, 'client.stay'>('client.stay', {}));
  };
  container.addEventListener('message', onMessage);
  container.startMessages();
  return () => container.removeEventListener('message', onMessage);
}
