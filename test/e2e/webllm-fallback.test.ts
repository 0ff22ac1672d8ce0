import assert from 'node:assert/strict';
import { rm } from 'node:fs/promises';
import { after, before, test } from 'node:test';
import { startHarness, type Harness } from './harness';
import { postFromPage } from './page-helpers';
import { WEBLLM_DIR, writeWebLLMFixture } from './webllm-fixture';

// Without --enable-unsafe-webgpu Chromium has no WebGPU adapter: the webllm backend answers
// 503 webgpu_unavailable, and backend 'auto' serves the llama.cpp fallback instead.
let harness: Harness;
let webllmPath: string;
let autoPath: string;

before(async () => {
  webllmPath = await writeWebLLMFixture('webllm');
  autoPath = await writeWebLLMFixture('auto');
  harness = await startHarness();
});

after(async () => {
  await harness.close();
  await rm(WEBLLM_DIR, { recursive: true, force: true });
});

test('webllm without WebGPU: ready rejects and requests get 503 webgpu_unavailable with what to do', async () => {
  const { page, context } = await harness.openPage(webllmPath, { waitReady: false });
  const code = await page.evaluate(() =>
    window.inpage.ready.then(
      () => null,
      (error: { code?: string }) => error.code ?? null,
    ),
  );
  assert.equal(code, 'webgpu_unavailable');
  assert.equal((await page.evaluate(() => window.inpageProgress)).length, 0, 'nothing was downloaded');
  const response = await postFromPage(page, '/v1/completions', { model: 'tiny', prompt: 'abc', max_tokens: 3 });
  assert.equal(response.status, 503);
  const error = (response.body as { error: { code: string; message: string } }).error;
  assert.equal(error.code, 'webgpu_unavailable');
  assert.match(error.message, /WebGPU/);
  assert.match(error.message, /backend: 'auto'/);
  await context.close();
});

test("backend 'auto' without WebGPU: the llama.cpp fallback serves the request", async () => {
  const { page, context } = await harness.openPage(autoPath);
  assert.equal(await page.evaluate(() => window.inpage.model), 'inpage-test');
  assert.equal(await page.evaluate(() => window.inpage.backend), 'llamacpp');
  const response = await postFromPage(page, '/v1/completions', {
    model: 'inpage-test',
    prompt: 'abc',
    max_tokens: 5,
    temperature: 0,
  });
  assert.equal(response.status, 200);
  assert.equal((response.body as { choices: Array<{ text: string }> }).choices[0]?.text, 'defgh');
  const cards = await page.evaluate(
    async () => (await (await fetch('/v1/models')).json()) as { data: Array<Record<string, unknown>> },
  );
  assert.deepEqual(cards.data.map((card) => [card.id, card.backend, card.status, card.error_code ?? null]).sort(), [
    ['inpage-test', 'llamacpp', 'ready', null],
    ['tiny', 'webllm', 'failed', 'webgpu_unavailable'],
  ]);
  await context.close();
});
