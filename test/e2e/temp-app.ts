/**
 * A throwaway app folder outside the repo, set up as if `npm install inpage-llm` had run:
 * `node_modules/inpage-llm` links to this checkout (its built `dist/`), or with `tarball` is
 * installed from the packed package (pack-package.ts); `node_modules/.bin` has the
 * `inpage-llm` command, and the other packages a spec needs link to ours.
 */
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { installTarball, packPackage } from './pack-package';

const run = promisify(execFile);

export interface TempApp {
  dir: string;
  /** Runs a shell command line (a README snippet) in the app folder; resolves with its stdout. */
  sh(command: string): Promise<string>;
  remove(): Promise<void>;
}

export async function makeTempApp(packages: string[] = [], { tarball = false } = {}): Promise<TempApp> {
  const dir = await mkdtemp(join(tmpdir(), 'inpage-app-'));
  await writeFile(
    join(dir, 'package.json'),
    `${JSON.stringify({ name: 'some-app', private: true, type: 'module' }, null, 2)}\n`,
  );
  if (tarball) {
    await mkdir(join(dir, 'pack'));
    await installTarball(dir, (await packPackage(join(dir, 'pack'))).tarball);
  } else {
    await mkdir(join(dir, 'node_modules', '.bin'), { recursive: true });
    await symlink(resolve('.'), join(dir, 'node_modules', 'inpage-llm'), 'dir');
    await symlink('../inpage-llm/dist/cli/inpage-llm.js', join(dir, 'node_modules', '.bin', 'inpage-llm'));
  }
  for (const name of packages) await symlink(resolve('node_modules', name), join(dir, 'node_modules', name), 'dir');
  return {
    dir,
    async sh(command) {
      const { stdout } = await run('sh', ['-c', command], {
        cwd: dir,
        env: { ...process.env, npm_config_yes: 'false' },
      });
      return stdout;
    },
    remove: () => rm(dir, { recursive: true, force: true }),
  };
}
