/**
 * The prebuilt engine worker's files (dist/inpage-llm/): `llama-engine.wasm` (SIMD128),
 * `llama-engine-relaxed.wasm` (relaxed SIMD, used where it validates), their pthreads builds
 * (`llama-engine-mt.wasm`, `llama-engine-relaxed-mt.wasm`, with `llama-engine-mt.mjs`, their
 * loader, for isolated pages with threads) and `webllm.js`, at the
 * URLs the ES library sends first (`useAssets`, src/page/spawn-engine-worker-packaged.ts), else
 * beside the worker (the drop-in script's folder).
 *
 * An app's bundler copies the files verbatim under hashed names, so nothing here may find
 * them by a path relative to this file, and the worker holds no `import.meta` for a bundler to
 * rewrite. The URLs come by message, not in the worker's query string: a worker served from a
 * Service Worker's precache gets the cached entry's URL, without the query, as its location.
 */
import type * as WebLLM from '@mlc-ai/web-llm';
import type { EngineAssets } from '#core/protocol/engine-api';
import { hasRelaxedSimd } from '#core/util/relaxed-simd';
import type { LlamaEngineFiles } from './backends/llamacpp/engine-files';

let given: EngineAssets | null = null;
const beside = (name: string): string => new URL(name, self.location.href).href;

export function setEngineAssets(assets: EngineAssets): void {
  given = assets;
}

/** The llama.cpp engine's files: the relaxed-SIMD build where it runs, single-threaded or with pthreads (and its loader). */
export function llamaEngineFiles(pthreads: boolean): LlamaEngineFiles {
  const relaxed = hasRelaxedSimd();
  if (!pthreads)
    return {
      wasm: relaxed
        ? (given?.llamaWasmRelaxed ?? beside('llama-engine-relaxed.wasm'))
        : (given?.llamaWasm ?? beside('llama-engine.wasm')),
      loader: null,
    };
  return {
    wasm: relaxed
      ? (given?.llamaWasmRelaxedMt ?? beside('llama-engine-relaxed-mt.wasm'))
      : (given?.llamaWasmMt ?? beside('llama-engine-mt.wasm')),
    loader: given?.llamaLoaderMt ?? beside('llama-engine-mt.mjs'),
  };
}

/** WebLLM's module (`webllm.js`), imported only when a WebLLM model is used. */
export const importWebLLM = (): Promise<typeof WebLLM> =>
  import(/* @vite-ignore */ given?.webllm ?? beside('webllm.js'));
