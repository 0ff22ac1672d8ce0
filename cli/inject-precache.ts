/**
 * `inpage-llm precache <dist>`: writes the package's Service Worker into an app's build output
 * with the list of files to precache injected, the way Workbox's `injectManifest` does (the same
 * `[{ url, revision }]` replacing `self.__WB_MANIFEST`), without Workbox's build tooling.
 */
import { createHash } from 'node:crypto';
import { readFile, stat, writeFile } from 'node:fs/promises';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { listBuildFiles, type BuildFile, type BuildFiles } from './list-build-files';

const PLACEHOLDER = 'self.__WB_MANIFEST';

export interface PrecacheOptions {
  /** Where the Service Worker goes, relative to `distDir` (default `sw.js`, served at `/sw.js`). */
  swDest?: string;
  maxBytes?: number;
}

export interface PrecacheResult extends BuildFiles {
  swFile: string;
  totalBytes: number;
}

/** Writes `<distDir>/<swDest>` from the template `swSrc` with `distDir`'s files precached. */
export async function injectPrecache(
  swSrc: string,
  distDir: string,
  options: PrecacheOptions = {},
): Promise<PrecacheResult> {
  const root = resolve(distDir);
  const isDir = await stat(root).then(
    (info) => info.isDirectory(),
    () => false,
  );
  if (!isDir) throw new Error(`${root} is not a folder: pass your build output folder (run your build first).`);
  const swDest = (options.swDest ?? 'sw.js').split(sep).join('/');
  const files = await listBuildFiles(root, {
    swPaths: [swDest, `${swDest}.map`],
    ...(options.maxBytes ? { maxBytes: options.maxBytes } : {}),
  });
  if (!files.included.some((file) => file.path.endsWith('.html') || file.path.endsWith('.js'))) {
    throw new Error(
      `found nothing to precache in ${root} (no .html or .js files): is it your build output folder, and did the build run?`,
    );
  }
  const template = await readFile(swSrc, 'utf8');
  if (template.split(PLACEHOLDER).length !== 2)
    throw new Error(`${swSrc} is not the precache template (it must contain ${PLACEHOLDER} once)`);
  const swDir = dirname(join(root, swDest));
  const manifest = await Promise.all(
    files.included.map(async (file) => ({
      revision: await revision(file),
      url: relative(swDir, file.file).split(sep).join('/'),
    })),
  );
  const swFile = join(root, swDest);
  await writeFile(swFile, template.replace(PLACEHOLDER, JSON.stringify(manifest)));
  return { ...files, swFile, totalBytes: files.included.reduce((sum, file) => sum + file.bytes, 0) };
}

async function revision(file: BuildFile): Promise<string> {
  return createHash('md5')
    .update(await readFile(file.file))
    .digest('hex');
}
