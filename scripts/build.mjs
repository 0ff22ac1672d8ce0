// Builds everything into dist/: the demo and the library (vite.config.ts), then the Service
// Worker as one unhashed classic script at dist/sw.js (it must be served from the site root).
import { rm } from 'node:fs/promises';
import { build } from 'vite';

await rm('dist', { recursive: true, force: true });
await build({ configFile: 'vite.config.ts', logLevel: 'warn' });
await build({
  configFile: false,
  logLevel: 'warn',
  publicDir: false,
  build: {
    outDir: 'dist',
    emptyOutDir: false,
    target: 'es2022',
    lib: { entry: 'worker/sw/sw.ts', formats: ['iife'], name: 'inpageServiceWorker', fileName: () => 'sw.js' },
  },
});
console.log('built dist/ (demo, lib/inpage-llm.js, sw.js)');
