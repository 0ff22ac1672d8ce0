/**
 * A model file downloaded into memory: where it cannot be stored (no OPFS here, or the origin's
 * quota is spent). The bytes are held until the engine copies them in, so this is the fallback
 * only; a warning says the next load downloads the model again.
 */
import type { LoadProgress } from '#core/domain/model-spec';
import { downloadFailed, fetchModelFile } from './download-errors';
import { HeadCheck } from './head-check';

export async function downloadToMemory(
  url: string,
  model: string,
  onProgress: (progress: LoadProgress) => void,
): Promise<Blob> {
  const { response, body } = await fetchModelFile(url, model);
  // A compressed response's length is not the file's: then the total is unknown until the end.
  const total = response.headers.has('content-encoding') ? 0 : Number(response.headers.get('content-length') ?? 0);
  const check = new HeadCheck(url, model);
  check.declared(total);
  const chunks: Uint8Array[] = [];
  let loaded = 0;
  const reader = body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      check.add(value, loaded);
      chunks.push(value);
      loaded += value.length;
      onProgress(
        total > 0
          ? { model, phase: 'download', fraction: loaded / total, loadedBytes: loaded, totalBytes: total }
          : { model, phase: 'download', fraction: null, loadedBytes: loaded },
      );
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
  if (total > 0 && loaded !== total) throw downloadFailed(model, `got ${loaded} of ${total} bytes.`);
  check.ended(loaded);
  return new Blob(chunks as BlobPart[]);
}
