/**
 * `inpage-llm precache <dist> [--sw-dest sw.js] [--max-size MB]`: run after your build; writes
 * the inpage-llm Service Worker into the build output with that output precached, so the app
 * (engine wasm included) loads offline after one visit. Prints each file and the total.
 */
import { join } from 'node:path';
import { injectPrecache } from './inject-precache';

export const PRECACHE_USAGE = `inpage-llm precache <dist> [--sw-dest <path>] [--max-size <MB>]

  dist        your build output folder (dist/, build/...): run it after your build
  --sw-dest   where the Service Worker goes inside dist (default sw.js)
  --max-size  leave out files larger than this many MB (default 32; the engine wasm is ~10 MB)

  Precaches .html .js .mjs .css .wasm .json .webmanifest .png .svg .ico .webp .jpg .woff2 .txt;
  WebLLM's chunk (webllm*.js, ~6 MB) is left out: the Service Worker caches it when used.`;

export const PRECACHE_OPTIONS = ['--sw-dest', '--max-size'];

const kb = (bytes: number) => `${Math.ceil(bytes / 1024).toLocaleString('en-US')} KB`;

/** Runs `precache`; resolves with the exit code. */
export async function runPrecache(
  distDir: string,
  buildDir: string | undefined,
  options: ReadonlyMap<string, string>,
): Promise<number> {
  if (buildDir === undefined) {
    console.error(`inpage-llm: precache needs your build output folder.\n\nUsage: ${PRECACHE_USAGE}`);
    return 1;
  }
  const maxSize = options.get('--max-size');
  const maxBytes = maxSize === undefined ? undefined : Number(maxSize) * 1024 * 1024;
  if (maxBytes !== undefined && !(maxBytes > 0))
    throw new Error(`--max-size ${maxSize} is not a positive number of MB`);
  const swDest = options.get('--sw-dest');
  const result = await injectPrecache(join(distDir, 'init', 'sw.js'), buildDir, {
    ...(swDest ? { swDest } : {}),
    ...(maxBytes ? { maxBytes } : {}),
  });
  console.log(
    `inpage-llm precache: wrote ${result.swFile}, precaching ${result.included.length} files, ${kb(result.totalBytes)}:`,
  );
  for (const file of result.included) console.log(`  ${file.path} (${kb(file.bytes)})`);
  for (const file of result.skipped) console.log(`  left out: ${file.path} (${kb(file.bytes)}): ${file.reason}`);
  return 0;
}
