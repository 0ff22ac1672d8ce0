/**
 * The webllm download's progress: the model's size is known only once tensor-cache.json is
 * parsed and the files of unknown size are in (a gzipped response has no Content-Length), so
 * until then the fraction is null; it never goes 0 -> 1 -> 0.
 */
import type { ModelRecord } from '@mlc-ai/web-llm';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { LoadProgress } from '../../../../../../src/core/domain/model-spec';
import { prefetchModel } from '../../../../../../worker/engine/backends/webllm/prefetch';
import type { ArtifactStore } from '../../../../../../worker/engine/backends/webllm/store';

const base = 'https://models.test/tiny/resolve/main/';
const json = (value: unknown) => new TextEncoder().encode(JSON.stringify(value));
const shard = new Uint8Array(4096);
const files = new Map<string, Uint8Array>([
  [
    `${base}mlc-chat-config.json`,
    json({ vocab_size: 258, context_window_size: 512, tokenizer_files: ['tokenizer.json'] }),
  ],
  [`${base}tensor-cache.json`, json({ records: [0, 1, 2].map((i) => ({ dataPath: `shard_${i}.bin`, nbytes: 4096 })) })],
  [`${base}tokenizer.json`, json({ model: { vocab: {} } })],
  ['https://libs.test/tiny.wasm', new Uint8Array(1000)],
  ...[0, 1, 2].map((i): [string, Uint8Array] => [`${base}shard_${i}.bin`, shard]),
]);
const record = {
  model: 'https://models.test/tiny',
  model_id: 'tiny',
  model_lib: 'https://libs.test/tiny.wasm',
} as ModelRecord;

/** Every file served in 1 KB parts without a Content-Length (as a gzipped response comes). */
function serve(): void {
  vi.stubGlobal('fetch', async (url: string) => {
    const bytes = files.get(url);
    if (!bytes) return new Response(null, { status: 404 });
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let at = 0; at < bytes.length; at += 1024) controller.enqueue(bytes.slice(at, at + 1024));
        controller.close();
      },
    });
    return new Response(body);
  });
}

function memoryStore(): ArtifactStore {
  const stored = new Map<string, Uint8Array>();
  return {
    has: async (_scope, url) => stored.has(url),
    read: async (_scope, url) => stored.get(url) ?? null,
    put: async (_scope, url, bytes) => void stored.set(url, bytes),
  };
}

async function reports(store: ArtifactStore): Promise<LoadProgress[]> {
  const out: LoadProgress[] = [];
  await prefetchModel(record, store, (progress) => out.push(progress), new AbortController().signal);
  return out;
}

const size = [...files.values()].reduce((sum, bytes) => sum + bytes.length, 0);

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('webllm download progress', () => {
  it('null until the size is known, then a fraction of the whole that never goes back', async () => {
    serve();
    const store = memoryStore();
    for (const out of [await reports(store), await reports(store)]) {
      const known = out.flatMap((p) => (p.fraction === null ? [] : [p.fraction]));
      expect(known.every((f, i) => f >= (known[i - 1] ?? 0))).toBe(true);
      const firstShard = out.findIndex((p) => p.file?.endsWith('shard_0.bin'));
      expect(firstShard).toBeGreaterThan(0);
      for (const early of out.slice(0, firstShard)) {
        expect(early.fraction).toBeNull();
        expect(early.totalBytes).toBeUndefined();
      }
      const fractions = out.slice(firstShard).map((p) => p.fraction);
      expect(fractions.every((f, i) => f !== null && f >= (fractions[i - 1] ?? 0))).toBe(true);
      expect(out.slice(firstShard).every((p) => p.totalBytes === size)).toBe(true);
      expect(out.at(-1)).toMatchObject({ fraction: 1, loadedBytes: size, totalBytes: size });
    }
  });
});
