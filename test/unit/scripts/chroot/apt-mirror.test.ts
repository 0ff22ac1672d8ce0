/**
 * scripts/chroot/apt-mirror.sh: the sid chroot comes from the archive this machine's apt reads
 * (deb822 `.sources` first, then one-line `sources.list`), never a host named in the repository;
 * security suites are skipped, DEBIAN_MIRROR wins, and no archive at all is an error.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const SCRIPT = resolve(import.meta.dirname, '../../../../scripts/chroot/apt-mirror.sh');

/** An apt folder holding `files` (paths relative to it). */
function aptDir(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'apt-mirror-'));
  mkdirSync(join(dir, 'sources.list.d'));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

function mirror(dir: string, env: Record<string, string> = {}): { status: number | null; out: string } {
  const { DEBIAN_MIRROR: _, ...rest } = process.env;
  const run = spawnSync('bash', [SCRIPT, dir], { encoding: 'utf8', env: { ...rest, ...env } });
  return { status: run.status, out: run.stdout.trim() };
}

const SECURITY_STANZA = `Types: deb
URIs: http://security.example.org/debian-security
Suites: bookworm-security
Components: main
`;

describe('apt-mirror.sh', () => {
  it('takes the first deb822 stanza that is not a security suite, and ignores comment lines', () => {
    const dir = aptDir({
      'sources.list.d/debian.sources': `${SECURITY_STANZA}
Types: deb
# http://snapshot.example.org/archive/debian/20250520T000000Z
URIs: http://archive.example.org/debian/ http://second.example.org/debian
Suites: bookworm bookworm-updates
Components: main
`,
    });
    expect(mirror(dir)).toEqual({ status: 0, out: 'http://archive.example.org/debian' });
  });

  it('skips disabled stanzas and deb-src-only ones', () => {
    const dir = aptDir({
      'sources.list.d/a.sources': `Types: deb-src
URIs: http://src.example.org/debian
Suites: bookworm

Enabled: no
Types: deb
URIs: http://off.example.org/debian
Suites: bookworm

types: deb deb-src
uris: http://on.example.org/debian
suites: trixie
`,
    });
    expect(mirror(dir).out).toBe('http://on.example.org/debian');
  });

  it('reads one-line sources.list entries, options included', () => {
    const dir = aptDir({
      'sources.list': `# deb http://commented.example.org/debian bookworm main
deb-src http://src.example.org/debian bookworm main
deb [arch=amd64 signed-by=/usr/share/keyrings/k.gpg] http://security.example.org/debian-security bookworm-security main
deb [signed-by=/usr/share/keyrings/k.gpg] http://lines.example.org/debian bookworm main
`,
    });
    expect(mirror(dir)).toEqual({ status: 0, out: 'http://lines.example.org/debian' });
  });

  it('lets DEBIAN_MIRROR override the sources', () => {
    const dir = aptDir({ 'sources.list': 'deb http://lines.example.org/debian bookworm main\n' });
    expect(mirror(dir, { DEBIAN_MIRROR: 'http://override.example.org/debian' }).out).toBe(
      'http://override.example.org/debian',
    );
  });

  it('fails when apt names no Debian archive', () => {
    const dir = aptDir({ 'sources.list.d/debian.sources': SECURITY_STANZA });
    expect(mirror(dir)).toEqual({ status: 1, out: '' });
  });
});
