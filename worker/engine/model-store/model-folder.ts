/**
 * A stored model's OPFS folder, as the engine worker writes it: its record (`entry.json`) and
 * its range files, each written through a sync access handle (the fastest OPFS write, and only
 * a dedicated worker has it). A handle is exclusive: after a reload the old worker's handles can
 * outlive it for a moment, so opening one is retried for a few seconds.
 */
import {
  ENTRY_FILE,
  MODELS_DIR,
  entryKey,
  parseEntry,
  rangeFileName,
  type StoredEntry,
} from '#core/domain/stored-model';

/** How long opening a range file waits for the previous worker's handle to go. */
const LOCK_WAIT_MS = 5_000;

/** Whether this context can store models (OPFS with sync access handles: a dedicated worker). */
export function canStore(): boolean {
  return (
    typeof navigator !== 'undefined' &&
    typeof navigator.storage?.getDirectory === 'function' &&
    typeof FileSystemFileHandle !== 'undefined' &&
    'createSyncAccessHandle' in FileSystemFileHandle.prototype
  );
}

export class ModelFolder {
  private constructor(
    readonly key: string,
    private readonly dir: FileSystemDirectoryHandle,
    private readonly root: FileSystemDirectoryHandle,
  ) {}

  /** The folder of the model named by `source`, made if missing. */
  static async open(source: string): Promise<ModelFolder> {
    const root = await (await navigator.storage.getDirectory()).getDirectoryHandle(MODELS_DIR, { create: true });
    const key = await entryKey(source);
    return new ModelFolder(key, await root.getDirectoryHandle(key, { create: true }), root);
  }

  /** The folder of the model named by `source` where it exists (asking makes nothing). */
  static async find(source: string): Promise<ModelFolder | null> {
    try {
      const root = await (await navigator.storage.getDirectory()).getDirectoryHandle(MODELS_DIR);
      const key = await entryKey(source);
      return new ModelFolder(key, await root.getDirectoryHandle(key), root);
    } catch {
      return null;
    }
  }

  /** Its record, or null (none yet, or unreadable: then the model is downloaded again). */
  async entry(): Promise<StoredEntry | null> {
    try {
      const file = await (await this.dir.getFileHandle(ENTRY_FILE)).getFile();
      return parseEntry(JSON.parse(await file.text()));
    } catch {
      return null;
    }
  }

  async saveEntry(entry: StoredEntry): Promise<void> {
    const writable = await (await this.dir.getFileHandle(ENTRY_FILE, { create: true })).createWritable();
    await writable.write(JSON.stringify(entry));
    await writable.close();
  }

  /** How many bytes of range `range` of file `file` are stored (0: none). */
  async storedBytes(file: number, range: number): Promise<number> {
    try {
      return (await (await this.dir.getFileHandle(rangeFileName(file, range))).getFile()).size;
    } catch {
      return 0;
    }
  }

  /** How many bytes of file `file`'s `ranges` ranges are stored. */
  async fileBytes(file: number, ranges: number): Promise<number> {
    let bytes = 0;
    for (let range = 0; range < ranges; range++) bytes += await this.storedBytes(file, range);
    return bytes;
  }

  /** The stored bytes of file `file`: its ranges' files, one Blob (file-backed, never copied). */
  async blob(file: number, ranges: number): Promise<Blob> {
    const parts: File[] = [];
    for (let range = 0; range < ranges; range++)
      parts.push(await (await this.dir.getFileHandle(rangeFileName(file, range))).getFile());
    return new Blob(parts);
  }

  /** A sync access handle on range `range` of file `file` (made if missing), waiting out a stale lock. */
  async openRange(file: number, range: number): Promise<FileSystemSyncAccessHandle> {
    const handle = await this.dir.getFileHandle(rangeFileName(file, range), { create: true });
    const until = Date.now() + LOCK_WAIT_MS;
    for (;;) {
      try {
        return await handle.createSyncAccessHandle();
      } catch (error) {
        if (!(error instanceof DOMException) || error.name !== 'NoModificationAllowedError' || Date.now() > until)
          throw error;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
  }

  /** Drops file `file`'s ranges (it is downloaded from its start again). */
  async dropFile(file: number, ranges: number): Promise<void> {
    for (let range = 0; range < ranges; range++)
      await this.dir.removeEntry(rangeFileName(file, range)).catch(() => undefined);
  }

  /** Deletes the whole folder. */
  async remove(): Promise<void> {
    await this.root.removeEntry(this.key, { recursive: true }).catch(() => undefined);
  }
}
