import assert from 'node:assert/strict';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { after, before, test } from 'node:test';
import type { Page } from 'playwright';
import { buildInpageTestModel } from '../../src/builtin-model/inpage-test-model';
import { startHarness, type Harness } from './harness';
import { postFromPage } from './page-helpers';

// The real URL-loading path (download with progress, cache, load) against a GGUF file that
// the test serves locally: the generated model written to disk under another name.
const DIR = 'dist/test-models';
const FILE = `${DIR}/served-model.gguf`;

let harness: Harness;
let page: Page;

before(async () => {
  await mkdir(DIR, { recursive: true });
  await writeFile(FILE, buildInpageTestModel());
  harness = await startHarness();
  ({ page } = await harness.openPage('/?model=/test-models/served-model.gguf'));
});

after(async () => {
  await harness.close();
  await rm(DIR, { recursive: true, force: true });
});

test('a GGUF given by URL downloads with progress, loads and answers under its file name', async () => {
  const progress = await page.evaluate(() => window.inpageProgress);
  const downloads = progress.filter((report) => report.phase === 'download');
  assert.ok(downloads.length > 0, 'download progress was reported');
  assert.equal(downloads.at(-1)?.fraction, 1);
  assert.equal(downloads.at(-1)?.totalBytes, buildInpageTestModel().length);
  assert.equal(progress.at(-1)?.phase, 'ready');

  const response = await postFromPage(page, '/v1/completions', {
    model: 'served-model',
    prompt: 'abc',
    max_tokens: 5,
    temperature: 0,
  });
  assert.equal(response.status, 200);
  assert.equal((response.body as { choices: Array<{ text: string }> }).choices[0]?.text, 'defgh');

  const other = await postFromPage(page, '/v1/completions', { model: 'inpage-test', prompt: 'abc' });
  assert.equal(other.status, 404, 'only the loaded model is served');
});

test('inpage.load() adds a second model; both are listed and served, each under its id', async () => {
  const card = await page.evaluate(async () => window.inpage.load('inpage-test'));
  assert.equal(card.id, 'inpage-test');
  assert.equal(card.status, 'ready');
  const ids = await page.evaluate(async () =>
    ((await (await fetch('/v1/models')).json()).data as Array<{ id: string }>).map((entry) => entry.id),
  );
  assert.deepEqual(ids, ['served-model', 'inpage-test']);
  for (const model of ['served-model', 'inpage-test']) {
    const response = await postFromPage(page, '/v1/completions', {
      model,
      prompt: 'xyz',
      max_tokens: 3,
      temperature: 0,
    });
    assert.equal((response.body as { choices: Array<{ text: string }> }).choices[0]?.text, 'abc', model);
  }
});

test('a model that fails to load: ready rejects, and its requests get 503 model_load_failed', async () => {
  const { page: failing, context } = await harness.openPage('/?model=/test-models/missing.gguf', { waitReady: false });
  const startError = await failing.evaluate(() =>
    window.inpage.ready.then(
      () => null,
      (error: Error) => error.message,
    ),
  );
  assert.match(startError ?? '', /missing/);
  const response = await postFromPage(failing, '/v1/completions', { model: 'missing', prompt: 'abc' });
  assert.equal(response.status, 503);
  const error = (response.body as { error: { code: string; type: string; message: string } }).error;
  assert.equal(error.code, 'model_load_failed');
  assert.equal(error.type, 'server_error');
  assert.match(error.message, /missing/);
  await context.close();
});
