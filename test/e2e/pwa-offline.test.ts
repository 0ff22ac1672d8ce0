import assert from 'node:assert/strict';
import { mkdir } from 'node:fs/promises';
import { after, before, test } from 'node:test';
import { relaxedSimdProbe } from '../../src/core/util/relaxed-simd';
import { openaiScript, startHarness, type Harness } from './harness';

// The playground as an offline PWA: one online visit installs the SW, which precaches the app
// shell (page, scripts, engine worker and wasm, manifest, icons); with the network off a reload
// loads the page, the engine and the model, and /v1/completions answers.
let harness: Harness;

before(async () => {
  await mkdir('test-results/playground', { recursive: true });
  harness = await startHarness();
});

after(() => harness.close());

test('the web app manifest and its icons are served and precached', async () => {
  const { page, context } = await harness.openPage();
  const manifest = await page.evaluate(async () => {
    const link = document.querySelector<HTMLLinkElement>('link[rel="manifest"]');
    const json = await (await fetch(link?.href ?? '')).json();
    const icons = await Promise.all(
      json.icons.map(async (icon: { src: string; type: string }) => {
        const response = await fetch(new URL(icon.src, link?.href));
        return { src: icon.src, ok: response.ok, type: response.headers.get('content-type') };
      }),
    );
    const cached = (
      await Promise.all(
        (await caches.keys()).map(async (name) =>
          (await (await caches.open(name)).keys()).map((request) => new URL(request.url).pathname),
        ),
      )
    ).flat();
    return { name: json.name, display: json.display, icons, cached };
  });
  assert.equal(manifest.name, 'inpage-llm playground');
  assert.equal(manifest.display, 'standalone');
  assert.deepEqual(
    manifest.icons.map((icon) => icon.ok),
    [true, true, true],
  );
  assert.ok(manifest.icons.some((icon) => icon.src.endsWith('512.png') && icon.type === 'image/png'));
  for (const path of ['/index.html', '/manifest.webmanifest', '/icons/icon-192.png'])
    assert.ok(manifest.cached.includes(path), `${path} precached`);
  assert.ok(
    manifest.cached.some((path) => path.endsWith('.wasm')),
    'the engine wasm is precached',
  );
  assert.ok(
    !manifest.cached.some((path) => /webllm/.test(path)),
    "WebLLM's 6 MB chunk is not precached (cached at run time when used)",
  );
  await context.close();
});

test('offline after one visit: a reload loads the playground and answers /v1/completions', async () => {
  const { page, context } = await harness.openPage('/?model=inpage-test');
  await context.setOffline(true);
  assert.equal(
    await page.evaluate(() =>
      fetch('/no-such-file.txt').then(
        () => 'reached',
        () => 'offline',
      ),
    ),
    'offline',
    'the network is off',
  );
  await page.reload();
  await page.evaluate(() => window.inpage.ready);
  await page.addScriptTag({ content: await openaiScript() });
  const text = await page.evaluate(async () => {
    const client = new window.OpenAI({
      baseURL: location.origin + '/v1',
      apiKey: 'unused',
      dangerouslyAllowBrowser: true,
    });
    const stream = await client.completions.create({
      model: 'inpage-test',
      prompt: 'abc',
      max_tokens: 5,
      temperature: 0,
      stream: true,
    });
    let joined = '';
    for await (const chunk of stream) joined += chunk.choices[0]?.text ?? '';
    return joined;
  });
  assert.equal(text, 'defgh');
  // The playground itself works too.
  await page.locator('#generate').click();
  await page.locator('#run-status').filter({ hasText: /Done/ }).waitFor();
  assert.match((await page.locator('#output').textContent()) ?? '', /^defgh/);
  await context.close();
});

test('offline, a model that needs a download says so and offers inpage-test, which loads offline', async () => {
  const { page, context } = await harness.openPage('/?model=inpage-test');
  await context.setOffline(true);
  await page.goto(`${harness.origin}/?model=/models/some-model.gguf`);
  const banner = page.locator('notice-banner [data-kind="offline"]');
  await banner.waitFor();
  assert.match((await banner.textContent()) ?? '', /offline/);
  await page.screenshot({ path: 'test-results/playground/offline-download-failed.png', fullPage: true });
  await page.locator('notice-banner button').click();
  await page.waitForURL(/model=inpage-test/);
  await page.waitForFunction(() => 'inpage' in window);
  await page.evaluate(() => window.inpage.ready);
  await context.close();
});

test('a first visit downloads the engine builds this browser runs, once each, which then load from the precache', async () => {
  const context = await harness.browser.newContext();
  const downloads: string[] = [];
  context.on('response', (response) => {
    if (response.url().endsWith('.wasm') && !response.fromServiceWorker()) downloads.push(response.url());
  });
  const page = await context.newPage();
  await page.goto(harness.origin + '/?model=inpage-test');
  await page.waitForFunction(() => 'inpage' in window);
  await page.evaluate(() => window.inpage.ready);
  // The precache stores only the engine builds the browser validates (relaxed SIMD or SIMD128):
  // the single-threaded one, and the pthreads one since the preview server's COOP/COEP isolate
  // the origin (the SW too); the engine worker, by the same probe, asks for one, from the precache.
  const relaxed = await page.evaluate((probe) => WebAssembly.validate(new Uint8Array(probe)), [...relaxedSimdProbe()]);
  assert.equal(await page.evaluate(() => self.crossOriginIsolated), true);
  const kinds = downloads.map((url) => {
    const name = url.split('/').at(-1) ?? '';
    return `${/^llama-engine-relaxed-/.test(name) ? 'relaxed' : 'simd'}${/-mt-/.test(name) ? '-mt' : ''}`;
  });
  const simd = relaxed ? 'relaxed' : 'simd';
  assert.deepEqual(kinds.sort(), [simd, `${simd}-mt`], downloads.join('\n'));
  await context.close();
});
