// The prebuilt engine worker for the ES library and the drop-in script, in dist/inpage-llm/:
// - engine-worker.js: the worker, with no `import.meta` and no relative imports, so an app's
//   bundler can copy it verbatim as an asset (any name, any worker format setting);
// - webllm.js: WebLLM's code (~6 MB) as one self-contained ES module, imported by URL only when
//   a WebLLM model loads;
// - llama-engine.wasm: the llama.cpp engine built by this project (scripts/engine/, committed),
//   SIMD128; llama-engine-relaxed.wasm: its relaxed-SIMD build, which the worker takes where the
//   browser validates relaxed SIMD (src/core/util/relaxed-simd.ts); llama-engine-mt.wasm and
//   llama-engine-relaxed-mt.wasm: the two with pthreads, and llama-engine-mt.mjs, their loader
//   (imported by URL: its pthread Workers load it too), for isolated pages with threads; the same
//   four with -m64 (a memory64 heap, for models too large for wasm32), with llama-engine-m64.mjs
//   and llama-engine-m64-mt.mjs (src/core/domain/engine-build.ts).
// The worker learns the URLs of the other files from the page's first message (`useAssets`), else
// takes its siblings (worker/engine/engine-assets-prebuilt.ts, swapped in for engine-assets.ts here).
import { copyFile, mkdir, readdir } from 'node:fs/promises';
import { resolve } from 'node:path';
import { build } from 'vite';

const OUT = 'dist/inpage-llm';
const ASSETS = resolve('worker/engine/engine-assets.ts');
const PREBUILT_ASSETS = resolve('worker/engine/engine-assets-prebuilt.ts');

/** Resolves the worker's `./engine-assets` imports to the prebuilt variant. */
const prebuiltAssets = {
  name: 'engine-assets-prebuilt',
  enforce: 'pre',
  async resolveId(source, importer, options) {
    if (!source.endsWith('/engine-assets')) return null;
    const resolved = await this.resolve(source, importer, { ...options, skipSelf: true });
    return resolved?.id === ASSETS ? PREBUILT_ASSETS : null;
  },
};

/** One ES module file from `input`, everything inlined. */
function single(input, fileName, plugins = []) {
  return build({
    configFile: false,
    logLevel: 'warn',
    publicDir: false,
    plugins,
    // No test-only hooks in the shipped worker (test/e2e/test-hooks-absent.test.ts checks).
    define: { __INPAGE_TEST_HOOKS__: 'false' },
    build: {
      outDir: OUT,
      emptyOutDir: false,
      target: 'es2022',
      assetsInlineLimit: 0,
      // WebLLM is one ~6 MB file, imported only when a WebLLM model loads.
      chunkSizeWarningLimit: 7000,
      rollupOptions: {
        input,
        preserveEntrySignatures: 'strict',
        // Slow transforms of WebLLM's code on a busy machine are not worth a warning.
        checks: { pluginTimings: false },
        output: { format: 'es', entryFileNames: fileName, codeSplitting: false },
      },
    },
  });
}

export async function buildEngineWorker() {
  await mkdir(OUT, { recursive: true });
  await single('worker/engine/engine-worker.ts', 'engine-worker.js', [prebuiltAssets]);
  await single('worker/engine/backends/webllm/webllm-module.ts', 'webllm.js');
  // Each build's wasm under its shipped name (the source folder names the SIMD128 builds -simd),
  // and every loader but the single-threaded wasm32 one (bundled into the worker).
  const WASM = 'worker/engine/backends/llamacpp/wasm';
  for (const name of await readdir(WASM))
    if (/^llama-engine-.*\.(wasm|mjs)$/.test(name))
      await copyFile(`${WASM}/${name}`, `${OUT}/${name.replace('-simd', '')}`);
  const files = (await readdir(OUT)).sort().join(', ');
  const expected = [
    'engine-worker.js',
    'llama-engine-m64-mt.mjs',
    'llama-engine-m64-mt.wasm',
    'llama-engine-m64.mjs',
    'llama-engine-m64.wasm',
    'llama-engine-mt.mjs',
    'llama-engine-mt.wasm',
    'llama-engine-relaxed-m64-mt.wasm',
    'llama-engine-relaxed-m64.wasm',
    'llama-engine-relaxed-mt.wasm',
    'llama-engine-relaxed.wasm',
    'llama-engine-webgpu.mjs',
    'llama-engine-webgpu.wasm',
    'llama-engine.wasm',
    'webllm.js',
  ];
  if (files !== expected.join(', ')) throw new Error(`${OUT} holds ${files}`);
}
