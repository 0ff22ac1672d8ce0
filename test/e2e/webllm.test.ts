import assert from 'node:assert/strict';
import { rm } from 'node:fs/promises';
import { after, before, test } from 'node:test';
import type { Page } from 'playwright';
import { startHarness, type Harness } from './harness';
import { postFromPage } from './page-helpers';
import { buildFiles, WEBLLM_DIR, writeWebLLMFixture } from './webllm-fixture';

// The webllm backend on the SwiftShader WebGPU adapter (--enable-unsafe-webgpu: no shader-f16,
// no GPU to compile a model library), with a model folder served locally.
let harness: Harness;
let path: string;

before(async () => {
  path = await writeWebLLMFixture('webllm');
  harness = await startHarness({ args: ['--enable-unsafe-webgpu'] });
});

after(async () => {
  await harness.close();
  await rm(WEBLLM_DIR, { recursive: true, force: true });
});

const startError = (page: Page) =>
  page.evaluate(() =>
    window.inpage.ready.then(
      () => null,
      (error: { code?: string; message: string }) => ({ code: error.code ?? null, message: error.message }),
    ),
  );

test('webllm: per-file progress, the f32 build, cached files, and a 503 naming the model-library failure', async () => {
  const { page, context } = await harness.openPage(path, { waitReady: false });
  const failure = await startError(page);
  assert.equal(failure?.code, 'model_library_failed');
  assert.match(failure?.message ?? '', /tiny-q4f32_1\.wasm/);
  console.log('# model-library failure:', failure?.message);

  const progress = await page.evaluate(() => window.inpageProgress);
  const files = new Set(progress.filter((p) => p.phase === 'download').map((p) => new URL(p.file ?? '').pathname));
  assert.deepEqual(
    [...files].sort(),
    buildFiles('q4f32_1').sort(),
    'progress for every file of the f32 build, none of the f16 one',
  );
  const last = progress.filter((p) => p.phase === 'download').at(-1);
  assert.equal(last?.fraction, 1);
  assert.equal(last?.loadedBytes, last?.totalBytes);
  assert.ok(
    progress.every((p) => p.phase !== 'download' || p.cached === false),
    'a first load downloads',
  );

  const response = await postFromPage(page, '/v1/completions', { model: 'tiny', prompt: 'abc', max_tokens: 3 });
  assert.equal(response.status, 503);
  const error = (response.body as { error: { code: string; type: string; message: string } }).error;
  assert.equal(error.code, 'model_library_failed');
  assert.equal(error.type, 'server_error');
  assert.match(error.message, /model library/);
  assert.match(error.message, /tiny-q4f32_1\.wasm/);

  const cards = await page.evaluate(
    async () => (await (await fetch('/v1/models')).json()) as { data: Array<Record<string, unknown>> },
  );
  const card = cards.data.find((entry) => entry.id === 'tiny');
  assert.equal(card?.backend, 'webllm');
  assert.equal(card?.status, 'failed');
  assert.equal(card?.error_code, 'model_library_failed');

  const cachedUrls = await page.evaluate(async () =>
    (await (await caches.open('webllm/model')).keys()).map((request) => new URL(request.url).pathname),
  );
  assert.ok(
    buildFiles('q4f32_1')
      .filter((file) => file.includes('_shard_'))
      .every((file) => cachedUrls.includes(file)),
    "the shards are in WebLLM's cache",
  );
  assert.equal(await page.evaluate(() => window.inpage.isCached()), true, "WebLLM's own hasModelInCache agrees");

  // A second load of the same model in the same origin reads every file from the cache.
  const second = await context.newPage();
  await second.goto(harness.origin + path);
  assert.equal((await startError(second))?.code, 'model_library_failed');
  const again = (await second.evaluate(() => window.inpageProgress)).filter((p) => p.phase === 'download');
  assert.deepEqual([...new Set(again.map((p) => new URL(p.file ?? '').pathname))].sort(), buildFiles('q4f32_1').sort());
  assert.ok(
    again.every((p) => p.cached === true),
    'every file came from the cache',
  );
  // This page was controlled from its start, so its engine worker's import of WebLLM's chunk
  // (kept out of the precache) went through the SW, which cached it for offline use.
  const lazy = await second.evaluate(async () =>
    (await (await caches.open('inpage-llm-lazy')).keys()).map((request) => new URL(request.url).pathname),
  );
  assert.equal(lazy.length, 1, JSON.stringify(lazy));
  assert.match(lazy[0] ?? '', /\/assets\/webllm-[\w-]+\.js$/);

  await second.evaluate(() => window.inpage.deleteCached());
  assert.equal(await second.evaluate(() => window.inpage.isCached()), false, 'deleteCached removes the model');
  await context.close();
});

test('webllm catalogue: /v1/models lists what this adapter can run as available; requesting one says load it first', async () => {
  const { page, context } = await harness.openPage('/?model=inpage-test&backend=auto');
  const list = await page.evaluate(async () => (await fetch('/v1/models')).json());
  const cards = list.data as Array<{
    id: string;
    status: string;
    backend: string;
    cached?: boolean;
    vram_required_mb?: number;
  }>;
  assert.equal(cards[0]?.id, 'inpage-test', 'the served model comes first');
  assert.equal(cards[0]?.status, 'ready');
  const qwen = cards.find((card) => card.id === 'Qwen2.5-0.5B-Instruct-q4f32_1-MLC');
  assert.ok(qwen, 'the f32 build of a catalogue model is listed');
  assert.equal(qwen.status, 'available');
  assert.equal(qwen.backend, 'webllm');
  assert.equal(qwen.cached, false);
  assert.ok((qwen.vram_required_mb ?? 0) > 100);
  assert.ok(!cards.some((card) => card.id === 'Qwen2.5-0.5B-Instruct-q4f16_1-MLC'), 'no f16 build without shader-f16');
  const notLoaded = await postFromPage(page, '/v1/completions', { model: qwen.id, prompt: 'a' });
  assert.equal(notLoaded.status, 503);
  assert.equal((notLoaded.body as { error: { code: string } }).error.code, 'model_not_loaded');
  const unknown = await postFromPage(page, '/v1/completions', { model: 'no-such-model', prompt: 'a' });
  assert.equal(unknown.status, 404);
  const served = await postFromPage(page, '/v1/completions', {
    model: 'inpage-test',
    prompt: 'abc',
    max_tokens: 2,
    temperature: 0,
  });
  assert.equal(served.status, 200);
  await context.close();
});
