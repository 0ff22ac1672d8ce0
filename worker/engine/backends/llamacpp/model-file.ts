/**
 * A GGUF given by URL: downloaded once with progress, kept in the browser's Cache Storage
 * (so the next load, and an offline page, read it from there), returned as a Blob. The Blob
 * of a cached response is file-backed in Chromium: a large model is not held in memory twice.
 * A 404 is a clear error at once, a body that is not a GGUF file (an HTML fallback page served
 * with status 200) as soon as its first bytes arrive, and a model larger than the engine can
 * hold as soon as its size is known (`size-check.ts`).
 */
import { ServiceUnavailableError } from '#core/domain/errors';
import type { LoadProgress } from '#core/domain/model-spec';
import { notGgufReason } from '#gguf/not-gguf-reason';
import { SizeCheck } from './size-check';

/** The Cache Storage bucket of downloaded model files. */
export const MODEL_CACHE = 'inpage-llm-gguf';

/** Bytes of a body's start looked at before it is taken for a GGUF file (the magic, or an HTML page's tag). */
const HEAD_BYTES = 64;

const failed = (model: string, why: string, cause?: unknown) =>
  new ServiceUnavailableError(`Downloading '${model}' failed: ${why}`, 'model_download_failed', { cause });

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
  const blob = await download(url, model, onProgress);
  // A full storage quota only costs the next load a download: the model runs from memory.
  const stored = await cache
    .put(url, new Response(blob, { headers: { 'content-type': 'application/octet-stream' } }))
    .then(
      () => true,
      (error: unknown) => {
        console.warn(
          `[inpage-llm] '${model}' runs from memory: it could not be stored in the browser's cache (${error instanceof Error ? error.message : String(error)}), so the next load downloads it again.`,
        );
        return false;
      },
    );
  if (!stored) return blob;
  return (await cache.match(url))?.blob() ?? blob;
}

async function download(url: string, model: string, onProgress: (progress: LoadProgress) => void): Promise<Blob> {
  let response: Response;
  try {
    response = await fetch(url);
  } catch (error) {
    throw failed(model, `the network is unreachable (${url}).`, error);
  }
  if (!response.ok || !response.body) throw failed(model, `HTTP ${response.status} for ${url}.`);
  // A compressed response's length is not the file's: then the total is unknown until the end.
  const total = response.headers.has('content-encoding') ? 0 : Number(response.headers.get('content-length') ?? 0);
  const chunks: Uint8Array[] = [];
  let loaded = 0;
  const reader = response.body.getReader();
  const size = new SizeCheck(model);
  await checked(reader, () => size.declared(total));
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    const reason = loaded < HEAD_BYTES ? notGgufReason(head(chunks, value)) : null;
    if (reason !== null) {
      await reader.cancel();
      throw new ServiceUnavailableError(
        `'${url}' is not a GGUF file: ${reason}. Check the model URL.`,
        'model_load_failed',
      );
    }
    chunks.push(value);
    loaded += value.length;
    await checked(reader, () => size.add(value, loaded));
    // Without a known total (a compressed response) the download is indeterminate: null, not 0.
    onProgress(
      total > 0
        ? { model, phase: 'download', fraction: loaded / total, loadedBytes: loaded, totalBytes: total }
        : { model, phase: 'download', fraction: null, loadedBytes: loaded },
    );
  }
  if (total > 0 && loaded !== total) throw failed(model, `got ${loaded} of ${total} bytes.`);
  if (loaded === 0)
    throw new ServiceUnavailableError(`'${url}' is not a GGUF file (it is empty).`, 'model_load_failed');
  onProgress({ model, phase: 'download', fraction: 1, loadedBytes: loaded, totalBytes: loaded });
  return new Blob(chunks as BlobPart[]);
}

/** The body's first bytes (up to HEAD_BYTES): those so far, then `next`'s. */
function head(chunks: Uint8Array[], next: Uint8Array): Uint8Array {
  const bytes = [...chunks, next].flatMap((chunk) => Array.from(chunk.subarray(0, HEAD_BYTES)));
  return new Uint8Array(bytes.slice(0, HEAD_BYTES));
}

/** Drops `url`'s cached copy (a file that failed its checks is downloaded again next time). */
export async function forgetModelFile(url: string): Promise<void> {
  await (await caches.open(MODEL_CACHE)).delete(url).catch(() => false);
}

/** Runs `check`; if it throws (the model is too large), the download stops before the error goes on. */
async function checked(reader: ReadableStreamDefaultReader<Uint8Array>, check: () => void): Promise<void> {
  try {
    check();
  } catch (error) {
    await reader.cancel().catch(() => undefined);
    throw error;
  }
}
