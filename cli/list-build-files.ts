/**
 * The files of a build output folder that belong in a Service Worker precache: the app shell
 * (pages, scripts, styles, wasm, manifest, icons, fonts), without source maps, the Service
 * Worker itself, WebLLM's lazily imported chunk (cached at run time, only when a WebLLM model
 * loads) and files over the size limit.
 */
import { readdir, stat } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';

/** Extensions precached by default. */
export const PRECACHE_EXTENSIONS = [
  'html',
  'js',
  'mjs',
  'css',
  'wasm',
  'json',
  'webmanifest',
  'png',
  'svg',
  'ico',
  'webp',
  'jpg',
  'woff2',
  'txt',
];

/** The engine wasm is ~10 MB; Workbox's own default (2 MB) would leave it out. */
export const DEFAULT_MAX_BYTES = 32 * 1024 * 1024;

/** One file found, with its path relative to the folder (always `/`-separated). */
export interface BuildFile {
  path: string;
  file: string;
  bytes: number;
}

export interface BuildFiles {
  included: BuildFile[];
  /** Left out, with the reason (only those a user might have expected in the list). */
  skipped: Array<BuildFile & { reason: string }>;
}

/** Same test as the Service Worker's (src/core/domain/webllm-chunk-name.ts): `webllm.js` or `webllm-<hash>.js`. */
const isWebLLMChunk = (path: string) => /(?:^|\/)webllm(?:-[\w-]+)?\.js$/.test(path);

/** Walks `root` and sorts its files into precached and skipped; `swPaths` are the Service Worker's own files. */
export async function listBuildFiles(
  root: string,
  options: { swPaths: string[]; maxBytes?: number; extensions?: string[] },
): Promise<BuildFiles> {
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
  const extensions = new Set(options.extensions ?? PRECACHE_EXTENSIONS);
  const result: BuildFiles = { included: [], skipped: [] };
  for (const file of await walk(root)) {
    const path = relative(root, file).split(sep).join('/');
    const extension = path.includes('.') ? path.slice(path.lastIndexOf('.') + 1).toLowerCase() : '';
    if (!extensions.has(extension) || options.swPaths.includes(path)) continue;
    const entry = { path, file, bytes: (await stat(file)).size };
    if (isWebLLMChunk(path))
      result.skipped.push({ ...entry, reason: 'WebLLM chunk, cached at run time when a WebLLM model loads' });
    else if (entry.bytes > maxBytes)
      result.skipped.push({ ...entry, reason: `over ${Math.round(maxBytes / 1024 / 1024)} MB (--max-size)` });
    else result.included.push(entry);
  }
  return result;
}

async function walk(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const nested = await Promise.all(
    entries
      .filter((entry) => !entry.name.startsWith('.') && entry.name !== 'node_modules')
      .sort((a, b) => (a.name < b.name ? -1 : 1))
      .map((entry) =>
        entry.isDirectory()
          ? walk(join(dir, entry.name))
          : Promise.resolve(entry.isFile() ? [join(dir, entry.name)] : []),
      ),
  );
  return nested.flat();
}
