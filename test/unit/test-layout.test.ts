/**
 * `test/unit` mirrors the source folders: a unit test of `worker/sw/route.ts` lives in
 * `test/unit/worker/sw/`, of a fixture in `test/unit/fixtures/`. Only the tests of the whole
 * tree (docs, import boundaries, this one) sit at the top.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');
const UNIT = join(ROOT, 'test/unit');

function folders(dir: string): string[] {
  return readdirSync(dir)
    .map((name) => join(dir, name))
    .filter((path) => statSync(path).isDirectory())
    .flatMap((path) => [path, ...folders(path)]);
}

/** The source folder a test folder mirrors. */
const mirrored = (folder: string) => {
  const rel = relative(UNIT, folder);
  return rel === 'fixtures' || rel.startsWith('fixtures/') ? join(ROOT, 'test', rel) : join(ROOT, rel);
};

describe('test/unit layout', () => {
  it.each(folders(UNIT).map((folder) => relative(UNIT, folder)))('test/unit/%s mirrors a source folder', (rel) => {
    expect(existsSync(mirrored(join(UNIT, rel)))).toBe(true);
  });

  it('keeps only whole-tree tests at the top', () => {
    const top = readdirSync(UNIT).filter((name) => name.endsWith('.ts'));
    expect(top.sort()).toEqual([
      'doc-links.test.ts',
      'doc-snippets.test.ts',
      'import-boundaries.test.ts',
      'test-layout.test.ts',
    ]);
  });
});
