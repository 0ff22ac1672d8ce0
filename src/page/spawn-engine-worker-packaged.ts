/**
 * The ES library's engine worker: the prebuilt `dist/inpage-llm/engine-worker.js`, and the URLs
 * of its wasm and WebLLM module (`createEngine` sends them first). Each file is a plain
 * `new URL('literal', import.meta.url)`, which an app's bundler (Vite) copies verbatim
 * as an asset and a browser without a bundler resolves natively. The worker's URL is deliberately
 * not written inside `new Worker(...)`: Vite would re-bundle the prebuilt worker in its default
 * `iife` worker format (warning about `import.meta`) and inline WebLLM's ~6 MB into it.
 */
import type { EngineAssets } from '../core/protocol/engine-api';

export function spawnEngineWorker(): Worker {
  const url = new URL('../inpage-llm/engine-worker.js', import.meta.url);
  return new Worker(url, { type: 'module', name: 'inpage-engine' });
}

export function engineAssets(): EngineAssets | null {
  return {
    llama: {
      'llama-engine.wasm': new URL('../inpage-llm/llama-engine.wasm', import.meta.url).href,
      'llama-engine-relaxed.wasm': new URL('../inpage-llm/llama-engine-relaxed.wasm', import.meta.url).href,
      'llama-engine-mt.wasm': new URL('../inpage-llm/llama-engine-mt.wasm', import.meta.url).href,
      'llama-engine-relaxed-mt.wasm': new URL('../inpage-llm/llama-engine-relaxed-mt.wasm', import.meta.url).href,
      'llama-engine-mt.mjs': new URL('../inpage-llm/llama-engine-mt.mjs', import.meta.url).href,
      'llama-engine-m64.wasm': new URL('../inpage-llm/llama-engine-m64.wasm', import.meta.url).href,
      'llama-engine-relaxed-m64.wasm': new URL('../inpage-llm/llama-engine-relaxed-m64.wasm', import.meta.url).href,
      'llama-engine-m64.mjs': new URL('../inpage-llm/llama-engine-m64.mjs', import.meta.url).href,
      'llama-engine-m64-mt.wasm': new URL('../inpage-llm/llama-engine-m64-mt.wasm', import.meta.url).href,
      'llama-engine-relaxed-m64-mt.wasm': new URL('../inpage-llm/llama-engine-relaxed-m64-mt.wasm', import.meta.url)
        .href,
      'llama-engine-m64-mt.mjs': new URL('../inpage-llm/llama-engine-m64-mt.mjs', import.meta.url).href,
      'llama-engine-webgpu.wasm': new URL('../inpage-llm/llama-engine-webgpu.wasm', import.meta.url).href,
      'llama-engine-webgpu.mjs': new URL('../inpage-llm/llama-engine-webgpu.mjs', import.meta.url).href,
    },
    webllm: new URL('../inpage-llm/webllm.js', import.meta.url).href,
  };
}
