import assert from 'node:assert/strict';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { readSwIdentity } from '../../cli/sw-stamp';
import { makeTempApp, type TempApp } from './temp-app';

// `init` run again, as after an upgrade: it knows its own sw.js (by the stamp on its first
// line, which minifying cannot touch), replaces an older one, and still refuses a foreign one.
let app: TempApp;
let shipped: string;
const sw = () => readFile(join(app.dir, 'public', 'sw.js'), 'utf8');

before(async () => {
  app = await makeTempApp();
  shipped = await readFile('dist/init/sw.js', 'utf8');
});

after(() => app.remove());

/** Runs a command line; resolves with its exit code and all its output. */
async function exec(command: string): Promise<{ code: number; output: string }> {
  try {
    return { code: 0, output: await app.sh(`${command} 2>&1`) };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string };
    return { code: failed.code ?? -1, output: failed.stdout ?? '' };
  }
}

test('the built sw.js is stamped with the package version and checksum', async () => {
  const stamp = JSON.parse(await readFile('dist/init/stamp.json', 'utf8')) as { version: string; checksum: string };
  assert.deepEqual(readSwIdentity(shipped), { kind: 'stamped', ...stamp });
  assert.deepEqual(
    readSwIdentity(await readFile('dist/init/sw-dropin.js', 'utf8')),
    { kind: 'stamped', ...stamp },
    'injectManifest keeps the stamp',
  );
});

test('init twice, with the folder and then without: both succeed, the second finds its copy current', async () => {
  assert.match((await exec('npx inpage-llm init public')).output, /sw\.js: new/);
  const again = await exec('npx inpage-llm init public');
  assert.equal(again.code, 0, again.output);
  assert.match(again.output, /sw\.js: current/);
  const recorded = await exec('npx inpage-llm init');
  assert.equal(recorded.code, 0, recorded.output);
  assert.match(recorded.output, /copied into .*public \(sw\.js: current\)/);
  assert.equal(await sw(), shipped);
});

test('an older stamped sw.js, and one from before stamps, are upgraded', async () => {
  const body = shipped.slice(shipped.indexOf('\n') + 1);
  await writeFile(
    join(app.dir, 'public', 'sw.js'),
    `// inpage-llm service worker {"version":"0.0.9","checksum":"0123456789abcdef"}\n${body.replace(/[0-9a-f]{16}/, '0123456789abcdef')}`,
  );
  const upgraded = await exec('npx inpage-llm init');
  assert.equal(upgraded.code, 0, upgraded.output);
  assert.match(upgraded.output, /sw\.js: upgraded from 0\.0\.9 \(01234567\)/);
  assert.equal(await sw(), shipped);
  await writeFile(join(app.dir, 'public', 'sw.js'), body);
  assert.match((await exec('npx inpage-llm init')).output, /sw\.js: upgraded from an older unstamped copy/);
  assert.equal(await sw(), shipped);
});

test('a foreign sw.js is refused (exit 1, nothing written) unless --force', async () => {
  const foreign = "self.addEventListener('fetch', () => {});\n";
  await writeFile(join(app.dir, 'public', 'sw.js'), foreign);
  const refused = await exec('npx inpage-llm init');
  assert.equal(refused.code, 1);
  assert.match(
    refused.output,
    /public\/sw\.js exists and is not the inpage-llm Service Worker; move it away or pass --force/,
  );
  assert.equal(await sw(), foreign);
  const forced = await exec('npx inpage-llm init public --force');
  assert.equal(forced.code, 0, forced.output);
  assert.match(forced.output, /forced over a foreign sw\.js/);
  assert.equal(await sw(), shipped);
});

test('a no-build drop-in folder: precache lists the pages and the drop-in files, WebLLM left out', async () => {
  await app.sh('npx inpage-llm init site --dropin --no-save && echo "<!doctype html>" > site/index.html');
  const output = (await exec('npx inpage-llm precache site')).output;
  const listed = [...output.matchAll(/^ {2}(\S+) \(/gm)].map((match) => match[1]);
  assert.deepEqual(
    listed,
    [
      'index.html',
      'inpage-llm/engine-worker.js',
      'inpage-llm/llama-engine-m64-mt.mjs',
      'inpage-llm/llama-engine-m64-mt.wasm',
      'inpage-llm/llama-engine-m64.mjs',
      'inpage-llm/llama-engine-m64.wasm',
      'inpage-llm/llama-engine-mt.mjs',
      'inpage-llm/llama-engine-mt.wasm',
      'inpage-llm/llama-engine-relaxed-m64-mt.wasm',
      'inpage-llm/llama-engine-relaxed-m64.wasm',
      'inpage-llm/llama-engine-relaxed-mt.wasm',
      'inpage-llm/llama-engine-relaxed.wasm',
      'inpage-llm/llama-engine-webgpu.mjs',
      'inpage-llm/llama-engine-webgpu.wasm',
      'inpage-llm/llama-engine.wasm',
      'inpage-llm.js',
    ],
    output,
  );
  assert.match(output, /left out: inpage-llm\/webllm\.js .*WebLLM chunk/);
  assert.equal(readSwIdentity(await readFile(join(app.dir, 'site', 'sw.js'), 'utf8')).kind, 'stamped');
  assert.match(
    (await exec('npx inpage-llm init site --dropin --no-save')).output,
    /sw\.js: same version, another precache list \(re-run `inpage-llm precache` if you used it\)/,
    'init still knows the precached sw.js as its own',
  );
});
