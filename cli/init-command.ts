/**
 * `inpage-llm init [publicDir] [--dropin] [--no-save] [--force]`: copies the Service Worker (and
 * with `--dropin` the drop-in script and its engine files) into an app's public folder, the way
 * `msw init` does, and records the folder in the app's package.json. Without a folder it
 * re-copies into every recorded one (run it after upgrading inpage-llm).
 */
import { resolve } from 'node:path';
import { copyWorkerFiles } from './copy-worker-files';
import { readPackageJson, readRecord, saveRecord } from './package-record';

export const INIT_USAGE = `inpage-llm init [publicDir] [--dropin] [--no-save] [--force]

  publicDir   the folder your site serves at its root (public/, static/, dist/...)
  --dropin    also copy the drop-in script inpage-llm.js and its engine files (inpage-llm/)
  --no-save   do not record the folder in package.json
  --force     overwrite an sw.js that is not the inpage-llm Service Worker

  Without publicDir, re-copies into the folders recorded in package.json ("inpage-llm"),
  replacing an older inpage-llm sw.js there.`;

export const INIT_FLAGS = ['--dropin', '--no-save', '--force'];

/** Runs `init`; resolves with the exit code. */
export async function runInit(
  distDir: string,
  version: string,
  publicDir: string | undefined,
  flags: ReadonlySet<string>,
): Promise<number> {
  const appDir = process.cwd();
  const pkg = await readPackageJson(appDir);
  const force = flags.has('--force');
  if (publicDir === undefined) {
    const record = readRecord(pkg);
    if (record.workerDirectory.length === 0) {
      console.error(
        `inpage-llm: no folder given and none recorded in ${resolve(appDir, 'package.json')}.\n\nUsage: ${INIT_USAGE}`,
      );
      return 1;
    }
    for (const folder of record.workerDirectory)
      await copyInto(distDir, version, resolve(appDir, folder), record.dropinDirectory.includes(folder), force);
    return 0;
  }
  const dropin = flags.has('--dropin');
  await copyInto(distDir, version, resolve(appDir, publicDir), dropin, force);
  if (flags.has('--no-save')) return 0;
  if (pkg === null) {
    console.log(`No package.json in ${appDir}: the folder is not recorded (re-run init with it after upgrades).`);
    return 0;
  }
  await saveRecord(appDir, pkg, publicDir, dropin);
  console.log(
    `Recorded ${publicDir} in package.json ("inpage-llm"): \`npx inpage-llm init\` re-copies after an upgrade.`,
  );
  return 0;
}

async function copyInto(
  distDir: string,
  version: string,
  folder: string,
  dropin: boolean,
  force: boolean,
): Promise<void> {
  const { files, sw } = await copyWorkerFiles(distDir, folder, { dropin, force });
  console.log(`inpage-llm ${version}: copied into ${folder} (sw.js: ${sw})`);
  for (const file of files)
    console.log(`  ${file.path} (${Math.ceil(file.bytes / 1024)} KB)${file.note ? `: ${file.note}` : ''}`);
}
