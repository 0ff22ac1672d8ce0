/**
 * llama.cpp's own test media (`tools/mtmd/test-1.jpeg`, `test-2.mp3`), taken from the llama.cpp
 * source the engine is built from: the git bundle in the node-llama-cpp tarball that
 * scripts/engine/engine-config.sh pins (its sha256 and the bundle's checked). The two files are
 * kept in `node_modules/.cache/inpage-llm/mtmd-media/`; the tarball (35 MB, from the npm registry
 * or the engine build's chroot where it is there) only until they are read out. Every run has
 * them, a fresh clone's CI included, not only machines that built the engine.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const CACHE = 'node_modules/.cache/inpage-llm/mtmd-media';
const NAMES = ['test-1.jpeg', 'test-2.mp3'] as const;
type Name = (typeof NAMES)[number];

/** A `NAME=value` line of engine-config.sh. */
function pinned(name: string): string {
  const match = new RegExp(`^${name}=(\\S+)$`, 'm').exec(readFileSync('scripts/engine/engine-config.sh', 'utf8'));
  if (!match?.[1]) throw new Error(`scripts/engine/engine-config.sh has no ${name}`);
  return match[1];
}

const sha256 = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');

function checked(path: string, want: string): string {
  const got = sha256(path);
  if (got !== want) throw new Error(`${path}: sha256 ${got}, the pin is ${want}`);
  return path;
}

/** The pinned node-llama-cpp tarball in `dir`: the engine build's copy where it is, else `npm pack`. */
function tarball(dir: string): string {
  const version = pinned('NODE_LLAMA_CPP_VERSION');
  const name = `node-llama-cpp-${version}.tgz`;
  const chroot = process.env.INPAGE_ENGINE_CHROOT ?? '/var/cache/inpage-llm/sid2';
  const built = `${chroot}/src/${name}`;
  if (existsSync(built)) return checked(built, pinned('NODE_LLAMA_CPP_TARBALL_SHA256'));
  execFileSync('npm', ['pack', '--silent', `node-llama-cpp@${version}`], {
    cwd: dir,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  return checked(join(dir, name), pinned('NODE_LLAMA_CPP_TARBALL_SHA256'));
}

function extract(): void {
  const dir = mkdtempSync(join(tmpdir(), 'inpage-mtmd-media-'));
  try {
    const tgz = tarball(dir);
    execFileSync('tar', ['-xzf', tgz, '-C', dir, 'package/llama/gitRelease.bundle']);
    const bundle = checked(join(dir, 'package/llama/gitRelease.bundle'), pinned('LLAMA_CPP_BUNDLE_SHA256'));
    const git = (...args: string[]) => execFileSync('git', ['--git-dir', join(dir, 'git'), ...args]);
    execFileSync('git', ['init', '-q', '--bare', join(dir, 'git')]);
    const head = git('bundle', 'unbundle', bundle).toString().split(/\s/)[0] ?? '';
    mkdirSync(CACHE, { recursive: true });
    for (const name of NAMES) writeFileSync(join(CACHE, name), git('show', `${head}:tools/mtmd/${name}`));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** llama.cpp's `tools/mtmd/` test image (a JPEG) and sound (an MP3), by name. */
export function mtmdTestMedia(): Record<Name, Buffer> {
  if (!NAMES.every((name) => existsSync(join(CACHE, name)))) extract();
  return {
    'test-1.jpeg': readFileSync(join(CACHE, 'test-1.jpeg')),
    'test-2.mp3': readFileSync(join(CACHE, 'test-2.mp3')),
  };
}
