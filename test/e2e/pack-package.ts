/**
 * The package as npm publishes it: `npm pack` of this checkout (after `npm run build`) into a
 * folder, and an offline `npm install` of that tarball into an app whose dependencies of
 * inpage-llm already link to this checkout's node_modules (so no registry is needed).
 */
import { execFile } from 'node:child_process';
import { mkdir, readFile, symlink } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

export interface PackedPackage {
  tarball: string;
  /** The paths inside the package, as `npm pack --json` lists them. */
  files: string[];
}

/** Runs `npm pack` of this checkout into `destination`. */
export async function packPackage(destination: string): Promise<PackedPackage> {
  const { stdout } = await run('npm', [
    'pack',
    '--json',
    '--ignore-scripts',
    '--pack-destination',
    destination,
    resolve('.'),
  ]);
  const [report] = JSON.parse(stdout) as Array<{ filename: string; files: Array<{ path: string }> }>;
  if (!report) throw new Error(`npm pack printed nothing: ${stdout}`);
  return { tarball: join(destination, report.filename), files: report.files.map((file) => file.path).sort() };
}

/** `npm install --offline <tarball>` in `appDir`, inpage-llm's own dependencies linked first. */
export async function installTarball(appDir: string, tarball: string): Promise<void> {
  const pkg = JSON.parse(await readFile('package.json', 'utf8')) as { dependencies?: Record<string, string> };
  for (const name of Object.keys(pkg.dependencies ?? {})) {
    await mkdir(dirname(join(appDir, 'node_modules', name)), { recursive: true });
    await symlink(resolve('node_modules', name), join(appDir, 'node_modules', name), 'dir');
  }
  await run('npm', ['install', '--offline', '--no-audit', '--no-fund', '--ignore-scripts', tarball], { cwd: appDir });
}
