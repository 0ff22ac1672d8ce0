import assert from 'node:assert/strict';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { after, before, test } from 'node:test';
import type { Page } from 'playwright';
import { buildInpageTestModel } from '../../src/builtin-model/inpage-test-model';
import { startHarness, type Harness } from './harness';
import { axeViolations, postFromPage } from './page-helpers';
import { startRangeServer, type RangeServer } from './range-server';

// `inpage.models` and the playground's "Stored models" panel over the real model store (OPFS):
// a model served by URL is listed once stored, counted in `usage()`, shown and deleted from the
// panel (the running model keeps answering); one the engine is still downloading is refused with
// a 503 `model_in_use` and stays.
const DIR = 'dist/test-manager';
const MODEL = buildInpageTestModel();
let harness: Harness;
let server: RangeServer;

before(async () => {
  await mkdir(DIR, { recursive: true });
  await writeFile(`${DIR}/x.gguf`, MODEL);
  harness = await startHarness();
  server = await startRangeServer({ files: { '/slow.gguf': MODEL } });
});

after(async () => {
  await server.close();
  await harness.close();
  await rm(DIR, { recursive: true, force: true });
});

const list = (page: Page) => page.evaluate(() => window.inpage.models.list());

test('a stored model is listed, counted and shown; Delete in the panel removes it; the model keeps answering', async () => {
  const { context, page } = await harness.openPage('/?model=/test-manager/x.gguf');
  const models = await list(page);
  assert.equal(models.length, 1, JSON.stringify(models));
  const [model] = models;
  assert.ok(model);
  assert.equal(model.id, 'x');
  assert.equal(model.complete, true);
  assert.equal(model.bytes, MODEL.length);
  assert.equal(model.totalBytes, MODEL.length);
  assert.equal(model.parts, 1);
  assert.match(model.source, /\/test-manager\/x\.gguf$/);
  assert.ok(model.lastUsed >= model.created && model.created > Date.now() - 120_000, JSON.stringify(model));

  const usage = await page.evaluate(() => window.inpage.models.usage());
  assert.equal(usage.bytes, MODEL.length);
  assert.equal(usage.models, 1);
  assert.ok((usage.estimate.usage ?? 0) >= MODEL.length, JSON.stringify(usage));
  assert.ok((usage.estimate.quota ?? 0) > MODEL.length, JSON.stringify(usage));
  assert.equal(usage.persisted, await page.evaluate(() => navigator.storage.persisted()));

  const row = page.locator('stored-models tbody tr');
  await row.filter({ hasText: 'x' }).waitFor();
  assert.equal(await row.count(), 1);
  const cells = (await row.locator('td').allTextContents()).map((cell) => cell.trim());
  assert.deepEqual(cells.slice(0, 3), ['x', `${(MODEL.length / 2 ** 20).toFixed(1)} MB`, 'complete']);
  assert.notEqual(cells[3], '', 'last used is shown');
  assert.match((await page.locator('#storage-usage').textContent()) ?? '', / in 1 model · .* used by this origin · /);
  assert.deepEqual(await axeViolations(page), []);

  await page.getByRole('button', { name: 'Delete x' }).click();
  await page.locator('#stored-empty').waitFor();
  assert.match((await page.locator('#stored-status').textContent()) ?? '', /Deleted x\./);
  assert.deepEqual(await list(page), []);
  assert.equal(await page.evaluate(() => window.inpage.isCached()), false);
  // A store lookup leaves an empty folder behind: it stores nothing, so it is not listed.
  assert.deepEqual(await list(page), []);
  assert.equal((await page.evaluate(() => window.inpage.models.usage())).models, 0);
  assert.equal(await page.evaluate(() => window.inpage.models.delete('nope')), false);

  // Its weights are in the engine's memory: the running model still answers.
  const response = await postFromPage(page, '/v1/completions', {
    model: 'x',
    prompt: 'abc',
    max_tokens: 5,
    temperature: 0,
  });
  assert.equal(response.status, 200, JSON.stringify(response.body));
  assert.equal((response.body as { choices: Array<{ text: string }> }).choices[0]?.text, 'defgh');
  await context.close();
});

test('a model the engine is downloading cannot be deleted: 503 model_in_use, and it stays', async () => {
  server.rateLimit = 256 * 1024;
  try {
    const url = `${server.url}/slow.gguf`;
    const { context, page } = await harness.openPage(`/?model=${encodeURIComponent(url)}&connections=1`, {
      waitReady: false,
    });
    // Past 30% (1.8 MB), at least one 1 MiB write buffer is in the file.
    await page.waitForFunction(
      () => window.inpageProgress.some((p) => p.phase === 'download' && (p.fraction ?? 0) > 0.3),
      undefined,
      { timeout: 30_000, polling: 50 },
    );
    const [partial] = await list(page);
    assert.equal(partial?.id, 'slow');
    assert.equal(partial.complete, false);
    assert.ok(partial.bytes > 0 && partial.bytes < MODEL.length, JSON.stringify(partial));
    const refused = await page.evaluate(() =>
      window.inpage.models.delete('slow').then(
        (deleted) => ({ deleted }),
        (error: { status?: number; code?: string; message: string }) => ({
          status: error.status,
          code: error.code,
          message: error.message,
        }),
      ),
    );
    assert.equal(Reflect.get(refused, 'status'), 503, JSON.stringify(refused));
    assert.equal(Reflect.get(refused, 'code'), 'model_in_use');
    assert.match(String(Reflect.get(refused, 'message')), /'slow' is in use/);
    server.rateLimit = undefined;
    await page.evaluate(() => window.inpage.ready);
    const [stored] = await list(page);
    assert.equal(stored?.complete, true);
    assert.equal(stored.bytes, MODEL.length);
    assert.equal(await page.evaluate(() => window.inpage.models.delete('slow')), true);
    assert.deepEqual(await list(page), []);
    await context.close();
  } finally {
    server.rateLimit = undefined;
  }
});
