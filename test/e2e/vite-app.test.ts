import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readdir, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { after, before, test } from 'node:test';
import { promisify } from 'node:util';
import { build } from 'vite';
import { readmeSnippet } from './readme-snippet';
import { startStaticSite, type StaticSite } from './static-site';
import { makeTempApp, type TempApp } from './temp-app';

// The README's library way in, in a Vite app outside this repo that depends on the package:
// its main.ts is the README snippet, typed against the package's exports; then the README's
// PWA snippet precaches its build output, and the app answers offline.
let app: TempApp;
let site: StaticSite;

const TYPE_CHECKS = `import { startInpage, type Inpage, type InpageOptions } from 'inpage-llm';
const options: InpageOptions = { model: 'inpage-test', timeoutMs: 1000, checkServiceWorker: true };
// @ts-expect-error: the options are typed, a misspelled one is an error
startInpage({ modle: 'inpage-test' });
export const runtime: Inpage = startInpage(options);
export const id: string = runtime.model;
`;

const TSCONFIG = {
  compilerOptions: { target: 'ES2022', module: 'ESNext', moduleResolution: 'bundler', strict: true, noEmit: true, skipLibCheck: true, lib: ['ES2022', 'DOM', 'DOM.Iterable'], types: [] },
  include: ['main.ts', 'type-checks.ts'],
};

before(async () => {
  app = await makeTempApp(['openai', 'workbox-build']);
  await app.sh(readmeSnippet('init'));
  await writeFile(join(app.dir, 'index.html'), '<!doctype html><title>app</title><script type="module" src="/main.ts"></script>\n');
  await writeFile(join(app.dir, 'main.ts'), readmeSnippet('library'));
  await writeFile(join(app.dir, 'type-checks.ts'), TYPE_CHECKS);
  await writeFile(join(app.dir, 'tsconfig.json'), JSON.stringify(TSCONFIG));
});

after(async () => {
  await site?.close();
  await app.remove();
});

test("the app type-checks against the package's declarations (exports map, types condition)", async () => {
  await promisify(execFile)(process.execPath, [resolve('node_modules/typescript/bin/tsc'), '-p', join(app.dir, 'tsconfig.json')]);
});

test('vite builds the app and emits the library engine worker and its wasm', async () => {
  await build({ root: app.dir, configFile: false, logLevel: 'warn', build: { outDir: 'dist' } });
  const assets = await readdir(join(app.dir, 'dist', 'assets'));
  assert.ok(assets.some((name) => /^engine-worker-.*\.js$/.test(name)), assets.join(', '));
  assert.ok(assets.some((name) => name.endsWith('.wasm')), assets.join(', '));
  const root = await readdir(join(app.dir, 'dist'));
  assert.ok(root.includes('sw.js'), 'public/sw.js from init is in the build');
  await app.sh(`cat > precache.mjs <<'SNIPPET'\n${readmeSnippet('pwa-precache')}SNIPPET\nnode precache.mjs`);
  site = await startStaticSite(join(app.dir, 'dist'));
});

/** Waits until the page has logged the README snippet's streamed letters `times` times in all. */
async function streamedLetters(times: number): Promise<void> {
  const deadline = Date.now() + 20_000;
  const count = () => site.consoleMessages.filter((message) => message === 'log: h').length;
  while (count() < times) {
    if (Date.now() > deadline) throw new Error(`no streamed completion; console:\n${site.consoleMessages.join('\n')}`);
    await new Promise((done) => setTimeout(done, 100));
  }
}

test("the README snippet streams 'defgh' through the openai SDK, online, then offline after a reload", async () => {
  const { page, context } = await site.openPage('/', { waitReady: false });
  await streamedLetters(1);
  const letters = site.consoleMessages.filter((message) => /^log: [a-z]$/.test(message));
  assert.deepEqual(letters, ['log: d', 'log: e', 'log: f', 'log: g', 'log: h']);
  assert.ok(site.consoleMessages.includes('log: ready 1'), 'progress reached ready');
  await context.setOffline(true);
  await page.reload();
  await streamedLetters(2);
  assert.equal(await page.evaluate(() => navigator.onLine), false);
  await context.close();
});
