import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { lstat, readdir, readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { after, before, test } from 'node:test';
import { promisify } from 'node:util';
import { build, preview } from 'vite';
import { readmeSnippet } from './readme-snippet';
import { startStaticSite, type StaticSite } from './static-site';
import { makeTempApp, type TempApp } from './temp-app';

// The README's library way in, in a Vite app outside this repo that installed the packed
// tarball (npm pack, as published): its main.ts is the README snippet, typed against the
// package's exports, its vite.config.ts the README's COOP/COEP snippet; then the README's PWA
// snippet (`inpage-llm precache dist`) precaches its build output, and the app answers offline.
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
  compilerOptions: {
    target: 'ES2022',
    module: 'ESNext',
    moduleResolution: 'bundler',
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    lib: ['ES2022', 'DOM', 'DOM.Iterable'],
    types: [],
  },
  include: ['main.ts', 'type-checks.ts'],
};

before(async () => {
  app = await makeTempApp(['openai', 'vite'], { tarball: true });
  await app.sh(readmeSnippet('init'));
  await writeFile(
    join(app.dir, 'index.html'),
    '<!doctype html><title>app</title><script type="module" src="/main.ts"></script>\n',
  );
  await writeFile(join(app.dir, 'main.ts'), readmeSnippet('library'));
  await writeFile(join(app.dir, 'type-checks.ts'), TYPE_CHECKS);
  await writeFile(join(app.dir, 'tsconfig.json'), JSON.stringify(TSCONFIG));
  await writeFile(join(app.dir, 'vite.config.ts'), readmeSnippet('vite-isolation'));
});

after(async () => {
  await site?.close();
  await app.remove();
});

test("the app type-checks against the package's declarations (exports map, types condition)", async () => {
  await promisify(execFile)(process.execPath, [
    resolve('node_modules/typescript/bin/tsc'),
    '-p',
    join(app.dir, 'tsconfig.json'),
  ]);
});

test('the package came from the tarball, not a link to this checkout', async () => {
  assert.ok(!(await lstat(join(app.dir, 'node_modules', 'inpage-llm'))).isSymbolicLink());
  assert.match(
    await readFile(join(app.dir, 'package.json'), 'utf8'),
    /"inpage-llm": "file:pack\/inpage-llm-[\d.]+\.tgz"/,
  );
});

test('vite builds the app and emits the library engine worker and its wasm', async () => {
  await build({
    root: app.dir,
    configFile: join(app.dir, 'vite.config.ts'),
    logLevel: 'warn',
    build: { outDir: 'dist' },
  });
  const assets = await readdir(join(app.dir, 'dist', 'assets'));
  assert.ok(
    assets.some((name) => /^engine-worker-.*\.js$/.test(name)),
    assets.join(', '),
  );
  assert.ok(
    assets.some((name) => name.endsWith('.wasm')),
    assets.join(', '),
  );
  const root = await readdir(join(app.dir, 'dist'));
  assert.ok(root.includes('sw.js'), 'public/sw.js from init is in the build');
});

test("the README's vite.config.ts serves `vite preview` cross-origin isolated", async () => {
  const server = await preview({
    root: app.dir,
    configFile: join(app.dir, 'vite.config.ts'),
    logLevel: 'warn',
    preview: { port: 0, host: '127.0.0.1' },
  });
  try {
    const response = await fetch(server.resolvedUrls?.local[0] ?? '');
    assert.equal(response.headers.get('cross-origin-opener-policy'), 'same-origin');
    assert.equal(response.headers.get('cross-origin-embedder-policy'), 'require-corp');
  } finally {
    await server.close();
  }
});

test('`inpage-llm precache dist` lists the build, leaves WebLLM out, and prints the total', async () => {
  const output = await app.sh(readmeSnippet('pwa-precache'));
  console.log(output.replace(/^/gm, '# '));
  assert.match(output, /wrote .*dist\/sw\.js, precaching \d+ files, [\d,]+ KB:/);
  assert.match(output, /^  index\.html \(/m);
  assert.match(output, /^  assets\/[\w-]+\.wasm \(/m);
  assert.doesNotMatch(output, /^  [^ ]*webllm[^ ]* \(/m, "WebLLM's chunk is not precached");
  assert.match(
    output,
    /^  left out: assets\/webllm-[\w-]+\.js \(.*\): WebLLM chunk/m,
    "worker.format 'es' keeps WebLLM in its own chunk",
  );
  const engine = /^  assets\/engine-worker-[\w-]+\.js \(([\d,]+) KB\)/m.exec(output);
  assert.ok(
    engine && Number(engine[1]?.replaceAll(',', '')) < 1024,
    `the engine worker does not inline WebLLM: ${engine?.[0]}`,
  );
  const sw = await readFile(join(app.dir, 'dist', 'sw.js'), 'utf8');
  assert.match(sw, /^\/\/ inpage-llm service worker /, 'the stamped SW from the package');
  assert.ok(!sw.includes('self.__WB_MANIFEST'), 'the list is injected');
  const empty = await app.sh('mkdir -p empty && npx inpage-llm precache empty 2>&1 || echo "exit $?"');
  assert.match(empty, /found nothing to precache in .*empty/);
  assert.match(empty, /exit 1/);
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
