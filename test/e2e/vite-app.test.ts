import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { lstat, mkdir, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { after, before, test } from 'node:test';
import { promisify } from 'node:util';
import { createServer, preview } from 'vite';
import { readmeSnippet } from './readme-snippet';
import { startStaticSite, type StaticSite } from './static-site';
import { makeReadmeViteApp } from './readme-vite-app';
import { WEBGPU_EVERYWHERE } from './harness';
import type { TempApp } from './temp-app';

// The README's library way in, in a Vite app outside this repo that installed the packed
// tarball (npm pack, as published): its main.ts is the README snippet, typed against the
// package's exports, its vite.config.ts the README's COOP/COEP snippet and nothing else (Vite's
// default worker format); `vite build` prints no warning and copies the prebuilt engine worker,
// its wasm and WebLLM's module as three files; then the README's PWA snippet (`inpage-llm
// precache dist`) precaches its build output, and the app answers offline; `vite` (dev) serves it
// too, and a WebLLM model makes the engine import WebLLM's file.
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
  app = await makeReadmeViteApp();
  await writeFile(join(app.dir, 'type-checks.ts'), TYPE_CHECKS);
  await writeFile(join(app.dir, 'tsconfig.json'), JSON.stringify(TSCONFIG));
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

/** `vite build` as a user runs it (the CLI, default options), its output with colours removed. */
async function viteBuild(root = '.'): Promise<string> {
  const output = await app.sh(`node node_modules/vite/bin/vite.js build ${root} 2>&1`);
  return output.replace(/\x1b\[[\d;]*m/g, '');
}

/** Build-output lines that warn: Rolldown's `[CODE]` lines, Vite's `(!)` notes, any "warn". */
function warnings(output: string): string[] {
  // PLUGIN_TIMINGS says JS plugins took most of a build's time: on this loaded 2-core machine it
  // comes and goes with the load (Vite hashing the 16 MB of engine files), never from our code.
  const timing = /PLUGIN_TIMINGS|^The slowest callbacks|^  - plugin |^Additional callback time|^See https:\/\/rolldown/;
  return output
    .split('\n')
    .filter((line) => /\[[A-Z_]+\]|\(!\)|warn/i.test(line) || /^ - /.test(line))
    .filter((line) => !timing.test(line));
}

test('`vite build` with the default worker format prints no warning and copies the engine files', async () => {
  const output = await viteBuild();
  console.log(output.replace(/^/gm, '# '));
  assert.doesNotMatch(output, /EMPTY_IMPORT_META/);
  assert.deepEqual(warnings(output), []);
  const assets = await readdir(join(app.dir, 'dist', 'assets'));
  const size = async (pattern: RegExp) => {
    const name = assets.find((file) => pattern.test(file));
    assert.ok(name, `${pattern} in ${assets.join(', ')}`);
    return (await stat(join(app.dir, 'dist', 'assets', name))).size;
  };
  const worker = await size(/^engine-worker-[\w-]+\.js$/);
  const webllm = await size(/^webllm-[\w-]+\.js$/);
  const wasm = await size(/^llama-engine-[\w-]+\.wasm$/);
  console.log(
    `# engine worker ${Math.round(worker / 1024)} KB, webllm ${Math.round(webllm / 1024)} KB, wasm ${Math.round(wasm / 1024)} KB`,
  );
  assert.ok(worker < 400 * 1024, `the engine worker does not inline WebLLM: ${worker} bytes`);
  assert.ok(webllm > 1024 * 1024, `WebLLM is its own file: ${webllm} bytes`);
  const packaged = join(app.dir, 'node_modules', 'inpage-llm', 'dist', 'inpage-llm');
  for (const [pattern, file] of [
    [/^engine-worker-[\w-]+\.js$/, 'engine-worker.js'],
    [/^webllm-[\w-]+\.js$/, 'webllm.js'],
  ] as const) {
    const emitted = assets.find((name) => pattern.test(name)) ?? '';
    assert.ok(
      (await readFile(join(app.dir, 'dist', 'assets', emitted))).equals(await readFile(join(packaged, file))),
      `${file} is copied verbatim, not re-bundled`,
    );
  }
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
  assert.match(output, /^  left out: assets\/webllm-[\w-]+\.js \(.*\): WebLLM chunk/m, 'WebLLM is its own file');
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
  const deadline = Date.now() + 60_000;
  const count = () => site.consoleMessages.filter((message) => message === 'log: h').length;
  while (count() < times) {
    if (Date.now() > deadline) throw new Error(`no streamed completion; console:\n${site.consoleMessages.join('\n')}`);
    await new Promise((done) => setTimeout(done, 100));
  }
}

test("the README snippet streams 'defgh' through the openai SDK, online, then offline after a reload", async () => {
  const requested: string[] = [];
  const { page, context } = await site.openPage('/', {
    waitReady: false,
    beforeGoto: async (fresh) => void fresh.on('request', (request) => requested.push(request.url())),
  });
  await streamedLetters(1);
  const letters = site.consoleMessages.filter((message) => /^log: [a-z]$/.test(message));
  assert.deepEqual(letters, ['log: d', 'log: e', 'log: f', 'log: g', 'log: h']);
  assert.ok(site.consoleMessages.includes('log: ready 1'), 'progress reached ready');
  assert.ok(
    requested.some((url) => /\/assets\/engine-worker-[\w-]+\.js$/.test(url)),
    requested.join('\n'),
  );
  assert.ok(
    requested.some((url) => /\/assets\/llama-engine-[\w-]+\.wasm$/.test(url)),
    requested.join('\n'),
  );
  assert.deepEqual(
    requested.filter((url) => new URL(url).pathname.includes('webllm')),
    [],
    'a llama.cpp page never fetches WebLLM',
  );
  await context.setOffline(true);
  await page.reload();
  await streamedLetters(2);
  assert.equal(await page.evaluate(() => navigator.onLine), false);
  await context.close();
});

test('`vite` (the dev server, dependency pre-bundling on) serves the app and it answers', async () => {
  const server = await createServer({
    root: app.dir,
    configFile: join(app.dir, 'vite.config.ts'),
    logLevel: 'warn',
    server: { port: 0, host: '127.0.0.1' },
  });
  await server.listen();
  const context = await site.browser.newContext();
  try {
    const page = await context.newPage();
    const logged: string[] = [];
    const requested: string[] = [];
    page.on('console', (message) => logged.push(message.text()));
    context.on('request', (request) => requested.push(request.url()));
    await page.goto(server.resolvedUrls?.local[0] ?? '');
    const deadline = Date.now() + 60_000;
    while (!logged.includes('h')) {
      if (Date.now() > deadline) throw new Error(`no streamed completion; console:\n${logged.join('\n')}`);
      await new Promise((done) => setTimeout(done, 100));
    }
    assert.deepEqual(
      logged.filter((text) => /^[a-z]$/.test(text)),
      ['d', 'e', 'f', 'g', 'h'],
    );
    assert.ok(
      requested.some((url) => url.includes('/.vite/deps/inpage-llm.js')),
      'the library was pre-bundled by the dependency optimizer',
    );
    assert.ok(
      requested.some((url) => /\/inpage-llm\/dist\/inpage-llm\/llama-engine(-relaxed)?\.wasm$/.test(url)),
      requested.join('\n'),
    );
    assert.deepEqual(
      requested.filter((url) => new URL(url).pathname.includes('webllm')),
      [],
    );
  } finally {
    await context.close();
    await server.close();
  }
});

// Without WebGPU only: it waits for the adapter check to fail.
test("a WebLLM model makes the built app's engine import WebLLM's file", { skip: WEBGPU_EVERYWHERE }, async () => {
  const dir = join(app.dir, 'webllm-page');
  await mkdir(dir, { recursive: true });
  await writeFile(
    join(dir, 'index.html'),
    '<!doctype html><title>webllm</title><script type="module" src="./main.ts"></script>\n',
  );
  await writeFile(
    join(dir, 'main.ts'),
    `import { startInpage } from 'inpage-llm';
startInpage({ model: 'Qwen2.5-0.5B-Instruct-q4f16_1-MLC', backend: 'webllm' }).ready.then(
  () => console.log('ready'),
  (error) => console.log('failed: ' + error.code),
);
`,
  );
  await app.sh('mkdir -p webllm-page/public && cp public/sw.js webllm-page/public/');
  const output = await viteBuild('webllm-page');
  assert.deepEqual(warnings(output), [], output);
  const webllmSite = await startStaticSite(join(dir, 'dist'));
  try {
    const responses: Array<{ url: string; status: number }> = [];
    const { context } = await webllmSite.openPage('/', {
      waitReady: false,
      beforeGoto: async (fresh) =>
        void fresh.on('response', (response) => responses.push({ url: response.url(), status: response.status() })),
    });
    const deadline = Date.now() + 60_000;
    while (!webllmSite.consoleMessages.some((message) => message.startsWith('log: failed'))) {
      if (Date.now() > deadline) throw new Error(`no outcome; console:\n${webllmSite.consoleMessages.join('\n')}`);
      await new Promise((done) => setTimeout(done, 100));
    }
    // No WebGPU in this headless Chromium: WebLLM's module was imported, then the adapter check failed.
    assert.ok(
      webllmSite.consoleMessages.includes('log: failed: webgpu_unavailable'),
      webllmSite.consoleMessages.join('\n'),
    );
    // The page's worker fetches it, and so does the Service Worker (it caches WebLLM at run time).
    const chunk = responses.filter((response) => /\/assets\/webllm-[\w-]+\.js$/.test(response.url));
    assert.ok(
      chunk.length > 0 && chunk.every((response) => response.status === 200),
      responses.map((response) => `${response.status} ${response.url}`).join('\n'),
    );
    assert.ok(!responses.some((response) => response.url.endsWith('.wasm')), 'the llama.cpp wasm is not fetched');
    await context.close();
  } finally {
    await webllmSite.close();
  }
});
