/**
 * Where the engine's two large parts come from: the llama.cpp engine's wasm and WebLLM's code.
 * This is the variant for builds that bundle the worker from source (the playground, this
 * repo's dev server): the bundler emits the wasm files and splits WebLLM into a chunk loaded on
 * first use. The prebuilt worker (dist/inpage-llm/) swaps in `engine-assets-prebuilt.ts`
 * (scripts/build/engine-worker.mjs).
 */
import simdUrl from './backends/llamacpp/wasm/llama-engine-simd.wasm?url';
import relaxedUrl from './backends/llamacpp/wasm/llama-engine-relaxed.wasm?url';
import simdMtUrl from './backends/llamacpp/wasm/llama-engine-simd-mt.wasm?url';
import relaxedMtUrl from './backends/llamacpp/wasm/llama-engine-relaxed-mt.wasm?url';
import loaderMtUrl from './backends/llamacpp/wasm/llama-engine-mt.mjs?url';
import type { EngineAssets } from '#core/protocol/engine-api';
import type { LlamaEngineFiles } from './backends/llamacpp/engine-files';
import { hasRelaxedSimd } from '#core/util/relaxed-simd';

/** The bundler placed the files; URLs from the page are not needed. */
export function setEngineAssets(_assets: EngineAssets): void {}

const absolute = (url: string): string => new URL(url, self.location.href).href;

/**
 * The llama.cpp engine's files: the relaxed-SIMD build where it runs, single-threaded (its
 * loader is bundled: `loader` null) or with pthreads (its loader's URL).
 */
export function llamaEngineFiles(pthreads: boolean): LlamaEngineFiles {
  const relaxed = hasRelaxedSimd();
  if (!pthreads) return { wasm: absolute(relaxed ? relaxedUrl : simdUrl), loader: null };
  return { wasm: absolute(relaxed ? relaxedMtUrl : simdMtUrl), loader: absolute(loaderMtUrl) };
}

/** WebLLM's module, imported only when a WebLLM model is used (llama.cpp pages never fetch it). */
export const importWebLLM = () => import('@mlc-ai/web-llm');
