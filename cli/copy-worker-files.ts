import { copyFile, cp, mkdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';

/** A file the init command writes, for its report. */
export interface CopiedFile {
  path: string;
  bytes: number;
}

/** Marks our Service Worker script (the name of its IIFE): an `sw.js` without it is not ours. */
const SW_MARKER = 'inpageServiceWorker';

/**
 * Copies the Service Worker into `publicDir` as `sw.js` and, with `dropin`, the drop-in script
 * `inpage-llm.js` and its engine files (`inpage-llm/`), from the package's `dist/`. An `sw.js`
 * there that is not ours is left alone unless `force`.
 */
export async function copyWorkerFiles(distDir: string, publicDir: string, options: { dropin: boolean; force: boolean }): Promise<CopiedFile[]> {
  await mkdir(publicDir, { recursive: true });
  const target = join(publicDir, 'sw.js');
  const existing = await readFile(target, 'utf8').catch(() => null);
  if (existing !== null && !existing.includes(SW_MARKER) && !options.force) {
    throw new Error(`${target} exists and is not the inpage-llm Service Worker; move it away or pass --force to overwrite it.`);
  }
  // The drop-in build precaches the drop-in files (offline); the plain one precaches nothing.
  const copied = [await copy(join(distDir, 'init', options.dropin ? 'sw-dropin.js' : 'sw.js'), target)];
  if (options.dropin) {
    copied.push(await copy(join(distDir, 'inpage-llm.js'), join(publicDir, 'inpage-llm.js')));
    const engineDir = join(publicDir, 'inpage-llm');
    await rm(engineDir, { recursive: true, force: true });
    await cp(join(distDir, 'inpage-llm'), engineDir, { recursive: true });
    for (const file of ['engine-worker.js', 'wllama.wasm']) copied.push(await sizeOf(join(engineDir, file)));
  }
  return copied;
}

async function copy(from: string, to: string): Promise<CopiedFile> {
  await copyFile(from, to);
  return sizeOf(to);
}

async function sizeOf(path: string): Promise<CopiedFile> {
  return { path, bytes: (await readFile(path)).length };
}
