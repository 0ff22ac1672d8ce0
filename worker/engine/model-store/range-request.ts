/**
 * One ranged GET of a stored file's missing bytes, and what its answer says.
 *
 * `If-Range` goes only to the page's own origin: elsewhere it is not a CORS-safelisted header,
 * so it would cost a preflight that many CDNs refuse (a simple `Range` is safelisted). Across
 * origins the answer's own validator is compared instead: a 206 whose ETag (or Last-Modified)
 * differs from the stored one is a changed file, as a 200 would have said.
 */
import type { StoredFile } from '#core/domain/stored-model';

/** The Range header for bytes `[from, end)` (`end` null: to the file's end). */
export function rangeHeader(from: number, end: number | null): string {
  return end === null ? `bytes=${from}-` : `bytes=${from}-${end - 1}`;
}

/** The validator a resume may trust: a strong ETag, else Last-Modified, else none. */
export function validatorOf(file: Pick<StoredFile, 'etag' | 'lastModified'>): string | null {
  return file.etag ?? file.lastModified;
}

/** Fetches `[from, end)` of `file`; resolves with the raw answer (the caller reads its status). */
export function requestRange(
  file: StoredFile,
  from: number,
  end: number | null,
  signal: AbortSignal,
): Promise<Response> {
  const headers: Record<string, string> = { range: rangeHeader(from, end) };
  const validator = validatorOf(file);
  if (validator !== null && new URL(file.url).origin === self.location.origin) headers['if-range'] = validator;
  return fetch(file.url, { headers, cache: 'no-store', signal });
}

/** A strong ETag of `response` (a weak one cannot validate a range), or null. */
export function strongEtag(response: Response): string | null {
  const etag = response.headers.get('etag');
  return etag !== null && !etag.startsWith('W/') ? etag : null;
}

/**
 * Whether a 206 answers the range asked of the file stored: it starts at `from` (where
 * Content-Range is readable) and carries the stored file's validator (where one is readable).
 */
export function answersRange(response: Response, file: StoredFile, from: number): boolean {
  if (response.status !== 206) return false;
  const range = /^bytes (\d+)-\d+\/(\d+|\*)$/.exec(response.headers.get('content-range') ?? '');
  if (range && Number(range[1]) !== from) return false;
  if (range && file.size !== null && range[2] !== '*' && Number(range[2]) !== file.size) return false;
  const etag = strongEtag(response);
  if (etag !== null && file.etag !== null && etag !== file.etag) return false;
  const modified = response.headers.get('last-modified');
  if (file.etag === null && modified !== null && file.lastModified !== null && modified !== file.lastModified)
    return false;
  return true;
}
