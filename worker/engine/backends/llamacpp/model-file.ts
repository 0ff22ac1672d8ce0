/**
 * A GGUF model's files, as the llamacpp backend loads them: from the model store
 * (`worker/engine/model-store/`: streamed to OPFS, resumed, verified), by URL (a split model by
 * its first part) or by Hugging Face id. A model stored by an earlier version in Cache Storage
 * (`LEGACY_CACHE`) is read from there.
 */
import { ServiceUnavailableError } from '#core/domain/errors';
import type { LoadProgress, ModelSpec } from '#core/domain/model-spec';
import { GgufError } from '#gguf/gguf-error';
import { downloadConnections } from '../../engine-settings';
import { resolveHf } from '../../model-store/hf-resolve';
import { modelParts } from '../../model-store/split-parts';
import {
  forgetStoredModel,
  isStored,
  storeModel,
  type ModelBlob,
  type WantedFile,
} from '../../model-store/store-model';

/** The Cache Storage bucket where versions before the model store kept downloaded GGUFs. */
export const LEGACY_CACHE = 'inpage-llm-gguf';

type StoredSource = Extract<ModelSpec['source'], { kind: 'url' | 'hf' }>;

/** Whether `spec` names a model file this backend downloads (a URL or a Hugging Face id). */
export function isStoredSource(source: ModelSpec['source']): source is StoredSource {
  return source.kind === 'url' || source.kind === 'hf';
}

/** The model's files (one, or a split model's parts in order), with one progress. */
export async function modelFiles(
  id: string,
  source: StoredSource,
  onProgress: (progress: LoadProgress) => void,
): Promise<ModelBlob[]> {
  if (source.kind === 'url') {
    const legacy = await legacyCopy(source.url);
    if (legacy) {
      onProgress({
        model: id,
        phase: 'download',
        fraction: 1,
        loadedBytes: legacy.size,
        totalBytes: legacy.size,
        cached: true,
      });
      return [{ name: 'model.gguf', blob: legacy }];
    }
  }
  return storeModel(
    { id, source: storeKey(source), files: () => wantedFiles(source), connections: downloadConnections() },
    onProgress,
  );
}

/**
 * Runs `check` on a file from `source` before llama.cpp sees it: where it finds the file bad (a
 * GgufError), the stored copy is dropped, so that a fixed file is downloaded next time, and
 * `refuse(error)` is thrown instead. Any other error passes as it is.
 */
export async function checkFile<T>(
  source: ModelSpec['source'],
  check: () => Promise<T>,
  refuse: (error: GgufError) => Error,
): Promise<T> {
  try {
    return await check();
  } catch (error) {
    if (!(error instanceof GgufError)) throw error;
    if (isStoredSource(source)) await forgetModelFiles(source);
    throw refuse(error);
  }
}

/** Drops the stored copy of `source` (a file that failed its checks is downloaded again next time). */
export async function forgetModelFiles(source: StoredSource): Promise<void> {
  if (source.kind === 'url' && typeof caches !== 'undefined')
    await (await caches.open(LEGACY_CACHE)).delete(source.url).catch(() => false);
  await forgetStoredModel(storeKey(source));
}

export async function modelFilesStored(source: StoredSource): Promise<boolean> {
  if (source.kind === 'url' && (await legacyCopy(source.url))) return true;
  return isStored(storeKey(source));
}

/** The store's key of `source`: its URL, or its `hf:` id and endpoint. */
export function storeKey(source: StoredSource): string {
  if (source.kind === 'url') return source.url;
  const named = source.file !== undefined ? `/${source.file}` : source.quant !== undefined ? `:${source.quant}` : '';
  return `hf:${source.repo}${named}@${source.endpoint}`;
}

async function wantedFiles(source: StoredSource): Promise<WantedFile[]> {
  if (source.kind === 'url') return modelParts(source.url, source.sha256 ?? null);
  const { files } = await resolveHf({ repo: source.repo, quant: source.quant, file: source.file }, source.endpoint);
  const first = files[0];
  if (!first) throw new ServiceUnavailableError(`'hf:${source.repo}' has no GGUF file to load.`, 'model_load_failed');
  // Mounted under the names llama.cpp derives from the first part's.
  const names = modelParts(first.url).map((part) => part.name);
  if (names.length !== files.length)
    throw new ServiceUnavailableError(
      `'hf:${source.repo}' lists ${files.length} parts of ${first.path}, where its name says ${names.length}.`,
      'model_load_failed',
    );
  return files.map((file, i) => ({ url: file.url, name: names[i] ?? 'model.gguf', sha256: file.sha256 ?? null }));
}

async function legacyCopy(url: string): Promise<Blob | null> {
  if (typeof caches === 'undefined') return null;
  const hit = await (await caches.open(LEGACY_CACHE)).match(url).catch(() => undefined);
  return hit ? hit.blob() : null;
}
