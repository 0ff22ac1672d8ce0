/// <reference lib="webworker" />
/**
 * The inpage-llm Service Worker: answers the `/v1` routes (or its registered prefix's) in OpenAI format with the engine of a
 * page it controls; every other request goes to the network untouched.
 */
import { toOpenAIError } from '../../src/core/errors';
import { isPageToSw } from '../../src/core/protocol';
import { routePrefixOf } from '../../src/core/route-prefix';
import { engineHints } from './engine-clients';
import { findRoute, type Route } from './route';
import { completionsRoute } from './routes/completions';
import { modelRoute } from './routes/model';
import { modelsRoute } from './routes/models';
import { cacheLazyChunks } from './lazy-chunk-cache';
import { precacheShell } from './precache-shell';
import { answerVersionQueries } from './version-reply';

declare const self: ServiceWorkerGlobalScope;

// `/v1` unless the page registered this script as `sw.js?prefix=/other/prefix`.
const prefix = routePrefixOf(self.location.href);
const routes: Route[] = [completionsRoute(self.clients, prefix), modelsRoute(self.clients, prefix), modelRoute(self.clients, prefix)];

precacheShell();
cacheLazyChunks(self);
answerVersionQueries(self);

self.addEventListener('install', () => {
  void self.skipWaiting();
});

self.addEventListener('activate', (event) => {
  event.waitUntil(self.clients.claim());
});

self.addEventListener('message', (event) => {
  if (!isPageToSw(event.data)) return;
  const sender = event.source instanceof Client ? event.source.id : undefined;
  switch (event.data.type) {
    case 'client.claim':
      event.waitUntil(self.clients.claim());
      break;
    case 'client.hello':
      if (sender) engineHints.add(sender);
      break;
    case 'client.goodbye':
      if (sender) engineHints.delete(sender);
      break;
  }
});

self.addEventListener('fetch', (event) => {
  const route = findRoute(routes, event.request, self.location.origin);
  if (!route) return;
  // No waitUntil over the generation: Chromium kills a SW whose waitUntil outlives ~5 minutes.
  event.respondWith(route.handle(event).catch((error: unknown) => toOpenAIError(error).toResponse()));
});
