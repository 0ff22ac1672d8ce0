// The packaged page code, bundled with esbuild (it leaves `new Worker(new URL(...,
// import.meta.url))` as written, which the ES library relies on; Vite would rewrite it):
// - dist/lib/inpage-llm.js: the ES library (`import { startInpage } from 'inpage-llm'`), its
//   dependencies left as imports for the app's bundler;
// - dist/inpage-llm.js: the drop-in classic script, everything inlined;
// - dist/cli/inpage-llm.js: the `inpage-llm init` command (Node).
import { chmod } from 'node:fs/promises';
import { resolve } from 'node:path';
import { build } from 'esbuild';

const SPAWN = resolve('src/page/spawn-engine-worker.ts');

/** Swaps the engine-worker spawner for one of the packaged variants. */
function spawnVariant(file) {
  return {
    name: 'engine-worker-variant',
    setup(pluginBuild) {
      pluginBuild.onResolve({ filter: /\/spawn-engine-worker$/ }, (args) =>
        resolve(args.resolveDir, `${args.path}.ts`) === SPAWN ? { path: resolve(file) } : undefined,
      );
    },
  };
}

export async function buildPageBundles(stamp, dependencies) {
  const define = {
    __INPAGE_VERSION__: JSON.stringify(stamp.version),
    __INPAGE_SW_CHECKSUM__: JSON.stringify(stamp.checksum),
    __INPAGE_TEST_HOOKS__: 'false',
  };
  const common = {
    bundle: true,
    platform: 'browser',
    target: 'es2022',
    define,
    logLevel: 'warning',
    legalComments: 'none',
  };
  await build({
    ...common,
    entryPoints: ['src/index.ts'],
    format: 'esm',
    outfile: 'dist/lib/inpage-llm.js',
    external: dependencies,
    plugins: [spawnVariant('src/page/spawn-engine-worker-packaged.ts')],
  });
  await build({
    ...common,
    entryPoints: ['src/page/dropin/dropin.ts'],
    format: 'iife',
    minify: true,
    outfile: 'dist/inpage-llm.js',
    plugins: [spawnVariant('src/page/spawn-engine-worker-dropin.ts')],
  });
  await build({
    entryPoints: ['cli/inpage-llm.ts'],
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'esm',
    packages: 'external',
    outfile: 'dist/cli/inpage-llm.js',
    banner: { js: '#!/usr/bin/env node' },
    logLevel: 'warning',
  });
  await chmod('dist/cli/inpage-llm.js', 0o755);
}
