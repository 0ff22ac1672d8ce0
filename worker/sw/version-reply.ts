/// <reference lib="webworker" />
import { BUILD_STAMP } from '../../src/core/build-stamp';
import { message } from '../../src/core/protocol';
import { isSwVersionQuery, type SwVersionReply } from '../../src/core/sw-version';

/** Answers `sw.version.query` with this script's package version and checksum (stale-SW check). */
export function answerVersionQueries(scope: ServiceWorkerGlobalScope): void {
  scope.addEventListener('message', (event) => {
    const port = event.ports[0];
    if (!isSwVersionQuery(event.data) || !port) return;
    port.postMessage(message<SwVersionReply, 'sw.version'>('sw.version', BUILD_STAMP));
  });
}
