/**
 * A GGUF given by URL: downloaded once with progress, kept in the browser's Cache Storage
 * (so the next load, and an offline page, read it from there), returned as a Blob. The Blob
 * of a cached response is file-backed in Chromium: a large model is not held in memory twice.
 */
import { ServiceUnavailableError } from '../../../../src/core/errors';
import type { LoadProgress } from '../../../../src/core/model-spec';
import { checkGgufUrl } from './check-gguf-url';

/** The Cache Storage bucket of downloaded model files. */
export const MODEL_CACHE = 'inpage-llm-gguf';

/** The model file at `url`: from the cache, else downloaded (and cached) with progress. */
export async function modelFile(
  url: string,
  model: string,
  onProgress: (progress: LoadProgress) => void,
): Promise<Blob> {
  const cache = await caches.open(MODEL_CACHE);
  const hit = await cache.match(url);
  if (hit) {
    const blob = await hit.blob();
    onProgress({ model, phase: 'download', fraction: 1, loadedBytes: blob.size, totalBytes: blob.size, cached: true });
    return blob;
  }
  await checkGgufUrl(url, model);
  let response: Response;
  try {
    response = await fetch(url);
  } catch (error) {
    throw new ServiceUnavailableError(`Downloading '${model}' failed: the network is unreachable (${url}).`, 'model_download_failed', {
      cause: error,
    });
  }
  if (!response.ok || !response.body)
    throw new ServiceUnavailableError(`Downloading '${model}' failed: HTTP ${response.status} for ${url}.`, 'model_download_failed');
  const total = Number(response.headers.get('content-length') ?? 0);
  const chunks: Uint8Array[] = [];
  let loaded = 0;
  const reader = response.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    loaded += value.length;
    onProgress({ model, phase: 'download', fraction: total > 0 ? loaded / total : 0, loadedBytes: loaded, totalBytes: total });
  }
  if (total > 0 && loaded !== total)
    throw new ServiceUnavailableError(`Downloading '${model}' failed: got ${loaded} of ${total} bytes.`, 'model_download_failed');
  const blob = new Blob(chunks as BlobPart[]);
  onProgress({ model, phase: 'download', fraction: 1, loadedBytes: loaded, totalBytes: loaded });
  await cache
    .put(url, new Response(blob, { headers: { 'content-type': 'application/octet-stream', 'content-length': String(loaded) } }))
    .catch(() => undefined); // a full quota only costs the next load a download
  return (await cache.match(url))?.blob() ?? blob;
}
