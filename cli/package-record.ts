import { readFile, writeFile } from 'node:fs/promises';
import { isAbsolute, relative, resolve, sep } from 'node:path';

/** What `init` records in the app's package.json under `"inpage-llm"`, so a re-run re-copies. */
export interface InitRecord {
  workerDirectory: string[];
  dropinDirectory: string[];
}

/** The app's package.json as JSON, or null when `dir` has none. */
export async function readPackageJson(dir: string): Promise<Record<string, unknown> | null> {
  const text = await readFile(resolve(dir, 'package.json'), 'utf8').catch(() => null);
  if (text === null) return null;
  const json: unknown = JSON.parse(text);
  if (typeof json !== 'object' || json === null || Array.isArray(json))
    throw new Error(`${resolve(dir, 'package.json')} is not a JSON object`);
  return { ...json };
}

/** The folders recorded by earlier runs (empty when none). */
export function readRecord(pkg: Record<string, unknown> | null): InitRecord {
  const entry: unknown = pkg?.['inpage-llm'];
  const list = (key: string): string[] => {
    const value: unknown = typeof entry === 'object' && entry !== null ? Reflect.get(entry, key) : undefined;
    if (typeof value === 'string') return [value];
    return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
  };
  return { workerDirectory: list('workerDirectory'), dropinDirectory: list('dropinDirectory') };
}

/** Adds `publicDir` (relative to the app, with `/`) to the record and writes package.json back. */
export async function saveRecord(
  appDir: string,
  pkg: Record<string, unknown>,
  publicDir: string,
  dropin: boolean,
): Promise<InitRecord> {
  const record = readRecord(pkg);
  const folder = toRecordPath(appDir, publicDir);
  const add = (list: string[]) => (list.includes(folder) ? list : [...list, folder]);
  const next: InitRecord = {
    workerDirectory: add(record.workerDirectory),
    dropinDirectory: dropin ? add(record.dropinDirectory) : record.dropinDirectory,
  };
  const existing: unknown = pkg['inpage-llm'];
  pkg['inpage-llm'] = { ...(typeof existing === 'object' && existing !== null ? existing : {}), ...next };
  await writeFile(resolve(appDir, 'package.json'), `${JSON.stringify(pkg, null, 2)}\n`);
  return next;
}

function toRecordPath(appDir: string, publicDir: string): string {
  const path = isAbsolute(publicDir) ? relative(appDir, publicDir) : relative(appDir, resolve(appDir, publicDir));
  return path.split(sep).join('/') || '.';
}
