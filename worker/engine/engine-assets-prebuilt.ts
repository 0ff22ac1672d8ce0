/**
 * The prebuilt engine worker's files (dist/inpage-llm/): `llama-engine.wasm` (SIMD128),
 * `llama-engine-relaxed.wasm` (relaxed SIMD, used where it validates) and `webllm.js`, at the
 * URLs the ES library sends first (`useAssets`, src/page/spawn-engine-worker-packaged.ts), else
 * beside the worker (the drop-in script's folder).
 *
 * An app's bundler copies the three files verbatim under hashed names, so nothing here may find
 * them by a path relative to this file, and the worker holds no `import.meta` for a bundler to
 * rewrite. The URLs come by message, not in the worker's query string: a worker served from a
 * Service Worker's precache gets the cached entry's URL, without the query, as its location.
 */
import type * as WebLLM from '@mlc-ai/web-llm';
import type { EngineAssets } from '#core/protocol/engine-api';
import { hasRelaxedSimd } from '#core/util/relaxed-simd';

let given: EngineAssets | null = null;
const beside = (name: string): string => new URL(name, self.location.href).href;

export function setEngineAssets(assets: EngineAssets): void {
  given = assets;
}

/** The absolute URL of the llama.cpp engine's wasm: the relaxed-SIMD build where it runs. */
export const llamaWasmUrl = (): string =>
  hasRelaxedSimd()
    ? (given?.llamaWasmRelaxed ?? beside('llama-engine-relaxed.wasm'))
    : (given?.llamaWasm ?? beside('llama-engine.wasm'));

/** WebLLM's module (`webllm.js`), imported only when a WebLLM model is used. */
export const importWebLLM = (): Promise<typeof WebLLM> =>
  import(/* @vite-ignore */ given?.webllm ?? beside('webllm.js'));
