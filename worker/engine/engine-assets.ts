/**
 * Where the engine's two large parts come from: the llama.cpp engine's wasm and WebLLM's code.
 * This is the variant for builds that bundle the worker from source (the playground, this
 * repo's dev server): the bundler emits the wasm files and splits WebLLM into a chunk loaded on
 * first use. The prebuilt worker (dist/inpage-llm/) swaps in `engine-assets-prebuilt.ts`
 * (scripts/build/engine-worker.mjs).
 */
import simdUrl from './backends/llamacpp/wasm/llama-engine-simd.wasm?url';
import relaxedUrl from './backends/llamacpp/wasm/llama-engine-relaxed.wasm?url';
import type { EngineAssets } from '#core/protocol/engine-api';
import { hasRelaxedSimd } from '#core/util/relaxed-simd';

/** The bundler placed the files; URLs from the page are not needed. */
export function setEngineAssets(_assets: EngineAssets): void {}

/** The absolute URL of the llama.cpp engine's wasm: the relaxed-SIMD build where it runs. */
export const llamaWasmUrl = (): string => new URL(hasRelaxedSimd() ? relaxedUrl : simdUrl, self.location.href).href;

/** WebLLM's module, imported only when a WebLLM model is used (llama.cpp pages never fetch it). */
export const importWebLLM = () => import('@mlc-ai/web-llm');
