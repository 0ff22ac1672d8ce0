import assert from 'node:assert/strict';
import { rm } from 'node:fs/promises';
import { after, before, test } from 'node:test';
import type { Page } from 'playwright';
import { startHarness, WEBGPU_EVERYWHERE, type Harness } from './harness';
import { assertAnswersDefgh, postFromPage } from './page-helpers';
import { WEBLLM_DIR, writeWebLLMFixture } from './webllm-fixture';

// Without --enable-unsafe-webgpu Chromium has no WebGPU adapter: the webllm backend answers
// 503 webgpu_unavailable, and backend 'auto' serves the llama.cpp fallback instead.
/** Each test here needs a Chromium without WebGPU (not `npm run test:e2e:webgpu`'s). */
const NO_WEBGPU = { skip: WEBGPU_EVERYWHERE };

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

test(
  'webllm without WebGPU: ready rejects and requests get 503 webgpu_unavailable with what to do',
  NO_WEBGPU,
  async () => {
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
  },
);

test("backend 'auto' without WebGPU: the llama.cpp fallback serves the request", NO_WEBGPU, async () => {
  const { page, context } = await harness.openPage(autoPath);
  assert.equal(await page.evaluate(() => window.inpage.model), 'inpage-test');
  assert.equal(await page.evaluate(() => window.inpage.backend), 'llamacpp');
  await assertAnswersDefgh(page);
  const cards = await page.evaluate(
    async () => (await (await fetch('/v1/models')).json()) as { data: Array<Record<string, unknown>> },
  );
  assert.deepEqual(cards.data.map((card) => [card.id, card.backend, card.status, card.error_code ?? null]).sort(), [
    ['inpage-test', 'llamacpp', 'ready', null],
    ['tiny', 'webllm', 'failed', 'webgpu_unavailable'],
  ]);
  await context.close();
});

const CATALOGUE_ID = 'Qwen2.5-0.5B-Instruct-q4f16_1-MLC';

/** How `window.inpage.ready` settled: null when it resolved, else the error's code, status and message. */
function startOutcome(page: Page) {
  return page.evaluate(() =>
    window.inpage.ready.then(
      () => null,
      (error: { code?: string; status?: number; message: string }) => ({
        code: error.code ?? null,
        status: error.status ?? null,
        message: error.message,
      }),
    ),
  );
}

test(
  '?model=<WebLLM catalogue id> without ?backend= runs on webllm: no WebGPU here, so 503 webgpu_unavailable',
  NO_WEBGPU,
  async () => {
    const { page, context } = await harness.openPage(`/?model=${CATALOGUE_ID}`, { waitReady: false });
    await page.waitForFunction(() => 'inpage' in window);
    const outcome = await startOutcome(page);
    assert.equal(await page.evaluate(() => window.inpage.backend), 'webllm');
    assert.equal(outcome?.code, 'webgpu_unavailable', JSON.stringify(outcome));
    assert.match(await page.locator('notice-banner [data-kind="download-failed"]').innerText(), /WebGPU/);
    // The engine asked for the adapter; the page learnt the answer from it without asking again.
    await page.locator('notice-banner [data-kind="no-webgpu"]').waitFor();
    const response = await postFromPage(page, '/v1/completions', { model: CATALOGUE_ID, prompt: 'abc', max_tokens: 3 });
    assert.equal(response.status, 503);
    await context.close();
  },
);

test(
  'a named backend wins: ?backend=llamacpp with a catalogue id still sets window.inpage, whose ready rejects with why',
  NO_WEBGPU,
  async () => {
    const { page, context } = await harness.openPage(`/?model=${CATALOGUE_ID}&backend=llamacpp`, { waitReady: false });
    await page.waitForFunction(() => 'inpage' in window);
    const outcome = await startOutcome(page);
    assert.deepEqual(
      { code: outcome?.code, status: outcome?.status },
      { code: 'model_not_found', status: 400 },
      JSON.stringify(outcome),
    );
    assert.match(outcome?.message ?? '', /is a WebLLM model.*backend 'webllm' or 'auto'/);
    assert.equal(await page.evaluate(() => window.inpage.model), CATALOGUE_ID);
    assert.match(await page.locator('notice-banner [data-kind="download-failed"]').innerText(), /WebLLM model/);
    await context.close();
  },
);

// The page itself: the engine's worker asks once, for where a GGUF model runs (its card's accelerator_reason, docs/webgpu.md).
test(
  'a llama.cpp page does not ask for a WebGPU adapter itself, so the page logs no "No available adapters."',
  NO_WEBGPU,
  async () => {
    const context = await harness.browser.newContext();
    // tsx (esbuild keepNames) wraps functions passed to the page in __name(...).
    await context.addInitScript('globalThis.__name = (fn) => fn;');
    await context.addInitScript(() => {
      const gpu = Reflect.get(navigator, 'gpu') as { requestAdapter: (...args: unknown[]) => unknown } | undefined;
      const own = gpu?.requestAdapter.bind(gpu);
      Reflect.set(window, 'adapterRequests', 0);
      if (gpu && own)
        gpu.requestAdapter = (...args: unknown[]) => {
          Reflect.set(window, 'adapterRequests', Number(Reflect.get(window, 'adapterRequests')) + 1);
          return own(...args);
        };
    });
    const messages: string[] = [];
    context.on('console', (message) => messages.push(`${message.type()}: ${message.text()}`));
    const page = await context.newPage();
    await page.goto(`${harness.origin}/?model=inpage-test`);
    await page.evaluate(() => window.inpage.ready);
    await page.locator('model-picker td', { hasText: 'ready' }).waitFor();
    assert.equal(await page.evaluate(() => Reflect.get(window, 'adapterRequests')), 0);
    assert.deepEqual(
      messages.filter((message) => message.includes('No available adapters')),
      [],
      messages.join('\n'),
    );
    // Using the picker is a choice WebGPU matters to: asked then, once.
    await page.locator('#model').focus();
    await page.locator('notice-banner [data-kind="no-webgpu"]').waitFor();
    await page.locator('#prompt').focus();
    await page.locator('#model').focus();
    assert.equal(await page.evaluate(() => Reflect.get(window, 'adapterRequests')), 1);
    await context.close();
  },
);
