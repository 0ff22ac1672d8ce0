import assert from 'node:assert/strict';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { BrowserContext } from 'playwright';
import { startStaticSite, type StaticSite } from './static-site';
import { makeTempApp, type TempApp } from './temp-app';
import { WEBLLM_DIR, writeWebLLMFixture } from './webllm-fixture';

// data-backend="webllm" from a folder that `init --dropin` filled, on SwiftShader's WebGPU
// (--enable-unsafe-webgpu): the engine worker imports WebLLM's chunk from beside it
// (inpage-llm/webllm.js), downloads the catalogue model (Hugging Face and GitHub are routed to
// the generated tiny model here: no network) and stops where no GPU can go further, at the
// model library, with the same 503 code as the library's webllm spec.
const CATALOGUE_ID = 'Qwen2.5-0.5B-Instruct-q4f16_1-MLC';
let app: TempApp;
let site: StaticSite;

before(async () => {
  await writeWebLLMFixture('webllm');
  app = await makeTempApp();
  await app.sh('npx inpage-llm init public --dropin');
  await writeFile(
    join(app.dir, 'public', 'index.html'),
    `<!doctype html><script src="/inpage-llm.js" data-model="${CATALOGUE_ID}" data-backend="webllm"></script>\n`,
  );
  // No data-backend: a catalogue id is WebLLM's. And a named backend that cannot run it.
  await writeFile(
    join(app.dir, 'public', 'no-backend.html'),
    `<!doctype html><script src="/inpage-llm.js" data-model="${CATALOGUE_ID}"></script>\n`,
  );
  await writeFile(
    join(app.dir, 'public', 'llamacpp.html'),
    `<!doctype html><script src="/inpage-llm.js" data-model="${CATALOGUE_ID}" data-backend="llamacpp"></script>\n`,
  );
  site = await startStaticSite(join(app.dir, 'public'), { args: ['--enable-unsafe-webgpu'] });
});

after(async () => {
  await site.close();
  await app.remove();
  await rm(WEBLLM_DIR, { recursive: true, force: true });
});

/** Serves the catalogue's q4f32 twin (SwiftShader has no shader-f16) from the generated fixture. */
async function routeCatalogue(context: BrowserContext, requested: string[]): Promise<void> {
  const cors = { 'access-control-allow-origin': '*', 'cross-origin-resource-policy': 'cross-origin' };
  await context.route(/^https:\/\/(huggingface\.co|raw\.githubusercontent\.com)\//, async (route) => {
    const url = route.request().url();
    requested.push(url);
    const file = url.endsWith('.wasm')
      ? `${WEBLLM_DIR}/tiny-q4f32_1.wasm`
      : `${WEBLLM_DIR}/tiny-q4f32_1-MLC/${url.slice(url.lastIndexOf('/') + 1)}`;
    const body = await readFile(file).catch(() => null);
    await route.fulfill(
      body ? { status: 200, headers: cors, body } : { status: 404, headers: cors, body: 'not found' },
    );
  });
}

test('a catalogue id with data-backend="webllm" loads WebLLM from the drop-in folder and fails at the model library', async () => {
  const requested: string[] = [];
  const chunk: string[] = [];
  const { page, context } = await site.openPage('/', {
    waitReady: false,
    beforeGoto: async (fresh) => {
      await routeCatalogue(fresh, requested);
      fresh.on('request', (request) => request.url().includes('webllm') && chunk.push(request.url()));
    },
  });
  await page.waitForFunction(() => 'inpage' in window);
  const failure = await page.evaluate(() =>
    window.inpage.ready.then(
      () => null,
      (error: { code?: string; message: string }) => ({ code: error.code ?? null, message: error.message }),
    ),
  );
  console.log('# drop-in webllm failure:', failure?.message);
  assert.equal(await page.evaluate(() => window.inpage.backend), 'webllm');
  assert.equal(failure?.code, 'model_library_failed', JSON.stringify({ failure, requested }));
  assert.match(failure?.message ?? '', /Qwen2-0\.5B-Instruct-q4f32_1_cs1k-webgpu\.wasm/);
  assert.ok(
    requested.some((url) => url.includes('Qwen2.5-0.5B-Instruct-q4f32_1-MLC/resolve/main/mlc-chat-config.json')),
    requested.join('\n'),
  );
  assert.ok(
    chunk.some((url) => url === `${site.origin}/inpage-llm/webllm.js`),
    `WebLLM's chunk came from the drop-in folder: ${chunk.join(', ')}`,
  );
  const errors = site.consoleMessages.filter((message) =>
    message.startsWith('error: [inpage-llm] The endpoint did not start'),
  );
  assert.equal(errors.length, 1, 'the drop-in says in the console why it did not start');
  await context.close();
});

test('a catalogue id without data-backend goes to WebLLM too (the same model-library failure)', async () => {
  const requested: string[] = [];
  const { page, context } = await site.openPage('/no-backend.html', {
    waitReady: false,
    beforeGoto: (fresh) => routeCatalogue(fresh, requested),
  });
  await page.waitForFunction(() => 'inpage' in window);
  const code = await page.evaluate(() =>
    window.inpage.ready.then(
      () => null,
      (error: { code?: string }) => error.code ?? null,
    ),
  );
  assert.equal(await page.evaluate(() => window.inpage.backend), 'webllm');
  assert.equal(code, 'model_library_failed', requested.join('\n'));
  await context.close();
});

test('data-backend="llamacpp" with a catalogue id: window.inpage is there, and ready rejects with a 400 model_not_found', async () => {
  const { page, context } = await site.openPage('/llamacpp.html', { waitReady: false });
  await page.waitForFunction(() => 'inpage' in window);
  const failure = await page.evaluate(() =>
    window.inpage.ready.then(
      () => null,
      (error: { code?: string; status?: number; message: string }) => ({
        code: error.code ?? null,
        status: error.status ?? null,
        message: error.message,
      }),
    ),
  );
  assert.equal(failure?.code, 'model_not_found', JSON.stringify(failure));
  assert.equal(failure?.status, 400);
  assert.match(failure?.message ?? '', /is a WebLLM model/);
  assert.ok(
    site.consoleMessages.some((message) =>
      message.startsWith(`error: [inpage-llm] The endpoint did not start: '${CATALOGUE_ID}' is a WebLLM model`),
    ),
    site.consoleMessages.join('\n'),
  );
  await context.close();
});
