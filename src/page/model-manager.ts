/**
 * `inpage.models`: the model store read and pruned from the page. It needs no engine (the
 * folders are the record), so a follower tab, a failed start and an offline page have it too.
 * A folder the engine worker is writing cannot be removed (Chromium refuses while a sync access
 * handle is open): that is a 503 `model_in_use`, not a half-deleted model.
 */
import { ServiceUnavailableError } from '../core/domain/errors';
import type { StoredEntry } from '../core/domain/stored-model';
import type { ModelManager, StoredModelInfo, StoredModelsUsage } from './inpage-options';
import { modelsRoot, readModelFolders, type ModelFolderInfo, type StoreAccess } from './model-folders';

/** `storage`: `navigator.storage` by default (absent in an insecure context: then nothing is stored). */
export function createModelManager(storage: StoreAccess | undefined = pageStorage()): ModelManager {
  return {
    list: () => listModels(storage),
    delete: (id) => deleteModel(storage, id),
    usage: () => storedUsage(storage),
  };
}

function pageStorage(): StoreAccess | undefined {
  return typeof navigator === 'undefined' ? undefined : navigator.storage;
}

async function listModels(storage: StoreAccess | undefined): Promise<StoredModelInfo[]> {
  const root = await modelsRoot(storage);
  if (!root) return [];
  // An empty folder stores nothing (a store lookup can leave one): not a model to show.
  const folders = (await readModelFolders(root)).filter((folder) => folder.files > 0);
  return folders.map(describe).sort((a, b) => b.lastUsed - a.lastUsed);
}

function describe(folder: ModelFolderInfo): StoredModelInfo {
  const entry = folder.entry;
  if (!entry)
    return {
      id: folder.key,
      source: '',
      bytes: folder.bytes,
      totalBytes: null,
      parts: 0,
      complete: false,
      lastUsed: folder.modified,
      created: folder.modified,
    };
  return {
    id: entry.id,
    source: typeof entry.source === 'string' ? entry.source : '',
    bytes: folder.bytes,
    totalBytes: totalBytes(entry),
    parts: entry.files.length,
    complete: entry.complete === true,
    lastUsed: numberOr(entry.lastUsed, folder.modified),
    created: numberOr(entry.created, folder.modified),
  };
}

function totalBytes(entry: StoredEntry): number | null {
  let sum = 0;
  for (const file of entry.files) {
    if (typeof file?.size !== 'number') return null;
    sum += file.size;
  }
  return sum;
}

/** A record's number, or `fallback` where a record of another writer left it out. */
function numberOr(value: unknown, fallback: number): number {
  return typeof value === 'number' && Number.isFinite(value) ? value : fallback;
}

async function deleteModel(storage: StoreAccess | undefined, id: string): Promise<boolean> {
  const root = await modelsRoot(storage);
  if (!root) return false;
  const matching = (await readModelFolders(root)).filter((folder) => folder.key === id || folder.entry?.id === id);
  let removed = false;
  for (const folder of matching) {
    try {
      await root.removeEntry(folder.key, { recursive: true });
      removed = true;
    } catch (error) {
      if (!(error instanceof DOMException)) throw error;
      // Gone since it was read (another tab deleted it): nothing left to do.
      if (error.name === 'NotFoundError') continue;
      if (error.name === 'NoModificationAllowedError')
        throw new ServiceUnavailableError(
          `The stored model '${id}' is in use: the engine is writing its files (a download in progress). ` +
            'Delete it once its load has finished or failed.',
          'model_in_use',
          { cause: error },
        );
      throw error;
    }
  }
  return removed;
}

async function storedUsage(storage: StoreAccess | undefined): Promise<StoredModelsUsage> {
  const models = await listModels(storage);
  // Either may be missing or refuse (an insecure context, a browser without them): unknown, not an error.
  const [estimate, persisted] = await Promise.all([
    Promise.resolve(storage?.estimate()).catch((): StorageEstimate | undefined => undefined),
    Promise.resolve(storage?.persisted()).catch(() => false),
  ]);
  return {
    bytes: models.reduce((sum, model) => sum + model.bytes, 0),
    models: models.length,
    estimate: {
      ...(estimate?.usage === undefined ? {} : { usage: estimate.usage }),
      ...(estimate?.quota === undefined ? {} : { quota: estimate.quota }),
    },
    persisted: persisted === true,
  };
}
