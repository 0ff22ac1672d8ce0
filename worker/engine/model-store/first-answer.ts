/**
 * A file's first answer, and what it says about the file. It asks for the first
 * `MIN_RANGE_BYTES` only (`Range` is CORS-safelisted: no preflight), so that a file cut into
 * parallel ranges costs no byte twice:
 * - a 206 gives the file's size (its `Content-Range`, where readable) and says the server takes
 *   ranges; its body is the first bytes of range 0, which goes on with a request of its own;
 * - a 200 is the whole file, from a server that takes no ranges: one range, this body.
 */
import type { StoredFile } from '#core/domain/stored-model';
import { downloadFailed, fetchModelFile } from './download-errors';
import { MIN_RANGE_BYTES, planRanges } from './plan-ranges';
import { rangeHeader, strongEtag } from './range-request';

export interface FirstAnswer {
  response: Response;
  /** The byte its body ends at (null: the file's end). */
  end: number | null;
}

export async function firstAnswer(url: string, model: string): Promise<FirstAnswer> {
  const { response, body } = await fetchModelFile(url, model, { range: rangeHeader(0, MIN_RANGE_BYTES) });
  if (response.status !== 200 && response.status !== 206) {
    await body.cancel().catch(() => undefined);
    throw downloadFailed(model, `HTTP ${response.status} for ${url}.`);
  }
  return { response, end: response.status === 206 ? bodyEnd(response) : null };
}

/** Takes the first answer's size, validators and publisher's hash, and cuts the file into ranges. */
export function planFile(file: StoredFile, response: Response, connections: number): void {
  file.etag = strongEtag(response);
  file.lastModified = response.headers.get('last-modified');
  const linked = /^"?([0-9a-f]{64})"?$/.exec(response.headers.get('x-linked-etag') ?? '');
  if (file.sha256 === null && linked?.[1]) file.sha256 = linked[1];
  if (response.status === 206) {
    const total = /\/(\d+)$/.exec(response.headers.get('content-range') ?? '')?.[1];
    file.size = total === undefined ? null : Number(total);
    // Parallel ranges need a validator: each range's answer is checked against it.
    file.ranges = planRanges(file.size, (file.etag ?? file.lastModified) !== null, connections);
    return;
  }
  const length = response.headers.get('content-length');
  // A compressed answer's length is not the file's: then the size is known at its end.
  file.size = response.headers.has('content-encoding') || length === null ? null : Number(length);
  file.ranges = planRanges(file.size, false, connections);
}

/** Where a 206's body ends: its Content-Range's last byte + 1, else its length. */
function bodyEnd(response: Response): number | null {
  const last = /^bytes \d+-(\d+)\//.exec(response.headers.get('content-range') ?? '')?.[1];
  if (last !== undefined) return Number(last) + 1;
  const length = response.headers.get('content-length');
  return length === null ? MIN_RANGE_BYTES : Number(length);
}
