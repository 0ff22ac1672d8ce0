/**
 * `npx inpage-llm init [publicDir] [--dropin] [--no-save] [--force]`: copies the Service Worker
 * (and with `--dropin` the drop-in script and its engine files) into an app's public folder, the
 * way `msw init` does, and records the folder in the app's package.json. Without a folder it
 * re-copies into every recorded one (run it after upgrading inpage-llm).
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { copyWorkerFiles } from './copy-worker-files';
import { readPackageJson, readRecord, saveRecord } from './package-record';

const USAGE = `Usage: inpage-llm init [publicDir] [--dropin] [--no-save] [--force]

  publicDir   the folder your site serves at its root (public/, static/, dist/...)
  --dropin    also copy the drop-in script inpage-llm.js and its engine files (inpage-llm/)
  --no-save   do not record the folder in package.json
  --force     overwrite an sw.js that is not the inpage-llm Service Worker

Without publicDir, re-copies into the folders recorded in package.json ("inpage-llm").`;

const distDir = fileURLToPath(new URL('..', import.meta.url));

async function main(args: string[]): Promise<number> {
  const flags = new Set(args.filter((arg) => arg.startsWith('-')));
  const [command, publicDir, ...extra] = args.filter((arg) => !arg.startsWith('-'));
  const unknown = [...flags].filter((flag) => !['--dropin', '--no-save', '--force', '--help', '-h', '--version'].includes(flag));
  if (flags.has('--version')) {
    console.log(packageVersion());
    return 0;
  }
  if (flags.has('--help') || flags.has('-h') || command === undefined) {
    console.log(USAGE);
    return command === undefined && !flags.has('--help') && !flags.has('-h') ? 1 : 0;
  }
  if (command !== 'init' || unknown.length > 0 || extra.length > 0) {
    console.error(`inpage-llm: unknown ${command !== 'init' ? `command '${command}'` : `argument ${[...unknown, ...extra].join(' ')}`}\n\n${USAGE}`);
    return 1;
  }
  const appDir = process.cwd();
  const pkg = await readPackageJson(appDir);
  const force = flags.has('--force');
  if (publicDir === undefined) {
    const record = readRecord(pkg);
    if (record.workerDirectory.length === 0) {
      console.error(`inpage-llm: no folder given and none recorded in ${resolve(appDir, 'package.json')}.\n\n${USAGE}`);
      return 1;
    }
    for (const folder of record.workerDirectory) await copyInto(resolve(appDir, folder), record.dropinDirectory.includes(folder), force);
    return 0;
  }
  const dropin = flags.has('--dropin');
  await copyInto(resolve(appDir, publicDir), dropin, force);
  if (flags.has('--no-save')) return 0;
  if (pkg === null) {
    console.log(`No package.json in ${appDir}: the folder is not recorded (re-run init with it after upgrades).`);
    return 0;
  }
  await saveRecord(appDir, pkg, publicDir, dropin);
  console.log(`Recorded ${publicDir} in package.json ("inpage-llm"): \`npx inpage-llm init\` re-copies after an upgrade.`);
  return 0;
}

async function copyInto(folder: string, dropin: boolean, force: boolean): Promise<void> {
  const copied = await copyWorkerFiles(distDir, folder, { dropin, force });
  console.log(`inpage-llm ${packageVersion()}: copied into ${folder}`);
  for (const file of copied) console.log(`  ${file.path} (${Math.ceil(file.bytes / 1024)} KB)`);
}

function packageVersion(): string {
  const pkg: unknown = JSON.parse(readFileSync(resolve(distDir, '..', 'package.json'), 'utf8'));
  const version: unknown = typeof pkg === 'object' && pkg !== null ? Reflect.get(pkg, 'version') : undefined;
  return typeof version === 'string' ? version : 'unknown';
}

main(process.argv.slice(2)).then(
  (code) => (process.exitCode = code),
  (error: unknown) => {
    console.error(`inpage-llm: ${error instanceof Error ? error.message : String(error)}`);
    process.exitCode = 1;
  },
);
