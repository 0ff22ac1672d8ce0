import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { packPackage, type PackedPackage } from './pack-package';
import { readmeSnippet } from './readme-snippet';

// What `npm install inpage-llm` gets is exactly what docs/architecture.md's "What the package
// contains" promises: no file missing (a way in would break), none extra (the playground, test models).
let dir: string;
let packed: PackedPackage;

before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'inpage-pack-'));
  packed = await packPackage(dir);
});

after(() => rm(dir, { recursive: true, force: true }));

test('npm pack holds exactly the documented list of files', () => {
  const promised = readmeSnippet('package-files')
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);
  const patterns = promised.filter((line) => line.includes('*'));
  assert.deepEqual(patterns, ['dist/types/**/*.d.ts'], 'the only pattern is the declarations folder');
  const declarations = packed.files.filter((file) => /^dist\/types\/.+\.d\.ts$/.test(file));
  assert.ok(declarations.includes('dist/types/src/index.d.ts'), "the exports map's types are packed");
  const exact = promised.filter((line) => !line.includes('*')).sort();
  assert.deepEqual(
    packed.files.filter((file) => !declarations.includes(file)),
    exact,
  );
});

test('every path in the exports map and bin is in the package', async () => {
  const pkg = (await import('../../package.json', { with: { type: 'json' } })).default as {
    bin: Record<string, string>;
    exports: Record<string, string | Record<string, string>>;
    types: string;
  };
  const targets = [
    ...Object.values(pkg.bin),
    pkg.types,
    ...Object.values(pkg.exports).flatMap((entry) => (typeof entry === 'string' ? [entry] : Object.values(entry))),
  ];
  for (const target of targets) assert.ok(packed.files.includes(target.replace(/^\.\//, '')), `${target} is packed`);
});
