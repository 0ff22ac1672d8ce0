import { resolve } from 'node:path';
import { defineConfig } from 'vite';
import { isWebLLMChunk, WEBLLM_CHUNK } from './src/core/domain/webllm-chunk-name.ts';

/** Headers that make the page cross-origin isolated, so the CPU engine can use threads. */
export const isolationHeaders = {
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Embedder-Policy': 'require-corp',
};

const root = resolve(import.meta.dirname, 'demo');

/**
 * The playground (`dist/`), with its web app manifest and icons from `demo/public/`. The Service
 * Worker, the packaged library and the drop-in script are built by scripts/build.mjs.
 */
export const config = defineConfig({
  root,
  base: '/',
  // A missing file is a 404, not the demo page (a model URL typo must not 'load' HTML).
  appType: 'mpa',
  // The playground is what the e2e tests run: its engine keeps the test-only trap
  // (worker/engine/backends/llamacpp/test-trap.ts). The package's bundles define it false.
  define: { __INPAGE_TEST_HOOKS__: 'true' },
  publicDir: resolve(root, 'public'),
  build: {
    outDir: resolve(import.meta.dirname, 'dist'),
    emptyOutDir: false,
    target: 'es2022',
    // WebLLM is one ~6 MB chunk, imported only when a WebLLM model loads.
    chunkSizeWarningLimit: 7000,
    rollupOptions: { input: { demo: resolve(root, 'index.html') } },
  },
  worker: {
    format: 'es',
    rollupOptions: {
      output: {
        chunkFileNames: (chunk) => `assets/${isWebLLMChunk(chunk.moduleIds) ? WEBLLM_CHUNK : '[name]'}-[hash].js`,
      },
    },
  },
  server: { headers: isolationHeaders },
  preview: { headers: isolationHeaders },
});

export default config;
