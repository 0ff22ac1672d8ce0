/// <reference lib="webworker" />
/**
 * The inpage-llm Service Worker: answers the `/v1` routes (or its registered prefix's) in
 * OpenAI's format (Anthropic's for `/messages`) with the engine of a page it controls, and the lazily cached WebLLM chunk;
 * the precached app shell; with `?isolate=`, the origin's documents and workers with COOP/COEP;
 * every other request goes to the network untouched. One route table, one `message` switch,
 * one `fetch` listener.
 */
import { BUILD_STAMP } from '#core/protocol/build-stamp';
import { toOpenAIError } from '#core/domain/errors';
import { isPageToSw, message, type Reply } from '#core/protocol/protocol';
import { routePrefixOf } from '#core/domain/route-prefix';
import { engineHints } from './engine-clients';
import { dropInbox, takeInbox } from './engine-inboxes';
import { crashChannelsOf, endChannelsOf } from './open-channels';
import { markRestarting } from './handover';
import { lazyChunkRoute } from './lazy-chunk-cache';
import { precacheShell } from './precache-shell';
import { KeepAwake } from './keep-awake';
import { isolated, startsContext } from './isolate-responses';
import { isolationOf } from '#core/domain/isolation';
import { dispatch } from './dispatch';
import type { Route } from './route';
import { setRouteInfo } from './upstream/route-state';
import { chatRoute } from './routes/chat/route';
import { chatControlRoute } from './routes/chat/control-route';
import { streamRoutes } from './routes/streams/route';
import { streamSessions } from './streams/sessions';
import { completionsRoute } from './routes/completions/route';
import { messagesCountTokensRoute } from './routes/messages/count-tokens-route';
import { chatInputTokensRoute, responsesInputTokensRoute } from './routes/input-tokens/route';
import { messagesRoute } from './routes/messages/route';
import { applyTemplateRoute, detokenizeRoute, tokenizeRoute } from './routes/llama-server/tokenize-route';
import { healthRoute } from './routes/llama-server/health-route';
import { infillRoute } from './routes/llama-server/infill-route';
import { embeddingRoute } from './routes/llama-server/embedding-route';
import { metricsRoute } from './routes/llama-server/metrics-route';
import { nativeCompletionRoute, nativeCompletionsRoute } from './routes/llama-server/completion-route';
import { propsRoute } from './routes/llama-server/props-route';
import { slotsRoute } from './routes/llama-server/slots-route';
import { loraAdaptersRoutes } from './routes/llama-server/lora-adapters-route';
import { slotActionRoute } from './routes/llama-server/slot-action-route';
import { embeddingsRoute } from './routes/embeddings/route';
import { modelRoute } from './routes/model';
import { modelsRoute } from './routes/models';
import { readyRoute } from './routes/ready/route';
import { rerankRoutes } from './routes/rerank/route';
import { responsesRoute } from './routes/responses/route';
import { transcriptionsRoute } from './routes/transcriptions/route';

declare const self: ServiceWorkerGlobalScope;

// `/v1` unless the page registered this script as `sw.js?prefix=/other/prefix`.
const prefix = routePrefixOf(self.location.href);
// `sw.js?isolate=credentialless|require-corp`: documents and workers get COOP/COEP.
const isolation = isolationOf(self.location.href);
const routes: Route[] = [
  completionsRoute(self.clients, prefix),
  chatRoute(self.clients, prefix),
  chatControlRoute(self.clients, prefix),
  ...streamRoutes(self.clients, prefix),
  responsesRoute(self.clients, prefix),
  transcriptionsRoute(self.clients, prefix),
  embeddingsRoute(self.clients, prefix),
  messagesRoute(self.clients, prefix),
  messagesCountTokensRoute(self.clients, prefix),
  responsesInputTokensRoute(self.clients, prefix),
  chatInputTokensRoute(self.clients, prefix),
  tokenizeRoute(self.clients, prefix),
  detokenizeRoute(self.clients, prefix),
  healthRoute(self.clients, prefix),
  applyTemplateRoute(self.clients, prefix),
  infillRoute(self.clients, prefix),
  nativeCompletionRoute(self.clients, prefix),
  nativeCompletionsRoute(self.clients, prefix),
  embeddingRoute(self.clients, prefix),
  ...rerankRoutes.map((route) => route(self.clients, prefix)),
  metricsRoute(self.clients, prefix),
  propsRoute(self.clients, prefix),
  slotsRoute(self.clients, prefix),
  ...loraAdaptersRoutes(self.clients, prefix),
  slotActionRoute(self.clients, prefix),
  modelsRoute(self.clients, prefix),
  modelRoute(self.clients, prefix),
  // The page runtime's readiness proof (`ready`), outside the route table: never an upstream's.
  readyRoute(self.clients, prefix),
  lazyChunkRoute,
];

const keepAwake = new KeepAwake(self.clients);
// A resumable stream's generation runs on after its client left: the SW stays up for it.
streamSessions.hold = () => keepAwake.hold();

// Pages get threads where they are isolated: by this SW, or by the server (then so is the SW).
const precached = precacheShell(isolation !== null || self.crossOriginIsolated);

self.addEventListener('install', () => {
  void self.skipWaiting();
});

self.addEventListener('activate', (event) => {
  event.waitUntil(self.clients.claim());
});

self.addEventListener('message', (event) => {
  if (!isPageToSw(event.data)) return;
  const source = event.source instanceof Client ? event.source : null;
  const sender = source?.id;
  switch (event.data.type) {
    case 'client.claim':
      event.waitUntil(self.clients.claim());
      break;
    case 'client.hello':
      if (sender) engineHints.add(sender);
      // Its engine worker's job inbox: queries and jobs for this page go there, past its main thread.
      if (source && event.ports[0]) takeInbox(source, event.ports[0]);
      break;
    case 'client.isolated':
      // Its engine may load the pthreads build: store it for offline use (precache-shell.ts).
      event.waitUntil(precached.storeThreads());
      break;
    case 'client.goodbye':
      // The page's engine stopped (its tab is going): its requests end now, not after the keepalive's silence.
      if (sender) engineHints.delete(sender);
      if (sender) dropInbox(sender);
      if (sender) markRestarting(sender, false);
      if (sender) endChannelsOf(sender);
      break;
    case 'client.crashed':
      // Its engine worker died: what it held ends now; the page's new engine says hello when it is up.
      if (sender) engineHints.delete(sender);
      if (sender) dropInbox(sender);
      if (sender) markRestarting(sender, true);
      if (sender) crashChannelsOf(sender, event.data.reason);
      break;
    case 'client.stay':
      // The event itself is the point: Firefox counts the SW as in use (keep-awake.ts).
      break;
    case 'sw.version.query':
      event.ports[0]?.postMessage(message<Reply, 'sw.version'>('sw.version', BUILD_STAMP));
      break;
    case 'routes.set': {
      // The page validated its table; checked again here, since it crossed a message boundary.
      let error: string | null = null;
      try {
        if (sender) setRouteInfo(sender, event.data);
      } catch (thrown) {
        error = thrown instanceof Error ? thrown.message : String(thrown);
      }
      event.ports[0]?.postMessage(message<Reply, 'routes.ack'>('routes.ack', { error }));
      break;
    }
  }
});

self.addEventListener('fetch', (event) => {
  const handle = dispatch(routes, event.request, self.location.origin, prefix);
  if (handle) {
    // No waitUntil over the generation: Chromium kills a SW whose waitUntil outlives ~5 minutes.
    // Firefox's clock is kept from running out by the pages' messages while the body is written.
    // `handle` answers errors in its route's dialect; the catch is the last resort for a bug there.
    event.respondWith(keepAwake.during(handle(event).catch((error: unknown) => toOpenAIError(error).toResponse())));
    return;
  }
  const shell = precached.answer(event);
  const isolate = isolation !== null && startsContext(event.request, self.location.origin) ? isolation : null;
  if (!shell && isolate === null) return;
  const answer = shell ?? fetch(event.request);
  event.respondWith(isolate === null ? answer : answer.then((response) => isolated(response, isolate)));
});
