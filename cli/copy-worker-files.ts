/**
 * What `init` writes into a public folder: the Service Worker as `sw.js` and, for the drop-in,
 * the script `inpage-llm.js` and its engine files (`inpage-llm/`: the engine worker, the
 * llama.cpp wasm, and WebLLM's chunk, which the engine worker imports only for WebLLM models).
 */
import { copyFile, cp, mkdir, readFile, readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { describeSwIdentity, readSwIdentity } from './sw-stamp';

/** A file the init command writes, for its report. */
export interface CopiedFile {
  path: string;
  bytes: number;
  /** What it is for, when that is not obvious from the name. */
  note?: string;
}

/** What happened to `sw.js`: a new copy, the same build again, or an upgrade from an older one. */
export interface CopyResult {
  files: CopiedFile[];
  sw:
    | 'new'
    | 'current'
    | 'same version, another precache list (re-run `inpage-llm precache` if you used it)'
    | `upgraded from ${string}`
    | 'forced over a foreign sw.js';
}

/** The engine files the drop-in needs beside it, and why. */
const ENGINE_NOTES: Record<string, string> = {
  'engine-worker.js': 'the engine worker',
  'llama-engine.wasm': 'llama.cpp, the default backend',
  'llama-engine-relaxed.wasm': 'llama.cpp built with relaxed SIMD, used where the browser has it',
  'webllm.js': 'WebLLM, loaded only for data-backend="webllm" or "auto"',
};

/**
 * Copies the Service Worker into `publicDir` as `sw.js` and, with `dropin`, the drop-in files,
 * from the package's `dist/`. An existing `sw.js` of ours (any version) is replaced; one that is
 * not ours is left alone unless `force`.
 */
export async function copyWorkerFiles(
  distDir: string,
  publicDir: string,
  options: { dropin: boolean; force: boolean },
): Promise<CopyResult> {
  await mkdir(publicDir, { recursive: true });
  const target = join(publicDir, 'sw.js');
  // The drop-in build precaches the drop-in files (offline); the plain one precaches nothing.
  const source = join(distDir, 'init', options.dropin ? 'sw-dropin.js' : 'sw.js');
  const sw = await compare(
    await readFile(target, 'utf8').catch(() => null),
    await readFile(source, 'utf8'),
    options.force,
    target,
  );
  const files = [await copy(source, target)];
  if (options.dropin) {
    files.push(await copy(join(distDir, 'inpage-llm.js'), join(publicDir, 'inpage-llm.js')));
    const engineDir = join(publicDir, 'inpage-llm');
    await rm(engineDir, { recursive: true, force: true });
    await cp(join(distDir, 'inpage-llm'), engineDir, { recursive: true });
    for (const name of (await readdir(engineDir)).sort()) {
      const note = ENGINE_NOTES[name];
      files.push({ ...(await sizeOf(join(engineDir, name))), ...(note ? { note } : {}) });
    }
    for (const name of Object.keys(ENGINE_NOTES)) {
      if (!files.some((file) => file.path === join(engineDir, name)))
        throw new Error(`the package's dist/inpage-llm/ lacks ${name}: reinstall inpage-llm`);
    }
  }
  return { files, sw };
}

async function compare(
  existing: string | null,
  incoming: string,
  force: boolean,
  target: string,
): Promise<CopyResult['sw']> {
  if (existing === null) return 'new';
  const before = readSwIdentity(existing);
  if (before.kind === 'foreign') {
    if (!force)
      throw new Error(
        `${target} exists and is not the inpage-llm Service Worker; move it away or pass --force to overwrite it.`,
      );
    return 'forced over a foreign sw.js';
  }
  const after = readSwIdentity(incoming);
  if (existing === incoming) return 'current';
  if (
    before.kind === 'stamped' &&
    after.kind === 'stamped' &&
    before.checksum === after.checksum &&
    before.version === after.version
  ) {
    return 'same version, another precache list (re-run `inpage-llm precache` if you used it)';
  }
  return `upgraded from ${describeSwIdentity(before)}`;
}

async function copy(from: string, to: string): Promise<CopiedFile> {
  await copyFile(from, to);
  return sizeOf(to);
}

async function sizeOf(path: string): Promise<CopiedFile> {
  return { path, bytes: (await stat(path)).size };
}
