/// <reference lib="webworker" />
import { isWebLLMChunkPath } from '../../src/core/webllm-chunk-name';

const CACHE = 'inpage-llm-lazy';

/**
 * The WebLLM chunk, kept out of the precache, is cached when it is first fetched: network
 * first (the browser's HTTP cache makes that cheap, and an upgraded unhashed file is picked
 * up), the cached copy when offline. Older copies are dropped when a new one is stored.
 */
export function cacheLazyChunks(scope: ServiceWorkerGlobalScope): void {
  scope.addEventListener('fetch', (event) => {
    const url = new URL(event.request.url);
    if (event.request.method !== 'GET' || url.origin !== scope.location.origin || !isWebLLMChunkPath(url.pathname)) return;
    event.respondWith(networkFirst(event.request));
  });
}

async function networkFirst(request: Request): Promise<Response> {
  const cache = await caches.open(CACHE);
  try {
    const response = await fetch(request);
    if (response.ok) {
      for (const old of await cache.keys()) if (old.url !== request.url) await cache.delete(old);
      await cache.put(request, response.clone());
    }
    return response;
  } catch (error) {
    const cached = await cache.match(request);
    if (cached) return cached;
    throw error;
  }
}
