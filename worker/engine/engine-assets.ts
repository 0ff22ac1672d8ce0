/**
 * Where the engine's two large parts come from: the llama.cpp engine's wasm and WebLLM's code.
 * This is the variant for builds that bundle the worker from source (the playground, this
 * repo's dev server): the bundler emits the wasm files and splits WebLLM into a chunk loaded on
 * first use. The prebuilt worker (dist/inpage-llm/) swaps in `engine-assets-prebuilt.ts`
 * (scripts/build/engine-worker.mjs).
 */
import simd from './backends/llamacpp/wasm/llama-engine-simd.wasm?url';
import relaxed from './backends/llamacpp/wasm/llama-engine-relaxed.wasm?url';
import simdMt from './backends/llamacpp/wasm/llama-engine-simd-mt.wasm?url';
import relaxedMt from './backends/llamacpp/wasm/llama-engine-relaxed-mt.wasm?url';
import loaderMt from './backends/llamacpp/wasm/llama-engine-mt.mjs?url';
import simdM64 from './backends/llamacpp/wasm/llama-engine-simd-m64.wasm?url';
import relaxedM64 from './backends/llamacpp/wasm/llama-engine-relaxed-m64.wasm?url';
import loaderM64 from './backends/llamacpp/wasm/llama-engine-m64.mjs?url';
import simdM64Mt from './backends/llamacpp/wasm/llama-engine-simd-m64-mt.wasm?url';
import relaxedM64Mt from './backends/llamacpp/wasm/llama-engine-relaxed-m64-mt.wasm?url';
import loaderM64Mt from './backends/llamacpp/wasm/llama-engine-m64-mt.mjs?url';
import webgpu from './backends/llamacpp/wasm/llama-engine-webgpu.wasm?url';
import loaderWebGpu from './backends/llamacpp/wasm/llama-engine-webgpu.mjs?url';
import type { EngineBuild, EngineFile } from '#core/domain/engine-build';
import type { EngineAssets } from '#core/protocol/engine-api';
import { engineFilesAt, type LlamaEngineFiles } from './backends/llamacpp/engine-files';

/** The bundler placed the files; URLs from the page are not needed. */
export function setEngineAssets(_assets: EngineAssets): void {}

/** Each shipped name's file as the bundler emitted it (the source folder names the SIMD128 builds `-simd`). */
const URLS: Record<EngineFile, string> = {
  'llama-engine.wasm': simd,
  'llama-engine-relaxed.wasm': relaxed,
  'llama-engine-mt.wasm': simdMt,
  'llama-engine-relaxed-mt.wasm': relaxedMt,
  'llama-engine-mt.mjs': loaderMt,
  'llama-engine-m64.wasm': simdM64,
  'llama-engine-relaxed-m64.wasm': relaxedM64,
  'llama-engine-m64.mjs': loaderM64,
  'llama-engine-m64-mt.wasm': simdM64Mt,
  'llama-engine-relaxed-m64-mt.wasm': relaxedM64Mt,
  'llama-engine-m64-mt.mjs': loaderM64Mt,
  'llama-engine-webgpu.wasm': webgpu,
  'llama-engine-webgpu.mjs': loaderWebGpu,
};

const absolute = (file: EngineFile): string => new URL(URLS[file], self.location.href).href;

/** The llama.cpp engine's files for `build`. */
export const llamaEngineFiles = (build: EngineBuild): LlamaEngineFiles => engineFilesAt(build, absolute);

/** WebLLM's module, imported only when a WebLLM model is used (llama.cpp pages never fetch it). */
export const importWebLLM = () => import('@mlc-ai/web-llm');
