/**
 * wllama 3.13 (the browser peer, `@wllama/wllama`: llama.cpp with ggml-webgpu, its own prebuilt
 * wasm) in Node, for the device check's baseline on the same GPU (node-engine.ts, docs/webgpu.md):
 * its engine worker runs in this thread (in-thread-worker.ts) with the host's `navigator.gpu`
 * (Dawn's Node binding). One greedy completion of a text prompt (its glue takes no token ids)
 * through its llama-server `completion` action (OpenAI's completions shape), every layer on the GPU
 * where it finds one: each token's id and logprob (`logprobs: 1`) and llama-server's timings.
 * Test-only.
 */
import { readFileSync } from 'node:fs';
import { CacheManager, Wllama } from '@wllama/wllama';
import { GREEDY_SERVER } from '../../bench/wllama-page/greedy-sampling';
import { installInThreadWorkers } from './in-thread-worker';

export interface WllamaAnswer {
  tokens: number[];
  logprobs: number[];
  prefillTokS: number;
  decodeTokS: number;
  loadMs: number;
}

/**
 * Each token's id and logprob from a choice's `logprobs`: llama-server writes them as
 * `{ content: [{ id, token, logprob, … }] }`, not in the legacy shape wllama's typings declare.
 */
function tokenEntries(logprobs: unknown): { id: number; logprob: number }[] {
  const content: unknown = typeof logprobs === 'object' && logprobs !== null ? Reflect.get(logprobs, 'content') : null;
  if (!Array.isArray(content)) return [];
  return content.flatMap((entry: unknown) => {
    if (typeof entry !== 'object' || entry === null) return [];
    const id: unknown = Reflect.get(entry, 'id');
    const logprob: unknown = Reflect.get(entry, 'logprob');
    return typeof id === 'number' && typeof logprob === 'number' ? [{ id, logprob }] : [];
  });
}

type StorageBackend = NonNullable<ConstructorParameters<typeof CacheManager>[0]>[number];

/** No model cache: the model is a Blob in memory (wllama's own backends need OPFS or a browser's storage). */
const NO_STORAGE: StorageBackend = {
  isSupported: () => true,
  read: () => Promise.resolve(null),
  write: () => Promise.reject(new Error('wllama-node: no model cache')),
  getSize: () => Promise.resolve(-1),
  list: () => Promise.resolve([]),
  delete: () => Promise.resolve(),
};

/**
 * The one XMLHttpRequest the worker makes: Emscripten reads a `file:` wasm URL with it (a
 * worker's fetch cannot), here from the file system.
 */
class FileRequest {
  responseType = '';
  status = 0;
  response: ArrayBuffer | null = null;
  onload: (() => void) | null = null;
  onerror: ((error: unknown) => void) | null = null;
  private url = '';

  open(_method: string, url: string): void {
    this.url = url;
  }

  send(): void {
    try {
      const bytes = readFileSync(new URL(this.url));
      this.response = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
      this.status = 200;
    } catch (error) {
      this.onerror?.(error);
      return;
    }
    this.onload?.();
  }
}

let installed = false;

/**
 * wllama's greedy answer (`count` tokens) to `prompt` on `blob`, `gpuLayers` on the GPU; `wasm`:
 * the URL of wllama.wasm; `navigator`: what its worker sees as `navigator` (with `gpu`).
 */
export async function wllamaAnswer(
  wasm: string,
  blob: Blob,
  prompt: string,
  count: number,
  gpuLayers: number,
  navigator: object,
): Promise<WllamaAnswer> {
  if (!installed) installInThreadWorkers({ navigator, location: new URL(wasm), XMLHttpRequest: FileRequest });
  installed = true;
  const started = performance.now();
  const quiet = { debug: () => {}, log: () => {}, warn: console.warn, error: console.error };
  const wllama = new Wllama(
    { default: wasm },
    { suppressNativeLog: true, logger: quiet, cacheManager: new CacheManager([NO_STORAGE]) },
  );
  try {
    await wllama.loadModel([blob], { n_gpu_layers: gpuLayers, n_ctx: 2048, n_threads: 1, n_parallel: 1 });
    const loadMs = performance.now() - started;
    const result = await wllama.createCompletion({
      ...GREEDY_SERVER,
      temperature: 0,
      prompt,
      stream: false,
      max_tokens: count,
      logprobs: 1,
    });
    const content = tokenEntries(result.choices[0]?.logprobs);
    return {
      tokens: content.map((entry) => entry.id),
      logprobs: content.map((entry) => entry.logprob),
      prefillTokS: Math.round((result.timings?.prompt_per_second ?? 0) * 10) / 10,
      decodeTokS: Math.round((result.timings?.predicted_per_second ?? 0) * 10) / 10,
      loadMs: Math.round(loadMs),
    };
  } finally {
    await wllama.exit();
  }
}
