import assert from 'node:assert/strict';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { after, before, test } from 'node:test';
import type { Page } from 'playwright';
import { startHarness, type Harness } from './harness';
import { postFromPage } from './page-helpers';

// A page of another origin (localhost vs 127.0.0.1: same server, another origin) submits a
// text/plain form whose body is valid JSON to the endpoint's origin. The SW sees that
// navigation; it must refuse it without waking the engine.
const DIR = 'dist/test-cross';
const FIELD = '{"model":"inpage-test","prompt":"abc","max_tokens":5,"temperature":0,"user":"';

let harness: Harness;

before(async () => {
  await mkdir(DIR, { recursive: true });
  await writeFile(
    `${DIR}/form.html`,
    '<!doctype html><title>form</title><form method="post" enctype="text/plain"><input type="hidden"></form>',
  );
  harness = await startHarness();
});

after(async () => {
  await harness.close();
  await rm(DIR, { recursive: true, force: true });
});

/** Opens form.html at `pageOrigin`, posts the JSON-looking form to the endpoint, returns what the navigation got. */
async function postForm(
  page: Page,
  pageOrigin: string,
): Promise<{ status: number; body: { error?: { message: string; code: string } } }> {
  await page.goto(`${pageOrigin}/test-cross/form.html`);
  const [response] = await Promise.all([
    page.waitForNavigation({ url: '**/v1/completions' }),
    page.evaluate(
      ({ action, name }) => {
        const form = document.querySelector('form')!;
        const input = form.querySelector('input')!;
        form.action = action;
        input.name = name;
        input.value = '"}';
        form.submit();
      },
      { action: `${harness.origin}/v1/completions`, name: FIELD },
    ),
  ]);
  assert.ok(response, 'the form post navigated');
  return { status: response.status(), body: JSON.parse(await response.text()) };
}

test('a cross-origin text/plain form post to /v1/completions is a 403 and never reaches the engine', async () => {
  const { context, page: engineTab } = await harness.openPage();
  const before = (await engineTab.evaluate(() => window.inpage.recentRequests())).length;
  const attacker = await context.newPage();
  const otherOrigin = harness.origin.replace('127.0.0.1', 'localhost');
  const answer = await postForm(attacker, otherOrigin);
  console.log(JSON.stringify(answer));
  assert.equal(answer.status, 403);
  assert.equal(answer.body.error?.code, 'cross_origin_request');

  // A same-origin form post is no API client either: 415 (a form cannot send application/json).
  const sameOrigin = await postForm(await context.newPage(), harness.origin);
  console.log(JSON.stringify(sameOrigin));
  assert.equal(sameOrigin.status, 415);

  assert.equal(
    (await engineTab.evaluate(() => window.inpage.recentRequests())).length,
    before,
    'the engine ran no request',
  );
  // Real clients still work: the SDK (application/json) and a plain fetch with a string body.
  const sdk = await engineTab.evaluate(async () => {
    const client = new window.OpenAI({
      baseURL: location.origin + '/v1',
      apiKey: 'unused',
      dangerouslyAllowBrowser: true,
    });
    return (await client.completions.create({ model: 'inpage-test', prompt: 'abc', max_tokens: 5, temperature: 0 }))
      .choices[0]?.text;
  });
  assert.equal(sdk, 'defgh');
  const plain = await engineTab.evaluate(
    async () =>
      (
        await fetch('/v1/completions', {
          method: 'POST',
          body: JSON.stringify({ model: 'inpage-test', prompt: 'abc', max_tokens: 5, temperature: 0 }),
        })
      ).status,
  );
  assert.equal(plain, 200);
  assert.equal(
    (await postFromPage(engineTab, '/v1/completions', { model: 'inpage-test', prompt: 'abc', max_tokens: 1 })).status,
    200,
  );
  await context.close();
});
