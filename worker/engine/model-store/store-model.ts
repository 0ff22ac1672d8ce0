/**
 * A model's files from the model store: stored whole (checked against its record, touched as
 * used), or downloaded into it (resumed from what is stored, ranges in parallel, each file
 * checked against its publisher's sha256 where one is known) with one progress over all files.
 * Where nothing can be stored (no OPFS; the quota is spent) the files come into memory instead,
 * with a warning.
 */
import { ServiceUnavailableError } from '#core/domain/errors';
import type { LoadProgress } from '#core/domain/model-spec';
import type { StoredEntry, StoredFile } from '#core/domain/stored-model';
import { memoryLimit, tooLarge } from '../backends/llamacpp/memory-limit';
import { StorageFull, isQuotaError } from './download-errors';
import { downloadFile } from './download-file';
import { HeadCheck } from './head-check';
import { downloadToMemory } from './memory-download';
import { ModelFolder, canStore } from './model-folder';
import { sha256Of } from './verify-sha256';
import type { WantedFile } from './wanted-file';

export type { WantedFile } from './wanted-file';

/** The most often a download reports its progress while bytes flow, in ms. */
const PROGRESS_MS = 50;

export interface ModelRequest {
  /** The model's id (in progress and errors). */
  id: string;
  /** What names it (the store's key): its URL, or its `hf:` id with the endpoint. */
  source: string;
  /** Its files, asked only where none is stored yet (resolving an `hf:` id needs the network). */
  files: () => Promise<WantedFile[]>;
  /** Parallel connections in all (`startInpage({ downloads })`). */
  connections: number;
}

/** A file ready for the engine, file-backed where stored. */
export interface ModelBlob {
  name: string;
  blob: Blob;
}

export async function storeModel(
  request: ModelRequest,
  onProgress: (progress: LoadProgress) => void,
): Promise<ModelBlob[]> {
  if (!canStore()) return inMemory(request, onProgress, 'this context has no origin private file system');
  try {
    return await fromStore(request, onProgress);
  } catch (error) {
    if (!(error instanceof StorageFull) && !isQuotaError(error)) throw error;
    await forgetStoredModel(request.source).catch(() => undefined);
    return inMemory(request, onProgress, "the origin's storage quota is spent");
  }
}

async function fromStore(request: ModelRequest, onProgress: (progress: LoadProgress) => void): Promise<ModelBlob[]> {
  let folder = await ModelFolder.open(request.source);
  const stored = await folder.entry();
  if (stored?.complete && (await intact(folder, stored))) {
    stored.lastUsed = Date.now();
    await folder.saveEntry(stored).catch(() => undefined);
    const bytes = total(stored) ?? 0;
    onProgress({
      model: request.id,
      phase: 'download',
      fraction: 1,
      loadedBytes: bytes,
      totalBytes: bytes,
      cached: true,
    });
    return blobs(folder, stored);
  }
  let entry = stored && !stored.complete ? stored : null;
  try {
    if (!entry) {
      // None stored, or a record whose files are gone: the model is downloaded afresh.
      await folder.remove();
      folder = await ModelFolder.open(request.source);
      entry = newEntry(request, await request.files());
      await folder.saveEntry(entry);
    }
    await download(request, folder, entry, onProgress);
  } catch (error) {
    // A partial download stays for the next load to resume; a file that failed a check goes.
    const resumable = error instanceof ServiceUnavailableError && error.code === 'model_download_failed';
    if (!resumable) await folder.remove();
    throw error;
  }
  await verify(request.id, folder, entry, onProgress);
  entry.complete = true;
  entry.lastUsed = Date.now();
  await folder.saveEntry(entry);
  return blobs(folder, entry);
}

/** Deletes the model named by `source` from the store (a file that failed its checks). */
export async function forgetStoredModel(source: string): Promise<void> {
  if (canStore()) await (await ModelFolder.find(source))?.remove();
}

/** Whether the model named by `source` is stored whole. */
export async function isStored(source: string): Promise<boolean> {
  const folder = canStore() ? await ModelFolder.find(source) : null;
  if (!folder) return false;
  const entry = await folder.entry();
  return entry !== null && entry.complete && (await intact(folder, entry));
}

function newEntry(request: ModelRequest, files: WantedFile[]): StoredEntry {
  return {
    version: 1,
    id: request.id,
    source: request.source,
    files: files.map(({ url, name, sha256 }) => ({
      url,
      name,
      size: null,
      etag: null,
      lastModified: null,
      sha256,
      verified: false,
      ranges: [],
    })),
    complete: false,
    created: Date.now(),
    lastUsed: Date.now(),
  };
}

async function download(
  request: ModelRequest,
  folder: ModelFolder,
  entry: StoredEntry,
  onProgress: (progress: LoadProgress) => void,
): Promise<void> {
  let loaded = 0;
  for (const [index, file] of entry.files.entries()) loaded += await folder.fileBytes(index, file.ranges.length);
  const limit = memoryLimit();
  let reported = 0;
  const report = (force = true) => {
    // One report per PROGRESS_MS while bytes flow: each crosses to the page (and its listeners).
    const now = performance.now();
    if (!force && now - reported < PROGRESS_MS) return;
    reported = now;
    const all = total(entry);
    onProgress(
      all !== null && all > 0
        ? {
            model: request.id,
            phase: 'download',
            fraction: Math.min(1, loaded / all),
            loadedBytes: loaded,
            totalBytes: all,
          }
        : { model: request.id, phase: 'download', fraction: null, loadedBytes: loaded },
    );
  };
  report();
  const connections = Math.max(1, Math.floor(request.connections / entry.files.length));
  // The first file that fails stops the others (a split model's parts), so none is left writing.
  const stop = new AbortController();
  let failure: unknown = null;
  await Promise.allSettled(
    entry.files.map((file, fileIndex) => {
      const check = new HeadCheck(file.url, request.id);
      return downloadFile({
        signal: stop.signal,
        folder,
        entry,
        model: request.id,
        fileIndex,
        connections,
        onPlanned: async (planned, lost) => {
          loaded -= lost;
          check.declared(planned.size ?? 0);
          const all = total(entry);
          if (all !== null && all > limit.bytes) throw tooLarge(request.id, all, 'its Content-Length', limit);
          if (planned.size !== null) await checkRoom(planned.size);
          report();
        },
        onBytes: (chunk, offset) => {
          check.add(chunk, offset);
          loaded += chunk.length;
          report(false);
        },
      })
        .then(() => check.ended(file.size ?? 0))
        .catch((error: unknown) => {
          failure ??= error;
          stop.abort();
        });
    }),
  );
  if (failure !== null) throw failure;
  report();
}

/**
 * Refuses to store a file the origin's quota has no room for (`StorageFull`: it is downloaded
 * into memory instead), before any of its bytes is written: a write past the quota is refused
 * only once its bytes have taken room.
 */
async function checkRoom(bytes: number): Promise<void> {
  const { quota, usage } = await navigator.storage.estimate();
  if (quota !== undefined && usage !== undefined && bytes > quota - usage)
    throw new StorageFull(`${bytes} bytes do not fit in the ${quota - usage} bytes left of the origin's quota`);
}

/** Checks each file with a published sha256 that is not checked yet; a mismatch is a 503 and deletes the model. */
async function verify(
  model: string,
  folder: ModelFolder,
  entry: StoredEntry,
  onProgress: (progress: LoadProgress) => void,
): Promise<void> {
  const pending = entry.files.filter((file) => file.sha256 !== null && !file.verified);
  const bytes = pending.reduce((sum, file) => sum + (file.size ?? 0), 0);
  let done = 0;
  for (const file of pending) {
    const index = entry.files.indexOf(file);
    const blob = await folder.blob(index, file.ranges.length);
    const actual = await sha256Of(blob, (hashed) =>
      onProgress({ model, phase: 'verify', fraction: bytes > 0 ? (done + hashed) / bytes : 1, file: file.url }),
    );
    done += blob.size;
    if (actual !== file.sha256) {
      await folder.remove();
      throw new ServiceUnavailableError(
        `'${model}' failed its integrity check: ${file.url} has sha256 ${actual}, but its publisher gives ` +
          `${file.sha256}. The stored copy is deleted; the next load downloads it again.`,
        'model_integrity_failed',
      );
    }
    file.verified = true;
  }
}

/** Whether every range file holds its range whole (a record can outlive its files). */
async function intact(folder: ModelFolder, entry: StoredEntry): Promise<boolean> {
  for (const [index, file] of entry.files.entries()) {
    if (file.size === null || file.ranges.length === 0) return false;
    for (const [range, [start, end]] of file.ranges.entries())
      if ((await folder.storedBytes(index, range)) !== (end ?? file.size) - start) return false;
  }
  return true;
}

function total(entry: StoredEntry): number | null {
  let sum = 0;
  for (const file of entry.files) {
    if (file.size === null) return null;
    sum += file.size;
  }
  return sum;
}

async function blobs(folder: ModelFolder, entry: StoredEntry): Promise<ModelBlob[]> {
  return Promise.all(
    entry.files.map(async (file: StoredFile, index) => ({
      name: file.name,
      blob: await folder.blob(index, file.ranges.length),
    })),
  );
}

async function inMemory(
  request: ModelRequest,
  onProgress: (progress: LoadProgress) => void,
  why: string,
): Promise<ModelBlob[]> {
  const files = await request.files();
  console.warn(
    `[inpage-llm] '${request.id}' runs from memory: it cannot be stored (${why}), so the next load downloads it again.`,
  );
  const result: ModelBlob[] = [];
  for (const file of files)
    result.push({ name: file.name, blob: await downloadToMemory(file.url, request.id, onProgress) });
  return result;
}
