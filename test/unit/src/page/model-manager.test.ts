import { describe, expect, it } from 'vitest';
import { OpenAIError } from '../../../../src/core/domain/errors';
import type { StoredEntry } from '../../../../src/core/domain/stored-model';
import { createModelManager } from '../../../../src/page/model-manager';
import type { StoreAccess, StoreDir, StoreFile } from '../../../../src/page/model-folders';

/** An in-memory OPFS folder; `locked` names refuse removal as Chromium does while a sync handle is open. */
class MemoryDir implements StoreDir {
  readonly kind = 'directory';
  readonly children = new Map<string, MemoryDir | StoreFile>();
  readonly locked = new Set<string>();

  async *entries(): AsyncIterable<[string, MemoryDir | StoreFile]> {
    yield* [...this.children];
  }

  async getDirectoryHandle(name: string): Promise<MemoryDir> {
    const child = this.children.get(name);
    if (!(child instanceof MemoryDir)) throw new DOMException(`${name} not found`, 'NotFoundError');
    return child;
  }

  async removeEntry(name: string): Promise<void> {
    if (this.locked.has(name)) throw new DOMException('locked', 'NoModificationAllowedError');
    if (!this.children.delete(name)) throw new DOMException(`${name} not found`, 'NotFoundError');
  }

  dir(name: string): MemoryDir {
    const dir = new MemoryDir();
    this.children.set(name, dir);
    return dir;
  }

  file(name: string, content: string | Uint8Array<ArrayBuffer>, lastModified = 1000): this {
    this.children.set(name, { kind: 'file', getFile: async () => new File([content], name, { lastModified }) });
    return this;
  }
}

function entry(fields: Partial<StoredEntry>): StoredEntry {
  return {
    version: 1,
    id: 'x',
    source: 'http://a/x.gguf',
    files: [],
    complete: true,
    created: 1,
    lastUsed: 2,
    ...fields,
  };
}

const file = (size: number | null) => ({
  url: 'http://a/x.gguf',
  name: 'model.gguf',
  size,
  etag: null,
  lastModified: null,
  sha256: null,
  verified: false,
  ranges: [],
});

function store(): { storage: StoreAccess; models: MemoryDir } {
  const root = new MemoryDir();
  const models = root.dir('inpage-llm-models');
  const storage: StoreAccess = {
    getDirectory: async () => root,
    estimate: async () => ({ usage: 500, quota: 10_000 }),
    persisted: async () => false,
  };
  return { storage, models };
}

describe('createModelManager (inpage.models)', () => {
  it('lists each folder: its record, the bytes of its range files, newest use first', async () => {
    const { storage, models } = store();
    models
      .dir('k1')
      .file('entry.json', JSON.stringify(entry({ id: 'old', files: [file(6)], lastUsed: 10 })))
      .file('f0.r0', new Uint8Array(6));
    models
      .dir('k2')
      .file(
        'entry.json',
        JSON.stringify(entry({ id: 'new', files: [file(8), file(null)], complete: false, lastUsed: 20 })),
      )
      .file('f0.r0', new Uint8Array(3))
      .file('f0.r1', new Uint8Array(2));
    const list = await createModelManager(storage).list();
    expect(list).toEqual([
      {
        id: 'new',
        source: 'http://a/x.gguf',
        bytes: 5,
        totalBytes: null,
        parts: 2,
        complete: false,
        lastUsed: 20,
        created: 1,
      },
      {
        id: 'old',
        source: 'http://a/x.gguf',
        bytes: 6,
        totalBytes: 6,
        parts: 1,
        complete: true,
        lastUsed: 10,
        created: 1,
      },
    ]);
  });

  it('lists a folder without a readable record by its name (so it can be deleted); skips an empty one', async () => {
    const { storage, models } = store();
    models.dir('broken').file('entry.json', '{not json', 50).file('f0.r0', new Uint8Array(4), 70);
    models.dir('empty');
    const manager = createModelManager(storage);
    expect(await manager.list()).toEqual([
      { id: 'broken', source: '', bytes: 4, totalBytes: null, parts: 0, complete: false, lastUsed: 70, created: 70 },
    ]);
    expect(await manager.delete('broken')).toBe(true);
    expect(await manager.list()).toEqual([]);
  });

  it('deletes by id or folder name; false when there is none', async () => {
    const { storage, models } = store();
    models.dir('k1').file('entry.json', JSON.stringify(entry({ id: 'x' })));
    models.dir('k2').file('entry.json', JSON.stringify(entry({ id: 'y' })));
    const manager = createModelManager(storage);
    expect(await manager.delete('nope')).toBe(false);
    expect(await manager.delete('x')).toBe(true);
    expect(await manager.delete('k2')).toBe(true);
    expect(models.children.size).toBe(0);
  });

  it('a folder the engine is writing is a 503 model_in_use, and stays', async () => {
    const { storage, models } = store();
    models.dir('k1').file('entry.json', JSON.stringify(entry({ id: 'x', complete: false })));
    models.locked.add('k1');
    const error: unknown = await createModelManager(storage)
      .delete('x')
      .catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(OpenAIError);
    expect(error).toMatchObject({
      status: 503,
      code: 'model_in_use',
      message: expect.stringContaining("'x' is in use"),
    });
    expect(models.children.has('k1')).toBe(true);
  });

  it('usage: the stored bytes and models, the estimate and persistence', async () => {
    const { storage, models } = store();
    models
      .dir('k1')
      .file('entry.json', JSON.stringify(entry({ files: [file(6)] })))
      .file('f0.r0', new Uint8Array(6));
    expect(await createModelManager(storage).usage()).toEqual({
      bytes: 6,
      models: 1,
      estimate: { usage: 500, quota: 10_000 },
      persisted: false,
    });
  });

  it('no store yet, or no storage at all: empty, nothing to delete', async () => {
    const none = createModelManager(undefined);
    expect(await none.list()).toEqual([]);
    expect(await none.delete('x')).toBe(false);
    expect(await none.usage()).toEqual({ bytes: 0, models: 0, estimate: {}, persisted: false });
    const root = new MemoryDir();
    const fresh = createModelManager({ ...store().storage, getDirectory: async () => root });
    expect(await fresh.list()).toEqual([]);
  });
});
