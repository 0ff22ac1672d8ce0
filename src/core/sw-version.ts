/**
 * The version handshake between a page and the Service Worker (its own message maps, beside
 * `protocol.ts`): the page asks on a reply port, the SW answers with its build stamp.
 */
import type { BuildStamp } from './build-stamp';
import { messageGuard } from './protocol';

/** Page -> SW (via `ServiceWorker.postMessage`, with a reply port). */
export interface PageToSwVersion {
  'sw.version.query': { protocol: number };
}

/** SW -> page on the reply port. */
export interface SwVersionReply {
  'sw.version': BuildStamp;
}

export const isSwVersionQuery = messageGuard<PageToSwVersion>(['sw.version.query']);
export const isSwVersionReply = messageGuard<SwVersionReply>(['sw.version']);
