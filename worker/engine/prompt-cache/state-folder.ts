/**
 * An OPFS folder of saved engine states (llama.cpp sequence-state files, native/state.cpp):
 * the prompt cache's (`inpage-prompt-cache`) and the slot actions' (`inpage-slots`, llama-server's
 * `--slot-save-path`). Files are read whole and written through `createWritable`, which
 * replaces a file only when its write completes: a reader never sees half a state.
 */

/** Whether this context has OPFS (a worker or page of a secure origin). */
export function hasStateStorage(): boolean {
  return typeof navigator !== 'undefined' && typeof navigator.storage?.getDirectory === 'function';
}

export class StateFolder {
  private dir: Promise<FileSystemDirectoryHandle> | null = null;

  constructor(readonly name: string) {}

  /** The file's bytes, or null when there is no such file. */
  async read(file: string): Promise<Uint8Array<ArrayBuffer> | null> {
    try {
      const handle = await (await this.folder()).getFileHandle(file);
      return new Uint8Array(await (await handle.getFile()).arrayBuffer());
    } catch (error) {
      if (error instanceof DOMException && (error.name === 'NotFoundError' || error.name === 'TypeMismatchError'))
        return null;
      throw error;
    }
  }

  async write(file: string, bytes: Uint8Array<ArrayBuffer>): Promise<void> {
    const handle = await (await this.folder()).getFileHandle(file, { create: true });
    const writable = await handle.createWritable();
    try {
      await writable.write(bytes);
      await writable.close();
    } catch (error) {
      await writable.abort().catch(() => undefined);
      throw error;
    }
  }

  /** Deletes the file; true if there was one. */
  async remove(file: string): Promise<boolean> {
    try {
      await (await this.folder()).removeEntry(file);
      return true;
    } catch {
      return false;
    }
  }

  /** The names of the folder's files. */
  async files(): Promise<string[]> {
    const names: string[] = [];
    for await (const [name, handle] of (await this.folder()).entries()) if (handle.kind === 'file') names.push(name);
    return names;
  }

  private folder(): Promise<FileSystemDirectoryHandle> {
    this.dir ??= navigator.storage.getDirectory().then((root) => root.getDirectoryHandle(this.name, { create: true }));
    return this.dir;
  }
}
