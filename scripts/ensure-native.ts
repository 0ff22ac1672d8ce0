/**
 * Native llama.cpp for comparisons: node-llama-cpp 3.22.1 with its prebuilt CPU binary,
 * installed on demand into .bench/native (not a dependency of the project).
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const DIR = resolve('.bench/native');

/** Installs node-llama-cpp into .bench/native when missing; returns the file URL of its entry. */
export async function ensureNative(): Promise<string> {
  const entry = resolve(DIR, 'node_modules/node-llama-cpp/dist/index.js');
  if (!existsSync(entry)) {
    await mkdir(DIR, { recursive: true });
    await writeFile(resolve(DIR, 'package.json'), '{"private":true,"type":"module"}\n');
    console.log('installing node-llama-cpp (CPU prebuilt) into .bench/native ...');
    execFileSync('npm', ['install', '--no-audit', '--no-fund', '--ignore-scripts', '--omit=optional', 'node-llama-cpp@3.22.1', `@node-llama-cpp/linux-x64@3.22.1`], { cwd: DIR, stdio: 'inherit' });
  }
  return pathToFileURL(entry).href;
}
