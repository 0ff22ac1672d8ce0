/**
 * Cross-origin isolation from the Service Worker (`isolate`, `&isolate=`): the built playground
 * on a plain static server that sends no COOP/COEP (as GitHub Pages). The first load cannot be
 * isolated (its headers came from the server); from the second on, the SW serves the document
 * and the engine worker's script with COOP/COEP, the page and the engine worker are
 * `crossOriginIsolated`, and the endpoint answers exactly. A page started without `isolate`
 * turns it off again.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Page } from 'playwright';
import { postFromPage } from './page-helpers';
import { startStaticSite, type StaticSite } from './static-site';

let site: StaticSite;

before(async () => {
  site = await startStaticSite('dist', { isolationHeaders: false });
});

after(async () => {
  await site.close();
});

/** Whether the page and each of its workers (the engine's among them) are cross-origin isolated. */
async function isolation(page: Page): Promise<{ page: boolean; workers: boolean[] }> {
  await page.waitForFunction(() => 'inpage' in window);
  await page.evaluate(() => window.inpage.ready);
  return {
    page: await page.evaluate(() => self.crossOriginIsolated),
    workers: await Promise.all(page.workers().map((worker) => worker.evaluate(() => self.crossOriginIsolated))),
  };
}

async function completes(page: Page): Promise<void> {
  const response = await postFromPage(page, '/v1/completions', {
    model: 'inpage-test',
    prompt: 'abc',
    max_tokens: 5,
    temperature: 0,
  });
  assert.equal(response.status, 200, JSON.stringify(response.body));
  assert.equal((response.body as { choices: Array<{ text: string }> }).choices[0]?.text, 'defgh');
}

for (const mode of ['credentialless', 'require-corp'] as const) {
  test(`isolate: '${mode}' makes the second load cross-origin isolated, the engine worker too`, async () => {
    const { context, page } = await site.openPage(`/?model=inpage-test&isolate=${mode}`, { waitReady: false });
    try {
      assert.deepEqual((await isolation(page)).page, false, 'the first load has the server headers only');
      const reload = await page.reload();
      assert.equal(reload?.headers()['cross-origin-embedder-policy'], mode);
      assert.equal(reload?.headers()['cross-origin-opener-policy'], 'same-origin');
      const second = await isolation(page);
      assert.equal(second.page, true);
      assert.ok(second.workers.length > 0, 'the engine worker runs');
      assert.ok(
        second.workers.every((isolated) => isolated),
        `workers: ${JSON.stringify(second.workers)}`,
      );
      assert.equal(await page.evaluate(() => typeof SharedArrayBuffer), 'function');
      await completes(page);
    } finally {
      await context.close();
    }
  });
}

test('a page started without isolate turns it off for the next load', async () => {
  const { context, page } = await site.openPage('/?model=inpage-test&isolate=credentialless', { waitReady: false });
  try {
    await isolation(page);
    await page.goto(`${site.origin}/?model=inpage-test`);
    assert.equal((await isolation(page)).page, true, 'this load still came through the isolating SW');
    await page.reload();
    assert.equal((await isolation(page)).page, false, 'the SW registered without isolate adds no headers');
    await completes(page);
  } finally {
    await context.close();
  }
});
