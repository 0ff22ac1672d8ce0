/** Installs node-llama-cpp (CPU prebuilt from npm) into .bench/native on first use; returns its entry URL. */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const DIR = resolve('.bench/native');
const VERSION = '3.22.1';

/** The file URL of node-llama-cpp's entry module, installing the package if needed. */
export async function ensureNative(): Promise<string> {
  const entry = resolve(DIR, 'node_modules/node-llama-cpp/dist/index.js');
  if (!existsSync(entry)) {
    await mkdir(DIR, { recursive: true });
    await writeFile(resolve(DIR, 'package.json'), '{"private":true,"type":"module"}\n');
    console.log('installing node-llama-cpp (CPU prebuilt) into .bench/native ...');
    execFileSync(
      'npm',
      [
        'install',
        '--no-audit',
        '--no-fund',
        '--ignore-scripts',
        '--omit=optional',
        `node-llama-cpp@${VERSION}`,
        `@node-llama-cpp/linux-x64@${VERSION}`,
      ],
      { cwd: DIR, stdio: 'inherit' },
    );
  }
  return pathToFileURL(entry).href;
}
