import type { WebLLMCacheBackend } from '#core/domain/webllm-source';

/** WebLLM's cache scopes (Cache API cache names / IndexedDB database names). */
export type WebLLMScope = 'webllm/model' | 'webllm/config' | 'webllm/wasm';

/** How WebLLM stores a file in IndexedDB: parsed JSON or raw bytes. */
export type StoreType = 'json' | 'arraybuffer';

/**
 * Writes files exactly where and how WebLLM's own artifact caches look for them, so the
 * downloads we make (with per-file progress and a clear quota error) are cache hits for it.
 */
export interface ArtifactStore {
  has(scope: WebLLMScope, url: string): Promise<boolean>;
  read(scope: WebLLMScope, url: string): Promise<Uint8Array | null>;
  put(scope: WebLLMScope, url: string, bytes: Uint8Array, type: StoreType): Promise<void>;
}

/** WebLLM's `ArtifactCache`: the Cache API, one cache per scope, keyed by URL. */
class CacheApiStore implements ArtifactStore {
  async has(scope: WebLLMScope, url: string): Promise<boolean> {
    return (await (await caches.open(scope)).match(url)) !== undefined;
  }
  async read(scope: WebLLMScope, url: string): Promise<Uint8Array | null> {
    const hit = await (await caches.open(scope)).match(url);
    return hit ? new Uint8Array(await hit.arrayBuffer()) : null;
  }
  async put(scope: WebLLMScope, url: string, bytes: Uint8Array, _type: StoreType): Promise<void> {
    await (await caches.open(scope)).put(url, new Response(bytes.slice()));
  }
}

const request = <T>(req: IDBRequest<T>): Promise<T> =>
  new Promise((resolve, reject) => {
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });

/** WebLLM's `ArtifactIndexedDBCache`: one database per scope, store `urls`, rows `{url, data}`. */
class IndexedDbStore implements ArtifactStore {
  private readonly dbs = new Map<string, Promise<IDBDatabase>>();

  private db(scope: WebLLMScope): Promise<IDBDatabase> {
    let db = this.dbs.get(scope);
    if (!db) {
      const open = indexedDB.open(scope, 1);
      open.onupgradeneeded = () => {
        if (!open.result.objectStoreNames.contains('urls')) open.result.createObjectStore('urls', { keyPath: 'url' });
      };
      db = request(open);
      this.dbs.set(scope, db);
    }
    return db;
  }
  private async row(scope: WebLLMScope, url: string): Promise<unknown> {
    return request((await this.db(scope)).transaction('urls', 'readonly').objectStore('urls').get(url));
  }
  async has(scope: WebLLMScope, url: string): Promise<boolean> {
    return (await this.row(scope, url)) !== undefined;
  }
  async read(scope: WebLLMScope, url: string): Promise<Uint8Array | null> {
    const row = await this.row(scope, url);
    const data: unknown = typeof row === 'object' && row !== null ? Reflect.get(row, 'data') : undefined;
    if (data instanceof ArrayBuffer) return new Uint8Array(data);
    return data === undefined ? null : new TextEncoder().encode(JSON.stringify(data));
  }
  async put(scope: WebLLMScope, url: string, bytes: Uint8Array, type: StoreType): Promise<void> {
    const data: unknown = type === 'json' ? JSON.parse(new TextDecoder().decode(bytes)) : bytes.slice().buffer;
    const tx = (await this.db(scope)).transaction('urls', 'readwrite');
    await request(tx.objectStore('urls').put({ url, data }));
  }
}

/** The store for WebLLM's cache backend; null for OPFS, where WebLLM downloads by itself. */
export function artifactStore(backend: WebLLMCacheBackend): ArtifactStore | null {
  if (backend === 'cache') return new CacheApiStore();
  if (backend === 'indexeddb') return new IndexedDbStore();
  return null;
}
