/**
 * An embedding is a job like a generation: when the tab running the engine goes while an
 * embedding waits on it (queued behind a long stream), the request ends with a 503
 * `engine_gone` in bounded time (goodbye, or the keepalive's silence without one), or
 * it is re-routed to the tab that takes over the engine and answered exactly.
 */
import assert from 'node:assert/strict';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { after, before, test } from 'node:test';
import type { BrowserContext, Page } from 'playwright';
import { startHarness, type Harness } from './harness';

const DIR = 'dist/test-tabs-embeddings';
const EMBED = { model: 'inpage-test', input: 'ab' };

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

interface Answer {
  status: number;
  body: { error?: { code: string }; data?: Array<{ embedding: number[] }> };
  at: number;
}

/** From `tab`: a long stream, then (once it streams) an embedding queued behind it in the engine. */
async function embedBehindStream(tab: Page): Promise<void> {
  await tab.evaluate((embed) => {
    const post = (path: string, body: object) =>
      fetch(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const state = window as unknown as { started: Promise<void>; embedded: Promise<object> };
    let started!: () => void;
    state.started = new Promise((resolve) => (started = resolve));
    const stream = { model: 'inpage-test', prompt: 'hi ', max_tokens: 4000, temperature: 0, stream: true };
    void post('/v1/completions', stream).then(async (response) => {
      const reader = response.body!.getReader();
      for (;;) {
        const { done } = await reader.read().catch(() => ({ done: true }));
        if (done) return;
        started();
      }
    });
    state.embedded = state.started
      .then(() => post('/v1/embeddings', embed))
      .then(async (response) => ({ status: response.status, body: await response.json(), at: performance.now() }));
  }, EMBED);
  await tab.evaluate(() => (window as unknown as { started: Promise<void> }).started);
  await new Promise((resolve) => setTimeout(resolve, 300));
}

const embedded = (tab: Page) => tab.evaluate(() => (window as unknown as { embedded: Promise<Answer> }).embedded);

/**
 * A plain tab of `context` queues an embedding behind a stream on `engineTab`, which then
 * closes: the embedding must end with 503 engine_gone. Returns how long after the close it ended.
 */
async function closeDuringEmbedding(context: BrowserContext, engineTab: Page): Promise<number> {
  const plain = await context.newPage();
  await plain.goto(`${harness.origin}/test-tabs-embeddings/plain.html`);
  await embedBehindStream(plain);
  const closedAt = await plain.evaluate(() => performance.now());
  await engineTab.close();
  const answer = await embedded(plain);
  console.log(JSON.stringify({ endMs: Math.round(answer.at - closedAt), status: answer.status }));
  assert.equal(answer.status, 503);
  assert.equal(answer.body.error?.code, 'engine_gone');
  return answer.at - closedAt;
}

test('the engine tab closes while an embedding waits on it: 503 engine_gone within the keepalive bound', async () => {
  const { context, page: engineTab } = await harness.openPage();
  const endMs = await closeDuringEmbedding(context, engineTab);
  assert.ok(endMs < 3000, `the embedding ended ${endMs} ms after the close`);
  await context.close();
});

test('the engine tab goes without a goodbye while an embedding waits on it: 503 engine_gone within the keepalive bound', async () => {
  const { context, page: engineTab } = await harness.openPage();
  // As a tab that dies without its pagehide running: its goodbye never reaches the SW.
  await engineTab.evaluate(() => {
    const post = ServiceWorker.prototype.postMessage;
    Object.defineProperty(ServiceWorker.prototype, 'postMessage', {
      value(this: ServiceWorker, data: unknown, ...rest: unknown[]) {
        if (typeof data === 'object' && data !== null && Reflect.get(data, 'type') === 'client.goodbye') return;
        Reflect.apply(post, this, [data, ...rest]);
      },
    });
  });
  const endMs = await closeDuringEmbedding(context, engineTab);
  // The keepalive's silence bound (1.5 s), with room for a busy machine.
  assert.ok(endMs < 4000, `the embedding ended ${endMs} ms after the close`);
  await context.close();
});

test('the leader tab closes while an embedding waits on it: the tab that takes over answers it exactly', async () => {
  const { context, page: leader } = await harness.openPage();
  const follower = await context.newPage();
  await follower.goto(`${harness.origin}/?model=inpage-test`);
  await follower.evaluate(() => window.inpage.ready);
  assert.equal(await follower.evaluate(() => window.inpage.role), 'follower');
  await embedBehindStream(follower);
  await leader.close();
  const answer = await embedded(follower);
  assert.equal(answer.status, 200, JSON.stringify(answer.body));
  assert.equal(await follower.evaluate(() => window.inpage.role), 'leader');
  const vector = answer.body.data?.[0]?.embedding ?? [];
  assert.equal(vector.length, 320);
  assert.ok(Math.abs((vector[97] ?? 0) - Math.SQRT1_2) < 1e-5, `dimension 97: ${vector[97]}`);
  assert.ok(Math.abs((vector[98] ?? 0) - Math.SQRT1_2) < 1e-5, `dimension 98: ${vector[98]}`);
  await context.close();
});
