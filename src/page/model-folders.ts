/**
 * The model store's folders as a page reads them (`src/core/domain/stored-model.ts` has the
 * layout; the engine worker writes it). Reading needs no sync access handle, so any tab can
 * list and size the models, also while the engine downloads one.
 */
import { ENTRY_FILE, MODELS_DIR, isRangeFileName, parseEntry, type StoredEntry } from '../core/domain/stored-model';

/** The part of an OPFS file handle read here (an in-memory one stands in for it in unit tests). */
export interface StoreFile {
  readonly kind: 'file';
  getFile(): Promise<File>;
}

/** The part of an OPFS directory handle used here. */
export interface StoreDir {
  readonly kind: 'directory';
  entries(): AsyncIterable<[string, StoreDir | StoreFile]>;
  getDirectoryHandle(name: string): Promise<StoreDir>;
  removeEntry(name: string, options?: { recursive?: boolean }): Promise<void>;
}

/** The part of `navigator.storage` the model manager uses. */
export interface StoreAccess {
  getDirectory(): Promise<StoreDir>;
  estimate(): Promise<StorageEstimate>;
  persisted(): Promise<boolean>;
}

/** One model folder: its name, its record (null when missing or unreadable) and its range files. */
export interface ModelFolderInfo {
  readonly key: string;
  readonly entry: StoredEntry | null;
  /** The sum of its range files' sizes. */
  readonly bytes: number;
  /** Its files' newest modification time (0: no files), the only date a folder without a record has. */
  readonly modified: number;
  /** How many files it holds, its record included (0: an empty folder). */
  readonly files: number;
}

/** The store's root folder, or null where there is none yet, or no OPFS at all (an insecure context). */
export async function modelsRoot(storage: StoreAccess | undefined): Promise<StoreDir | null> {
  if (typeof storage?.getDirectory !== 'function') return null;
  try {
    return await (await storage.getDirectory()).getDirectoryHandle(MODELS_DIR);
  } catch {
    return null;
  }
}

/** Every folder under `root`, read. A file that vanishes while it is read (a delete) counts as absent. */
export async function readModelFolders(root: StoreDir): Promise<ModelFolderInfo[]> {
  const folders: ModelFolderInfo[] = [];
  for await (const [key, handle] of root.entries())
    if (handle.kind === 'directory') folders.push(await readFolder(key, handle));
  return folders;
}

async function readFolder(key: string, dir: StoreDir): Promise<ModelFolderInfo> {
  let entry: StoredEntry | null = null;
  let bytes = 0;
  let modified = 0;
  let files = 0;
  for await (const [name, handle] of dir.entries()) {
    if (handle.kind !== 'file') continue;
    const file = await handle.getFile().catch(() => null);
    if (!file) continue;
    files += 1;
    modified = Math.max(modified, file.lastModified);
    if (isRangeFileName(name)) bytes += file.size;
    else if (name === ENTRY_FILE) entry = await readEntry(file);
  }
  return { key, entry, bytes, modified, files };
}

async function readEntry(file: File): Promise<StoredEntry | null> {
  try {
    return parseEntry(JSON.parse(await file.text()));
  } catch {
    return null;
  }
}
