/// <reference lib="webworker" />
import { isWebLLMChunkPath } from '#core/domain/webllm-chunk-name';
import type { Route } from './route';

const CACHE = 'inpage-llm-lazy';

/**
 * The WebLLM chunk, kept out of the precache, is cached when it is first fetched: network
 * first (the browser's HTTP cache makes that cheap, and an upgraded unhashed file is picked
 * up), the cached copy when offline. Older copies are dropped when a new one is stored.
 */
export const lazyChunkRoute: Route = {
  method: 'GET',
  path: isWebLLMChunkPath,
  handle: (event) => networkFirst(event.request),
};

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
