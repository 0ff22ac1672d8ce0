/**
 * How a stored download fails. `RangeRefused`: the server answered a resume with the whole
 * file (it does not take ranges, or the file changed): the file starts over. `StorageFull`:
 * the origin's quota is spent: the model is downloaded into memory instead.
 */
import { ServiceUnavailableError } from '#core/domain/errors';

export class RangeRefused extends Error {
  override name = 'RangeRefused';
  constructor(
    readonly url: string,
    readonly response: Response,
  ) {
    super(`'${url}' was answered whole (HTTP ${response.status}) where a range was asked`);
  }
}

export class StorageFull extends Error {
  override name = 'StorageFull';
}

/** Whether `error` is the quota's refusal of a write. */
export function isQuotaError(error: unknown): boolean {
  return error instanceof DOMException && error.name === 'QuotaExceededError';
}

export const downloadFailed = (model: string, why: string, cause?: unknown) =>
  new ServiceUnavailableError(`Downloading '${model}' failed: ${why}`, 'model_download_failed', { cause });

/**
 * GETs a model file (`no-store`: the HTTP cache would keep a second copy of a multi-GB body):
 * an unreachable network, an HTTP error or a body-less answer is a 503 `model_download_failed`.
 */
export async function fetchModelFile(
  url: string,
  model: string,
  headers?: Record<string, string>,
): Promise<{ response: Response; body: ReadableStream<Uint8Array> }> {
  let response: Response;
  try {
    response = await fetch(url, { cache: 'no-store', ...(headers ? { headers } : {}) });
  } catch (error) {
    throw downloadFailed(model, `the network is unreachable (${url}).`, error);
  }
  if (!response.ok || !response.body) throw downloadFailed(model, `HTTP ${response.status} for ${url}.`);
  return { response, body: response.body };
}
