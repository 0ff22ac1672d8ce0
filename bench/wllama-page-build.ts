/**
 * Builds the wllama bench page (./wllama-page) into dist/bench-wllama/, where the preview server
 * serves it: the page and its worker bundled by esbuild, and `@wllama/wllama`'s own wasm beside
 * them. Done by the bench, not by `npm run build`: wllama is a devDependency, the bench's baseline.
 */
import { build } from 'esbuild';
import { copyFile, mkdir } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';

const OUT = resolve('dist/bench-wllama');
const SOURCE = resolve('bench/wllama-page');

/** Builds the page; returns its path on the preview server. */
export async function buildWllamaPage(): Promise<string> {
  await mkdir(OUT, { recursive: true });
  await build({
    entryPoints: { page: resolve(SOURCE, 'page.ts'), worker: resolve(SOURCE, 'worker.ts') },
    outdir: OUT,
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    logLevel: 'warning',
  });
  const wasm = createRequire(import.meta.url).resolve('@wllama/wllama/esm/wasm/wllama.wasm');
  await copyFile(wasm, resolve(OUT, 'wllama.wasm'));
  await copyFile(resolve(SOURCE, 'index.html'), resolve(OUT, 'index.html'));
  return '/bench-wllama/index.html';
}
