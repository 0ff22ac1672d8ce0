import type { ModelRecord } from '@mlc-ai/web-llm';
import { ServiceUnavailableError } from '#core/domain/errors';
import type { LoadProgress } from '#core/domain/model-spec';
import type { ArtifactStore, StoreType, WebLLMScope } from './store';

/** One file of a model as WebLLM will ask its cache for it. */
interface ModelFile {
  url: string;
  scope: WebLLMScope;
  type: StoreType;
  /** Size when known ahead (tensor shards). */
  size?: number;
}

/** What the download found: the model's chat config, its size, and whether all was cached. */
export interface Prefetched {
  /** `vocab_size` of mlc-chat-config.json (0 when absent). */
  vocabSize: number;
  /** `context_window_size` of mlc-chat-config.json (-1 when absent or sliding-window). */
  contextWindow: number;
  sizeBytes: number;
  cached: boolean;
}

/** WebLLM's own `cleanModelUrl`: the folder every model file is resolved against. */
export function modelBase(record: ModelRecord): string {
  const url = record.model.endsWith('/') ? record.model : `${record.model}/`;
  return new URL(/.+\/resolve\/.+\//.test(url) ? url : `${url}resolve/main/`).href;
}

/**
 * Downloads every file WebLLM's `reload()` will read (config, tokenizer, model library,
 * tensor-cache.json and its shards) into WebLLM's cache, reporting progress per file with
 * bytes (a fraction of the total once the total is known; the shards come last); files already
 * cached are reported as such. Then `reload()` reads only the cache.
 */
export async function prefetchModel(
  record: ModelRecord,
  store: ArtifactStore,
  report: (progress: LoadProgress) => void,
  signal: AbortSignal,
): Promise<Prefetched> {
  const base = modelBase(record);
  let loaded = 0;
  let total = 0;
  /**
   * Whether `total` is the model's size: only once tensor-cache.json has listed the shards and
   * every file of unknown size (a gzipped response has no Content-Length) is in. Until then
   * progress is indeterminate (a fraction of what is known so far would reach 1, then fall).
   */
  let sized = false;
  let cached = true;
  const get = async (file: ModelFile): Promise<Uint8Array> => {
    const hit = (await store.has(file.scope, file.url)) ? await store.read(file.scope, file.url) : null;
    const bytes = hit ?? (await download(file, (delta) => tell(file, (loaded += delta), false)));
    if (!hit) await save(store, file, bytes);
    cached &&= hit !== null;
    total += file.size === undefined ? bytes.length : 0;
    if (hit) loaded += bytes.length;
    tell(file, loaded, hit !== null);
    return bytes;
  };
  const tell = (file: ModelFile, bytes: number, fromCache: boolean) =>
    report({
      model: record.model_id,
      phase: 'download',
      fraction: sized && total > 0 ? Math.min(1, bytes / total) : null,
      loadedBytes: bytes,
      ...(sized ? { totalBytes: total } : {}),
      file: file.url,
      cached: fromCache,
    });
  async function download(file: ModelFile, progress: (delta: number) => void): Promise<Uint8Array> {
    const response = await fetch(file.url, { signal }).catch((error: unknown) => {
      throw new ServiceUnavailableError(
        `Downloading '${record.model_id}' failed: ${file.url} is not in the cache and the network failed (${String(error)}).`,
        'model_download_failed',
      );
    });
    if (!response.ok || !response.body)
      throw new ServiceUnavailableError(
        `Downloading '${record.model_id}' failed: HTTP ${response.status} for ${file.url}.`,
        'model_download_failed',
      );
    const length = Number(response.headers.get('content-length') ?? 0);
    if (file.size === undefined) total += length;
    const parts: Uint8Array[] = [];
    const reader = response.body.getReader();
    for (let part = await reader.read(); !part.done; part = await reader.read()) {
      parts.push(part.value);
      progress(part.value.length);
    }
    if (file.size === undefined) total -= length;
    const bytes = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
    parts.reduce((offset, p) => (bytes.set(p, offset), offset + p.length), 0);
    return bytes;
  }
  const json = (bytes: Uint8Array, url: string): unknown => {
    try {
      return JSON.parse(new TextDecoder().decode(bytes));
    } catch {
      throw new ServiceUnavailableError(
        `${url} is not JSON: is the WebLLM model folder URL right?`,
        'model_download_failed',
      );
    }
  };
  const config = json(
    await get({ url: new URL('mlc-chat-config.json', base).href, scope: 'webllm/config', type: 'arraybuffer' }),
    'mlc-chat-config.json',
  );
  const manifestUrl = new URL('tensor-cache.json', base).href;
  const manifest = json(await get({ url: manifestUrl, scope: 'webllm/model', type: 'json' }), manifestUrl);
  const shards = recordsOf(manifest).map((shard) => ({
    url: new URL(shard.dataPath, manifestUrl).href,
    scope: 'webllm/model' as const,
    type: 'arraybuffer' as const,
    size: shard.nbytes,
  }));
  total += shards.reduce((sum, shard) => sum + shard.size, 0);
  const tokenizerFiles = tokenizerFilesOf(config);
  const tokenizer = tokenizerFiles.includes('tokenizer.json')
    ? 'tokenizer.json'
    : tokenizerFiles.includes('tokenizer.model')
      ? 'tokenizer.model'
      : null;
  if (tokenizer) await get({ url: new URL(tokenizer, base).href, scope: 'webllm/model', type: 'arraybuffer' });
  // WebLLM caches a model library only when it is an absolute URL not on localhost.
  if (record.model_lib.startsWith('http') && !record.model_lib.includes('localhost')) {
    await get({ url: record.model_lib, scope: 'webllm/wasm', type: 'arraybuffer' });
  }
  sized = true;
  for (const shard of shards) await get(shard);
  return {
    vocabSize: numberField(config, 'vocab_size', 0),
    contextWindow: numberField(config, 'context_window_size', -1),
    sizeBytes: total,
    cached,
  };
}

async function save(store: ArtifactStore, file: ModelFile, bytes: Uint8Array): Promise<void> {
  try {
    await store.put(file.scope, file.url, bytes, file.type);
  } catch (error) {
    if (error instanceof DOMException && error.name === 'QuotaExceededError') {
      const estimate = await navigator.storage?.estimate().catch(() => null);
      const mb = (n: number | undefined) => `${Math.round((n ?? 0) / 2 ** 20)} MB`;
      const usage = estimate ? ` (used ${mb(estimate.usage)} of ${mb(estimate.quota)})` : '';
      throw new ServiceUnavailableError(
        `The browser's storage quota is exhausted while caching ${file.url}${usage}: delete cached models or free disk space.`,
        'storage_quota_exceeded',
      );
    }
    throw error;
  }
}

function recordsOf(manifest: unknown): Array<{ dataPath: string; nbytes: number }> {
  const records: unknown = typeof manifest === 'object' && manifest !== null ? Reflect.get(manifest, 'records') : null;
  if (!Array.isArray(records)) return [];
  return records.flatMap((entry: unknown) => {
    if (typeof entry !== 'object' || entry === null) return [];
    const dataPath: unknown = Reflect.get(entry, 'dataPath');
    const nbytes: unknown = Reflect.get(entry, 'nbytes');
    return typeof dataPath === 'string' && typeof nbytes === 'number' ? [{ dataPath, nbytes }] : [];
  });
}

function tokenizerFilesOf(config: unknown): string[] {
  const files: unknown = typeof config === 'object' && config !== null ? Reflect.get(config, 'tokenizer_files') : null;
  return Array.isArray(files) ? files.filter((file): file is string => typeof file === 'string') : [];
}

function numberField(config: unknown, key: string, fallback: number): number {
  const value: unknown = typeof config === 'object' && config !== null ? Reflect.get(config, key) : undefined;
  return typeof value === 'number' ? value : fallback;
}
