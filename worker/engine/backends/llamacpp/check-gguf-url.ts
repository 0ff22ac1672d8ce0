import { ServiceUnavailableError } from '../../../../src/core/errors';

const GGUF_MAGIC = [0x47, 0x47, 0x55, 0x46]; // "GGUF"

/**
 * Checks, with a 4-byte range request, that `url` serves a GGUF file before the download
 * starts: a 404 or an HTML fallback page becomes a clear error instead of a model that
 * "loads" garbage. A network failure is not an error here: the model may be in the cache.
 */
export async function checkGgufUrl(url: string, modelId: string): Promise<void> {
  let response: Response;
  try {
    response = await fetch(url, { headers: { range: 'bytes=0-3' } });
  } catch {
    return;
  }
  if (!response.ok) {
    throw new ServiceUnavailableError(
      `Downloading '${modelId}' failed: HTTP ${response.status} for ${url}.`,
      'model_download_failed',
    );
  }
  const head = new Uint8Array(await response.arrayBuffer()).subarray(0, 4);
  if (!GGUF_MAGIC.every((byte, i) => head[i] === byte)) {
    throw new ServiceUnavailableError(
      `'${url}' is not a GGUF file (no GGUF magic): check the model URL.`,
      'model_download_failed',
    );
  }
}
