/// <reference lib="webworker" />
import { cleanupOutdatedCaches, PrecacheController, PrecacheRoute } from 'workbox-precaching';
import { Router } from 'workbox-routing';
import { precachesFile } from './engine-variant-filter';

declare const self: ServiceWorkerGlobalScope;

/**
 * Precaches the files the build listed: Workbox `injectManifest` replaces `self.__WB_MANIFEST`
 * with the generated list (never a hand-written one). The script as shipped, not injected,
 * precaches nothing, so it can be copied into any app without 404s failing its install.
 * Query strings are ignored when matching, so `/?model=...` is answered by the cached
 * `index.html` offline.
 *
 * Unlike Workbox's `precacheAndRoute`, a precache that cannot be stored (a 404, the storage
 * quota full) does not fail the install: the SW starts anyway, with a console warning, and the
 * files it could not keep come from the network (the precache route falls back to it). Of the
 * engine's wasm builds, only those this browser runs are stored (engine-variant-filter.ts):
 * the pthreads ones where `threads` (the SW isolates the origin's pages, or is isolated itself), or
 * once a page says it is isolated (`storeThreads`: in Firefox a SW served with COOP/COEP is still
 * not `crossOriginIsolated`, and its pages are).
 *
 * `answer` is the precache's answer for a fetch (undefined where it has none), for the SW's one
 * fetch listener to serve, rather than a listener of Workbox's own: the SW sets isolation headers
 * on documents whichever way they come (isolate-responses.ts).
 */
export interface PrecachedShell {
  answer(event: FetchEvent): Promise<Response> | undefined;
  /** Stores the pthreads builds too, once (what is stored already is not fetched again). */
  storeThreads(): Promise<void>;
}

export function precacheShell(threads: boolean): PrecachedShell {
  // Spelled exactly `self.__WB_MANIFEST`: that is the string injectManifest replaces.
  const manifest = self.__WB_MANIFEST ?? [];
  if (manifest.length === 0) return { answer: () => undefined, storeThreads: () => Promise.resolve() };
  cleanupOutdatedCaches();
  const controller = new PrecacheController();
  controller.addToCacheList(manifest);
  self.addEventListener('install', (event) => event.waitUntil(storeAll(controller, threads)));
  self.addEventListener('activate', (event) => void controller.activate(event));
  const router = new Router();
  router.registerRoute(new PrecacheRoute(controller, { ignoreURLParametersMatching: [/.*/] }));
  let threadsStored: Promise<void> | null = threads ? Promise.resolve() : null;
  return {
    answer: (event) => router.handleRequest({ request: event.request, event }),
    storeThreads: () => (threadsStored ??= storeAll(controller, true)),
  };
}

/** Stores each listed file under its precache key; what fails is warned about, not thrown. */
async function storeAll(controller: PrecacheController, threads: boolean): Promise<void> {
  const failed: string[] = [];
  const cache = await caches.open(controller.strategy.cacheName);
  for (const [url, key] of controller.getURLsToCacheKeys()) {
    if (!precachesFile(url, undefined, threads) || (await cache.match(key))) continue;
    try {
      const response = await fetch(url, { credentials: 'same-origin' });
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      await cache.put(key, response);
    } catch (error) {
      failed.push(`${url} (${error instanceof Error ? error.message : String(error)})`);
    }
  }
  if (failed.length > 0)
    console.warn(
      `[inpage-llm] The offline copy could not be stored (${failed.length} files; the endpoint runs from the network): ${failed.join(', ')}`,
    );
}
