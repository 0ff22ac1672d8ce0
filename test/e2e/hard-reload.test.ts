import assert from 'node:assert/strict';
import { test } from 'node:test';
import { usePage } from './page-fixture';
import { postFromPage } from './page-helpers';

const fixture = usePage();

test('after a hard (cache-bypassing) reload the page starts uncontrolled, asks the SW to claim it, and the endpoint answers', async () => {
  const { page } = fixture;
  await page.context().addInitScript(() => {
    (window as unknown as { __controlledAtStart: boolean }).__controlledAtStart =
      navigator.serviceWorker.controller !== null;
  });
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Page.reload', { ignoreCache: true });
  await page.waitForFunction(() => 'inpage' in window);
  // A shift-reload leaves the new document without a controller until something claims it.
  const controlledAtStart = await page.evaluate(
    () => (window as unknown as { __controlledAtStart?: boolean }).__controlledAtStart,
  );
  assert.equal(controlledAtStart, false, 'the hard reload left the page uncontrolled at first');
  await page.evaluate(() => window.inpage.ready);
  assert.equal(await page.evaluate(() => navigator.serviceWorker.controller !== null), true, 'controlled once ready');
  const response = await postFromPage(page, '/v1/completions', {
    model: 'inpage-test',
    prompt: 'abc',
    max_tokens: 3,
    temperature: 0,
  });
  assert.equal((response.body as { choices: Array<{ text: string }> }).choices[0]?.text, 'def');
});
