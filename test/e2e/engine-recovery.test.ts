import assert from 'node:assert/strict';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { after, before, test } from 'node:test';
import type { Page } from 'playwright';
import { buildInpageTestModel } from '../../src/builtin-model/inpage-test-model';
import { engineWorker, nextAnswer } from './engine-worker-helpers';
import { startHarness, type Harness } from './harness';

// A killed engine worker is replaced, and the new one serves, whatever else happens around the
// kill: the Service Worker stopped before it and again during the reload, a failed
// `inpage.load()` before it, kills in a row, a kill during the restart's own load. Each
// scenario left main answering 503 `engine_not_loaded` (the first for the reload's duration,
// the others until a reload of the page).
const DIR = 'dist/test-recovery';
let harness: Harness;

before(async () => {
  await mkdir(DIR, { recursive: true });
  const model = buildInpageTestModel();
  await writeFile(`${DIR}/cut.gguf`, model.slice(0, Math.floor(model.length / 2)));
  harness = await startHarness();
});

after(async () => {
  await harness.close();
  await rm(DIR, { recursive: true, force: true });
});

async function stopServiceWorker(page: Page): Promise<void> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('ServiceWorker.enable');
  await cdp.send('ServiceWorker.stopAllWorkers');
  await cdp.detach();
}

async function killEngine(page: Page): Promise<void> {
  const worker = await engineWorker(page);
  void worker.evaluate(() => setTimeout(() => self.close(), 0)).catch(() => undefined);
  for (let i = 0; i < 200 && page.workers().includes(worker); i++) await new Promise((r) => setTimeout(r, 25));
}

/** Within `ms` of the kill, the endpoint answers `abc` exactly again. */
async function assertServedAgain(page: Page, ms: number): Promise<number> {
  const started = Date.now();
  let last = '';
  while (Date.now() - started < ms) {
    const next = await nextAnswer(page);
    if (next.status === 200) {
      assert.equal((next.body as { choices: Array<{ text: string }> }).choices[0]?.text, 'defgh');
      return Date.now() - started;
    }
    last = JSON.stringify(next.body);
    console.log(`  ${Date.now() - started} ms: ${next.status} ${last.slice(0, 160)}`);
    await new Promise((r) => setTimeout(r, 250));
  }
  assert.fail(`not served ${ms} ms after the kill; last answer ${last}`);
}

/** Resolves at the page runtime's next `crash` event. */
async function crashSeen(page: Page): Promise<void> {
  await page.evaluate(
    () =>
      new Promise<void>((resolve) =>
        (window.inpage as unknown as EventTarget).addEventListener('crash', () => resolve(), { once: true }),
      ),
  );
}

// Before the start bound (watch-engine.ts START_MS), the new worker's start could hang here:
// the SW stopped while its script's fetches were in flight, it never ran a line, and the
// request waited out the 60 s handover bound.
test('an engine kill after a Service Worker stop, with the SW stopped again during the reload: a request meanwhile waits and is answered', async () => {
  const { context, page } = await harness.openPage();
  await stopServiceWorker(page);
  const crash = crashSeen(page);
  await killEngine(page);
  await crash;
  // The SW that starts now never heard of the crash; the page still stands by for its model.
  await stopServiceWorker(page);
  const next = await nextAnswer(page);
  assert.equal(next.status, 200, `answered ${next.status} ${JSON.stringify(next.body)} ${next.ms} ms into the reload`);
  assert.equal((next.body as { choices: Array<{ text: string }> }).choices[0]?.text, 'defgh');
  console.log(JSON.stringify({ afterSwStop: { answeredMs: next.ms } }));
  await context.close();
});

test('four engine kills within a minute, after a failed inpage.load(): each time a new engine serves', async () => {
  const { context, page } = await harness.openPage();
  const outcome = await page.evaluate(
    (url) =>
      window.inpage.load(url).then(
        () => 'loaded',
        (error: { code?: string }) => error.code,
      ),
    '/test-recovery/cut.gguf',
  );
  assert.equal(outcome, 'model_load_failed');
  const servedMs: number[] = [];
  for (let kill = 0; kill < 4; kill++) {
    await killEngine(page);
    servedMs.push(await assertServedAgain(page, 30_000));
  }
  assert.equal(await page.evaluate(() => window.inpage.role), 'leader');
  console.log(JSON.stringify({ afterFailedLoad: { servedMs } }));
  await context.close();
});

test("an engine kill during the restart's load: the next restart serves", async () => {
  const { context, page } = await harness.openPage();
  const before = await engineWorker(page);
  await killEngine(page);
  // The new worker, killed while it loads the model.
  let reloading = before;
  for (let i = 0; i < 400 && reloading === before; i++) {
    reloading = page.workers().find((worker) => worker.url().includes('engine-worker')) ?? before;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  assert.notEqual(reloading, before, 'a new engine worker started');
  await killEngine(page);
  const ms = await assertServedAgain(page, 30_000);
  console.log(JSON.stringify({ duringReload: { servedMs: ms } }));
  await context.close();
});
