/**
 * A media part's bytes (issue 32): those in the request, or those of its http(s) URL, fetched
 * from the Service Worker under the page's CORS rules within llama-server's bounds (10 MB, 10 s:
 * tools/server's handle_media). A URL that does not answer 2xx in time, or answers more than the
 * bound, is llama-server's "Failed to download image", a 400 naming the part. The request's
 * `signal` (the client gone) aborts the download.
 */
import { InvalidRequestError } from '#core/domain/errors';
import { concatBytes } from '#core/util/concat-bytes';
import type { MediaPart } from './media-content';

/** llama-server's bounds on a media URL's download. */
export const MEDIA_DOWNLOAD_LIMIT = 10 * 1024 * 1024;
export const MEDIA_DOWNLOAD_TIMEOUT_MS = 10_000;

export async function mediaBytes(part: MediaPart, signal?: AbortSignal): Promise<Uint8Array> {
  if (part.source.kind === 'bytes') return part.source.bytes;
  const failed = (why: string) =>
    new InvalidRequestError(`Failed to download image (${why}) for '${part.param}'.`, part.param);
  const timeout = AbortSignal.timeout(MEDIA_DOWNLOAD_TIMEOUT_MS);
  const both = signal ? AbortSignal.any([signal, timeout]) : timeout;
  try {
    const response = await fetch(part.source.url, { signal: both, credentials: 'omit' });
    if (!response.ok || !response.body) throw failed(`HTTP ${response.status}`);
    const declared = Number(response.headers.get('content-length') ?? 0);
    if (declared > MEDIA_DOWNLOAD_LIMIT) throw failed(`${declared} bytes, over ${MEDIA_DOWNLOAD_LIMIT}`);
    const chunks: Uint8Array[] = [];
    let size = 0;
    const reader = response.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.length;
      if (size > MEDIA_DOWNLOAD_LIMIT) {
        await reader.cancel();
        throw failed(`over ${MEDIA_DOWNLOAD_LIMIT} bytes`);
      }
      chunks.push(value);
    }
    return concatBytes(chunks);
  } catch (error) {
    if (error instanceof InvalidRequestError) throw error;
    if (signal?.aborted) throw error;
    throw failed(timeout.aborted ? `no answer in ${MEDIA_DOWNLOAD_TIMEOUT_MS / 1000} s` : 'unreachable');
  }
}
