import assert from 'node:assert/strict';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { after, before, test } from 'node:test';
import { startHarness, type Harness } from './harness';
import { postFromPage } from './page-helpers';

// A tab without a runtime (a plain page of the same origin, controlled by the SW) is served
// by the engine of another tab, as MSW serves tabs; with no engine tab left it gets a 503.
const DIR = 'dist/test-tabs';

let harness: Harness;

before(async () => {
  await mkdir(DIR, { recursive: true });
  await writeFile(`${DIR}/plain.html`, '<!doctype html><title>plain</title><p>no runtime here</p>');
  harness = await startHarness();
});

after(async () => {
  await harness.close();
  await rm(DIR, { recursive: true, force: true });
});

test('a tab without an engine is served by the tab that has one, then 503 when it closes', async () => {
  const { context, page: engineTab } = await harness.openPage();
  const plain = await context.newPage();
  await plain.goto(`${harness.origin}/test-tabs/plain.html`);
  assert.equal(await plain.evaluate(() => navigator.serviceWorker.controller !== null), true, 'the plain tab is controlled');

  // Asking the plain tab (it never answers) would cost the SW's 2 s query timeout on every
  // request; the engine tab's hello lets the SW skip it. Best of three, so load cannot fake it.
  const times: number[] = [];
  for (let i = 0; i < 3; i++) {
    const started = Date.now();
    const served = await postFromPage(plain, '/v1/completions', { model: 'inpage-test', prompt: 'abc', max_tokens: 5, temperature: 0 });
    times.push(Date.now() - started);
    assert.equal(served.status, 200);
    assert.equal((served.body as { choices: Array<{ text: string }> }).choices[0]?.text, 'defgh');
  }
  assert.ok(Math.min(...times) < 2000, `served without the plain tab's query timeout (${times} ms)`);

  await engineTab.close();
  const orphan = await postFromPage(plain, '/v1/completions', { model: 'inpage-test', prompt: 'abc' });
  assert.equal(orphan.status, 503);
  assert.equal((orphan.body as { error: { code: string } }).error.code, 'engine_not_loaded');
  await context.close();
});
