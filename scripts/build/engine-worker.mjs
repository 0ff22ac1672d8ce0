// The engine worker as one prebuilt ES module beside its wasm (dist/inpage-llm/), for the ES
// library and the drop-in script. `base: './'` makes the wasm URL relative to the worker file.
import { build } from 'vite';
import { patchedWllamaWasm } from './patch-wllama-wasm.mjs';

export async function buildEngineWorker() {
  await build({
    configFile: false,
    logLevel: 'warn',
    publicDir: false,
    base: './',
    plugins: [patchedWllamaWasm()],
    build: {
      outDir: 'dist/inpage-llm',
      emptyOutDir: false,
      target: 'es2022',
      assetsInlineLimit: 0,
      // WebLLM is one ~6 MB chunk, imported only when a WebLLM model loads.
      chunkSizeWarningLimit: 7000,
      rollupOptions: {
        input: 'worker/engine/engine-worker.ts',
        output: {
          format: 'es',
          entryFileNames: 'engine-worker.js',
          chunkFileNames: (chunk) =>
            chunk.moduleIds.some((id) => id.includes('@mlc-ai/web-llm')) ? 'webllm.js' : '[name].js',
          assetFileNames: '[name][extname]',
        },
      },
    },
  });
}
