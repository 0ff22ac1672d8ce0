import assert from 'node:assert/strict';
import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'node:test';

// The engine's test-only triggers (worker/engine/backends/llamacpp/test-trap.ts, its wasm trap,
// and test-memory.ts, out of memory) are compiled into the playground build the e2e tests run,
// and into nothing the package ships: every JavaScript file under the package's `files` is
// searched for each trigger's name.
const TRIGGERS = [
  '__inpageTestTrap',
  '__inpageTestHeapCeiling',
  '__inpageTestExhaustHeap',
  '__inpageTestF32CacheMib',
  '__inpageTestSlowStepMs',
];

async function jsFiles(path: string): Promise<string[]> {
  const info = await stat(path).catch(() => null);
  if (!info) return [];
  if (info.isFile()) return /\.m?js$/.test(path) ? [path] : [];
  const entries = await readdir(path);
  return (await Promise.all(entries.map((entry) => jsFiles(join(path, entry))))).flat();
}

test("the package's bundles hold no test hook; the playground's engine does (so the search finds it)", async () => {
  const pkg = JSON.parse(await readFile('package.json', 'utf8')) as { files: string[] };
  const shipped = (await Promise.all(pkg.files.filter((file) => file.startsWith('dist/')).map(jsFiles))).flat();
  assert.ok(shipped.includes('dist/inpage-llm/engine-worker.js'), 'the prebuilt engine worker is searched');
  assert.ok(shipped.includes('dist/lib/inpage-llm.js') && shipped.includes('dist/inpage-llm.js'));
  for (const file of shipped) {
    const text = await readFile(file, 'utf8');
    for (const trigger of TRIGGERS) assert.ok(!text.includes(trigger), `${file} holds ${trigger}`);
  }
  const playground = (await jsFiles('dist/assets')).filter((file) => file.includes('engine-worker'));
  assert.equal(playground.length, 1);
  const engine = await readFile(playground[0] ?? '', 'utf8');
  for (const trigger of TRIGGERS) assert.ok(engine.includes(trigger), `the test build keeps ${trigger}`);
});
