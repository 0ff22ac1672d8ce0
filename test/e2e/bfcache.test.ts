import assert from 'node:assert/strict';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { after, before, test } from 'node:test';
import { startHarness, type Harness } from './harness';
import { postFromPage } from './page-helpers';

// A leader tab that goes into the back/forward cache cannot serve (it is frozen): it hands the
// engine lock on at `pagehide` (persisted), the follower takes over, and the restored tab
// rejoins as a follower, in line for the lock again. Playwright turns the cache off by
// default (`--disable-back-forward-cache`); this spec turns it back on.
const DIR = 'dist/test-bfcache';
const ABC = { model: 'inpage-test', prompt: 'abc', max_tokens: 5, temperature: 0 };
let harness: Harness;

before(async () => {
  await mkdir(DIR, { recursive: true });
  await writeFile(`${DIR}/elsewhere.html`, '<!doctype html><title>elsewhere</title><p>another page');
  harness = await startHarness({ ignoreDefaultArgs: ['--disable-back-forward-cache'] });
});

after(async () => {
  await harness.close();
  await rm(DIR, { recursive: true, force: true });
});

const text = (body: unknown) => (body as { choices: Array<{ text: string }> }).choices[0]?.text;

test('a leader in the back/forward cache hands the lock on; restored, it follows and takes over when the new leader goes', async () => {
  const { context, page: first } = await harness.openPage();
  const second = await context.newPage();
  await second.goto(`${harness.origin}/?model=inpage-test`);
  await second.evaluate(() => window.inpage.ready);
  assert.equal(await first.evaluate(() => window.inpage.role), 'leader');
  assert.equal(await second.evaluate(() => window.inpage.role), 'follower');
  await first.evaluate(() => {
    const state = window as unknown as { restored: boolean };
    state.restored = false;
    window.addEventListener('pageshow', (event) => (state.restored = event.persisted));
  });

  await first.goto(`${harness.origin}/test-bfcache/elsewhere.html`);
  const leftAt = Date.now();
  let takeOverMs = -1;
  while (Date.now() - leftAt < 10_000) {
    if ((await second.evaluate(() => window.inpage.role)) === 'leader') {
      takeOverMs = Date.now() - leftAt;
      break;
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  assert.ok(takeOverMs >= 0, 'the other tab leads while the first is in the back/forward cache');
  const served = await postFromPage(second, '/v1/completions', ABC);
  assert.equal(served.status, 200);
  assert.equal(text(served.body), 'defgh');

  await first.goBack({ waitUntil: 'commit' });
  assert.equal(
    await first.evaluate(() => (window as unknown as { restored: boolean }).restored),
    true,
    'restored from the cache (not reloaded)',
  );
  assert.equal(await first.evaluate(() => window.inpage.role), 'follower');
  const fromRestored = await postFromPage(first, '/v1/completions', ABC);
  assert.equal(fromRestored.status, 200, JSON.stringify(fromRestored.body));
  assert.equal(text(fromRestored.body), 'defgh');

  // Back in line for the lock: when the new leader closes, the restored tab takes over.
  await second.close();
  const again = await postFromPage(first, '/v1/completions', ABC);
  assert.equal(again.status, 200, JSON.stringify(again.body));
  assert.equal(text(again.body), 'defgh');
  assert.equal(await first.evaluate(() => window.inpage.role), 'leader');
  console.log(JSON.stringify({ takeOverMs }));
  await context.close();
});
