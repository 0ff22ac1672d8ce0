/**
 * The prebuilt engine worker's files (dist/inpage-llm/): the llama.cpp engine's builds
 * (`llama-engine.wasm`, SIMD128; `-relaxed`: relaxed SIMD, used where it validates; `-mt`: with
 * pthreads, for isolated pages with threads; `-m64`: a memory64 heap, for models too large for
 * wasm32; src/core/domain/engine-build.ts), their loaders (`llama-engine-*.mjs`) and `webllm.js`,
 * at the URLs the ES library sends first (`useAssets`, src/page/spawn-engine-worker-packaged.ts),
 * else beside the worker (the drop-in script's folder).
 *
 * An app's bundler copies the files verbatim under hashed names, so nothing here may find
 * them by a path relative to this file, and the worker holds no `import.meta` for a bundler to
 * rewrite. The URLs come by message, not in the worker's query string: a worker served from a
 * Service Worker's precache gets the cached entry's URL, without the query, as its location.
 */
import type * as WebLLM from '@mlc-ai/web-llm';
import type { EngineBuild, EngineFile } from '#core/domain/engine-build';
import type { EngineAssets } from '#core/protocol/engine-api';
import { engineFilesAt, type LlamaEngineFiles } from './backends/llamacpp/engine-files';

let given: EngineAssets | null = null;
const beside = (name: string): string => new URL(name, self.location.href).href;
const url = (file: EngineFile): string => given?.llama[file] ?? beside(file);

export function setEngineAssets(assets: EngineAssets): void {
  given = assets;
}

/** The llama.cpp engine's files for `build`. */
export const llamaEngineFiles = (build: EngineBuild): LlamaEngineFiles => engineFilesAt(build, url);

/** WebLLM's module (`webllm.js`), imported only when a WebLLM model is used. */
export const importWebLLM = (): Promise<typeof WebLLM> =>
  import(/* @vite-ignore */ given?.webllm ?? beside('webllm.js'));
