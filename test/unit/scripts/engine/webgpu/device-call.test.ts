/**
 * scripts/engine/webgpu/device-call.sh: a GPU session's one device call fits the tool's 64 MiB.
 * `size` counts what the tool sends (tracked, untracked-not-ignored, shared/, carried; not ignored
 * files), `prepare` takes the committed engines out of the tree and the index and refuses a call
 * still over the limit, `restore` gives back HEAD's engines with a clean status.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const SCRIPT = resolve(import.meta.dirname, '../../../../../scripts/engine/webgpu/device-call.sh');
const ENGINES = 'worker/engine/backends/llamacpp/wasm';
const MIB = 1024 * 1024;

/** Runs `git` in `cwd`, failing the test on an error. */
function git(cwd: string, ...args: string[]): string {
  const run = spawnSync('git', args, { cwd, encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`git ${args.join(' ')}: ${run.stderr}`);
  return run.stdout;
}

/** A sparse file of `mib` MiB (apparent size is what travels and what the script counts). */
function sized(path: string, mib: number): void {
  writeFileSync(path, '');
  truncateSync(path, mib * MIB);
}

/** A repository with `engineMiB` of committed engines, a 1 MiB untracked note, an ignored 100 MiB file, a carry. */
function repo(engineMiB: number, carryMiB: number): { dir: string; held: string } {
  const root = mkdtempSync(join(tmpdir(), 'device-call-'));
  const dir = join(root, 'repo');
  mkdirSync(join(dir, ENGINES), { recursive: true });
  git(dir, 'init', '-q');
  writeFileSync(join(dir, '.gitignore'), '/.device/\n/big\n');
  writeFileSync(join(dir, 'README.md'), 'test\n');
  sized(join(dir, ENGINES, 'engine.wasm'), engineMiB);
  writeFileSync(join(dir, ENGINES, 'manifest.json'), '{"a":1}\n');
  git(dir, 'add', '.');
  git(dir, '-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-q', '-m', 'init');
  sized(join(dir, 'notes.txt'), 1);
  sized(join(dir, 'big'), 100);
  mkdirSync(join(dir, '.device'));
  sized(join(dir, '.device', 'node.xz'), carryMiB);
  return { dir, held: join(root, 'held') };
}

function call(r: { dir: string; held: string }, ...args: string[]): { status: number | null; out: string } {
  const run = spawnSync('bash', [SCRIPT, ...args], {
    cwd: r.dir,
    encoding: 'utf8',
    env: { ...process.env, DEVICE_CALL_HELD: r.held },
  });
  return { status: run.status, out: run.stdout + run.stderr };
}

describe('device-call.sh', () => {
  it('counts tracked, untracked and carried files, not ignored ones, against 64 MiB', () => {
    const r = repo(40, 30);
    const over = call(r, 'size', '.device');
    expect(over.status).toBe(1);
    expect(over.out).toContain('tracked 40.0 MiB, untracked 1.0 MiB, shared/ 0.0 MiB, carried 30.0 MiB: 71.0 MiB');
    expect(over.out).toContain('over');
    expect(call(r, 'size').status).toBe(0);
  });

  it('prepares a call without the engines, in the tree or the index, and restores them', () => {
    const r = repo(40, 30);
    const prepared = call(r, 'prepare');
    expect(prepared.status).toBe(0);
    expect(prepared.out).toContain('carried 30.0 MiB: 31.0 MiB of 64 MiB');
    expect(existsSync(join(r.dir, ENGINES))).toBe(false);
    expect(git(r.dir, 'ls-files', ENGINES)).toBe('');
    expect(call(r, 'prepare').status).toBe(1);
    const restored = call(r, 'restore');
    expect(restored.status).toBe(0);
    expect(git(r.dir, 'status', '--porcelain', ENGINES)).toBe('');
    expect(readFileSync(join(r.dir, ENGINES, 'manifest.json'), 'utf8')).toBe('{"a":1}\n');
    expect(existsSync(r.held)).toBe(false);
  });

  it('refuses a call still over the limit and leaves the engines in place', () => {
    const r = repo(10, 70);
    const prepared = call(r, 'prepare');
    expect(prepared.status).toBe(1);
    expect(prepared.out).toContain('over');
    expect(git(r.dir, 'status', '--porcelain', ENGINES)).toBe('');
    expect(existsSync(join(r.dir, ENGINES, 'engine.wasm'))).toBe(true);
  });

  it('refuses to prepare over uncommitted changes to the engines', () => {
    const r = repo(1, 1);
    writeFileSync(join(r.dir, ENGINES, 'manifest.json'), '{"a":2}\n');
    const prepared = call(r, 'prepare');
    expect(prepared.status).toBe(1);
    expect(prepared.out).toContain('commit them first');
    expect(readFileSync(join(r.dir, ENGINES, 'manifest.json'), 'utf8')).toBe('{"a":2}\n');
  });

  it('restores from HEAD when the held engines are gone', () => {
    const r = repo(1, 1);
    expect(call(r, 'prepare').status).toBe(0);
    spawnSync('rm', ['-rf', r.held]);
    expect(call(r, 'restore').status).toBe(0);
    expect(git(r.dir, 'status', '--porcelain')).toBe('?? notes.txt\n');
  });
});
